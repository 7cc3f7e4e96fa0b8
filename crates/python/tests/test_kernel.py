"""Kernels, their count, all of them, alpha and beta against brute force over subsets."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given

import gamegraph as gg
from interrupt import assert_ctrl_c_stops
import reference as ref
from strategies import build, graphs


def one_based(s):
    return sorted(v + 1 for v in s)


@given(graphs(max_vertices=10, max_arcs=25))
def test_kernel_functions_equal_brute_force(case):
    n, arcs = case
    g = build(gg, n, arcs)
    succ = ref.successors(n, arcs)
    truth = {tuple(one_based(k)) for k in ref.kernels(succ)}
    k = gg.kernel(g)
    assert (k is None) == (not truth)
    if k is not None:
        assert tuple(k) in truth
    assert gg.count_kernels(g) == len(truth)
    listed = [tuple(k) for k in gg.kernels(g)]
    assert len(listed) == len(set(listed)) and set(listed) == truth


@given(graphs(max_vertices=10, max_arcs=25))
def test_alpha_and_beta_equal_brute_force(case):
    n, arcs = case
    g = build(gg, n, arcs)
    succ = ref.successors(n, arcs)
    size, members = gg.alpha(g)
    assert size == ref.alpha(succ) == len(members) and members == sorted(members)
    assert ref.independent(succ, frozenset(v - 1 for v in members))
    size, members = gg.beta(g)
    assert size == ref.beta(succ) == len(members)
    assert ref.absorbing(succ, frozenset(v - 1 for v in members))


def hard_graph(n: int, seed: int = 1) -> gg.Graph:
    """A dense random digraph, where the kernel and alpha searches take long."""
    state = seed
    sources, targets = [], []
    for u, v in itertools.product(range(1, n + 1), repeat=2):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        if u != v and (state >> 33) % 100 < 50:
            sources.append(u)
            targets.append(v)
    return gg.Graph(n, sources, targets)


@pytest.mark.parametrize("solve", [gg.alpha, gg.beta, gg.count_kernels])
def test_a_time_limit_raises_timeout_error(solve):
    g = hard_graph(400)
    with pytest.raises(TimeoutError, match=r"^time limit of 0 s reached after \d+ search nodes$"):
        solve(g, time_limit=0)


@pytest.mark.parametrize("solve", [gg.count_kernels, lambda g: list(gg.kernels(g))])
def test_ctrl_c_stops_a_kernel_search(solve):
    # Every kernel of this graph takes seconds to list, its count longer: both are still
    # running when Ctrl-C comes half a second in.
    g = hard_graph(600)
    assert_ctrl_c_stops(lambda: solve(g))


def test_kernels_iterator_raises_timeout_error():
    it = gg.kernels(hard_graph(400), time_limit=0.0)
    with pytest.raises(TimeoutError, match="time limit of 0 s"):
        for _ in it:
            pass
    assert it.nodes >= 0


@pytest.mark.parametrize("limit", [-1.0, float("nan"), float("inf")])
def test_bad_time_limit_raises_value_error(limit):
    with pytest.raises(ValueError, match="not a number of seconds"):
        gg.kernel(gg.Graph(1, [], []), time_limit=limit)


def test_a_part_too_large_for_alpha_is_refused_with_value_error():
    n = 40_000
    # A band of chords around a cycle: one connected part of n vertices of degree 6.
    sources, targets = [], []
    for v in range(1, n + 1):
        for d in (1, 2, 3):
            sources.append(v)
            targets.append((v + d - 1) % n + 1)
    band = gg.Graph(n, sources, targets)
    with pytest.raises(ValueError, match="exceeds the 32768 supported"):
        gg.alpha(band, time_limit=30)


@given(graphs(max_vertices=10, max_arcs=25))
def test_kernel_with_proof_gives_a_checked_proof_exactly_when_there_is_none(case):
    n, arcs = case
    g = build(gg, n, arcs)
    succ = ref.successors(n, arcs)
    truth = list(ref.kernels(succ))
    kernel, proof = gg.kernel(g, proof=True)
    assert kernel == gg.kernel(g)
    assert (proof is None) == bool(truth) == (kernel is not None)
    if proof is not None:
        assert proof.endswith("0\n")
        assert gg.verify_kernel_none(g, proof)
        assert gg.verify_kernel_none(g, proof.encode())


def test_proofs_of_odd_cycles_and_broken_proofs():
    for k in range(3, 22, 2):
        cycle = gg.Graph(k, list(range(1, k + 1)), [i % k + 1 for i in range(1, k + 1)])
        kernel, proof = gg.kernel(cycle, proof=True)
        assert kernel is None
        verdict = gg.verify_kernel_none(cycle, proof)
        assert verdict.ok and verdict.rule is None, verdict
        cut = "".join(proof.splitlines(keepends=True)[:-1])
        assert gg.verify_kernel_none(cycle, cut).rule == "empty-clause"
        # Vertex 1 given the sink k + 1: a kernel, so the proof no longer holds.
        more = gg.Graph(
            k + 1, list(range(1, k + 1)) + [1], [i % k + 1 for i in range(1, k + 1)] + [k + 1]
        )
        assert gg.kernel(more) is not None
        assert not gg.verify_kernel_none(more, proof)
    with pytest.raises(ValueError, match="2:3"):
        gg.verify_kernel_none(cycle, "1 2 0\n3 x 0\n")
    with pytest.raises(TypeError):
        gg.verify_kernel_none(cycle, 12)
    assert gg.kernel_cnf(gg.Graph(1, [1], [1])) == "p cnf 1 2\n-1 0\n1 0\n"
