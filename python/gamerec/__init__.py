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
from typing import Dict as _Dict
from typing import Iterable as _Iterable
from typing import Iterator as _Iterator
from typing import List as _List
from typing import Optional as _Optional
from typing import Tuple as _Tuple
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
    "Index",
    "Outcome",
    "RecordError",
    "Source",
    "Sources",
    "analyse",
    "analysis_schema",
    "convert",
    "formats",
    "games",
    "ratings",
    "read",
    "report",
    "stats",
    "stats_schema",
    "tree",
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


def formats() -> _List[_Tuple[str, _Optional[str], _Optional[str]]]:
    """Every format gamerec reads or writes — the one table the command
    line's ``--from`` and ``--to`` take too: its name, and what it is when
    read and when written (``None``: it is not).

    >>> [name for name, read, written in formats() if read is None]
    ['csv']
    >>> "parquet" in [name for name, _, written in formats() if written]
    True
    """
    return _native.formats()


def convert(
    sources: Sources,
    to: str = "text",
    path: _Optional[_Union[str, "_os.PathLike[str]"]] = None,
    *,
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
    jobs: _Optional[int] = None,
    skip_invalid: bool = False,
) -> _Optional[_Union[str, bytes]]:
    """Converts every game to one output in the format ``to`` — any name
    :func:`formats` lists as written: ``"text"`` (canonical), ``"json"``,
    ``"jsonl"``, ``"csv"``, ``"parquet"``, a site's move strings
    (``"abstractplay"``, ``"gardengate"``), ``"abstractplay-record"``,
    ``"gardengate-link"`` — byte for byte what ``gamerec convert --to``
    writes. Without ``path`` the output comes back (``bytes`` for Parquet,
    ``str`` otherwise); with it, it is written there (through a temporary
    file put in place at the end, never over one of the inputs) and
    ``None`` comes back.

    ``sources``, ``format``, ``game``, ``encoding`` and ``jobs`` as for
    :func:`read`. An invalid game is converted up to its error (left out
    with ``skip_invalid``); a game the target cannot carry (a site's format
    holds one game's moves) is left out with a ``UserWarning``; an input
    that cannot be read raises :class:`RecordError` (and nothing is written
    to ``path``).

    >>> record = b'[Game "oshi"]\\n[Result "*"]\\n1.   e3-e4  e7-e6 *\\n'
    >>> print(convert(record), end="")
    [Game "oshi"]
    [Result "*"]
    <BLANKLINE>
    1. e3-e4 e7-e6 *
    """
    return _native.convert(
        sources,
        to,
        path,
        format=format,
        game=game,
        encoding=encoding,
        jobs=jobs,
        skip_invalid=skip_invalid,
    )


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


def analyse(
    sources: Sources,
    depth: _Optional[int] = None,
    playouts: int = 0,
    seed: int = 1,
    jobs: _Optional[int] = None,
    *,
    nodes: int = 2_000_000,
    time: _Optional[float] = None,
    last: _Optional[int] = None,
    plies: _Optional[str] = None,
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> "pyarrow.Table":
    """Every game analysed, as a ``pyarrow.Table`` of one row per searched
    ply — the columns of ``gamerec analyse --to parquet``
    (notation/analysis.md): the exact values before and after each move
    within a horizon of ``depth`` plies (default: the game's own), the
    proven best moves, the marks, and with ``playouts`` the seeded win-chance
    estimate. ``nodes`` and ``time`` (seconds) are the budget per position
    (past it a value is ``unknown``); ``last=K`` searches each game's last K
    plies, ``plies="A-B"`` plies A to B. Runs on ``jobs`` threads (default:
    one per core; the games, and each game's positions, are shared among
    them) with the GIL released; the answers do not depend on ``jobs``. An input that cannot be read raises :class:`RecordError`.

    >>> t = analyse([b'[Game "oshi"]\\n[Position "4a4/4A4/9/9/9/9/9/9/a8 r 6-0 -"]\\n1. e8-e9 1-0\\n'])
    >>> t.column("before").to_pylist(), t.column("marks").to_pylist()
    (['win'], ['only-move'])
    """
    import pyarrow as pa

    stream = _native.analyse_arrow(
        sources,
        jobs,
        depth,
        nodes,
        time,
        playouts,
        seed,
        last,
        plies,
        format=format,
        game=game,
        encoding=encoding,
    )
    return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()


def tree(
    sources: Sources,
    depth: int = 20,
    play: str = "",
    jobs: _Optional[int] = None,
    *,
    min_games: int = 1,
    player: _Optional[str] = None,
    side: _Optional[str] = None,
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> "pyarrow.Table":
    """The opening explorer, as a ``pyarrow.Table`` — the rows of ``gamerec
    tree --to parquet`` (notation/tree.md): a row for the position ``play``
    leads to from each game's start (``turn`` null), with the games that
    reached it within their first ``depth`` plies (transpositions merged),
    their results as their ``Result`` tags declare, and the mover's score
    with its 95 % interval; then a row per turn played there (in at least
    ``min_games`` games), the most played first. ``player`` (and ``side``:
    ``"first"``, ``"second"`` or a side's tag name) keep that player's
    games. ``sources``, ``format``, ``game``, ``encoding`` and ``jobs`` as
    for :func:`read`; an input that cannot be read raises
    :class:`RecordError`.

    >>> record = b'[Game "oshi"]\\n[Result "1-0"]\\n1. e3-e4 e7-e6 1-0\\n'
    >>> t = tree([record, record.replace(b"e7-e6", b"d8-d7")], play="1. e3-e4")
    >>> t.column("turn").to_pylist(), t.column("games").to_pylist()
    ([None, 'e7-e6', 'd8-d7'], [2, 1, 1])
    """
    import pyarrow as pa

    stream = _native.tree_arrow(
        sources,
        jobs,
        depth,
        play,
        min_games,
        player,
        side,
        format=format,
        game=game,
        encoding=encoding,
    )
    return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()


def ratings(
    sources: Sources,
    jobs: _Optional[int] = None,
    *,
    alias: _Optional[_Dict[str, str]] = None,
    elo_k: _Union[float, str] = 32,
    period: _Union[int, str] = "month",
    history: bool = False,
    predict: bool = False,
    sort: str = "bradley-terry",
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> "pyarrow.Table":
    """Each game type's players rated, as a ``pyarrow.Table`` — the rows of
    ``gamerec ratings --to parquet`` (notation/ratings.md): a row per
    player with their record and their Elo, Glicko-2, TrueSkill, Weng-Lin
    and Bradley–Terry ratings, and the game type's first-mover advantage.
    ``history=True``: a row per game per player, the ratings after it;
    ``predict=True``: a row per system, how well it predicted each game
    from the ratings before it. ``alias`` maps spellings to names;
    ``elo_k`` is K or ``"abstractplay"``; ``period`` is Glicko-2's rating
    period (``"day"``, ``"week"``, ``"month"`` or a number of games).
    ``sources``, ``format``, ``game``, ``encoding`` and ``jobs`` as for
    :func:`read`.

    >>> game = lambda a, b, r: f'[Game "oshi"]\\n[Red "{a}"]\\n[White "{b}"]\\n1. e3-e4 {r}\\n'.encode()
    >>> t = ratings([game("Ana", "Ben", "1-0"), game("Ben", "Ana", "0-1")])
    >>> t.column("player").to_pylist(), t.column("wins").to_pylist()
    (['Ana', 'Ben'], [2, 0])
    """
    import pyarrow as pa

    stream = _native.ratings_arrow(
        sources,
        jobs,
        alias=alias,
        elo_k=elo_k,
        period=period,
        history=history,
        predict=predict,
        sort=sort,
        format=format,
        game=game,
        encoding=encoding,
    )
    return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()


def report(
    sources: Sources,
    jobs: _Optional[int] = None,
    *,
    player: _Optional[str] = None,
    players: int = 12,
    alias: _Optional[_Dict[str, str]] = None,
    title: str = "gamerec report",
    format: _Optional[str] = None,
    game: _Optional[str] = None,
    encoding: _Optional[str] = None,
) -> str:
    """The report of ``gamerec report`` (notation/report.md) as one
    self-contained HTML page: per game type results by side, the first
    mover's advantage, lengths, end reasons, openings, design metrics and
    ratings; per player (``player``, else the ``players`` with the most
    games) results by side, opening and opponent and their rating over
    time. A ``player`` with no game in the sources raises ``ValueError``.
    """
    return _native.report_html(
        sources,
        jobs,
        player=player,
        players=players,
        alias=alias,
        title=title,
        format=format,
        game=game,
        encoding=encoding,
    )


def _table(stream: _Any) -> "pyarrow.Table":
    import pyarrow as pa

    return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()


class Index:
    """A position index made by ``gamerec index FILES -o DIR``
    (notation/index.md), queried without reading the archives.

    Each query returns a ``pyarrow.Table``; :meth:`reaches` and
    :meth:`pattern` a row per game — its ``id`` in the index, its ``file``
    (as given when indexed) and ``index`` there, its ``game`` type, the
    first ``ply`` after which it matched (0: the start) and its ``finish``
    (``first``, ``draw``, ``second`` or ``open``). A folder with no index
    raises :class:`RecordError`.
    """

    def __init__(self, path: "_Union[str, _os.PathLike[str]]") -> None:
        self.path = _os.fspath(path)
        #: Games in the index.
        self.games = _native.index_games(self.path)

    def __len__(self) -> int:
        return self.games

    def __repr__(self) -> str:
        return f"Index({self.path!r}: {self.games} games)"

    def reaches(self, position: str) -> "pyarrow.Table":
        """The games that reached ``position`` (any game's Position
        notation; a game type that cannot read it is passed over, and
        ``ValueError`` is raised when none can)."""
        return _table(_native.index_reaches_arrow(self.path, position))

    def pattern(self, pattern: str) -> "pyarrow.Table":
        """The games a position of which matches ``pattern``
        (notation/pattern.md), each game's turns replayed from the index."""
        return _table(_native.index_pattern_arrow(self.path, pattern))

    def tree(
        self,
        depth: int = 20,
        play: str = "",
        *,
        min_games: int = 1,
        player: _Optional[str] = None,
        side: _Optional[str] = None,
    ) -> "pyarrow.Table":
        """The opening explorer's table, as :func:`tree` makes it, from the
        index (``gamerec tree --index``)."""
        return _table(_native.index_tree_arrow(self.path, depth, play, min_games, player, side))


def analysis_schema() -> "pyarrow.Schema":
    """The schema of :func:`analyse`'s table (the same for every input)."""
    return analyse([]).schema


def __dir__() -> _List[str]:
    # The public names (and the package's submodules), not the imports.
    return sorted(set(__all__) | {"__version__", "dask", "spark"})


def stats_schema(summary: bool = False) -> "pyarrow.Schema":
    """The schema of :func:`stats`'s table (the same for every input)."""
    return stats([], summary=summary).schema
