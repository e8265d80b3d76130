"""Ratings, the report and pictures from Python: `gamerec.ratings()` is
`gamerec ratings --to parquet`'s table (and pyarrow reads that file the
same), `gamerec.report()` is the command's page, `Game.png()` and
`Game.gif()` are what `show --to png|gif` writes, and Pillow reads them."""

from __future__ import annotations

import io
import re

import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import cli

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def _archive(tmp_path, games=60):
    """Generated Oshi games, each side tag given a player in turn."""
    raw = tmp_path / "raw.grec"
    cli("gen", "--game", "oshi", "--games", games, "--seed", 4, "--finish", "-o", raw)
    records = re.split(r"\n(?=\[Game )", raw.read_text())
    out = []
    for i, record in enumerate(r for r in records if r.strip()):
        record = record.replace('[Red "random"]', f'[Red "{NAMES[i % 4]}"]', 1)
        record = record.replace('[White "random"]', f'[White "{NAMES[(i // 4 + i + 1) % 4]}"]', 1)
        out.append(record.strip() + "\n")
    archive = tmp_path / "rated.grec"
    archive.write_text("\n".join(out))
    return archive


def test_ratings_equal_the_commands_parquet_table(tmp_path):
    archive = _archive(tmp_path)
    for args, kwargs in [
        ([], {}),
        (["--history"], {"history": True}),
        (["--predict", "--period", "10"], {"predict": True, "period": 10}),
        (["--elo-k", "abstractplay", "--sort", "name"], {"elo_k": "abstractplay", "sort": "name"}),
    ]:
        out = tmp_path / "r.parquet"
        cli("ratings", archive, "--to", "parquet", "-o", out, *args)
        want = pq.read_table(out)
        got = gamerec.ratings(str(archive), **kwargs)
        assert got.column_names == want.column_names
        assert got.to_pylist() == want.to_pylist(), args
    players = gamerec.ratings(str(archive))
    assert sorted(players.column("player").to_pylist()) == NAMES
    history = gamerec.ratings(str(archive), history=True)
    assert sum(players.column("games").to_pylist()) == history.num_rows > 60


def test_aliases_and_bad_options(tmp_path):
    archive = _archive(tmp_path, 12)
    merged = gamerec.ratings(str(archive), alias={"ben": "Ana", "Cy": "Dee"})
    assert sorted(merged.column("player").to_pylist()) == ["Ana", "Dee"]
    with pytest.raises(ValueError, match="elo_k"):
        gamerec.ratings(str(archive), elo_k=-3)
    with pytest.raises(ValueError, match="sort"):
        gamerec.ratings(str(archive), sort="luck")
    with pytest.raises(ValueError, match="two tables"):
        gamerec.ratings(str(archive), history=True, predict=True)


def test_report_is_the_commands_page(tmp_path):
    archive = _archive(tmp_path, 20)
    page = tmp_path / "r.html"
    cli("report", archive, "-o", page, "--player", "ben")
    assert gamerec.report(str(archive), player="ben") == page.read_text()
    assert "<h2>Player: Ben</h2>" in gamerec.report(str(archive))
    with pytest.raises(ValueError, match="Zed"):
        gamerec.report(str(archive), player="Zed")


def test_png_and_gif_are_the_commands_and_decode(tmp_path):
    from PIL import Image

    archive = _archive(tmp_path, 2)
    game = next(gamerec.read(str(archive)))
    png = game.png(5, size=300)
    assert png == cli("show", archive, "--ply", 6, "--size", 300, "--to", "png")
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size[0]) == ("PNG", 300)
    gif = game.gif(size=160, delay=100)
    assert gif == cli("show", archive, "--size", 160, "--delay", 100, "--to", "gif")
    anim = Image.open(io.BytesIO(gif))
    assert anim.n_frames == len(game.moves) + 1
    assert game.gif(3, size=100) != gif
    assert Image.open(io.BytesIO(game.gif(3, size=100))).n_frames == 4
    with pytest.raises(ValueError):
        game.gif(len(game.moves) + 1)
