"""``report.html`` of a run: one self-contained page (figures inline as SVG, no network)
with the headline metrics, the figures of :mod:`nandlab.plots` and the config's
differences from its preset (or from nandlab's defaults).

The timeline is interactive without a script library: hovering a panel shows the values
of the windows under the pointer (SVG ``<title>`` tooltips on transparent bands), and a
few lines of inline script zoom it along simulated time (wheel), pan it (drag) and reset
it (double click) by changing the SVG's ``viewBox``."""

from __future__ import annotations

import html
import io
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from .io import atomic_write
from .plots import Run, config_diff, load_run, plot_runs, plt  # pyplot on plots' Agg backend
from .report import fmt_ns

REPORT_FILE = "report.html"

#: Headline metrics: (label, dotted summary key, formatter).
HEADLINE: list[tuple[str, str, str]] = [
    ("requests", "requests.count", "num"),
    ("read p50", "read.p50_ns", "ns"),
    ("read p99", "read.p99_ns", "ns"),
    ("write p50", "write.p50_ns", "ns"),
    ("write p99", "write.p99_ns", "ns"),
    ("read MB/s", "read.bandwidth_mb_s", "num"),
    ("write MB/s", "write.bandwidth_mb_s", "num"),
    ("write amplification", "flash.write_amplification", "num"),
    ("GC erases", "flash.gc_erases", "num"),
    ("judged reads", "reliability.page_reads", "num"),
    ("mean RBER", "reliability.rber_mean", "num"),
    ("uncorrectable pages", "reliability.uncorrectable_pages", "num"),
]


def _get(summary: Mapping[str, Any], key: str) -> Any:
    v: Any = summary
    for part in key.split("."):
        if not isinstance(v, Mapping) or part not in v:
            return None
        v = v[part]
    return v


def _fmt(v: Any, kind: str) -> str:
    if kind == "ns":
        return fmt_ns(v)
    if isinstance(v, float):
        return f"{v:.4g}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def headline_rows(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The headline metrics the run has, formatted."""
    return [(label, _fmt(v, kind)) for label, key, kind in HEADLINE
            if (v := _get(summary, key)) is not None]


def table(rows: Sequence[Sequence[str]], head: tuple[str, ...] | None = None) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head) if head else ""
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table>{'<tr>' + h + '</tr>' if h else ''}{body}</table>"


def headline_html(result: Any) -> str:
    """A result's headline metrics as an HTML table (the notebook view of a result)."""
    return "<b>nandlab run</b>" + table(headline_rows(result.summary))


_STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:left;font-size:13px}figure{margin:1em 0}svg{max-width:100%;height:auto}
g[id^="tip-"]>path{pointer-events:all}"""
# The hover bands are drawn fully transparent, which matplotlib writes as `fill: none`: by
# SVG's default (`visiblePainted`) the pointer would then never find them, and no tooltip
# showed (seen in headless Chromium). `pointer-events: all` makes them hit-testable.


#: Zoom (wheel) and pan (drag) along x of every ``svg.zoomable``, by its viewBox; a
#: double click resets it. The view never leaves the figure.
_ZOOM_JS = """document.querySelectorAll('svg.zoomable').forEach(function(s){
var b=s.viewBox.baseVal,home=[b.x,b.y,b.width,b.height],drag=null;
function put(x,w){w=Math.min(home[2],w);x=Math.max(home[0],Math.min(x,home[0]+home[2]-w));
s.setAttribute('preserveAspectRatio',w<home[2]?'none':'xMidYMid meet');
s.setAttribute('viewBox',[x,home[1],w,home[3]].join(' '));}
function at(e){var r=s.getBoundingClientRect(),v=s.viewBox.baseVal;
return v.x+(e.clientX-r.left)/r.width*v.width;}
s.addEventListener('wheel',function(e){e.preventDefault();var v=s.viewBox.baseVal,p=at(e),
f=e.deltaY<0?0.8:1.25;put(p-(p-v.x)*f,v.width*f);},{passive:false});
s.addEventListener('mousedown',function(e){drag=[e.clientX,s.viewBox.baseVal.x];});
window.addEventListener('mouseup',function(){drag=null;});
s.addEventListener('mousemove',function(e){if(!drag)return;var v=s.viewBox.baseVal,
r=s.getBoundingClientRect();put(drag[1]-(e.clientX-drag[0])/r.width*v.width,v.width);});
s.addEventListener('dblclick',function(){put(home[0],home[2]);});});"""


def inline_svg(fig: Figure, tips: Mapping[str, str] | None = None, zoomable: bool = False) -> str:
    """A figure as an ``<svg>`` element (no XML prolog or doctype: it sits in a page).
    ``tips``: hover text of the figure's elements by ``gid`` (as SVG ``<title>``s);
    ``zoomable``: the page's script zooms it."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    if tips:
        def title(m: re.Match[str]) -> str:
            text = tips.get(m.group(1))
            return m.group(0) if text is None else f"{m.group(0)}<title>{html.escape(text)}</title>"
        svg = re.sub(r'<g id="([^"]+)">', title, svg)
    if zoomable:
        svg = svg.replace("<svg ", '<svg class="zoomable" ', 1)
    return svg


def page(body: str) -> str:
    """A self-contained HTML page around ``body`` (with the zoom script when a figure is
    zoomable)."""
    script = f"<script>{_ZOOM_JS}</script>" if 'class="zoomable"' in body else ""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>nandlab report</title>"
            f"<style>{_STYLE}</style></head><body>{body}{script}</body></html>")


def render(run: Run, preset: Mapping[str, Any] | None, preset_name: str) -> str:
    """The report of ``run`` as HTML text; ``preset``: the resolved config it is compared
    with (named ``preset_name``)."""
    parts = [f"<h1>nandlab run: {html.escape(run.label)}</h1>",
             f"<p>nandlab {html.escape(str(run.summary.get('version')))}, seed "
             f"{html.escape(str(run.summary.get('seed')))}</p>",
             "<h2>Headline metrics</h2>", table(headline_rows(run.summary))]
    tips: dict[str, str] = {}
    for name, fig in plot_runs([run], out=None, tips=tips).items():
        svg = inline_svg(fig, tips, zoomable=True) if name == "timeline" else inline_svg(fig)
        hint = ("<figcaption>Hover for the windows' values; wheel to zoom along time, drag "
                "to pan, double click to reset.</figcaption>" if name == "timeline" else "")
        plt.close(fig)  # inlined: pyplot need not keep it
        parts.append(f"<h2>{html.escape(name.replace('_', ' '))}</h2>"
                     f"<figure>{svg}{hint}</figure>")
    if preset is not None:
        diff = config_diff(preset, run.summary.get("config", {}))
        parts.append(f"<h2>Config: differences from {html.escape(preset_name)}</h2>")
        parts.append(table([(k, repr(a), repr(b)) for k, a, b in diff],
                            ("key", preset_name, "this run")) if diff else "<p>none</p>")
    return page("".join(parts))


def write_report(
    run_dir: str | os.PathLike, config_source: str | os.PathLike | None = None
) -> Path:
    """Writes ``report.html`` into the run directory ``run_dir``, comparing its config with
    ``config_source``'s (its preset; default: nandlab's defaults). Returns its path."""
    from .api import check_config

    run = load_run(run_dir)
    if config_source is not None:
        name = Path(config_source).name
        preset = check_config(config_source)
    else:
        name = "the defaults"
        # The defaults, with this run's workload (a config must have one that validates).
        preset = check_config({"workload": run.summary.get("config", {}).get("workload", {})})
    path = Path(run_dir) / REPORT_FILE
    with atomic_write(path) as f:
        f.write(render(run, preset, name))
    return path
