"""The four outcomes of a position, for the player to move."""

from __future__ import annotations

from enum import IntEnum


class Outcome(IntEnum):
    """The value of a position with best play, for the player to move.

    The members equal the outcome codes of the ``gamegraph`` command (``answer`` in its
    JSON), so ``Outcome.WIN == 1`` and an outcome compares equal to its code; ``str`` gives
    the word of the command's JSON (``"win"``, ``"loss"``, ``"tie"``, ``"draw"``).

    >>> Outcome.WIN == 1, str(Outcome.TIE), Outcome(0)
    (True, 'tie', Outcome.DRAW)
    """

    #: Play goes on for ever: neither player can force an end.
    DRAW = 0
    #: The player to move wins.
    WIN = 1
    #: The player to move loses.
    LOSS = 2
    #: The game ends in a tie: over, and nobody won.
    TIE = 3

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def word(self) -> str:
        """The word of the command's JSON: ``"win"``, ``"loss"``, ``"tie"`` or ``"draw"``."""
        return self.name.lower()
