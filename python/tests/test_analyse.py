"""The analysis from Python: `gamerec.analyse()` is the table of `gamerec
analyse --to parquet`, `Game.analysis()` its JSON object, and the Dask and
Spark helpers on a sharded archive give the table one machine gives."""

from __future__ import annotations

import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gamerec
from conftest import FIXTURES, cli

# Where a row's game stands: in a shard, not in the unsharded archive.
PLACE = ["file", "index", "line", "column"]
# A few plies per game keep the search short; playouts make the estimate's
# columns, which must not depend on the machine or the threads either.
OPTIONS = dict(last=2, playouts=20)


def test_analyse_is_the_command_lines_parquet_table(tmp_path):
    inputs = [FIXTURES / g / "analysis.grec" for g in gamerec.games()]
    out = tmp_path / "a.parquet"
    cli("analyse", *inputs, "--to", "parquet", "-o", out, "--playouts", 20)
    want = pq.read_table(out)
    got = gamerec.analyse([str(p) for p in inputs], playouts=20, jobs=2)
    assert got.schema.names == want.schema.names
    assert got.cast(want.schema).equals(want)
    assert got.schema == gamerec.analysis_schema()
    assert "blunder" in ",".join(got.column("marks").to_pylist())


def test_game_analysis_is_the_command_lines_json():
    path = FIXTURES / "oshi" / "analysis.grec"
    lines = cli("analyse", path, "--to", "json").decode().splitlines()
    for game, line in zip(gamerec.read(str(path)), lines):
        want = json.loads(line)
        got = game.analysis()
        # Read back from the game, it has no place in the input.
        for ply in want["plies"]:
            ply.update(line=None, column=None, offset=None)
        assert got == want
    with pytest.raises(ValueError):
        game.analysis(depth=0)
    with pytest.raises(ValueError):
        game.analysis(last=1, plies="1-2")


def whole(archive):
    return gamerec.analyse(archive, **OPTIONS)


def same_rows(got: pa.Table, want: pa.Table):
    rest = [c for c in want.column_names if c not in PLACE]
    assert got.num_rows == want.num_rows > 0
    assert got.select(rest).cast(want.select(rest).schema).equals(want.select(rest))


def test_dask_analyses_shards_as_one_machine_does(archive, shards):
    distributed = pytest.importorskip("dask.distributed")
    import gamerec.dask

    want = whole(archive)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        df = gamerec.dask.analyse(shards, **OPTIONS)
        assert df.npartitions == 8
        pdf = df.compute()
    same_rows(pa.Table.from_pandas(pdf, preserve_index=False), want)


def test_spark_analyses_shards_as_one_machine_does(archive, shards):
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    import gamerec.spark

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    want = whole(archive)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("gamerec-analyse")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        df = gamerec.spark.analyse(spark, shards, **OPTIONS)
        assert df.schema == gamerec.spark.analysis_schema()
        got = df.toArrow() if hasattr(df, "toArrow") else pa.Table.from_pandas(
            df.toPandas(), preserve_index=False
        )
    finally:
        spark.stop()
    same_rows(got, want)
