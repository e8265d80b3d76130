"""Shards as the cluster engines see them: paths (local files, or URLs that
fsspec opens: ``s3://``, ``gs://``, ``hdfs://``, …), each read by one task."""

from __future__ import annotations

import os
from typing import Iterable, List, Optional, Union

import gamerec
from gamerec import _native

Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


def _is_url(path: str) -> bool:
    return "://" in path and not os.path.exists(path)


def expand(paths: Paths) -> List[str]:
    """The shard paths ``paths`` stand for, in order: a local folder's
    record files (sorted, as the command line walks it), a file or URL as
    it is."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: List[str] = []
    for p in paths:
        p = os.fspath(p)
        if _is_url(p):
            out.append(p)
        else:
            out.extend(_native.inputs(p))
    return out


def analyse_of(path: str, jobs: Optional[int] = 1, **options):
    """``gamerec.analyse`` of one shard (a URL opened with fsspec)."""
    if _is_url(path):
        import fsspec

        with fsspec.open(path, "rb") as f:
            return gamerec.analyse(f, jobs=jobs, **options)
    return gamerec.analyse([path], jobs=jobs, **options)


def stats_of(path: str, jobs: Optional[int] = 1, summary: bool = False):
    """``gamerec.stats`` of one shard (a URL opened with fsspec)."""
    if _is_url(path):
        import fsspec

        with fsspec.open(path, "rb") as f:
            return gamerec.stats(f, jobs=jobs, summary=summary)
    return gamerec.stats([path], jobs=jobs, summary=summary)
