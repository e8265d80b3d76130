#!/usr/bin/env bash
# gamerec beside pgn-reader (the fastest validating PGN reader, Rust), in
# one run on this machine: the envelope read syntax-only, and validation.
#
#   bench/compare.sh                  # 50 MB inputs, median of 3 runs
#   SIZE_MB=20 RUNS=1 bench/compare.sh
#   GAMEREC=/tmp/old/gamerec bench/compare.sh   # another build, same inputs
#
# pgn-reader is the crate from crates.io (0.29), driven by two small
# programs written here (made in a scratch folder under $DATA, never
# committed): `pgn-stats` counts games, tags, moves, comments and NAGs
# without replaying (what pgn-reader's `stats` example does), and
# `pgn-validate` plays every move on a shakmaty position (its `validate`
# example). Their input is the TWIC sample the crate ships
# (benches/twic1599_1000k.pgn, about 1 MB) repeated to SIZE_MB. gamerec's
# input is, per game, an archive of `gamerec gen --finish` games repeated
# to SIZE_MB (kept in $DATA). Timed, single thread, RUNS runs, each gamerec
# run right after a pgn-reader run of the same measure; a ratio is the median
# of the runs' own ratios, so a machine whose speed drifts between minutes
# moves both sides of each alike:
#   reading:     pgn-stats vs `gamerec validate --syntax-only -j 1` (every
#                token read and counted, nothing written: what pgn-stats
#                does), in MB/s;
#   converting:  pgn-stats vs `gamerec convert --syntax-only -j 1` (read,
#                and written back as canonical text: more work than
#                pgn-stats does), in MB/s;
#   validation:  pgn-validate vs `gamerec validate -q -j 1`, in moves
#                (plies) per second.
# Prints a Markdown table with the ratios (gamerec ÷ pgn-reader).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-50}
RUNS=${RUNS:-3}
DATA=${DATA:-bench/data/compare}
GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(oshi retsami iqishiqi roshi vagabond)

# GAMEREC=/path/to/gamerec measures that build instead of this checkout's.
if [ -n "${GAMEREC:-}" ]; then
  BIN=$GAMEREC
else
  cargo build --release --quiet
  BIN=$PWD/target/release/gamerec
fi
mkdir -p "$DATA"
DATA=$(cd "$DATA" && pwd)

# The pgn-reader drivers.
DRIVER=$DATA/driver
mkdir -p "$DRIVER/src/bin"
cat > "$DRIVER/Cargo.toml" <<'TOML'
[package]
name = "pgn-driver"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
pgn-reader = "=0.29.0"
shakmaty = "=0.30.1"

[profile.release]
debug = 1
TOML
cat > "$DRIVER/src/bin/pgn-stats.rs" <<'RUST'
//! Reads PGN files syntax-only with pgn-reader and counts what it saw.
use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use std::ops::ControlFlow;

#[derive(Default)]
struct Count {
    games: u64,
    tags: u64,
    moves: u64,
    comments: u64,
    nags: u64,
    outcomes: u64,
}

impl Visitor for Count {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), _: SanPlus) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn nag(&mut self, _: &mut (), _: Nag) -> ControlFlow<()> {
        self.nags += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &mut (), _: RawComment<'_>) -> ControlFlow<()> {
        self.comments += 1;
        ControlFlow::Continue(())
    }
    fn outcome(&mut self, _: &mut (), _: Outcome) -> ControlFlow<()> {
        self.outcomes += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) {
        self.games += 1;
    }
}

fn main() -> std::io::Result<()> {
    let mut c = Count::default();
    for path in std::env::args().skip(1) {
        let mut reader = Reader::new(std::fs::File::open(path)?);
        while reader.read_game(&mut c)?.is_some() {}
    }
    println!(
        "games {} tags {} moves {} comments {} nags {} outcomes {}",
        c.games, c.tags, c.moves, c.comments, c.nags, c.outcomes
    );
    Ok(())
}
RUST
cat > "$DRIVER/src/bin/pgn-validate.rs" <<'RUST'
//! Reads PGN files with pgn-reader and plays every move on a shakmaty
//! position (the standard start, or the FEN tag's); counts the moves.
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::ops::ControlFlow;

#[derive(Default)]
struct Validate {
    games: u64,
    moves: u64,
    invalid: u64,
}

impl Visitor for Validate {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = bool;
    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }
    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(p) => *tags = Some(p),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }
    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<bool> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }
    fn end_game(&mut self, _: Chess) -> bool {
        true
    }
}

fn main() -> std::io::Result<()> {
    let mut v = Validate::default();
    for path in std::env::args().skip(1) {
        let mut reader = Reader::new(std::fs::File::open(path)?);
        while let Some(ok) = reader.read_game(&mut v)? {
            v.games += 1;
            v.invalid += u64::from(!ok);
        }
    }
    println!("games {} moves {} invalid {}", v.games, v.moves, v.invalid);
    Ok(())
}
RUST
(cd "$DRIVER" && cargo build --release --quiet)
STATS=$DRIVER/target/release/pgn-stats
VALIDATE=$DRIVER/target/release/pgn-validate

# Repeats $1 into $2 until it holds SIZE_MB.
repeat() {
  local src=$1 out=$2 want=$((SIZE_MB * 1000000)) size
  [ -s "$out" ] && return
  size=$(wc -c < "$src")
  : > "$out.tmp"
  for _ in $(seq 1 $(( (want + size - 1) / size ))); do cat "$src" >> "$out.tmp"; done
  mv "$out.tmp" "$out"
}

# The TWIC sample from pgn-reader's own package.
crate=$(cd "$DRIVER" && cargo metadata --format-version 1 | python3 -c '
import json, sys
m = json.load(sys.stdin)
print(next(p["manifest_path"] for p in m["packages"] if p["name"] == "pgn-reader"))')
TWIC=$DATA/twic-$SIZE_MB.pgn
repeat "$(dirname "$crate")/benches/twic1599_1000k.pgn" "$TWIC"

# Wall time of one run of a command, in seconds.
timed() {
  local t0 t1
  t0=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
# The median of the numbers on stdin.
med() { sort -g | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
# Runs pgn-reader's command (the array named $1) and gamerec's (named $2)
# in turn, RUNS times, and prints the median time of each and the median
# of the runs' ratios (pgn-reader's time ÷ gamerec's): each ratio from
# two runs a moment apart, so a machine whose speed drifts from minute to
# minute (a shared VM) moves both alike.
paired() {
  local -n one=$1 two=$2
  local tp=() tg=() rs=() a b
  for _ in $(seq 1 "$RUNS"); do
    a=$(timed "${one[@]}"); b=$(timed "${two[@]}")
    tp+=("$a"); tg+=("$b"); rs+=("$(echo "$a / $b" | bc -l)")
  done
  echo "$(printf '%s\n' "${tp[@]}" | med) $(printf '%s\n' "${tg[@]}" | med) $(printf '%s\n' "${rs[@]}" | med)"
}
mb() { printf '%.1f' "$(echo "$(wc -c < "$1") / 1000000 / $2" | bc -l)"; }
rate() { printf '%.0f' "$(echo "$1 / $2" | bc -l)"; }
ratio() { printf '%.2f' "$(echo "$1" | bc -l)"; }

pgn_games=$("$STATS" "$TWIC" | awk '{print $2}')
pgn_moves=$("$VALIDATE" "$TWIC" | awk '{print $4}')
pgn_bytes=$(wc -c < "$TWIC")
p_stats=("$STATS" "$TWIC")
p_val=("$VALIDATE" "$TWIC")

echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1); SIZE_MB=$SIZE_MB, median of $RUNS"
echo "Each gamerec run follows a pgn-reader run on the same measure; a ratio is the median of the runs' ratios (pgn-reader's times: the median of those runs)."
echo
echo "| input | bytes/game | read s | MB/s | ÷ pgn-reader | convert --syntax-only s | MB/s | ÷ pgn-reader | validate s | moves/s | ÷ pgn-reader |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for game in "${GAMES[@]}"; do
  sample=$DATA/$game-sample.grec
  [ -s "$sample" ] || "$BIN" gen --game "$game" --games 2000 --seed 1 --finish -o "$sample"
  archive=$DATA/$game-$SIZE_MB.grec
  repeat "$sample" "$archive"
  games=$("$BIN" validate --format json -j 1 "$archive" | grep -c '"index"')
  plies=$("$BIN" validate --format json "$archive" | grep -o '"plies":[0-9]*' | cut -d: -f2 | paste -sd+ | bc)
  bytes=$(wc -c < "$archive")
  g_read=("$BIN" validate --syntax-only -q -j 1 "$archive")
  g_syn=("$BIN" convert --syntax-only -q -j 1 "$archive" -o /dev/null)
  g_val=("$BIN" validate -q -j 1 "$archive")
  read -r ps_read t_read q_read < <(paired p_stats g_read)
  read -r ps_syn t_syn q_syn < <(paired p_stats g_syn)
  read -r pv t_v q_v < <(paired p_val g_val)
  # Per-run ratios of times, scaled by what each side read or played.
  size=$(echo "$bytes / $pgn_bytes" | bc -l)
  moves=$(echo "$plies / $pgn_moves" | bc -l)
  echo "| pgn-reader, TWIC (beside $game) | $(( pgn_bytes / pgn_games )) | $ps_read | $(mb "$TWIC" "$ps_read") | 1 | $ps_syn | $(mb "$TWIC" "$ps_syn") | 1 | $pv | $(rate "$pgn_moves" "$pv") | 1 |"
  echo "| gamerec, $game | $(( bytes / games )) | $t_read | $(mb "$archive" "$t_read") | $(ratio "$q_read * $size") | $t_syn | $(mb "$archive" "$t_syn") | $(ratio "$q_syn * $size") | $t_v | $(rate "$plies" "$t_v") | $(ratio "$q_v * $moves") |"
done
