"""The tab board against the explicit game graph."""

from __future__ import annotations

import _thread
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st


import gamegraph as gg
import reference as ref


@given(st.data())
def test_tab_equals_the_explicit_graph(data):
    n = data.draw(st.integers(1, 12))
    m = data.draw(st.integers(1, 6))
    x = data.draw(st.integers(1, n))
    y = data.draw(st.integers(1, m))
    assert gg.tab(n, m, x, y) == ref.tab(n, m, x, y)


def test_tab_errors():
    with pytest.raises(ValueError, match="a board needs at least one row"):
        gg.tab(0, 3, 1, 1)
    with pytest.raises(ValueError, match=r"cell \(11,1\) is outside the 10 × 4 board"):
        gg.tab(10, 4, 11, 1)
    with pytest.raises(ValueError, match="x must be an integer from 0"):
        gg.tab(10, 4, -1, 1)


@given(st.data())
def test_the_board_array_holds_every_cell(data):
    n = data.draw(st.integers(1, 14))
    m = data.draw(st.integers(1, 6))
    b = gg.tab(n, m)
    a = b.board()
    assert a.shape == (n, m) and a.dtype.name == "uint64" and not a.flags.writeable
    for x in range(1, n + 1):
        for y in range(1, m + 1):
            assert a[x - 1, y - 1] == ref.tab(n, m, x, y) == b.value(x, y)
    lo = data.draw(st.integers(1, n))
    hi = data.draw(st.integers(lo, n))
    assert b.board(lo, hi).tolist() == a[lo - 1 : hi].tolist()


@given(st.integers(1, 14), st.integers(1, 6), st.data())
def test_a_line_is_legal_and_as_long_as_the_depth(n, m, data):
    b = gg.tab(n, m)
    x, y = data.draw(st.integers(1, n)), data.draw(st.integers(1, m))
    line = b.line(x, y)
    assert line[0] == (x, y) and len(line) == b.depth(x, y) + 1
    for (r, c), (r2, c2) in zip(line, line[1:]):
        assert c2 != c and r2 == r + c2 and r2 <= n
    d = b.value(x, y)
    assert d == (0 if b.depth(x, y) % 2 == 0 else (b.depth(x, y) + 1) // 2)


def test_a_tall_board_comes_from_the_period_of_its_rows():
    tall = gg.tab(10**18, 50)
    p = tall.period
    assert p is not None and p.cols == 50 and p.length >= 1
    assert tall.value(1, 1) == gg.tab(10**18, 50, 1, 1)
    top = tall.board(10**18 - 9)
    assert top.shape == (10, 50)
    # The top rows do not depend on the height: they are those of a short board's top.
    short = gg.tab(200, 50).board(191)
    assert top.tolist() == short.tolist()
    with pytest.raises(ValueError, match="more than the 10000000 one array holds"):
        tall.board()
    assert gg.tab(100, 4).period is None


def test_limits_raise_timeout_error():
    with pytest.raises(TimeoutError, match="raise the limit with max_cells="):
        gg.tab(10**18, 100000, 1, 1, max_cells=10**6)
    start = time.monotonic()
    with pytest.raises(TimeoutError, match="time limit of 0.3 s reached"):
        gg.tab(10**18, 100000, 1, 1, time_limit=0.3)
    assert time.monotonic() - start < 10
    with pytest.raises(TimeoutError):
        gg.tab(10**18, 100000, time_limit=0.3)
    with pytest.raises(ValueError, match="max_cells must be an integer from 1"):
        gg.tab(10, 4, 1, 1, max_cells=0)
    with pytest.raises(TypeError, match="both x and y"):
        gg.tab(10, 4, 1)


def test_ctrl_c_stops_a_long_call():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            gg.tab(10**18, 100000, 1, 1)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10


def test_a_real_sigint_stops_a_long_call():
    """The signal a terminal's Ctrl-C sends, to a separate interpreter."""
    code = (
        "import sys, gamegraph as gg\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    gg.tab(10**18, 100000, 1, 1)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(0.5)
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
        assert out == "interrupted\n" and child.returncode == 0
        assert time.monotonic() - start < 10
    finally:
        child.kill()
