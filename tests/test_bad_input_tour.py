"""The bad inputs of the newcomer's tour (issue 35): each was silent, or a poor error,
and is now refused with one line naming the key, file or line, or handled as it should."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

import nandlab
from cli_errors import cli, one_line_error
from nandlab.cli import main

ROOT = Path(__file__).resolve().parents[1]
SMALL = "seed = 5\n[workload]\nrequests = 200\n"
TRACE = "0 0 0 8 1\n1000 0 8 8 0\n2000 0 16 8 1\n"


@pytest.fixture
def small(tmp_path, real_core):
    f = tmp_path / "small.toml"
    f.write_text(SMALL)
    return f


@pytest.fixture
def trace(tmp_path):
    t = tmp_path / "t.trace"
    t.write_text(TRACE)
    return t


# ---- traces -----------------------------------------------------------------------------


def test_a_time_past_the_end_of_the_clock_is_refused_at_its_line(small, tmp_path):
    # It used to run: exit 0, simulated_ns 18446744073709551615, p50 0.
    t = tmp_path / "late.trace"
    t.write_text("0 0 0 8 1\n18446744073709551615 0 8 8 1\n")
    one_line_error(cli("run", small, "--trace", t, "-q"),
                   f"{t}:2: arrival time past the end of the clock")


@pytest.mark.parametrize("word", ["inf", "nan"])
def test_a_first_line_of_inf_or_nan_is_a_bad_time_not_a_header(small, tmp_path, word):
    # It used to be skipped as a header, and the run said "no requests".
    t = tmp_path / "t.trace"
    t.write_text(f"{word} 0 0 8 1\n1 0 8 8 1\n")
    one_line_error(cli("run", small, "--trace", t, "-q"), f"{t}:1: field `time`", word)


def test_auto_detection_names_the_format_a_malformed_line_is_closest_to(small, tmp_path):
    # One MSR line with a bad type used to be reported as a bad DiskSim time.
    t = tmp_path / "hm.log"
    t.write_text("128166385295514663,hm,0,Wrte,9056014336,2048,2833\n")
    one_line_error(cli("run", small, "--trace", t, "-q"), f"{t}:1: field `Type`", "msr")


# ---- trace convert's destination ---------------------------------------------------------


def test_convert_into_a_missing_folder_creates_nothing(trace, tmp_path, real_core):
    dst = tmp_path / "no" / "such" / "out.trace"
    one_line_error(cli("trace", "convert", trace, dst), "its folder", "does not exist")
    assert not (tmp_path / "no").exists()


def test_convert_onto_a_folder_names_the_folder(trace, tmp_path, real_core):
    d = tmp_path / "d.trace"
    d.mkdir()
    line = one_line_error(cli("trace", "convert", trace, d, "--to", "disksim"),
                          f"{d}: is a directory")
    assert ".tmp" not in line
    assert list(d.iterdir()) == []


def test_convert_through_a_symlink_replaces_its_target_and_keeps_the_link(trace, tmp_path,
                                                                          real_core):
    target = tmp_path / "real.trace"
    target.write_text("old\n")
    link = tmp_path / "link.trace"
    link.symlink_to(target)
    assert cli("trace", "convert", trace, link).exit_code == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text() == TRACE


def test_convert_into_a_fifo_feeds_its_reader(trace, tmp_path, real_core):
    # A FIFO (like /dev/null) cannot be replaced by a file: it is written in place, and
    # the reader gets the lines instead of blocking forever on a pipe no one writes.
    fifo = tmp_path / "pipe.trace"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    r = cli("trace", "convert", trace, fifo)
    reader.join(timeout=30)
    assert r.exit_code == 0, r.stderr
    assert not reader.is_alive() and got == [TRACE]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# ---- configs ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_non_finite_number_is_named_by_its_key(small, value):
    # It used to say only "expected value".
    r = cli("run", small, "--set", f"ftl.overprovisioning={value}", "-q")
    one_line_error(r, "config key `ftl.overprovisioning`", "finite")
    with pytest.raises(nandlab.ConfigError, match=r"`timing\.bus_rate_mb_s`"):
        nandlab.check_config(f"[timing]\nbus_rate_mb_s = {value}\n")


def test_a_huge_count_is_blamed_on_its_own_key(small):
    # 2e6 channels used to be blamed on device.blocks_per_plane.
    one_line_error(cli("config", "check", small, "--set", "device.channels=2000000"),
                   "config key `device.channels`")


def test_a_spare_area_larger_than_the_page_is_refused(small):
    # It used to be accepted and read by nothing.
    one_line_error(cli("config", "check", small, "--set", "device.oob_bytes=4294967295"),
                   "config key `device.oob_bytes`", "more than the page's 4096 data bytes")


def test_a_typo_beside_a_policy_without_parameters_says_so(real_core):
    # The README's own example used to print "unknown field `victm`, there are no fields".
    with pytest.raises(nandlab.ConfigError) as e:
        nandlab.run(ROOT / "configs" / "demo.toml", overrides={"ftl.gc.victm": "greedy"},
                    progress=False)
    assert str(e.value) == ("config key `ftl.gc.victm`: unknown field `victm`: the policy "
                            "chosen here has no parameters (is the key misspelt?)")


# ---- the API's exceptions ---------------------------------------------------------------


def test_missing_and_directory_paths_are_nandlab_errors(tmp_path, real_core):
    for call in (lambda p: nandlab.trace_info(p), lambda p: nandlab.run(p, progress=False),
                 lambda p: nandlab.states([p]), lambda p: nandlab.check_config(p)):
        with pytest.raises(nandlab.MissingFileError, match="no such file"):
            call(tmp_path / "missing.toml")
        with pytest.raises(nandlab.NotAFileError, match="is a directory"):
            call(tmp_path)
    # Still the OSError subclasses they were, for code that catches those.
    assert issubclass(nandlab.MissingFileError, FileNotFoundError)
    assert issubclass(nandlab.NotAFileError, IsADirectoryError)


def test_states_of_an_empty_file_is_an_error_not_zero_percent(tmp_path, real_core):
    f = tmp_path / "empty.bin"
    f.write_bytes(b"")
    one_line_error(cli("states", f), f"{f}: empty file")


def test_states_with_a_huge_unit_is_refused_not_an_abort(tmp_path, real_core):
    # 2^40-byte units made the core allocate 1 TiB and abort the interpreter.
    f = tmp_path / "x.bin"
    f.write_bytes(b"\x01\x02\x03")
    one_line_error(cli("states", f, "--unit-bytes", 2**40), "--unit-bytes 1099511627776")
    assert len(nandlab.states(f, unit_bytes=1 << 24)) == 1


# ---- calibrate ldpc's arguments ----------------------------------------------------------


@pytest.mark.parametrize("args,needle", [
    (("--levels=-1..2",), "--levels '-1..2'"),
    (("--levels", "7"), "levels 0 … 6"),
    (("--frames=-5",), "--frames"),
    (("--frames", "0"), "--frames"),
    (("--min-failures", "0"), "--min-failures"),
    (("--rber-grid", "abc"), "--rber-grid 'abc'"),
    (("--rber-grid", ","), "--rber-grid ','"),
    (("--rber-grid", "0.7"), "in (0, 0.5)"),
])
def test_calibrate_arguments_are_one_line_errors(tmp_path, capsys, args, needle):
    # They used to print 42-line tracebacks, or run silently with 1 frame.
    with pytest.raises(SystemExit) as e:
        main(["calibrate", "ldpc", "--out", str(tmp_path / "t.csv"), *args])
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "t.csv").exists()


# ---- results ----------------------------------------------------------------------------


def test_a_read_only_run_reports_no_write_statistics(small, tmp_path):
    # It reported write.mean_ns 0.0 (and p50/p99/max 0) for writes that never happened.
    s = nandlab.run(small, overrides={"workload.read_fraction": 1.0}, progress=False).summary
    assert s["write"]["count"] == 0
    stats = ("mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns")
    assert [s["write"][k] for k in stats] == [None] * 5
    assert s["read"]["count"] == 200 and s["read"]["mean_ns"] > 0


def test_no_percentile_lies_above_the_maximum(small):
    # The histogram answered with its bucket's top (read p99.9 639,487 > max 639,380 ns).
    s = nandlab.run(small, progress=False).summary
    for op in ("read", "write", "all"):
        t = s[op]
        assert t["p50_ns"] <= t["p99_ns"] <= t["p999_ns"] <= t["max_ns"], (op, t)


def test_a_killed_run_leaves_no_temp_file_after_the_next_run(tmp_path, real_core):
    # SIGKILL during a run leaves the record stream's hidden temp file (no cleanup runs);
    # the next run into the folder used to leave it there for good.
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    cfg = tmp_path / "long.toml"
    cfg.write_text("seed = 1\n[workload]\nrequests = 50_000_000\n")
    p = subprocess.Popen(
        [sys.executable, "-m", "nandlab", "run", str(cfg), "--out", str(out), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list(out.glob(".requests.*.tmp")) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    left = list(out.glob(".requests.*.tmp"))
    assert left, "the run never started its record stream"
    cfg.write_text(SMALL)
    assert cli("run", cfg, "--out", out, "-q").exit_code == 0
    assert not list(out.glob(".*.tmp")), list(out.iterdir())
    assert (out / "summary.json").is_file()
