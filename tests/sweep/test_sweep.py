"""The ER_q sweep: streaming checks against the in-memory constructions, the record, Dask, the command line.

* :func:`starlib.sweep.er_point` against a second method: the in-memory family ``er_edsts(q, labels="singer")``,
  verified by :func:`starlib.edst.verify.verify_edsts` on the built Singer graph, hashed with numpy's sort
  (:func:`~starlib.edst.factor.er.family_sha256`),
  depths by networkx BFS.
* :class:`~starlib.edst.factor.er.SingerChecker` catches each kind of broken family.
* :func:`~starlib.edst.factor.er.check_singer_isomorphism` against the dot-product graph mapped edge by edge,
  and on a wrong basis.
* The record: atomic, sorted, resumable (a rerun computes only the new points and keeps the old rows byte for byte).
* A real ``LocalCluster`` with 2 worker processes: one worker is killed with SIGKILL while tasks run, and every row
  arrives exactly once, with the same digests as a run in this process.
* The committed record ``data/er_sweep.csv``: every prime power q <= 1024 with both families at the bound and
  verified; a sample of rows (up to q = 521 > 512) recomputed here gives the same digests.
"""

import csv
import dataclasses
import io
import os
import signal
import time
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from starlib.cli import main
from starlib.edst.factor.er import (
    SingerChecker,
    check_singer_isomorphism,
    er_edst_bound,
    er_edsts,
    family_sha256,
    singer_graph,
    singer_model,
    verify_singer_edsts,
)
from starlib.edst.verify import verify_edsts
from starlib.factors import polarfly, polarfly_points
from starlib.primes import is_prime_power
from starlib.sweep import ER_COLUMNS, er_point, er_points, read_record, run_sweep, write_record
from starlib.sweep.engine import close_client, open_client
from starlib.sweep.er import ER_KEY
from tests.nx_trees import nx_depths
from tests.paths import ROOT

RECORD = ROOT / "data" / "er_sweep.csv"
SMALL = [2, 3, 4, 5, 7, 8, 9, 11, 16, 25, 27, 32]


@pytest.mark.parametrize("family", ["hamiltonian", "low-depth"])
@pytest.mark.parametrize("q", SMALL)
def test_point_agrees_with_the_in_memory_family(q, family):
    row = er_point(q, family)
    trees = er_edsts(q, family, labels="singer")
    assert verify_edsts(singer_graph(q), trees).valid
    n = q * q + q + 1
    assert (row["vertices"], row["edges"], row["bound"]) == (n, q * (q + 1) ** 2 // 2, (q + 1) // 2)
    assert row["trees"] == len(trees) == er_edst_bound(q)
    assert row["verified"] and row["difference_set"] and row["isomorphism"]
    assert row["sha256"] == family_sha256(trees)
    assert row["max_depth"] == max(nx_depths(trees))
    assert set(row) == set(ER_COLUMNS) and row["note"] == ""


def _family(q):
    return [(np.asarray(t.edges), t.root) for t in er_edsts(q, "low-depth", labels="singer")]


def _run(q, trees):
    """Check ``trees`` with a SingerChecker; the family verdict must agree with ``verify_singer_edsts`` (the
    vectorised verifier with messages, a second implementation of the same rules)."""
    C = SingerChecker(q)
    checks = [C.check(e, r) for e, r in trees]
    assert C.valid == verify_singer_edsts(q, [e for e, _ in trees]).valid
    return checks, C


def test_checker_catches_each_kind_of_broken_family():
    q = 7
    good = _family(q)
    checks, C = _run(q, good)
    assert all(c.ok for c in checks) and C.valid and C.trees == 4
    # the same tree twice: not disjoint
    checks, C = _run(q, [good[0], good[0]])
    assert checks[0].ok and not checks[1].disjoint and checks[1].spanning and not C.valid
    # one edge dropped: not spanning (still acyclic)
    e, r = good[1]
    c = _run(q, [(e[1:], r)])[0][0]
    assert not c.spanning and c.acyclic and c.member and c.disjoint
    # a non-edge: not a member
    S = singer_model(q)
    u, v = next((u, v) for u in range(S.n) for v in range(u + 1, S.n) if not S.in_D[(u + v) % S.n])
    c = _run(q, [(np.vstack([e[1:], [[u, v]]]), r)])[0][0]
    assert not c.member
    # an edge of another tree that closes a cycle in place of a tree edge: a cycle, two components
    f = good[2][0]
    for row in f:
        trial = np.vstack([e[1:], row[None, :]])
        c = _run(q, [(trial, r)])[0][0]
        if not c.acyclic:
            assert not c.spanning and c.member and c.disjoint
            break
    else:  # pragma: no cover
        pytest.fail("no edge of another tree closes a cycle")
    # an edge listed twice: a repeat (not disjoint)
    c = _run(q, [(np.vstack([e, e[:1]]), r)])[0][0]
    assert not c.disjoint and not c.acyclic
    # depth: from the stated root, as networkx measures it
    t = er_edsts(q, "hamiltonian", labels="singer")[0]
    assert _run(q, [(t.edges, t.root)])[0][0].depth == nx_depths([t])[0]


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 27, 32])
def test_isomorphism_check_against_the_dot_product_graph(q):
    r = check_singer_isomorphism(q)
    assert r.isomorphic and r.bijection and r.difference_set
    assert r.singer_edges == r.dot_edges == polarfly(q).m
    # the same map applied to polarfly(q)'s edges gives exactly the Singer edges
    S = singer_model(q)
    sing = S.index_of_points(polarfly_points(q))
    g = polarfly(q)
    mapped = {tuple(sorted(p)) for p in sing[g.edges].tolist()}
    assert mapped == {tuple(p) for p in S.edges().tolist()}


@pytest.mark.parametrize("q", [5, 8, 9])
def test_isomorphism_check_rejects_a_wrong_basis(q):
    S = singer_model(q)
    wrong = dataclasses.replace(S, basis=np.eye(3, dtype=np.int64))
    r = check_singer_isomorphism(q, wrong)
    assert not r.isomorphic and r.orthogonal < r.singer_edges


def test_record_round_trip_and_refusals(tmp_path):
    p = tmp_path / "r.csv"
    rows = [{"q": 11, "family": "b", "x": 1.5}, {"q": 3, "family": "a", "x": None}]
    write_record(p, rows, columns=("q", "family", "x"), key=("q", "family"))
    assert p.read_text() == "q,family,x\n3,a,\n11,b,1.5\n"  # sorted numerically by q
    got = read_record(p, columns=("q", "family", "x"), key=("q", "family"))
    assert list(got) == [("3", "a"), ("11", "b")]
    with pytest.raises(ValueError, match="two rows for the point"):
        write_record(p, rows + rows[:1], columns=("q", "family", "x"), key=("q", "family"))
    with pytest.raises(ValueError, match="exactly the record's columns"):
        write_record(p, [{"q": 1}], columns=("q", "family", "x"), key=("q", "family"))
    assert p.read_text() == "q,family,x\n3,a,\n11,b,1.5\n"  # refused writes leave the file
    with pytest.raises(ValueError, match="has the header"):
        read_record(p, columns=("q", "y"), key=("q",))
    p.write_text("q,family,x\n3,a,\n3,a,\n")
    with pytest.raises(ValueError, match="repeats the point"):
        read_record(p, columns=("q", "family", "x"), key=("q", "family"))
    p.write_text("q,family,x\n3,a\n")
    with pytest.raises(ValueError, match="2 cells, expected 3"):
        read_record(p, columns=("q", "family", "x"), key=("q", "family"))
    assert read_record(tmp_path / "absent.csv", columns=("q",), key=("q",)) == {}


@pytest.fixture(scope="module")
def client():
    c = open_client(workers=2)
    yield c
    close_client(c)


def _lines(path):
    return path.read_text().splitlines()


def test_sweep_resumes_without_losing_or_repeating_rows(tmp_path, client):
    p = tmp_path / "er.csv"
    first = run_sweep(er_points(2, 16), p, columns=ER_COLUMNS, key=ER_KEY, client=client)
    assert (first.total, first.skipped, first.computed) == (20, 0, 20)  # 10 prime powers <= 16
    before = _lines(p)
    second = run_sweep(er_points(2, 27), p, columns=ER_COLUMNS, key=ER_KEY, client=client)
    assert (second.total, second.skipped, second.computed) == (30, 20, 10)
    after = _lines(p)
    keys = [tuple(line.split(",")[:2]) for line in after[1:]]
    assert len(keys) == len(set(keys)) == 30
    assert set(before) <= set(after)  # the finished rows are kept byte for byte
    assert [int(k[0]) for k in keys] == sorted(int(k[0]) for k in keys)
    third = run_sweep(er_points(2, 27), p, columns=ER_COLUMNS, key=ER_KEY, client=client)
    assert third.computed == 0 and _lines(p) == after


def _fails_at_3(q):
    if q == 3:
        raise RuntimeError("planted failure")
    return {"q": q, "square": q * q}


def test_a_failing_task_gives_no_row_and_the_others_go_on(tmp_path, client):
    from starlib.sweep import Point

    p = tmp_path / "r.csv"
    pts = [Point(key=(str(q),), func=_fails_at_3, args=(q,)) for q in (2, 3, 4)]
    res = run_sweep(pts, p, columns=("q", "square"), key=("q",), client=client)
    assert res.computed == 2 and res.failed == [(("3",), "RuntimeError: planted failure")]
    assert _lines(p) == ["q,square", "2,4", "4,16"]


def test_killing_a_worker_mid_sweep_loses_no_row(tmp_path, client):
    p = tmp_path / "er.csv"
    points = er_points(2, 128)
    killed = {}

    def on_row(row, done, todo):
        if killed:
            return
        busy = {w: ts for w, ts in client.processing().items() if ts}
        if not busy:  # nothing running at this instant: try again at the next row
            return
        pids = client.run(os.getpid)
        victim = sorted(busy)[0]
        killed.update(address=victim, pid=pids[victim], running=list(busy[victim]), done=done)
        os.kill(pids[victim], signal.SIGKILL)

    result = run_sweep(points, p, columns=ER_COLUMNS, key=ER_KEY, client=client, on_row=on_row)
    assert killed and killed["running"] and killed["done"] < len(points)  # killed while its task ran
    with pytest.raises(ProcessLookupError):
        os.kill(killed["pid"], 0)
    assert result.computed == len(points)
    rows = list(csv.DictReader(io.StringIO(p.read_text())))
    keys = [(r["q"], r["family"]) for r in rows]
    assert sorted(keys) == sorted(pt.key for pt in points) and len(set(keys)) == len(keys)
    assert all(r["verified"] == "True" and r["trees"] == r["bound"] for r in rows)
    # the rows rerun after the kill carry the same digests as a run in this process
    for r in rows:
        if int(r["q"]) in (2, 27, 125, 128):
            assert r["sha256"] == er_point(int(r["q"]), r["family"])["sha256"]
    deadline = time.monotonic() + 60  # the nanny restarts the killed worker
    while len(client.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(client.scheduler_info()["workers"]) == 2


def _cli(args, cwd):
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(args)
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


def test_sweep_verb_writes_and_resumes(tmp_path):
    status, out, err = _cli(["sweep", "er", "--q-max", "5", "-o", "er.csv", "--workers", "1"], tmp_path)
    assert status == 0 and out == ""
    assert "wrote er.csv: 8 point(s) computed, 0 already in the record, 8 row(s) in all" in err
    assert "q=5 low-depth: 3 trees (bound 3), verified" in err
    status, out, err = _cli(["sweep", "er", "--q-max", "7", "-o", "er.csv", "--workers", "1", "-q"], tmp_path)
    assert status == 0 and err == ""
    assert len(_lines(tmp_path / "er.csv")) == 1 + 10


@pytest.mark.parametrize("args, fragment", [
    (["sweep", "er", "--q-max", "abc", "-o", "r.csv"], "--q-max='abc' is not an integer"),
    (["sweep", "er", "--q-min", "9", "--q-max", "8", "-o", "r.csv"], "q_max=8"),
    (["sweep", "er", "--q-max", "4096", "-o", "r.csv"], "--q-max=4096"),
    (["sweep", "er", "--q-min", "14", "--q-max", "15", "-o", "r.csv"], "no prime power in this range"),
    (["sweep", "er", "--family", "paths", "-o", "r.csv"], "family='paths' is not one of"),
    (["sweep", "er", "--family", "hamiltonian", "--family", "hamiltonian", "-o", "r.csv"], "give each family once"),
    (["sweep", "slimfly", "-o", "r.csv"], "SWEEP='slimfly' is not one of 'er'"),
    (["sweep", "er", "--workers", "0", "-o", "r.csv"], "--workers=0"),
    (["sweep", "er"], "the following arguments are required: -o/--output"),
    (["sweep", "er", "-o", "no/such/dir/r.csv"], "--output='no/such/dir/r.csv'"),
    (["sweep", "er", "--q-max", "3", "--scheduler", "tcp://127.0.0.1:9", "-o", "r.csv"], "scheduler='tcp://127.0.0.1:9'"),
])
def test_sweep_bad_input(tmp_path, args, fragment):
    status, out, err = _cli(args, tmp_path)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_sweep_refuses_a_foreign_record_and_keeps_it(tmp_path):
    (tmp_path / "r.csv").write_text("a,b\n1,2\n")
    status, out, err = _cli(["sweep", "er", "--q-max", "3", "-o", "r.csv"], tmp_path)
    assert status == 2 and "has the header ['a', 'b']" in err and err.count("\n") == 1
    assert (tmp_path / "r.csv").read_text() == "a,b\n1,2\n"


# ------------------------------------------------------------------------------------------------------------
# the committed record
# ------------------------------------------------------------------------------------------------------------
def _record():
    if not RECORD.exists():  # pragma: no cover
        pytest.fail(f"{RECORD} is missing: make sweep writes it")
    return read_record(RECORD, columns=ER_COLUMNS, key=ER_KEY)


def test_committed_record_covers_every_prime_power_to_1024():
    rows = _record()
    qs = [q for q in range(2, 1025) if is_prime_power(q)]
    assert sorted(rows) == sorted((str(q), f) for q in qs for f in ("hamiltonian", "low-depth"))
    for (q, f), r in rows.items():
        q = int(q)
        assert int(r["vertices"]) == q * q + q + 1 and int(r["edges"]) == q * (q + 1) ** 2 // 2
        assert int(r["trees"]) == int(r["bound"]) == (q + 1) // 2, (q, f)
        assert r["verified"] == r["difference_set"] == r["isomorphism"] == "True", (q, f)
        assert r["note"] == "", (q, f, r["note"])
        assert len(r["sha256"]) == 64 and float(r["seconds"]) >= 0 and int(r["peak_mb"]) > 0
        if f == "hamiltonian":  # a path rooted at its middle vertex
            assert int(r["max_depth"]) == (q * q + q) // 2
        elif q >= 3:  # Section 9 of docs/er-edsts.md: no maximum family is shallower than 3
            assert 3 <= int(r["max_depth"]) <= 5, (q, r["max_depth"])


@pytest.mark.parametrize("q", [2, 3, 4, 9, 31, 64, 125, 128, 256, 521])
@pytest.mark.parametrize("family", ["hamiltonian", "low-depth"])
def test_committed_record_sample_recomputes(q, family):
    r = _record()[(str(q), family)]
    row = er_point(q, family)
    for c in ER_COLUMNS:
        if c not in ("seconds", "peak_mb"):  # measurements, not results
            assert str(row[c]) == r[c], (q, family, c)
