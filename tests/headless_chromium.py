"""Renders a report in a real browser, headless Chromium (Debian's `chromium` package), and
reports what the page did: its console errors, how many elements each figure drew, what
the timeline's zoom and hover do when driven by real events, and a screenshot's coloured
pixels. Tests skip with a reason where Chromium is absent (CI has none).

A probe script is put at the head of a copy of the page: it records every error and
console message from then on and, once the page has loaded, measures the figures and
drives the zoom, then writes its findings into the DOM, which ``--dump-dom`` prints."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SKIP_REASON = "headless Chromium is not installed here (Debian: apt-get install chromium)"

_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
          "--window-size=1280,1600", "--enable-logging=stderr", "--v=0"]

_PROBE = """<script>(function(){
var seen=[];
window.addEventListener('error',function(e){seen.push('error: '+e.message);});
['error','warn','log','info'].forEach(function(k){var f=console[k];
  console[k]=function(){seen.push(k+': '+Array.prototype.join.call(arguments,' '));
  return f.apply(console,arguments);};});
function vb(s){var v=s.viewBox.baseVal;return [v.x,v.y,v.width,v.height];}
function ev(s,type,x,y,extra){var o={bubbles:true,cancelable:true,clientX:x,clientY:y};
  for(var k in extra)o[k]=extra[k];
  s.dispatchEvent(type==='wheel'?new WheelEvent(type,o):new MouseEvent(type,o));}
window.addEventListener('load',function(){
  var out={console:seen,svgs:[],canvases:[]};
  document.querySelectorAll('canvas').forEach(function(c){
    out.canvases.push({w:c.width,h:c.height});});
  document.querySelectorAll('svg').forEach(function(s){
    var r=s.getBoundingClientRect(),drawn=0;
    s.querySelectorAll('path,line,rect,polyline,polygon,text,use').forEach(function(e){
      if(e.closest('defs'))return;var b=e.getBBox();if(b.width>0||b.height>0)drawn++;});
    var f={w:r.width,h:r.height,drawn:drawn,zoomable:s.classList.contains('zoomable'),
           titles:s.querySelectorAll('title').length};
    if(f.zoomable){
      // Zoom in at the middle (wheel up), pan by a tenth of the width, reset.
      var cx=r.left+r.width/2,cy=r.top+r.height/2;
      f.home=vb(s);
      ev(s,'wheel',cx,cy,{deltaY:-100});f.wheel=vb(s);
      ev(s,'mousedown',cx,cy);ev(s,'mousemove',cx-r.width/10,cy);ev(window,'mouseup',0,0);
      f.pan=vb(s);
      ev(s,'dblclick',cx,cy);f.reset=vb(s);
      // Hover: what the pointer finds over the middle of each hover band (scrolled into
      // view: the browser hit-tests only what is on screen).
      var hits=0;
      s.querySelectorAll('g > title').forEach(function(t){var g=t.parentNode;
        g.scrollIntoView({block:'center',inline:'center'});var b=g.getBoundingClientRect();
        var e=document.elementFromPoint(b.left+b.width/2,b.top+b.height/2);
        if(e&&g.contains(e))hits++;});
      f.hover_hits=hits;
    }
    out.svgs.push(f);});
  var p=document.createElement('pre');p.id='nandlab-probe';p.textContent=JSON.stringify(out);
  document.body.appendChild(p);});
})();</script>"""


def version() -> str:
    """``chromium --version``."""
    assert CHROMIUM is not None
    return subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                          timeout=60, check=True).stdout.strip()


def _console_lines(stderr: str) -> list[str]:
    """The page's console messages that Chromium logged (``INFO:CONSOLE`` lines)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def render(page: Path, screenshot: Path | None = None) -> dict[str, Any]:
    """Loads ``page`` (a copy with the probe) in headless Chromium; returns the probe's
    findings plus ``logged``, the console lines Chromium itself logged, and, with
    ``screenshot``, ``colored``: how many of the screenshot's pixels are coloured (the
    figures' lines and bars: the page's text and rules are grey)."""
    assert CHROMIUM is not None
    text = page.read_text()
    probed = page.with_name(page.stem + ".probed.html")
    probed.write_text(text.replace("<head>", "<head>" + _PROBE, 1))
    run = subprocess.run([CHROMIUM, *_FLAGS, "--dump-dom", probed.as_uri()],
                         capture_output=True, text=True, timeout=180, check=True)
    m = re.search(r'<pre id="nandlab-probe">(.*?)</pre>', run.stdout, re.S)
    assert m is not None, f"the probe wrote nothing; Chromium said: {run.stderr[-2000:]}"
    found: dict[str, Any] = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")
                                       .replace("&lt;", "<").replace("&gt;", ">"))
    found["logged"] = _console_lines(run.stderr)
    if screenshot is not None:
        shot = subprocess.run([CHROMIUM, *_FLAGS, f"--screenshot={screenshot}", page.as_uri()],
                              capture_output=True, text=True, timeout=180, check=True)
        found["logged"] += _console_lines(shot.stderr)
        from matplotlib.image import imread

        rgb = imread(screenshot)[..., :3]
        found["colored"] = int((rgb.max(axis=-1) - rgb.min(axis=-1) > 0.25).sum())
    return found
