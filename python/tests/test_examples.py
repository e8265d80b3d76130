"""The notebook-style example runs and shows what it promises."""

from __future__ import annotations

import subprocess
import sys

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
    # ran in (the repository's root).
    out = subprocess.run(
        [sys.executable, str(ROOT / "python" / "examples" / "tour.py"), str(FIXTURES)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert list(tmp_path.iterdir()) == []
    picture = next(l for l in out.stdout.splitlines() if l.startswith("picture: "))
    written = picture[len("picture: "):]
    assert written.endswith("tour.svg") and open(written).read().startswith("<svg")
