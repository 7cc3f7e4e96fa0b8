"""Octal and subtraction sequences against the plain definitions."""

from __future__ import annotations

import _thread
import threading
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
import reference as ref

octal_digits = st.lists(st.integers(0, 7), min_size=1, max_size=4).filter(lambda d: d[-1] != 0)


@given(st.sampled_from(["0", "4"]), octal_digits, st.sampled_from(["sparse", "plain"]))
def test_octal_values_follow_the_definition(lead, digits, method):
    code = lead + "." + "".join(map(str, digits))
    seq = gg.octal(code, upto=60, limit=0, method=method)
    assert seq.values.dtype == np.int64
    assert seq.values.tolist() == ref.octal(code, 60)


@pytest.mark.parametrize(
    "code, preperiod, period",
    [("0.77", 71, 12), ("0.07", 53, 34), ("4.07", None, None), ("0.137", 52, 34)],
)
def test_octal_periods_agree_with_a_long_naive_prefix(code, preperiod, period):
    seq = gg.octal(code, limit=3000)
    if preperiod is not None:
        assert seq.preperiod == preperiod
    if period is not None:
        assert seq.period == period
    if seq.period is None:
        return
    n = seq.preperiod + 4 * seq.period + 40
    naive = ref.octal(code, n)
    assert [seq.value(i) for i in range(n + 1)] == naive
    assert ref.least_period(naive, 3 * seq.period) == (seq.preperiod, seq.period)


@given(
    st.lists(st.integers(1, 9), min_size=1, max_size=4, unique=True),
    st.booleans(),
)
def test_subtraction_values_and_periods(s, misere):
    seq = gg.subtraction(s, upto=80, misere=misere)
    naive = ref.subtraction(s, 300, misere)
    assert seq.values.tolist() == naive[:81]
    assert seq.period is not None and seq.preperiod is not None
    assert [seq.value(i) for i in range(301)] == naive
    p, q = ref.least_period(naive, 200)
    assert (seq.preperiod, seq.period) == (p, q)
    text = gg.subtraction(",".join(map(str, s)), upto=80, misere=misere)
    assert text.values.tolist() == seq.values.tolist() and text.game == seq.game


def test_sequence_attributes():
    seq = gg.octal("0.77", upto=200)
    assert seq.game == "0.77" and len(seq.values) == 201 and seq.computed <= 1_000_000
    assert repr(seq).startswith("Sequence(game='0.77'")
    assert gg.subtraction([1, 3, 4], misere=True, upto=3).game == "1,3,4 misere"
    full = gg.octal("0.77", limit=2000, full=True)
    assert full.computed == 2000 and full.period == 12
    assert gg.octal("0.77", limit=500).values.size == gg.octal("0.77", limit=500).computed


def test_sequence_errors():
    with pytest.raises(ValueError, match=r'^invalid octal code "0\.8": column 3'):
        gg.octal("0.8")
    with pytest.raises(ValueError, match=r'^invalid octal code "1\.7": the digit before the point'):
        gg.octal("1.7")
    with pytest.raises(ValueError, match=r'^invalid subtraction set "1,0": element 2 is 0'):
        gg.subtraction([1, 0])
    with pytest.raises(ValueError, match=r'^invalid subtraction set "1,1": 1 appears twice'):
        gg.subtraction("1,1")
    with pytest.raises(ValueError, match="method must be 'sparse' or 'plain'"):
        gg.octal("0.77", method="fast")
    with pytest.raises(ValueError, match=r"^cannot compute 4294967296 values"):
        gg.octal("0.77", limit=2**32)
    short = gg.octal("0.6", limit=100)
    assert short.period is None
    with pytest.raises(ValueError, match=r"^g\(1000\) is unknown: no period was proven"):
        short.value(1000)
    assert gg.octal("0.6", upto=500, limit=100).computed == 501
    with pytest.raises(ValueError, match="n must be an integer from 0"):
        short.value(-1)


def test_a_time_limit_raises_timeout_error():
    start = time.monotonic()
    with pytest.raises(TimeoutError, match="time limit reached after computing"):
        gg.octal("0.6", limit=10**6, full=True, time_limit=0.2)
    assert time.monotonic() - start < 10
    with pytest.raises(TimeoutError):
        gg.subtraction([1, 3, 4], limit=4 * 10**6, full=True, time_limit=0.0)
    with pytest.raises(ValueError, match="time_limit -1: not a number of seconds"):
        gg.octal("0.77", time_limit=-1.0)


def test_ctrl_c_stops_an_octal_sequence():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            gg.octal("0.6", limit=10**7, full=True)
    finally:
        timer.cancel()


def test_a_sequence_draws_itself():
    svg = gg.octal("0.07", upto=120)._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "pre-period 53, period 34" in svg and svg.count("<circle") == 121
