"""Shared fixtures: the repository, the command line (the reference every
answer of the package is checked against) and a sharded archive."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def gamerec_bin() -> str:
    """The command line: $GAMEREC_BIN (tests/python.rs sets it), else a
    debug or release build of this checkout, else `gamerec` on PATH."""
    if os.environ.get("GAMEREC_BIN"):
        return os.environ["GAMEREC_BIN"]
    for build in ("debug", "release"):
        candidate = ROOT / "target" / build / "gamerec"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("gamerec")
    if found:
        return found
    pytest.fail("no gamerec binary: build it (cargo build) or set GAMEREC_BIN")


def cli(*args, check_codes=(0, 1)) -> bytes:
    """Runs the command line; its stdout."""
    out = subprocess.run(
        [gamerec_bin(), *map(str, args)], capture_output=True, cwd=ROOT
    )
    assert out.returncode in check_codes, (args, out.returncode, out.stderr[-2000:])
    return out.stdout


@pytest.fixture(scope="session")
def archive(tmp_path_factory) -> Path:
    """One archive of every game type, invalid games included: 40
    generated games of each game, then every fixture file with an invalid
    game (their games whole, envelopes broken and all)."""
    d = tmp_path_factory.mktemp("archive")
    parts = []
    for game in ("oshi", "iqishiqi", "retsami", "roshi", "vagabond"):
        parts.append(cli("gen", "--game", game, "--games", 40, "--seed", 7, "--finish"))
    for name in (
        "oshi/illegal-moves.grec",
        "oshi/points-win.grec",
        "iqishiqi/illegal-moves.grec",
        "retsami/illegal-moves.grec",
        "roshi/illegal-turns.grec",
        "vagabond/illegal-moves.grec",
    ):
        parts.append((FIXTURES / name).read_bytes())
    path = d / "archive.grec"
    path.write_bytes(b"\n".join(p.rstrip(b"\n") + b"\n" for p in parts))
    return path


@pytest.fixture(scope="session")
def shards(archive, tmp_path_factory) -> Path:
    """The archive cut into 8 shards by `gamerec shard`."""
    d = tmp_path_factory.mktemp("shards")
    cli("shard", archive, "--parts", 8, "-o", d)
    files = sorted(d.iterdir())
    assert len(files) == 8, files
    return d
