"""Drives Debian's Chromium headless through ChromeDriver (WebDriver over
HTTP, Python's standard library only) on a viewer page made by `gamerec
view`: presses the right arrow key N times, reads what the page shows, and
takes a screenshot.

    python3 view.py PAGE.html PRESSES DEST_CELL SCREENSHOT.png

Prints one JSON object: the ply counter's text, the pieces on DEST_CELL
(their glyph and on-screen centre), DEST_CELL's on-screen centre, and the
number of pieces on the board.

    python3 view.py PAGE.html tags - SCREENSHOT.png

Prints the first game's tag table as the page shows it (name, value), the
number of games in the picker, and whether any script set window.pwned.

    python3 view.py PAGE.html layout - SCREENSHOT.png

Prints where the ▶ button is at the first ply and after End, and, after
End, the move list's box and its last item's (text, class, box).

    python3 view.py PAGE.html curve SELECTOR SCREENSHOT.png

Clicks the element SELECTOR picks (a dot of the win-chance curve), then
prints the ply counter, the marked items of the move list (ply, class,
text), the curve's dots and where its cursor stands.

    python3 view.py PAGE.html explorer PRESSES SCREENSHOT.png

Presses the right arrow key PRESSES times, then prints the ply counter,
whether the explorer panel is shown, its summary, and its rows (cells'
text, class, the widths of the bar's parts in percent).

    python3 view.py PAGE.html report - SCREENSHOT.png

For a page made by `gamerec report`: prints the browser console's
messages, and per chart (figure.chart) its name, its SVG's drawn size, how
many bars, bins and lines it draws and its table's rows; the sections'
headings; and the full page's height. The screenshot is of the whole page.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,800",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())["value"]


def main():
    page, presses, dest, shot = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    tags_mode = presses == "tags"
    layout_mode = presses == "layout"
    curve_mode = presses == "curve"
    explorer_mode = presses == "explorer"
    report_mode = presses == "report"
    if explorer_mode:
        presses = dest
    presses = 0 if tags_mode or layout_mode or curve_mode or report_mode else int(presses)
    port = free_port()
    driver = subprocess.Popen(
        [CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    profile = None
    try:
        for _ in range(200):
            try:
                if call(base, "GET", "/status")["ready"]:
                    break
            except OSError:
                pass
            time.sleep(0.05)
        profile = tempfile.mkdtemp(prefix="gamerec-chromium-")
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": CHROMIUM,
                        "args": FLAGS + [f"--user-data-dir={profile}"],
                    },
                    "goog:loggingPrefs": {"browser": "ALL"},
                }
            }
        }
        session = call(base, "POST", "/session", caps)["sessionId"]
        s = f"/session/{session}"
        try:
            call(base, "POST", s + "/url", {"url": "file://" + os.path.abspath(page)})
            keys = []
            for _ in range(presses):
                keys += [{"type": "keyDown", "value": "\ue014"}, {"type": "keyUp", "value": "\ue014"}]
            call(base, "POST", s + "/actions",
                 {"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})
            script = """
              const centre = (e) => { const r = e.getBoundingClientRect();
                                      return [r.left + r.width / 2, r.top + r.height / 2]; };
              const dest = arguments[0];
              const cell = Array.from(document.querySelectorAll('g.board .cell'))
                                .find((c) => c.dataset.label === dest);
              const on = Array.from(document.querySelectorAll('g.pieces use'))
                              .filter((u) => u.dataset.cell === dest);
              return {
                ply: document.getElementById('ply').textContent,
                cell: cell ? centre(cell) : null,
                pieces: on.map((u) => ({ glyph: u.getAttribute('href'), centre: centre(u) })),
                count: document.querySelectorAll('g.pieces use').length,
                current: (document.querySelector('#moves li.current') || {}).textContent || null,
              };
            """
            if tags_mode:
                script = """
                  return {
                    tags: Array.from(document.querySelectorAll('#tags tr')).map(
                      (tr) => Array.from(tr.children).map((td) => td.textContent)),
                    games: document.querySelectorAll('#picker option').length,
                    pwned: window.pwned === undefined ? null : String(window.pwned),
                  };
                """
            if curve_mode:
                found = call(base, "POST", s + "/element", {"using": "css selector", "value": dest})
                call(base, "POST", s + f"/element/{list(found.values())[0]}/click", {})
                script = """
                  return {
                    ply: document.getElementById('ply').textContent,
                    marked: Array.from(document.querySelectorAll('#moves li[class^=mark-]')).map(
                      (li) => [Number(li.dataset.ply), li.className, li.textContent]),
                    dots: document.querySelectorAll('#curve circle').length,
                    cursor: Number(document.getElementById('curve-at').getAttribute('x1')),
                    scale: Array.from(document.querySelectorAll('#curve text.curve-scale')).map(
                      (t) => t.textContent),
                    current: (document.querySelector('#moves li.current') || {}).textContent || null,
                  };
                """
            if explorer_mode:
                script = """
                  const panel = document.getElementById('explorer');
                  const widths = (e) => Array.from(e.querySelectorAll('.bar span')).map(
                    (s) => parseFloat(s.style.width));
                  return {
                    ply: document.getElementById('ply').textContent,
                    shown: !panel.hidden,
                    sum: document.getElementById('explorer-sum').textContent,
                    sum_bar: widths(document.getElementById('explorer-sum')),
                    rows: Array.from(document.querySelectorAll('#explorer-moves tr')).map((tr) => [
                      Array.from(tr.children).map((td) => td.textContent), tr.className, widths(tr)]),
                  };
                """
            if layout_mode:
                box = "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
                first = call(base, "POST", s + "/execute/sync",
                             {"script": f"return ({box})(document.getElementById('next'));", "args": []})
                end = [{"type": "keyDown", "value": "\ue010"}, {"type": "keyUp", "value": "\ue010"}]
                call(base, "POST", s + "/actions",
                     {"actions": [{"type": "key", "id": "keyboard", "actions": end}]})
                script = f"""
                  const box = {box};
                  const list = document.getElementById('moves');
                  list.scrollTop = list.scrollHeight;
                  const items = list.children;
                  const last = items[items.length - 1];
                  return {{
                    ply: document.getElementById('ply').textContent,
                    next_first: arguments[0],
                    next_last: box(document.getElementById('next')),
                    list: box(list),
                    list_client_bottom: list.getBoundingClientRect().top + list.clientTop + list.clientHeight,
                    last: last ? [last.textContent, last.className, box(last)] : null,
                  }};
                """
                dest = first
            if report_mode:
                script = """
                  const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
                  return {
                    charts: Array.from(document.querySelectorAll('figure.chart')).map((f) => ({
                      name: f.dataset.chart,
                      size: box(f.querySelector('svg')),
                      marks: f.querySelectorAll('svg rect, svg polyline').length,
                      rows: f.querySelectorAll('table tr').length - 1,
                    })),
                    headings: Array.from(document.querySelectorAll('h2')).map((h) => h.textContent),
                    height: document.documentElement.scrollHeight,
                  };
                """
            result = call(base, "POST", s + "/execute/sync", {"script": script, "args": [dest]})
            if report_mode:
                result["console"] = call(base, "POST", s + "/se/log", {"type": "browser"})
                height = min(int(result["height"]), 16000)
                call(base, "POST", s + "/window/rect", {"width": 1200, "height": height})
            png = base64.b64decode(call(base, "GET", s + "/screenshot"))
            with open(shot, "wb") as f:
                f.write(png)
            print(json.dumps(result))
        finally:
            call(base, "DELETE", s)
    finally:
        driver.terminate()
        driver.wait(timeout=30)
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
