"""Every paper's *full* plan, its first and last run of every sweep simulated (issue #28
item 5): schema and analysis errors of full mode show here, not after an hour."""

from __future__ import annotations

import polars as pl
import pytest

from nandlab.reproduce import framework, smoke
from nandlab.sweeps.spec import load_spec

SPEC = {
    "config": {"seed": 1, "workload": {"kind": "synthetic", "requests": 5000}},
    "seeds": [1, 2, 3],
    "case": [{"ftl.x": 1, "tags": {"p": "a"}}, {"ftl.x": 2, "tags": {"p": "b"}}],
    "workload": [{"name": "w1", "requests": 9000},
                 {"name": "w2", "flows": [{"requests": 3000}, {"requests": 1000}]}],
}


def test_picks_cover_every_value():
    spec = load_spec({**SPEC, "case": [{"ftl.x": 1, "tags": {"p": "a"}},
                                       {"ftl.x": 2, "tags": {"p": "a"}},
                                       {"ftl.x": 1, "tags": {"p": "a"}, "ftl.y": "g"},
                                       {"ftl.x": 2, "tags": {"p": "b"}, "ftl.y": "g"},
                                       {"ftl.x": 1, "tags": {"p": "b"}, "ftl.y": "h"}]})
    # Points 0 (p=a), 2 (y="g" new), 3 (p=b new), 4 (y="h" new); 1 differs only in a number
    # (and has y absent, as point 0).
    assert smoke.picks(spec) == [0, 2, 3, 4]


def test_subset_has_few_requests():
    spec = load_spec(SPEC)
    first, last = smoke.subset(spec, 0, [0], 0), smoke.subset(spec, 1, [1], 2)
    assert ([w.name for w in first.workloads], first.points[0].tags, first.seeds) == \
        (["w1"], {"p": "a"}, [1])
    assert ([w.name for w in last.workloads], last.points[0].tags, last.seeds) == \
        (["w2"], {"p": "b"}, [3])
    assert first.workloads[0].overrides["workload.requests"] == smoke.REQUESTS
    # Flows keep their shares: 500 · 3/4 and 500 · 1/4.
    assert last.workloads[0].overrides["workload.flows"] == [{"requests": 375},
                                                            {"requests": 125}]
    assert first.config["workload"]["requests"] == smoke.REQUESTS
    assert "max_requests" not in first.config["workload"]  # not a trace
    assert smoke.subset(spec, 0, [0], 0, cut=False).workloads[0].overrides[
        "workload.requests"] == 9000


def test_fill_gives_every_planned_row():
    spec = load_spec(SPEC)
    first = {"run_id": "f", "workload": "w1", "seed": 1, "config.ftl.x": 1, "p": "a",
             "m": [1.0, None]}
    last = {"run_id": "l", "workload": "w2", "seed": 3, "config.ftl.x": 2, "p": "b",
            "m": [2.0, 3.0], "only_b": 7}
    t = smoke.fill(spec, [first, last])
    # 2 workloads x 2 cases x 3 seeds, in plan order; each row takes the metrics of the
    # run of its own case; a metric only case b has is null elsewhere, as in a real table.
    assert t.height == 12
    assert t["workload"].to_list() == ["w1"] * 6 + ["w2"] * 6
    assert t["seed"].to_list() == [1, 2, 3] * 4
    assert t["p"].to_list() == (["a"] * 3 + ["b"] * 3) * 2
    assert t["m"].to_list() == ([[1.0, None]] * 3 + [[2.0, 3.0]] * 3) * 2
    assert t["m"].dtype == pl.List(pl.Float64)
    assert t["only_b"].to_list() == ([None] * 3 + [7] * 3) * 2


@pytest.mark.parametrize("name", list(framework.PAPERS))
def test_full_plan_runs_through_the_analysis(name, real_core, tmp_path):
    pytest.importorskip("matplotlib")
    analysis = smoke.smoke(name, tmp_path, jobs=2)
    assert analysis.claims and analysis.body
    for fig in analysis.figures:
        assert (tmp_path / fig).stat().st_size > 0
