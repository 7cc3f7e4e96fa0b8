"""Shipped games solved tier by tier into a directory (gg.games.solve_tiers) and queried
from it (gg.games.open_tiers), against the solve in memory; Quixo in memory."""

from __future__ import annotations

import time

import pytest

import gamegraph as gg
from interrupt import assert_ctrl_c_stops

WIN, LOSS, TIE, DRAW = 1, 2, 3, 0

GAMES = [
    ("tic_tac_toe", (), {}),
    ("tic_tac_toe", (), {"symmetry": False}),
    ("connect_four", (4, 4), {}),
    ("connect_four", (4, 3), {"symmetry": False}),
    ("kayles", ([6, 5],), {}),
    ("dawsons_kayles", (9,), {}),
    ("octal", ("0.137", [7, 2]), {}),
    ("quixo", (3,), {}),
    ("chase", (8,), {}),
    ("tab", (12, 4, 5, 3), {}),
]


def in_memory(name, args, kwargs):
    return getattr(gg.games, name)(*args, **kwargs)


@pytest.mark.parametrize(("name", "args", "kwargs"), GAMES)
def test_tier_solve_answers_as_the_solve_in_memory(tmp_path, name, args, kwargs):
    solved = in_memory(name, args, kwargs)
    summary = gg.games.solve_tiers(tmp_path, name, *args, **kwargs)
    assert summary.positions == len(solved)
    assert (summary.start, summary.start_outcome, summary.start_remoteness) == (
        solved.start,
        solved.start_outcome,
        solved.start_remoteness,
    )
    counts = solved.counts()
    assert (summary.wins, summary.losses, summary.ties, summary.draws) == (
        counts["win"],
        counts["loss"],
        counts["tie"],
        counts["draw"],
    )
    assert summary.resumed == 0 and summary.tiers >= 1 and summary.file_bytes > 0
    stored = gg.games.open_tiers(tmp_path, name, *args, **kwargs)
    assert stored.has_remoteness
    for p in solved.positions:
        assert stored.value(p) == solved.value(p), p
    for p in solved.positions[:300]:
        assert stored.moves(p) == solved.moves(p), p
        assert stored.best_move(p) == solved.best_move(p)
        assert stored.outcome(p) == solved.outcome(p)
        assert stored.remoteness(p) == solved.remoteness(p)


def test_quixo_in_memory():
    q = gg.games.quixo(3)
    assert q.name == "quixo 3"
    assert q.start == ".../.../... x"
    without = gg.games.quixo(3, symmetry=False)
    assert len(without) > len(q)
    assert without.value(q.start) == q.value(q.start)
    # Every position's value is that of its canonical form.
    for p in without.positions[:2000]:
        assert without.value(p) == q.value(p)
    with pytest.raises(ValueError, match="side of 3 to 5"):
        gg.games.quixo(6)
    with pytest.raises(ValueError, match="column"):
        q.outcome(".../.Q./... x")
    with pytest.raises(ValueError, match="more than 100 positions"):
        gg.games.quixo(3, max_positions=100)


def test_open_values_takes_quixo(tmp_path):
    q = gg.games.quixo(3)
    path = tmp_path / "quixo.values"
    q.save(path)
    stored = gg.games.open_values(path, "quixo", 3)
    assert "quixo 3x3 with symmetry" in repr(stored)
    for p in q.positions[:500]:
        assert stored.value(p) == q.value(p)
        assert stored.moves(p) == q.moves(p)
    with pytest.raises(ValueError, match="not quixo 3x3 without symmetry"):
        gg.games.open_values(path, "quixo", 3, symmetry=False)


def test_resume_takes_every_step_from_the_directory(tmp_path):
    first = gg.games.solve_tiers(tmp_path, "connect_four", 4, 3)
    again = gg.games.solve_tiers(str(tmp_path), "connect_four", 4, 3)
    assert first.resumed == 0
    assert again.resumed == 2 * again.tiers
    for field in ["positions", "tiers", "file_bytes", "start", "start_outcome", "start_remoteness"]:
        assert getattr(again, field) == getattr(first, field), field
    assert (again.wins, again.losses, again.ties, again.draws) == (
        first.wins,
        first.losses,
        first.ties,
        first.draws,
    )
    solved = gg.games.connect_four(4, 3)
    stored = gg.games.open_tiers(tmp_path, "connect_four", 4, 3)
    for p in solved.positions:
        assert stored.value(p) == solved.value(p)


def test_without_remoteness(tmp_path):
    solved = gg.games.kayles([6, 5])
    summary = gg.games.solve_tiers(tmp_path, "kayles", [6, 5], remoteness=False)
    assert summary.start_remoteness is None
    stored = gg.games.open_tiers(tmp_path, "kayles", [6, 5])
    assert not stored.has_remoteness
    for p in solved.positions:
        assert stored.value(p) == (solved.outcome(p), None)
        assert stored.remoteness(p) is None
        assert sorted(q for q, _, _ in stored.moves(p)) == sorted(q for q, _, _ in solved.moves(p))
    # The directory holds other settings: refused, not mixed.
    with pytest.raises(ValueError, match="with no remoteness"):
        gg.games.solve_tiers(tmp_path, "kayles", [6, 5])


def test_another_games_directory_is_refused(tmp_path):
    gg.games.solve_tiers(tmp_path, "kayles", 5)
    with pytest.raises(ValueError, match="holds kayles 5 .*, not kayles 6"):
        gg.games.solve_tiers(tmp_path, "kayles", 6)
    with pytest.raises(ValueError, match="holds kayles 5 .*, not dawsons-kayles 5"):
        gg.games.solve_tiers(tmp_path, "dawsons_kayles", 5)
    with pytest.raises(ValueError, match="holds kayles 5 .*, not tic-tac-toe"):
        gg.games.open_tiers(tmp_path, "tic_tac_toe")
    ttt = tmp_path / "ttt"
    gg.games.solve_tiers(ttt, "tic_tac_toe")
    with pytest.raises(ValueError, match=r"a directory, not a values file \(open_tiers\(\) opens"):
        gg.games.open_values(ttt, "tic_tac_toe")
    with pytest.raises(ValueError, match="holds tic-tac-toe with symmetry"):
        gg.games.open_tiers(ttt, "tic_tac_toe", symmetry=False)


def test_positions_that_are_bad_or_unreachable(tmp_path):
    gg.games.solve_tiers(tmp_path, "kayles", [4, 7])
    stored = gg.games.open_tiers(tmp_path, "kayles", [4, 7])
    with pytest.raises(ValueError, match=r'invalid position "4 x": column 3'):
        stored.value("4 x")
    with pytest.raises(ValueError, match="column"):
        stored.moves("4 x")
    for p in ["8", "20", "11 1"]:  # more pins than the start, or rows it never leaves
        with pytest.raises(KeyError):
            stored.outcome(p)
        with pytest.raises(KeyError):
            stored.best_move(p)
    assert stored.best_move("0") is None
    assert stored.value("0") == (LOSS, 0)
    assert repr(stored).startswith(f"TierValues(directory='{tmp_path}', game='kayles 4,7'")


def test_bad_arguments_and_directories(tmp_path):
    with pytest.raises(ValueError, match="unknown game"):
        gg.games.solve_tiers(tmp_path, "chess")
    with pytest.raises(TypeError, match="solve_tiers for connect_four takes 2 game argument"):
        gg.games.solve_tiers(tmp_path, "connect_four", 4)
    with pytest.raises(TypeError, match="open_tiers for quixo takes 1 game argument"):
        gg.games.open_tiers(tmp_path, "quixo")
    with pytest.raises(ValueError, match="side of 3 to 5"):
        gg.games.solve_tiers(tmp_path, "quixo", 2)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        gg.games.solve_tiers(tmp_path, "kayles", 3, threads=0)
    with pytest.raises(ValueError, match="max_memory"):
        gg.games.solve_tiers(tmp_path, "kayles", 3, max_memory=0)
    with pytest.raises(FileNotFoundError):
        gg.games.open_tiers(tmp_path / "missing", "kayles", 3)
    with pytest.raises(ValueError, match="not the results of solve_tiers"):
        gg.games.open_tiers(tmp_path, "kayles", 3)
    file = tmp_path / "file"
    file.write_text("")
    with pytest.raises(NotADirectoryError):
        gg.games.open_tiers(file, "kayles", 3)
    with pytest.raises(OSError, match="file"):
        gg.games.solve_tiers(file / "sub", "kayles", 3)
    damaged = tmp_path / "damaged"
    gg.games.solve_tiers(damaged, "kayles", 5)
    (damaged / "manifest").write_text("gamegraph-tiers 2\nnot a game line\n")
    with pytest.raises(ValueError, match="manifest: line 2: expected game"):
        gg.games.open_tiers(damaged, "kayles", 5)


def test_a_tier_larger_than_max_memory_is_refused_before_any_work(tmp_path):
    out = tmp_path / "c4"
    with pytest.raises(MemoryError, match="more than the .* allowed: give a larger max_memory"):
        gg.games.solve_tiers(out, "connect_four", 5, 4, max_memory=1000)
    assert not out.exists()


def test_threads_give_the_same_files(tmp_path):
    one = gg.games.solve_tiers(tmp_path / "one", "connect_four", 4, 4, threads=1)
    two = gg.games.solve_tiers(tmp_path / "two", "connect_four", 4, 4, threads=2)
    for name in sorted(p.name for p in (tmp_path / "one").iterdir()):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert one.file_bytes == two.file_bytes


def test_ctrl_c_stops_a_tier_solve_and_the_same_call_resumes_it(tmp_path):
    # A fresh solve first, timed, so that Ctrl-C comes a third of the way through the same
    # solve however fast this machine is.
    begun = time.monotonic()
    fresh = gg.games.solve_tiers(tmp_path / "fresh", "connect_four", 5, 4)
    third = (time.monotonic() - begun) / 3
    stopped = tmp_path / "stopped"
    assert_ctrl_c_stops(lambda: gg.games.solve_tiers(stopped, "connect_four", 5, 4), after=third)
    with pytest.raises(ValueError, match="has not finished.*solve_tiers"):
        gg.games.open_tiers(stopped, "connect_four", 5, 4)
    resumed = gg.games.solve_tiers(stopped, "connect_four", 5, 4)
    assert 0 < resumed.resumed < 2 * resumed.tiers
    assert (resumed.positions, resumed.wins, resumed.losses, resumed.ties) == (
        fresh.positions,
        fresh.wins,
        fresh.losses,
        fresh.ties,
    )
    names = sorted(p.name for p in (tmp_path / "fresh").iterdir())
    assert sorted(p.name for p in stopped.iterdir()) == names
    for name in names:
        assert (stopped / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes(), name


WORDS = {"win": WIN, "loss": LOSS, "tie": TIE, "draw": DRAW}


def test_command_reads_the_directory_python_writes(cli, tmp_path):
    gg.games.solve_tiers(tmp_path, "connect_four", 4, 4)
    solved = gg.games.connect_four(4, 4)
    for p in ["..../..../..../....", "..../..../.O../.XX.", "..../..../..../X.O."]:
        args = ["connect-four", "--cols", "4", "--rows", "4", "query", "--results", str(tmp_path)]
        out = cli("game", *args, "--json", p)
        assert (WORDS[out["outcome"]], out["remoteness"]) == solved.value(p)
        got = [(m["position"], WORDS[m["outcome"]], m["remoteness"]) for m in out["moves"]]
        assert got == solved.moves(p)
