"""docs/er-edsts.md §9: the count of vertices a depth-2 tree of a maximum ER_q family can reach, as written there,
against sympy and against the largest depth-2 tree with the degrees the section allows, counted."""

from __future__ import annotations

import re

import sympy as sp

from starlib.primes import is_prime_power
from tests.paths import ROOT

Q, K = sp.symbols("q k", positive=True)


def _chains() -> list[list[str]]:
    """The chains ``a = b = c`` of §9 (code spans that start with ``1 +``)."""
    text = (ROOT / "docs" / "er-edsts.md").read_text()
    section = text[text.index("## 9. "):text.index("## 10. ")]
    return [span.split(" = ") for span in re.findall(r"`(1 \+[^`]*)`", section)]


def _expr(text: str) -> sp.Expr:
    return sp.sympify(re.sub(r"\)\(", ")*(", re.sub(r"\)k", ")*k", text)).replace("^", "**"), locals={"q": Q, "k": K})


def _largest_depth2_tree(d: int) -> int:
    """Vertices of the largest tree of depth 2 whose degrees are at most ``d``, grown level by level."""
    return 1 + d + d * (d - 1)


def test_every_chain_of_section_9_is_one_count():
    chains = _chains()
    assert len(chains) == 2 and all(len(c) >= 2 for c in chains)
    odd, even = chains
    for part in odd:  # q odd, k = (q+1)/2
        assert sp.simplify(_expr(part).subs(K, (Q + 1) / 2) - (1 + (Q + 3) ** 2 / 4)) == 0, part
    for part in even:
        assert sp.simplify(_expr(part) - (1 + (Q / 2 + 2) ** 2)) == 0, part


def test_the_count_is_the_largest_depth2_tree_and_below_n():
    for q in (q for q in range(3, 130) if is_prime_power(q)):
        k = (q + 1) // 2 if q % 2 else q // 2
        d = q + 2 - k  # a tree's degree at a vertex of degree q + 1, the other k - 1 trees using one edge each
        count = _largest_depth2_tree(d)
        assert count == (1 + (k + 1) ** 2 if q % 2 else 1 + (q // 2 + 2) ** 2)
        assert count < q * q + q + 1
