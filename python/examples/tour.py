"""A notebook-style tour of the gamerec package: read an archive, look at a
game and its picture, and tabulate statistics. Run it from the repository's
root (python python/examples/tour.py [ARCHIVE] [OUT_DIR]: the picture goes
to OUT_DIR, by default a new temporary folder, never the folder it runs
in); in a notebook, each block is a cell, and a Game shows its last
position inline."""

import sys
import tempfile
from pathlib import Path

import gamerec

archive = Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures")
out = Path(sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="gamerec-tour-"))

# %% Read: every game of every record file under `archive`, streaming.
games = list(gamerec.read(archive))
valid = [g for g in games if g.valid]
print(f"{len(games)} games read, {len(valid)} valid")

# %% One game: its tags, moves, outcome, and a position mid-game.
game = max(valid, key=lambda g: len(g.moves))
print(repr(game))
print("tags:", dict(game.tags))
print("first moves:", " ".join(game.moves[:6]))
print("outcome:", game.outcome)
middle = len(game.moves) // 2
print(f"after {middle} plies:", game.position(middle))
print(f"legal there: {len(game.legal_moves(middle))} moves")

# %% An invalid game says what is wrong, and where.
bad = next(g for g in games if not g.valid and g.error.ply)
e = bad.error
print(f"{bad.file}:{e.line}:{e.column}: game {bad.index}, ply {e.ply}: {e.message} [{e.code}]")

# %% A picture: the game's last position (a notebook draws `game` itself).
picture = out / "tour.svg"
picture.write_text(game.svg())
print("picture:", picture)

# %% Statistics: a pyarrow table, then pandas.
table = gamerec.stats(archive)
df = table.to_pandas()
summary = df.groupby("game").agg(games=("index", "size"), plies=("plies", "mean"), valid=("valid", "mean"))
print(summary.round(2).to_string())
print(gamerec.stats(archive, summary=True).select(["game", "games", "valid", "length_mean", "first_mover_win_rate"]).to_pandas().to_string())
