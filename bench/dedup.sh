#!/usr/bin/env bash
# The dedup benchmark: 1,000,000 generated games, 10% of them duplicates
# (the first 20,000 games of each of the five games again, their Event tag
# changed), deduplicated in one run; prints the time and peak RSS.
#   bench/dedup.sh [GAMEREC]   (default target/release/gamerec)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-target/release/gamerec}
d=bench/data/dedup
mkdir -p "$d"
if [ ! -s "$d/all.grec" ]; then
  : > "$d/all.grec"
  for g in oshi iqishiqi retsami roshi vagabond; do
    "$B" gen --game "$g" --games 180000 --seed 11 --stop-after 60 -o "$d/$g.grec"
    cat "$d/$g.grec" >> "$d/all.grec"
  done
  for g in oshi iqishiqi retsami roshi vagabond; do
    # The first 20,000 games again: their records up to the 20,001st.
    awk -v n=20000 '/^\[Game /{k++} k>n{exit} {print}' "$d/$g.grec" |
      sed 's/^\[Event "gamerec gen/[Event "copy of gamerec gen/' >> "$d/all.grec"
  done
  rm -f "$d"/{oshi,iqishiqi,retsami,roshi,vagabond}.grec
fi
ls -l "$d/all.grec"
/usr/bin/time -v "$B" dedup "$d/all.grec" -o "$d/unique.grec" --dups "$d/dups.grec" 2> "$d/time.txt" || true
grep -E "gamerec:|Elapsed|Maximum resident" "$d/time.txt"
