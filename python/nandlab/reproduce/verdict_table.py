"""The verdict table of ``index.md`` and the README (issue #28 item 6): per paper and
claim kind, how many claims and their verdicts, then every judged claim that is not
reproduced with the first sentence of its cause — none left out.

``python -m nandlab.reproduce.verdict_table DIR [--readme README.md] [--list
docs/verdicts.md]`` rebuilds ``DIR/index.md`` from the ``claims.json`` of a ``nandlab
reproduce all [--quick] --out DIR``; ``--readme`` rewrites the README's counts block of
that mode (``<!-- verdicts-quick`` or ``<!-- verdicts-full``) and ``--list`` the same
block of a page that lists every claim not reproduced (the README stays short).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..io import atomic_write
from .claims import KINDS, VERDICTS, cause

HEADER = ("| paper | kind | claims | " + " | ".join(VERDICTS) + " |\n"
          "|---|---|---:|" + "---:|" * len(VERDICTS))


def table_md(papers: list[tuple[str, list[dict[str, Any]]]]) -> str:
    """``papers``: (title, claims.json rows). One row per paper and kind it has; inputs and
    extensions have no verdicts ("—")."""
    lines = [HEADER]
    for title, claims in papers:
        for kind in KINDS:
            of = [c for c in claims if c.get("kind", "simulated") == kind]
            if not of:
                continue
            judged = kind in ("simulated", "model check")
            counts = [str(sum(c["verdict"] == v for c in of)) if judged else "—"
                      for v in VERDICTS]
            lines.append(f"| {title} | {kind} | {len(of)} | " + " | ".join(counts) + " |")
    return "\n".join(lines) + "\n"


def differs_md(papers: list[tuple[str, list[dict[str, Any]]]]) -> str:
    """Every judged claim not reproduced, with its verdict and the first sentence of its
    cause."""
    out = []
    for title, claims in papers:
        rows = [c for c in claims if c.get("verdict") not in (None, "reproduced")]
        if rows:
            out.append(f"**{title}**\n")
            out += [f"- {c['label']} — *{c['verdict']}*: "
                    f"{first_sentence(cause(c['verdict'], c.get('why', '')))}" for c in rows]
            out.append("")
    return "\n".join(out)


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = re.search(r"(?<=\.)\s+(?=[A-Z(])", text)
    return text[: m.start()] if m else text or "(no cause given)"


def parse_table(text: str) -> dict[tuple[str, str], tuple[str, ...]]:
    """(paper, kind) -> (claims, verdict counts...) of a table written by :func:`table_md`."""
    cells = r"\| (.+?) \| (simulated|model check|input|extension) \| (\d+) \| " + \
        r" \| ".join([r"(\d+|—)"] * len(VERDICTS)) + r" \|$"
    return {(m[0], m[1]): tuple(m[2:]) for m in re.findall(cells, text, re.M)}


def read_dir(out: Path) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(paper name, title, claims) of each reproduction under ``out``, in PAPERS order."""
    from .framework import PAPERS, paper_module

    found = []
    for name in PAPERS:
        p = out / name / "claims.json"
        if p.is_file():
            found.append((name, paper_module(name).TITLE, json.loads(p.read_text())))
    if not found:
        raise ConfigError(f"{out}: no <paper>/claims.json (run `nandlab reproduce all`)")
    return found


def missing_md(papers: list[tuple[str, str, list[dict[str, Any]]]]) -> str:
    """A line naming the papers ``DIR`` has no reproduction of (none: empty), so that a
    table of a run still under way says what it leaves out."""
    from .framework import PAPERS, paper_module

    have = {n for n, _t, _c in papers}
    missing = [paper_module(n).TITLE for n in PAPERS if n not in have]
    return f"\nNot in this run yet: {', '.join(missing)}.\n" if missing else ""


def index_md(papers: list[tuple[str, str, list[dict[str, Any]]]], quick: bool) -> str:
    pairs = [(t, c) for _n, t, c in papers]
    links = " · ".join(f"[{n}]({n}/report.md)" for n, _t, _c in papers)
    return (f"# nandlab reproductions\n\nMode: {'quick' if quick else 'full'}. Reports: "
            f"{links}.\n\n{table_md(pairs)}{missing_md(papers)}\n## Claims not reproduced\n\n"
            f"{differs_md(pairs)}")


def mode_of(out: Path) -> str:
    m = re.search(r"^Mode: (quick|full)\.", (out / "index.md").read_text(), re.M) \
        if (out / "index.md").is_file() else None
    if not m:
        raise ConfigError(f"{out}/index.md: no 'Mode: quick|full.' line")
    return m[1]


def replace_block(readme: str, mode: str, body: str, name: str = "README") -> str:
    """The page (``name`` in errors) with its ``<!-- verdicts-MODE`` …
    ``<!-- /verdicts-MODE -->`` block's body replaced."""
    pat = re.compile(rf"(<!-- verdicts-{mode}:[^\n]*-->\n).*?(<!-- /verdicts-{mode} -->)", re.S)
    if not pat.search(readme):
        raise ConfigError(f"{name}: no <!-- verdicts-{mode}: ... --> block")
    return pat.sub(lambda m: m[1] + body + m[2], readme)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m nandlab.reproduce.verdict_table")
    ap.add_argument("out", type=Path, help="the --out of `nandlab reproduce all`")
    ap.add_argument("--readme", type=Path, help="rewrite this README's counts block of the mode")
    ap.add_argument("--list", type=Path, help="rewrite this page's block of the mode with "
                    "every claim not reproduced")
    a = ap.parse_args(argv)
    try:
        mode = mode_of(a.out)
        papers = read_dir(a.out)
        with atomic_write(a.out / "index.md") as f:
            f.write(index_md(papers, mode == "quick"))
        pairs = [(t, c) for _n, t, c in papers]
        blocks = [(a.readme, table_md(pairs) + missing_md(papers)), (a.list, differs_md(pairs))]
        # Both pages are checked before either is written.
        texts = [(page, replace_block(page.read_text(encoding="utf-8"), mode, body, str(page)))
                 for page, body in blocks if page is not None]
        for page, text in texts:
            with atomic_write(page) as f:
                f.write(text)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("wrote " + ", ".join(str(p) for p in (a.out / "index.md", a.readme, a.list) if p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
