#!/usr/bin/env bash
# Writes every output a refactoring must keep byte-identical into one
# folder, so two builds can be compared with `diff -r`:
#
#   GAMEREC=/tmp/old/gamerec bench/outputs.sh /tmp/before
#   bench/outputs.sh /tmp/after            # this checkout's release build
#   diff -r /tmp/before /tmp/after
#
# Inputs: the five 2,000-game samples (`gen --games 2000 --seed 7
# --finish`, made with the build under test, so `gen` is compared too),
# every fixture file, and the sites' own files (tests/data). Per input:
# `convert` (text, every other format it can carry), `convert
# --syntax-only`, `convert --to parquet`, `validate` (human, `-v`, JSON
# and `--syntax-only`),
# `stats` (JSON, CSV, the summary) — each command's stdout, stderr and exit
# code. Then filter, dedup, shard, view, show, moves and perft on a few
# inputs, and the usage errors (an unknown format, game, encoding).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: bench/outputs.sh OUTPUT-FOLDER}
if [ -z "${GAMEREC:-}" ]; then
  cargo build --release --quiet || exit 2
  GAMEREC=$PWD/target/release/gamerec
fi
mkdir -p "$OUT/inputs"
OUT=$(cd "$OUT" && pwd)

# Run in the folder the input names are relative to, so that the paths
# written into outputs are the same wherever OUT is.
run() { # name, args...
  local name=$1; shift
  (cd "$dir" && "$GAMEREC" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" </dev/null
   echo $? >"$OUT/$name.rc")
}
# The same, the output written with -o to FILE (kept in OUT).
run_o() { # name, file, args...
  local name=$1 file=$2; shift 2
  (cd "$dir" && "$GAMEREC" "$@" -o "$OUT/$file" >"$OUT/$name.out" 2>"$OUT/$name.err" </dev/null
   echo $? >"$OUT/$name.rc")
}

inputs=()
# `gen --games N` (an older build: `--count N`).
games=--games
"$GAMEREC" gen --help | grep -q -- --games || games=--count
for game in oshi retsami iqishiqi roshi vagabond; do
  "$GAMEREC" gen --game "$game" $games 2000 --seed 7 --finish -o "$OUT/inputs/$game.grec"
  inputs+=("inputs/$game.grec")
done
for f in fixtures/*/*.grec tests/data/lenient/*.grec; do inputs+=("$f"); done

for input in "${inputs[@]}"; do
  case $input in inputs/*) dir=$OUT ;; *) dir=$PWD ;; esac
  name=$(echo "$input" | sed "s|^inputs/|sample-|; s|/|-|g")
  run "$name.convert" convert -q -j 2 "$input"
  run "$name.syntax" convert -q -j 2 --syntax-only "$input"
  run "$name.jsonl" convert -q -j 2 --to jsonl "$input"
  run_o "$name.parquet" "$name.parquet" convert -q -j 2 --to parquet "$input"
  run "$name.validate" validate -j 2 --format json "$input"
  run "$name.validate-v" validate -j 2 -v "$input"
  run "$name.validate-syntax" validate -j 2 --syntax-only "$input"
  # One job: games judged in the reader's buffer (the same reports).
  run "$name.validate-1" validate -j 1 --format json "$input"
  run "$name.validate-v-1" validate -j 1 -v "$input"
  run "$name.validate-syntax-1" validate -j 1 --syntax-only "$input"
  run "$name.stats" stats -q -j 2 "$input"
done

# Every format `convert` writes, with its notes; the human report and the
# summaries; leniently.
dir=$PWD
fixtures=(fixtures/)
for to in text json jsonl csv abstractplay gardengate abstractplay-record gardengate-link; do
  run "fixtures.to-$to" convert -j 2 --to "$to" "${fixtures[@]}"
done
run fixtures.convert-skip convert --skip-invalid --to jsonl fixtures/
run fixtures.csv-safe convert --to csv --spreadsheet-safe fixtures/oshi
run fixtures.validate validate fixtures/
run fixtures.validate-1 validate -j 1 -v fixtures/
run fixtures.validate-max validate --max-errors 3 fixtures/
run fixtures.validate-ff validate --fail-fast fixtures/roshi
run fixtures.stats validate -q fixtures/
run fixtures.stats-csv stats -q --format csv fixtures/
run fixtures.stats-summary stats -q --summary fixtures/
run fixtures.stats-summary-csv stats -q --per type --format csv fixtures/
run_o fixtures.stats-parquet fixtures-stats.parquet stats -q --format parquet fixtures/
run lenient.validate validate --lenient tests/data/lenient/
run lenient.convert convert --lenient tests/data/lenient/
run lenient.broken convert --keep-broken tests/data/lenient/broken.grec
run lenient.stats stats --lenient tests/data/lenient/

# The sites' own files, read and written back.
for f in tests/data/abstractplay/meta-iqishiqi.json tests/data/abstractplay/ALL.json \
  tests/data/gardengate/links.txt tests/data/gardengate/games.txt tests/data/gardengate/other.txt; do
  name=$(echo "$f" | sed "s|/|-|g")
  run "$name.validate" validate -j 2 --format json "$f"
  run "$name.convert" convert -j 2 "$f"
done
run site.records-back convert --to abstractplay-record tests/data/abstractplay/meta-iqishiqi.json
run site.links-back convert --to gardengate-link tests/data/gardengate/links.txt
run site.moves-back convert --game vagabond --to gardengate tests/data/gardengate/games.txt
run site.from convert --from gardengate --game vagabond tests/data/gardengate/games.txt

# Back from JSON and Parquet.
dir=$OUT
run back.json-to-text convert -j 2 sample-oshi.grec.jsonl.out --from jsonl
run back.parquet-to-text convert -j 2 sample-roshi.grec.parquet
run back.parquet-stats stats -j 2 sample-roshi.grec.parquet

# Selection, duplicates, shards.
dir=$PWD
run filter.winner filter fixtures/ --winner first
run filter.count filter fixtures/ --min-plies 10 --count
run filter.only filter fixtures/ --only-game oshi --valid --to jsonl
run filter.opening filter "$OUT/inputs/oshi.grec" --opening "1. e3-e4" --count
run_o filter.rest filter-rest.grec filter fixtures/ --invalid --rest "$OUT/filter-rest-others.grec"
cat "$OUT/inputs/oshi.grec" "$OUT/inputs/oshi.grec" > "$OUT/inputs/oshi-twice.grec"
run dedup.moves dedup "$OUT/inputs/oshi-twice.grec" --report -o "$OUT/dedup-unique.grec"
run dedup.final dedup --by final-position fixtures/
run_o dedup.dups dedup-main.grec dedup fixtures/ "$OUT/inputs/oshi-twice.grec" --dups "$OUT/dedup-dups.grec"
for how in "--parts 7" "--max-bytes 64K" "--parts 3 --format jsonl" "--parts 2 --format parquet"; do
  name=shard-$(echo "$how" | tr -c 'a-z0-9\n' '-')
  run "$name" shard -o "$OUT/$name" $how fixtures/ "$OUT/inputs/retsami.grec"
done

# Pictures and positions.
run_o view.fixtures view-fixtures.html view fixtures/oshi fixtures/vagabond
run_o view.index view-index.html view --index 3 "$OUT/inputs/iqishiqi.grec"
for g in oshi retsami iqishiqi roshi vagabond; do
  run "show.$g" show --ascii "$OUT/inputs/$g.grec" --index 5 --ply 9
  run "show-svg.$g" show --format svg "$OUT/inputs/$g.grec" --index 5
  run "moves.$g" moves "$OUT/inputs/$g.grec" --index 7 --ply 5 --show-position
  run "moves-each.$g" moves "$OUT/inputs/$g.grec" --index 7 --each
  run "perft.$g" perft 2 --game "$g" --divide
done
run show.invalid show fixtures/oshi/illegal-moves.grec --index 2
run moves.invalid moves fixtures/oshi/illegal-moves.grec --index 2 --ply 40

# Usage errors.
run usage.from convert --from nosuch fixtures/oshi
run usage.to convert --to nosuch fixtures/oshi
run usage.game validate --game nosuch fixtures/oshi
run usage.encoding validate --encoding nosuch fixtures/oshi
run usage.missing validate no/such/file.grec
run usage.empty validate fixtures/oshi/empty.grec
# Analysis, the explorer, the index, ratings and the report (players from
# bench/players.py).
dir=$PWD
python3 bench/players.py "$OUT/inputs/oshi.grec" 40 > "$OUT/inputs/oshi-players.grec"
python3 bench/players.py "$OUT/inputs/roshi.grec" 30 > "$OUT/inputs/roshi-players.grec"
run analyse.human analyse --depth 2 --playouts 50 --seed 3 fixtures/oshi
run analyse.json analyse --depth 2 --playouts 50 --seed 3 --to json --index 1 "$OUT/inputs/retsami.grec"
run analyse.last analyse --depth 2 --playouts 20 --seed 3 --last 3 --index 4 "$OUT/inputs/roshi.grec"
run analyse.annotate analyse --depth 1 --playouts 10 --seed 3 --annotate --index 2 "$OUT/inputs/oshi.grec"
for g in oshi retsami iqishiqi roshi vagabond; do
  run "tree.$g" tree --depth 2 "$OUT/inputs/$g.grec"
  run "tree-json.$g" tree --depth 1 --to json "$OUT/inputs/$g.grec"
done
run tree.fixtures tree fixtures/
run tree.player tree --player P3 --depth 1 "$OUT/inputs/oshi-players.grec"
run index.build index -q -o "$OUT/index" fixtures/ "$OUT/inputs/oshi.grec"
run index.tree tree --index "$OUT/index" --game oshi --depth 2
pos=$("$GAMEREC" moves "$OUT/inputs/oshi.grec" --index 3 --ply 4 --show-position | head -1)
run index.reaches filter --index "$OUT/index" --only-game oshi --reaches "$pos" --count
run index.pattern filter --index "$OUT/index" --only-game oshi --pattern "e4=R* e5=-"
run scan.reaches filter "$OUT/inputs/oshi.grec" --reaches "$pos"
run ratings.fixtures ratings fixtures/
run ratings.players ratings "$OUT/inputs/oshi-players.grec" "$OUT/inputs/roshi-players.grec"
run ratings.history ratings --history "$OUT/inputs/oshi-players.grec"
run ratings.predict ratings --predict "$OUT/inputs/roshi-players.grec"
run ratings.csv ratings --to csv --min-games 5 "$OUT/inputs/oshi-players.grec"
run_o report.players report.html report "$OUT/inputs/oshi-players.grec" "$OUT/inputs/roshi-players.grec"
run_o report.player report-player.html report --player P3 "$OUT/inputs/oshi-players.grec"
run_o report.fixtures report-fixtures.html report fixtures/
dir=$PWD
run all-fixtures.validate validate fixtures/
run all-fixtures.stats stats -q fixtures/
# The Parquet files' bytes hold the writer's version: compared as their
# text (convert reads them back).
for p in "$OUT"/*.parquet; do
  "$GAMEREC" convert -q "$p" > "$p.text" 2>&1
done
