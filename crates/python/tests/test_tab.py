"""The tab board against the explicit game graph."""

from __future__ import annotations

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
