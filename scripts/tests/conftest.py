"""Shared helpers for the tools' tests: paths, running kawari-match, reading output.

The tests import the installed package (``pip install -e 'scripts[dev]'``) and run
the commands as ``python -m kawari_tools.cli.<tool>``, the modules behind the
console entry points."""

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass

import pytest

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
SCRIPTS_DIR = os.path.dirname(TESTS_DIR)
REPO_ROOT = os.path.dirname(SCRIPTS_DIR)
# a command line's start for each tool, as `kawari-<tool>` runs it
MATCH = ["-m", "kawari_tools.cli.match"]
STUB = os.path.join(TESTS_DIR, "stubs", "stub_engine.py")
# The reference perft data shipped with the project (see its PROVENANCE.md).
PERFT_DIR = os.path.join(REPO_ROOT, "engine-tests", "data")

SCORE_RE = re.compile(r"^Score of (.+) vs (.+): (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)$")
ELO_RE = re.compile(r"^Elo difference: (-?[\d.]+|-?inf|nan) \+/- ([\d.]+|inf|nan)$")


def tool(name: str) -> list[str]:
    """The command line that runs tool ``name`` (``match``, ``spsa``, ...) as its
    ``kawari-<name>`` entry point does."""
    return [sys.executable, "-m", f"kawari_tools.cli.{name}"]


def stub(*extra: str) -> str:
    """Command line of the stub engine with extra arguments."""
    return " ".join([sys.executable, STUB, *extra])


@dataclass
class MatchRun:
    returncode: int
    stdout: str
    stderr: str
    records: list

    @property
    def score(self):
        """(wins, losses, draws, score, games) of engine 1 from the cutechess line."""
        m = SCORE_RE.match(self.stdout.strip().splitlines()[-2])
        assert m, self.stdout
        return int(m[3]), int(m[4]), int(m[5]), float(m[6]), int(m[7])

    def line(self, prefix: str) -> str:
        for line in self.stdout.splitlines():
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no line starting with {prefix!r} in:\n{self.stdout}")


@pytest.fixture
def run_match(tmp_path):
    """Run kawari-match with the given arguments; records go to a temporary file."""
    counter = [0]

    def run(*args: str, timeout: float = 120, check: bool = True) -> MatchRun:
        counter[0] += 1
        records = tmp_path / f"records{counter[0]}.jsonl"
        cmd = [sys.executable, *MATCH, *args, "--records", str(records)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              cwd=REPO_ROOT)
        recs = []
        if records.exists():
            recs = [json.loads(line) for line in records.read_text().splitlines() if line]
        result = MatchRun(proc.returncode, proc.stdout, proc.stderr, recs)
        if check:
            assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
            lines = proc.stdout.strip().splitlines()
            assert SCORE_RE.match(lines[-2]), proc.stdout
            assert ELO_RE.match(lines[-1]), proc.stdout
        return result

    return run
