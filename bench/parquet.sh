#!/usr/bin/env bash
# Parquet and shard: sizes and throughput on generated archives.
#
#   bench/parquet.sh                   # every game, 100 MB archives, then 1 GB of Oshi
#   SIZE_MB=20 BIG_MB=0 bench/parquet.sh oshi
#
# For each game: an archive of about SIZE_MB megabytes from `gamerec gen`
# (kept in $DATA, reused), its size as .grec, .grec.zst (zstd -3, the level
# gamerec's --compress uses), Parquet (`convert --to parquet`), and as JSON
# Lines (which, like Parquet, holds every move's facts) plain and zstd; the time
# and peak RSS of writing the Parquet file, of reading it back to canonical
# text, of `validate` on the Parquet file and on the .grec, and of `shard
# --parts 16` (text, and Parquet). Then, when BIG_MB > 0, the Oshi archive
# repeated to about BIG_MB megabytes, written as Parquet, for peak memory.
# Prints a Markdown table (MB/s counts the .grec's bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
BIG_MB=${BIG_MB:-1000}
DATA=${DATA:-bench/data/parquet}
GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(oshi iqishiqi retsami roshi vagabond)
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
command -v zstd >/dev/null || { echo "needs zstd (Debian: apt-get install zstd)" >&2; exit 2; }

cargo build --release --quiet
BIN=target/release/gamerec
mkdir -p "$DATA"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

generate() {
  local game=$1 out=$2 mb=$3
  [ -s "$out" ] && return
  "$BIN" gen --game "$game" --games 200 --seed 1 -o "$TMP/sample.grec"
  local per=$(( $(stat -c %s "$TMP/sample.grec") / 200 ))
  local count=$(( mb * 1000000 / per ))
  "$BIN" gen --game "$game" --games "$count" --seed 1 -o "$out"
}

# time_run LABEL BYTES CMD...: one row, seconds and peak RSS from time -v.
row() {
  local label=$1 bytes=$2; shift 2
  /usr/bin/time -v -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || [ $? -eq 1 ]
  local s rss
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); t=0; for(i=1;i<=n;i++) t=t*60+a[i]; print t}' "$TMP/time")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}' "$TMP/time")
  awk -v l="$label" -v b="$bytes" -v s="$s" -v r="$rss" \
    'BEGIN {printf "| %s | %.0f | %.2f | %s |\n", l, (s > 0 ? b/1e6/s : 0), s, r}'
}

mb() { awk -v b="$1" 'BEGIN {printf "%.1f", b/1e6}'; }

echo "| archive | .grec MB | .grec.zst MB | Parquet MB | Parquet / .grec.zst | JSON Lines MB (the same facts) | .jsonl.zst MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for game in "${GAMES[@]}"; do
  grec="$DATA/$game.grec"
  generate "$game" "$grec" "$SIZE_MB"
  [ -s "$grec.zst" ] || zstd -q -3 -T1 -f "$grec" -o "$grec.zst"
  [ -s "$DATA/$game.parquet" ] || "$BIN" convert -q --to parquet "$grec" -o "$DATA/$game.parquet"
  a=$(stat -c %s "$grec"); z=$(stat -c %s "$grec.zst"); p=$(stat -c %s "$DATA/$game.parquet")
  "$BIN" convert -q --to jsonl "$grec" -o "$TMP/all.jsonl"
  j=$(stat -c %s "$TMP/all.jsonl"); jz=$(zstd -q -3 -T1 -c "$TMP/all.jsonl" | wc -c); rm "$TMP/all.jsonl"
  echo "| $game | $(mb "$a") | $(mb "$z") | $(mb "$p") | $(awk -v p="$p" -v z="$z" 'BEGIN {printf "%.2f", p/z}') | $(mb "$j") | $(mb "$jz") |"
done
echo
echo "| run | MB/s | s | peak RSS MiB |"
echo "|---|---:|---:|---:|"
for game in "${GAMES[@]}"; do
  grec="$DATA/$game.grec"; pq="$DATA/$game.parquet"; bytes=$(stat -c %s "$grec")
  row "$game: convert --to parquet" "$bytes" "$BIN" convert -q --to parquet "$grec" -o "$TMP/out.parquet"
  row "$game: convert parquet → text" "$bytes" "$BIN" convert -q "$pq" -o "$TMP/back.grec"
  cmp -s "$TMP/back.grec" <("$BIN" convert -q "$grec") || echo "| $game: ROUND TRIP DIFFERS | | | |"
  row "$game: validate .grec" "$bytes" "$BIN" validate -q "$grec"
  row "$game: validate .parquet" "$bytes" "$BIN" validate -q "$pq"
  row "$game: convert --to jsonl (for comparison)" "$bytes" "$BIN" convert -q --to jsonl "$grec" -o "$TMP/out.jsonl"
  rm -rf "$TMP/shards"
  row "$game: shard --parts 16 (text)" "$bytes" "$BIN" shard -q "$grec" -o "$TMP/shards" --parts 16
  rm -rf "$TMP/shards"
  row "$game: shard --parts 16 --compress zst" "$bytes" "$BIN" shard -q "$grec" -o "$TMP/shards" --parts 16 --compress zst
  rm -rf "$TMP/shards"
  row "$game: shard --parts 16 --format parquet" "$bytes" "$BIN" shard -q "$grec" -o "$TMP/shards" --parts 16 --format parquet
  rm -rf "$TMP/shards" "$TMP"/out.* "$TMP/back.grec"
done
if [ "$BIG_MB" -gt 0 ]; then
  big="$DATA/oshi-big.grec"
  generate oshi "$DATA/oshi.grec" "$SIZE_MB"
  if [ ! -s "$big" ]; then
    n=$(( BIG_MB * 1000000 / $(stat -c %s "$DATA/oshi.grec") ))
    for _ in $(seq "$n"); do cat "$DATA/oshi.grec"; done >"$big"
  fi
  bytes=$(stat -c %s "$big")
  row "oshi $(mb "$bytes") MB: convert --to parquet" "$bytes" "$BIN" convert -q --to parquet "$big" -o "$TMP/big.parquet"
  echo "| (Parquet file: $(mb "$(stat -c %s "$TMP/big.parquet")") MB) | | | |"
  row "oshi $(mb "$bytes") MB: validate .parquet" "$bytes" "$BIN" validate -q "$TMP/big.parquet"
  row "oshi $(mb "$bytes") MB: convert parquet → text" "$bytes" "$BIN" convert -q "$TMP/big.parquet" -o /dev/null
fi
