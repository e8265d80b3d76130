#!/usr/bin/env bash
# Builds the search's fixed position sets, bench/positions/<game>.pos (50
# positions a game), from seeded random games that no test or fixture
# uses (seed 5151, `gen --finish`, so every game reaches its ending and
# the late positions hold proofs): game i's position before ply
# 1 + (i × 7919 mod its length), so the sets run from the opening to the
# last move. Each file names the command and the binary's version that made
# it; `cargo bench --bench search -- sets` reads them.
#
#   bench/positions.sh                  # this checkout's release build
#   GAMEREC=/path/to/gamerec bench/positions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GAMEREC:-}" ]; then
  cargo build --release --quiet
  GAMEREC=$PWD/target/release/gamerec
fi
SEED=5151
N=50
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for game in oshi retsami iqishiqi roshi vagabond; do
  "$GAMEREC" gen --game "$game" --games "$N" --seed "$SEED" --finish -o "$tmp/$game.grec"
  out=bench/positions/$game.pos
  {
    echo "# $game: $N positions for the search's benchmark (bench/positions.sh)."
    echo "# Made by: gamerec gen --game $game --games $N --seed $SEED --finish,"
    echo "# game i's position before ply 1 + (i * 7919 mod its length),"
    echo "# written by \`gamerec moves --index i --ply K --show-position\`"
    echo "# ($("$GAMEREC" --version)). One position a line: game, ply, position."
    for i in $(seq 1 "$N"); do
      len=$("$GAMEREC" moves "$tmp/$game.grec" --index "$i" --each | wc -l)
      ply=$((1 + (i * 7919) % len))
      pos=$("$GAMEREC" moves "$tmp/$game.grec" --index "$i" --ply "$ply" --show-position | awk "NR == 1")
      printf '%s\t%s\t%s\n' "$i" "$ply" "$pos"
    done
  } >"$out"
  echo "$out: $(grep -vc '^#' "$out") positions"
done
