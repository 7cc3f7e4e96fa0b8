"""Small pure-Python references: brute force and the plain definitions.

Every function here is written from the rules of the games, independently of the Rust
code, and is only fast enough for tiny inputs (graphs of at most 12 vertices, heaps of
at most 8 objects).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

WIN, LOSS, DRAW = 1, 2, 0


def successors(n: int, arcs: list[tuple[int, int]]) -> list[list[int]]:
    """0-based successor lists of arcs given with 1-based ids, in arc order."""
    succ: list[list[int]] = [[] for _ in range(n)]
    for u, v in arcs:
        succ[u - 1].append(v - 1)
    return succ


def mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def retro(succ: list[list[int]]):
    """Outcome codes, depths (-1 for a draw) and optimal moves (1-based, 0 for none).

    Level by level: a position is lost in k plies when every move leads to a position
    won in fewer, won in k plies when some move leads to a position lost in k - 1;
    what no level reaches is a draw. The optimal move: from W an L follower of least
    depth, from L a follower of greatest depth, from D a D follower; the smallest id.
    """
    n = len(succ)
    outcome = [None] * n
    depth = [-1] * n
    for k in range(2 * n + 2):
        new = {}
        for v in range(n):
            if outcome[v] is not None:
                continue
            if all(outcome[w] == WIN and depth[w] <= k - 1 for w in succ[v]):
                new[v] = LOSS
            elif any(outcome[w] == LOSS and depth[w] <= k - 1 for w in succ[v]):
                new[v] = WIN
        for v, o in new.items():
            outcome[v] = o
            depth[v] = k
    outcome = [DRAW if o is None else o for o in outcome]
    moves = []
    for v in range(n):
        if outcome[v] == WIN:
            cands = [w for w in succ[v] if outcome[w] == LOSS and depth[w] == depth[v] - 1]
        elif outcome[v] == LOSS:
            cands = [w for w in succ[v] if depth[w] == depth[v] - 1]
        else:
            cands = [w for w in succ[v] if outcome[w] == DRAW]
        moves.append(min(cands) + 1 if cands else 0)
    return outcome, depth, moves


def independent(succ, s: frozenset[int]) -> bool:
    return all(w not in s for v in s for w in succ[v])


def absorbing(succ, s: frozenset[int]) -> bool:
    return all(v in s or any(w in s for w in succ[v]) for v in range(len(succ)))


def all_subsets(n: int):
    for r in range(n + 1):
        for c in combinations(range(n), r):
            yield frozenset(c)


def kernels(succ) -> set[frozenset[int]]:
    """Every kernel (0-based sets), by trying every subset."""
    return {s for s in all_subsets(len(succ)) if independent(succ, s) and absorbing(succ, s)}


def alpha(succ) -> int:
    return max(len(s) for s in all_subsets(len(succ)) if independent(succ, s))


def beta(succ) -> int:
    return min(len(s) for s in all_subsets(len(succ)) if absorbing(succ, s))


def grundy_acyclic(succ) -> list[int]:
    @lru_cache(maxsize=None)
    def g(v: int) -> int:
        return mex(g(w) for w in succ[v])

    return [g(v) for v in range(len(succ))]


def with_heap(succ, h: int):
    """The sum of a token on the graph and a Nim heap of 0..h objects, as a graph:
    position (v, k) is vertex v * (h + 1) + k."""
    out = []
    for v in range(len(succ)):
        for k in range(h + 1):
            moves = [w * (h + 1) + k for w in succ[v]]
            moves += [v * (h + 1) + j for j in range(k)]
            out.append(moves)
    return out


def product_graph(succ, tokens: list[int], heaps: list[int], limits: list[int] | None):
    """The explicit sum of tokens (0-based vertices) and heaps: (positions, succ, start)."""
    index: dict[tuple, int] = {}
    order: list[tuple] = []
    moves: list[list[tuple]] = []
    start = tuple(tokens) + tuple(heaps)
    stack = [start]
    index[start] = 0
    order.append(start)
    t = len(tokens)
    while stack:
        p = stack.pop()
        out = []
        for i in range(t):
            for w in succ[p[i]]:
                out.append(p[:i] + (w,) + p[i + 1 :])
        for j, size in enumerate(p[t:]):
            m = size if limits is None else min(size, limits[j])
            for take in range(1, m + 1):
                q = list(p)
                q[t + j] = size - take
                out.append(tuple(q))
        moves.append((p, out))
        for q in out:
            if q not in index:
                index[q] = len(order)
                order.append(q)
                stack.append(q)
    graph = [[] for _ in order]
    for p, out in moves:
        graph[index[p]] = [index[q] for q in out]
    return order, index, graph


def retro_misere(succ):
    """Outcome codes when the player who cannot move wins."""
    n = len(succ)
    # A terminal position is won: add a lost sink after every terminal position.
    ext = [list(s) if s else [n] for s in succ] + [[]]
    return retro(ext)[0][:n]


def heap_game(heaps, limits=None, misere=False, moore=None):
    """Outcome of a sum of heaps by memoised search, and the set of winning moves
    (tuples of (heap, take), 0-based heaps)."""
    k = 1 if moore is None else moore
    lim = [None] * len(heaps) if limits is None else list(limits)

    def moves(p):
        idx = range(len(p))
        for r in range(1, k + 1):
            for chosen in combinations(idx, r):
                ranges = [
                    range(1, (p[i] if lim[i] is None else min(p[i], lim[i])) + 1) for i in chosen
                ]
                for takes in product(*ranges):
                    q = list(p)
                    for i, t in zip(chosen, takes):
                        q[i] -= t
                    yield tuple(zip(chosen, takes)), tuple(q)

    @lru_cache(maxsize=None)
    def wins(p) -> bool:
        ms = list(moves(p))
        if not ms:
            return misere
        return any(not wins(q) for _, q in ms)

    start = tuple(heaps)
    winning = {m for m, q in moves(start) if not wins(q)}
    return (WIN if wins(start) else LOSS), winning, wins


def octal(code: str, upto: int) -> list[int]:
    """g(0) ... g(upto) of an octal game, from the definition."""
    lead, _, rest = code.partition(".")
    digits = [int(lead or "0")] + [int(c) for c in rest]
    g: list[int] = []
    for n in range(upto + 1):
        opts = []
        for j, d in enumerate(digits):
            if d & 1 and n == j and j > 0:
                opts.append(0)
            if d & 2 and n > j and j > 0:
                opts.append(g[n - j])
            if d & 4 and n - j >= 2:
                r = n - j
                opts.extend(g[a] ^ g[r - a] for a in range(1, r // 2 + 1))
        g.append(mex(opts))
    return g


def subtraction(s: list[int], upto: int, misere: bool = False) -> list[int]:
    g: list[int] = []
    for n in range(upto + 1):
        opts = [g[n - x] for x in s if x <= n]
        g.append(1 if misere and not opts else mex(opts))
    return g


def least_period(values: list[int], tail: int) -> tuple[int, int]:
    """The least pre-period and smallest period of a sequence that is periodic on its
    last `tail` values or more (a sanity reference over a finite prefix)."""
    n = len(values)
    for q in range(1, n):
        if all(values[i] == values[i - q] for i in range(n - tail, n)):
            p = n - tail
            while p - 1 >= 0 and p - 1 + q < n and values[p - 1] == values[p - 1 + q]:
                p -= 1
            return p, q
    raise AssertionError("no period")


def tab(n: int, m: int, x: int, y: int) -> int:
    """The answer d of the tab board, from the explicit game graph."""
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, m + 1)]
    index = {cell: i for i, cell in enumerate(cells)}
    succ = [
        [index[(r + k, k)] for k in range(1, m + 1) if k != c and r + k <= n] for r, c in cells
    ]
    outcome, depth, _ = retro(succ)
    v = index[(x, y)]
    return 0 if outcome[v] == LOSS else (depth[v] + 1) // 2
