"""The batched array decoders (`nandlab.ldpc_xp`) against the Rust decoders.

Bit-exactness: the same channel frames (drawn by Rust) decoded by `FixedBatchDecoder` or
`F32BatchDecoder` on numpy, and on CuPy where CuPy imports and sees a GPU, give every frame
the Rust decoder's (`FixedDecoder`, `MinSumDecoder`) convergence flag, iteration count and
decisions. The CuPy cases skip, saying why, on machines without one.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from nandlab.cli import app
from nandlab.ldpc_xp import batch_decoder, sample_outcomes
from nandlab.ldpc_xp.arrays import to_host
from nandlab.ldpc_xp.decoder import quantize

#: The calibration's decoder: normalized min-sum α = 0.75, 20 iterations, early stop, 8-bit
#: fixed point at 4 steps per LLR unit (`nandlab calibrate ldpc --fixed8`).
NMS = {"rule": {"kind": "normalized", "alpha": 0.75}, "max_iterations": 20,
       "early_termination": True, "arithmetic": {"kind": "fixed8", "llr_scale": 4.0}}
#: The same in f32, the decoder of the shipped table and of soft strata.
NMS_F32 = dict(NMS, arithmetic={"kind": "f32"})


def rust_decode(core, z, shifts, decoder, llr):
    conv, its, words = core.ldpc_decode(z, shifts, json.dumps(decoder), llr)
    return np.asarray(conv), np.asarray(its), np.asarray(words)


def assert_same(core, xp, z, shifts, decoder, llr):
    """Both decoders on float32 frames `llr`; returns the Rust iteration counts."""
    conv, its, words = rust_decode(core, z, shifts, decoder, llr)
    dec = batch_decoder(z, shifts, decoder, xp)
    out = dec.decode(xp.asarray(dec.channel_input(llr)))
    got_conv, got_its = to_host(out.converged), to_host(out.iterations)
    got_words = to_host(out.decisions)
    for f in range(llr.shape[0]):
        assert (bool(got_conv[f]), int(got_its[f])) == (bool(conv[f]), int(its[f])), f"frame {f}"
        assert np.array_equal(got_words[f], words[f]), f"frame {f}: decisions differ"
    return conv, its, words


# Points on both waterfalls of the shipped table (hard FER ≈ 0.3 at 9e-3, k = 2 FER ≈ 0.55
# at 1.9e-2) and one where the decoder stops after a few iterations (hard 5e-3).
REAL_POINTS = [(0, 9e-3), (2, 1.9e-2), (0, 5e-3)]


@pytest.mark.parametrize("device", ["numpy", "cuda"])
@pytest.mark.parametrize(("level", "rber"), REAL_POINTS)
def test_real_code_frames_match_rust_bit_for_bit(real_core, device, level, rber, xp_of):
    xp = xp_of(device)
    z, shifts = real_core.ldpc_code()
    llr = np.asarray(real_core.ldpc_frames(level, rber, 77, 0, 48))
    assert llr.shape == (48, 36864) and llr.dtype == np.float32
    conv, its, words = assert_same(real_core, xp, z, shifts, NMS, llr)
    # The frames exercise the decoder: different iteration counts, and on the waterfalls
    # both decoded and failed frames (the all-zero word is the sent one: a 1 is an error).
    waterfall = rber > 6e-3
    assert len(set(its.tolist())) >= (3 if waterfall else 2), its
    if waterfall:
        assert 0 < words.any(axis=1).sum() < 48


# Soft levels where the f32 decoder works hard (k = 2 at 1.9e-2: FER ≈ 0.5, up to 20
# iterations) and where it stops after a few (k = 3 at 1.7e-2, k = 6 at 1.85e-2).
F32_POINTS = [(2, 1.9e-2), (3, 1.7e-2), (6, 1.85e-2)]


@pytest.mark.parametrize("device", ["numpy", "cuda"])
@pytest.mark.parametrize(("level", "rber"), F32_POINTS)
def test_f32_real_code_frames_match_rust_bit_for_bit(real_core, device, level, rber, xp_of):
    xp = xp_of(device)
    z, shifts = real_core.ldpc_code()
    assert json.loads(real_core.ldpc_table_decoder()) == NMS_F32
    llr = np.asarray(real_core.ldpc_frames(level, rber, 77, 0, 24))
    conv, its, words = assert_same(real_core, xp, z, shifts, NMS_F32, llr)
    assert len(set(its.tolist())) >= 3, its
    if level == 2:
        assert 0 < words.any(axis=1).sum() < 24


@pytest.mark.parametrize("device", ["numpy", "cuda"])
def test_without_early_stop_every_frame_runs_the_limit_unless_already_a_codeword(
        real_core, device, xp_of):
    xp = xp_of(device)
    z, shifts = real_core.ldpc_code()
    llr = np.asarray(real_core.ldpc_frames(0, 9.5e-3, 5, 0, 24))
    llr[0] = 1.0  # an error-free frame: a codeword before the first iteration
    decoder = dict(NMS, max_iterations=6, early_termination=False)
    conv, its, _ = assert_same(real_core, xp, z, shifts, decoder, llr)
    assert its[0] == 0 and conv[0]
    assert (its[1:] == 6).all()


def array7():
    """Array code: Z = 7, 3 × 7 base matrix, shift(i, j) = i·j mod 7 (girth 6)."""
    return 7, [[(i * j) % 7 for j in range(7)] for i in range(3)]


@pytest.mark.parametrize("device", ["numpy", "cuda"])
@pytest.mark.parametrize("arithmetic", ["fixed8", "f32"])
@pytest.mark.parametrize("rule", [{"kind": "normalized", "alpha": 1.0},
                                  {"kind": "offset", "beta": 0.5}])
def test_small_code_with_random_llrs_and_zero_blocks(real_core, device, arithmetic, rule, xp_of):
    # The length-49 array code, a base matrix with zero blocks (column weights 2–3) and
    # that matrix with a degree-1 check row added, both rules (α = 1 scales by the clamped
    # 255/256 in fixed8 and lets messages reach the ±⌊96/d_v⌋ clamp), with and without
    # early stop, on 1,000 frames each: LLRs uniform in ±10 (values past ±31/4 saturate in
    # fixed8) and LLRs from a few values (ties between minima, ±0, magnitudes past the f32
    # decoder's start minimum 1e4). A decoder whose message clamp is one step off, or whose
    # f32 minima do not start at 1e4, already differs on a few of these frames.
    xp = xp_of(device)
    rng = np.random.default_rng(3)
    z, full = array7()
    sparse = [[s if (i + j) % 4 else None for j, s in enumerate(row)] for i, row in enumerate(full)]
    degree1 = [*sparse, [3] + [None] * 6]
    decoder = NMS if arithmetic == "fixed8" else NMS_F32
    for shifts in (full, sparse, degree1):
        ties = rng.choice([-9.0, -2.5, -1.0, -0.25, -0.0, 0.0, 0.5, 1.0, 3.0, 9.0, 2e4, -3e4],
                          size=(500, 49))
        llr = np.concatenate([rng.uniform(-10, 10, size=(500, 49)), ties]).astype(np.float32)
        for et in (True, False):
            dec = dict(decoder, rule=rule, max_iterations=7, early_termination=et)
            assert_same(real_core, xp, z, shifts, dec, llr)


def test_quantisation_rounds_halves_away_and_saturates():
    # The Rust unit test's cases (fixed.rs `quantisation_rounds_and_saturates`), scale 4.
    got = quantize(np.array([1.1, -1.2, 0.625, -0.625, 0.1, 100.0, -100.0]), 4.0)
    assert got.tolist() == [4, -5, 3, -3, 0, 31, -31]


def test_sampled_outcomes_follow_the_law(real_core):
    # 32 frames × 36 864 bits from the k = 2 law at RBER 1.6e-2: every outcome's count is
    # within 5 σ of its binomial mean, and the hard errors within 5 σ of RBER · bits.
    prob, llr, err = real_core.ldpc_coset_law(2, 1.6e-2)
    assert math.isclose(sum(prob), 1.0, rel_tol=1e-12) and len(prob) == len(llr) == len(err)
    bits = 32 * 36864
    out = sample_outcomes(np, prob, 32, 36864, seed=9)
    counts = np.bincount(out.ravel(), minlength=len(prob))
    for c, p in zip(counts, prob, strict=True):
        assert abs(c - bits * p) <= 5 * math.sqrt(bits * p * (1 - p)) + 1
    p_err = sum(p for p, e in zip(prob, err, strict=True) if e)
    assert math.isclose(p_err, 1.6e-2, rel_tol=1e-3)
    assert abs(counts[np.asarray(err)].sum() - bits * p_err) <= 5 * math.sqrt(bits * p_err)


def test_decoders_refuse_bad_settings_and_wrong_frame_width(real_core):
    z, shifts = real_core.ldpc_code()
    from nandlab.errors import ConfigError

    bad_scale = dict(NMS, arithmetic={"kind": "fixed8", "llr_scale": 0.0})
    with pytest.raises(ConfigError, match="llr_scale"):
        real_core.ldpc_decode(z, shifts, json.dumps(bad_scale), np.zeros((1, 36864), np.float32))
    with pytest.raises(ConfigError, match="n = 36864"):
        real_core.ldpc_decode(z, shifts, json.dumps(NMS), np.zeros((1, 10), np.float32))
    with pytest.raises(ConfigError, match="float16"):
        batch_decoder(z, shifts, dict(NMS, arithmetic={"kind": "float16"}))


def test_device_numpy_calibration_writes_a_fixed8_table(real_core, tmp_path):
    out = tmp_path / "fer.csv"
    r = CliRunner().invoke(app, ["calibrate", "ldpc", "--out", str(out), "--device", "numpy",
                                 "--frames", "8", "--min-failures", "1", "--levels", "0",
                                 "--rber-grid", "0.03", "--batch", "4"])
    assert r.exit_code == 0, r.stderr
    assert "on numpy" in r.stdout
    prov = json.loads(out.with_suffix(".json").read_text())
    assert prov["provenance"]["device"] == "numpy"
    assert prov["provenance"]["decoder"]["arithmetic"] == {"kind": "fixed8", "llr_scale": 4.0}
    (pt,) = prov["points"]
    # Hard decisions at RBER 3 % always fail: the first batch of 4 reaches 1 failure.
    assert (pt["frames"], pt["failures"]) == (4, 4)
    assert abs(pt["measured_rber"] - 0.03) < 0.003
    assert "# wall time" in out.read_text() and "on device numpy" in out.read_text()


def test_device_and_cpu_fixed8_agree_within_statistical_error(real_core, tmp_path):
    # Hard decision at RBER 9.5e-3 (shipped FER ≈ 0.54): 96 frames on each path. The two
    # draw different frames from one law and decode them with one decoder, so their
    # failure counts differ by sampling only: |z| < 3.29 (two-sided 0.1 %).
    fer = {}
    for device in ("cpu", "numpy"):
        out = tmp_path / f"{device}.csv"
        args = ["calibrate", "ldpc", "--out", str(out), "--device", device, "--fixed8",
                "--frames", "96", "--min-failures", "96", "--levels", "0",
                "--rber-grid", "0.0095", "--batch", "96", "--jobs", "1"]
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 0, r.stderr
        (pt,) = json.loads(out.with_suffix(".json").read_text())["points"]
        assert pt["frames"] == 96
        fer[device] = pt["failures"] / 96
    p = (fer["cpu"] + fer["numpy"]) / 2
    assert 0.1 < p < 0.9, fer
    assert abs(fer["cpu"] - fer["numpy"]) / math.sqrt(2 * p * (1 - p) / 96) < 3.29, fer


def test_cuda_without_cupy_is_one_line(real_core, tmp_path, cuda_missing_error):
    expected = cuda_missing_error
    r = CliRunner().invoke(app, ["calibrate", "ldpc", "--out", str(tmp_path / "x.csv"),
                                 "--device", "cuda"])
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {expected}"
    assert "--device cuda" in expected and ("nandlab[gpu]" in expected or "device" in expected)


def test_device_calibration_out_of_memory_is_one_line(real_core, tmp_path, monkeypatch):
    # The batch callback runs inside the Rust calibration; its one-line error comes out
    # of the CLI unchanged.
    from nandlab.ldpc_xp import measure

    def exhausted(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr(measure, "sample_outcomes", exhausted)
    r = CliRunner().invoke(app, ["calibrate", "ldpc", "--out", str(tmp_path / "fer.csv"),
                                 "--device", "numpy", "--frames", "8", "--levels", "0",
                                 "--rber-grid", "0.03", "--batch", "8"])
    assert r.exit_code == 2, r.stdout
    assert r.stderr.strip() == "error: --batch 8: out of memory on numpy; use a smaller --batch"
