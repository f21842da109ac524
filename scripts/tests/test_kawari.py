"""Kawari vs Kawari at low depth: a short match per variant through kawari-match.

The binary is ``target/release/kawari`` under the repository root, or ``$KAWARI_BIN``.
The tests are skipped (with the reason) when the binary does not exist or does not
answer ``usi`` with ``usiok`` (e.g. a stale build from before the USI loop); set
``KAWARI_REQUIRED=1`` to make those cases failures instead.  ``KAWARI_DEPTH`` (default
2) sets the search depth.
"""

import os
import subprocess

import pytest
from conftest import REPO_ROOT

from kawari_tools import referee as R

KAWARI = os.environ.get("KAWARI_BIN") or os.path.join(REPO_ROOT, "target", "release", "kawari")
DEPTH = os.environ.get("KAWARI_DEPTH", "2")
REQUIRED = os.environ.get("KAWARI_REQUIRED") == "1"


def _unusable_reason():
    if not (os.path.isfile(KAWARI) and os.access(KAWARI, os.X_OK)):
        return f"Kawari binary not found at {KAWARI} (build with `cargo build --release` " \
               f"or set KAWARI_BIN)"
    try:
        out = subprocess.run([KAWARI], input="usi\nquit\n", capture_output=True, text=True,
                             timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{KAWARI} does not run: {e}"
    if "usiok" not in out.split():
        return f"{KAWARI} does not answer `usi` with `usiok` (stale build?)"
    return None


REASON = _unusable_reason()


@pytest.fixture(scope="module")
def kawari():
    if REASON is not None:
        if REQUIRED:
            pytest.fail(REASON)
        pytest.skip(REASON)
    return KAWARI


@pytest.mark.parametrize("variant", list(R.VARIANTS))
def test_kawari_vs_kawari(kawari, run_match, variant):
    run = run_match("--variant", variant, "--engine", kawari, "--engine", kawari,
                    "--name", "kawari-1", "--name", "kawari-2", "--games", "2",
                    "--depth", DEPTH, "--max-plies", "160", "--hang-timeout", "60",
                    "--concurrency", "2", "--seed", "3", timeout=300)
    wins, losses, draws, _score, games = run.score
    assert games == 2
    for prefix in ("Illegal moves:", "Time losses:", "Crashes:", "Stalls (no reply):"):
        assert run.line(prefix) == f"{prefix} kawari-1 0, kawari-2 0", run.stdout
    assert len(run.records) == 2
    for rec in run.records:
        assert rec["reason"] in {"checkmate", "stalemate", "repetition", "perpetual check",
                                 "bare king", "declaration", "impasse", "move cap", "resign"}, rec
        ref = R.Referee(variant, rec["start_sfen"], rec["moves"])
        assert ref.sfen == rec["end_sfen"]
