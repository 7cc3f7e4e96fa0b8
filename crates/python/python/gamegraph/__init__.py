"""Exact solvers for impartial games, with NumPy arrays in and out.

Games on directed graphs (win / lose / draw, depth, optimal moves), kernels and stable
sets, Grundy values (also on graphs with cycles), sums of tokens and heaps, heap games
with misère play and Moore's Nim_k, octal and subtraction games with proven periods, and
the tab board game; games given by their rules, as Python functions (``explore``) or
shipped with the package (``gamegraph.games``), solved with four outcomes (win, loss,
tie, draw) and remoteness.

Vertex ids are 1-based, as in the graph files and the ``gamegraph`` command. Solves
release the GIL and run on a thread pool built for the call (``threads=``). Bad input
raises ``ValueError`` with the command's message (``FILE:LINE:COL: message`` for a graph
file); a time or work limit raises ``TimeoutError``, and Ctrl-C stops the long calls.
``verify_retro`` and its siblings check an answer with code apart from the solvers.

>>> import gamegraph as gg
>>> g = gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1)
>>> gg.retro(g).answer == gg.DRAW
True
"""

from ._native import (
    Board,
    ExploredValuesFile,
    Graph,
    GrundyValues,
    HeapMove,
    Infinite,
    KernelIter,
    Retro,
    Sequence,
    SolvedGame,
    TabBoard,
    TabPeriod,
    TierSummary,
    TierValues,
    TokenMove,
    ValuesFile,
    Verdict,
    alpha,
    beta,
    count_kernels,
    explore,
    grundy,
    kernel,
    kernel_cnf,
    kernels,
    nim,
    octal,
    play_sum,
    read_graph,
    retro,
    subtraction,
    tab,
    verify_grundy,
    verify_kernel,
    verify_kernel_none,
    verify_octal,
    verify_retro,
    verify_subtraction,
    write_graph,
)
from ._native import open_explored_values as open_values
from ._outcome import Outcome
from ._serve import serve
from . import games

#: A position the player to move wins (``Outcome.WIN``, equal to its code 1).
WIN = Outcome.WIN
#: A position the player to move loses (``Outcome.LOSS``, equal to its code 2).
LOSS = Outcome.LOSS
#: A draw: best play goes on for ever (``Outcome.DRAW``, equal to its code 0).
DRAW = Outcome.DRAW
#: A tie: the game ends and nobody wins (``Outcome.TIE``, equal to its code 3).
TIE = Outcome.TIE

__all__ = [
    "DRAW",
    "LOSS",
    "TIE",
    "WIN",
    "Outcome",
    "Board",
    "ExploredValuesFile",
    "Graph",
    "GrundyValues",
    "HeapMove",
    "Infinite",
    "KernelIter",
    "Retro",
    "Sequence",
    "SolvedGame",
    "TabBoard",
    "TabPeriod",
    "TierSummary",
    "TierValues",
    "TokenMove",
    "ValuesFile",
    "Verdict",
    "alpha",
    "beta",
    "count_kernels",
    "explore",
    "games",
    "grundy",
    "kernel",
    "kernel_cnf",
    "kernels",
    "nim",
    "octal",
    "open_values",
    "play_sum",
    "read_graph",
    "retro",
    "serve",
    "subtraction",
    "tab",
    "verify_grundy",
    "verify_kernel",
    "verify_kernel_none",
    "verify_octal",
    "verify_retro",
    "verify_subtraction",
    "write_graph",
]

__version__ = "0.1.0"
