"""gamerec.convert and gamerec.formats: the command line's convert, byte
for byte, through the same library export; the one table of formats."""

from __future__ import annotations

import warnings

import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import FIXTURES, cli

# Every format the command line writes as text (Parquet is compared as a
# table below).
TEXT_FORMATS = [
    "text",
    "json",
    "jsonl",
    "csv",
    "abstractplay",
    "gardengate",
    "gardengate-link",
]


@pytest.mark.parametrize("to", TEXT_FORMATS)
def test_convert_is_convert_to(to):
    expected = cli("convert", "--to", to, FIXTURES, check_codes=(0, 1, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = gamerec.convert(FIXTURES, to)
    assert got.encode() == expected


def test_convert_to_abstractplay_records_matches_but_for_the_date(tmp_path):
    # A record's dates default to the moment it is written: compared
    # without them.
    import re

    strip = lambda b: re.sub(rb'"date-[a-z]+":"[^"]*"', b"", b)
    expected = cli(
        "convert", "--to", "abstractplay-record", FIXTURES / "iqishiqi", check_codes=(0, 1, 2)
    )
    got = gamerec.convert(FIXTURES / "iqishiqi", "abstractplay-record")
    assert strip(got.encode()) == strip(expected)


def test_convert_to_parquet_is_the_command_lines_table(tmp_path):
    path = tmp_path / "cli.parquet"
    cli("convert", "--to", "parquet", FIXTURES, "-o", path)
    expected = pq.read_table(path)
    data = gamerec.convert(FIXTURES, "parquet")
    assert isinstance(data, bytes) and data.startswith(b"PAR1")
    mine = tmp_path / "mine.parquet"
    mine.write_bytes(data)
    assert pq.read_table(mine).equals(expected)
    # And back: the games read from it are the games.
    assert gamerec.convert(mine) == gamerec.convert(FIXTURES)


def test_convert_writes_a_path_and_never_over_an_input(tmp_path):
    out = tmp_path / "out.jsonl"
    assert gamerec.convert(FIXTURES / "oshi", "jsonl", out) is None
    assert out.read_bytes() == cli("convert", "--to", "jsonl", FIXTURES / "oshi")
    before = out.read_bytes()
    with pytest.raises(gamerec.RecordError, match="refusing to write over an input"):
        gamerec.convert([out], "jsonl", out)
    assert out.read_bytes() == before
    # An input found in a folder is refused too.
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.grec").write_bytes((FIXTURES / "oshi" / "endings.grec").read_bytes())
    with pytest.raises(gamerec.RecordError, match="refusing to write over an input"):
        gamerec.convert(games, "text", games / "a.grec")


def test_convert_raises_for_an_unreadable_input_and_writes_nothing(tmp_path):
    out = tmp_path / "out.grec"
    with pytest.raises(gamerec.RecordError, match="missing.grec"):
        gamerec.convert([FIXTURES / "oshi", tmp_path / "missing.grec"], "text", out)
    assert not out.exists()
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".gamerec-")] == []


def test_games_a_site_cannot_carry_are_left_out_with_a_warning():
    with pytest.warns(UserWarning, match="carries only"):
        got = gamerec.convert(FIXTURES / "oshi" / "endings.grec", "gardengate")
    assert got == ""


def test_skip_invalid_leaves_invalid_games_out():
    all_games = gamerec.convert(FIXTURES / "oshi" / "illegal-moves.grec", "jsonl")
    valid = gamerec.convert(FIXTURES / "oshi" / "illegal-moves.grec", "jsonl", skip_invalid=True)
    assert len(valid.splitlines()) < len(all_games.splitlines())
    assert '"valid":false' not in valid


def test_an_unknown_format_names_every_format_written():
    with pytest.raises(ValueError) as e:
        gamerec.convert(FIXTURES, "nosuch")
    for name, _, written in gamerec.formats():
        assert (name in str(e.value)) == (written is not None)


def test_formats_is_the_command_lines_table():
    listed = gamerec.formats()
    read = [n for n, r, _ in listed if r]
    written = [n for n, _, w in listed if w]
    help_text = cli("convert", "--help").decode()
    for name in written:
        assert f"- {name}:" in help_text or f"- {name}" in help_text
    for name in ("abstractplay-record", "gardengate-link", "parquet"):
        assert name in read and name in written
    assert "csv" in written and "csv" not in read
    with pytest.raises(ValueError) as e:
        gamerec.validate(FIXTURES, format="nosuch")
    for name in read:
        assert name in str(e.value)
