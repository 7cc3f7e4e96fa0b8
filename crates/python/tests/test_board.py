"""Boards and move names of the shipped games: drawn, named, and played by name."""

from __future__ import annotations

import gamegraph as gg


def test_a_won_board_names_its_line_and_draws_as_the_terminal_does():
    s = gg.games.tic_tac_toe()
    b = s.board("XXX/OO./...")
    assert (b.kind, b.cells, b.row_labels, b.col_labels) == (
        "grid", ["XXX", "OO.", "..."], ["3", "2", "1"], ["a", "b", "c"])
    assert b.line == ["a3", "b3", "c3"]
    assert str(b).startswith("3  X X X\n2  O O .\n1  . . .\n   a b c\n")
    html = b._repr_html_()
    assert html.startswith("<table>") and "the line: a3 b3 c3" in html
    assert repr(b) == "Board(grid 3 × 3)"
    assert s.board(s.start).line == []


def test_rows_of_pins():
    s = gg.games.kayles([4, 7])
    b = s.board(s.start)
    assert (b.kind, b.pins, b.cells) == ("pins", [7, 4], [])
    assert "| | | |" in b._repr_html_()
    q = s.best_move(s.start)[0]
    assert s.move_name(s.start, q).startswith("take ")


def test_moves_are_named_as_the_game_names_them():
    s = gg.games.connect_four(4, 4)
    names = sorted(s.move_name(s.start, q) for q, _, _ in s.moves(s.start))
    assert names == ["column 1", "column 2", "column 3", "column 4"]


def test_a_game_of_python_functions_has_no_board_and_no_names():
    s = gg.explore(5, range)
    assert s.board(5) is None and s.move_name(5, 3) is None


def test_values_files_and_tiers_draw_the_same_boards(tmp_path):
    s = gg.games.tic_tac_toe()
    path = tmp_path / "ttt.values"
    s.save(str(path))
    v = gg.games.open_values(str(path), "tic_tac_toe")
    assert str(v.board("X../.O./...")) == str(s.board("X../.O./..."))
    assert v.move_name(".../.../...", ".../.X./...") == "b2"
    gg.games.solve_tiers(str(tmp_path / "c4"), "connect_four", 4, 4)
    t = gg.games.open_tiers(str(tmp_path / "c4"), "connect_four", 4, 4)
    c = gg.games.connect_four(4, 4)
    assert str(t.board(c.start)) == str(c.board(c.start))


def test_play_draws_the_board_and_takes_moves_by_name():
    s = gg.games.tic_tac_toe()
    typed = iter(["b2", "hint", "quit"])
    shown = []
    line = s.play(input=lambda prompt: next(typed), print=lambda *a: shown.append(" ".join(map(str, a))))
    text = "\n".join(shown)
    assert line[:2] == [".../.../...", ".../.X./..."]
    assert "3  . . .\n2  . X .\n1  . . .\n   a b c" in text
    assert "engine: a3" in text
    assert "hint: 1 " in text and "game left unfinished" in text
