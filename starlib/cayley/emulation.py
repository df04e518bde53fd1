"""Star-graph and transposition-network embeddings by generator words (Theorems 1-3, 6-7).

The paper maps every node of the emulated graph to the node with the same label and every link
``U -- U T`` to the path that applies a fixed *word* of host generators, the same word at every
node. Because the host is a Cayley graph, the word reaches ``U T`` from *every* ``U`` exactly when
its position map equals ``T`` (:func:`check_words`); :func:`node_level_check` confirms this node by
node on the ``k!`` nodes. The same symmetry makes the load of every directed host link ``(X, g)``
independent of ``X``: it is the number of occurrences of ``g`` in the words (each emulated arc is
routed from its own tail). :func:`embedding_congestion` counts these occurrences;
:func:`node_level_check` counts the paths through every ``(node, link)`` pair directly.

Links: with ``coincident="merge"`` generators with the same map (``I_2`` and ``I_2^-1``; ``R`` and
``R^-1`` when ``l = 2``) are one link, with ``"parallel"`` they are separate parallel links.

Example
-------
>>> from starlib.cayley.families import generator_set
>>> words = star_emulation_words("MS", l=3, n=2)
>>> [word_names(words[j]) for j in (2, 4, 7)]
['T_2', 'S_2 T_2 S_2', 'S_3 T_3 S_3']
>>> embedding_congestion(words, generator_set("MS", l=3, n=2))[0]    # max(2n, l)
4
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..validation import check_choice, check_int
from .families import family_info, family_k
from .generators import Generator, insertion, rotation, selection, swap, transposition, word_map, word_names
from .permutations import PermutationSpace, identity

__all__ = [
    "Word", "nucleus_word", "box_moves", "star_emulation_words", "tn_embedding_words", "tn_word_case", "WordCheck",
    "check_words", "link_ids", "embedding_congestion", "NodeCheck", "node_level_check", "target_map",
]

#: A word of host generators, applied left to right.
Word = list[Generator]


def nucleus_word(kind: str, k: int, m: int) -> Word:
    """The host word for the nucleus transposition ``T_m`` (``2 <= m <= k``): the brick every word is built of.

    Parameters
    ----------
    kind : str
        The host's nucleus generators (``family_info(...).nucleus``): ``"T"`` (transpositions: the word is
        ``T_m``) or ``"IS"`` (insertions and selections, Theorem 2: ``I_m I_{m-1}^-1``, and ``I_2`` for ``m = 2``).
    k : int
        Number of symbols.
    m : int
        The transposition's position.

    Returns
    -------
    Word

    Examples
    --------
    >>> word_names(nucleus_word("T", 4, 3)), word_names(nucleus_word("IS", 4, 3)), word_names(nucleus_word("IS", 4, 2))
    ('T_3', 'I_3 I_2^-1', 'I_2')
    """
    if kind == "T":
        return [transposition(k, m)]
    if m == 2:
        return [insertion(k, 2)]                      # T_2 = I_2 (the proof's I_1^-1 does not exist)
    return [insertion(k, m), selection(k, m - 1)]     # Theorem 2: insert the outside ball, select ball x_2


def box_moves(family: str, k: int, l: int, n: int, box: int, variant: str = "corrected") -> tuple[Generator, Generator]:
    """``(B_box, B_box^-1)``: the super generators that bring box ``box`` to the front and back (Theorems 4, 6).

    Parameters
    ----------
    family : str
        The host (abbreviation or command-line name): swaps ``S_box`` on macro hosts, rotations on complete ones.
    k, l, n : int
        Symbols, boxes and balls per box (``k = n*l + 1``).
    box : int
        The box, ``2 <= box <= l``.
    variant : {"corrected", "fixed-B", "printed"}
        For rotations: ``"printed"`` is the paper's ``B_i = R^{-(i+1)}``, the others ``R^{-(i-1)}`` (as in
        :func:`tn_embedding_words`), exponents taken mod ``l``; a rotation by a multiple of ``l`` is the identity.

    Returns
    -------
    tuple of Generator

    Examples
    --------
    >>> [g.name for g in box_moves("MS", 7, 3, 2, 3)], [g.name for g in box_moves("complete-RS", 7, 3, 2, 3)]
    (['S_3', 'S_3'], ['R^1', 'R^2'])
    """
    if family_info(family).boxes == "S":
        g = swap(k, n, box)
        return g, g
    e = box + 1 if variant == "printed" else box - 1       # printed: B_i = R^{-i-1}, B_i^-1 = R^{i+1}
    if e % l == 0:
        ident = Generator(f"R^{-e} (= identity)", identity(k), "super")
        return ident, ident
    return rotation(k, n, -e), rotation(k, n, e)


#: the hosts of the word tables: the star graph (identity embedding), IS (Theorems 2, 7) and the four
#: super Cayley graphs of Theorems 1, 3 and 6
_WORD_HOSTS = ("star", "IS", "MS", "complete-RS", "MIS", "complete-RIS")


def star_emulation_words(family: str, *, k: int | None = None, l: int | None = None,
                         n: int | None = None) -> dict[int, Word]:
    """The words that emulate the star-graph link ``T_j`` (Theorems 1, 2, 3), for ``j = 2..k``.

    - MS (Theorem 1): ``S_{j1+1} T_{j0+2} S_{j1+1}``; complete-RS: ``R^{-j1} T_{j0+2} R^{j1}``,
      with ``j0 = (j-2) mod n``, ``j1 = floor((j-2)/n)``; ``T_j`` itself when ``j1 = 0``.
    - IS (Theorem 2): insertion then selection, ``I_j I_{j-1}^-1``; ``T_2 = I_2``.
    - MIS, complete-RIS (Theorem 3): the MS / complete-RS word with ``T_m`` replaced by ``I_m I_{m-1}^-1``
      (``I_2`` for ``m = 2``).
    - star: ``T_j`` (the identity embedding, for reference).

    Parameters
    ----------
    family : str
        ``"MS"``, ``"complete-RS"``, ``"MIS"``, ``"complete-RIS"`` (with ``l``, ``n``), ``"IS"`` or
        ``"star"`` (with ``k``); command-line names are accepted too.
    k, l, n : int, optional

    Returns
    -------
    dict
        ``j -> word`` (list of Generator, applied left to right).

    Raises
    ------
    ValueError
        For a family without such words, or parameters the family does not take.

    Examples
    --------
    >>> w = star_emulation_words("complete-RIS", l=3, n=2)
    >>> word_names(w[6]), word_names(w[7])
    ('R^1 I_2 R^2', 'R^1 I_3 I_2^-1 R^2')
    """
    info, k = family_k(family, k=k, l=l, n=n, allowed=_WORD_HOSTS)
    kind = info.nucleus
    if info.params == ("k",):
        return {j: nucleus_word(kind, k, j) for j in range(2, k + 1)}
    words: dict[int, Word] = {}
    for j in range(2, k + 1):
        j0, j1 = (j - 2) % n, (j - 2) // n
        core = nucleus_word(kind, k, j0 + 2)
        if j1 == 0:
            words[j] = core
        else:
            b, binv = box_moves(info.abbrev, k, l, n, j1 + 1, "corrected")
            words[j] = [b, *core, binv]
    return words


def tn_word_case(i: int, j: int, n: int) -> int:
    """Which of the six cases of Theorem 6 the transposition ``T_{i,j}`` (``i < j``) falls in.

    Cases: 1 ``i = 1, j1 = 0``; 2 ``i = 1, j1 > 0``; 3 ``i1 = j1 = 0``; 4 ``i1 = 0 < j1``;
    5 ``i1 = j1 > 0``; 6 ``i1 != j1``, both ``> 0``; ``x1 = floor((x-2)/n)``.

    Examples
    --------
    >>> [tn_word_case(i, j, 2) for i, j in [(1, 3), (1, 4), (2, 3), (2, 5), (4, 5), (4, 6)]]
    [1, 2, 3, 4, 5, 6]
    """
    i = check_int(i, "i", 1, rule="1 <= i < j")
    j = check_int(j, "j", i + 1, rule=f"1 <= i = {i} < j")
    n = check_int(n, "n", 1, rule="an integer n >= 1 (balls per box)")
    j1 = (j - 2) // n
    if i == 1:
        return 1 if j1 == 0 else 2
    i1 = (i - 2) // n
    if i1 == 0:
        return 3 if j1 == 0 else 4
    return 5 if i1 == j1 else 6


def tn_embedding_words(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None,
                       variant: str = "corrected") -> dict[tuple[int, int], Word]:
    """Words for every transposition ``T_{i,j}`` of the k-TN (Theorem 6 table; Theorem 7).

    For MS / complete-RS the six-case table of Theorem 6 with ``B_i`` the move that brings box ``i``
    to the front. ``variant="printed"`` uses the paper's ``B_i = R^{-i-1}`` for complete-RS and its
    case-6 word ``B_{i1+1} T B_{j1+1} T B_{j1+1}^-1 T B_{i1+1}^-1`` literally; ``"fixed-B"`` only
    corrects ``B_i = R^{-(i-1)}`` (as in Theorem 1); ``"corrected"`` also uses, for complete-RS case 6,
    the *relative* rotation ``R^{-(j1-i1)}`` in the middle (after the first rotation, box ``j1+1``
    sits at place ``j1-i1+1``). MS words are the same in all variants. For MIS / complete-RIS each
    ``T_m`` is replaced by its IS word; for IS (Theorem 7) ``T_{i,j} = T_i T_j T_i`` with IS words;
    ``star`` gives the dilation-3 star words.

    Parameters
    ----------
    family : str
        ``"MS"``, ``"complete-RS"``, ``"MIS"``, ``"complete-RIS"`` (``l``, ``n``), ``"IS"``, ``"star"`` (``k``).
    k, l, n : int, optional
    variant : {"corrected", "fixed-B", "printed"}

    Returns
    -------
    dict
        ``(i, j) -> word`` for ``1 <= i < j <= k``.

    Raises
    ------
    ValueError
        For a bad family, parameters or variant.

    Examples
    --------
    >>> w = tn_embedding_words("complete-RS", l=3, n=1)
    >>> word_names(w[(3, 4)])                    # case 6, corrected
    'R^2 T_2 R^2 T_2 R^1 T_2 R^1'
    >>> len(tn_embedding_words("IS", k=5)[(3, 4)])   # Theorem 7: dilation 6
    6
    """
    check_choice(variant, "variant", ("corrected", "fixed-B", "printed"))
    info, k = family_k(family, k=k, l=l, n=n, allowed=_WORD_HOSTS)
    kind = info.nucleus
    if info.params == ("k",):
        out: dict[tuple[int, int], Word] = {}
        for i in range(1, k):
            for j in range(i + 1, k + 1):
                wj = nucleus_word(kind, k, j)
                out[(i, j)] = wj if i == 1 else [*nucleus_word(kind, k, i), *wj, *nucleus_word(kind, k, i)]
        return out
    rot = info.boxes == "Rall"

    def t(m: int) -> Word:
        return nucleus_word(kind, k, m)

    def b(box: int) -> tuple[Generator, Generator]:
        return box_moves(info.abbrev, k, l, n, box, variant)

    out = {}
    for i in range(1, k):
        for j in range(i + 1, k + 1):
            case = tn_word_case(i, j, n)
            i0, i1, j0, j1 = (i - 2) % n, (i - 2) // n, (j - 2) % n, (j - 2) // n
            if case == 1:
                w = t(j)
            elif case == 2:
                bj, bji = b(j1 + 1)
                w = [bj, *t(j0 + 2), bji]
            elif case == 3:
                w = [*t(i), *t(j), *t(i)]
            elif case == 4:
                bj, bji = b(j1 + 1)
                w = [*t(i), bj, *t(j0 + 2), bji, *t(i)]
            elif case == 5:
                bi, bii = b(i1 + 1)
                w = [bi, *t(i0 + 2), *t(j0 + 2), *t(i0 + 2), bii]
            else:
                bi, bii = b(i1 + 1)
                mid = ((j1 - i1) % l) + 1 if (rot and variant == "corrected") else j1 + 1
                bj, bji = b(mid)
                w = [bi, *t(i0 + 2), bj, *t(j0 + 2), bji, *t(i0 + 2), bii]
            out[(i, j)] = w
    return out


def target_map(key: Hashable, k: int) -> tuple[int, ...]:
    """The position map a word must equal: ``T_j`` for a key ``j``, ``T_{i,j}`` for ``(i, j)``.

    Examples
    --------
    >>> target_map((2, 3), 3)
    (0, 2, 1)
    """
    if isinstance(key, tuple):
        return transposition(k, *key).perm
    return transposition(k, int(key)).perm


@dataclass
class WordCheck:
    """Result of :func:`check_words`: which words compose to their target, and their lengths.

    Attributes
    ----------
    ok : bool
        Every word's position map equals its target.
    failures : dict
        ``key -> word`` (as text) for the words that do not.
    lengths : dict
        ``key -> number of links`` of the path.
    max_length : int
        The dilation of the word embedding.
    """

    ok: bool
    failures: dict = field(default_factory=dict)
    lengths: dict = field(default_factory=dict)
    max_length: int = 0


def check_words(words: Mapping[Hashable, Sequence[Generator]],
                targets: Mapping[Hashable, Sequence[int]] | None = None) -> WordCheck:
    """Check that every word composes to its target transposition (hence works at every node).

    Parameters
    ----------
    words : mapping
        ``key -> word``; keys ``j`` (target ``T_j``) or ``(i, j)`` (target ``T_{i,j}``).
    targets : mapping, optional
        Explicit target position maps.

    Returns
    -------
    WordCheck

    Examples
    --------
    >>> r = check_words(tn_embedding_words("complete-RS", l=3, n=1, variant="printed"))
    >>> r.ok, len(r.failures)
    (False, 5)
    """
    failures, lengths = {}, {}
    for key, w in words.items():
        k = w[0].k
        target = tuple(targets[key]) if targets is not None else target_map(key, k)
        lengths[key] = len(w)
        if word_map(w) != target:
            failures[key] = word_names(w)
    return WordCheck(not failures, failures, lengths, max(lengths.values(), default=0))


def link_ids(host: Sequence[Generator], coincident: str = "merge") -> tuple[dict[str, int], list[str]]:
    """Number the links out of a node: ``name -> link id`` and the link names.

    Parameters
    ----------
    host : sequence of Generator
        The host's generators (:func:`~starlib.cayley.families.generator_set`).
    coincident : {"merge", "parallel"}
        Merge generators with equal maps into one link, or keep them as parallel links.

    Returns
    -------
    tuple
        ``(ids, names)``; a merged link is named ``"I_2=I_2^-1"``.

    Raises
    ------
    ValueError
        If ``coincident`` is neither ``"merge"`` nor ``"parallel"``.

    Examples
    --------
    >>> from starlib.cayley.families import generator_set
    >>> link_ids(generator_set("IS", k=3))[1]
    ['I_2=I_2^-1', 'I_3', 'I_3^-1']
    """
    check_choice(coincident, "coincident", ("merge", "parallel"))
    ids: dict[str, int] = {}
    names: list[str] = []
    by_map: dict[tuple[int, ...], int] = {}
    for g in host:
        if coincident == "merge" and g.perm in by_map:
            lid = by_map[g.perm]
            names[lid] = f"{names[lid]}={g.name}"
        else:
            lid = len(names)
            names.append(g.name)
            by_map.setdefault(g.perm, lid)
        ids[g.name] = lid
    return ids, names


def _word_link_ids(w: Sequence[Generator], ids: Mapping[str, int], host_names: str) -> list[int]:
    out = []
    for g in w:
        if g.name not in ids:
            raise ValueError(f"words: generator {g.name} is not a link of the host ({host_names})")
        out.append(ids[g.name])
    return out


def embedding_congestion(words: Mapping[Hashable, Sequence[Generator]], host: Sequence[Generator],
                         coincident: str = "parallel", keys: Sequence[Hashable] | None = None
                         ) -> tuple[int, dict[str, int]]:
    """Congestion per directed link of the word embedding (every emulated arc routed from its tail).

    By vertex symmetry every directed link ``(X, g)`` carries the same number of paths, the number of
    occurrences of ``g`` (of its merged link) in the words; :func:`node_level_check` counts them node by node.

    Parameters
    ----------
    words : mapping
        ``key -> word``.
    host : sequence of Generator
        The host's generators.
    coincident : {"parallel", "merge"}
    keys : sequence, optional
        Only these emulated dimensions (the per-dimension congestion).

    Returns
    -------
    tuple
        ``(max load, {link name: load})``.

    Examples
    --------
    >>> from starlib.cayley.families import generator_set
    >>> w, h = star_emulation_words("IS", k=5), generator_set("IS", k=5)
    >>> embedding_congestion(w, h, "parallel")[0], embedding_congestion(w, h, "merge")[0]
    (1, 2)
    """
    ids, names = link_ids(host, coincident)
    hn = ", ".join(g.name for g in host)
    count: Counter[int] = Counter()
    for key in (words if keys is None else keys):
        count.update(_word_link_ids(words[key], ids, hn))
    loads = {names[i]: int(count.get(i, 0)) for i in range(len(names))}
    return max(loads.values(), default=0), loads


@dataclass
class NodeCheck:
    """Result of :func:`node_level_check`.

    Attributes
    ----------
    bad_nodes : int
        Number of ``(node, key)`` pairs whose path does not end at ``node * target``.
    load_min, load_max : dict
        Per link name, the minimum and maximum over nodes of the number of paths using ``(node, link)``.
    """

    bad_nodes: int
    load_min: dict
    load_max: dict

    @property
    def ok(self) -> bool:
        """Every path ends where it should."""
        return self.bad_nodes == 0


def node_level_check(space: PermutationSpace, words: Mapping[Hashable, Sequence[Generator]],
                     host: Sequence[Generator] | None = None, coincident: str = "parallel") -> NodeCheck:
    """Walk every word from every one of the ``k!`` nodes; count the paths on every directed link.

    Parameters
    ----------
    space : PermutationSpace
    words : mapping
        ``key -> word`` (targets as in :func:`target_map`).
    host : sequence of Generator, optional
        Needed for the link loads.
    coincident : {"parallel", "merge"}

    Returns
    -------
    NodeCheck

    Examples
    --------
    >>> from starlib.cayley.families import generator_set
    >>> sp = PermutationSpace(5)
    >>> r = node_level_check(sp, star_emulation_words("MS", l=2, n=2), generator_set("MS", l=2, n=2))
    >>> r.ok, r.load_min == r.load_max, r.load_max
    (True, True, {'T_2': 2, 'T_3': 2, 'S_2': 4})
    """
    k, size = space.k, space.size
    ids, names = (link_ids(host, coincident) if host is not None else ({}, []))
    hn = ", ".join(g.name for g in host) if host is not None else ""
    load = np.zeros(size * max(len(names), 1), dtype=np.int64)
    bad = 0
    start = np.arange(size, dtype=np.int64)
    for key, w in words.items():
        pos = start
        lids = _word_link_ids(w, ids, hn) if host is not None else [0] * len(w)
        for g, lid in zip(w, lids, strict=True):
            if host is not None:
                load += np.bincount(pos * len(names) + lid, minlength=load.size)
            pos = space.neighbors(g.perm)[pos]
        bad += int((pos != space.neighbors(target_map(key, k))).sum())
    per = load.reshape(size, max(len(names), 1))
    lo = {nm: int(per[:, i].min()) for i, nm in enumerate(names)}
    hi = {nm: int(per[:, i].max()) for i, nm in enumerate(names)}
    return NodeCheck(bad, lo, hi)
