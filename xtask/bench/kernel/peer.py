"""Peer side of `cargo xtask bench kernel`: clingo for kernels, python-igraph for alpha.

usage: peer.py count|find|alpha GRAPH
Reads a header-format graph (`#` comments, `N M`, start line, M arcs, 1-based), solves,
prints the answer on the first line and, on the last line, `time <seconds>`: the time of
the solving call alone (grounding + solving for clingo; independence_number for igraph),
excluding interpreter start-up, imports and file parsing.
"""
import sys
import time


def read_header(path):
    words = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0]
            words.extend(line.split())
    n, m = int(words[0]), int(words[1])
    nums = list(map(int, words[3:3 + 2 * m]))
    return n, list(zip(nums[0::2], nums[1::2]))


PROGRAM = """
in(V) :- vertex(V), not out(V).
out(V) :- arc(V,U), in(U).
#show in/1.
"""


def kernels(n, arcs, mode):
    import clingo
    facts = "".join(f"vertex({v})." for v in range(1, n + 1))
    facts += "".join(f"arc({u},{v})." for u, v in arcs)
    start = time.perf_counter()
    ctl = clingo.Control(["0" if mode == "count" else "1", "--warn=none"])
    ctl.add("base", [], PROGRAM + facts)
    ctl.ground([("base", [])])
    count = 0
    found = None
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            count += 1
            if found is None:
                found = sorted(s.arguments[0].number for s in model.symbols(shown=True))
    elapsed = time.perf_counter() - start
    if mode == "count":
        print(count)
    else:
        print("none" if found is None else " ".join(map(str, found)))
    return elapsed


def alpha(n, arcs):
    import igraph
    g = igraph.Graph(n=n, edges=[(u - 1, v - 1) for u, v in arcs if u != v], directed=False)
    g.simplify()
    start = time.perf_counter()
    a = g.independence_number()
    elapsed = time.perf_counter() - start
    print(a)
    return elapsed


def main():
    mode, path = sys.argv[1], sys.argv[2]
    n, arcs = read_header(path)
    if mode == "alpha":
        elapsed = alpha(n, arcs)
    else:
        elapsed = kernels(n, arcs, mode)
    print(f"time {elapsed:.6f}")


if __name__ == "__main__":
    main()
