"""The module never aborts the interpreter: allocations too large for the process raise
MemoryError or ValueError, explorations stop at a limit derived from the free memory and
on Ctrl-C, and thread counts are bounded."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

import gamegraph as gg

# Runs CALL under an address-space limit of the space in use plus MiB mebibytes, and prints
# the exception it raises.
PROGRAM = """
import resource, sys
import gamegraph as gg

def in_use():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024

limit = in_use() + ({mib} << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    {call}
except (MemoryError, ValueError) as e:
    print(type(e).__name__, e)
else:
    print("no exception")
"""


def limited(call: str, mib: int) -> str:
    program = PROGRAM.format(mib=mib, call=textwrap.dedent(call).strip())
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, (out.returncode, out.stderr)
    return out.stdout


def test_a_graph_too_large_raises_memory_error():
    out = limited("gg.Graph(2**32 - 1, [], [])", 256)
    assert out.startswith("MemoryError not enough memory for the graph: it needs 64.0 GiB")


def test_a_retro_too_large_raises_memory_error():
    out = limited("gg.retro(gg.Graph(2**22, [], []))", 256)
    assert out.startswith("MemoryError not enough memory for retro: it needs")


def test_a_game_stops_at_the_positions_the_memory_holds():
    out = limited("gg.games.connect_four(7, 6)", 512)
    assert out.startswith("ValueError more than ") and "positions are reachable" in out


def test_an_endless_exploration_stops_at_the_memory():
    out = limited("import itertools; gg.explore(0, lambda p: itertools.count(1))", 512)
    assert out.startswith(("MemoryError not enough memory", "ValueError more than ")), out


def test_ctrl_c_stops_moves_written_in_c():
    # The loop over a C iterator runs no Python code and keeps the GIL: only a real signal
    # reaches it, so the exploration runs in a child (under a memory limit) sent SIGINT.
    program = PROGRAM.format(
        mib=4096,
        call='import itertools; print("started", flush=True); '
        "gg.explore(0, lambda p: itertools.count(p + 1))",
    ).replace("except (MemoryError, ValueError)", "except KeyboardInterrupt")
    child = subprocess.Popen(
        [sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout.readline() == "started\n"
    time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.startswith("KeyboardInterrupt"), (out, err)


def test_thread_counts_are_bounded_as_in_the_command():
    g = gg.Graph(2, [1], [2])
    with pytest.raises(ValueError, match="threads=5000 is more than the 1024 supported"):
        gg.retro(g, threads=5000)
    assert gg.retro(g, threads=1024).outcome.tolist() == [1, 2]
