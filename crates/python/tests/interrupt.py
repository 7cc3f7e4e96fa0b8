"""Ctrl-C in the tests: the KeyboardInterrupt a terminal's Ctrl-C raises, sent to the main
thread while a long call runs."""
from __future__ import annotations

import _thread
import threading
import time
from typing import Callable

import pytest


def assert_ctrl_c_stops(call: Callable[[], object], after: float = 0.5) -> None:
    """`call()` raises KeyboardInterrupt when interrupted `after` seconds in, within 10 s."""
    timer = threading.Timer(after, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10
