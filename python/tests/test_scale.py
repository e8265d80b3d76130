"""Beyond one machine: a sharded archive's statistics on a Dask
LocalCluster (two worker processes) and on Spark in local mode equal
`gamerec stats` of the unsharded archive, row for row."""

from __future__ import annotations

import os
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import cli

# `file` and `index` say where a row's game is: in a shard, not in the
# unsharded archive. Every other column must be equal.
PLACE = ["file", "index"]


def unsharded(archive, tmp_path):
    out = tmp_path / "whole.parquet"
    cli("stats", "--format", "parquet", archive, "-o", out)
    return pq.read_table(out)


def check_equal(got: pa.Table, whole: pa.Table, shards):
    assert got.num_rows == whole.num_rows
    files = [str(p) for p in sorted(shards.iterdir())]
    # In shard order, each shard's games numbered from 1.
    assert sorted(set(got.column("file").to_pylist())) == files
    keys = list(zip(got.column("file").to_pylist(), got.column("index").to_pylist()))
    assert keys == sorted(keys, key=lambda k: (files.index(k[0]), k[1]))
    for f in files:
        idx = [i for (name, i) in keys if name == f]
        assert idx == list(range(1, len(idx) + 1))
    rest = [c for c in whole.column_names if c not in PLACE]
    assert got.select(rest).cast(whole.select(rest).schema).equals(whole.select(rest))
    # Every game type, and invalid games, are in it.
    assert set(whole.column("game").drop_null().to_pylist()) == set(gamerec.games())
    assert False in whole.column("valid").to_pylist()


def test_the_archive_is_sharded_with_nothing_lost(archive, shards):
    whole = gamerec.stats(archive)
    parts = gamerec.stats(sorted(shards.iterdir()))
    rest = [c for c in whole.column_names if c not in PLACE]
    assert parts.select(rest).equals(whole.select(rest))


def test_dask_local_cluster_equals_the_command_line(archive, shards, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    import gamerec.dask

    whole = unsharded(archive, tmp_path)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        started = time.perf_counter()
        df = gamerec.dask.stats(shards)
        assert df.npartitions == 8
        pdf = df.compute()
        print(f"\ndask: {len(pdf)} games in {time.perf_counter() - started:.2f} s")
    got = pa.Table.from_pandas(pdf, preserve_index=False)
    check_equal(got, whole, shards)


def test_spark_local_equals_the_command_line(archive, shards, tmp_path):
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    import gamerec.spark

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    whole = unsharded(archive, tmp_path)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("gamerec-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    try:
        started = time.perf_counter()
        df = gamerec.spark.stats(spark, shards)
        assert df.schema == gamerec.spark.schema()
        assert df.rdd.getNumPartitions() == 8
        got = df.toArrow() if hasattr(df, "toArrow") else pa.Table.from_pandas(
            df.toPandas(), preserve_index=False
        )
        print(f"\nspark: {got.num_rows} games in {time.perf_counter() - started:.2f} s")
    finally:
        spark.stop()
    check_equal(got, whole, shards)
