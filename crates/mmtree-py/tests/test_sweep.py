"""`mmtree.sweep` against the CLI's CSV for the same grid, progress and Ctrl-C."""

import csv
import io
import os
import signal
import threading
import time

import pytest

import mmtree


def test_sweep_equals_cli_csv(cli):
    rows = mmtree.sweep(n=range(2, 4), k=range(2, 5), valuations="all", pools=("all", "candidates"))
    text = cli("sweep", "-n", "2..=3", "-k", "2..=4", "--pool", "all,candidates", "--format", "csv").stdout
    expected = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(expected) == 2 * 3 * 4 * 2
    for row, want in zip(rows, expected):
        assert list(row) == list(want), "the dict's keys are the CSV's columns, in order"
        for key in ("n", "k", "max", "total"):
            assert str(row[key]) == want[key], key
        for key in ("variant", "feedback", "valuation", "pool", "ties", "first_guess"):
            assert row[key] == want[key], key
        assert f"{row['average']:.3f}" == want["average"]
        assert " ".join(map(str, row["histogram"])) == want["histogram"]
        assert row["skipped"] is None and want["skipped"] == ""


def test_sweep_into_pandas():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(mmtree.sweep(n=2, k=[3, 4], valuations="expected-size"))
    # Chen and Lin: the optimal totals of two pegs with 3 and 4 colours, reached here.
    assert list(frame["total"]) == [21, 45]


def test_skipped_rows_say_why():
    rows = mmtree.sweep(n=3, k=2, valuations="minimax", distinct=True)
    assert rows[0]["total"] is None and "needs n <= k" in rows[0]["skipped"]


def test_progress_reaches_the_total():
    seen = []
    mmtree.sweep(n=[3, 4], k=[4, 5], valuations="minimax", progress=lambda done, total: seen.append((done, total)))
    total = 4**3 + 5**3 + 4**4 + 5**4
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_progress_exception_stops_the_sweep():
    def fail(done, total):
        raise ZeroDivisionError("stop here")

    with pytest.raises(ZeroDivisionError, match="stop here"):
        mmtree.sweep(n=[3, 4], k=[4, 5], progress=fail)


def test_ctrl_c_interrupts_a_running_sweep():
    # Python's own Ctrl-C handler, as in a terminal or a notebook (a shell starting a job in
    # the background sets SIGINT to be ignored, and Python keeps that).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # The whole grid takes many seconds; SIGINT after half a second must end it soon.
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mmtree.sweep(n=range(4, 6), k=range(6, 9))
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 60


def test_the_gil_is_released_while_solving():
    # Another Python thread keeps running while a tree is built (a held GIL would stall it).
    ticks = []
    worker = threading.Thread(target=mmtree.solve, args=(5, 7))
    worker.start()
    while worker.is_alive():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    worker.join()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert len(ticks) > 20 and max(gaps) < 0.5
