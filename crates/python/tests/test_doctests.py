"""The examples in the docstrings and in docs/python.md run as doctests."""

from __future__ import annotations

import doctest

import pytest

import gamegraph
import gamegraph._native
import gamegraph._serve
import gamegraph.games
from conftest import ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _docstrings():
    finder = doctest.DocTestFinder()
    for module in (gamegraph, gamegraph._native, gamegraph._serve, gamegraph.games):
        for test in finder.find(module):
            if test.examples:
                yield pytest.param(test, id=test.name)


def test_every_public_function_has_an_example():
    tested = {t.values[0].name.rsplit(".", 1)[-1] for t in _docstrings()}
    functions = {
        name for name in gamegraph.__all__ if callable(getattr(gamegraph, name)) and name[0].islower()
    }
    assert functions <= tested, functions - tested


@pytest.mark.parametrize("test", list(_docstrings()))
def test_docstring(test, monkeypatch):
    monkeypatch.chdir(ROOT)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {test.name}"


def test_worked_session_in_docs(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "python.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_example():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 3
    assert result.failed == 0
