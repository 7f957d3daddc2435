"""Shared fixtures: the `mmtree` command-line tool, to compare the package with."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli():
    """Runs the `mmtree` binary (MMTREE_BIN, or the workspace's release build, built if
    missing) and returns the completed process."""
    binary = os.environ.get("MMTREE_BIN") or str(REPO / "target" / "release" / "mmtree")
    if not os.path.exists(binary):
        subprocess.run(["cargo", "build", "--release", "--bin", "mmtree"], cwd=REPO, check=True)

    def run(*args, check=True):
        done = subprocess.run([binary, "-q", *args], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"mmtree {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done

    return run
