"""retro against the level-by-level reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
import reference as ref
from strategies import build, graphs


@given(graphs(), st.sampled_from([None, 1, 2, 3]))
def test_retro_equals_the_reference(case, threads):
    n, arcs = case
    g = build(gg, n, arcs, start=1)
    s = gg.retro(g, threads=threads)
    outcome, depth, moves = ref.retro(ref.successors(n, arcs))
    assert s.outcome.dtype == np.uint8 and s.depth.dtype == np.int64
    assert s.outcome.tolist() == outcome
    assert s.depth.tolist() == depth
    assert s.move.tolist() == moves
    assert s.answer == outcome[0] and s.start == 1
    counts = s.counts()
    assert counts == {
        "win": outcome.count(gg.WIN),
        "loss": outcome.count(gg.LOSS),
        "tie": 0,
        "draw": outcome.count(gg.DRAW),
    }


@given(graphs())
def test_line_follows_the_moves(case):
    n, arcs = case
    s = gg.retro(build(gg, n, arcs))
    assert s.answer is None
    for v in range(1, n + 1):
        line = s.line(v)
        assert line[0] == v
        for a, b in zip(line, line[1:]):
            assert s.move[a - 1] == b
        if s.outcome[v - 1] == gg.DRAW:
            assert len(set(line)) == len(line) and s.move[line[-1] - 1] in line
        else:
            assert s.move[line[-1] - 1] == 0 and len(line) == s.depth[v - 1] + 1


def test_start_override_and_errors():
    g = gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1)
    assert gg.retro(g).answer == gg.DRAW
    assert gg.retro(g, start=4).answer == gg.WIN
    assert gg.retro(g, start=5).answer == gg.LOSS
    with pytest.raises(ValueError, match=r"^start 6 is outside 1\.\.5$"):
        gg.retro(g, start=6)
    no_start = gg.retro(gg.Graph(2, [1], [2]))
    with pytest.raises(ValueError, match="no start vertex"):
        no_start.line()


def test_result_arrays_are_made_once_and_read_only():
    s = gg.retro(gg.Graph(3, [1, 2], [2, 3], start=1))
    assert s.outcome is s.outcome and s.move is s.move
    for a in (s.outcome, s.depth, s.move):
        assert a.flags.owndata or a.base is not None
        with pytest.raises(ValueError):
            a[0] = 7
