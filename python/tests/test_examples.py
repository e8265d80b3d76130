"""The notebook-style example runs and shows what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT


def test_the_tour_runs(tmp_path):
    out = subprocess.run(
        [sys.executable, str(ROOT / "python" / "examples" / "tour.py"), str(FIXTURES), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "176 games read, 63 valid" in out.stdout
    assert "outcome: Outcome(" in out.stdout
    svg = (tmp_path / "tour.svg").read_text()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for game in ("oshi", "iqishiqi", "retsami", "roshi", "vagabond"):
        assert game in out.stdout


def test_the_tour_writes_nothing_where_it_runs(tmp_path):
    # Issue 33, item 9: without OUT_DIR it wrote tour.svg into the folder it
    # ran in (the repository's root). Its new temporary folder is made under
    # this test's own (TMPDIR), so the test leaves nothing in /tmp.
    here, temporary = tmp_path / "here", tmp_path / "tmp"
    here.mkdir()
    temporary.mkdir()
    out = subprocess.run(
        [sys.executable, str(ROOT / "python" / "examples" / "tour.py"), str(FIXTURES)],
        capture_output=True,
        text=True,
        cwd=here,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert out.returncode == 0, out.stderr
    assert list(here.iterdir()) == []
    picture = next(l for l in out.stdout.splitlines() if l.startswith("picture: "))
    written = Path(picture[len("picture: "):])
    assert written.name == "tour.svg" and written.read_text().startswith("<svg")
    assert written.parent.parent == temporary, written
