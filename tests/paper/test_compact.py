"""The compact form of a long table (:mod:`starlib.paper.compact`): one line per group, ranges and sets."""

import pandas as pd
import pytest

from starlib.paper.compact import MAX_SET, Spread, compact


def test_groups_keep_first_row_order_and_spread_each_column():
    df = pd.DataFrame({"g": ["b", "a", "b", "a"], "n": [3, 1, 9, 1], "p": ["q=5 r=1", "q=2", "q=3 r=2", "q=2"],
                       "s": ["x", "y", "z", "y"], "f": [None, 0.5, None, 0.25]})
    out = compact(df, ["g"])
    assert out["g"].tolist() == ["b", "a"]
    assert out["n"].tolist() == [Spread("range", (3, 9)), 1]
    assert out["p"].tolist() == [Spread("params", (("q", "3", "5"), ("r", "1", "2"))), "q=2"]
    assert out["s"].tolist() == [Spread("set", ("x", "z")), "y"]
    assert out["f"].tolist()[0] is None and out["f"].tolist()[1] == Spread("range", (0.25, 0.5))


def test_many_distinct_texts_are_counted_and_integer_texts_are_ranges():
    df = pd.DataFrame({"g": ["a"] * (MAX_SET + 1), "s": [f"w{i}" for i in range(MAX_SET + 1)],
                       "d": ["12", "4", "7", "4", "30"]})
    out = compact(df, ["g"])
    assert str(out["s"].iloc[0]) == f"{MAX_SET + 1} values"
    assert out["d"].iloc[0] == Spread("range", ("4", "30"))


def test_bad_group_by_is_refused():
    with pytest.raises(ValueError, match="group_by=\\['x'\\].*unknown: \\['x'\\]"):
        compact(pd.DataFrame({"g": [1]}), ["x"])
    with pytest.raises(ValueError, match="group_by=\\[\\]"):
        compact(pd.DataFrame({"g": [1]}), [])


def test_texts_listing_integers_and_ranges_spread_as_one_range():
    df = pd.DataFrame({"g": ["a"] * 3 + ["b"] * 2, "deg": ["5-6", "7", "9-10", "2,3", "3, 14"]})
    out = compact(df, ["g"])
    assert out["deg"].tolist() == [Spread("range", ("5", "10")), Spread("range", ("2", "14"))]
    mixed = compact(pd.DataFrame({"g": ["a", "a"], "deg": ["5-6", "x"]}), ["g"])
    assert mixed["deg"].iloc[0] == Spread("set", ("5-6", "x"))  # not all integer texts: a set


def test_parameter_keys_may_end_in_primes():
    df = pd.DataFrame({"g": ["a"] * (MAX_SET + 1), "p": [f"q'={q}" for q in (5, 9, 13, 17, 49)]})
    assert compact(df, ["g"])["p"].iloc[0] == Spread("params", (("q'", "5", "49"),))
