"""Games given by their rules: gg.explore on Python functions, and the shipped gg.games."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
from interrupt import assert_ctrl_c_stops

WIN, LOSS, TIE, DRAW = 1, 2, 3, 0


# --- Oracles -------------------------------------------------------------------------


def minimax(moves, terminal=lambda p: LOSS):
    """Outcome and remoteness of a position of an acyclic game, by plain recursion."""

    @functools.lru_cache(maxsize=None)
    def value(p):
        children = [value(q) for q in moves(p)]
        if not children:
            return terminal(p), 0
        losses = [r for o, r in children if o == LOSS]
        if losses:
            return WIN, 1 + min(losses)
        ties = [r for o, r in children if o == TIE]
        if ties:
            return TIE, 1 + min(ties)
        assert all(o == WIN for o, _ in children)
        return LOSS, 1 + max(r for _, r in children)

    return value


def four_outcomes(succ, term):
    """The four outcomes of every node of a transition table, by the fixpoint of their
    definition: a win has a move to a loss, a loss has only moves to wins (or is a lost
    end); a tie is neither and reaches a tied end through positions that are neither; the
    rest draw."""
    label = {}
    changed = True
    while changed:
        changed = False
        for v, out in succ.items():
            if v in label:
                continue
            if not out:
                new = term[v]
            elif any(label.get(w) == LOSS for w in out):
                new = WIN
            elif all(label.get(w) == WIN for w in out):
                new = LOSS
            else:
                continue
            if new != TIE:
                label[v] = new
                changed = True
    ties = {v for v, out in succ.items() if not out and term[v] == TIE}
    changed = True
    while changed:
        changed = False
        for v, out in succ.items():
            if v not in label and v not in ties and any(w in ties for w in out):
                ties.add(v)
                changed = True
    return {v: label.get(v, TIE if v in ties else DRAW) for v in succ}


def remoteness_by_levels(succ, term, outcome):
    """Remoteness by a plain retrograde, level by level: a position whose remoteness is k
    is found in round k from positions of remoteness k - 1."""
    r = {v: 0 for v, out in succ.items() if not out}
    for k in itertools.count(1):
        found = {}
        for v, out in succ.items():
            if v in r:
                continue
            o = outcome[v]
            if o == WIN and any(outcome[w] == LOSS and r.get(w) == k - 1 for w in out):
                found[v] = k
            elif o == LOSS and all(w in r for w in out) and max(r[w] for w in out) == k - 1:
                found[v] = k
            elif o == TIE and any(outcome[w] == TIE and r.get(w) == k - 1 for w in out):
                found[v] = k
        if not found:
            return r
        r.update(found)


# --- Games written in Python ---------------------------------------------------------


def take(*ks):
    """A subtraction game: take k objects from a heap, k in ks."""
    return lambda n: [n - k for k in ks if k <= n]


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_won(b):
    return any(b[i] != "." and b[i] == b[j] == b[k] for i, j, k in LINES)


def ttt_moves(b):
    if ttt_won(b):
        return []
    mark = "X" if b.count("X") == b.count("O") else "O"
    return [b[:i] + mark + b[i + 1 :] for i, c in enumerate(b) if c == "."]


def ttt_terminal(b):
    return LOSS if ttt_won(b) else TIE


def _symmetries():
    rot = [6, 3, 0, 7, 4, 1, 8, 5, 2]
    mirror = [2, 1, 0, 5, 4, 3, 8, 7, 6]
    perms = []
    p = list(range(9))
    for _ in range(4):
        perms.append(p)
        perms.append([p[i] for i in mirror])
        p = [p[i] for i in rot]
    return perms


SYMMETRIES = _symmetries()


def ttt_canonical(b):
    return min("".join(b[i] for i in perm) for perm in SYMMETRIES)


def notation(b):
    return "/".join(b[i : i + 3] for i in (0, 3, 6))


START = "." * 9


# --- gg.explore ----------------------------------------------------------------------


def test_subtraction_game_against_minimax():
    moves = take(1, 3, 4)
    s = gg.explore(40, moves)
    value = minimax(moves)
    assert len(s) == 41
    assert s.positions[0] == 40 and s.start == 40
    for n in range(41):
        assert s.value(n) == value(n)
        assert (s.outcome(n), s.remoteness(n)) == value(n)
    assert (s.start_outcome, s.start_remoteness) == value(40)
    assert s.outcomes.tolist() == [value(p)[0] for p in s.positions]
    assert s.remotenesses.tolist() == [value(p)[1] for p in s.positions]


def test_moves_are_listed_best_first_for_the_mover():
    s = gg.explore(10, take(1, 3, 4))
    # 9 and 7 are lost (wins for the mover, the nearer first), 6 is won.
    assert s.moves(10) == [(7, WIN, 4), (9, WIN, 6), (6, LOSS, 3)]
    assert s.best_move(10) == (7, WIN, 4)
    assert s.moves(0) == [] and s.best_move(0) is None


@pytest.mark.parametrize(
    ("canonical", "positions"), [(None, 5478), (ttt_canonical, 765)], ids=["plain", "symmetric"]
)
def test_tic_tac_toe_in_python_against_minimax(canonical, positions):
    s = gg.explore(START, ttt_moves, ttt_terminal, canonical)
    assert len(s) == positions
    assert (s.start_outcome, s.start_remoteness) == (TIE, 9)
    value = minimax(ttt_moves, ttt_terminal)
    for b in s.positions:
        assert s.value(b) == value(b)
    # Every position may be asked about, canonical or not.
    for b in ["XX.OO....", "X........", "..X......", "XOXXOOOXX"]:
        assert s.value(b) == value(b)
    assert s.value("XX.OO....") == (WIN, 1)
    assert s.counts() == {
        o: sum(1 for b in s.positions if value(b)[0] == code)
        for o, code in [("win", WIN), ("loss", LOSS), ("tie", TIE), ("draw", DRAW)]
    }


def test_graph_of_an_explored_game():
    s = gg.explore(START, ttt_moves, ttt_terminal, ttt_canonical)
    g = s.graph
    assert g.num_vertices == 765 and g.start == 1
    index = {b: i + 1 for i, b in enumerate(s.positions)}
    for b in ["X........", ".X..O...."]:
        c = ttt_canonical(b)
        expected = sorted({index[ttt_canonical(q)] for q in ttt_moves(c)})
        assert g.successors(index[c]) == expected


def test_graph_agrees_with_retro_without_ties():
    s = gg.explore(30, take(2, 5, 7))
    r = gg.retro(s.graph)
    assert r.outcome.tolist() == s.outcomes.tolist()
    assert r.depth.tolist() == s.remotenesses.tolist()


# A loopy game: a ring 0 -> 1 -> 2 -> 0 with exits; "t" is a tied end, "w" a won end.
LOOPY = {
    "s": ["a", "ring0"],
    "a": ["t", "b"],
    "b": ["a"],
    "ring0": ["ring1"],
    "ring1": ["ring2"],
    "ring2": ["ring0", "x"],
    "x": ["w"],
    "t": [],
    "w": [],
}
LOOPY_TERMINAL = {"t": TIE, "w": WIN}


def test_ties_and_draws_in_a_loopy_game():
    s = gg.explore("s", LOOPY.__getitem__, LOOPY_TERMINAL.__getitem__)
    expected = four_outcomes(LOOPY, {**LOOPY_TERMINAL})
    assert {p: s.outcome(p) for p in LOOPY} == expected
    # w is won for the player there, so x loses (its only move hands the win over), the
    # ring player at 2 wins by going to x; 1 and 0 lose and win in turn.
    assert s.value("x") == (LOSS, 1)
    assert s.value("ring2") == (WIN, 2)
    assert s.value("a") == (TIE, 1) and s.value("b") == (TIE, 2)
    assert s.value("s") == (TIE, 2)
    assert s.moves("s") == [("a", TIE, 1), ("ring0", LOSS, 4)]


def test_a_pure_cycle_is_a_draw():
    s = gg.explore(0, lambda p: [(p + 1) % 4])
    assert [s.value(p) for p in range(4)] == [(DRAW, None)] * 4
    assert s.start_remoteness is None
    assert s.remotenesses.tolist() == [-1] * 4
    assert s.moves(0) == [(1, DRAW, None)]


def test_positions_of_any_hashable_type():
    # A heap and the player to move as a tuple; the positions are kept as given.
    s = gg.explore((5, "A"), lambda p: [(p[0] - k, "B" if p[1] == "A" else "A") for k in (1, 2) if k <= p[0]])
    assert (5, "A") in s and (5, "B") not in s
    assert s.outcome((3, "B")) == LOSS
    assert all(isinstance(p, tuple) for p in s.positions)
    f = gg.explore(frozenset({1, 2}), lambda p: [p - {x} for x in p])
    assert len(f) == 4 and f.start_outcome == LOSS


def test_moves_may_be_any_iterable():
    s = gg.explore(6, lambda n: (n - k for k in (1, 2) if k <= n))
    assert len(s) == 7 and s.start_outcome == LOSS


@st.composite
def tables(draw):
    n = draw(st.integers(1, 10))
    succ = {v: draw(st.lists(st.integers(0, n - 1), max_size=4)) for v in range(n)}
    term = {v: draw(st.sampled_from([WIN, LOSS, TIE])) for v in range(n)}
    return succ, term


@given(tables())
def test_random_tables_against_the_definition(table):
    succ, term = table
    n = len(succ)
    # A start position with a move to every node makes every node reachable.
    moves = lambda v: list(range(n)) if v == -1 else succ[v]  # noqa: E731
    s = gg.explore(-1, moves, term.__getitem__)
    assert len(s) == n + 1
    outcome = four_outcomes(succ, term)
    assert {v: s.outcome(v) for v in range(n)} == outcome
    remoteness = remoteness_by_levels(succ, term, outcome)
    for v in range(n):
        if outcome[v] in (WIN, LOSS, TIE):
            assert s.remoteness(v) == remoteness[v]
        else:
            assert s.remoteness(v) is None
    for v in range(n):
        got = s.moves(v)
        assert sorted(q for q, _, _ in got) == sorted(succ[v])
        for q, o, r in got:
            flipped = {WIN: LOSS, LOSS: WIN}.get(outcome[q], outcome[q])
            assert (o, r) == (flipped, s.remoteness(q))
        rank = {WIN: 3, TIE: 2, DRAW: 1, LOSS: 0}
        keys = [(-rank[o], -(r or 0) if o == LOSS else (r or 0)) for _, o, r in got]
        assert keys == sorted(keys)


@given(st.integers(0, 60), st.lists(st.integers(1, 6), min_size=1, max_size=3, unique=True))
def test_subtraction_games_against_minimax(start, ks):
    moves = take(*ks)
    s = gg.explore(start, moves)
    value = minimax(moves)
    assert [s.value(p) for p in s.positions] == [value(p) for p in s.positions]


# --- Errors --------------------------------------------------------------------------


def test_unreachable_position_raises_key_error():
    s = gg.explore(10, take(2))
    with pytest.raises(KeyError):
        s.outcome(7)
    with pytest.raises(KeyError):
        s.moves(11)
    assert 7 not in s and 8 in s


def test_bad_terminal_value_names_the_position():
    with pytest.raises(ValueError, match=r"terminal\('end'\) returned 4, not 1 \(win\)"):
        gg.explore("start", lambda p: ["end"] if p == "start" else [], lambda p: 4)
    with pytest.raises(ValueError, match=r"terminal\(0\) returned None"):
        gg.explore(0, lambda p: [], lambda p: None)


class Boom(Exception):
    pass


def test_callback_exceptions_propagate():
    def moves(n):
        if n == 3:
            raise Boom("moves")
        return take(1)(n)

    with pytest.raises(Boom, match="moves"):
        gg.explore(5, moves)

    def terminal(p):
        raise Boom("terminal")

    with pytest.raises(Boom, match="terminal"):
        gg.explore(2, take(1), terminal)

    def canonical(p):
        raise Boom("canonical")

    with pytest.raises(Boom, match="canonical"):
        gg.explore(2, take(1), canonical=canonical)
    with pytest.raises(TypeError):
        gg.explore(2, lambda n: 3)  # not an iterable
    with pytest.raises(TypeError):
        gg.explore([1], lambda p: [])  # not hashable


def test_max_positions():
    assert len(gg.explore(9, take(1), max_positions=10)) == 10
    with pytest.raises(ValueError, match="more than 9 positions are reachable"):
        gg.explore(9, take(1), max_positions=9)
    with pytest.raises(ValueError, match="max_positions must be"):
        gg.explore(9, take(1), max_positions=0)


# --- gg.games ------------------------------------------------------------------------


def test_tic_tac_toe():
    t = gg.games.tic_tac_toe()
    assert (len(t), t.start_outcome, t.start_remoteness) == (765, TIE, 9)
    assert t.name == "tic-tac-toe" and t.start == ".../.../..."
    assert t.value("XX./OO./...") == (WIN, 1)
    assert t.moves("XX./OO./...")[0] == ("XXX/OO./...", WIN, 0)
    assert len(gg.games.tic_tac_toe(symmetry=False)) == 5478


@pytest.mark.parametrize("symmetry", [False, True])
def test_tic_tac_toe_equals_the_python_rules(symmetry):
    shipped = gg.games.tic_tac_toe(symmetry=symmetry)
    canonical = ttt_canonical if symmetry else None
    ours = gg.explore(START, ttt_moves, ttt_terminal, canonical)
    assert len(ours) == len(shipped)
    assert shipped.counts() == ours.counts()
    assert shipped.graph.num_arcs == ours.graph.num_arcs
    for b in ours.positions:
        text = notation(b)
        assert text in shipped
        assert shipped.value(text) == ours.value(b)
        got = shipped.moves(text)
        want = [(notation(q), o, r) for q, o, r in ours.moves(b)]
        assert [m[1:] for m in got] == [m[1:] for m in want]
        assert sorted(got) == sorted(want)


def test_connect_four_4x4():
    c = gg.games.connect_four(4, 4)
    assert (c.start_outcome, c.start_remoteness) == (TIE, 16)
    assert c.name == "connect-four --cols 4 --rows 4"
    assert len(c) == len(c.positions) == c.graph.num_vertices


def test_connect_four_positions_and_moves():
    c = gg.games.connect_four(4, 4)
    position = "..../O.../OO../XXX."
    assert c.value(position) == (WIN, 1)
    assert c.best_move(position) == ("..../O.../OO../XXXX", WIN, 0)
    with pytest.raises(ValueError, match="fit|64"):
        gg.games.connect_four(9, 7)


@pytest.mark.parametrize("n", range(1, 16))
def test_a_single_row_of_kayles_is_a_first_player_win(n):
    assert gg.games.kayles(n).start_outcome == WIN


def test_kayles_rows_follow_their_grundy_values():
    g = gg.octal("0.77", upto=12).values.tolist()
    for a, b in itertools.combinations_with_replacement(range(1, 9), 2):
        k = gg.games.kayles([a, b])
        assert k.start_outcome == (LOSS if g[a] ^ g[b] == 0 else WIN), (a, b)
    k = gg.games.kayles([3, 5, 6])
    for p in k.positions:
        rows = [int(x) for x in p.split()]
        nim = functools.reduce(lambda x, y: x ^ y, (g[r] for r in rows), 0)
        assert k.outcome(p) == (LOSS if nim == 0 else WIN)


def test_dawsons_kayles_and_octal_follow_their_grundy_values():
    for code, rows in [("0.07", [9, 4]), ("0.137", [8]), ("4.07", [5, 3])]:
        g = gg.octal(code, upto=12).values.tolist()
        game = gg.games.dawsons_kayles(rows) if code == "0.07" else gg.games.octal(code, rows)
        for p in game.positions:
            rows_p = [int(x) for x in p.split() if x != "0"]
            nim = functools.reduce(lambda x, y: x ^ y, (g[r] for r in rows_p), 0)
            assert game.outcome(p) == (LOSS if nim == 0 else WIN), (code, p)


def test_chase_has_draws():
    assert gg.games.chase(3).start_outcome == WIN
    c = gg.games.chase(8)
    assert c.start_outcome == DRAW and c.start_remoteness is None
    assert c.counts()["draw"] > 0
    assert c.moves(c.start)[0][1] == DRAW


def test_tab_board_agrees_with_gg_tab():
    for x, y in [(5, 3), (4, 3), (7, 1), (2, 2)]:
        t = gg.games.tab(10, 4, x, y)
        assert (t.start_outcome == LOSS) == (gg.tab(10, 4, x, y) == 0)


def test_shipped_graph_agrees_with_retro():
    k = gg.games.kayles([5, 4])
    r = gg.retro(k.graph)
    assert k.graph.start == 1 + k.positions.index(k.start)
    assert r.outcome.tolist() == k.outcomes.tolist()
    assert r.depth.tolist() == k.remotenesses.tolist()


def test_bad_notation_raises_value_error_with_the_column():
    t = gg.games.tic_tac_toe()
    with pytest.raises(ValueError, match=r'invalid position "XX\./OZ\./\.\.\.": column 6'):
        t.outcome("XX./OZ./...")
    with pytest.raises(ValueError, match="column"):
        t.moves("XX./OO")
    with pytest.raises(ValueError, match="column"):
        gg.games.kayles(5).outcome("3 x")
    with pytest.raises(TypeError):
        t.outcome(3)


def test_unreachable_notation_raises_key_error():
    t = gg.games.tic_tac_toe()
    with pytest.raises(KeyError):
        t.outcome("XXX/OOO/...")  # the game ended at X's line
    k = gg.games.kayles(5)
    with pytest.raises(KeyError):
        k.outcome("6")
    assert "4" in k and "6" not in k


def test_bad_game_arguments():
    with pytest.raises(ValueError, match="longer"):
        gg.games.kayles(64)
    with pytest.raises(ValueError, match="octal"):
        gg.games.octal("0.8", 3)
    with pytest.raises(ValueError):
        gg.games.chase(2)
    with pytest.raises(ValueError, match="more than 10 positions"):
        gg.games.kayles(9, max_positions=10)


def test_threads_give_the_same_answer():
    one = gg.games.kayles([7, 6], threads=1)
    two = gg.games.kayles([7, 6], threads=2)
    assert one.positions == two.positions
    assert np.array_equal(one.outcomes, two.outcomes)
    assert np.array_equal(one.remotenesses, two.remotenesses)


@pytest.mark.parametrize(
    ("name", "args", "remoteness"),
    [
        ("tic_tac_toe", (), True),
        ("tic_tac_toe", (), False),
        ("connect_four", (4, 3), True),
        ("kayles", ([6, 5],), True),
        ("dawsons_kayles", (9,), True),
        ("octal", ("0.137", [7, 2]), True),
        ("chase", (8,), True),
        ("tab", (12, 4, 5, 3), True),
    ],
)
def test_values_file_answers_as_the_solved_game(tmp_path, name, args, remoteness):
    solved = getattr(gg.games, name)(*args)
    path = tmp_path / f"{name}.values"
    solved.save(path, remoteness=remoteness)
    stored = gg.games.open_values(path, name, *args)
    assert stored.has_remoteness == remoteness
    for p in solved.positions[:500]:
        o, r = solved.value(p)
        assert stored.value(p) == (o, r if remoteness else None)
        assert stored.outcome(p) == o
        want = solved.moves(p)
        got = stored.moves(p)
        if remoteness:
            assert got == want
        else:
            assert sorted(q for q, _, _ in got) == sorted(q for q, _, _ in want)


def test_values_file_errors(tmp_path):
    path = tmp_path / "k.values"
    gg.games.kayles(5).save(path)
    stored = gg.games.open_values(str(path), "kayles", 5)
    with pytest.raises(KeyError):
        stored.outcome("6")
    with pytest.raises(ValueError, match="column"):
        stored.moves("x")
    with pytest.raises(ValueError, match="written for kayles 5, not kayles 6"):
        gg.games.open_values(path, "kayles", 6)
    with pytest.raises(ValueError, match="written for kayles 5, not dawsons-kayles 5"):
        gg.games.open_values(path, "dawsons_kayles", 5)
    ttt = tmp_path / "ttt.values"
    gg.games.tic_tac_toe().save(ttt)
    with pytest.raises(ValueError, match="with symmetry, not tic-tac-toe without symmetry"):
        gg.games.open_values(ttt, "tic_tac_toe", symmetry=False)
    with pytest.raises(TypeError, match="takes 1 game argument"):
        gg.games.open_values(path, "kayles")
    with pytest.raises(ValueError, match="unknown game"):
        gg.games.open_values(path, "chess")
    with pytest.raises(FileNotFoundError):
        gg.games.open_values(tmp_path / "missing.values", "kayles", 5)
    with pytest.raises(FileNotFoundError):
        gg.games.kayles(5).save(tmp_path / "missing" / "k.values")
    damaged = bytearray(path.read_bytes())
    damaged[-1] ^= 0xFF
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="checksum"):
        gg.games.open_values(path, "kayles", 5).outcome("5")
    path.write_bytes(b"not a values file")
    with pytest.raises(ValueError, match="not a values file"):
        gg.games.open_values(path, "kayles", 5)


# --- The command line agrees ---------------------------------------------------------

WORDS = {"win": WIN, "loss": LOSS, "tie": TIE, "draw": DRAW}


def test_command_reads_the_values_file_python_writes(cli, tmp_path):
    path = tmp_path / "kayles.values"
    solved = gg.games.kayles([6, 5])
    solved.save(path)
    for p in ["6 5", "4 3 1", "2"]:
        out = cli("game", "kayles", "6,5", "query", "--results", str(path), "--json", p)
        assert (WORDS[out["outcome"]], out["remoteness"]) == solved.value(p)
        assert [(m["position"], WORDS[m["outcome"]], m["remoteness"]) for m in out["moves"]] == solved.moves(p)


def test_python_reads_the_values_file_the_command_writes(cli, tmp_path):
    path = tmp_path / "ttt.values"
    summary = cli("game", "tic-tac-toe", "solve", "--explicit", "--json", "-o", str(path))
    solved = gg.games.tic_tac_toe()
    assert summary["positions"] == len(solved)
    assert summary["counts"] == solved.counts()
    stored = gg.games.open_values(path, "tic_tac_toe")
    for p in solved.positions:
        assert stored.value(p) == solved.value(p)
        assert stored.moves(p) == solved.moves(p)


def test_ctrl_c_stops_an_exploration():
    # No end: only Ctrl-C stops it.
    assert_ctrl_c_stops(lambda: gg.explore(0, lambda n: [n + 1, n + 2]))


def test_ctrl_c_stops_a_shipped_game_solve():
    assert_ctrl_c_stops(lambda: gg.games.connect_four(6, 4))  # about a minute to solve


def test_open_values_refuses_what_is_no_regular_file_before_opening_it(tmp_path):
    import os
    import re

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, why in [
        (tmp_path, "a directory"),
        (fifo, "a FIFO"),
        ("/proc/self/status", "a file without a size (as those of /proc and /sys)"),
    ]:
        with pytest.raises(ValueError, match=re.escape(f"{path}: {why}, not a values file")):
            gg.games.open_values(path, "kayles", [3])
