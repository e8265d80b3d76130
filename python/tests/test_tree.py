"""The opening explorer from Python: `gamerec.tree()` is the table of
`gamerec tree --to parquet`, and its options choose what is counted."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import cli


def test_tree_is_the_command_lines_parquet_table(tmp_path):
    archive = tmp_path / "g.grec"
    cli("gen", "--game", "retsami", "--games", 300, "--seed", 4, "--finish", "-o", archive)
    out = tmp_path / "t.parquet"
    cli("tree", archive, "--min-games", 2, "--to", "parquet", "-o", out)
    want = pq.read_table(out)
    got = gamerec.tree(str(archive), min_games=2, jobs=2)
    assert got.schema.names == want.schema.names
    assert got.cast(want.schema).equals(want)
    turns = got.column("turn").to_pylist()
    games = got.column("games").to_pylist()
    # The position's row first, then its turns, the most played first.
    assert turns[0] is None and None not in turns[1:]
    assert games[1:] == sorted(games[1:], reverse=True)
    assert all(g >= 2 for g in games[1:])
    assert sum(games[1:]) <= games[0]


def test_player_and_side_choose_the_games():
    def game(red, white, moves):
        return f'[Game "oshi"]\n[Red "{red}"]\n[White "{white}"]\n[Result "1-0"]\n\n{moves} 1-0\n'

    records = [game("Ann", "Bob", "1. e3-e4"), game("Bob", "Ann", "1. c2-c3")]
    games = lambda **kw: gamerec.tree(records, **kw).column("games").to_pylist()[0]
    assert games() == 2
    assert games(player="ann") == 2
    assert games(player="Ann", side="White") == 1
    with pytest.raises(ValueError):
        gamerec.tree(records, side="first")
