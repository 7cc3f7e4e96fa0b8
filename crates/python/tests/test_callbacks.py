"""A game given by Python functions: a callback that breaks the rules is named, with the
position it was called on."""

from __future__ import annotations

import sys

import pytest

import gamegraph as gg


def heap(n):
    return [n - k for k in (1, 2) if k <= n]


def test_moves_returning_none_names_the_call():
    with pytest.raises(TypeError, match=r"moves\(7\) returned NoneType, not an iterable of positions"):
        gg.explore(10, lambda n: None if n == 7 else heap(n))


def test_an_unhashable_position_is_named():
    with pytest.raises(TypeError, match=r"the position \[1, 2\] is a list, which is not hashable"):
        gg.explore(0, lambda n: [[1, 2]] if n == 0 else [])


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11")
def test_an_error_in_a_callback_carries_the_call():
    def moves(n):
        if n == 4:
            raise KeyError("no rule for 4")
        return heap(n)

    with pytest.raises(KeyError) as e:
        gg.explore(10, moves)
    assert e.value.__notes__ == ["raised by moves(4)"]

    def terminal(n):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError) as e:
        gg.explore(1, heap, terminal)
    assert e.value.__notes__ == ["raised by terminal(0)"]


def test_a_canonical_that_does_not_commute_is_refused():
    with pytest.raises(ValueError, match=r"canonical breaks its contract: canonical\(10\) is 0"):
        gg.explore(10, heap, canonical=lambda n: n % 2)


def test_a_canonical_that_is_not_idempotent_is_refused():
    with pytest.raises(ValueError, match=r"canonical\(.*\) is .*, not itself"):
        gg.explore(3, heap, canonical=lambda n: n + 100 if n < 100 else n - 100)


def test_a_canonical_that_changes_terminal_values_is_refused():
    # 1 is a win for the player to move there, -1 a tie; folding by abs merges them.
    def moves(p):
        return [1, -1] if p == 3 else []

    def terminal(p):
        return 1 if p == 1 else 3

    with pytest.raises(ValueError, match=r"terminal\(-1\) is Tie but terminal\(1\) of its canonical form is Win"):
        gg.explore(3, moves, terminal, canonical=abs)


def test_a_lawful_canonical_passes():
    # Two heaps, order does not matter: sorted tuples are the canonical form.
    def moves(p):
        a, b = p
        return [(a - k, b) for k in (1, 2) if k <= a] + [(a, b - k) for k in (1, 2) if k <= b]

    s = gg.explore((3, 5), moves, canonical=lambda p: tuple(sorted(p)))
    plain = gg.explore((3, 5), moves)
    assert s.start_outcome == plain.start_outcome and len(s) < len(plain)
