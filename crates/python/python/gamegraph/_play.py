"""Play against perfect play, in a terminal or a notebook: ``SolvedGame.play()``."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Optional

_WORDS = {1: "win", 2: "loss", 3: "tie", 0: "draw"}


def _value(outcome: Any, remoteness: Optional[int]) -> str:
    """A move's value for the player who makes it: the remoteness after it counts the move."""
    word = _WORDS[int(outcome)]
    return word if remoteness is None else f"{word} in {remoteness + 1}"


def play(
    game: Any,
    *,
    first: str = "me",
    start: Any = None,
    show: Optional[Callable[[Any], str]] = None,
    input: Callable[[str], str] = builtins.input,
    print: Callable[..., None] = builtins.print,
) -> list:
    """Plays ``game`` (a SolvedGame) from its start (or ``start``) against perfect play.

    Each turn shows the position (``show(p)`` when given; otherwise the game's board when
    it draws one, as ``game.board(p)``, or the position itself) and its moves, numbered and
    named as the game names them (``column 4``, ``b2``; the position after the move for a
    game that names none), each with its value for the player who makes it. A move is
    typed as its number, its name or the position it leads to; ``hint`` names
    the best move, ``undo`` takes back your last move and the engine's reply, ``quit``
    (or an empty input stream) stops. The engine plays the best move: the winner hurries,
    the loser delays, a tie or a draw is kept. A position that comes back with the same
    player to move ends the game as a draw. Returns the positions played, the first one
    first.
    """
    if first not in ("me", "engine"):
        raise ValueError(f"first is 'me' or 'engine', not {first!r}")
    line = [game.start if start is None else start]
    game.value(line[0])  # KeyError for a position that is not reachable
    me = first == "me"
    def picture(p: Any) -> Any:
        if show is not None:
            return show(p)
        board = game.board(p)
        return p if board is None else str(board).rstrip("\n")

    def name(p: Any, q: Any) -> str:
        named = game.move_name(p, q)
        return str(q) if named is None else named

    while True:
        p = line[-1]
        print(picture(p))
        moves = game.moves(p)
        names = [name(p, q) for q, _, _ in moves]
        who = "you" if me else "the engine"
        if not moves:
            outcome = int(game.outcome(p))
            if outcome == 3:
                print("a tie: the game is over and nobody wins")
            elif (outcome == 2) == me:
                print("the engine wins")
            else:
                print("you win")
            return line
        if p in line[:-1] and (len(line) - 1 - line.index(p)) % 2 == 0:
            print(f"draw: the position repeats with {who} to move")
            return line
        print(f"{who} to move: " + ", ".join(
            f"{i} {n} ({_value(o, r)})" for i, (n, (_, o, r)) in enumerate(zip(names, moves), 1)))
        if not me:
            q = moves[0][0]
            print(f"engine: {names[0]}")
            line.append(q)
            me = True
            continue
        while True:
            try:
                text = input("your move: ").strip()
            except EOFError:
                text = "quit"
            if text == "quit":
                print("game left unfinished")
                return line
            if text == "hint":
                _, o, r = moves[0]
                print(f"hint: 1 {names[0]} ({_value(o, r)})")
                continue
            if text == "undo":
                if len(line) >= 3:
                    del line[-2:]
                    break
                print("nothing to take back")
                continue
            chosen = None
            if text.isdigit() and 1 <= int(text) <= len(moves):
                chosen = moves[int(text) - 1][0]
            else:
                chosen = next((q for n, (q, _, _) in zip(names, moves)
                               if text in (n, str(q), repr(q))), None)
            if chosen is None:
                print(f"not a move: type 1 to {len(moves)}, a move's name, a position after a move, "
                      "hint, undo or quit")
                continue
            line.append(chosen)
            me = False
            break
