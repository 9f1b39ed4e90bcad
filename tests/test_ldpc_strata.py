"""Error-count strata on an array device (`nandlab.ldpc_xp.conditioned`, `.strata`,
`nandlab calibrate strata`): frames with exactly w errors, the stratified measurement
against the Rust CPU path, and the file `ldpc_extend --strata` pools.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from nandlab.cli import app
from nandlab.ldpc_xp.arrays import to_host
from nandlab.ldpc_xp.conditioned import conditioned_outcomes, stratum_batch_seed
from nandlab.ldpc_xp.strata import StrataMeasure

N = 36864


@pytest.mark.parametrize("device", ["numpy", "cuda"])
def test_conditioned_frames_hold_w_errors_from_each_side_of_the_law(real_core, device, xp_of):
    # 48 frames of the k = 3 law at 1.7e-2 with w = 660: every frame holds exactly 660
    # error outcomes; each outcome's count is within 5 σ of its expectation under its side
    # of the law (error outcomes: 48·660 draws from prob/p_err; correct ones: 48·(n − 660)
    # draws from prob/(1 − p_err)).
    xp = xp_of(device)
    prob, _, err = real_core.ldpc_coset_law(3, 1.7e-2)
    prob, err = np.asarray(prob), np.asarray(err)
    frames, w = 48, 660
    out = to_host(conditioned_outcomes(xp, prob, err, w, frames, N, seed=4))
    assert out.shape == (frames, N)
    assert (err[out].sum(axis=1) == w).all()
    counts = np.bincount(out.ravel(), minlength=len(prob))
    p_err = prob[err].sum()
    for c, p, e in zip(counts, prob, err, strict=True):
        draws, q = (frames * w, p / p_err) if e else (frames * (N - w), p / (1 - p_err))
        assert abs(c - draws * q) <= 5 * math.sqrt(draws * q * (1 - q)) + 1, (c, draws * q)


def test_error_positions_are_uniform_and_extremes_work(real_core):
    # On a 64-bit frame with w = 16, 4,000 frames: each position is an error in
    # 4000·16/64 = 1000 frames on average, binomial σ = √(4000·¼·¾) ≈ 27.4: every count
    # within 5 σ. w = 0 and w = n give no error and all errors.
    prob, _, err = real_core.ldpc_coset_law(2, 1.6e-2)
    err = np.asarray(err)
    n, w, frames = 64, 16, 4000
    out = conditioned_outcomes(np, prob, err, w, frames, n, seed=11)
    hits = err[out]
    assert (hits.sum(axis=1) == w).all()
    per_pos = hits.sum(axis=0)
    assert np.abs(per_pos - 1000).max() <= 5 * math.sqrt(frames * 0.25 * 0.75), per_pos
    assert not err[conditioned_outcomes(np, prob, err, 0, 3, n, seed=1)].any()
    assert err[conditioned_outcomes(np, prob, err, n, 3, n, seed=1)].all()


def test_batch_seeds_depend_on_seed_w_and_batch_only():
    a = stratum_batch_seed(5, 660, 2)
    assert a == stratum_batch_seed(5, 660, 2)
    assert len({a, stratum_batch_seed(6, 660, 2), stratum_batch_seed(5, 661, 2),
                stratum_batch_seed(5, 660, 3)}) == 4


def test_array_stratum_agrees_with_rust_measure_stratum(real_core):
    # k = 2 at 1.6e-2, w = 745, where f(w) ≈ 0.56: 256 frames on numpy (f32 array decoder,
    # frames drawn on the device) against 2,000 frames of the Rust CPU path
    # (`stratified::measure_stratum`, the ldpc_stratified code). The same decoder on the
    # same conditioned law: the two rates differ by sampling only, |z| < 3.29 (two-sided
    # 0.1 %).
    decoder = real_core.ldpc_table_decoder()
    rust_frames, rust_fail = real_core.ldpc_measure_stratum(2, 1.6e-2, decoder, 7, 745,
                                                            10**9, 2000, 250)
    assert rust_frames == 2000
    m = StrataMeasure("numpy", 2, 1.6e-2)
    fails = sum(m.failures(7, 745, b, 128) for b in range(2))
    p_r, p_a = rust_fail / 2000, fails / 256
    p = (rust_fail + fails) / 2256
    assert 0.2 < p < 0.8, (p_r, p_a)
    assert abs(p_r - p_a) / math.sqrt(p * (1 - p) * (1 / 2000 + 1 / 256)) < 3.29, (p_r, p_a)


def run_cli(*args):
    return CliRunner().invoke(app, ["calibrate", "strata", *args])


def test_cli_writes_the_stratified_file_after_every_stratum(real_core, tmp_path):
    # k = 3 at 1.7e-2: w = 900 (far past the waterfall: every frame fails, so the stratum
    # stops at --min-failures 8 after one batch of 8) and w = 0 (a codeword: never fails,
    # runs --frames 16 in two batches).
    out = tmp_path / "s.json"
    r = run_cli("--level", "3", "--rber", "1.7e-2", "--errors", "900,0", "--frames", "16",
                "--min-failures", "8", "--batch", "8", "--seed", "31", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("w=900 frames=8 failures=8 (")
    assert lines[1].startswith("w=0 frames=16 failures=0 (")
    doc = json.loads(out.read_text())
    run = doc["run"]
    assert run["device"] == "numpy" and run["seeds"] == [31] and run["level"] == 3
    assert run["decoder"] == json.loads(real_core.ldpc_table_decoder())
    assert run["strata"] == [{"errors": 0, "frames": 16, "failures": 0},
                             {"errors": 900, "frames": 8, "failures": 8}]
    (pt,) = doc["points"]
    assert pt["rber"] == 1.7e-2 and abs(pt["law_rber"] / 1.7e-2 - 1) < 1e-6
    assert not (tmp_path / "s.json.tmp").exists()


def test_cli_time_budget_spent_before_the_first_batch_writes_nothing(real_core, tmp_path,
                                                                       monkeypatch):
    # A clock that advances 1 s per reading and a 0.5 s budget: the first check already
    # reads past it, so no batch runs, no file is written, and the CLI says so.
    from nandlab.ldpc_xp import strata

    ticks = iter(range(100))
    monkeypatch.setattr(strata, "monotonic", lambda: float(next(ticks)))
    out = tmp_path / "s.json"
    r = run_cli("--level", "3", "--rber", "1.7e-2", "--errors", "0,900", "--frames", "64",
                "--batch", "4", "--time-budget-s", "0.5", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    assert "nothing written" in r.stdout and not out.exists()


def test_time_budget_keeps_the_unfinished_stratum(real_core, tmp_path, monkeypatch):
    # A clock that advances 1 s per reading, budget 2.5 s: the run starts at 0, the first
    # stratum at 1, its first batch at 2 (< 2.5: it runs), the next check reads 3 and
    # stops. The file holds the unfinished stratum's 4 frames; w = 900 never starts.
    from nandlab.ldpc_xp import strata

    ticks = iter(range(100))
    monkeypatch.setattr(strata, "monotonic", lambda: float(next(ticks)))
    out = tmp_path / "s.json"
    m = StrataMeasure("numpy", 3, 1.7e-2)
    done = strata.measure_strata(m, 3, 1.7e-2, [0, 900], 64, 20, 5, 4, out, "numpy", 2.5)
    assert [(t.w, t.frames, t.failures) for t in done] == [(0, 4, 0)]
    assert json.loads(out.read_text())["run"]["strata"] == [
        {"errors": 0, "frames": 4, "failures": 0}]


@pytest.mark.parametrize(("args", "expected"), [
    (["--level", "7"], "level 7: must be 0 … 6"),
    (["--rber", "0.6"], "rber 0.6: must lie in (0, 0.5)"),
    (["--errors", ""], "--errors: give at least one error count"),
    (["--errors", "5,x"], "--errors '5,x': use a list like 646,650"),
    (["--errors", "36865"], "--errors: w = 36865 must lie in 0 … n = 36864"),
    (["--errors", "5,5"], "--errors 5,5: an error count repeats"),
    (["--out", "/nonexistent-dir/s.json"], "/nonexistent-dir/s.json.tmp"),
    (["--device", "cpu"], "--device cpu: use the Rust tool"),
    (["--seed", "-1"], "--seed -1: must lie in 0 … 2^64 − 1"),
    (["--time-budget-s", "0"], "--time-budget-s 0.0: must be positive"),
])
def test_cli_bad_input_is_one_line(real_core, tmp_path, args, expected):
    base = {"--level": "3", "--rber": "1.7e-2", "--errors": "900",
            "--out": str(tmp_path / "s.json"), "--frames": "4"}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v
    r = run_cli(*[x for kv in base.items() for x in kv])
    assert r.exit_code == 2, r.stdout
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("error: ") and expected in line, line


def test_cli_cuda_without_cupy_is_the_one_line_of_calibrate_ldpc(real_core, tmp_path,
                                                                 cuda_missing_error):
    expected = cuda_missing_error
    r = run_cli("--level", "3", "--rber", "1.7e-2", "--errors", "900", "--device", "cuda",
                "--out", str(tmp_path / "s.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {expected}"


@pytest.mark.parametrize("oom", [MemoryError, type("OutOfMemoryError", (Exception,), {})])
def test_running_out_of_memory_in_a_batch_is_one_line(real_core, tmp_path, monkeypatch, oom):
    # numpy's MemoryError and CuPy's OutOfMemoryError (matched by name: here a stand-in
    # class of that name) while a batch is drawn become one line naming --batch.
    from nandlab.ldpc_xp import strata

    def exhausted(*_args, **_kwargs):
        raise oom("cannot allocate")

    monkeypatch.setattr(strata, "conditioned_outcomes", exhausted)
    r = run_cli("--level", "3", "--rber", "1.7e-2", "--errors", "900", "--frames", "4",
                "--batch", "4", "--out", str(tmp_path / "s.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: --batch 4: out of memory on numpy; use a smaller --batch"


def test_another_error_in_a_batch_is_not_called_out_of_memory(real_core, monkeypatch):
    from nandlab.ldpc_xp import strata

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(strata, "conditioned_outcomes", broken)
    m = strata.StrataMeasure("numpy", 3, 1.7e-2)
    with pytest.raises(RuntimeError, match="a bug"):
        m.failures(1, 900, 0, 4)
