"""Solves release the GIL: other Python threads run while one is inside a solve."""

from __future__ import annotations

import random
import threading
import time

import gamegraph as gg


def sparse_random_graph(n: int, p: float, seed: int) -> gg.Graph:
    """A sparse random digraph, on which the search for alpha takes long."""
    r = random.Random(seed)
    arcs = [(u, v) for u in range(1, n + 1) for v in range(1, n + 1) if u != v and r.random() < p]
    return gg.Graph(n, [u for u, _ in arcs], [v for _, v in arcs])


def test_other_threads_run_during_a_solve():
    g = sparse_random_graph(300, 0.02, seed=1)
    inside = threading.Event()
    done = threading.Event()
    errors = []

    def solve():
        inside.set()
        try:
            gg.alpha(g, time_limit=1.5)
        except TimeoutError as e:
            errors.append(e)
        finally:
            done.set()

    worker = threading.Thread(target=solve)
    worker.start()
    inside.wait()
    ticks = 0
    while not done.is_set():
        time.sleep(0.01)
        ticks += 1
    worker.join()
    # With the GIL held for the 1.5 s of the search, this thread could not wake up
    # until the search ended: one or two ticks. Released, it ticks every 10 ms or so.
    assert errors, "the search was meant to run into its time limit"
    assert ticks >= 10
