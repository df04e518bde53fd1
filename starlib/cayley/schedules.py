"""All-port emulation of the star graph: schedules, their checker, and Figure 1 (Theorems 4 and 5).

Under the all-port model every node may use each of its links once per step. Every node emulates
all star dimensions ``j = 2..k`` at once: the packet for its dimension-``j`` neighbour follows the word
of :func:`~starlib.cayley.emulation.star_emulation_words` (``B_{j1+1} T_{j0+2} B_{j1+1}^-1``), one hop
per scheduled step. A :class:`Schedule` gives each hop a step; as the schedule is the same at every
node, two packets meet on a directed link ``(X, g)`` in one step exactly when two hops of the
schedule use link ``g`` in that step, so :func:`check_schedule` works on the generator level and
:func:`simulate_schedule` re-checks it packet by packet on all ``k!`` nodes.

- :func:`paper_allport_schedule` is the explicit schedule in the proof of Theorem 4 (``l = rn + 1``,
  and ``l <= n`` by truncation), formula by formula.
- :func:`allport_schedule` is a schedule for every ``(l, n)`` and all four networks (the proof's
  extension to ``l = rn - w`` is described in words only): forwarding step
  ``b = 2 + ((o - beta) mod max(n, l-1))`` for offset ``o`` in box ``beta + 2`` (a Latin rectangle,
  which is the proof's formula when ``l - 1 <= n``), sends in steps ``1..n`` and returns from step
  ``n + 1`` assigned greedily in the order of ``b``. Its length is ``max(2n, l+1)`` for MS and
  complete-RS and ``max(2n, l+2, n+3)`` for MIS and complete-RIS (with ``I_2``, ``I_2^-1`` parallel).
- :func:`optimal_schedule_length` finds the shortest schedule for the same words by integer
  programming (``scipy.optimize.milp``), an independent check of both.

Example
-------
>>> s = paper_allport_schedule("MS", 4, 3)           # Figure 1a: the 13-star on MS(4, 3)
>>> r = check_schedule(s)
>>> r.ok, r.length, round(r.utilisation, 4)
(True, 6, 0.8333)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..validation import check_choice
from .emulation import box_moves, link_ids, nucleus_word, star_emulation_words, target_map
from .families import family_info, family_k, generator_set
from .generators import Generator, transposition, word_map
from .permutations import PermutationSpace

__all__ = [
    "Schedule", "paper_allport_schedule", "allport_schedule", "ScheduleCheck", "check_schedule",
    "simulate_schedule", "optimal_schedule_length", "figure_table", "FIGURE1_PRINTED", "compare_printed",
    "decode_printed_rows",
]

_THEOREM4 = ("MS", "complete-RS")
_ALLPORT = ("MS", "complete-RS", "MIS", "complete-RIS")


@dataclass
class Schedule:
    """An all-port emulation schedule: for each star dimension ``j`` its hops ``[(step, generator), ...]``.

    Attributes
    ----------
    family : str
        Host abbreviation (``"MS"``, ``"complete-RS"``, ``"MIS"``, ``"complete-RIS"``).
    l, n : int
        Host parameters; ``k = n*l + 1``.
    jobs : dict
        ``j -> [(step, Generator), ...]``.
    method : str
        How it was made.
    """

    family: str
    l: int
    n: int
    jobs: dict[int, list[tuple[int, Generator]]]
    method: str = ""

    @property
    def k(self) -> int:
        """Number of symbols."""
        return self.n * self.l + 1

    @property
    def length(self) -> int:
        """Number of steps (the slowdown of the emulation)."""
        return max(t for hops in self.jobs.values() for t, _ in hops)

    @property
    def hops(self) -> int:
        """Number of link uses per node."""
        return sum(len(h) for h in self.jobs.values())

    def word(self, j: int) -> list[Generator]:
        """The word of dimension ``j``."""
        return [g for _, g in self.jobs[j]]

    def with_host(self, family: str) -> Schedule:
        """The same steps on another host of the same nucleus: box moves re-expressed (MS <-> complete-RS).

        In each word the first super generator becomes ``B_{j1+1}`` and the second ``B_{j1+1}^-1`` of ``family``.

        Examples
        --------
        >>> s = paper_allport_schedule("MS", 4, 3).with_host("complete-RS")
        >>> [g.name for g in s.word(13)], check_schedule(s).ok
        (['R^1', 'T_4', 'R^3'], True)
        """
        ab = family_info(family).abbrev
        if family_info(ab).nucleus != family_info(self.family).nucleus:
            raise ValueError(f"family={family!r} has other nucleus generators than {self.family}")
        jobs = {}
        for j, hops in self.jobs.items():
            b, binv = box_moves(ab, self.k, self.l, self.n, (j - 2) // self.n + 1, "corrected")
            supers = iter([b, binv])
            jobs[j] = [(t, next(supers) if g.kind == "super" else g) for t, g in hops]
        return Schedule(ab, self.l, self.n, jobs, self.method)


def paper_allport_schedule(family: str, l: int, n: int) -> Schedule:
    """The schedule written out in the proof of Theorem 4, formula by formula.

    For ``l = rn + 1``: step 1 sends ``T_j`` (``j <= n+1``); at step ``t = 1..n`` box ``i`` sends dimension
    ``u_i(t) = (i-1)n + 2 + ((i+t-3) mod n)`` through ``B_i``; in steps ``sn+2 .. (s+1)n+1`` the boxes
    ``i = sn+2 .. (s+1)n+1`` forward ``v_i(t) = (i-1)n + 2 + ((i+t-4) mod n)`` through ``T``; boxes
    ``2..n+1`` return ``u_i(t)`` through ``B_i^-1`` at ``t = n+1..2n``, the boxes of block ``s >= 1``
    return ``(i-1)n + 2 + ((i+t-5) mod n)`` at ``t = sn+3 .. (s+1)n+2``. For ``l <= n``: the schedule
    of ``(n+1, n)`` restricted to the boxes ``2..l``. ``B_i`` brings box ``i`` to the front (``S_i``;
    ``R^-(i-1)`` in complete-RS). Hop order is not enforced here: :func:`check_schedule` judges it.

    Parameters
    ----------
    family : {"MS", "complete-RS"}
    l, n : int
        ``l = r*n + 1`` for an integer ``r >= 1``, or ``2 <= l <= n``.

    Returns
    -------
    Schedule
        Every dimension's hops with the steps the proof gives them.

    Raises
    ------
    ValueError
        For other ``l`` (the proof gives no formula) or another family.

    Examples
    --------
    >>> s = paper_allport_schedule("MS", 4, 3)
    >>> [(t, g.name) for t, g in s.jobs[9]]          # dimension 9: box 3, offset 1
    [(1, 'S_3'), (2, 'T_3'), (4, 'S_3')]
    """
    info, k = family_k(family, l=l, n=n, allowed=_THEOREM4)
    ab = info.abbrev
    if (l - 1) % n != 0 and l > n:
        raise ValueError(f"l={l}, n={n}: the proof's explicit schedule needs l = r*n + 1 or l <= n "
                         f"(its extension to l = r*n - w is given in words only; use allport_schedule)")
    jobs: dict[int, list[tuple[int, Generator]]] = {j: [(1, transposition(k, j))] for j in range(2, n + 2)}

    def when(lo: int, hi: int, shift: int, i: int, o: int) -> int:
        return next(t for t in range(lo, hi + 1) if (i + t - shift) % n == o)

    for i in range(2, l + 1):
        s = (i - 2) // n
        b, binv = box_moves(ab, k, l, n, i, "corrected")
        for o in range(n):
            j = (i - 1) * n + 2 + o
            a = when(1, n, 3, i, o)
            f = when(s * n + 2, (s + 1) * n + 1, 4, i, o)
            c = when(n + 1, 2 * n, 3, i, o) if s == 0 else when(s * n + 3, (s + 1) * n + 2, 5, i, o)
            jobs[j] = [(a, b), (f, transposition(k, o + 2)), (c, binv)]
    return Schedule(ab, int(l), int(n), jobs, "proof of Theorem 4")


def allport_schedule(family: str, l: int, n: int) -> Schedule:
    """A conflict-free all-port schedule for every ``(l, n)`` (Theorems 4 and 5).

    Box ``i = beta + 2``, offset ``o`` (dimension ``j = (i-1)n + 2 + o``): the nucleus part starts at
    ``b = 2 + ((o - beta) mod M)``, ``M = max(n, l-1)`` (for each offset distinct over boxes, for each box
    distinct over offsets); for MIS / complete-RIS the selection follows at ``b + 1``. Sends take steps
    ``1..n`` and returns steps ``n+1, n+2, ...`` in the order of ``b`` (each as early as possible), so a
    box's sends and returns never share a step, which also keeps complete-RS's shared rotation links
    (``B_i^-1 = B_{l+2-i}``) free of conflicts. Direct dimensions ``j <= n+1`` go at steps 1 (and 2).

    Parameters
    ----------
    family : {"MS", "complete-RS", "MIS", "complete-RIS"}
    l, n : int

    Returns
    -------
    Schedule
        Of ``max(2n, l+1)`` steps on MS and complete-RS, ``max(2n, l+2, n+3)`` on MIS and complete-RIS (``n >= 2``).

    Raises
    ------
    ValueError
        For a family other than these four, or ``l``, ``n`` against the rules of ``check_ln``.

    Examples
    --------
    >>> [allport_schedule(f, 5, 3).length for f in ("MS", "complete-RS", "MIS", "complete-RIS")]
    [6, 6, 7, 7]
    """
    info, k = family_k(family, l=l, n=n, allowed=_ALLPORT)
    ab = info.abbrev
    kind = info.nucleus
    m = max(n, l - 1)
    jobs: dict[int, list[tuple[int, Generator]]] = {}
    for j in range(2, n + 2):
        jobs[j] = [(1 + p, g) for p, g in enumerate(nucleus_word(kind, k, j))]
    for beta in range(l - 1):
        i = beta + 2
        bgen, binv = box_moves(ab, k, l, n, i, "corrected")
        order = sorted(range(n), key=lambda o: (o - beta) % m)
        prev_c = n
        for a, o in enumerate(order, start=1):
            bstep = 2 + ((o - beta) % m)
            core = nucleus_word(kind, k, o + 2)
            hops = [(bstep + p, g) for p, g in enumerate(core)]
            c = max(hops[-1][0] + 1, prev_c + 1)
            prev_c = c
            jobs[(i - 1) * n + 2 + o] = [(a, bgen), *hops, (c, binv)]
    return Schedule(ab, int(l), int(n), dict(sorted(jobs.items())), "Latin-rectangle forwarding, greedy returns")


@dataclass
class ScheduleCheck:
    """Result of :func:`check_schedule`.

    Attributes
    ----------
    words_ok : bool
        Every dimension's word composes to ``T_j`` (the packet reaches the star neighbour).
    order_ok : bool
        Every packet's hops are in strictly increasing steps ``>= 1``.
    conflicts : list
        ``(step, link, [dimensions])`` for every link used more than once in a step.
    length : int
        Number of steps.
    degree : int
        Links per node in the chosen convention.
    utilisation : float
        Link uses / (steps x degree).
    busy : list
        Number of links used in each step.
    bad_order : list
        Dimensions whose hops are out of order.
    """

    words_ok: bool
    order_ok: bool
    conflicts: list
    length: int
    degree: int
    utilisation: float
    busy: list = field(default_factory=list)
    bad_order: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Complete, ordered and conflict-free."""
        return self.words_ok and self.order_ok and not self.conflicts


def check_schedule(schedule: Schedule, coincident: str = "parallel") -> ScheduleCheck:
    """Check that a schedule emulates every star dimension and uses no link twice in a step.

    Parameters
    ----------
    schedule : Schedule
    coincident : {"parallel", "merge"}
        Whether ``I_2`` / ``I_2^-1`` (and ``R`` / ``R^-1``) are separate links.

    Returns
    -------
    ScheduleCheck

    Examples
    --------
    >>> check_schedule(paper_allport_schedule("MS", 2, 1)).bad_order    # the proof's formula for n = 1
    [3]
    """
    s = schedule
    host = generator_set(s.family, l=s.l, n=s.n)
    ids, names = link_ids(host, coincident)
    words_ok = sorted(s.jobs) == list(range(2, s.k + 1)) and all(
        word_map(s.word(j)) == target_map(j, s.k) for j in s.jobs)
    bad_order = [j for j, hops in s.jobs.items()
                 if hops[0][0] < 1 or any(t2 <= t1 for (t1, _), (t2, _) in zip(hops, hops[1:], strict=False))]
    use: dict[tuple[int, int], list[int]] = defaultdict(list)
    for j, hops in s.jobs.items():
        for t, g in hops:
            if g.name not in ids:
                raise ValueError(f"schedule: generator {g.name} of dimension {j} is not a link of {s.family}")
            use[(t, ids[g.name])].append(j)
    conflicts = sorted((t, names[lid], js) for (t, lid), js in use.items() if len(js) > 1)
    length = s.length
    busy = [len({lid for (t, lid) in use if t == step}) for step in range(1, length + 1)]
    util = s.hops / (length * len(names))
    return ScheduleCheck(words_ok, not bad_order, conflicts, length, len(names), util, busy, bad_order)


def simulate_schedule(space: PermutationSpace, schedule: Schedule, coincident: str = "parallel") -> tuple[bool, int]:
    """Run a schedule packet by packet on all ``k!`` nodes.

    Every node sends one packet per star dimension; each step moves the packets whose hop is
    scheduled, and counts the packets on every directed link ``(node, link)``.

    Parameters
    ----------
    space : PermutationSpace
        For ``k = n*l + 1``.
    schedule : Schedule
    coincident : {"parallel", "merge"}

    Returns
    -------
    tuple
        ``(every packet arrived at its star neighbour, most packets on one directed link in one step)``.

    Examples
    --------
    >>> simulate_schedule(PermutationSpace(5), allport_schedule("MIS", 2, 2))
    (True, 1)
    """
    s = schedule
    if space.k != s.k:
        raise ValueError(f"space: built for k = {space.k}, the schedule needs k = {s.k}")
    host = generator_set(s.family, l=s.l, n=s.n)
    ids, names = link_ids(host, coincident)
    nl = len(names)
    pos = {j: np.arange(space.size, dtype=np.int64) for j in s.jobs}
    worst = 0
    for step in range(1, s.length + 1):
        load = np.zeros(space.size * nl, dtype=np.int64)
        for j, hops in s.jobs.items():
            for t, g in hops:
                if t == step:
                    load += np.bincount(pos[j] * nl + ids[g.name], minlength=load.size)
                    pos[j] = space.neighbors(g.perm)[pos[j]]
        worst = max(worst, int(load.max()))
    arrived = all(np.array_equal(pos[j], space.neighbors(target_map(j, s.k))) for j in s.jobs)
    return arrived, worst


def optimal_schedule_length(family: str, l: int, n: int, coincident: str = "parallel",
                            max_extra: int = 6) -> tuple[int, Schedule]:
    """The fewest steps of any node-uniform all-port schedule for the proofs' words (integer programming).

    Binary ``x[h, t]``: hop ``h`` happens at step ``t``; each hop once, hops of a packet in increasing
    steps, each link at most once per step. Lengths are tried upwards from the lower bound
    ``max(longest word, busiest link)``.

    Parameters
    ----------
    family : {"MS", "complete-RS", "MIS", "complete-RIS"}
    l, n : int
    coincident : {"parallel", "merge"}
    max_extra : int
        Give up (``ValueError``) beyond the lower bound plus this.

    Returns
    -------
    tuple
        ``(length, an optimal Schedule)``.

    Raises
    ------
    ValueError
        For bad arguments or if no schedule is found within the range.

    Examples
    --------
    >>> optimal_schedule_length("MIS", 2, 2)[0]       # Theorem 5 claims max(2n, l+2) = 4
    5
    """
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    ab = family_k(family, l=l, n=n, allowed=_ALLPORT)[0].abbrev
    words = star_emulation_words(ab, l=l, n=n)
    host = generator_set(ab, l=l, n=n)
    ids, names = link_ids(host, coincident)
    hops = [(j, p, g, ids[g.name], len(w)) for j, w in words.items() for p, g in enumerate(w)]
    load = Counter(h[3] for h in hops)
    lower = max(max(len(w) for w in words.values()), max(load.values()))
    for length in range(lower, lower + max_extra + 1):
        var: dict[tuple[int, int], int] = {}
        for hi, (_, p, _, _, wl) in enumerate(hops):
            for t in range(p + 1, length - (wl - 1 - p) + 1):
                var[(hi, t)] = len(var)
        rows, cols, vals, lo, up = [], [], [], [], []
        r = 0
        for hi in range(len(hops)):                       # each hop exactly once
            for (h2, _t), v in var.items():
                if h2 == hi:
                    rows.append(r), cols.append(v), vals.append(1.0)
            lo.append(1.0), up.append(1.0)
            r += 1
        for hi, (_, p, _, _, wl) in enumerate(hops):       # precedence within a packet
            if p + 1 < wl:
                for (h2, t), v in var.items():
                    if h2 == hi:
                        rows.append(r), cols.append(v), vals.append(-float(t))
                    elif h2 == hi + 1:
                        rows.append(r), cols.append(v), vals.append(float(t))
                lo.append(1.0), up.append(np.inf)
                r += 1
        by_link_step: dict[tuple[int, int], list[int]] = defaultdict(list)
        for (hi, t), v in var.items():
            by_link_step[(hops[hi][3], t)].append(v)
        for vs in by_link_step.values():                   # link capacity
            if len(vs) > 1:
                for v in vs:
                    rows.append(r), cols.append(v), vals.append(1.0)
                lo.append(-np.inf), up.append(1.0)
                r += 1
        a = coo_matrix((vals, (rows, cols)), shape=(r, len(var))).tocsr()
        res = milp(np.zeros(len(var)), constraints=LinearConstraint(a, lo, up),
                   integrality=np.ones(len(var)), bounds=Bounds(0, 1))
        if res.status == 0:
            x = np.round(res.x).astype(int)
            jobs: dict[int, list[tuple[int, Generator]]] = defaultdict(list)
            for (hi, t), v in sorted(var.items()):
                if x[v]:
                    jobs[hops[hi][0]].append((t, hops[hi][2]))
            jobs = {j: sorted(h, key=lambda th: th[0]) for j, h in sorted(jobs.items())}
            return length, Schedule(ab, int(l), int(n), jobs, f"integer program ({coincident} links)")
        if res.status != 2:
            raise ValueError(f"milp failed for {ab}({l}, {n}) at length {length}: {res.message}")
    raise ValueError(f"no schedule of length <= {lower + max_extra} for {ab}({l}, {n}); raise max_extra")


# -- Figure 1 -------------------------------------------------------------------------------------------

#: Figure 1 of the paper (Section 4, after the proof of Theorem 4), transcribed from a text copy of the paper in
#: which the table lost cells: each row lists the cells of one step from dimension 2 on, as they stand there
#: ('' = an empty cell that survived; empty cells were otherwise dropped, so short rows have lost cells).
#: The figure writes T_1 for T_2 (see column 2) and R^{j1} for both B_{j1+1} and B_{j1+1}^-1.
FIGURE1_PRINTED: dict[str, dict] = {
    "a": {"l": 4, "n": 3, "title": "13-star on MS(4, 3) / complete-RS(4, 3)", "rows": [
        ["T_1", "T_3", "T_4", "R^1", "—", "—", "R^2", "—", "—", "R^3"],
        ["", "", "", "T_1", "R^1", "—", "—", "T_3", "R^2", "R^3", "—", "T_4"],
        ["", "", "", "—", "T_3", "R^1", "R^2", "—", "T_4", "T_1", "R^3", "—"],
        ["", "", "", "R^1", "—", "T_4", "T_1", "R^2", "—", "—", "T_3", "R^3"],
        ["", "", "", "R^1", "—", "—", "R^2", "R^3", "—"],
        ["", "", "", "R^1", "R^2", "", "", "", "", "R^3"],
    ]},
    "b": {"l": 5, "n": 3, "title": "16-star on MS(5, 3) / complete-RS(5, 3)", "rows": [
        ["T_1", "T_3", "T_4", "R^1", "—", "—", "R^2", "—", "—", "R^3", "—", "R^4", "—"],
        ["", "", "", "T_1", "R^1", "—", "—", "R^2", "R^3", "—", "T_4", "—", "T_3", "R^4"],
        ["", "", "", "—", "T_3", "R^1", "R^2", "—", "T_4", "T_1", "R^3", "—", "R^4", "—"],
        ["", "", "", "R^1", "—", "T_1", "—", "R^2", "—", "T_3", "R^3", "—", "R^4", "T_4"],
        ["", "", "", "R^1", "T_4", "R^2", "T_3", "R^3", "—", "T_1", "R^4"],
        ["", "", "", "R^1", "R^2", "", "", "", "", "R^3", "R^4"],
    ]},
}

#: the figure's label for T_2
FIGURE1_LABELS = {"T_1": "T_2"}


def _cells(schedule: Schedule, notation: str) -> list[list[str]]:
    """Rows of cells (dimension 2..k) of a schedule: hop name, '—' while pending, '' when done."""
    s = schedule
    rows = []
    for step in range(1, s.length + 1):
        row = []
        for j in range(2, s.k + 1):
            hops = s.jobs[j]
            cell = ""
            for t, g in hops:
                if t == step:
                    cell = f"R^{(j - 2) // s.n}" if (notation == "figure" and g.kind == "super") else g.name
            if not cell and step < hops[-1][0]:
                cell = "—"
            row.append(cell)
        rows.append(row)
    return rows


def figure_table(schedule: Schedule, notation: str = "host") -> pd.DataFrame:
    """The schedule in the layout of Figure 1: one row per step, one column per star dimension.

    Parameters
    ----------
    schedule : Schedule
    notation : {"host", "figure"}
        ``"host"``: the host's generator names (``S_3``, ``R^2``); ``"figure"``: the figure's
        ``R^{j1}`` for both the move to the front and back.

    Returns
    -------
    pandas.DataFrame
        Column ``step`` and one column per dimension ``"2" .. "k"``; ``—`` marks a packet waiting
        (or not yet sent), an empty cell a packet delivered.

    Raises
    ------
    ValueError
        For another notation.

    Examples
    --------
    >>> figure_table(paper_allport_schedule("MS", 2, 2)).iloc[:, :5].values.tolist()
    [[1, 'T_2', 'T_3', 'S_2', '—'], [2, '', '', 'T_2', 'S_2'], [3, '', '', 'S_2', 'T_3'], [4, '', '', '', 'S_2']]
    """
    check_choice(notation, "notation", ("host", "figure"))
    rows = _cells(schedule, notation)
    cols = [str(j) for j in range(2, schedule.k + 1)]
    df = pd.DataFrame(rows, columns=cols)
    df.insert(0, "step", list(range(1, len(rows) + 1)))
    return df


def _dash_step(state: dict[int, int], cell: str, printed: Sequence[str]) -> dict[int, int]:
    """One regenerated cell of the match against a printed row (whose lost cells were dropped).

    ``state`` maps the number of printed cells matched so far to the fewest '—' cells deleted to get there;
    a '—' may match or be deleted, any other cell must match, an empty cell is not printed and changes nothing.
    """
    if not cell:
        return state
    nxt: dict[int, int] = {}
    for p, d in state.items():
        if p < len(printed) and printed[p] == cell:
            nxt[p + 1] = min(nxt.get(p + 1, 1 << 30), d)
        if cell == "—":
            nxt[p] = min(nxt.get(p, 1 << 30), d + 1)
    return nxt


def _dash_match(printed: Sequence[str], full: Sequence[str]) -> int | None:
    """Fewest '—' cells to delete from ``full`` to obtain ``printed`` (None if impossible)."""
    state = {0: 0}
    for cell in full:
        state = _dash_step(state, cell, printed)
    return state.get(len(printed))


def compare_printed(schedule: Schedule, printed_rows: Sequence[Sequence[str]],
                    labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Compare a schedule's Figure-1 table with the printed rows, step by step.

    A printed row with all ``k - 1`` cells is compared cell by cell. A shorter row (cells lost in
    extraction) is compared as a sequence of non-empty cells: it *agrees* if deleting some ``—``
    cells from the regenerated row gives the printed one.

    Parameters
    ----------
    schedule : Schedule
    printed_rows : sequence of sequences of str
        As in :data:`FIGURE1_PRINTED`.
    labels : mapping, optional
        Printed label -> meaning (default :data:`FIGURE1_LABELS`, ``T_1`` means ``T_2``).

    Returns
    -------
    pandas.DataFrame
        Columns ``step, printed_cells, regenerated_cells, verdict, left_aligned_mismatch``: the last
        lists the dimensions whose cell differs when the printed row is read left-aligned (given for
        full rows and for rows that have lost ``—`` cells).

    Examples
    --------
    >>> s = paper_allport_schedule("MS", 4, 3)
    >>> compare_printed(s, FIGURE1_PRINTED["a"]["rows"])["verdict"].tolist()[1:]
    ['identical', 'identical', 'identical', 'agrees (empty cells lost)', 'agrees (empty cells lost)']
    """
    labels = FIGURE1_LABELS if labels is None else labels
    regen = _cells(schedule, "figure")
    out = []
    for step, row in enumerate(regen, start=1):
        pr = [labels.get(c, c) for c in printed_rows[step - 1]] if step <= len(printed_rows) else []
        padded = list(pr[:len(row)]) + [""] * (len(row) - len(pr))
        mismatch = " ".join(str(j + 2) for j, (a, b) in enumerate(zip(padded, row, strict=True)) if a != b)
        if len(pr) == len(row):
            verdict = "identical" if not mismatch else "differs"
        else:
            d = _dash_match([c for c in pr if c], [c for c in row if c])
            if d == 0:
                verdict = "agrees (empty cells lost)"
                mismatch = ""
            elif d is not None:
                verdict = f"agrees except {d} missing '—' cells"
            else:
                verdict = "differs"
        out.append({"step": step, "printed_cells": sum(1 for c in pr if c),
                    "regenerated_cells": sum(1 for c in row if c), "verdict": verdict,
                    "left_aligned_mismatch": mismatch})
    return pd.DataFrame(out)


def decode_printed_rows(printed_rows: Sequence[Sequence[str]], family: str, l: int, n: int,
                        labels: Mapping[str, str] | None = None,
                        max_solutions: int = 1000) -> list[tuple[int, Schedule]]:
    """All schedules whose Figure-1 table is consistent with the printed rows (cells may be lost).

    Each box dimension's column is ``—``, ``B``, ``—``..., ``T_{j0+2}``, ``—``..., ``B^-1``, then empty;
    the search tries every ``(send, forward, return)`` triple per column and keeps the assignments for
    which every printed row is the regenerated row's non-empty cells with some ``—`` cells deleted.

    Parameters
    ----------
    printed_rows : sequence of sequences of str
    family : {"MS", "complete-RS"}
    l, n : int
    labels : mapping, optional
        Printed label -> meaning (default ``T_1 -> T_2``).
    max_solutions : int

    Returns
    -------
    list of tuple
        ``(number of deleted '—' cells, Schedule)``, fewest deletions first.

    Examples
    --------
    >>> sols = decode_printed_rows(FIGURE1_PRINTED["a"]["rows"], "MS", 4, 3)
    >>> [d for d, _ in sols], sols[0][1].jobs == paper_allport_schedule("MS", 4, 3).jobs
    ([2], True)
    """
    info, k = family_k(family, l=l, n=n, allowed=_THEOREM4)
    ab = info.abbrev
    labels = FIGURE1_LABELS if labels is None else labels
    rows = [[labels.get(c, c) for c in r if c] for r in printed_rows]
    steps = len(rows)
    triples = [(a, b, c) for a in range(1, steps + 1) for b in range(a + 1, steps + 1) for c in range(b + 1, steps + 1)]

    init = []
    for t in range(steps):
        st = {0: 0}
        for j in range(2, n + 2):
            st = _dash_step(st, f"T_{j}" if t == 0 else "", rows[t])
        init.append(st)
    solutions: list[tuple[int, list[tuple[int, int, int]]]] = []

    def dfs(j: int, states: list[dict[int, int]], chosen: list[tuple[int, int, int]]) -> None:
        if len(solutions) >= max_solutions:
            return
        if j > k:
            if all(len(rows[t]) in states[t] for t in range(steps)):
                solutions.append((sum(states[t][len(rows[t])] for t in range(steps)), list(chosen)))
            return
        box_label, t_label = f"R^{(j - 2) // n}", f"T_{(j - 2) % n + 2}"
        for a, b, c in triples:
            new = []
            for t in range(1, steps + 1):
                cell = box_label if t in (a, c) else t_label if t == b else ("—" if t < c else "")
                st = _dash_step(states[t - 1], cell, rows[t - 1])
                if not st:
                    break
                new.append(st)
            else:
                chosen.append((a, b, c))
                dfs(j + 1, new, chosen)
                chosen.pop()

    dfs(n + 2, init, [])
    out = []
    for dels, chosen in sorted(solutions, key=lambda x: (x[0], x[1])):
        jobs: dict[int, list[tuple[int, Generator]]] = {j: [(1, transposition(k, j))] for j in range(2, n + 2)}
        for j, (a, b, c) in zip(range(n + 2, k + 1), chosen, strict=True):
            bg, bi = box_moves(ab, k, l, n, (j - 2) // n + 1, "corrected")
            jobs[j] = [(a, bg), (b, transposition(k, (j - 2) % n + 2)), (c, bi)]
        out.append((dels, Schedule(ab, int(l), int(n), jobs, "decoded from the printed Figure 1")))
    return out
