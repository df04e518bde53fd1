"""Structure of the committed notebooks: the papermill conventions of the compendium."""

import ast
import json

import papermill as pm
import pytest

from tests.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_parameters_cell(path):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a notebook without code"
    first = code[0]
    assert "parameters" in first.get("metadata", {}).get("tags", []), "first code cell must be tagged parameters"
    tree = ast.parse("".join(first["source"]))
    assigned = []
    for node in tree.body:
        assert isinstance(node, ast.Assign), "the parameters cell holds assignments only"
        ast.literal_eval(node.value)  # literal defaults only
        assigned += [t.id for t in node.targets]
    assert "out_dir" in assigned
    # papermill must see every parameter (it silently skips lines it cannot parse)
    assert sorted(pm.inspect_notebook(str(path))) == sorted(assigned)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_with_outputs_and_no_volatile_metadata(path):
    nb = json.loads(path.read_text())
    assert "papermill" not in nb["metadata"]
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c.get("execution_count") for c in code), "commit the executed notebook"
    for c in code:
        assert "papermill" not in c.get("metadata", {})
        for out in c.get("outputs", []):
            assert out.get("output_type") != "error", "a committed cell raised"
    assert nb["cells"][0]["cell_type"] == "markdown" and nb["cells"][0]["source"][0].startswith("# ")


def test_runner_rejects_unknown_parameter(capsys):
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import run_notebook

    assert NOTEBOOKS
    assert run_notebook.main([str(NOTEBOOKS[0]), "-p", "no_such_parameter", "1", "--output", "/nonexistent"]) == 2
    assert "no_such_parameter" in capsys.readouterr().err
