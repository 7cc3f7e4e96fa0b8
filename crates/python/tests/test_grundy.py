"""Grundy values, sums of tokens and heaps, and heap games against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
import reference as ref
from strategies import acyclic_graphs, build, graphs


@given(acyclic_graphs())
def test_grundy_on_acyclic_graphs_is_the_mex(case):
    n, arcs = case
    g = build(gg, n, arcs)
    values = gg.grundy(g)
    expected = ref.grundy_acyclic(ref.successors(n, arcs))
    assert values.tolist() == expected
    assert values.values.tolist() == expected and values.infinite() == {}
    assert gg.verify_grundy(g, values) and gg.verify_grundy(g, expected)


@given(graphs(max_vertices=8, max_arcs=16))
def test_the_array_and_the_sets_say_what_the_list_says(case):
    n, arcs = case
    g = build(gg, n, arcs)
    v = gg.grundy(g)
    items = v.tolist()
    assert len(v) == n and list(v) == items
    assert not v.values.flags.writeable
    for i, item in enumerate(items):
        assert v.value(i + 1) == item
        if isinstance(item, gg.Infinite):
            assert v.values[i] == -1 and v.k(i + 1) == item.k and v.infinite()[i + 1] == item.k
        else:
            assert v.values[i] == item and v.k(i + 1) is None
    counts = v.counts()
    assert counts["infinite"] == len(v.infinite()) and counts["finite"] + counts["infinite"] == n
    # The values pass the independent check; changing any one of them fails it.
    assert gg.verify_grundy(g, v)
    for i, item in enumerate(items):
        wrong = list(items)
        wrong[i] = gg.Infinite({0}) if not isinstance(item, gg.Infinite) else 0
        if wrong[i] != item:
            verdict = gg.verify_grundy(g, wrong)
            assert not verdict and verdict.rule is not None


@given(graphs(max_vertices=8, max_arcs=16), st.sampled_from([None, 1, 2]))
def test_loopy_values_decide_every_sum_with_a_heap(case, threads):
    """gamma(v) = a (finite): v + heap k is lost exactly when k = a. gamma(v) = inf(K):
    v + heap k is won when k is in K and drawn otherwise (Smith's rules), here checked on
    the explicit sum solved by the reference."""
    n, arcs = case
    succ = ref.successors(n, arcs)
    values = gg.grundy(build(gg, n, arcs), threads=threads)
    h = max(len(s) for s in succ) + 1
    outcome, _, _ = ref.retro(ref.with_heap(succ, h))
    for v, value in enumerate(values):
        for k in range(h + 1):
            o = outcome[v * (h + 1) + k]
            if isinstance(value, gg.Infinite):
                assert o == (gg.WIN if k in value.k else gg.DRAW)
            else:
                assert o == (gg.LOSS if k == value else gg.WIN)


def check_sum(case, tokens, heaps, limits, misere):
    n, arcs = case
    succ = ref.successors(n, arcs)
    g = build(gg, n, arcs)
    outcome, move = gg.play_sum(g, tokens=tokens, heaps=heaps, max=limits, misere=misere)
    order, index, graph = ref.product_graph(succ, [t - 1 for t in tokens], heaps, limits)
    labels = ref.retro_misere(graph) if misere else ref.retro(graph)[0]
    assert outcome == labels[0]
    start = order[0]
    if move is None:
        assert outcome == gg.LOSS or (misere and not graph[0])
        return
    after = list(start)
    t = len(tokens)
    if isinstance(move, gg.TokenMove):
        i = move.token - 1
        assert after[i] == move.source - 1 and move.target - 1 in succ[after[i]]
        after[i] = move.target - 1
    else:
        j = move.heap - 1
        assert 1 <= move.take <= (heaps[j] if limits is None else min(heaps[j], limits[j]))
        after[t + j] -= move.take
    reached = labels[index[tuple(after)]]
    assert reached == (gg.LOSS if outcome == gg.WIN else gg.DRAW)



@given(graphs(max_vertices=6, max_arcs=10), st.data(), st.booleans())
def test_play_sum_equals_the_explicit_sum(case, data, misere):
    n, _ = case
    tokens = data.draw(st.lists(st.integers(1, n), max_size=2))
    heaps = data.draw(st.lists(st.integers(0, 4), max_size=2))
    limits = None
    if heaps and data.draw(st.booleans()):
        limits = data.draw(st.lists(st.integers(1, 3), min_size=len(heaps), max_size=len(heaps)))
    check_sum(case, tokens, heaps, limits, misere)


def test_play_sum_errors_carry_the_command_messages():
    g = gg.Graph(3, [1], [2])
    with pytest.raises(ValueError, match=r"^tokens: vertex 4 is not in the graph \(vertices are 1\.\.3\)$"):
        gg.play_sum(g, tokens=[4])
    with pytest.raises(ValueError, match=r"^max: 2 heaps but 1 move limits$"):
        gg.play_sum(g, heaps=[1, 2], max=[1])
    with pytest.raises(ValueError, match=r"^max: the move limit of heap 1 is 0"):
        gg.play_sum(g, heaps=[1], max=[0])
    with pytest.raises(ValueError, match=r"^heaps: item 1 is -1, not a heap size"):
        gg.play_sum(g, heaps=[-1])
    with pytest.raises(TypeError, match=r"^heaps: item 2 is 'x'"):
        gg.play_sum(g, heaps=[1, "x"])
    with pytest.raises(TypeError, match=r"^heaps: item 1 is 'x{39}\.\.\., not"):
        gg.play_sum(g, heaps=["x" * 1000])


def test_a_misere_search_too_large_is_refused():
    g = gg.Graph(2, [1], [2])
    with pytest.raises(ValueError, match="no proven theory covers misère sums"):
        gg.play_sum(g, tokens=[1], heaps=[10**8], misere=True)


heap_lists = st.lists(st.integers(0, 8), min_size=1, max_size=3)


@given(heap_lists, st.data(), st.booleans())
def test_nim_equals_brute_force(heaps, data, misere):
    limits = None
    if data.draw(st.booleans()):
        limits = data.draw(st.lists(st.integers(1, 9), min_size=len(heaps), max_size=len(heaps)))
    outcome, move = gg.nim(heaps, max=limits, misere=misere)
    expected, winning, _ = ref.heap_game(heaps, limits, misere)
    assert outcome == expected
    if move is None:
        assert outcome == gg.LOSS or not any(heaps)
    else:
        assert ((move.heap - 1, move.take),) in winning


@given(st.lists(st.integers(0, 5), min_size=1, max_size=3), st.integers(1, 3), st.booleans())
def test_moore_nim_equals_brute_force(heaps, k, misere):
    outcome, moves = gg.nim(heaps, misere=misere, moore=k)
    expected, winning, _ = ref.heap_game(heaps, None, misere, moore=k)
    assert outcome == expected
    if moves is None:
        assert outcome == gg.LOSS or not any(heaps)
    else:
        assert isinstance(moves, list)
        assert tuple(sorted((m.heap - 1, m.take) for m in moves)) in winning


def test_nim_on_huge_heaps_and_its_errors():
    assert gg.nim([2**64 - 1, 2**64 - 1]) == (gg.LOSS, None)
    assert gg.nim([2**64 - 1], max=[2**64 - 1]) == (gg.WIN, gg.HeapMove(1, 2**64 - 1))
    with pytest.raises(ValueError, match=r"^2 heaps but 1 move limits$"):
        gg.nim([1, 2], max=[1])
    with pytest.raises(ValueError, match=r"^Moore's Nim_k needs k >= 1$"):
        gg.nim([1, 2], moore=0)
    with pytest.raises(ValueError, match=r"^heaps: item 1 is 18446744073709551616"):
        gg.nim([2**64])
    with pytest.raises(ValueError, match="no proven theory covers Moore's Nim_k"):
        gg.nim([10**6] * 4, max=[3] * 4, moore=2)


def test_value_and_move_objects():
    x = gg.Infinite([3, 1, 1])
    assert x == gg.Infinite({1, 3}) and hash(x) == hash(gg.Infinite((3, 1)))
    assert x.k == frozenset({1, 3}) and str(x) == "inf{1,3}" and str(gg.Infinite()) == "inf{}"
    assert repr(gg.Infinite()) == "Infinite(frozenset())"
    m = gg.TokenMove(1, 2, 3)
    assert (m.token, m.source, m.target) == (1, 2, 3) and m == gg.TokenMove(1, 2, 3)
    assert gg.HeapMove(2, 5) != gg.HeapMove(2, 4) and str(gg.HeapMove(2, 5)) == "take 5 from heap 2"
