"""The release metadata agree: one version (and date) in pyproject.toml, starlib.__version__, CITATION.cff,
.zenodo.json and the newest CHANGELOG.md entry; the YAML and JSON parse; the archive's title, license, keywords and
references are CITATION.cff's."""

from __future__ import annotations

import json
import re
import tomllib

import yaml

import starlib
from tests.paths import ROOT


def metadata():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    return project, cff, zenodo


def test_one_version_and_date_everywhere():
    project, cff, zenodo = metadata()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", (ROOT / "CHANGELOG.md").read_text(),
                          re.MULTILINE)
    assert releases[0][0] == project["version"] == starlib.__version__ == str(cff["version"]) == zenodo["version"]
    assert releases[0][1] == str(cff["date-released"]) == zenodo["publication_date"]
    assert [v for v, _ in releases] == sorted((v for v, _ in releases), key=lambda v: tuple(map(int, v.split("."))),
                                              reverse=True)


def test_the_archive_says_what_citation_cff_says():
    project, cff, zenodo = metadata()
    assert zenodo["upload_type"] == "software" and zenodo["title"] == cff["title"]
    assert zenodo["license"] == cff["license"] == project["license"]
    assert zenodo["keywords"] == cff["keywords"]
    assert [c["name"] for c in zenodo["creators"]] == [a["name"] for a in cff["authors"]]
    assert len(zenodo["references"]) == len(cff["references"])
    for text, ref in zip(zenodo["references"], cff["references"], strict=True):
        assert ref["title"] in text and str(ref.get("year", "")) in text
    arxiv = [i["value"] for r in cff["references"] for i in r.get("identifiers", []) if i["value"].startswith("arXiv")]
    assert [i["identifier"] for i in zenodo["related_identifiers"]] == [a.rsplit("v", 1)[0] for a in arxiv]


def test_every_extra_is_declared():
    """Each extra require_extra names is an optional dependency of pyproject.toml, and 'all' brings them all."""
    from starlib.validation import EXTRAS

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    assert extras["all"] == [f"starlib[{','.join(e for e in extras if e != 'all')}]"]
