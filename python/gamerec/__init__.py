"""gamerec: recorded games of Roshi, Oshi, Iqishiqi, Vagabond Pai Sho and
Retsami — read, replayed under their full rules, validated, pictured and
counted by the same Rust library as the ``gamerec`` command line.

>>> import gamerec
>>> record = b'[Game "oshi"]\\n[Red "Ana"]\\n[White "Ben"]\\n[Result "*"]\\n1. e3-e4 e7-e6 *\\n'
>>> game = next(gamerec.read(record))
>>> game.game_type, game.tags["Red"], game.moves
('oshi', 'Ana', ['e3-e4', 'e7-e6'])
>>> game.outcome
Outcome(result="*", winner=None, reason="unfinished", ply=2)
>>> game.position(0)
'c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -'
>>> len(game.legal_moves(2)) > 0
True
>>> bad = next(gamerec.read(b'[Game "oshi"]\\n[Result "*"]\\n1. e3-e4 e7-e6 2. c2-c5 *\\n'))
>>> bad.valid, bad.error.code, bad.error.ply, bad.error.line, bad.error.column
(False, 'too-far', 3, 3, 19)
>>> [r["valid"] for r in gamerec.validate([record])]
[True]
>>> gamerec.stats([record]).num_rows
1
"""

from __future__ import annotations

import io as _io
import os as _os
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any
from typing import Iterable as _Iterable
from typing import Iterator as _Iterator
from typing import List as _List
from typing import Optional as _Optional
from typing import Union as _Union

from . import _native
from ._native import Game, GameError, Games, Outcome, RecordError

if _TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__version__ = _native.__version__

__all__ = [
    "Game",
    "GameError",
    "Games",
    "Outcome",
    "RecordError",
    "Source",
    "Sources",
    "games",
    "read",
    "stats",
    "stats_schema",
    "validate",
]

#: One input: a path (``str`` without a line break, or ``os.PathLike``; a
#: folder stands for its record files), record bytes (``bytes``,
#: ``bytearray``, ``memoryview``), record text (a ``str`` with a line
#: break), or a file object opened in binary or text mode.
Source = _Union[str, "_os.PathLike[str]", bytes, bytearray, memoryview, _io.IOBase, _Any]
#: One input, or a list of them.
Sources = _Union[Source, _Iterable[Source]]


def games() -> _List[str]:
    """The games gamerec knows, by their ``Game`` tag value.

    >>> games()
    ['oshi', 'iqishiqi', 'retsami', 'roshi', 'vagabond']
    """
    return _native.games()


def read(
    source: Sources,
    format: _Optional[str] = None,
    *,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
    jobs: _Optional[int] = None,
) -> _Iterator[Game]:
    """Reads games, streaming: an iterator of :class:`Game`, in input order.

    ``source`` is one input or a list of them (see :data:`Source`); every
    format the command line reads is read — the record format, gamerec JSON
    and JSON Lines, Parquet, AbstractPlay records, Garden Gate links and the
    sites' move strings — gzip- or Zstandard-compressed too. ``format``
    names it (``"text"``, ``"json"``, ``"jsonl"``, ``"parquet"``, …) when
    detection from the name and first bytes is not wanted; ``game`` gives
    the rules of records without a ``Game`` tag; ``encoding`` is
    ``"utf-8"``, ``"latin-1"``, ``"utf-16le"`` or ``"utf-16be"`` (default:
    UTF-8, or UTF-16 after its byte-order mark). Games are read and
    replayed ahead on ``jobs`` threads (default: one per core) while Python
    takes them; memory stays bounded whatever the archive's size.

    An input that cannot be read raises :class:`RecordError` when the
    iterator reaches it; the iterator can be resumed, and goes on with the
    next input. An invalid game is not an exception: its ``error`` says
    what is wrong and where.
    """
    return _native.read(source, format, game=game, encoding=encoding, jobs=jobs)


def validate(
    sources: Sources,
    jobs: _Optional[int] = None,
    *,
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> _List[dict]:
    """Validates every game: one report per game, in input order — the
    objects ``gamerec validate --format json`` writes
    (notation/validate-json.md): ``file``, ``index``, ``game``, ``valid``,
    ``plies``, ``outcome`` (``result``, ``winner``, ``reason``, ``ply``) and
    ``error`` (``code``, ``message``, ``line``, ``column``, ``offset``,
    ``ply``, ``token``). An input with no game is one report with the code
    ``no-games``. Runs on ``jobs`` threads (default: one per core) with the
    GIL released. An input that cannot be read raises :class:`RecordError`.
    """
    return _native.validate(sources, jobs, format=format, game=game, encoding=encoding)


def stats(
    sources: Sources,
    jobs: _Optional[int] = None,
    summary: bool = False,
    *,
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> "pyarrow.Table":
    """Statistics as a ``pyarrow.Table``: one row per game, or with
    ``summary=True`` one row per game type — the columns and types of
    ``gamerec stats --format parquet`` (notation/stats.md,
    notation/parquet.md). ``.to_pandas()`` makes a DataFrame. Runs on
    ``jobs`` threads (default: one per core) with the GIL released. An
    input that cannot be read raises :class:`RecordError`.
    """
    import pyarrow as pa

    # Arrow data, through the C stream interface: no file between, and no
    # thread of pyarrow's or ours left running (every thread of ours has
    # ended when stats_arrow returns).
    stream = _native.stats_arrow(
        sources, jobs, summary, format=format, game=game, encoding=encoding
    )
    return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()


def __dir__() -> _List[str]:
    # The public names (and the package's submodules), not the imports.
    return sorted(set(__all__) | {"__version__", "dask", "spark"})


def stats_schema(summary: bool = False) -> "pyarrow.Schema":
    """The schema of :func:`stats`'s table (the same for every input)."""
    return stats([], summary=summary).schema
