"""Config loading, ``extends`` merging, trace selection and dotted-key overrides."""

from __future__ import annotations

import math
import string

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from nandlab.config import (
    apply_overrides,
    deep_merge,
    load_config,
    parse_override,
    parse_overrides,
    parse_value,
    set_trace,
)
from nandlab.errors import ConfigError


def test_load_from_file_string_and_dict(tmp_path):
    text = 'seed = 7\n[ftl]\ngc_policy = "greedy"\n'
    f = tmp_path / "c.toml"
    f.write_text(text)
    want = {"seed": 7, "ftl": {"gc_policy": "greedy"}}
    assert load_config(f) == want
    assert load_config(str(f)) == want
    assert load_config(text) == want
    d = {"seed": 7, "ftl": {"gc_policy": "greedy"}}
    got = load_config(d, {"ftl.gc_policy": "fifo"})
    assert got["ftl"]["gc_policy"] == "fifo"
    assert d["ftl"]["gc_policy"] == "greedy", "the caller's dict is not modified"


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(FileNotFoundError):
        load_config(str(tmp_path / "nope.toml"))


def test_toml_syntax_error_names_file_and_line(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("seed = 1\n[ftl]\ngc_policy = greedy\n")
    with pytest.raises(ConfigError) as e:
        load_config(f)
    msg = str(e.value)
    assert str(f) in msg and "line 3" in msg


def test_not_a_config_type():
    with pytest.raises(ConfigError):
        load_config(42)  # type: ignore[arg-type]


def test_extends_merges_base_under_file(tmp_path):
    (tmp_path / "base.toml").write_text(
        "seed = 1\n[device]\nchannels = 8\nchips_per_channel = 4\n[ftl]\ngc_policy = 'fifo'\n"
    )
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "paper.toml").write_text('extends = "../base.toml"\n[device]\nchannels = 2\n')
    cfg = load_config(sub / "paper.toml")
    assert cfg == {
        "seed": 1,
        "device": {"channels": 2, "chips_per_channel": 4},
        "ftl": {"gc_policy": "fifo"},
    }


def test_extends_cycle_and_missing_base(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n')
    with pytest.raises(ConfigError, match="cycle"):
        load_config(tmp_path / "a.toml")
    (tmp_path / "c.toml").write_text('extends = "missing.toml"\n')
    with pytest.raises(ConfigError, match="missing.toml"):
        load_config(tmp_path / "c.toml")


def test_relative_trace_path_resolved_against_config_file(tmp_path):
    (tmp_path / "t.trace").write_text("0 0 0 8 1\n")
    f = tmp_path / "c.toml"
    f.write_text('[workload]\nkind = "trace"\npath = "t.trace"\n')
    assert load_config(f)["workload"]["path"] == str(tmp_path / "t.trace")
    f.write_text('[workload]\nkind = "trace"\npath = "elsewhere.trace"\n')
    assert load_config(f)["workload"]["path"] == "elsewhere.trace"


def test_set_trace_switches_kind_and_keeps_other_keys(tmp_path):
    cfg = {"workload": {"kind": "synthetic", "requests": 10, "max_requests": 5}}
    out = set_trace(cfg, tmp_path / "x.trace", None)
    assert out["workload"] == {"kind": "trace", "path": str(tmp_path / "x.trace"),
                               "format": "auto", "requests": 10, "max_requests": 5}
    assert cfg["workload"]["kind"] == "synthetic"
    cfg = {"workload": {"kind": "trace", "path": "a", "time_unit": "us"}}
    out = set_trace(cfg, "/t/b.csv", "msr")
    assert out["workload"] == {"kind": "trace", "path": "/t/b.csv", "format": "msr",
                               "time_unit": "us"}
    assert set_trace({}, None, "msr")["workload"] == {"format": "msr"}


def test_overrides_apply_after_trace():
    cfg = load_config({"workload": {"kind": "synthetic"}}, {"workload.time_unit": "us"},
                      trace="/x.trace")
    assert cfg["workload"]["time_unit"] == "us"
    assert cfg["workload"]["kind"] == "trace"


def test_deep_merge():
    a = {"x": {"y": 1, "z": [1]}, "k": 1}
    b = {"x": {"y": 2, "w": 3}, "k": {"t": 1}}
    assert deep_merge(a, b) == {"x": {"y": 2, "z": [1], "w": 3}, "k": {"t": 1}}
    assert a == {"x": {"y": 1, "z": [1]}, "k": 1}


def test_apply_overrides_creates_tables_and_merges_dicts():
    cfg = {"ftl": {"gc_policy": "fifo", "overprovisioning": 0.07}}
    out = apply_overrides(cfg, {"ftl.gc_policy": "greedy", "aging.initial_pe.kind": "constant",
                                "ftl": {"overprovisioning": 0.2}})
    assert out == {"ftl": {"gc_policy": "greedy", "overprovisioning": 0.2},
                   "aging": {"initial_pe": {"kind": "constant"}}}


def test_apply_overrides_through_a_scalar_fails():
    with pytest.raises(ConfigError, match="ftl.gc_policy is a str"):
        apply_overrides({"ftl": {"gc_policy": "fifo"}}, {"ftl.gc_policy.x": 1})


@pytest.mark.parametrize(
    "text, value",
    [
        ("0.1", 0.1),
        ("8", 8),
        ("-3", -3),
        ("1_000", 1000),
        ("true", True),
        ("false", False),
        ('"greedy"', "greedy"),
        ("'lit'", "lit"),
        ("greedy", "greedy"),
        ("cost_benefit", "cost_benefit"),
        ("1.2.3", "1.2.3"),
        ("../shared/traces/x.trace", "../shared/traces/x.trace"),
        ("[1, 2]", [1, 2]),
        ("{kind = 'uniform', low = 0, high = 3000}", {"kind": "uniform", "low": 0, "high": 3000}),
        ('""', ""),
    ],
)
def test_parse_value(text, value):
    assert parse_value(text) == value


@pytest.mark.parametrize(
    "item",
    ["ftl.gc_policy", "=greedy", "ftl..gc=1", "ftl gc=1", "a.b=", "a=[1,", 'a="open', "a.=1"],
)
def test_bad_overrides(item):
    with pytest.raises(ConfigError, match="--set"):
        parse_override(item)


def test_parse_overrides_later_wins():
    assert parse_overrides(["a=1", "b.c=x", "a=2"]) == {"a": 2, "b.c": "x"}


segment = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=8)
dotted = st.lists(segment, min_size=1, max_size=4).map(".".join)
toml_scalar = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
toml_value = st.one_of(toml_scalar, st.lists(toml_scalar, max_size=4))


@given(dotted, toml_value)
def test_override_round_trips_any_toml_value(key, value):
    inline = tomli_w.dumps({"v": value}).split("=", 1)[1].strip()
    k, v = parse_override(f"{key}={inline}")
    assert k == key
    assert v == value or (isinstance(v, float) and math.isnan(v))


bare_word = st.text(alphabet=string.ascii_letters + "_/.", min_size=1, max_size=12).filter(
    lambda w: w not in ("true", "false", "inf", "nan") and not w.startswith(".")
)


@given(dotted, bare_word)
def test_bare_word_is_a_string(key, word):
    assert parse_override(f"{key}={word}") == (key, word)


@given(st.lists(st.tuples(dotted, st.integers()), min_size=1, max_size=6))
def test_apply_overrides_sets_each_path(pairs):
    # Keep only pairs whose paths do not run through another pair's leaf.
    chosen: dict[str, int] = {}
    for key, value in pairs:
        clash = any(
            key == k or key.startswith(k + ".") or k.startswith(key + ".") for k in chosen
        )
        if not clash:
            chosen[key] = value
    base = {"untouched": {"x": 1}}
    out = apply_overrides(base, chosen)
    for key, value in chosen.items():
        node = out
        for part in key.split("."):
            node = node[part]
        assert node == value
    if not any(k.split(".")[0] == "untouched" for k in chosen):
        assert out["untouched"] == {"x": 1}
    assert base == {"untouched": {"x": 1}}
