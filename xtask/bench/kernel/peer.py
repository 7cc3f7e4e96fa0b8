"""Peer side of `cargo xtask bench kernel`: clingo for kernels, python-igraph for alpha.

usage: peer.py count|find|alpha|alpha-mip|beta-mip GRAPH [TIME_LIMIT]
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


def mip(n, arcs, mode, limit):
    """alpha-mip: max sum x, x_u + x_v <= 1 per edge (no x_v for a looped v);
    beta-mip: min sum x, x_v + sum of x over the successors of v >= 1 for every v.
    Solved by HiGHS on one thread; prints `answer` and the optimum, or `answer timeout` at
    the limit."""
    import highspy
    import numpy as np
    inf = highspy.kHighsInf
    rows = []
    if mode == "alpha-mip":
        looped = {u for u, v in arcs if u == v}
        edges = sorted({(min(u, v), max(u, v)) for u, v in arcs if u != v})
        rows = [[u - 1, v - 1] for u, v in edges]
        rows += [[v - 1] for v in sorted(looped)]
        lower, upper = -inf, 1.0
    else:
        succ = [set([v]) for v in range(n + 1)]
        for u, v in arcs:
            succ[u].add(v)
        rows = [sorted(x - 1 for x in succ[v]) for v in range(1, n + 1)]
        lower, upper = 1.0, inf
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = len(rows)
    lp.col_cost_ = np.ones(n)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.full(len(rows), lower)
    lp.row_upper_ = np.full(len(rows), upper)
    if mode == "alpha-mip":
        lp.sense_ = highspy.ObjSense.kMaximize
    start, index = [0], []
    for r in rows:
        index.extend(r)
        start.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.ones(len(index))
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(limit))
    h.passModel(lp)
    t0 = time.perf_counter()
    h.run()
    elapsed = time.perf_counter() - t0
    # HiGHS prints a banner on stdout, so the answer line is tagged.
    if h.getModelStatus() == highspy.HighsModelStatus.kOptimal:
        print("answer", round(h.getInfo().objective_function_value))
    else:
        print("answer timeout")
    return elapsed


def main():
    mode, path = sys.argv[1], sys.argv[2]
    n, arcs = read_header(path)
    if mode in ("alpha-mip", "beta-mip"):
        elapsed = mip(n, arcs, mode, float(sys.argv[3]) if len(sys.argv) > 3 else 60.0)
    elif mode == "alpha":
        elapsed = alpha(n, arcs)
    else:
        elapsed = kernels(n, arcs, mode)
    print(f"time {elapsed:.6f}")


if __name__ == "__main__":
    main()
