"""Configs written as TOML (tomli-w, less the ``None`` values) read back through
``tomllib``."""

from __future__ import annotations

import tomllib

from hypothesis import given
from hypothesis import strategies as st

from nandlab.config import dumps_toml

keys = st.text(min_size=1, max_size=10)
scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=12,
)


@given(st.dictionaries(keys, values, max_size=6))
def test_round_trip(doc):
    assert tomllib.loads(dumps_toml(doc)) == doc


def test_none_is_left_out_and_sections_are_headers():
    text = dumps_toml({"seed": 1, "ftl": {"gc_policy": "greedy", "x": None}, "a b": {}})
    assert tomllib.loads(text) == {"seed": 1, "ftl": {"gc_policy": "greedy"}, "a b": {}}
    assert "[ftl]" in text
