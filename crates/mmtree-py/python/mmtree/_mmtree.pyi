"""Type stubs of mmtree's native module (re-exported by the ``mmtree`` package)."""

from os import PathLike
from typing import Any, Callable, Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

MAX_PEGS: int
MAX_COLOURS: int

class Game:
    """A game: ``n`` pegs, ``k`` colours, with or without repetition, black-white or
    black-only feedback, written with ``symbols`` (default ``1-9A-Z``)."""

    def __init__(
        self,
        n: int,
        k: int,
        distinct: bool = False,
        black_only: bool = False,
        symbols: Optional[str] = None,
        memory_limit: Optional[str] = None,
    ) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def distinct(self) -> bool: ...
    @property
    def black_only(self) -> bool: ...
    @property
    def symbols(self) -> str: ...
    @property
    def codes(self) -> int: ...
    @property
    def memory_limit(self) -> int: ...

class Tree:
    """A complete strategy tree with the figures of ``solve --format json``."""

    @property
    def stats(self) -> dict[str, Any]:
        """Keys: n, k, variant, feedback, valuation, pool, ties, first_guess, max, total,
        average, histogram."""
    @property
    def histogram(self) -> list[int]: ...
    @property
    def total(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def average(self) -> float: ...
    @property
    def first_guess(self) -> str: ...
    @property
    def game(self) -> Game: ...
    def depths(self) -> npt.NDArray[np.uint32]:
        """Guesses each secret needs, in code order."""
    def path(self, secret: str) -> list[Tuple[str, Tuple[int, int]]]:
        """Each guess against ``secret`` with its feedback ``(black, white)``."""
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    def to_dot(
        self,
        max_depth: Optional[int] = None,
        max_set: int = 8,
        labels: str = "set",
        win_edges: bool = False,
        rankdir: Optional[str] = None,
    ) -> str: ...

def solve(
    game_or_n: Union[Game, int],
    k: Optional[int] = None,
    valuation: str = "minimax",
    pool: str = "all",
    first: Optional[str] = None,
    ties: str = "smallest",
    prefer_candidates: bool = True,
    lookahead: int = 1,
    *,
    memory_limit: Optional[str] = None,
) -> Tree: ...
def load(path: Union[str, PathLike[str]], *, memory_limit: Optional[str] = None) -> Tree: ...
def verify(path: Union[str, PathLike[str]], *, memory_limit: Optional[str] = None) -> dict[str, Any]: ...
def sweep(
    n: Union[int, Iterable[int], None] = None,
    k: Union[int, Iterable[int], None] = None,
    valuations: Union[str, Iterable[str], None] = None,
    pools: Union[str, Iterable[str], None] = None,
    *,
    distinct: bool = False,
    black_only: bool = False,
    ties: str = "smallest",
    memory_limit: Optional[str] = None,
    progress: Optional[Callable[[int, int], object]] = None,
) -> list[dict[str, Any]]:
    """Rows with the columns of ``mmtree sweep``: n, k, variant, feedback, valuation, pool,
    ties, first_guess, max, total, average, histogram, skipped."""
def optimal(
    game_or_n: Union[Game, int],
    k: Optional[int] = None,
    objective: str = "average",
    pool: str = "all",
    max_depth: Optional[int] = None,
    time_limit: Optional[float] = None,
    stop_after_nodes: Optional[int] = None,
    *,
    memory_limit: Optional[str] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> Union[Tree, dict[str, Any]]: ...
def advise(
    game: Game,
    history: Union[str, Sequence[Union[str, Tuple[str, Union[int, Tuple[int, int]]]]], None] = None,
    valuation: str = "all",
    pool: str = "all",
    top: int = 5,
    codes: bool = False,
) -> dict[str, Any]: ...
def thesis() -> dict[str, list[dict[str, Any]]]: ...
