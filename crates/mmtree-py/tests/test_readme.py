"""The README's notebook example runs and prints the thesis's Min-max figures."""

import importlib.util
import re

import pytest

from conftest import REPO


def test_notebook_example():
    pytest.importorskip("pandas")
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("The thesis's Min-max table, and the averages over k") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    if importlib.util.find_spec("matplotlib") is None:
        code = "\n".join(line for line in code.splitlines() if ".plot(" not in line)
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    knuth = scope["minmax"].set_index("first_guess").loc["1122"]
    assert (knuth["max"], knuth["total"], knuth["thesis"]) == (5, 5801, "5 / 4.476")
    assert list(scope["averages"].index) == [2, 3, 4, 5, 6, 7]
    assert sorted(scope["averages"].columns) == ["entropy", "expected-size", "minimax", "most-parts"]
