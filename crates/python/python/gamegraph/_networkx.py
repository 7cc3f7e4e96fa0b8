"""Conversions between ``gamegraph.Graph`` and networkx graphs (networkx is optional).

networkx is imported when a conversion is asked for, never at ``import gamegraph``.
"""

from __future__ import annotations

from typing import Any


def _networkx() -> Any:
    try:
        import networkx
    except ImportError as e:
        raise ImportError(
            "this conversion needs networkx, which is not installed (pip install networkx)"
        ) from e
    return networkx


def to_networkx(g: Any, multigraph: bool) -> Any:
    """``g`` as a networkx DiGraph (MultiDiGraph with ``multigraph``) on the nodes 1..n."""
    nx = _networkx()
    sources, targets = g.arcs()
    arcs = list(zip(sources.tolist(), targets.tolist()))
    if not multigraph and len(set(arcs)) != len(arcs):
        raise ValueError(
            "the graph has repeated arcs, which a DiGraph cannot hold: "
            "to_networkx(multigraph=True) gives a MultiDiGraph"
        )
    out = nx.MultiDiGraph() if multigraph else nx.DiGraph()
    out.add_nodes_from(range(1, g.num_vertices + 1))
    out.add_edges_from(arcs)
    out.graph["start"] = g.start
    terminal = g.terminal
    if terminal is not None:
        out.graph["terminal"] = True
        for v, value in terminal.items():
            out.nodes[v]["terminal"] = value
    return out


def from_networkx(G: Any, start: Any = None) -> Any:
    """A ``gamegraph.Graph`` from a networkx graph: vertex i + 1 is the node ``list(G)[i]``.

    The node attribute ``"terminal"`` gives terminal values; the graph has them when a node
    has one or ``G.graph.get("terminal")`` is true.
    """
    _networkx()
    from ._native import Graph

    index = {node: i + 1 for i, node in enumerate(G.nodes)}
    sources: list[int] = []
    targets: list[int] = []
    directed = G.is_directed()
    for edge in G.edges:
        u, v = edge[0], edge[1]
        sources.append(index[u])
        targets.append(index[v])
        if not directed and u != v:
            sources.append(index[v])
            targets.append(index[u])
    if start is None:
        start = G.graph.get("start")
    if start is not None:
        if start not in index:
            raise ValueError(f"start {start!r} is not a node of the graph")
        start = index[start]
    terminal: dict[int, Any] = {
        index[node]: value
        for node, value in G.nodes(data="terminal")
        if value is not None
    }
    has_terminal = bool(terminal) or bool(G.graph.get("terminal"))
    return Graph(len(index), sources, targets, start, terminal if has_terminal else None)
