"""Bad input raises ValueError and failures RuntimeError, as the CLI exits 2 and 1, with the
CLI's one-line messages: the cases of the CLI's hostile-input list that the package can meet."""

import os

import pytest

import mmtree

EXCEPTION = {2: ValueError, 1: RuntimeError}


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def with_checksum(data):
    """`data` with its last 8 bytes replaced by the checksum of the rest (an edited file)."""
    data = bytearray(data)
    data[-8:] = fnv1a64(bytes(data[:-8])).to_bytes(8, "little")
    return bytes(data)


def same_refusal(cli, call, args, words=None, same_message=True):
    """`call()` raises the exception of the CLI's exit code for `args`, with its message."""
    done = cli(*args, check=False)
    assert done.returncode in EXCEPTION, done.stderr
    with pytest.raises(EXCEPTION[done.returncode]) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message and "\x1b" not in message
    if same_message:
        assert message == done.stderr.strip().removeprefix("mmtree: ")
    if words:
        assert words in message
    return message


@pytest.mark.parametrize(
    "call, args, words",
    [
        (lambda: mmtree.Game(0, 6), ["solve", "-n", "0", "-k", "6"], None),
        (lambda: mmtree.Game(5, 4, distinct=True), ["solve", "-n", "5", "-k", "4", "--distinct"], None),
        (lambda: mmtree.Game(11, 2), ["solve", "-n", "11", "-k", "2"], None),
        (lambda: mmtree.Game(2, 36), ["solve", "-n", "2", "-k", "36"], None),
        (lambda: mmtree.Game(2, 2, symbols="a\x01bc"), ["solve", "-n", "2", "-k", "2", "--symbols", "a\x01bc"],
         "control or invisible character"),
        (lambda: mmtree.Game(2, 2, symbols="ab\x1b[31mc"), ["solve", "-n", "2", "-k", "2", "--symbols", "ab\x1b[31mc"],
         "control or invisible character"),
        (lambda: mmtree.Game(2, 2, memory_limit="lots"), ["solve", "-n", "2", "-k", "2", "--memory-limit", "lots"], None),
        (lambda: mmtree.solve(mmtree.Game(6, 9, memory_limit="1M")),
         ["solve", "-n", "6", "-k", "9", "--memory-limit", "1M"], None),
        (lambda: mmtree.solve(4, 6, first="1237"), ["solve", "-n", "4", "-k", "6", "--first", "1237"], None),
        (lambda: mmtree.advise(mmtree.Game(4, 6, black_only=True), "1122:1,2"),
         ["advise", "-n", "4", "-k", "6", "--black-only", "--history", "1122:1,2"],
         "a black-only game scores a round with one number"),
        (lambda: mmtree.advise(mmtree.Game(4, 6), "1122:4,0 1122:0,0"),
         ["advise", "-n", "4", "-k", "6", "--history", "1122:4,0 1122:0,0"], "inconsistent history"),
        (lambda: mmtree.advise(mmtree.Game(4, 6), "1122:5,0"),
         ["advise", "-n", "4", "-k", "6", "--history", "1122:5,0"], None),
        (lambda: mmtree.optimal(2, 3, max_depth=1), ["optimal", "-n", "2", "-k", "3", "--max-depth", "1"], None),
    ],
)
def test_same_refusal_as_the_cli(cli, call, args, words):
    same_refusal(cli, call, args, words)


@pytest.mark.parametrize(
    "call, args",
    [
        # The same checks, worded with the package's argument names.
        (lambda: mmtree.solve(3, 3, lookahead=3), ["solve", "-n", "3", "-k", "3", "--lookahead", "3"]),
        (lambda: mmtree.solve(3, 3, "human", lookahead=2),
         ["solve", "-n", "3", "-k", "3", "--valuation", "human", "--lookahead", "2"]),
        (lambda: mmtree.solve(3, 3, "human", pool="candidates"),
         ["solve", "-n", "3", "-k", "3", "--valuation", "human", "--pool", "candidates"]),
        (lambda: mmtree.solve(3, 3, "first-candidate", prefer_candidates=False),
         ["solve", "-n", "3", "-k", "3", "--valuation", "first-candidate", "--no-prefer-candidates"]),
        (lambda: mmtree.solve(3, 3, "maximin"), ["solve", "-n", "3", "-k", "3", "--valuation", "maximin"]),
        (lambda: mmtree.advise(mmtree.Game(4, 6), "", top=0), ["advise", "-n", "4", "-k", "6", "--top", "0"]),
        (lambda: mmtree.optimal(2, 2, max_depth=255), ["optimal", "-n", "2", "-k", "2", "--max-depth", "255"]),
        (lambda: mmtree.sweep(n=2**64 - 1, k=2), ["sweep", "-n", "18446744073709551615", "-k", "2"]),
        (lambda: mmtree.sweep(n=[], k=2), ["sweep", "-n", "3..3", "-k", "2"]),
        (lambda: mmtree.sweep(n=2, k=2, valuations="maximin"), ["sweep", "-n", "2", "-k", "2", "--valuation", "maximin"]),
    ],
)
def test_refused_like_the_cli(cli, call, args):
    message = same_refusal(cli, call, args, same_message=False)
    assert "is not a number" not in message


def test_the_huge_number_is_named():
    with pytest.raises(ValueError, match="18446744073709551615 is not between 1 and 10"):
        mmtree.sweep(n=2**64 - 1, k=2)


@pytest.fixture
def tree_file(tmp_path):
    path = tmp_path / "t.mmt"
    mmtree.solve(3, 3).save(path)
    return path


def edited(tmp_path, tree_file, name, edit):
    data = bytearray(tree_file.read_bytes())
    edit(data)
    path = tmp_path / name
    path.write_bytes(with_checksum(data))
    return path


@pytest.mark.parametrize(
    "name, edit, words",
    [
        ("flag.mmt", lambda b: b.__setitem__(b.index(b"smallest") + len("smallest"), 7),
         "a yes/no flag holds 7 instead of 0 or 1"),
        ("variant.mmt", lambda b: b.__setitem__(22, 5), "unknown kind number 5"),
        ("bogus.mmt", lambda b: b.__setitem__(slice(b.index(b"minimax"), b.index(b"minimax") + 7), b"maximin"),
         "unknown valuation 'maximin' recorded in the file"),
        ("node.mmt", lambda b: b.__setitem__(len(b) - 9, 0xFF), "node "),
    ],
)
def test_corrupt_tree_files(cli, tmp_path, tree_file, name, edit, words):
    path = edited(tmp_path, tree_file, name, edit)
    for call, command in [(mmtree.load, "stats"), (mmtree.verify, "verify")]:
        message = same_refusal(cli, lambda: call(path), [command, str(path)], words)
        assert str(path) in message
        for debug in ["InvalidBooleanValue", "OtherString", "UnexpectedEnd", "Utf8 {"]:
            assert debug not in message


def test_unreadable_tree_files(cli, tmp_path, tree_file):
    truncated = tmp_path / "cut.mmt"
    truncated.write_bytes(tree_file.read_bytes()[:40])
    for path, words in [
        ("/dev/zero", "wrong magic bytes"),
        (str(tmp_path), None),
        (str(tmp_path / "missing.mmt"), None),
        (str(truncated), None),
    ]:
        same_refusal(cli, lambda: mmtree.load(path), ["stats", path], words)


def test_a_header_claiming_a_huge_game_is_refused(cli, tmp_path, tree_file):
    # [3,3]'s header, edited to claim [8,9]: refused before allocating.
    path = edited(tmp_path, tree_file, "claim.mmt", lambda b: (b.__setitem__(20, 8), b.__setitem__(21, 9)))
    for call, command in [(mmtree.load, "stats"), (mmtree.verify, "verify")]:
        same_refusal(cli, lambda: call(path), [command, str(path)], "cannot hold a strategy tree of [8,9]")


def test_save_refuses_bad_paths(cli, tmp_path):
    tree = mmtree.solve(2, 2)
    for target in [tmp_path / "missing" / "t.mmt", tmp_path]:
        done = cli("solve", "-n", "2", "-k", "2", "-o", str(target), check=False)
        assert done.returncode == 2
        with pytest.raises(ValueError):
            tree.save(target)


def test_save_leaves_a_read_only_file_alone(cli, tmp_path):
    path = tmp_path / "ro.mmt"
    mmtree.solve(2, 2).save(path)
    os.chmod(path, 0o444)
    before = path.read_bytes()
    same_refusal(cli, lambda: mmtree.solve(2, 3).save(path), ["solve", "-n", "2", "-k", "3", "-o", str(path)])
    assert path.read_bytes() == before and os.stat(path).st_mode & 0o777 == 0o444


def test_wrong_argument_types():
    with pytest.raises(ValueError):
        mmtree.solve(4)
    with pytest.raises(ValueError):
        mmtree.solve(mmtree.Game(4, 6), 6)
    with pytest.raises(ValueError):
        mmtree.sweep(n="two", k=2)
    with pytest.raises(ValueError):
        mmtree.advise(mmtree.Game(4, 6), [("1122", "one")])
