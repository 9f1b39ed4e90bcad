"""Typed summary access: a missing metric is an error naming it, never a default."""

from __future__ import annotations

import pytest

import nandlab
from nandlab.summary import MissingMetric, Summary

S = Summary(
    {
        "version": "1.2.3",
        "seed": 7,
        "read": {"count": 3, "p99_ns": 1200, "mean_ns": 10.5},
        "write": None,
        "reliability": {"decoded_at_level": [2, 0, 1], "rber_histogram": [{"reads": 1}]},
        "sim": {"wall_s": 0.3, "events": 9},
        "config": {"ftl": {"gc_policy": "greedy"}},
    }
)


def test_metric_by_dotted_key():
    assert S.metric("read.p99_ns") == 1200 and S.number("read.mean_ns") == 10.5
    assert S.seed == 7 and S.version == "1.2.3" and S.config["ftl"]["gc_policy"] == "greedy"


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("read.p99_nss", "metric `read.p99_nss` is not in the run's summary (read has: count"),
        ("write.count", "(`write` is empty in this run)"),
        ("reliabilty.mean_attempts", "(the summary has: version, seed, read"),
        ("read", "`read` is a section (count, p99_ns, mean_ns)"),
    ],
)
def test_missing_metric_names_the_key(key, message):
    with pytest.raises(MissingMetric) as e:
        S.metric(key)
    assert message in str(e.value)
    assert not S.has(key) or key == "read"


def test_flat_leaves_out_config_and_wall_clock():
    flat = S.flat()
    assert flat["read.p99_ns"] == 1200 and flat["sim.events"] == 9
    assert flat["reliability.decoded_at_level"] == [2, 0, 1]
    assert flat["reliability.rber_histogram"] == '[{"reads": 1}]'
    assert "sim.wall_s" not in flat and not any(k.startswith("config") for k in flat)


def test_result_metric_on_the_real_core(real_core):
    res = nandlab.run(
        "configs/demo.toml",
        overrides={"workload.requests": 200, "device.blocks_per_plane": 64},
        progress=False,
    )
    assert res.metric("requests.count") == 200
    assert res.metric("read.count") + res.metric("write.count") == 200
    with pytest.raises(MissingMetric, match="read.p99_nss"):
        res.metric("read.p99_nss")
