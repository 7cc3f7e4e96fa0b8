"""A game given by Python functions saved to a values file and reopened with its functions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamegraph as gg

from strategies import graphs


@st.composite
def games(draw):
    """A game on a random graph (cycles allowed), positions as ('v', id) tuples, with
    random terminal values (1 win, 2 loss, 3 tie) at the positions without moves."""
    n, arcs = draw(graphs(max_vertices=10, max_arcs=24))
    succ = {v: sorted({b for a, b in arcs if a == v}) for v in range(1, n + 1)}
    ends = draw(st.lists(st.sampled_from([1, 2, 3]), min_size=n, max_size=n))
    start = draw(st.integers(1, n))

    def moves(p):
        return [("v", w) for w in succ[p[1]]]

    def terminal(p):
        return ends[p[1] - 1]

    return ("v", start), moves, terminal


@settings(max_examples=60, deadline=None)
@given(games(), st.booleans())
def test_a_saved_game_answers_as_the_solve_does(tmp_path_factory, game, remoteness):
    start, moves, terminal = game
    solved = gg.explore(start, moves, terminal)
    path = tmp_path_factory.mktemp("own") / "game.values"
    solved.save(path, remoteness=remoteness, name="random")
    values = gg.open_values(path, start, moves, terminal, name="random")
    assert values.has_remoteness == remoteness
    for p in solved.positions:
        outcome, r = solved.value(p)
        assert values.value(p) == (outcome, r if remoteness else None)
        if remoteness:
            # Equal moves may come in another order (the file has no exploration order).
            assert sorted(values.moves(p)) == sorted(solved.moves(p))
            if solved.moves(p):
                assert values.best_move(p)[1:] == solved.best_move(p)[1:]
        assert p in values
    assert ("v", 99) not in values
    with pytest.raises(KeyError):
        values.value(("v", 99))


def test_a_key_function_stores_positions_of_any_type(tmp_path):
    moves = lambda s: [s - {x} for x in s]  # noqa: E731
    key = lambda s: ",".join(map(str, sorted(s)))  # noqa: E731
    start = frozenset({1, 2, 3, 4})
    solved = gg.explore(start, moves)
    with pytest.raises(ValueError, match="is a frozenset, whose text may differ"):
        solved.save(tmp_path / "a.values")
    solved.save(tmp_path / "a.values", key=key)
    values = gg.open_values(tmp_path / "a.values", start, moves, key=key)
    assert values.value(frozenset({1, 2})) == solved.value(frozenset({1, 2}))
    with pytest.raises(TypeError, match=r"key\(frozenset\(\{1, 2, 3, 4\}\)\) returned int, not a str"):
        solved.save(tmp_path / "b.values", key=len)
    with pytest.raises(ValueError, match="have the same key: the key must tell positions apart"):
        solved.save(tmp_path / "b.values", key=lambda s: str(len(s)))


def test_canonical_forms_are_stored_and_looked_up(tmp_path):
    # Heaps of Nim as sorted tuples; any order of the heaps is looked up.
    def moves(h):
        return [h[:i] + (k,) + h[i + 1 :] for i, n in enumerate(h) for k in range(n)]

    canonical = lambda h: tuple(sorted(h))  # noqa: E731
    solved = gg.explore((3, 1, 2), moves, canonical=canonical)
    solved.save(tmp_path / "nim.values")
    values = gg.open_values(tmp_path / "nim.values", (3, 1, 2), moves, canonical=canonical)
    assert values.value((2, 1, 3)) == solved.value((1, 2, 3)) == (gg.LOSS, 6)
    assert values.best_move((0, 1, 3))[1] == gg.WIN


def test_another_game_or_another_start_is_refused(tmp_path):
    moves = lambda n: [n - k for k in (1, 2) if k <= n]  # noqa: E731
    gg.explore(10, moves).save(tmp_path / "take.values", name="take 1 or 2")
    with pytest.raises(ValueError, match="written for python take 1 or 2, not python game"):
        gg.open_values(tmp_path / "take.values", 10, moves)
    with pytest.raises(ValueError, match="start position"):
        gg.open_values(tmp_path / "take.values", 9, moves, name="take 1 or 2")
    with pytest.raises(ValueError, match="key= and name= are for games given by Python functions"):
        gg.games.tic_tac_toe().save(tmp_path / "t.values", name="x")
    # Functions other than those of the file: a move without a value is named.
    values = gg.open_values(tmp_path / "take.values", 10, moves, name="take 1 or 2")
    with pytest.raises(ValueError, match="the move from 10 to 11 has no value in the file"):
        gg.open_values(tmp_path / "take.values", 10, lambda n: [n + 1] if n == 10 else moves(n), name="take 1 or 2").moves(10)
    assert values.moves(10) == [(9, gg.WIN, 6), (8, gg.LOSS, 5)]


def heaps_of_two(p):
    """Moves of a module-level game (picklable): take 1 or 2 from a heap."""
    return [p - k for k in (1, 2) if k <= p]


def test_an_explored_game_pickles_as_its_explore_call():
    import pickle

    solved = gg.explore(12, heaps_of_two)
    again = pickle.loads(pickle.dumps(solved))
    assert again.positions == solved.positions
    assert [again.value(p) for p in range(13)] == [solved.value(p) for p in range(13)]
    with pytest.raises(TypeError, match="a shipped game is not pickled"):
        pickle.dumps(gg.games.tic_tac_toe())


def test_play_takes_numbers_positions_hint_and_undo():
    s = gg.explore(7, heaps_of_two)
    typed = iter(["9", "hint", "5", "undo", "2", "quit"])
    shown = []
    line = s.play(input=lambda prompt: next(typed), print=lambda *a: shown.append(" ".join(map(str, a))))
    assert "not a move: type 1 to 2, a move's name, a position after a move, hint, undo or quit" in shown
    assert "hint: 1 6 (win in 5)" in shown
    # 5 (the position), the engine's 3, taken back; then move 2 (to 5) again.
    assert shown.count("engine: 3") == 2
    assert line == [7, 5, 3]
    assert shown[-1] == "game left unfinished"
    # The engine first, on a loopy game: the repetition ends it as a draw.
    rules = {"a": ["b"], "b": ["a"]}
    g = gg.explore("a", rules.get)
    out = []
    g.play(first="engine", input=lambda prompt: "1", print=out.append)
    assert out[-1] == "draw: the position repeats with the engine to move"
    with pytest.raises(ValueError, match="first is 'me' or 'engine'"):
        g.play(first="you")
