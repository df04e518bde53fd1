"""Upper bounds on the number of edge-disjoint spanning trees (Section IV and Appendix A of the paper).

Every function takes plain integers (vertex and edge counts, the factor parameters ``t`` and ``r``) so the
bounds can be tabulated without building graphs; :func:`upper_bound` and :func:`t_and_r` read them off a graph.
The symbolic forms (``*_symbolic``) return sympy expressions for the notebooks.

Notation (Table II of the paper; docs/star-products.md §2): ``t = floor(m/(n-1))`` and ``r = m - t(n-1)`` for a
factor; ``N = n_G n_H`` for a product.

Example
-------
>>> eq1_bound(10, 45)                      # K_10: 45 edges, 9 per tree
5
>>> product_upper_bound(2, 11, 1, 1, 18, 5)  # MMS(3) * QR(5): 90 vertices, 315 edges
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .graphs import GraphLike, as_graph
from .validation import check_int

if TYPE_CHECKING:  # sympy (a quarter second to import) only for the symbolic forms, imported there
    import sympy

__all__ = ["eq1_bound", "prop_iv1", "regular_bound", "lemma_a1", "prop_iv3", "product_upper_bound",
           "product_edge_count", "theorem_iv4", "ConstructionCase", "table_i_count", "t_and_r", "upper_bound",
           "simplicity_bound", "lemma_vc2_is_maximum", "lemma_a1_symbolic", "prop_iv1_symbolic"]


def eq1_bound(n: int, m: int) -> int:
    """Eq. (1): a graph with ``n`` vertices and ``m`` edges has at most ``floor(m/(n-1))`` EDSTs.

    Parameters
    ----------
    n : number of vertices, ``n >= 2``.
    m : number of edges, ``m >= 0``.

    Returns
    -------
    int
        The bound ``floor(m / (n - 1))``.

    Raises
    ------
    ValueError
        If ``n < 2`` or ``m < 0``.

    Example
    -------
    >>> eq1_bound(50, 175)   # Hoffman-Singleton graph
    3

    References
    ----------
    Eq. (1) (= eq. (23) of Appendix A) of Isham et al. (2025).
    """
    n = check_int(n, "n", minimum=2)
    m = check_int(m, "m", minimum=0)
    return m // (n - 1)


def simplicity_bound(n: int) -> int:
    """A simple graph on ``n`` vertices has at most ``floor(n/2)`` EDSTs (``t(n-1) <= m <= n(n-1)/2``).

    Example
    -------
    >>> simplicity_bound(7)
    3

    References
    ----------
    Inequality used in Lemma V-C.2 and Appendix A of Isham et al. (2025).
    """
    n = check_int(n, "n", minimum=2)
    return n // 2


def prop_iv1(n: int, m: int) -> tuple[int, int, int]:
    """Proposition IV-.1: eq. (1) through ``m/n = a + b/n`` (``a = floor(m/n)``, ``b = m mod n``).

    For a simple graph the bound is ``a`` if ``a + b < n - 1`` and ``a + 1`` otherwise.

    Parameters
    ----------
    n : number of vertices, ``n >= 2``.
    m : number of edges, ``0 <= m <= n(n-1)/2`` (simple graph).

    Returns
    -------
    (a, b, bound)

    Raises
    ------
    ValueError
        If ``m`` exceeds ``n(n-1)/2`` (the proposition needs a simple graph).

    Example
    -------
    >>> prop_iv1(104, 348)   # ER_3 * IQ(3)
    (3, 36, 3)

    References
    ----------
    Proposition IV-.1 of Isham et al. (2025).
    """
    n = check_int(n, "n", minimum=2)
    m = check_int(m, "m", minimum=0)
    if m > n * (n - 1) // 2:
        raise ValueError(f"m={m} exceeds n(n-1)/2={n * (n - 1) // 2}: Proposition IV-.1 needs a simple graph")
    a, b = divmod(m, n)
    return a, b, a if a + b < n - 1 else a + 1


def regular_bound(k: int, n: int) -> int:
    """Corollary IV-.2: a ``k``-regular simple graph on ``n`` vertices has at most ``floor(k/2)`` EDSTs,
    except ``K_n`` with ``n`` even (``k = n - 1``), which has ``n/2``.

    Raises
    ------
    ValueError
        If no simple ``k``-regular graph on ``n`` vertices exists (``k >= n`` or ``k n`` odd).

    Example
    -------
    >>> regular_bound(7, 50), regular_bound(5, 6)
    (3, 3)

    References
    ----------
    Corollary IV-.2 of Isham et al. (2025).
    """
    n = check_int(n, "n", minimum=2)
    k = check_int(k, "k", minimum=0)
    if k >= n or (k * n) % 2:
        raise ValueError(f"k={k}, n={n}: no simple k-regular graph on n vertices (need k < n and k*n even)")
    if k == n - 1 and n % 2 == 0:
        return n // 2
    return k // 2


def product_edge_count(n_g: int, m_g: int, n_h: int, m_h: int) -> int:
    """``|E(G * H)| = m_G n_H + n_G m_H`` (Property II-B.3; loop-free structure graph).

    Example
    -------
    >>> product_edge_count(2, 1, 5, 5)   # K_2 * C_5 = Petersen
    15
    """
    return m_g * n_h + n_g * m_h


def lemma_a1(n_g: int, t_g: int, r_g: int, n_h: int, t_h: int, r_h: int) -> int:
    """Lemma A-.1: ``|E(G*H)| = (t_G + t_H)(N - 1) + L``; returns ``L``.

    ``L = (r_G - t_G) n_H + (r_H - t_H) n_G + t_G + t_H``.

    Example
    -------
    >>> L = lemma_a1(18, 2, 11, 5, 1, 1)          # MMS(3) * QR(5)
    >>> (2 + 1) * (90 - 1) + L == product_edge_count(18, 45, 5, 5)
    True

    References
    ----------
    Lemma A-.1 of Isham et al. (2025).
    """
    return (r_g - t_g) * n_h + (r_h - t_h) * n_g + t_g + t_h


def product_upper_bound(t_g: int, r_g: int, t_h: int, r_h: int, n_g: int, n_h: int) -> int:
    """Eq. (1) for a star product from its factors' ``t, r, n``: ``t_G + t_H + floor(L / (N - 1))``.

    Parameters
    ----------
    t_g, r_g, n_g : structure graph ``G`` (``m_G = t_G (n_G - 1) + r_G``).
    t_h, r_h, n_h : supernode ``H``.

    Returns
    -------
    int
        ``floor(|E(G*H)| / (N - 1))``.

    Example
    -------
    >>> product_upper_bound(1, 0, 1, 1, 2, 5)   # Petersen = K_2 * QR(5)
    1

    References
    ----------
    Lemma A-.1 and Proposition IV-.3 of Isham et al. (2025).
    """
    for name, v, lo in (("t_g", t_g, 0), ("r_g", r_g, 0), ("t_h", t_h, 0), ("r_h", r_h, 0), ("n_g", n_g, 2),
                        ("n_h", n_h, 2)):
        check_int(v, name, minimum=lo)
    big_n = n_g * n_h
    return t_g + t_h + lemma_a1(n_g, t_g, r_g, n_h, t_h, r_h) // (big_n - 1)


def prop_iv3(t_g: int, r_g: int, t_h: int, r_h: int) -> int:
    """Proposition IV-.3: bound on the EDSTs of ``G * H`` from the factors' ``t`` and ``r`` alone.

    * ``r_G >= t_G`` and ``r_H >= t_H``: ``t_G + t_H + 1``, or ``t_G + t_H`` if ``r_G = t_G`` or ``r_H = t_H``;
    * exactly one ``r >= t``: ``t_G + t_H``;
    * ``r_G < t_G`` and ``r_H < t_H``: ``t_G + t_H - 1``.

    Assumes ``t = floor(m/(n-1))`` for both simple factors (so ``r <= n - 2`` and ``t <= n/2``).

    Example
    -------
    >>> prop_iv3(3, 6, 1, 1), prop_iv3(1, 0, 1, 1), prop_iv3(2, 0, 2, 1)
    (4, 2, 3)

    References
    ----------
    Proposition IV-.3 (and footnote 1) of Isham et al. (2025); docs/star-products.md §3.5.
    """
    ge_g, ge_h = r_g >= t_g, r_h >= t_h
    if ge_g and ge_h:
        return t_g + t_h if (r_g == t_g or r_h == t_h) else t_g + t_h + 1
    if ge_g or ge_h:
        return t_g + t_h
    return t_g + t_h - 1


def lemma_vc2_is_maximum(n: int, t: int, r: int) -> bool:
    """Lemma V-C.2: if a simple graph has ``t`` EDSTs and ``r = m - t(n-1) <= t`` then ``t`` is maximum.

    Returns True when the lemma certifies maximality (it may be maximum otherwise too).

    Example
    -------
    >>> lemma_vc2_is_maximum(13, 3, 3), lemma_vc2_is_maximum(26, 6, 19)
    (True, False)
    """
    return r <= t


@dataclass(frozen=True)
class ConstructionCase:
    """One row of the case analysis of Theorem IV-.4 / Table I for a given star product.

    Attributes
    ----------
    case : condition in words (``"r_G >= t_G and r_H >= t_H"``, ...).
    theorem : the paper's result that builds the trees (``"V-C.3"``, ``"V-C.10"``, ``"V-C.11"``, ``"V-D.2"``,
        ``"V-B.1"``).
    built : number of trees that construction builds.
    bound : eq. (1) bound of the product (exact, from Lemma A-.1).
    gap : ``bound - built``.
    """

    case: str
    theorem: str
    built: int
    bound: int
    gap: int


def table_i_count(t_g: int, r_g: int, t_h: int, r_h: int, property_vd1: bool = False) -> tuple[str, int]:
    """Table I: ``(theorem, number of EDSTs)`` of the best construction for the product's case.

    Example
    -------
    >>> table_i_count(2, 2, 1, 1), table_i_count(1, 0, 2, 0), table_i_count(1, 0, 2, 0, property_vd1=True)
    (('V-C.3', 3), ('V-B.1', 1), ('V-D.2', 2))

    References
    ----------
    Table I, Theorems V-B.1, V-C.3, Corollaries V-C.10, V-C.11, Theorem V-D.2 of Isham et al. (2025).
    """
    if r_g >= t_g and r_h >= t_h:
        return ("V-C.3" if (r_g == t_g and r_h == t_h) else "V-C.10"), t_g + t_h
    if r_g >= t_g or r_h >= t_h:
        return "V-C.11", t_g + t_h - 1
    if property_vd1:
        return "V-D.2", t_g + t_h - 1
    return "V-B.1", max(t_g + t_h - 2, 0)


def theorem_iv4(t_g: int, r_g: int, t_h: int, r_h: int, n_g: int, n_h: int,
                property_vd1: bool = False) -> ConstructionCase:
    """Theorem IV-.4 (reconstructed): which construction applies, how many trees, and the gap to eq. (1).

    The extended constructions (V-C, V-D) are within 1 of the maximum; the Universal one within 3.

    Example
    -------
    >>> theorem_iv4(1, 4, 1, 4, 6, 6).gap     # two 6-vertex, 9-edge factors: bound 3, V-C.10 builds 2
    1
    >>> theorem_iv4(1, 0, 1, 0, 6, 6)
    ConstructionCase(case='r_G < t_G and r_H < t_H', theorem='V-B.1', built=0, bound=1, gap=1)

    References
    ----------
    Theorem IV-.4 of Isham et al. (2025); docs/star-products.md §3.6.
    """
    theorem, built = table_i_count(t_g, r_g, t_h, r_h, property_vd1)
    ge_g, ge_h = r_g >= t_g, r_h >= t_h
    if ge_g and ge_h:
        case = "r_G >= t_G and r_H >= t_H"
    elif ge_g or ge_h:
        case = "r_G >= t_G or r_H >= t_H"
    else:
        case = "r_G < t_G and r_H < t_H" + (", Property V-D.1" if property_vd1 else "")
    bound = product_upper_bound(t_g, r_g, t_h, r_h, n_g, n_h)
    return ConstructionCase(case, theorem, built, bound, bound - built)


def t_and_r(graph: GraphLike) -> tuple[int, int]:
    """``(t, r)`` of a graph: ``t = floor(m/(n-1))``, ``r = m - t(n-1)``.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        Undirected, ``n >= 2`` (:func:`~starlib.graphs.as_graph`); refused as by :func:`upper_bound`.

    Example
    -------
    >>> import networkx as nx
    >>> from starlib.graphs import ArrayGraph
    >>> t_and_r(ArrayGraph.from_networkx(nx.complete_bipartite_graph(5, 5))), t_and_r(nx.complete_bipartite_graph(5, 5))
    ((2, 7), (2, 7))

    References
    ----------
    Tables II and V of Isham et al. (2025); docs/star-products.md §2, §10.
    """
    graph = as_graph(graph, "graph")
    n, m = int(graph.n), int(graph.m)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; t and r need n >= 2")
    t = m // (n - 1)
    return t, m - t * (n - 1)


def upper_bound(graph: GraphLike) -> int:
    """Upper bound on the EDSTs of a graph: ``min(floor(m/(n-1)), minimum degree)``.

    Eq. (1), tightened by the minimum degree (each tree uses an edge at every vertex).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        Undirected, ``n >= 2`` (:func:`~starlib.graphs.as_graph`; a networkx graph with a self-loop is refused).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``graph`` is not a graph (None, a string, an edge list).
    ValueError
        If it has fewer than 2 vertices, or is a networkx multigraph or a directed graph.

    Example
    -------
    >>> import networkx as nx
    >>> from starlib.graphs import ArrayGraph
    >>> upper_bound(ArrayGraph.from_networkx(nx.petersen_graph())), upper_bound(nx.petersen_graph())
    (1, 1)
    """
    graph = as_graph(graph, "graph")
    n = int(graph.n)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; the bound needs n >= 2")
    e = np.asarray(graph.edges).reshape(-1, 2)
    deg = np.bincount(e.ravel(), minlength=n)
    return int(min(e.shape[0] // (n - 1), int(deg.min())))


def lemma_a1_symbolic() -> tuple[sympy.Expr, sympy.Expr]:
    """Lemma A-.1 as sympy expressions ``(|E(G*H)|, (t_G+t_H)(N-1) + L)`` in the factor symbols.

    Example
    -------
    >>> lhs, rhs = lemma_a1_symbolic()
    >>> import sympy
    >>> sympy.expand(lhs - rhs)
    0
    """
    import sympy

    n_g, n_h, t_g, t_h, r_g, r_h = sympy.symbols("n_G n_H t_G t_H r_G r_H", integer=True, positive=True)
    m_g = t_g * (n_g - 1) + r_g
    m_h = t_h * (n_h - 1) + r_h
    lhs = m_g * n_h + n_g * m_h
    big_l = (r_g - t_g) * n_h + (r_h - t_h) * n_g + t_g + t_h
    return lhs, (t_g + t_h) * (n_g * n_h - 1) + big_l


def prop_iv1_symbolic() -> sympy.Expr:
    """Proposition IV-.1's identity ``m/(n-1) = a + (a+b)/(n-1)`` for ``m = a n + b`` (returns the difference).

    Example
    -------
    >>> import sympy
    >>> sympy.simplify(prop_iv1_symbolic())
    0
    """
    import sympy

    a, b, n = sympy.symbols("a b n", integer=True, positive=True)
    return (a * n + b) / (n - 1) - (a + (a + b) / (n - 1))
