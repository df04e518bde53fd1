"""Primes and prime powers (starlib.primes) against sympy's factorisation."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from starlib.primes import check_prime_power, is_prime, is_prime_power, prime_power_parts


def test_is_prime_power_matches_sympy():
    for q in range(-3, 3000):
        expected = q >= 2 and len(sympy.factorint(q)) == 1
        assert is_prime_power(q) == expected, q
    assert prime_power_parts(2**10) == (2, 10)
    assert prime_power_parts(3**7) == (3, 7)
    assert not is_prime_power(True) and not is_prime_power(7.0) and not is_prime_power("7")


@pytest.mark.parametrize("bad", [6, 1, 0, -4, 12, 100])
def test_check_prime_power_rejects(bad):
    with pytest.raises(ValueError, match=f"q={bad} is not a prime power"):
        check_prime_power(bad)


@pytest.mark.parametrize("bad", [7.0, "7", True, None])
def test_check_prime_power_rejects_non_integers(bad):
    with pytest.raises(ValueError, match="q=.* is not an integer"):
        check_prime_power(bad)


def test_check_prime_power_names_the_parameter():
    with pytest.raises(ValueError, match="paley_q=10 is not a prime power"):
        check_prime_power(10, name="paley_q")
    with pytest.raises(ValueError, match="q=2 is too small"):
        check_prime_power(2, minimum=3)
    assert check_prime_power(np.int64(49)) == 49


def test_is_prime_matches_sympy_past_the_small_primes():
    for n in list(range(-3, 5000)) + [2**61 - 1, 2**61 + 1, 10**18 + 9, 3_317_044_064_679_887_385_961_981]:
        assert is_prime(n) == (n >= 2 and sympy.isprime(n)), n
