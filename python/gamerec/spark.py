"""gamerec on Spark: the per-game statistics of a sharded archive as a
Spark DataFrame — one task per shard, each running the Rust library on its
shard inside ``mapInArrow``, with an explicit schema::

    import gamerec.spark
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    df = gamerec.spark.stats(spark, "shards/")   # one task per shard
    df.groupBy("game").avg("plies").show()
"""

from __future__ import annotations

from typing import Optional

import gamerec
from gamerec._shards import Paths, analyse_of, expand, stats_of

__all__ = ["analyse", "analysis_schema", "stats", "schema"]


def _spark_type(t):
    import pyarrow as pa
    from pyspark.sql import types as T

    if pa.types.is_int64(t):
        return T.LongType()
    if pa.types.is_int32(t):
        return T.IntegerType()
    if pa.types.is_floating(t):
        return T.DoubleType()
    if pa.types.is_boolean(t):
        return T.BooleanType()
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return T.StringType()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return T.ArrayType(_spark_type(t.value_type), True)
    if pa.types.is_struct(t):
        return T.StructType(
            [T.StructField(f.name, _spark_type(f.type), f.nullable) for f in t]
        )
    raise TypeError(f"no Spark type for {t}")


def _struct(arrow):
    """A Spark schema mapping an Arrow schema's columns one for one."""
    from pyspark.sql import types as T

    return T.StructType(
        [T.StructField(f.name, _spark_type(f.type), True) for f in arrow]
    )


def _per_shard(spark, paths: Paths, out, arrow_schema, table_of):
    """A Spark DataFrame of schema ``out``, one task per shard: each task
    runs ``table_of(path)`` (a pyarrow Table) and casts it to
    ``arrow_schema()``."""
    shards = expand(paths)
    if not shards:
        raise gamerec.RecordError("no shard to read")
    rows = spark.sparkContext.parallelize(
        list(enumerate(shards)), numSlices=len(shards)
    )
    frame = spark.createDataFrame(rows, "shard long, path string")

    def run(batches):
        import pyarrow as pa

        target = pa.schema([(f.name, f.type) for f in arrow_schema()])
        for batch in batches:
            for path in batch.column("path").to_pylist():
                yield from table_of(path).cast(target).to_batches()

    return frame.mapInArrow(run, out)


def schema(summary: bool = False):
    """The Spark schema of the statistics: ``gamerec stats --format
    parquet``'s columns, mapped one for one (int64 → LongType, double →
    DoubleType, bool → BooleanType, string → StringType)."""
    return _struct(gamerec.stats_schema(summary))


def stats(spark, paths: Paths, *, jobs: Optional[int] = 1):
    """A Spark DataFrame of per-game statistics (the rows and columns of
    ``gamerec stats --format parquet``), computed one task per shard.
    ``spark``: a SparkSession; ``paths``: shard files or a folder of them
    (``gamerec shard`` makes them), or URLs fsspec opens — every executor
    must reach them and have the gamerec wheel installed. ``jobs``: threads
    per task."""
    return _per_shard(spark, paths, schema(), gamerec.stats_schema, lambda p: stats_of(p, jobs))


def analysis_schema():
    """The Spark schema of the analysis: ``gamerec analyse --to
    parquet``'s columns, mapped one for one."""
    return _struct(gamerec.analysis_schema())


def analyse(spark, paths: Paths, *, jobs: Optional[int] = 1, **options):
    """A Spark DataFrame of the analysis (a row per searched ply, the
    columns of ``gamerec analyse --to parquet``), computed one task per
    shard. ``options``: :func:`gamerec.analyse`'s; the estimate is seeded
    per position, so the table is the one a single machine makes."""
    return _per_shard(
        spark,
        paths,
        analysis_schema(),
        gamerec.analysis_schema,
        lambda p: analyse_of(p, jobs, **options),
    )
