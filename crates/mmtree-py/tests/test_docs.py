"""The examples in the docstrings run, so the documentation cannot drift from the code."""

import doctest

import pytest

import mmtree

DOCUMENTED = [mmtree, mmtree.Game, mmtree.Tree, mmtree.solve, mmtree.sweep, mmtree.optimal, mmtree.advise]


@pytest.mark.parametrize("obj", DOCUMENTED, ids=lambda o: getattr(o, "__name__", str(o)))
def test_docstring_examples(obj):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(obj, getattr(obj, "__name__", "mmtree"), globs={"mmtree": mmtree}) if t.examples]
    assert tests, "the docstring has an example"
    for test in tests:
        runner.run(test)
    assert runner.failures == 0
