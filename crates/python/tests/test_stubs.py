"""The type stubs match the native module (mypy's stubtest), when mypy is installed."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_stubs_match_the_module(tmp_path):
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "gamegraph._native"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,  # where stubtest leaves its .mypy_cache
    )
    assert out.returncode == 0, out.stdout + out.stderr
