"""Type stubs of gamerec's compiled half (src/lib.rs); the public API is
re-exported by ``gamerec``."""

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

__version__: str

class RecordError(Exception):
    """An input that cannot be read, or a position a game cannot reach;
    the message says where (file:line:column, game, ply)."""

class GameError:
    """What is wrong with an invalid game, and where."""
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def offset(self) -> Optional[int]: ...
    @property
    def ply(self) -> Optional[int]: ...
    @property
    def token(self) -> Optional[str]: ...

class Outcome:
    """How a valid game ended."""
    @property
    def result(self) -> str: ...
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def reason(self) -> str: ...
    @property
    def ply(self) -> int: ...

class Game:
    """One game, replayed under its rules."""
    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def tags(self) -> Dict[str, str]: ...
    @property
    def tag_pairs(self) -> List[Tuple[str, str]]: ...
    @property
    def game_type(self) -> Optional[str]: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def written(self) -> List[str]: ...
    @property
    def comments(self) -> List[str]: ...
    @property
    def valid(self) -> bool: ...
    @property
    def outcome(self) -> Optional[Outcome]: ...
    @property
    def error(self) -> Optional[GameError]: ...
    def position(self, ply: Optional[int] = None) -> str: ...
    def legal_moves(self, ply: Optional[int] = None) -> List[str]: ...
    def analysis(
        self,
        depth: Optional[int] = None,
        nodes: int = 2000000,
        time: Optional[float] = None,
        playouts: int = 0,
        seed: int = 1,
        last: Optional[int] = None,
        plies: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    def svg(
        self,
        ply: Optional[int] = None,
        *,
        size: Optional[int] = None,
        flip: bool = False,
        rotate: float = 0.0,
    ) -> str: ...
    def png(
        self,
        ply: Optional[int] = None,
        *,
        size: Optional[int] = None,
        flip: bool = False,
        rotate: float = 0.0,
    ) -> bytes: ...
    def gif(
        self,
        plies: Optional[int] = None,
        *,
        size: Optional[int] = None,
        flip: bool = False,
        rotate: float = 0.0,
        delay: int = 800,
    ) -> bytes: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def to_text(self) -> str: ...
    def to_json(self) -> str: ...

class Games(Iterator[Game]):
    def __iter__(self) -> "Games": ...
    def __next__(self) -> Game: ...

def read(
    source: Any,
    format: Optional[str] = None,
    *,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: Optional[int] = None,
) -> Games: ...
def validate(
    sources: Any,
    jobs: Optional[int] = None,
    *,
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> List[Dict[str, Any]]: ...
def stats_arrow(
    sources: Any,
    jobs: Optional[int] = None,
    summary: bool = False,
    *,
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> Any: ...
def analyse_arrow(
    sources: Any,
    jobs: Optional[int] = None,
    depth: Optional[int] = None,
    nodes: int = 2000000,
    time: Optional[float] = None,
    playouts: int = 0,
    seed: int = 1,
    last: Optional[int] = None,
    plies: Optional[str] = None,
    *,
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> Any: ...
def tree_arrow(
    sources: Any,
    jobs: Optional[int] = None,
    depth: int = 20,
    play: str = "",
    min_games: int = 1,
    player: Optional[str] = None,
    side: Optional[str] = None,
    *,
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> Any: ...
def ratings_arrow(
    sources: Any,
    jobs: Optional[int] = None,
    *,
    alias: Optional[Dict[str, str]] = None,
    elo_k: Any = None,
    period: Any = None,
    history: bool = False,
    predict: bool = False,
    sort: str = "bradley-terry",
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> Any: ...
def report_html(
    sources: Any,
    jobs: Optional[int] = None,
    *,
    player: Optional[str] = None,
    players: int = 12,
    alias: Optional[Dict[str, str]] = None,
    title: str = "gamerec report",
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
) -> str: ...
def index_games(path: str) -> int: ...
def index_reaches_arrow(path: str, position: str) -> Any: ...
def index_pattern_arrow(path: str, pattern: str) -> Any: ...
def index_tree_arrow(
    path: str,
    depth: int = 20,
    play: str = "",
    min_games: int = 1,
    player: Optional[str] = None,
    side: Optional[str] = None,
) -> Any: ...
def convert(
    sources: Any,
    to: str = "text",
    path: Optional[Any] = None,
    *,
    format: Optional[str] = None,
    game: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: Optional[int] = None,
    skip_invalid: bool = False,
) -> Optional[Union[str, bytes]]: ...
def formats() -> List[Tuple[str, Optional[str], Optional[str]]]: ...
def inputs(sources: Any) -> List[str]: ...
def games() -> List[str]: ...
