"""gamerec on Dask: the per-game statistics (and the analysis) of a sharded
archive as a Dask DataFrame, one partition per shard, each computed by a
worker running the Rust library on its own shard::

    import gamerec.dask
    from dask.distributed import Client

    client = Client()                      # or a cluster's scheduler address
    df = gamerec.dask.stats("shards/")     # one partition per shard
    df.groupby("game").plies.mean().compute()
"""

from __future__ import annotations

from typing import Optional

import gamerec
from gamerec._shards import Paths, analyse_of, expand, stats_of

__all__ = ["analyse", "stats", "meta"]


def _frame(table):
    """A pyarrow Table as pandas, ``ArrowDtype`` columns (integers stay
    integers where a value is missing)."""
    import pandas as pd

    return table.to_pandas(types_mapper=pd.ArrowDtype)


def meta():
    """The empty pandas DataFrame every partition matches: the columns of
    ``gamerec stats --format parquet``, as pandas ``ArrowDtype`` columns
    (integers stay integers where a value is missing)."""
    return _frame(gamerec.stats_schema().empty_table())


def _partition(path: str, jobs: Optional[int]):
    return _frame(stats_of(path, jobs))


def _per_shard(paths: Paths, partition, meta, label: str, **kwargs):
    """A Dask DataFrame of ``partition(shard, **kwargs)`` per shard, in
    order, each matching ``meta``."""
    import dask.dataframe as dd

    shards = expand(paths)
    if not shards:
        raise gamerec.RecordError("no shard to read")
    return dd.from_map(
        partition, shards, meta=meta, label=label, enforce_metadata=True, **kwargs
    )


def stats(paths: Paths, *, jobs: Optional[int] = 1):
    """A Dask DataFrame of per-game statistics (the rows and columns of
    ``gamerec stats --format parquet``), one partition per shard, in
    order. ``paths``: shard files or a folder of them (``gamerec shard``
    makes them), or URLs fsspec opens. ``jobs``: threads per task (1: Dask
    runs one task per worker thread)."""
    return _per_shard(paths, _partition, meta(), "gamerec-stats", jobs=jobs)


def _analysed(path: str, jobs: Optional[int], options: dict):
    return _frame(analyse_of(path, jobs, **options))


def analyse(paths: Paths, *, jobs: Optional[int] = 1, **options):
    """A Dask DataFrame of the analysis (the rows and columns of ``gamerec
    analyse --to parquet``: a row per searched ply), one partition per
    shard, in order. ``options``: :func:`gamerec.analyse`'s (``depth``,
    ``playouts``, ``seed``, ``nodes``, ``time``, ``last``, ``plies``); the
    estimate is seeded per position, so the table is the one a single
    machine makes."""
    empty = _frame(gamerec.analysis_schema().empty_table())
    return _per_shard(
        paths, _analysed, empty, "gamerec-analyse", jobs=jobs, options=options
    )
