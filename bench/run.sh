#!/usr/bin/env bash
# Throughput and memory of gamerec on generated archives.
#
#   bench/run.sh                 # every game, 100 MB archives, 3 runs each
#   SIZE_MB=20 RUNS=1 bench/run.sh oshi iqishiqi
#   GENERATE_ONLY=1 bench/run.sh  # only make the archives
#
# For each game: generates an archive of about SIZE_MB megabytes with
# `gamerec gen` (kept in $DATA, reused when present), then times `cat`,
# `validate` on one thread and on all cores, and `convert --syntax-only`
# (one thread and all cores), reporting MB/s, games/s, moves/s and peak RSS
# (/usr/bin/time -v; the best of RUNS runs). Then the same on a 1 GB archive
# (the Oshi archive repeated) for peak memory. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-3}
DATA=${DATA:-bench/data}
BIG_MB=${BIG_MB:-1000}
GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(oshi iqishiqi retsami roshi vagabond)
[ -x /usr/bin/time ] || { echo "bench/run.sh needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

cargo build --release --quiet
BIN=target/release/gamerec
CORES=$(nproc)
mkdir -p "$DATA"

# gen: size an archive from a sample of 200 games.
generate() {
  local game=$1 out=$2
  [ -s "$out" ] && return
  local sample
  sample=$("$BIN" gen --game "$game" --games 200 --seed 1 | wc -c)
  local count=$(( (SIZE_MB * 1000000 * 200 / sample) * 102 / 100 + 1 ))
  echo "generating $out: $count $game games" >&2
  "$BIN" gen --game "$game" --games "$count" --seed 1 -o "$out.tmp"
  mv "$out.tmp" "$out"
}

# best_of CMD...: "seconds rss_kb" of the fastest of RUNS runs (output discarded).
best_of() {
  local best="" line report
  report=$(mktemp)
  for _ in $(seq "$RUNS"); do
    # Wall time from the clock in nanoseconds (time -v rounds to 10 ms).
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$report" "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    line=$(awk -v ns=$((t1 - t0)) '
      /Maximum resident set size/ { rss = $NF }
      END { printf "%.3f %d\n", ns / 1e9, rss }' "$report")
    if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
      best=$line
    fi
  done
  rm -f "$report"
  echo "$best"
}

row() { # label file games moves seconds rss
  awk -v label="$1" -v bytes="$(stat -c %s "$2")" -v games="$3" -v moves="$4" -v s="$5" -v rss="$6" 'BEGIN {
    s = (s > 0) ? s : 0.001
    printf "| %s | %.0f | %.3f | %.0f | %.2f | %.1f |\n", label, bytes / 1e6 / s, s, games / s, moves / s / 1e6, rss / 1024 }'
}

if [ -n "${GENERATE_ONLY:-}" ]; then
  for game in "${GAMES[@]}"; do generate "$game" "$DATA/$game.grec"; done
  exit 0
fi

echo "## gamerec $(git describe --always --dirty 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $CORES cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); $(rustc --version)"
echo
echo "| run | MB/s | s | games/s | Mmoves/s | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|"
for game in "${GAMES[@]}"; do
  file="$DATA/$game.grec"
  generate "$game" "$file"
  # Games and moves (plies), from validate's JSON report.
  read -r games moves < <("$BIN" validate --format json "$file" | awk -F'"plies":' '{ n++; split($2, a, ","); m += a[1] } END { print n, m }')
  mb=$(( $(stat -c %s "$file") / 1000000 ))
  row "$game ${mb} MB: cat" "$file" "$games" "$moves" $(best_of cat "$file")
  row "$game: validate -j1" "$file" "$games" "$moves" $(best_of "$BIN" validate -q -j1 "$file")
  row "$game: validate -j$CORES" "$file" "$games" "$moves" $(best_of "$BIN" validate -q -j"$CORES" "$file")
  row "$game: convert --syntax-only -j1" "$file" "$games" "$moves" $(best_of "$BIN" convert -q --syntax-only -j1 "$file")
  row "$game: convert --syntax-only -j$CORES" "$file" "$games" "$moves" $(best_of "$BIN" convert -q --syntax-only -j"$CORES" "$file")
done

# Peak memory on a big archive: the Oshi archive repeated.
big="$DATA/oshi-big.grec"
if [ ! -s "$big" ]; then
  generate oshi "$DATA/oshi.grec"
  reps=$(( BIG_MB * 1000000 / $(stat -c %s "$DATA/oshi.grec") + 1 ))
  for _ in $(seq "$reps"); do cat "$DATA/oshi.grec"; echo; done > "$big.tmp"
  mv "$big.tmp" "$big"
fi
read -r games moves < <("$BIN" validate --format json "$big" | awk -F'"plies":' '{ n++; split($2, a, ","); m += a[1] } END { print n, m }')
mb=$(( $(stat -c %s "$big") / 1000000 ))
RUNS=1
row "oshi ${mb} MB: cat" "$big" "$games" "$moves" $(best_of cat "$big")
row "oshi ${mb} MB: validate -j1" "$big" "$games" "$moves" $(best_of "$BIN" validate -q -j1 "$big")
row "oshi ${mb} MB: validate -j$CORES" "$big" "$games" "$moves" $(best_of "$BIN" validate -q -j"$CORES" "$big")
row "oshi ${mb} MB: convert --syntax-only -j$CORES" "$big" "$games" "$moves" $(best_of "$BIN" convert -q --syntax-only -j"$CORES" "$big")

# A multi-GB stream on stdin (never on disk): memory must stay flat.
STREAM_REPS=${STREAM_REPS:-30}
stream_mb=$(( STREAM_REPS * $(stat -c %s "$DATA/oshi.grec") / 1000000 ))
report=$(mktemp)
start=$(date +%s.%N)
for _ in $(seq "$STREAM_REPS"); do cat "$DATA/oshi.grec"; echo; done \
  | /usr/bin/time -v -o "$report" "$BIN" validate -q -j"$CORES" - || true
end=$(date +%s.%N)
rss=$(awk '/Maximum resident set size/ { print $NF }' "$report")
rm -f "$report"
awk -v mb="$stream_mb" -v s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -v rss="$rss" -v cores="$CORES" 'BEGIN {
  printf "| oshi %d MB on stdin: validate -j%d | %.0f | %.2f | | | %.1f |\n", mb, cores, mb / s, s, rss / 1024 }'
