"""gamerec.validate and gamerec.stats: the command line's reports and
tables, exactly."""

from __future__ import annotations

import json
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import FIXTURES, cli


def test_validate_is_validate_format_json():
    expected = [json.loads(l) for l in cli("validate", "--format", "json", FIXTURES).splitlines()]
    got = gamerec.validate(FIXTURES)
    assert got == expected
    # Keys in the same order as the command line writes them.
    assert [list(r) for r in got] == [list(r) for r in expected]
    assert any(r["error"] and r["error"]["code"] == "no-games" for r in got)


def test_validate_with_any_number_of_jobs():
    assert gamerec.validate(FIXTURES, jobs=1) == gamerec.validate(FIXTURES, jobs=2)


def test_validate_raises_for_an_unreadable_input(tmp_path):
    with pytest.raises(gamerec.RecordError):
        gamerec.validate([FIXTURES / "oshi", tmp_path / "missing.grec"])


def command_line_table(tmp_path, *args):
    out = tmp_path / "cli.parquet"
    cli("stats", "--format", "parquet", *args, FIXTURES, "-o", out)
    return pq.read_table(out)


def test_stats_is_stats_format_parquet(tmp_path):
    got = gamerec.stats(FIXTURES)
    expected = command_line_table(tmp_path)
    assert got.schema == expected.schema
    assert got.equals(expected)
    assert got.num_rows == 176


def test_summary_is_stats_summary_format_parquet(tmp_path):
    got = gamerec.stats(FIXTURES, summary=True)
    expected = command_line_table(tmp_path, "--summary")
    assert got.equals(expected)
    assert set(gamerec.games()) <= set(got.column("game").to_pylist())


def test_stats_with_any_number_of_jobs():
    assert gamerec.stats(FIXTURES, jobs=1).equals(gamerec.stats(FIXTURES, jobs=2))


def test_stats_to_pandas():
    df = gamerec.stats(FIXTURES).to_pandas()
    assert len(df) == 176
    assert set(df["game"].dropna()) == set(gamerec.games())
    assert df["valid"].dtype == bool


def test_long_calls_release_the_gil(tmp_path):
    """While stats runs on another thread, this one keeps running Python:
    the call does not hold the GIL."""
    big = tmp_path / "big.grec"
    big.write_bytes(cli("gen", "--game", "retsami", "--games", 1500, "--seed", 5))
    done = []
    t = threading.Thread(target=lambda: done.append(gamerec.stats(big, jobs=1)))
    spins = 0
    t.start()
    while t.is_alive():
        spins += 1
    t.join()
    assert done[0].num_rows == 1500
    assert spins > 10_000, spins
