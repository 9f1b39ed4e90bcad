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


def test_ends_are_the_first_and_last_run_with_few_requests():
    first, last = smoke.ends(load_spec(SPEC))
    # Runs go workload, point, seed: the first is (w1, case 0, seed 1), the last
    # (w2, case 1, seed 3).
    assert ([w.name for w in first.workloads], first.points[0].tags, first.seeds) == \
        (["w1"], {"p": "a"}, [1])
    assert ([w.name for w in last.workloads], last.points[0].tags, last.seeds) == \
        (["w2"], {"p": "b"}, [3])
    assert first.workloads[0].overrides["workload.requests"] == smoke.REQUESTS
    # Flows keep their shares: 300 · 3/4 and 300 · 1/4.
    assert last.workloads[0].overrides["workload.flows"] == [{"requests": 225},
                                                            {"requests": 75}]
    assert first.config["workload"]["requests"] == smoke.REQUESTS


def test_fill_gives_the_full_plans_rows():
    spec = load_spec(SPEC)
    first = pl.DataFrame({"run_id": ["f"], "workload": ["w1"], "seed": [1], "config.ftl.x": [1],
                          "p": ["a"], "m": [[1.0, None]]})
    last = pl.DataFrame({"run_id": ["l"], "workload": ["w2"], "seed": [3], "config.ftl.x": [2],
                         "p": ["b"], "m": [[2.0, 3.0]]})
    t = smoke.fill(spec, first, last)
    # 2 workloads x 2 cases x 3 seeds, in plan order; the first six take the first run's
    # metrics, the last six the last run's.
    assert t.height == 12
    assert t["workload"].to_list() == ["w1"] * 6 + ["w2"] * 6
    assert t["seed"].to_list() == [1, 2, 3] * 4
    assert t["p"].to_list() == (["a"] * 3 + ["b"] * 3) * 2
    assert t["m"].to_list() == [[1.0, None]] * 6 + [[2.0, 3.0]] * 6
    assert t["m"].dtype == pl.List(pl.Float64)


@pytest.mark.parametrize("name", list(framework.PAPERS))
def test_full_plan_runs_through_the_analysis(name, real_core, tmp_path):
    pytest.importorskip("matplotlib")
    analysis = smoke.smoke(name, tmp_path, jobs=2)
    assert analysis.claims and analysis.body
    for fig in analysis.figures:
        assert (tmp_path / fig).stat().st_size > 0
