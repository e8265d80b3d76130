#!/usr/bin/env bash
# The rules alone, timed over bench/compare.sh's 50 MB archives (run
# compare.sh first: it makes them): gamerec's own `play_ending` on every
# move read up front, and for Oshi and Roshi a minimal engine on masks as
# a ceiling.
# See bench/probes/rules/src/main.rs. A probe, built here, not shipped.
#
#   bench/probes/rules.sh                 # oshi retsami iqishiqi roshi
#   bench/probes/rules.sh oshi
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${DATA:-bench/data/compare}
GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(oshi retsami iqishiqi roshi)
export CARGO_TARGET_DIR=$PWD/bench/data/probe-target
(cd bench/probes/rules && cargo build --release --quiet)
for game in "${GAMES[@]}"; do
  archive=$DATA/$game-50.grec
  if [ ! -f "$archive" ]; then
    echo "no $archive: run bench/compare.sh $game first" >&2
    exit 2
  fi
  echo "== $game ($archive)"
  "$CARGO_TARGET_DIR/release/rules-probe" "$game" "$archive"
done
