"""Trees: depths() and path() against `mmtree trace`, save/load/verify round trips, DOT."""

import itertools
import json

import numpy as np
import pytest

import mmtree


def codes_in_order(game):
    """Every code of the game in code order (lexicographic in the symbols)."""
    symbols = game.symbols
    if game.distinct:
        return ["".join(c) for c in itertools.permutations(symbols, game.n)]
    return ["".join(c) for c in itertools.product(symbols, repeat=game.n)]


@pytest.mark.parametrize(
    "game, flags, valuation",
    [
        (mmtree.Game(4, 6), ["-n", "4", "-k", "6"], "minimax"),
        (mmtree.Game(4, 6), ["-n", "4", "-k", "6"], "entropy"),
        (mmtree.Game(4, 10, distinct=True), ["-n", "4", "-k", "10", "--distinct"], "most-parts"),
        (mmtree.Game(3, 4, black_only=True), ["-n", "3", "-k", "4", "--black-only"], "expected-size"),
    ],
)
def test_depths_match_trace(cli, game, flags, valuation):
    tree = mmtree.solve(game, valuation=valuation)
    depths = tree.depths()
    codes = codes_in_order(game)
    assert depths.dtype == np.uint32 and depths.shape == (len(codes),) == (game.codes,)
    assert int(depths.sum()) == tree.total and int(depths.max()) == tree.max
    assert list(np.bincount(depths)[1:]) == tree.histogram
    for i in range(0, len(codes), max(1, len(codes) // 25)):
        secret = codes[i]
        trace = cli("trace", *flags, "--valuation", valuation, "--secret", secret, "--format", "json").stdout
        rounds = json.loads(trace)
        assert depths[i] == len(rounds), secret
        path = tree.path(secret)
        assert [g for g, _ in path] == [r["guess"] for r in rounds]
        shown = [str(b) if game.black_only else f"({b},{w})" for _, (b, w) in path]
        assert shown == [r["feedback"] for r in rounds]
        assert path[-1] == (secret, (game.n, 0))


def test_save_load_verify_round_trip(tmp_path, cli):
    tree = mmtree.solve(4, 6, "most-parts", first="1234")
    path = tmp_path / "t.mmt"
    tree.save(path)
    again = mmtree.load(str(path))
    assert again.stats == tree.stats
    assert np.array_equal(again.depths(), tree.depths())
    assert again.path("6543") == tree.path("6543")
    assert mmtree.verify(path) == tree.stats
    # The CLI reads the package's file, and the package reads the CLI's.
    assert json.loads(cli("verify", str(path), "--format", "json").stdout) == tree.stats
    cli_file = tmp_path / "cli.mmt"
    cli("solve", "-n", "4", "-k", "6", "--valuation", "most-parts", "--first", "1234", "-o", str(cli_file))
    assert cli_file.read_bytes() == path.read_bytes()
    assert mmtree.load(cli_file).stats == tree.stats


def test_solve_json_keys(cli):
    tree = mmtree.solve(3, 4, "expected-size", pool="candidates", ties="largest")
    want = json.loads(
        cli("solve", "-n", "3", "-k", "4", "--valuation", "expected-size", "--pool", "candidates",
            "--ties", "largest", "--format", "json").stdout
    )
    assert tree.stats == want
    assert list(tree.stats) == ["n", "k", "variant", "feedback", "valuation", "pool", "ties", "first_guess",
                                "max", "total", "average", "histogram"]


def test_lookahead_and_simple_strategies(cli):
    for valuation, lookahead in [("entropy", 2), ("first-candidate", 1), ("human", 1)]:
        tree = mmtree.solve(3, 3, valuation, lookahead=lookahead)
        args = ["solve", "-n", "3", "-k", "3", "--valuation", valuation, "--lookahead", str(lookahead)]
        assert tree.stats == json.loads(cli(*args, "--format", "json").stdout)


def test_to_dot_matches_cli(tmp_path, cli):
    tree = mmtree.solve(2, 3)
    path = tmp_path / "t.mmt"
    tree.save(path)
    assert tree.to_dot() == cli("dot", str(path)).stdout
    assert tree.to_dot(max_depth=1, labels="size", rankdir="LR") == cli(
        "dot", str(path), "--max-depth", "1", "--labels", "size", "--rankdir", "lr").stdout


def test_optimal_published():
    # Chen and Lin: [2,3] needs 21 guesses in all; Koyama and Lai: [4,6] needs 5625.
    assert mmtree.optimal(2, 3).total == 21
    tree = mmtree.optimal(mmtree.Game(4, 6))
    assert (tree.total, tree.stats["valuation"]) == (5625, "optimal-average")


def test_optimal_stopped_returns_bounds():
    stopped = mmtree.optimal(4, 6, stop_after_nodes=5)
    assert stopped["exact"] is False and stopped["nodes"] >= 5
    assert stopped["valuation"] == "optimal-average"
    # Koyama and Lai: the optimum of [4,6] is 5625 guesses in total.
    assert stopped["lower_bound"] <= 5625 <= stopped["upper_bound"]
    assert stopped["tree"].total == stopped["upper_bound"]
    assert stopped["tree"].stats["valuation"] == "anytime-average"
    worst = mmtree.optimal(4, 6, objective="worst", stop_after_nodes=5)
    assert worst["lower_bound"] is None and worst["upper_bound"] is None
    assert mmtree.optimal(4, 7, time_limit=0.0)["exact"] is False


def test_advise_matches_cli(cli):
    got = mmtree.advise(mmtree.Game(4, 6), [("1122", (1, 0)), "1344:0,2"], top=3, codes=True)
    want = json.loads(cli("advise", "-n", "4", "-k", "6", "--history", "1122:1,0 1344:0,2", "--top", "3",
                          "--codes", "--format", "json").stdout)
    assert got == want
