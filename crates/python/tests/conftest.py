"""Shared fixtures: the repository root and the `gamegraph` command, when it is built."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"

settings.register_profile("default", max_examples=150, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The Ctrl-C tests raise KeyboardInterrupt in the main thread, which Python does only when
# its own handler is installed: a process started with SIGINT ignored (a job started in the
# background by a non-interactive shell) has none, so it is installed here.
signal.signal(signal.SIGINT, signal.default_int_handler)


def _find_cli() -> Path | None:
    given = os.environ.get("GAMEGRAPH_BIN")
    if given:
        return Path(given)
    for profile in ("debug", "release"):
        exe = ROOT / "target" / profile / "gamegraph"
        if exe.exists():
            return exe
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs `gamegraph ARGS... --json` and returns the parsed output.

    Skipped when the binary is not built; under CI (GAMEGRAPH_BIN set) a missing binary
    fails instead.
    """
    exe = _find_cli()
    if exe is None:
        pytest.skip("the gamegraph command is not built (cargo build -p gamegraph-cli)")
    assert exe.exists(), f"GAMEGRAPH_BIN={exe} does not exist"

    def run(*args: str, expect_json: bool = True):
        out = subprocess.run(
            [str(exe), *args], cwd=ROOT, capture_output=True, text=True, check=False
        )
        if not expect_json:
            return out
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    return run
