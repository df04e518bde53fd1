"""starlib.family: a rule's words and its check come from the same fields, and a declared builder checks its
arguments and the memory limit before it runs.

Independent references: the rules' texts as the command line printed them before the declarations (the strings
below), and a builder that records whether it ran.
"""

from __future__ import annotations

import pytest

from starlib.family import Param, choice, custom, declared_in, family, flag, integer, integers, prime_power
from starlib.memory import Size, limit_memory


@pytest.mark.parametrize("rule, name, text", [
    (integer(2), "n", "integer n >= 2"),
    (integer(3, residues=(4, (0, 3))), "d", "integer d >= 3, d = 0 or 3 (mod 4)"),
    (prime_power(2), "q", "prime power q >= 2"),
    (prime_power(3, residues=(4, (0, 1, 3))), "q", "prime power q >= 3, q != 2 (mod 4)"),
    (prime_power(residues=(4, (1,))), "q", "prime power q = 1 (mod 4)"),
    (integers(2, note=", e.g. 4,4,4"), "sizes", "comma-separated integers >= 2, e.g. 4,4,4"),
    (integer(2, residues=(2, (0,)), note="(multiple of 4 if toric)"), "rows",
     "even integer rows >= 2 (multiple of 4 if toric)"),
    (integer(2, 9), "k", "integer 2 <= k <= 9"),
    (flag("wrap-around couplers"), "toric", "0/1: wrap-around couplers"),
    (choice("paley", "iq", "bdf"), "supernode", "paley | iq | bdf"),
    (custom("family spec name:key=value,..."), "G", "family spec name:key=value,..."),
])
def test_the_words_of_a_rule(rule, name, text):
    assert rule.text(name) == text


def test_table_v_words_the_same_rule_in_prose_from_its_smallest_case():
    assert integer(1).text("q", minimum=2, prose=True) == "an integer q >= 2"
    assert prime_power(residues=(4, (1,))).text("q'", minimum=5, prose=True) == "a prime power q' = 1 mod 4"
    assert integer(3, residues=(4, (0, 3))).text("d'", minimum=3, prose=True) == "an integer d' >= 3, d' = 0 or 3 mod 4"


@pytest.mark.parametrize("rule, value, message", [
    (integer(2), 1, "n=1 is too small: need an integer n >= 2"),
    (integer(2, 9), 10, "n=10 is too large: need an integer 2 <= n <= 9"),
    (integer(3, residues=(4, (0, 3)), needs="an R* supernode of order 2{name}+2 needs"), 5,
     "n=5 is not 0 or 3 mod 4: an R* supernode of order 2n+2 needs an integer n >= 3, n = 0 or 3 (mod 4)"),
    (integer(2, residues=(2, (0,))), 3, "n=3 is odd: need an even integer n >= 2"),
    (prime_power(2), 6, "n=6 is not a prime power"),
    (integers(3), "4,2", "n=2 is too small: need comma-separated integers >= 3"),
    (integers(3), [], "n=[] is empty: need at least one integer"),
    (flag(), 2, "n=2 is not a flag: use 0/1 or False/True"),
])
def test_a_rule_refuses_with_its_own_words(rule, value, message):
    with pytest.raises(ValueError) as info:
        rule(value, "n")
    assert str(info.value) == message


def test_a_rule_returns_the_canonical_value():
    import numpy as np

    assert integer(2)(np.int64(5), "n") == 5 and type(integer(2)(np.int64(5), "n")) is int
    assert integers(2)("3,4", "sizes") == [3, 4] and flag()(1, "loops") is True


def _declare(size=lambda n, loops: Size.of(n, n, 100, 100)):
    ran = []

    @family("toy", params={"n": Param(integer(2)), "loops": Param(flag("a flag"), False, 0)}, size=size,
            summary="a toy family", declare=False)
    def toy(n, loops=False):
        ran.append((n, loops))
        return n

    return toy, ran


def test_a_declared_builder_checks_its_rules_and_the_memory_limit_before_it_runs():
    toy, ran = _declare()
    assert toy(3) == 3 and ran == [(3, False)]  # the defaults and the canonical values reach the builder
    with pytest.raises(ValueError, match="n=1 is too small"):
        toy(1)
    with limit_memory(1000), pytest.raises(ValueError, match="n=10 is too large: toy.n=10. would have 10 vertices"):
        toy(10)
    assert ran == [(3, False)]  # neither refused call ran the builder
    assert toy.family.estimate({"n": 4}) == Size.of(4, 4, 100, 100)
    with pytest.raises(ValueError, match="toy needs n"):
        toy.family.estimate({})
    with pytest.raises(ValueError, match="m is not a parameter of toy"):
        toy.family.build(m=3)


def test_a_variant_is_its_base_with_arguments_fixed():
    toy, ran = _declare()
    looped = toy.family.variant("toy-looped", preset={"loops": True}, summary="with loops", declare=False)
    assert list(looped.params) == ["n"] and looped.base is toy.family
    assert looped.checked({"n": 2}) == {"n": 2, "loops": True}
    assert looped.build(n=2) == 2 and ran == [(2, True)]
    with pytest.raises(ValueError, match="loops is not a parameter of toy-looped"):
        looped.build(n=2, loops=False)


def test_declarations_are_collected_in_their_order():
    from starlib import factors, networks

    assert [f.name for f in declared_in(factors)][:4] == ["complete", "complete-bipartite", "cycle", "paley"]
    assert [f.name for f in declared_in(networks)][:2] == ["slimfly", "slimfly-hafner"]
