"""Bad input gets a one-line error naming the key, file or line, exit status 2 on the
command line and an exception of nandlab's one hierarchy in the API — never an abort, a
traceback or a silently wrong result. Each case runs the compiled core."""

from __future__ import annotations

import re
import resource
import sys
from pathlib import Path

import pytest

import nandlab
from cli_errors import cli, one_line_error
from nandlab.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "configs" / "demo.toml"
#: The default device (4 GiB) and 200 synthetic requests.
SMALL = "seed = 5\n[workload]\nrequests = 200\n"


@pytest.fixture
def small(tmp_path, real_core):
    f = tmp_path / "small.toml"
    f.write_text(SMALL)
    return f


# ---- a device too large for memory -------------------------------------------------

BIG = {"device.blocks_per_plane": 130_000_000}  # 4.16e9 blocks: under 2^32, over memory


def test_device_too_large_for_memory_is_refused_on_the_command_line(real_core):
    # The demo's 32 planes x 130e6 blocks of 128 pages: 4.16e9 blocks x 28 B +
    # 5.3248e11 pages / 16 x 4 B + 32 planes x 128 B ≈ 249.6 GB.
    r = cli("run", DEMO, "--set", "device.blocks_per_plane=130000000", "-q")
    one_line_error(r, "config key `device.blocks_per_plane`", "249.6 GB")
    one_line_error(cli("config", "check", DEMO, "--set", "device.blocks_per_plane=130000000"),
                   "249.6 GB")


def test_device_too_large_for_memory_is_an_exception_not_a_dead_interpreter(real_core):
    with pytest.raises(nandlab.ConfigError, match=r"device\.blocks_per_plane.*249\.6 GB"):
        nandlab.run(DEMO, overrides=BIG, progress=False)
    with pytest.raises(nandlab.ConfigError, match=r"device\.blocks_per_plane"):
        nandlab.check_config(DEMO, BIG)
    assert nandlab.run(SMALL, progress=False).summary["requests"]["count"] == 200


# ---- traces ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n# only a comment\n", "time dev lba size type\n"])
def test_empty_trace_is_an_error(small, tmp_path, text):
    t = tmp_path / "empty.trace"
    t.write_text(text)
    one_line_error(cli("run", small, "--trace", t, "-q"), f"{t}: the trace has no requests")
    one_line_error(cli("trace", "info", t), "the trace has no requests")
    with pytest.raises(nandlab.NandlabError, match="the trace has no requests"):
        nandlab.run(SMALL, trace=t, progress=False)


def test_auto_detection_reports_the_closest_formats_error_with_its_line(small, tmp_path):
    t = tmp_path / "t.txt"
    t.write_text("0 0 0 8 1\n10 0 8 8 0\n20 0 x 8 1\n30 0 16 8 1\n")
    msg = one_line_error(cli("run", small, "--trace", t, "-q"),
                         f"{t}:3: field `lba`", "read as disksim")
    # The same error the named format gives, plus the note on detection.
    named = one_line_error(cli("run", small, "--trace", t, "--format", "disksim", "-q"))
    assert msg.startswith(named)
    with pytest.raises(nandlab.TraceError, match=r":3: field `lba`"):
        nandlab.trace_info(t)


def test_a_bad_critical_flag_names_the_file_and_line(small, tmp_path):
    t = tmp_path / "flags.trace"
    t.write_text("0 0 0 8 0 1\n10 0 8 8 0 yes\n")
    one_line_error(cli("run", small, "--trace", t, "--set", "host.critical.source=trace", "-q"),
                   f"{t}:2: field `critical`", "expected 1 (critical) or 0")
    one_line_error(cli("trace", "info", t), f"{t}:2: field `critical`")
    with pytest.raises(nandlab.TraceError, match=r":2: field `critical`"):
        nandlab.trace_info(t)


@pytest.mark.parametrize(("overrides", "needle"), [
    ({"host.critical.source": "flags"}, "host.critical.source"),
    ({"host.critical.source": "trace", "host.critical.lpn_ranges": [[0, 9]]},
     "host.critical.lpn_ranges"),
])
def test_a_bad_critical_classifier_names_the_key(real_core, overrides, needle):
    with pytest.raises(nandlab.ConfigError, match=re.escape(needle)):
        nandlab.check_config(SMALL, overrides)


@pytest.mark.parametrize("fmt", ["auto", "disksim", "msr"])
def test_a_huge_line_is_cut_at_the_cap_not_read_whole(real_core, tmp_path, fmt):
    # 2 GB of NUL bytes and no newline (a sparse file: it takes no disk space).
    z = tmp_path / "zeros.bin"
    with open(z, "wb") as f:
        f.truncate(2 << 30)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    with pytest.raises(nandlab.TraceError, match=r"zeros\.bin:1: line longer than 65536 bytes"):
        nandlab.trace_info(z, fmt)
    r = cli("trace", "info", z, "--format", fmt)
    one_line_error(r, "zeros.bin:1: line longer than 65536 bytes")
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 256, f"peak memory grew by {grown_mib:.0f} MiB reading the file"


def test_trace_format_without_a_trace_is_an_error(small):
    one_line_error(cli("run", small, "--format", "msr", "-q"),
                   "trace format 'msr' given without a trace")
    with pytest.raises(nandlab.ConfigError, match="without a trace"):
        nandlab.run(SMALL, trace_format="msr", progress=False)
    with pytest.raises(nandlab.ConfigError, match="without a trace"):
        nandlab.check_config(SMALL, trace_format="msr")


def test_trace_format_for_a_configured_trace_is_used(small, tmp_path):
    t = tmp_path / "t.csv"
    t.write_text("1,hm,0,Read,0,4096,1\n2,hm,0,Write,4096,4096,1\n")
    cfg = SMALL.replace("requests = 200", f'kind = "trace"\npath = "{t}"')
    r = nandlab.run(cfg, trace_format="msr", progress=False)
    assert r.summary["config"]["workload"]["format"] == "msr"
    assert r.summary["requests"]["count"] == 2


# ---- config check runs the validation of run -----------------------------------------


def test_config_check_rejects_what_run_rejects(tmp_path, real_core):
    f = tmp_path / "c.toml"
    f.write_text('[workload]\nkind = "trace"\n')
    for args in (("config", "check", f), ("run", f, "-q")):
        one_line_error(cli(*args), 'config key `workload.path`: required when workload.kind')
    f.write_text(f'[workload]\nkind = "trace"\npath = "{tmp_path / "missing.trace"}"\n')
    for args in (("config", "check", f), ("run", f, "-q")):
        one_line_error(cli(*args), "missing.trace")
    f.write_text("[workload]\nread_fraction = 1.5\n")
    for args in (("config", "check", f), ("run", f, "-q")):
        one_line_error(cli(*args), "workload.read_fraction")


# ---- one exception hierarchy ----------------------------------------------------------


def test_core_errors_are_the_front_ends_classes(real_core, tmp_path):
    assert real_core.NandlabError is nandlab.NandlabError
    assert issubclass(nandlab.ConfigError, nandlab.NandlabError)
    assert issubclass(nandlab.TraceError, nandlab.NandlabError)
    with pytest.raises(nandlab.ConfigError, match="ftl.gc_polcy"):
        nandlab.run(SMALL, overrides={"ftl.gc_polcy": "greedy"}, progress=False)
    with pytest.raises(nandlab.ConfigError, match="device.planes_per_die"):
        nandlab.check_config(SMALL, {"device.planes_per_die": 0})
    with pytest.raises(nandlab.ConfigError, match="unknown trace format"):
        nandlab.trace_info(DEMO, "nope")
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\n5 0 0 8 7\n")
    with pytest.raises(nandlab.TraceError, match=r"t\.trace:2: field `type`"):
        nandlab.run(SMALL, trace=t, trace_format="disksim", progress=False)


# ---- usage errors of the command line ---------------------------------------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["run", str(DEMO), "--bogus"], "No such option: --bogus"),
        (["run"], "Missing argument 'config'"),
        (["run", str(DEMO), "--requests-out", "xml"], "--requests-out"),
        (["trace", "info"], "Missing argument 'file'"),
        (["nosuchcommand"], "No such command 'nosuchcommand'"),
    ],
)
def test_usage_errors_are_one_line(argv, needle, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["nandlab", *argv])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and needle in err[0], err
    assert "--help" in err[0]


# ---- numbers past what the core can hold (issue 10 item 9) -------------------------------


@pytest.mark.parametrize("key,value,needle", [
    # 4 channels x 2^31 decoders overflowed u32 and panicked across the FFI.
    ("timing.decoders_per_channel", 2147483648,
     "config key `timing.decoders_per_channel`: must be between 1 and 1024"),
    # u32::MAX + 1 wrapped to 0 and passed the check ("the device is full..." followed).
    ("ftl.gc_threshold_blocks", 4294967295,
     "config key `ftl.gc_threshold_blocks`: must be between 1 and 254"),
    # Accepted before: every block's P/E counter saturated at 2^32 - 1, every arrival at the
    # end of the clock, run energies went infinite; the rest were not read by this config.
    ("aging.initial_pe", 1e308, "config key `aging.initial_pe`: draws up to 1e308 P/E cycles"),
    ("host.time_scale", 1e308, "config key `host.time_scale`: must be a number above 0"),
    ("ecc.energy.program_uj", 1e308, "config key `ecc.energy.program_uj`: must be between 0 and"),
    ("workload.zipf_theta", 1e308, "config key `workload.zipf_theta`: must be between 0 and 10"),
    ("workload.repeat", 0, "config key `workload.repeat`: must be at least 1"),
    ("workload.hot_fraction", 1.5, "config key `workload.hot_fraction`"),
    ("cache.dram_mb_per_s", 0, "config key `cache.dram_mb_per_s`: must be a finite rate"),
])
def test_counts_past_their_bound_name_the_key(small, key, value, needle):
    one_line_error(cli("run", small, "--set", f"{key}={value}", "-q"), needle)
    with pytest.raises(nandlab.ConfigError, match=re.escape(needle)):
        nandlab.run(SMALL, overrides={key: value}, progress=False)


def test_a_request_of_2_pow_32_pages_is_an_error_not_a_truncation(small, tmp_path):
    # 2^35 sectors of 512 B = 2^32 pages of 4 KiB: one more than a request's u32 count.
    t = tmp_path / "huge.trace"
    t.write_text("0 0 0 34359738368 1\n")
    needle = "request 0 spans 4294967296 pages, more than the 4294967295"
    for wrap in ("wrap", "error"):
        r = cli("run", small, "--trace", t, "--format", "disksim",
                "--set", f"host.out_of_range={wrap}", "-q")
        one_line_error(r, needle)
    with pytest.raises(nandlab.NandlabError, match=needle):
        nandlab.run(SMALL, trace=t, trace_format="disksim", progress=False)


def test_main_lets_an_unexpected_error_through_as_itself(monkeypatch, capsys):
    # typer 0.29 keeps `Abort` out of its copy of click: naming it there turned any
    # unexpected exception (a core panic) into an AttributeError about `Abort`.
    import nandlab.cli as cli_module

    def boom(**_):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli_module, "app", boom)
    with pytest.raises(RuntimeError, match="boom"):
        main([])

    def abort(**_):
        raise cli_module.Abort()

    monkeypatch.setattr(cli_module, "app", abort)
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 130 and capsys.readouterr().err == "interrupted\n"
