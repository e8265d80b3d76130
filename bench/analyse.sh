#!/usr/bin/env bash
# The time `gamerec analyse` takes over a 60-game archive per game, at
# horizons 1 to 5 (each run capped at LIMIT seconds, 120 by default: a
# capped run prints "> LIMIT s"). The archives are `gamerec gen --games 60`
# (seed 1, games of up to 200 plies), every ply searched, the default
# --nodes budget, all cores.
#
#   bench/analyse.sh [path/to/gamerec]   (default target/release/gamerec)
set -euo pipefail
BIN=${1:-target/release/gamerec}
LIMIT=${LIMIT:-120}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
printf '%-9s %7s' game plies
for d in 1 2 3 4 5; do printf ' %12s' "depth $d"; done
printf '\n'
for game in oshi retsami iqishiqi roshi vagabond; do
    "$BIN" gen --game "$game" --games 60 --seed 1 -o "$DIR/$game.grec"
    plies=$("$BIN" stats --to csv "$DIR/$game.grec" | python3 -c '
import csv, sys
print(sum(int(r["plies"]) for r in csv.DictReader(sys.stdin)))')
    printf '%-9s %7s' "$game" "$plies"
    over=""
    for d in 1 2 3 4 5; do
        if [ -n "$over" ]; then printf ' %12s' "-"; continue; fi
        start=$(date +%s.%N)
        if timeout "$LIMIT" "$BIN" analyse --depth "$d" --quiet "$DIR/$game.grec" > /dev/null; then
            printf ' %10.2f s' "$(echo "$(date +%s.%N) - $start" | bc)"
        else
            printf ' %12s' "> $LIMIT s"
            over=1
        fi
    done
    printf '\n'
done
