#!/bin/sh
# fuzz/run.sh SECONDS [TARGET...]: seeds the corpora (first time only) and
# runs each fuzz target (default: all) for SECONDS, one after another, then
# prints each one's executions, coverage and findings. Needs the nightly
# toolchain and cargo-fuzz (`cargo install cargo-fuzz`). FUZZ_FORK=N runs N
# processes per target (libFuzzer's -fork), e.g. one per core. GAMEREC=path
# seeds with that gamerec build instead of building one (release).
# FUZZ_FAST=1 builds without comparison tracing (cargo fuzz
# --no-trace-compares, in fuzz/target/fast): about five times the
# executions a second on the move generators, with coarser guidance.
# FUZZ_RUNS=N stops each target after N executions (or SECONDS, if first).
set -eu
cd "$(dirname "$0")/.."
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
if [ -z "${GAMEREC:-}" ]; then
    cargo build --release --quiet
    GAMEREC=target/release/gamerec
fi
python3 fuzz/seed.py "$GAMEREC" fuzz/corpus > /dev/null
# No sanitizer: the code the targets reach reads input in safe Rust (the
# few unsafe blocks are system calls and the binary's allocator, which the
# targets do not use); debug assertions and overflow checks stay on
# (fuzz/Cargo.toml).
build="-s none"
if [ "${FUZZ_FAST:-0}" = 1 ]; then
    build="$build --no-trace-compares --target-dir fuzz/target/fast"
fi
# shellcheck disable=SC2086
cargo +nightly fuzz build $build
targets=${*:-$(cargo +nightly fuzz list)}
fork=${FUZZ_FORK:-0}
mkdir -p fuzz/logs
status=0
for t in $targets; do
    log=fuzz/logs/$t.log
    if [ "$fork" -gt 0 ]; then extra="-fork=$fork -ignore_crashes=1"; else extra=""; fi
    if [ -n "${FUZZ_RUNS:-}" ]; then extra="$extra -runs=$FUZZ_RUNS"; fi
    # Short inputs run faster and reach as far: a position is a line.
    # A Parquet file's footer alone is a few kilobytes.
    case $t in position) max_len=256 ;; parquet | index) max_len=65536 ;; *) max_len=1024 ;; esac
    start=$(date +%s)
    # libFuzzer stops a hung unit after -timeout, from a signal handler
    # that can itself hang (it allocates): `timeout` is the backstop, so a
    # hang is a finding and never a stuck run.
    rc=0
    # shellcheck disable=SC2086
    timeout -k 30 $((secs + 300)) cargo +nightly fuzz run $build "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 $extra > "$log" 2>&1 || rc=$?
    [ "$rc" = 0 ] || status=1
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
    if [ "$execs" = 0 ]; then
        # -fork prints progress lines instead of final stats.
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
    found=$(find "fuzz/artifacts/$t" -type f 2>/dev/null | wc -l)
    took=$(($(date +%s) - start))
    mode=""; [ "${FUZZ_FAST:-0}" = 1 ] && mode=" (no comparison tracing)"
    line="$t: ${execs:-0} executions in ${took} s$mode, coverage ${cov:-?} edges, $found findings"
    case $rc in 124 | 137) line="$line, HUNG: stopped by timeout" ;; esac
    echo "$line (log: $log)"
    echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD) $line" >> fuzz/logs/summary.txt
done
exit $status
