"""The position index from Python: `gamerec.Index(DIR)` answers from an
index `gamerec index` made — the games that reached a position and those a
pattern matches equal `filter`'s answers from the archive, and its tree is
`gamerec tree`'s table."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import cli


def _archive(tmp_path):
    archive = tmp_path / "g.grec"
    cli("gen", "--game", "oshi", "--games", 120, "--seed", 3, "--finish", "-o", archive)
    index = tmp_path / "ix"
    cli("index", archive, "-o", index, "-q")
    return archive, index


def _filtered(archive, *criteria):
    """The indexes of the games `gamerec filter` selects (from its JSON
    Lines output)."""
    out = cli("filter", archive, *criteria, "--to", "jsonl", "-q")
    return [json.loads(line)["index"] for line in out.splitlines() if line.strip()]


def test_reaches_equals_filters_scan(tmp_path):
    archive, index = _archive(tmp_path)
    ix = gamerec.Index(index)
    assert len(ix) == 120
    games = list(gamerec.read(str(archive)))
    position = games[0].position(6)
    got = ix.reaches(position)
    assert got.column("index").to_pylist() == _filtered(archive, "--reaches", position)
    assert got.num_rows >= 1 and set(got.column("game").to_pylist()) == {"oshi"}
    # Each game's ply is the first after which it stood there.
    for i, ply in zip(got.column("index").to_pylist(), got.column("ply").to_pylist()):
        seen = [games[i - 1].position(k) for k in range(ply + 1)]
        assert seen[-1] == position and position not in seen[:-1]
    with pytest.raises(ValueError):
        ix.reaches("not a position")


def test_pattern_equals_filters_scan(tmp_path):
    archive, index = _archive(tmp_path)
    ix = gamerec.Index(index)
    for pattern in ["e5=R*", "a1=R3 e5=W*", "e1=- e9=-"]:
        got = ix.pattern(pattern).column("index").to_pylist()
        assert got == _filtered(archive, "--pattern", pattern)


def test_tree_is_the_command_lines_table(tmp_path):
    archive, index = _archive(tmp_path)
    out = tmp_path / "t.parquet"
    cli("tree", archive, "--play", "1. e3-e4", "--to", "parquet", "-o", out)
    want = pq.read_table(out)
    got = gamerec.Index(index).tree(play="1. e3-e4")
    assert got.cast(want.schema).equals(want)


def test_a_folder_without_an_index_is_an_error(tmp_path):
    with pytest.raises(gamerec.RecordError):
        gamerec.Index(tmp_path)
