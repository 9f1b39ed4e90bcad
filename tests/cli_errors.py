"""Helpers for the command-line tests: invoke the CLI in-process, and check that a user
mistake ends in exactly one `error: ...` line on stderr with exit status 2."""

from __future__ import annotations

from typer.testing import CliRunner

from nandlab.cli import app


def cli(*args):
    # Wide enough that help and tables are not wrapped mid-word.
    return CliRunner().invoke(app, [str(a) for a in args], terminal_width=200)


def one_line_error(result, *needles) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]
