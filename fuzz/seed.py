#!/usr/bin/env python3
"""Seeds the fuzz targets' corpora from fixtures/, tests/data/*.perft and
games gamerec generates: `fuzz/seed.py GAMEREC CORPUS` (GAMEREC: a built
gamerec binary; CORPUS: the folder holding one folder per target). Seeds are
written only into empty target folders, so that a corpus grown by fuzzing
is kept."""

import gzip
import hashlib
import pathlib
import re
import subprocess
import sys

# The order of registry::GAMES: a target's first byte picks a game by it.
GAMES = ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"]
# The order of registry::sites(): the `site` target's first byte.
SITES = ["abstractplay", "gardengate"]

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(gamerec, *args, stdin=None):
    """gamerec's stdout (whatever its exit code: invalid games are seeds too)."""
    return subprocess.run(
        [gamerec, *args], input=stdin, capture_output=True, check=False
    ).stdout


def games_of(text):
    """The games of a record file, split before each [Game] tag: (name, the
    game's text without its [Game] tag)."""
    out = []
    for part in re.split(rb"(?m)^(?=\[Game )", text):
        m = re.match(rb'\[Game "([a-z]+)"\][^\n]*\n?', part)
        if m and m.group(1).decode() in GAMES:
            out.append((m.group(1).decode(), part[m.end():]))
    return out


def main():
    gamerec, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    seeds = {t: [] for t in
             ["validate", "validate_game", "position", "json", "jsonl",
              "site", "round_trip", "stats"]}
    fixtures = sorted((ROOT / "fixtures").glob("*/*.grec"))
    generated = {g: run(gamerec, "gen", "--game", g, "--count", "4",
                        "--seed", "1") for g in GAMES}
    for path in fixtures:
        text = path.read_bytes()
        seeds["validate"].append(text)
        seeds["json"].append(run(gamerec, "convert", "--to", "json", str(path)))
        seeds["jsonl"].append(run(gamerec, "convert", "--to", "jsonl", str(path)))
        for game, body in games_of(text):
            byte = bytes([GAMES.index(game)])
            for target in ["validate_game", "round_trip", "stats"]:
                seeds[target].append(byte + body)
    for game, text in generated.items():
        byte = bytes([GAMES.index(game)])
        for _, body in games_of(text):
            for target in ["validate_game", "round_trip", "stats"]:
                seeds[target].append(byte + body)
    # The validate path's other doors: compressed, UTF-16, other formats,
    # a bare site string under --game (high bit).
    first = fixtures[0].read_bytes()
    seeds["validate"] += [
        gzip.compress(first),
        b"\xff\xfe" + first.decode("utf-8", "replace").encode("utf-16-le"),
    ]
    seeds["validate"] += seeds["json"][:2] + seeds["jsonl"][:2]
    for i, site in enumerate(SITES):
        game = {"abstractplay": "iqishiqi", "gardengate": "vagabond"}[site]
        lines = run(gamerec, "convert", "--to", site, stdin=generated[game])
        seeds["site"].append(bytes([i]) + lines)
        seeds["validate"].append(lines)
        seeds["validate_game"].append(bytes([0x80 | GAMES.index(game)]) + lines)
    for game in GAMES:
        perft = (ROOT / "tests" / "data" / f"{game}.perft").read_text()
        for block in perft.split("\nid ")[1:]:
            if "\ntag " in block:
                continue
            m = re.search(r"(?m)^position (.*)$", block)
            position = m.group(1).encode() if m else b""
            seeds["position"].append(
                bytes([GAMES.index(game)]) + position + b"\n" + bytes(range(12)))
    for target, items in seeds.items():
        folder = corpus / target
        folder.mkdir(parents=True, exist_ok=True)
        if any(folder.iterdir()):
            continue
        for item in items:
            if item:
                name = hashlib.sha1(item).hexdigest()
                (folder / name).write_bytes(item)
        print(f"{target}: {len(list(folder.iterdir()))} seeds")


if __name__ == "__main__":
    main()
