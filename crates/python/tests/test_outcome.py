"""Outcomes are one IntEnum, equal to the command's codes, worded as its JSON."""

from __future__ import annotations

import pickle

import gamegraph as gg


def test_outcomes_equal_their_codes_and_words():
    assert [gg.Outcome(c) for c in range(4)] == [gg.DRAW, gg.WIN, gg.LOSS, gg.TIE]
    assert (gg.WIN, gg.LOSS, gg.TIE, gg.DRAW) == (1, 2, 3, 0)
    assert [str(o) for o in gg.Outcome] == ["draw", "win", "loss", "tie"]
    assert [o.word for o in gg.Outcome] == ["draw", "win", "loss", "tie"]
    assert repr(gg.TIE) == "Outcome.TIE"
    assert pickle.loads(pickle.dumps(gg.WIN)) is gg.WIN


def test_every_answer_is_an_outcome():
    t = gg.games.tic_tac_toe()
    outcome, remoteness = t.value(t.start)
    assert outcome is gg.TIE and remoteness == 9
    assert t.start_outcome is gg.TIE and t.outcome(t.start) is gg.TIE
    assert all(type(m[1]) is gg.Outcome for m in t.moves(t.start))
    g = gg.Graph(2, [1], [2], start=1)
    assert gg.retro(g).answer is gg.WIN
    assert gg.nim([3, 5, 6])[0] is gg.LOSS
    assert type(gg.play_sum(g, tokens=[1])[0]) is gg.Outcome


def test_a_solved_game_shows_its_value_and_moves_in_a_notebook():
    t = gg.games.tic_tac_toe()
    page = t._repr_html_()
    assert "tic-tac-toe: 765 positions" in page and "tie in 9 for the player to move" in page
    assert "390 win, 224 loss, 151 tie, 0 draw" in page
    assert page.count("<tr>") == 1 + len(t.moves(t.start))
    s = gg.explore(10, lambda n: [n - k for k in (1, 2) if k <= n])
    assert "a game given by Python functions: 11 positions" in s._repr_html_()
