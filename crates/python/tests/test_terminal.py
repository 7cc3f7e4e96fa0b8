"""Graphs with terminal values: read, written, pickled, converted and solved with four
outcomes exactly as `gamegraph retro` solves their files."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
from strategies import graphs

CODE = {gg.WIN: "win", gg.LOSS: "loss", gg.DRAW: "draw", gg.TIE: "tie"}

# The example of docs/formats.md.
EXAMPLE = """8 8        # 8 vertices, 8 arcs
1          # the start vertex
1 2
1 3
2 4
2 5
3 6
3 7
8 8
8 4
terminal   # the values of vertices without moves
4 W
5 T
6 L
"""


@st.composite
def valued_graphs(draw):
    """A graph with a start vertex and values at some of its vertices without moves."""
    n, arcs = draw(graphs())
    sinks = sorted(set(range(1, n + 1)) - {u for u, _ in arcs})
    chosen = draw(st.lists(st.sampled_from(sinks), unique=True) if sinks else st.just([]))
    values = {v: draw(st.sampled_from("WLT")) for v in chosen}
    sources = [u for u, _ in arcs]
    targets = [v for _, v in arcs]
    return gg.Graph(n, sources, targets, start=1, terminal=values)


def same_as_the_command(cli, g, path):
    """retro(g) answers as `gamegraph retro --all --json` on the file `path` of g."""
    s = gg.retro(g)
    out = cli("retro", "--all", "--json", str(path))
    assert [v["outcome"] for v in out["all"]] == [CODE[o] for o in s.outcome.tolist()]
    assert [-1 if v["depth"] is None else v["depth"] for v in out["all"]] == s.depth.tolist()
    assert [v["move"] or 0 for v in out["all"]] == s.move.tolist()
    assert out["counts"] == s.counts()
    assert out["answer"] == s.answer
    line = cli("retro", "--line", "--json", str(path))["line"]
    assert [p["vertex"] for p in line["positions"]] == s.line()
    assert gg.verify_retro(g, s)


def test_the_formats_example_equals_the_command(cli, tmp_path):
    path = tmp_path / "example.txt"
    path.write_text(EXAMPLE)
    g = gg.read_graph(path)
    assert g.terminal == {4: "W", 5: "T", 6: "L"}
    same_as_the_command(cli, g, path)
    s = gg.retro(g)
    assert s.answer == gg.TIE and s.outcome.tolist()[:3] == [gg.TIE, gg.TIE, gg.WIN]
    assert s.counts()["tie"] == 3


@given(valued_graphs())
def test_random_graphs_equal_the_command(cli, tmp_path_factory, g):
    path = tmp_path_factory.mktemp("g") / "g.txt"
    gg.write_graph(g, path)
    assert gg.read_graph(path) == g
    same_as_the_command(cli, g, path)


@given(valued_graphs())
def test_the_values_survive_every_round_trip(tmp_path_factory, g):
    assert pickle.loads(pickle.dumps(g)) == g
    back = gg.Graph.from_networkx(g.to_networkx(multigraph=True))
    assert (back.terminal, back.start) == (g.terminal, g.start)
    assert sorted(zip(*map(list, back.arcs()))) == sorted(zip(*map(list, g.arcs())))
    path = tmp_path_factory.mktemp("g") / "g.bin"
    gg.write_graph(g, path, "binary")
    assert gg.read_graph(path) == g


def test_an_empty_section_is_kept():
    g = gg.Graph(2, [1], [2], start=1, terminal={})
    assert g.terminal == {} and g != gg.Graph(2, [1], [2], start=1)
    assert pickle.loads(pickle.dumps(g)).terminal == {}
    nx = g.to_networkx()
    assert nx.graph["terminal"] is True
    assert gg.Graph.from_networkx(nx).terminal == {}
    assert gg.retro(g).counts() == {"win": 1, "loss": 1, "tie": 0, "draw": 0}


def test_bad_values_are_refused(tmp_path):
    with pytest.raises(ValueError, match="vertex 1 has moves"):
        gg.Graph(2, [1], [2], terminal={1: "W"})
    with pytest.raises(ValueError, match=r"terminal: vertex 3 is outside 1\.\.2"):
        gg.Graph(2, [1], [2], terminal={3: "W"})
    with pytest.raises(ValueError, match="found 'X'"):
        gg.Graph(2, [1], [2], terminal={2: "X"})
    with pytest.raises(ValueError, match="arcs format cannot hold terminal values"):
        gg.write_graph(gg.Graph(2, [1], [2], terminal={2: "T"}), tmp_path / "g", "arcs")


def test_a_four_outcome_table_is_checked():
    g = gg.Graph(3, [1, 2], [2, 3], start=1, terminal={3: "T"})
    s = gg.retro(g)
    assert gg.verify_retro(g, s)
    from types import SimpleNamespace

    wrong = SimpleNamespace(outcome=[gg.LOSS, gg.WIN, gg.LOSS], depth=[2, 1, 0], move=[2, 3, 0])
    verdict = gg.verify_retro(g, wrong)
    assert not verdict and verdict.at is not None
    with pytest.raises(ValueError, match="outcome must be 0, 1 or 2"):
        gg.verify_retro(gg.Graph(1, [], []), SimpleNamespace(outcome=[3], depth=[0], move=[0]))


def test_the_solvers_of_another_game_refuse_the_values():
    g = gg.Graph(3, [1, 2], [2, 3], start=1, terminal={3: "W"})
    for call in (
        lambda: gg.grundy(g),
        lambda: gg.kernel(g),
        lambda: gg.count_kernels(g),
        lambda: gg.kernels(g),
        lambda: gg.alpha(g),
        lambda: gg.beta(g),
        lambda: gg.verify_grundy(g, [0, 0, 0]),
        lambda: gg.verify_kernel(g, [1]),
        lambda: gg.play_sum(g, tokens=[1]),
    ):
        with pytest.raises(ValueError, match="has terminal values"):
            call()


def test_a_games_graph_carries_its_ties():
    solved = gg.games.tic_tac_toe()
    g = solved.graph
    assert g.terminal and set(g.terminal.values()) == {"T"}
    s = gg.retro(g)
    assert s.outcome.tolist() == solved.outcomes.tolist()
    assert s.answer == gg.TIE
