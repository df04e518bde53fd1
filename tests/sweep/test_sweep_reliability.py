"""The sweep under stress: shared records, hand-edited and forged rows, bad input.

* Two real ``starlib sweep`` processes on one record: both finish and the record holds every row of both
  (the record is locked and re-read around each write).
* In one process, a run whose record another writer changes mid-run keeps the other writer's rows and does not
  overwrite a point it finished first.
* Rows are keyed canonically: a hand-edited ``02`` is the point ``2`` (read once, rewritten as ``2``).
* Every cell is validated by type, range and consistency with ``q``; a forged digest that passes those rules is
  caught by ``--check-record N`` (status 1, one line naming the row), which never writes the record.
* A table of bad inputs (:data:`BAD`): each gives status 2, one line naming the parameter or the record's line and
  column, and writes nothing.
"""

import csv
import io
import os
import subprocess
import sys

import pytest

from starlib.sweep import ER_COLUMNS, er_point, run_sweep
from starlib.sweep.engine import Point, check_scheduler
from starlib.sweep.er import ER_KEY, ER_RESULT_COLUMNS, check_er_row, read_er_record
from starlib.sweep.record import MAX_RECORD_BYTES, CellError, merge_record, read_record, write_record
from tests.sweep.test_sweep import _cli

SMALL = (2, 3, 4, 5, 7)  # the prime powers q <= 7: 10 points with both families
HEADER = ",".join(ER_COLUMNS)


@pytest.fixture(scope="module")
def rows():
    """The canonical text rows of every point with q <= 7, computed in this process (by key)."""
    out = {}
    for q in SMALL:
        for f in ("hamiltonian", "low-depth"):
            out[(str(q), f)] = {c: str(v) for c, v in er_point(q, f).items()}
    return out


def _text(rows, keys=None, lineterminator="\n"):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator=lineterminator)
    w.writerow(ER_COLUMNS)
    for k in keys if keys is not None else sorted(rows, key=lambda k: (int(k[0]), k[1])):
        w.writerow([rows[k][c] for c in ER_COLUMNS])
    return buf.getvalue()


def _line(row, **change):
    r = dict(row, **change)
    return ",".join(r[c] for c in ER_COLUMNS)


def _starlib(*args, cwd):
    return subprocess.Popen([sys.executable, "-m", "starlib", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


# ------------------------------------------------------------------------------------------------------------
# case 1: two writers on one record
# ------------------------------------------------------------------------------------------------------------
def test_two_sweep_processes_on_one_record_keep_every_row(tmp_path, rows):
    procs = [_starlib("sweep", "er", "--q-max", "7", "--family", f, "--workers", "1", "-q", "-o", "r.csv",
                      cwd=tmp_path) for f in ("hamiltonian", "low-depth")]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert out == "" and err == ""
    record = read_er_record(tmp_path / "r.csv")  # every cell validated
    assert len(record) == 10 and record["verified"].all()
    got = read_record(tmp_path / "r.csv", columns=ER_COLUMNS, key=ER_KEY, check=check_er_row)
    assert sorted(got) == sorted(rows)
    for k, r in got.items():
        assert all(r[c] == rows[k][c] for c in ER_RESULT_COLUMNS), k
    # the lock file is the only other file; the record is not rewritten by a rerun with nothing to do
    assert sorted(p.name for p in tmp_path.iterdir()) == [".r.csv.lock", "r.csv"]
    before = (tmp_path / "r.csv").read_bytes()
    status, _, err = _cli(["sweep", "er", "--q-max", "7", "-o", "r.csv"], tmp_path)
    assert status == 0 and "0 point(s) computed, 10 already in the record" in err
    assert (tmp_path / "r.csv").read_bytes() == before


def _square(q):
    return {"q": q, "square": q * q}


def test_rows_another_writer_adds_mid_run_survive(tmp_path):
    distributed = pytest.importorskip("distributed")
    p = tmp_path / "r.csv"
    cols, key = ("q", "square"), ("q",)
    points = [Point(key=(str(q),), func=_square, args=(q,)) for q in (2, 3, 4)]
    other = {}

    def on_row(row, done, todo):
        if not other:  # another process writes a point of its own and one of ours (with its own value)
            pending = next(str(q) for q in (2, 3, 4) if str(q) != str(row["q"]))
            other.update(pending=pending)
            merge_record(p, [{"q": 99, "square": 0}, {"q": pending, "square": -1}], columns=cols, key=key)

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as client:
        res = run_sweep(points, p, columns=cols, key=key, client=client, on_row=on_row)
    assert (res.computed, res.taken) == (2, 1)
    got = read_record(p, columns=cols, key=key)
    assert sorted(got, key=lambda k: int(k[0])) == [("2",), ("3",), ("4",), ("99",)]
    assert got[(other["pending"],)]["square"] == "-1"  # the other writer was first: its row stays


def test_merge_keeps_the_files_row_and_reports_what_it_added(tmp_path):
    p = tmp_path / "r.csv"
    write_record(p, [{"q": 2, "x": "a"}], columns=("q", "x"), key=("q",))
    merged, added = merge_record(p, [{"q": 2, "x": "b"}, {"q": 3, "x": "c"}], columns=("q", "x"), key=("q",))
    assert added == [("3",)] and merged[("2",)]["x"] == "a"
    assert p.read_text() == "q,x\n2,a\n3,c\n"


# ------------------------------------------------------------------------------------------------------------
# case 2: canonical keys
# ------------------------------------------------------------------------------------------------------------
def test_a_hand_edited_key_is_the_same_point_and_is_rewritten_canonically(tmp_path, rows):
    p = tmp_path / "r.csv"
    keys = [("2", "hamiltonian"), ("2", "low-depth"), ("3", "hamiltonian"), ("3", "low-depth")]
    text = _text(rows, keys).replace("\n2,hamiltonian,", "\n02,hamiltonian,")
    p.write_text(text)
    got = read_record(p, columns=ER_COLUMNS, key=ER_KEY, check=check_er_row)
    assert sorted(got) == sorted(keys) and got[("2", "hamiltonian")]["q"] == "2"
    # a run with nothing to do leaves the file as it is; the first row written rewrites it canonically
    status, _, err = _cli(["sweep", "er", "--q-max", "3", "-o", "r.csv"], tmp_path)
    assert status == 0 and "0 point(s) computed, 4 already in the record, 4 row(s) in all" in err
    assert p.read_text() == text
    merged, added = merge_record(p, [rows[("4", "hamiltonian")]], columns=ER_COLUMNS, key=ER_KEY,
                                 check=check_er_row)
    assert added == [("4", "hamiltonian")] and len(merged) == 5
    assert p.read_text() == _text(rows, keys + [("4", "hamiltonian")])  # one row q=2, written "2"


@pytest.mark.parametrize("edit", ["bom", "crlf", "empty", "header only", "uppercase digest"])
def test_tolerated_record_forms(tmp_path, rows, edit):
    p = tmp_path / "r.csv"
    keys = [("2", "hamiltonian"), ("2", "low-depth")]
    want = {k: rows[k] for k in keys}
    if edit == "bom":
        p.write_bytes(b"\xef\xbb\xbf" + _text(rows, keys).encode())
    elif edit == "crlf":
        p.write_bytes(_text(rows, keys, "\r\n").encode())
    elif edit == "empty":
        p.write_bytes(b"")
        want = {}
    elif edit == "header only":
        p.write_text(HEADER + "\n")
        want = {}
    else:
        p.write_text(_text(rows, keys).replace(rows[keys[0]]["sha256"], rows[keys[0]]["sha256"].upper()))
    assert read_record(p, columns=ER_COLUMNS, key=ER_KEY, check=check_er_row) == want
    merged, _ = merge_record(p, [rows[k] for k in keys], columns=ER_COLUMNS, key=ER_KEY, check=check_er_row)
    assert p.read_text() == _text(rows, keys)  # written canonically: no BOM, \n, lowercase digest


# ------------------------------------------------------------------------------------------------------------
# case 3: --check-record
# ------------------------------------------------------------------------------------------------------------
def test_check_record_on_a_good_record_passes_and_writes_nothing(tmp_path, rows):
    p = tmp_path / "r.csv"
    p.write_text(_text(rows))
    before = p.read_bytes()
    status, out, err = _cli(["sweep", "er", "--q-max", "7", "--check-record", "4", "-o", "r.csv", "-q"], tmp_path)
    assert status == 0 and err == ""
    assert out == "r.csv: 4 of 10 row(s) recomputed (seeded sample), 0 differ\n"
    assert p.read_bytes() == before and sorted(x.name for x in tmp_path.iterdir()) == ["r.csv"]
    # the sample is seeded: the same rows every time; more than the record holds checks them all
    status, out2, err2 = _cli(["sweep", "er", "--q-max", "7", "--check-record", "4", "-o", "r.csv"], tmp_path)
    assert status == 0 and out2 == out and err2.count("recomputed, same") == 4
    status, out, _ = _cli(["sweep", "er", "--q-max", "3", "--check-record", "50", "-o", "r.csv"], tmp_path)
    assert status == 0 and "4 of 4 row(s)" in out  # the rows of this sweep's range (q <= 3)


def test_check_record_finds_a_forged_digest(tmp_path, rows):
    p = tmp_path / "r.csv"
    forged = dict(rows)
    # a digest that passes every format rule: the other family's (a row copied and edited by hand)
    forged[("3", "hamiltonian")] = dict(rows[("3", "hamiltonian")], sha256=rows[("3", "low-depth")]["sha256"])
    forged[("5", "low-depth")] = dict(rows[("5", "low-depth")], max_depth="2")
    p.write_text(_text(forged))
    before = p.read_bytes()
    status, out, err = _cli(["sweep", "er", "--q-max", "7", "--check-record", "10", "-o", "r.csv", "-q"], tmp_path)
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3 and lines[-1] == "r.csv: 10 of 10 row(s) recomputed (seeded sample), 2 differ"
    assert lines[0].startswith("q=3 hamiltonian: differs from a recomputation in sha256 (record '")
    assert lines[1] == "q=5 low-depth: differs from a recomputation in max_depth (record '2', recomputed '5')"
    assert p.read_bytes() == before


def test_check_record_of_a_range_the_record_does_not_hold_is_refused(tmp_path, rows):
    (tmp_path / "r.csv").write_text(_text(rows))
    status, out, err = _cli(["sweep", "er", "--q-min", "8", "--q-max", "9", "--check-record", "2", "-o", "r.csv"],
                            tmp_path)
    assert status == 2 and out == ""
    assert err == ("error: --output='r.csv' holds no row of this sweep (q in 8 .. 9, families hamiltonian, "
                   "low-depth): nothing to check\n")


def test_recheck_er_record_is_the_library_side_of_check_record(tmp_path, rows):
    from starlib.sweep.er import er_points, recheck_er_record

    p = tmp_path / "r.csv"
    p.write_text(_text(rows))
    total, checked = recheck_er_record(p, er_points(2, 3), 50)
    assert total == 4 and list(checked) == [("2", "hamiltonian"), ("2", "low-depth"), ("3", "hamiltonian"),
                                            ("3", "low-depth")]
    assert all(bad == [] for bad in checked.values())
    assert recheck_er_record(p, er_points(8, 9), 2) == (0, {})


def test_check_er_row_accepts_every_computed_row(rows):
    for r in rows.values():
        assert check_er_row(r) == r


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "tls://sched.example.org:8786", "127.0.0.1:8786",
                                     "tcp://[::1]:8786"])
def test_scheduler_addresses_accepted(address):
    pytest.importorskip("distributed")
    assert check_scheduler(address) == address


# ------------------------------------------------------------------------------------------------------------
# cases 2, 4, 5: bad input, one table
# ------------------------------------------------------------------------------------------------------------
def _row(rows, **change):
    return _line(rows[("2", "hamiltonian")], **change)


def _good(rows):
    return _line(rows[("2", "hamiltonian")])


#: (name, record content: a function of the rows giving text/bytes, or a special kind; extra args; fragment)
BAD = [
    ("scheduler not an address", None, ["--scheduler", "garbage"],
     "--scheduler='garbage' is not a Dask scheduler address: need tcp://HOST:PORT (or tls://HOST:PORT)"),
    ("scheduler inproc", None, ["--scheduler", "inproc://x"], "--scheduler='inproc://x': an inproc address"),
    ("scheduler unknown scheme", None, ["--scheduler", "foo://h:1"], "has the scheme 'foo': not one of"),
    ("scheduler port out of range", None, ["--scheduler", "tcp://h:70000"], "has the port 70000: need a port"),
    ("scheduler without port", None, ["--scheduler", "tcp://h"], "--scheduler='tcp://h' is not a Dask scheduler"),
    ("q-max negative", None, ["--q-max", "-5"], "--q-max=-5 is too small: need an integer in 2 .. 2048"),
    ("q-max not an integer", None, ["--q-max", "7.5"], "--q-max='7.5' is not an integer"),
    ("q-max huge", None, ["--q-max", "9" * 30], "is too large: need an integer in 2 .. 2048"),
    ("q-min huge", None, ["--q-min", "99999"], "--q-min=99999 is too large"),
    ("workers huge", None, ["--workers", "100000"], "--workers=100000 is too large: need an integer in 1 .. 256"),
    ("workers not an integer", None, ["--workers", "two"], "--workers='two' is not an integer"),
    ("output standard output", None, ["-o", "-"], "--output='-': a sweep writes a record file"),
    ("check-record zero", "good", ["--check-record", "0"], "--check-record=0 is too small"),
    ("check-record negative", "good", ["--check-record", "-3"], "--check-record=-3 is too small"),
    ("check-record not an integer", "good", ["--check-record", "all"], "--check-record='all' is not an integer"),
    ("check-record without a record", None, ["--check-record", "3"], "does not exist: --check-record checks"),
    ("output a folder", "folder", [], "is a folder"),
    ("output a fifo", "fifo", [], "not a regular file"),
    ("record a link to /dev/zero", "devzero", [], "not a regular file"),
    ("record too large", "huge", [], f"a record is at most {MAX_RECORD_BYTES} bytes"),
    ("record another header", lambda r: "a,b\n1,2\n", [], "has the header ['a', 'b']"),
    ("record extra cell", lambda r: f"{HEADER}\n{_good(r)},x\n", [], "line 2 has 15 cells, expected 14"),
    ("record short row", lambda r: f"{HEADER}\n2,hamiltonian\n", [], "line 2 has 2 cells, expected 14"),
    ("record not UTF-8", lambda r: f"{HEADER}\n".encode() + _row(r, note="x").encode().replace(b"x", b"\xff"), [],
     "line 2 is not UTF-8 (byte 0xff"),
    ("record NUL byte", lambda r: f"{HEADER}\n{_good(r)}\n".replace("hamiltonian", "hamil\0tonian"), [],
     "line 2, column family='hamil\\x00tonian': one of"),
    ("record note with a control character",
     lambda r: f"{HEADER}\n{_row(r, note='construction failed: a' + chr(27))}\n", [], "(no control characters)"),
    ("record quote left open", lambda r: f"{HEADER}\n{_good(r)}\"x\n", [],
     "line 2 is not CSV (unexpected end of data)"),
    ("record duplicate after canonical key", lambda r: f"{HEADER}\n{_good(r)}\n{_row(r, q='02')}\n", [],
     "line 3 repeats the point {'q': '2', 'family': 'hamiltonian'} of line 2"),
    ("record q not a prime power", lambda r: f"{HEADER}\n{_row(r, q='6')}\n", [],
     "line 2, column q='6': a prime power in 2 .. 2048"),
    ("record q with a sign", lambda r: f"{HEADER}\n{_row(r, q='+2')}\n", [], "column q='+2': an integer in 2"),
    ("record unknown family", lambda r: f"{HEADER}\n{_row(r, family='Hamiltonian')}\n", [],
     "column family='Hamiltonian': one of hamiltonian, low-depth"),
    ("record vertices inconsistent", lambda r: f"{HEADER}\n{_row(r, vertices='8')}\n", [],
     "column vertices='8': 7 = q^2 + q + 1 for q = 2"),
    ("record bound inconsistent", lambda r: f"{HEADER}\n{_row(r, bound='2')}\n", [],
     "column bound='2': 1 = floor((q+1)/2) for q = 2"),
    ("record trees above the bound", lambda r: f"{HEADER}\n{_row(r, trees='3')}\n", [],
     "column trees='3': an integer in 0 .. 1 (at most the bound"),
    ("record verified without trees", lambda r: f"{HEADER}\n{_row(r, trees='0')}\n", [],
     "column verified='True': False when trees is 0"),
    ("record boolean misspelt", lambda r: f"{HEADER}\n{_row(r, isomorphism='yes')}\n", [],
     "column isomorphism='yes': True or False"),
    ("record hamiltonian depth forged", lambda r: f"{HEADER}\n{_row(r, max_depth='2')}\n", [],
     "column max_depth='2': 3 = (q^2 + q) / 2 for a verified hamiltonian family"),
    ("record digest of zeros", lambda r: f"{HEADER}\n{_row(r, sha256='0' * 64)}\n", [],
     "column sha256='" + "0" * 64 + "': a SHA-256 digest, not one digit repeated"),
    ("record digest not hex", lambda r: f"{HEADER}\n{_row(r, sha256='g' * 64)}\n", [],
     "a SHA-256 digest: 64 hex digits"),
    ("record digest short", lambda r: f"{HEADER}\n{_row(r, sha256='ab')}\n", [], "column sha256='ab'"),
    ("record negative seconds", lambda r: f"{HEADER}\n{_row(r, seconds='-0.1')}\n", [],
     "column seconds='-0.1': a non-negative decimal"),
    ("record seconds not a number", lambda r: f"{HEADER}\n{_row(r, seconds='nan')}\n", [], "column seconds='nan'"),
    ("record peak memory negative", lambda r: f"{HEADER}\n{_row(r, peak_mb='-1')}\n", [], "column peak_mb='-1'"),
    ("record note of another kind", lambda r: f"{HEADER}\n{_row(r, note='ok')}\n", [],
     "column note='ok': empty, or 'construction failed: '"),
]


@pytest.mark.parametrize("name, record, args, fragment", BAD, ids=[b[0] for b in BAD])
def test_sweep_bad_input_kinds(tmp_path, rows, name, record, args, fragment):
    target = tmp_path / "r.csv"
    if record == "good":
        target.write_text(_text(rows))
    elif record == "folder":
        target.mkdir()
    elif record == "fifo":
        os.mkfifo(target)
    elif record == "devzero":
        target.symlink_to("/dev/zero")
    elif record == "huge":
        with open(target, "wb") as f:
            f.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk used
    elif record is not None:
        data = record(rows)
        target.write_bytes(data if isinstance(data, bytes) else data.encode())
    before = {p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() and p.stat().st_size < 2 ** 20 else None)
              for p in tmp_path.iterdir()}
    argv = ["sweep", "er", "--q-max", "3", "-o", "r.csv", *args]
    status, out, err = _cli(argv, tmp_path)
    assert status == 2 and out == "", (name, err)
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err, (name, err)
    after = {p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() and p.stat().st_size < 2 ** 20 else None)
             for p in tmp_path.iterdir()}
    assert after == before  # nothing written: no record, no lock file


def test_bad_input_table_is_large():
    assert len(BAD) >= 40


def test_a_task_row_that_fails_the_check_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"rows: the row \{'q': '2'.*column trees='5'"):
        merge_record(tmp_path / "r.csv", [dict(er_point(2, "hamiltonian"), trees=5)], columns=ER_COLUMNS,
                     key=ER_KEY, check=check_er_row)
    assert list(tmp_path.iterdir()) == []


def test_cell_error_names_column_value_and_rule():
    e = CellError("q", "x", "an integer")
    assert (e.column, e.value, e.rule) == ("q", "x", "an integer") and isinstance(e, ValueError)
