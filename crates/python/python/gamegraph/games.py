"""The games shipped with gamegraph, solved in Rust, one call away.

Each function explores every position reachable from the game's start (in parallel, the
GIL released) and solves it, returning a ``SolvedGame`` whose positions are the game's
text notation (strings): outcome 1 (the player to move wins), 2 (loses), 3 (a tie) or 0
(a draw), the remoteness, and the value of every move. ``SolvedGame.save`` writes a
values file, and ``open_values`` answers queries from one without solving again.
``named`` solves a game named as ``gamegraph game`` names it (``"connect-four --cols 5
--rows 4"``), and ``registry`` lists those names. ``solve_tiers`` solves a game a tier at a time into a directory instead (memory holds one
tier, never the whole game; an interrupted solve resumes), and ``open_tiers`` answers
queries from it. A position that is no position of the game raises ``ValueError`` with
the column where its text goes wrong; one that cannot be reached from the start raises
``KeyError``.

>>> import gamegraph as gg
>>> t = gg.games.tic_tac_toe()
>>> t.outcome("XX./OO./..."), t.best_move("XX./OO./...")
(Outcome.WIN, ('XXX/OO./...', Outcome.WIN, 0))
"""

from ._native import (
    chase,
    connect_four,
    dawsons_kayles,
    kayles,
    named,
    open_tiers,
    open_values,
    quixo,
    registry,
    solve_tiers,
    tic_tac_toe,
)
from ._native import octal_rows as octal
from ._native import tab_board as tab

__all__ = [
    "chase",
    "connect_four",
    "dawsons_kayles",
    "kayles",
    "named",
    "octal",
    "open_tiers",
    "open_values",
    "quixo",
    "registry",
    "solve_tiers",
    "tab",
    "tic_tac_toe",
]
