#!/usr/bin/env python3
"""Seeds the fuzz targets' corpora from fixtures/, crates/rules/tests/data/*.perft and
games gamerec generates: `fuzz/seed.py GAMEREC CORPUS` (GAMEREC: a built
gamerec binary; CORPUS: the folder holding one folder per target). Seeds are
written only into empty target folders, so that a corpus grown by fuzzing
is kept."""

import gzip
import json
import hashlib
import pathlib
import re
import subprocess
import sys
import tempfile

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


def lz_bomb(codes):
    """A Garden Gate link whose LZ-String codes each name the entry one past
    the dictionary (issue 32, item 3; tests/common/hostile.rs)."""
    key = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
    bits = []
    put = lambda v, n: bits.extend((v >> i) & 1 for i in range(n))
    state = {"dict": 4, "nb": 3, "enl": 4}

    def step():
        state["dict"] += 1
        state["enl"] -= 1
        if state["enl"] == 0:
            state["enl"] = 1 << state["nb"]
            state["nb"] += 1

    prefix = "gameType=2&host=a&guest=b&game="
    put(0, 2)
    put(ord(prefix[0]), 8)
    for ch in prefix[1:]:
        put(0, state["nb"])
        put(ord(ch), 8)
        step()
        step()
    for _ in range(codes):
        put(state["dict"], state["nb"])
        step()
    put(2, state["nb"])
    bits += [0] * (-len(bits) % 6)
    payload = "".join(key[sum(bits[i + j] << (5 - j) for j in range(6))]
                      for i in range(0, len(bits), 6))
    return ("https://skudpaisho.com/?" + payload + "\n").encode()


def hostile():
    """Small doors to issue 32's bombs, for the validate target: a link
    bomb, compressed `PAR1` and zeros, a JSON document of many tags and
    empty games, pzstd's skippable frames, a lone UTF-16 surrogate."""
    out = [lz_bomb(300)]
    out.append(gzip.compress(b"PAR1" + bytes(1 << 18)))
    tags = ",".join(['["a",""]'] * 60)
    out.append(('{"format":"gamerec","version":1,"games":[{"tags":[%s]},{},{}]}' % tags).encode())
    frame = b"\x28\xb5\x2f\xfd\x00\x58\x29\x00\x00" + b"[Game \"oshi\"]\n\n1. c2-c3 *\n"
    out.append(b"\x50\x2a\x4d\x18\x04\x00\x00\x00abcd" + frame[:8])
    out.append(b"\xff\xfe" + "[Game \"oshi\"]\n[Event \"".encode("utf-16-le")
               + b"\x00\xd8" + '"]\n\n1. c2-c3 *\n'.encode("utf-16-le"))
    return out


def parquet_bombs(gamerec):
    """tests/hostile/parquet_bombs.py's tables of millions of tags and of
    40 MB values (a few kilobytes on disk), where pyarrow is installed."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        grec, table = f"{d}/g.grec", f"{d}/g.parquet"
        run(gamerec, "gen", "--game", "oshi", "--games", "3", "-o", grec)
        run(gamerec, "convert", grec, "--to", "parquet", "-o", table)
        made = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "hostile" / "parquet_bombs.py"), table, d],
            capture_output=True, check=False)
        if made.returncode != 0:
            return []
        return [pathlib.Path(d, name).read_bytes()
                for name in ["tags.parquet", "event.parquet"]]


# The index target's tables, in the order its first byte picks them
# (fuzz/src/lib.rs, INDEX_TABLES).
INDEX_TABLES = (["games.parquet", "turns.parquet", "files.parquet", "setups.parquet"]
                + [f"postings-{p:02}.parquet" for p in range(16)])


def index_tables(gamerec, generated):
    """A real index's tables, each behind the byte that picks it."""
    with tempfile.TemporaryDirectory() as d:
        archive = pathlib.Path(d, "g.grec")
        archive.write_bytes(b"\n".join(generated.values()))
        made = subprocess.run([gamerec, "index", "-q", str(archive), "-o", f"{d}/ix"],
                              capture_output=True)
        if made.returncode != 0:
            return []
        manifest = json.loads(pathlib.Path(d, "ix", "index.json").read_text())
        tables = pathlib.Path(d, "ix", manifest["generation"])
        return [bytes([i]) + (tables / name).read_bytes()
                for i, name in enumerate(INDEX_TABLES)]


def main():
    gamerec, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    seeds = {t: [] for t in
             ["validate", "validate_game", "position", "json", "jsonl",
              "site", "round_trip", "stats", "picture", "lenient", "parquet", "index"]}
    fixtures = sorted((ROOT / "fixtures").glob("*/*.grec"))
    generated = {g: run(gamerec, "gen", "--game", g, "--games", "4",
                        "--seed", "1") for g in GAMES}
    for path in fixtures:
        text = path.read_bytes()
        seeds["validate"].append(text)
        seeds["json"].append(run(gamerec, "convert", "--to", "json", str(path)))
        seeds["jsonl"].append(run(gamerec, "convert", "--to", "jsonl", str(path)))
        seeds["parquet"].append(
            run(gamerec, "convert", "--to", "parquet", str(path), "-o", "/dev/stdout"))
        for game, body in games_of(text):
            byte = bytes([GAMES.index(game)])
            for target in ["validate_game", "round_trip", "stats", "picture", "lenient"]:
                seeds[target].append(byte + body)
    for game, text in generated.items():
        byte = bytes([GAMES.index(game)])
        for _, body in games_of(text):
            for target in ["validate_game", "round_trip", "stats", "picture", "lenient"]:
                seeds[target].append(byte + body)
    # The games written for --lenient's repairs: with their own Game tags
    # (high bit: none added), and with --keep-broken (bit 6).
    for path in sorted((ROOT / "tests" / "data" / "lenient").glob("*.grec")):
        text = path.read_bytes()
        seeds["lenient"] += [b"\x80" + text, b"\xc0" + text]
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
    # The sites' own files (generated by their code: tests/data/*/make.sh):
    # AbstractPlay records, one per seed, and Garden Gate links, two
    # lines per seed (under the 1,024-byte inputs the targets run).
    records, links = len(SITES), len(SITES) + 1
    data = ROOT / "tests" / "data"
    for path in sorted((data / "abstractplay" / "single").glob("*.json")):
        seeds["site"].append(bytes([records]) + path.read_bytes())
        seeds["validate"].append(path.read_bytes())
    for name in ["links.txt", "other.txt"]:
        lines = (data / "gardengate" / name).read_bytes().splitlines(True)
        for i in range(0, len(lines), 2):
            seeds["site"].append(bytes([links]) + b"".join(lines[i:i + 2]))
    seeds["validate"].append(seeds["site"][-1][1:])
    for game in GAMES:
        perft = (ROOT / "crates" / "rules" / "tests" / "data" / f"{game}.perft").read_text()
        for block in perft.split("\nid ")[1:]:
            if "\ntag " in block:
                continue
            m = re.search(r"(?m)^position (.*)$", block)
            position = m.group(1).encode() if m else b""
            seeds["position"].append(
                bytes([GAMES.index(game)]) + position + b"\n" + bytes(range(12)))
    seeds["validate"] += hostile()
    seeds["parquet"] += parquet_bombs(gamerec)
    seeds["index"] += index_tables(gamerec, generated)
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
