"""mmtree: complete strategy trees for Mastermind-like code-breaking games, from Python.

The same engine as the ``mmtree`` command-line tool (no second implementation): build the
tree of a game under a guess rule, sweep grids of games into rows for pandas, search the
exact optimum, ask the advisor, recompute the thesis's tables.

>>> import mmtree
>>> mmtree.solve(4, 6, "entropy").total
5722
>>> rows = mmtree.sweep(n=2, k=[3, 4], valuations="expected-size")
>>> [(r["k"], r["total"]) for r in rows]
[(3, 21), (4, 45)]

Bad input raises ``ValueError`` and a failure of the work ``RuntimeError``, with the CLI's
one-line messages. Long work releases the GIL; Ctrl-C raises ``KeyboardInterrupt``.
"""

from ._mmtree import (
    MAX_COLOURS,
    MAX_PEGS,
    Game,
    Tree,
    advise,
    load,
    optimal,
    solve,
    sweep,
    thesis,
    verify,
)

__all__ = [
    "MAX_COLOURS",
    "MAX_PEGS",
    "Game",
    "Tree",
    "advise",
    "load",
    "optimal",
    "solve",
    "sweep",
    "thesis",
    "verify",
]
