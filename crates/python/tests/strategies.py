"""Hypothesis strategies: small game graphs as (n, arcs) with 1-based ids."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def graphs(draw, max_vertices: int = 12, max_arcs: int = 30, min_vertices: int = 1):
    n = draw(st.integers(min_vertices, max_vertices))
    ids = st.integers(1, n)
    arcs = draw(st.lists(st.tuples(ids, ids), max_size=max_arcs))
    return n, arcs


@st.composite
def acyclic_graphs(draw, max_vertices: int = 12, max_arcs: int = 30):
    """Arcs only from a larger id to a smaller one."""
    n = draw(st.integers(1, max_vertices))
    arcs = []
    if n >= 2:
        pairs = st.tuples(st.integers(2, n), st.integers(1, n - 1)).filter(lambda p: p[0] > p[1])
        arcs = draw(st.lists(pairs, max_size=max_arcs))
    return n, arcs


def build(gg, n, arcs, start=None):
    sources = [u for u, _ in arcs]
    targets = [v for _, v in arcs]
    return gg.Graph(n, sources, targets, start=start)
