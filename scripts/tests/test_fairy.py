"""Fairy-Stockfish through kawari-match: the referee must accept every move it plays.

Uses ``$FAIRY_STOCKFISH_BIN`` or ``fairy-stockfish`` on the PATH (a largeboards build,
for yarishogi); skipped when neither exists.  Checks the protocol details too: the
Heian definition goes in through ``VariantPath`` and the variant through
``USI_Variant``, both of which Fairy-Stockfish lists.
"""

import os
import shutil

import pytest
from conftest import stub

from kawari_tools import referee as R

FSF = os.environ.get("FAIRY_STOCKFISH_BIN") or shutil.which("fairy-stockfish")


@pytest.fixture(scope="module")
def fsf():
    if not FSF or not os.access(FSF, os.X_OK):
        # the project neither ships nor builds Fairy-Stockfish: this cross-check runs
        # where a binary is given, and says so where it is not
        pytest.skip("Fairy-Stockfish cross-check skipped: no binary (set FAIRY_STOCKFISH_BIN "
                    "or put fairy-stockfish on PATH)")
    return FSF


@pytest.mark.parametrize("variant", list(R.VARIANTS))
def test_fairy_stockfish_self_play_is_legal(fsf, run_match, variant):
    run = run_match("--variant", variant, "--engine", fsf, "--engine", fsf,
                    "--name", "F1", "--name", "F2", "--games", "2", "--depth", "3",
                    "--max-plies", "120", "--concurrency", "2", "--seed", "11",
                    "--option", "USI_Hash=8", timeout=300)
    for prefix in ("Illegal moves:", "Time losses:", "Crashes:", "Stalls (no reply):"):
        assert run.line(prefix) == f"{prefix} F1 0, F2 0", run.stdout
    for rec in run.records:
        ref = R.Referee(variant, rec["start_sfen"], rec["moves"])
        assert ref.sfen == rec["end_sfen"]


def test_fairy_stockfish_beats_a_random_mover(fsf, run_match):
    run = run_match("--variant", "judkins", "--engine", fsf, "--engine", stub(),
                    "--games", "2", "--movetime", "30")
    assert run.score[0] == 2
