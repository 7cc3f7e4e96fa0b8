"""Graph construction from lists and NumPy arrays, read_graph, and their errors."""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
from conftest import FIXTURES
from strategies import build, graphs


@given(graphs())
def test_successors_keep_the_order_of_the_arcs(case):
    n, arcs = case
    g = build(gg, n, arcs)
    assert g.num_vertices == n and g.num_arcs == len(arcs)
    for v in range(1, n + 1):
        assert g.successors(v) == [b for a, b in arcs if a == v]
        assert g.predecessors(v) == sorted(a for a, b in arcs if b == v)
        assert g.out_degree(v) == len(g.successors(v))
    sources, targets = g.arcs()
    assert sources.dtype == np.int64 and targets.dtype == np.int64
    by_source = sorted(range(len(arcs)), key=lambda i: arcs[i][0])  # stable: arc order kept
    assert list(zip(sources.tolist(), targets.tolist())) == [arcs[i] for i in by_source]


@given(graphs(), st.sampled_from([np.int64, np.int32, np.uint32, np.uint64, np.int16]))
def test_any_integer_dtype_gives_the_same_graph(case, dtype):
    n, arcs = case
    if n > np.iinfo(dtype).max:
        return
    s = np.array([u for u, _ in arcs], dtype=dtype)
    t = np.array([v for _, v in arcs], dtype=dtype)
    assert gg.Graph(n, s, t) == build(gg, n, arcs)


def test_arrays_with_strides_and_empty_graphs():
    both = np.array([[1, 2], [2, 3], [3, 1]], dtype=np.int64)
    g = gg.Graph(3, both[:, 0], both[:, 1], start=2)
    assert g.successors(1) == [2] and g.start == 2
    e = gg.Graph(0, [], [])
    assert e.num_vertices == 0 and e.num_arcs == 0 and e.start is None
    assert gg.retro(e).outcome.size == 0


@pytest.mark.parametrize(
    "args, message",
    [
        ((3, [1, 4], [2, 1]), "arc 2: vertex 4 is outside 1..3"),
        ((3, [0], [1]), "arc 1: vertex 0 is outside 1..3"),
        ((3, [1], [-2]), "arc 1: vertex -2 is outside 1..3"),
        ((3, [1, 2], [2]), "sources has 2 ids but targets has 1"),
        ((-1, [], []), "n must be an integer from 0 to 4294967295, found -1"),
        ((2**32, [], []), "n must be an integer from 0 to 4294967295, found 4294967296"),
        ((3, np.array([2**63], dtype=np.uint64), [1]), "sources: 9223372036854775808 is not"),
    ],
)
def test_bad_arcs_raise_value_error(args, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        gg.Graph(*args)


def test_bad_start_and_bad_vertex_raise_value_error():
    with pytest.raises(ValueError, match=r"^start 4 is outside 1\.\.3$"):
        gg.Graph(3, [1], [2], start=4)
    g = gg.Graph(3, [1], [2])
    with pytest.raises(ValueError, match=r"^vertex 0 is outside 1\.\.3$"):
        g.successors(0)


@pytest.mark.parametrize(
    "sources", [[1.5], ["1"], np.array([[1]]), np.array([True]), 7]
)
def test_non_integer_arrays_raise_type_error(sources):
    with pytest.raises(TypeError):
        gg.Graph(3, sources, [1])


def test_read_graph_reads_every_format(tmp_path):
    example = gg.read_graph(FIXTURES / "retro" / "seed.txt")
    assert (example.num_vertices, example.num_arcs, example.start) == (5, 5, 1)
    arcs = tmp_path / "g.arcs"
    arcs.write_text("1 2\n2 3 # comment\n3 1\n1 4\n4 5\n")
    g = gg.read_graph(str(arcs))
    assert g.start is None and g.arcs()[0].tolist() == example.arcs()[0].tolist()
    assert gg.read_graph(arcs, "arcs") == g
    header = tmp_path / "g.txt"
    header.write_text("2 1\n1\n1 2\n")
    assert gg.read_graph(header, format="header", threads=1).successors(1) == [2]


def test_read_graph_errors_name_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 2\n1\n1 2\n2 x\n")
    with pytest.raises(ValueError) as e:
        gg.read_graph(bad)
    assert str(e.value) == f"{bad}:4:3: expected the target of arc 2 of 2, found 'x'"
    out = tmp_path / "out.txt"
    out.write_text("2 1\n1\n1 3\n")
    with pytest.raises(ValueError, match=r":3:3: vertex 3 is outside 1\.\.2$"):
        gg.read_graph(out)
    with pytest.raises(ValueError, match=r"format must be 'header', 'arcs' or 'binary'"):
        gg.read_graph(bad, format="seed")
    with pytest.raises(FileNotFoundError) as e:
        gg.read_graph(tmp_path / "missing.txt")
    assert e.value.filename == str(tmp_path / "missing.txt")
    binary = tmp_path / "bad.bin"
    binary.write_bytes(b"\x00\x01garbage")
    with pytest.raises(ValueError, match=f"^{binary}: "):
        gg.read_graph(binary, format="binary")


def test_a_text_whose_format_cannot_be_told_asks_for_the_format_argument(tmp_path):
    missing = tmp_path / "missing.txt"
    missing.write_text("5 5\n1 2\n2 3\n3 1\n1 4\n")
    with pytest.raises(ValueError) as e:
        gg.read_graph(missing)
    assert str(e.value) == (
        f"{missing}:6:1: expected the source of arc 5 of 5, found end of input (read as a "
        "header N M without a start vertex): format='arcs' reads the file as an arc list"
    )
    assert gg.read_graph(missing, format="arcs").num_arcs == 5
    neither = tmp_path / "neither.txt"
    neither.write_text("3 0\n1 2\n2 3\n")
    with pytest.raises(ValueError) as e:
        gg.read_graph(neither)
    assert str(e.value).startswith(f"{neither}:1:1: the first line '3 0' is neither")
    assert str(e.value).endswith(": give the format with format='header' or format='arcs'")
    assert "--" not in str(e.value)


def test_threads_must_be_positive():
    g = gg.Graph(1, [], [])
    with pytest.raises(ValueError, match="threads must be at least 1, found 0"):
        gg.retro(g, threads=0)


@given(graphs(), st.booleans())
def test_a_pickled_graph_comes_back_equal(case, with_start):
    n, arcs = case
    g = build(gg, n, arcs, start=1 if with_start else None)
    back = pickle.loads(pickle.dumps(g))
    assert back == g and back.start == g.start
    assert [back.successors(v) for v in range(1, n + 1)] == [
        g.successors(v) for v in range(1, n + 1)
    ]


@given(graphs(), st.sampled_from(["header", "arcs", "binary"]))
def test_write_graph_then_read_graph_is_the_same_graph(tmp_path_factory, case, fmt):
    n, arcs = case
    g = build(gg, n, arcs, start=1)
    path = tmp_path_factory.mktemp("write") / f"g.{fmt}"
    gg.write_graph(g, path, fmt)
    if fmt == "arcs" and not arcs:
        assert path.read_text() == ""
        return
    back = gg.read_graph(path, fmt)
    if fmt == "arcs":
        # An arc list has neither a start vertex nor vertices after the last arc's.
        assert back.num_arcs == g.num_arcs
        assert back.arcs()[0].tolist() == g.arcs()[0].tolist()
        assert back.arcs()[1].tolist() == g.arcs()[1].tolist()
    else:
        assert back == g and back.start == 1


def test_write_graph_errors(tmp_path):
    g = gg.Graph(2, [1], [2])
    with pytest.raises(ValueError, match="format must be"):
        gg.write_graph(g, tmp_path / "g.txt", "dot")
    with pytest.raises(FileNotFoundError):
        gg.write_graph(g, tmp_path / "no" / "such" / "g.txt")


@given(graphs())
def test_networkx_round_trip(case):
    nx = pytest.importorskip("networkx")
    n, arcs = case
    g = build(gg, n, arcs, start=1)
    m = g.to_networkx(multigraph=True)
    assert isinstance(m, nx.MultiDiGraph) and m.graph["start"] == 1
    assert sorted(m.nodes) == list(range(1, n + 1)) and m.number_of_edges() == len(arcs)
    back = gg.Graph.from_networkx(m)
    assert back.start == 1 and back.num_arcs == g.num_arcs
    assert all(
        sorted(back.successors(v)) == sorted(g.successors(v)) for v in range(1, n + 1)
    )
    if len(set(arcs)) == len(arcs):
        d = g.to_networkx()
        assert type(d) is nx.DiGraph and sorted(d.edges) == sorted(arcs)
    else:
        with pytest.raises(ValueError, match="multigraph=True"):
            g.to_networkx()


def test_from_networkx_numbers_the_nodes_in_order():
    nx = pytest.importorskip("networkx")
    d = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    g = gg.Graph.from_networkx(d, start="b")
    assert g.num_vertices == 3 and g.start == 2 and g.successors(1) == [2]
    assert gg.retro(g).answer == gg.DRAW
    u = gg.Graph.from_networkx(nx.path_graph(3))
    assert u.num_arcs == 4 and u.successors(2) == [1, 3]
    with pytest.raises(ValueError, match="start 'z' is not a node"):
        gg.Graph.from_networkx(d, start="z")


def test_without_networkx_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)
    with pytest.raises(ImportError, match="pip install networkx"):
        gg.Graph(2, [1], [2]).to_networkx()


def test_a_small_graph_draws_itself_and_a_large_one_does_not():
    g = gg.Graph(3, [1, 2, 3, 2], [2, 3, 1, 1], start=1)
    svg = g._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<path") == 5  # 4 arcs and the arrow head
    assert gg.Graph(100, [1], [2])._repr_svg_() is None
