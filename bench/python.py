"""The Python package against the command line, and on Dask and Spark: the
per-game statistics of one archive, timed on this machine.

    target/pyenv/bin/python bench/python.py [GAMES_PER_TYPE] [SHARDS]

Needs the release binary (cargo build --release) and the package with its
test extras in target/pyenv (cargo test --test python makes it; or
pip install "./python[test]"). The archive — GAMES_PER_TYPE (default 4000)
generated games of each of the five games, `gamerec gen --finish --seed 11`
— is kept in bench/data/python/ and reused; it is cut into SHARDS (default
8) with `gamerec shard`. Timed: `gamerec stats --format parquet` with
-j 1 and -j 2, gamerec.stats() with jobs=1 and 2, gamerec.dask.stats() on
a LocalCluster of two worker processes (one thread each), and
gamerec.spark.stats() on Spark local[2] — each engine's start-up timed
apart from the run. Every result is checked equal (but for file and
index) to the command line's. Prints a Markdown table.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import gamerec

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / "target" / "release" / "gamerec"
PER = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
SHARDS = int(sys.argv[2]) if len(sys.argv) > 2 else 8
DATA = ROOT / "bench" / "data" / "python"
PLACE = ["file", "index"]


def sh(*args):
    subprocess.run([str(a) for a in args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def same(a: pa.Table, b: pa.Table):
    rest = [c for c in b.column_names if c not in PLACE]
    assert a.num_rows == b.num_rows, (a.num_rows, b.num_rows)
    assert a.select(rest).cast(b.select(rest).schema).equals(b.select(rest))


def main():
    if not BIN.exists():
        sys.exit("build the release binary first: cargo build --release")
    DATA.mkdir(parents=True, exist_ok=True)
    archive = DATA / f"archive-{PER}.grec"
    if not archive.exists():
        with open(archive, "wb") as f:
            for game in gamerec.games():
                f.write(subprocess.run(
                    [BIN, "gen", "--game", game, "--games", str(PER), "--seed", "11", "--finish"],
                    check=True, capture_output=True).stdout)
    size = archive.stat().st_size / 1e6
    tmp = Path(tempfile.mkdtemp())
    shards = tmp / "shards"
    sh(BIN, "shard", archive, "--parts", SHARDS, "-o", shards, "-q")
    rows = []

    def row(what, seconds, start=None, games=None):
        rows.append((what, seconds, start, games))

    whole = None
    for j in (1, 2):
        out = tmp / f"cli-{j}.parquet"
        _, t = timed(lambda: sh(BIN, "stats", "--format", "parquet", "-q", "-j", j, archive, "-o", out))
        whole = pq.read_table(out)
        row(f"`gamerec stats --format parquet -j {j}`", t)
    for j in (1, 2):
        table, t = timed(lambda: gamerec.stats(archive, jobs=j))
        same(table, whole)
        row(f"`gamerec.stats(archive, jobs={j})`", t)

    from dask.distributed import Client, LocalCluster

    import gamerec.dask as gamerec_dask

    (cluster, client), start = timed(lambda: (lambda c: (c, Client(c)))(
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)))
    try:
        df, t = timed(lambda: gamerec_dask.stats(shards).compute())
        same(pa.Table.from_pandas(df, preserve_index=False), whole)
        row(f"`gamerec.dask.stats` ({SHARDS} shards, LocalCluster 2 processes × 1 thread)", t, start)
    finally:
        client.close()
        cluster.close()

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import gamerec.spark as gamerec_spark

    spark, start = timed(lambda: SparkSession.builder.master("local[2]").appName("bench")
                         .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        got, t = timed(lambda: gamerec_spark.stats(spark, shards).toArrow())
        same(got, whole)
        row(f"`gamerec.spark.stats` ({SHARDS} shards, Spark local[2])", t, start)
    finally:
        spark.stop()

    games = whole.num_rows
    print(f"archive: {games} games ({PER} of each game), {size:.1f} MB, {SHARDS} shards; "
          f"{os.cpu_count()} cores\n")
    print("| run | seconds | games/s | engine start-up, s |")
    print("|---|---:|---:|---:|")
    for what, t, start, _ in rows:
        s = "" if start is None else f"{start:.1f}"
        print(f"| {what} | {t:.2f} | {games / t:,.0f} | {s} |")


if __name__ == "__main__":
    main()
