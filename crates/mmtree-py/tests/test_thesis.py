"""The thesis's [4,6] figures (Knuth; Neuwirth; Kooi), recomputed through the package."""

import pytest

import mmtree

# Total guesses over the 1296 secrets of [4,6], each valuation with its own first guess,
# as published: minimax 5801 (Knuth), expected size 5696, entropy 5722, most parts 5668.
PUBLISHED = {"minimax": 5801, "expected-size": 5696, "entropy": 5722, "most-parts": 5668}
# The first guesses and maxima the thesis's table prints beside them (data/thesis_4_6.csv).
FIRST_AND_MAX = {"minimax": ("1122", 5), "entropy": ("1234", 6), "most-parts": ("1123", 6)}


@pytest.mark.parametrize("valuation", sorted(PUBLISHED))
def test_published_totals(valuation):
    tree = mmtree.solve(4, 6, valuation)
    assert tree.total == PUBLISHED[valuation]
    if valuation in FIRST_AND_MAX:
        assert (tree.first_guess, tree.max) == FIRST_AND_MAX[valuation]
    assert sum(tree.histogram) == 1296 and len(tree.histogram) == tree.max
    assert tree.stats["total"] == tree.total and tree.stats["valuation"] == valuation


def test_knuth_histogram():
    # Knuth (1976): 1 secret in one guess, 6 in two, 62 in three, 533 in four, 694 in five.
    assert mmtree.solve(mmtree.Game(4, 6)).histogram == [1, 6, 62, 533, 694]


def test_thesis_tables():
    tables = mmtree.thesis()
    own = next(rows for title, rows in tables.items() if title.startswith("Each valuation"))
    assert {r["valuation"]: r["total"] for r in own} == PUBLISHED
    first = next(rows for title, rows in tables.items() if title.startswith("Valuation of the first"))
    # Five classes of first guesses on [4,6]; 1122 leaves at most 256 candidates (Knuth).
    assert [r["guess"] for r in first] == ["1111", "1112", "1122", "1123", "1234"]
    assert next(r for r in first if r["guess"] == "1122")["largest_part"] == 256
