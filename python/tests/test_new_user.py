"""Issue 33: what a new user of the Python package hit — scripts aborting
at exit after ``stats()``, and messages that named the wrong thing."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import gamerec
from conftest import FIXTURES, cli

# Item 3: "terminate called without an active exception" (exit 134) in
# 5-30 % of runs of this script when the table came as Parquet bytes read
# back by pyarrow.
SCRIPT = """
import gamerec
rows = gamerec.stats({path!r}).to_pylist()
assert len(rows) == 60, len(rows)
games = gamerec.read({path!r})
next(games)
"""


def test_a_script_that_calls_stats_exits_0_every_time(tmp_path):
    games = tmp_path / "g.grec"
    cli("gen", "--game", "oshi", "--games", "60", "--seed", "1", "-o", games)
    script = SCRIPT.format(path=str(games))

    def once(_):
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        return run.returncode, run.stderr[-400:]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(once, range(200)))
    failed = [r for r in results if r[0] != 0]
    assert not failed, f"{len(failed)} of 200 runs failed: {failed[:3]}"


def test_stats_comes_as_arrow_data_with_the_tables_metadata():
    table = gamerec.stats(FIXTURES)
    assert table.num_rows == 176
    meta = table.schema.metadata
    assert meta[b"gamerec.table"] == b"stats"
    assert gamerec.stats(FIXTURES, summary=True).schema.metadata[b"gamerec.table"] == b"summary"


# Item 8: messages that named the wrong thing.


def test_an_int_is_not_an_input_and_the_message_says_what_is():
    with pytest.raises(TypeError, match="not an input: int .*path, bytes"):
        gamerec.read(123)
    with pytest.raises(TypeError, match="not an input: int"):
        gamerec.stats(123)


def test_a_negative_jobs_is_a_value_error_that_names_jobs():
    for call in (
        lambda: gamerec.stats(FIXTURES, jobs=-1),
        lambda: gamerec.validate(FIXTURES, jobs=-1),
        lambda: gamerec.read(FIXTURES, jobs=-1),
    ):
        with pytest.raises(ValueError, match="jobs=-1"):
            call()


def test_svg_size_0_names_size_not_rotate():
    game = next(gamerec.read(FIXTURES / "oshi" / "points-win.grec"))
    with pytest.raises(ValueError, match="size=0") as e:
        game.svg(size=0)
    assert "rotate" not in str(e.value)
    with pytest.raises(ValueError, match="(?i)rotate=nan"):
        game.svg(rotate=float("nan"))


# Item 9: dir(gamerec) showed typing's names.


def test_dir_shows_the_public_names_only():
    names = dir(gamerec)
    for typing_name in ("Optional", "List", "Union", "Iterator", "Any", "TYPE_CHECKING", "io", "os"):
        assert typing_name not in names
    for public in ("read", "validate", "stats", "stats_schema", "Game", "RecordError"):
        assert public in names
