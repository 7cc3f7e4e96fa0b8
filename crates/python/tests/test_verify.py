"""The independent checks: every solver's answers pass, and broken answers fail with the
rule they break, as `gamegraph verify` reports it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamegraph as gg
import reference as ref
from strategies import build, graphs


@given(graphs(max_vertices=10, max_arcs=24), st.data())
def test_retro_answers_pass_and_any_change_fails(case, data):
    n, arcs = case
    g = build(gg, n, arcs)
    s = gg.retro(g)
    assert gg.verify_retro(g, s)
    outcome, depth, move = s.outcome.copy(), s.depth.copy(), s.move.copy()
    i = data.draw(st.integers(0, n - 1))
    which = data.draw(st.sampled_from(["outcome", "depth"]))
    if which == "outcome" or outcome[i] == gg.DRAW:
        outcome[i] = data.draw(st.sampled_from([o for o in (0, 1, 2) if o != outcome[i]]))
        if outcome[i] == gg.DRAW:
            depth[i], move[i] = -1, 0
        elif depth[i] < 0:
            depth[i], move[i] = 0, 0
    else:
        depth[i] += 2
    verdict = gg.verify_retro(g, SimpleNamespace(outcome=outcome, depth=depth, move=move))
    assert not verdict
    assert verdict.rule is not None and verdict.message.endswith(f"(rule {verdict.rule})")


def test_retro_verdicts_name_the_vertex_and_the_rule():
    g = gg.Graph(3, [1, 2], [2, 3])
    ok = gg.verify_retro(g, gg.retro(g))
    assert ok.ok and ok.rule is None and str(ok).startswith("ok: 3 vertices, 2 arcs")
    wrong = SimpleNamespace(outcome=[1, 1, 2], depth=[1, 1, 0], move=[2, 3, 0])
    v = gg.verify_retro(g, wrong)
    assert (v.ok, v.rule, v.at) == (False, "win-has-loss-successor", 1)
    assert repr(v).startswith("Verdict(ok=False, rule='win-has-loss-successor', at=1,")
    with pytest.raises(ValueError, match="outcome has 2 entries, the graph 3 vertices"):
        gg.verify_retro(g, SimpleNamespace(outcome=[1, 2], depth=[1, 0], move=[2, 0]))
    with pytest.raises(ValueError, match="vertex 2: outcome must be 0, 1 or 2, found 7"):
        gg.verify_retro(g, SimpleNamespace(outcome=[1, 7, 2], depth=[1, 0, 0], move=[2, 0, 0]))


@given(graphs(max_vertices=8, max_arcs=16), st.data())
def test_kernel_checks_agree_with_brute_force(case, data):
    n, arcs = case
    g = build(gg, n, arcs)
    succ = ref.successors(n, arcs)
    chosen = data.draw(st.sets(st.integers(1, n)))
    s = frozenset(v - 1 for v in chosen)
    independent, absorbing = ref.independent(succ, s), ref.absorbing(succ, s)
    assert bool(gg.verify_kernel(g, sorted(chosen))) == (independent and absorbing)
    assert bool(gg.verify_kernel(g, chosen, "independent")) == independent
    assert bool(gg.verify_kernel(g, chosen, "absorbing")) == absorbing
    assert bool(gg.verify_kernel(g, chosen, alpha=len(chosen))) == independent
    k = gg.kernel(g)
    if k is not None:
        assert gg.verify_kernel(g, k)
    size, witness = gg.alpha(g)
    assert gg.verify_kernel(g, witness, alpha=size)
    size, witness = gg.beta(g)
    assert gg.verify_kernel(g, witness, beta=size)


def test_kernel_verdicts_and_errors():
    six = gg.Graph(6, [1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 1])
    v = gg.verify_kernel(six, [1, 2])
    assert (v.rule, v.at) == ("internal-stability", 1)
    assert gg.verify_kernel(six, [1, 4]).rule == "external-stability"
    assert gg.verify_kernel(six, [1, 3, 5], alpha=2).rule == "size"
    with pytest.raises(ValueError, match="set: vertex 7 is outside 1..6"):
        gg.verify_kernel(six, [7])
    with pytest.raises(ValueError, match="property must be"):
        gg.verify_kernel(six, [1], "stable")
    with pytest.raises(ValueError, match="alpha or beta"):
        gg.verify_kernel(six, [1], alpha=1, beta=1)


@pytest.mark.parametrize("code", ["0.77", "0.07", "4.07", "0.137", "0.51", "0.156"])
def test_octal_periods_found_pass_and_wrong_ones_fail(code):
    s = gg.octal(code, upto=10)
    if s.period is None:
        pytest.skip(f"{code}: no period proven within the default limit")
    p, q = s.preperiod, s.period
    assert gg.verify_octal(code, p, q)
    if p > 0:
        assert gg.verify_octal(code, p - 1, q).rule in ("period",)
        assert gg.verify_octal(code, p + 1, q).rule == "least-preperiod"
    assert gg.verify_octal(code, p, 2 * q).rule == "smallest-period"
    assert gg.verify_octal(code, p + 1, 2 * q, least=False)


def test_the_guy_smith_range_at_its_boundary():
    # 0.4: g = 0, 0, 0, 1, ...; a period 1 from 0 holds for n < 2P + Q + t = 2 only.
    assert gg.octal("0.4", upto=3).values.tolist() == [0, 0, 0, 1]
    v = gg.verify_octal("0.4", 0, 1, least=False)
    assert (v.ok, v.rule, v.at) == (False, "period", 2)


@given(st.lists(st.integers(1, 9), min_size=1, max_size=3, unique=True), st.booleans())
def test_subtraction_periods_found_pass(s, misere):
    seq = gg.subtraction(s, misere=misere)
    assert gg.verify_subtraction(s, seq.preperiod, seq.period, misere=misere)
    assert not gg.verify_subtraction(s, seq.preperiod, 2 * seq.period, misere=misere)


def test_claims_that_cannot_be_checked_raise():
    with pytest.raises(ValueError, match="the period must be at least 1"):
        gg.verify_octal("0.77", 0, 0)
    with pytest.raises(ValueError, match="invalid octal code"):
        gg.verify_octal("0.8", 0, 1)
    with pytest.raises(ValueError, match="more than the 16777216"):
        gg.verify_octal("0.77", 10**8, 12)
    with pytest.raises(ValueError, match="invalid subtraction set"):
        gg.verify_subtraction([], 0, 1)


def test_period_checks_stop_at_a_time_limit_and_on_ctrl_c():
    from interrupt import assert_ctrl_c_stops

    # 0.6 splits heaps: four million of them take far longer than either bound.
    with pytest.raises(TimeoutError, match=r"^time limit of 0\.1 s reached after computing"):
        gg.verify_octal("0.6", 4_000_000, 1, least=False, time_limit=0.1)
    with pytest.raises(TimeoutError):
        gg.verify_subtraction([1, 2], 16_000_000, 3, least=False, time_limit=0)
    assert_ctrl_c_stops(lambda: gg.verify_octal("0.6", 4_000_000, 1, least=False))
    assert gg.verify_octal("0.77", 71, 12, time_limit=60)
