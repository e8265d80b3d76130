"""gamerec.read and the Game object, each answer checked against the
command line's for the same game."""

from __future__ import annotations

import gzip
import io
import json
import re
import threading

import pytest

import gamerec
from conftest import FIXTURES, ROOT, cli

POINTS = FIXTURES / "oshi" / "points-win.grec"
ILLEGAL = FIXTURES / "oshi" / "illegal-moves.grec"
EVERY_FIXTURE = sorted(p for p in FIXTURES.rglob("*.grec"))


def jsonl_of(path):
    """`gamerec convert --to jsonl`'s objects."""
    return [json.loads(l) for l in cli("convert", "--to", "jsonl", path).splitlines()]


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_game_is_the_command_lines_game(path):
    """Each game's JSON is `convert --to jsonl`'s line for it, and its
    canonical text is `convert`'s."""
    games = list(gamerec.read(path))
    expected = jsonl_of(path)
    written = {e["index"] for e in expected}
    # What convert leaves out is text between games, where no game was
    # read (no tag, turn or comment): here it is an invalid game.
    for g in games:
        if g.index not in written:
            assert not g.valid and not (g.tag_pairs or g.written or g.comments), g
    games = [g for g in games if g.index in written]
    assert [json.loads(g.to_json()) for g in games] == expected
    text = cli("convert", path).decode()
    assert "\n".join(g.to_text() for g in games) == text


def test_fields_agree_with_validate_json():
    reports = [r for r in gamerec.validate(ILLEGAL)]
    games = list(gamerec.read(ILLEGAL))
    assert len(games) == len(reports) > 3
    for g, r in zip(games, reports):
        assert (g.file, g.index, g.game_type, g.valid) == (r["file"], r["index"], r["game"], r["valid"])
        if r["error"] is None:
            assert g.error is None
            o = r["outcome"]
            assert (g.outcome.result, g.outcome.winner, g.outcome.reason, g.outcome.ply) == (
                o["result"], o["winner"], o["reason"], o["ply"])
        else:
            assert g.outcome is None
            e = r["error"]
            got = g.error
            assert (got.code, got.message, got.line, got.column, got.offset, got.ply, got.token) == (
                e["code"], e["message"], e["line"], e["column"], e["offset"], e["ply"], e["token"])


def test_tags_moves_and_outcome_of_a_game():
    (g,) = list(gamerec.read(POINTS))
    assert list(g.tags) == ["Game", "Event", "Date", "Round", "Red", "White", "Result"]
    assert g.tags["Red"] == "Ana" and g.tags["Result"] == "1-0"
    assert g.game_type == "oshi"
    each = cli("moves", POINTS, "--each").decode().splitlines()
    assert g.moves == [line.split("\t")[2] for line in each]
    assert (g.outcome.winner, g.outcome.reason, g.outcome.ply) == ("Red", "points", 17)
    assert g.error is None and g.valid
    assert "Ana vs Ben" in repr(g) and "17 plies" in repr(g)


@pytest.mark.parametrize("plies", [0, 1, 2, 9, 16])
def test_position_and_legal_moves_are_the_command_lines(plies):
    (g,) = list(gamerec.read(POINTS))
    out = cli("moves", POINTS, "--ply", plies + 1, "--show-position").decode().splitlines()
    assert g.position(plies) == out[0]
    assert g.legal_moves(plies) == out[1:]


def test_final_position_and_a_finished_games_moves():
    (g,) = list(gamerec.read(POINTS))
    out = cli("moves", POINTS, "--show-position").decode().splitlines()
    assert g.position() == g.position(17) == out[0]
    assert g.legal_moves() == []
    with pytest.raises(IndexError):
        g.position(18)
    with pytest.raises(IndexError):
        g.position(-1)


def test_every_game_type_has_a_position_and_a_picture():
    seen = set()
    for path in EVERY_FIXTURE:
        for g in gamerec.read(path):
            if g.valid and g.game_type not in seen and len(g.moves) > 1:
                seen.add(g.game_type)
                svg = g.svg(1)
                expected = cli("show", path, "--index", g.index, "--ply", 2, "--format", "svg")
                assert svg == expected.decode()
                assert g._repr_svg_().startswith("<svg")
                assert g.legal_moves(0)
    assert seen == set(gamerec.games())


def test_an_invalid_game_reaches_its_error_and_no_further():
    games = list(gamerec.read(ILLEGAL))
    bad = next(g for g in games if not g.valid and g.error.ply and g.error.ply > 1)
    ply = bad.error.ply
    # The position before the illegal turn is the last one reached.
    assert bad.position() == bad.position(ply - 1)
    assert bad.legal_moves(ply - 1)
    assert bad.written[ply - 1] == bad.error.token
    assert len(bad.moves) == ply - 1
    with pytest.raises(gamerec.RecordError) as e:
        bad.position(ply)
    message = str(e.value)
    assert f"{bad.file}:{bad.error.line}:{bad.error.column}" in message
    assert f"game {bad.index}, ply {ply}" in message and bad.error.code in message


def test_sources_of_every_kind_give_the_same_games(tmp_path):
    data = ILLEGAL.read_bytes()
    expected = [g.to_text() for g in gamerec.read(str(ILLEGAL))]
    gz = tmp_path / "x.grec.gz"
    gz.write_bytes(gzip.compress(data))
    parquet = tmp_path / "x.parquet"
    cli("convert", "--to", "parquet", ILLEGAL, "-o", parquet)
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_bytes(cli("convert", "--to", "jsonl", ILLEGAL))
    zst = tmp_path / "x.jsonl.zst"
    cli("shard", jsonl, "--parts", 1, "--format", "jsonl", "--compress", "zst", "-o", tmp_path / "z")
    (shard,) = sorted((tmp_path / "z").iterdir())
    zst.write_bytes(shard.read_bytes())
    with open(ILLEGAL, "rb") as binary, open(ILLEGAL, encoding="utf-8", newline="") as text:
        for source in (
            ILLEGAL,
            data,
            bytearray(data),
            memoryview(data),
            data.decode(),
            io.BytesIO(data),
            io.StringIO(data.decode(), newline=""),
            binary,
            text,
            gz,
            parquet,
            jsonl,
            zst,
        ):
            got = [g.to_text() for g in gamerec.read(source)]
            assert got == expected, type(source)


def test_a_folder_is_its_record_files_in_order():
    files = sorted((FIXTURES / "retsami").glob("*.grec"))
    got = [(g.file, g.index) for g in gamerec.read(FIXTURES / "retsami")]
    expected = [(str(f), g.index) for f in files for g in gamerec.read(f)]
    assert got == expected


def test_format_and_game_options():
    bare = b"h9/h7\n"
    g = next(gamerec.read(bare, game="iqishiqi"))
    assert g.game_type == "iqishiqi" and g.valid
    # As a Garden Gate move string it is no Vagabond game.
    g = next(gamerec.read(bare, format="gardengate"))
    assert g.game_type == "vagabond" and not g.valid
    with pytest.raises(ValueError):
        gamerec.read(POINTS, format="nonsense")
    with pytest.raises(ValueError):
        gamerec.read(POINTS, game="chess")


def test_an_unreadable_input_raises_and_the_rest_is_still_read(tmp_path):
    missing = tmp_path / "missing.grec"
    it = gamerec.read([missing, POINTS])
    with pytest.raises(gamerec.RecordError, match="missing.grec"):
        next(it)
    g = next(it)
    assert g.file == str(POINTS)
    assert next(it, None) is None


def test_a_corrupt_compressed_input_raises_after_its_games(tmp_path):
    broken = tmp_path / "broken.grec.gz"
    broken.write_bytes(gzip.compress(POINTS.read_bytes())[:-12])
    with pytest.raises(gamerec.RecordError, match="broken.grec.gz"):
        list(gamerec.read(broken))


def test_not_an_input_is_a_type_error():
    with pytest.raises(TypeError):
        gamerec.read(42)
    with pytest.raises(TypeError):
        gamerec.read([POINTS, 42])


def test_the_iterator_streams_and_can_be_left_early(tmp_path):
    big = tmp_path / "big.grec"
    big.write_bytes(cli("gen", "--game", "oshi", "--games", 3000, "--seed", 3))
    it = gamerec.read(big)
    first = [next(it) for _ in range(5)]
    assert [g.index for g in first] == [1, 2, 3, 4, 5]
    del it  # the reading thread stops; nothing hangs


def test_reading_from_threads():
    results = []

    def work():
        results.append([g.to_text() for g in gamerec.read(ILLEGAL)])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and all(r == results[0] for r in results)
