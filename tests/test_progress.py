"""The progress bar: hidden on short runs, shown (and removed) on long ones."""

from __future__ import annotations

import io

from rich.console import Console

from nandlab.progress import ProgressReporter


def _console():
    buf = io.StringIO()
    return buf, Console(file=buf, force_terminal=True, width=100)


def test_short_runs_show_nothing():
    buf, console = _console()
    with ProgressReporter(delay_s=60, console=console) as rep:
        assert rep(0, 100) is True
        assert rep(50, 100) is True
    assert buf.getvalue() == ""


def test_long_runs_show_a_bar():
    buf, console = _console()
    with ProgressReporter(delay_s=0, console=console) as rep:
        assert rep(0, None) is True
        assert rep(65536, 131072) is True
        assert rep._progress is not None
    assert rep._progress is None
    assert "simulating" in buf.getvalue()


def test_hidden_reporter_still_calls_user_and_catches_ctrl_c():
    calls = []
    rep = ProgressReporter(show=False, user=lambda d, t: calls.append(d))
    assert rep(5, 10) is True and calls == [5]
    rep = ProgressReporter(show=False, user=lambda d, t: False)
    assert rep(5, 10) is False and not rep.interrupted

    def ctrl_c(d, t):
        raise KeyboardInterrupt

    rep = ProgressReporter(show=False, user=ctrl_c)
    assert rep(5, 10) is False and rep.interrupted


def test_total_hint_fills_a_missing_total():
    buf, console = _console()
    with ProgressReporter(delay_s=0, console=console, total_hint=1000) as rep:
        rep(500, None)
        assert rep._progress.tasks[0].total == 1000
        rep(600, 2000)
        assert rep._progress.tasks[0].total == 2000


def test_expected_requests():
    from nandlab.api import expected_requests

    assert expected_requests({"workload": {"requests": 5}}) == 5
    assert expected_requests({"workload": {"requests": 5, "duration_s": 1.0}}) is None
    assert expected_requests({"workload": {"kind": "trace", "max_requests": 7}}) == 7
    assert expected_requests({"workload": {"kind": "trace", "max_requests": 7, "repeat": 2}}) \
        is None
    assert expected_requests({}) is None
