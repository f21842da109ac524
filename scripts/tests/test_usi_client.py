"""usi_client.py: an engine that exits, hangs or answers garbage fails the caller with
a clear message within its timeout; a working engine handshakes and searches."""

import shlex
import subprocess
import sys
import time

import pytest
from conftest import stub

from kawari_tools.cli import find_short_wins, label, verify_mate
from kawari_tools.usi_client import EngineError, UsiEngine, parse_score

SHOGI = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def engine(*extra: str, timeout: float = 5.0) -> UsiEngine:
    return UsiEngine(shlex.split(stub(*extra)), timeout=timeout)


def failure(call) -> tuple[EngineError, float]:
    """The EngineError ``call`` raises and the seconds it took."""
    t0 = time.monotonic()
    with pytest.raises(EngineError) as info:
        call()
    return info.value, time.monotonic() - t0


def test_a_working_engine_handshakes_and_searches():
    with engine() as usi:
        assert usi.id_name == "Stub-random"
        assert {"USI_Variant", "VariantPath", "USI_Hash"} <= set(usi.options)
        assert usi.select_variant("shogi")
        usi.isready()
        reply = usi.search(SHOGI, [], "go depth 1", 10)
        assert reply.move and reply.score == ("cp", 0)


def test_an_engine_that_exits_before_usiok():
    err, took = failure(lambda: engine("--mode", "dead").start())
    assert err.kind == "crash"
    assert "exited with code 5 while waiting for usiok" in str(err)
    assert took < 5


def test_an_engine_that_exits_during_a_search():
    with engine("--mode", "crash") as usi:
        usi.isready()
        err, took = failure(lambda: usi.search(SHOGI, [], "go depth 1", 10))
    assert err.kind == "crash"
    assert "exited with code 3 while waiting for bestmove" in str(err)
    assert took < 10


def test_an_engine_that_never_answers_fails_at_the_timeout():
    usi = engine("--mode", "mute", timeout=1.0)
    err, took = failure(usi.start)
    usi.kill()
    assert err.kind == "stalled" and "did not send usiok in time" in str(err)
    assert 0.9 < took < 3


def test_an_engine_that_hangs_in_a_search_fails_at_the_timeout():
    with engine("--mode", "hang") as usi:
        usi.isready()
        err, took = failure(lambda: usi.search(SHOGI, [], "go depth 1", 1.0))
    assert err.kind == "stalled" and "did not send bestmove in time" in str(err)
    assert 0.9 < took < 3


def test_an_engine_that_answers_garbage():
    usi = engine("--mode", "garbage", timeout=30.0)
    err, took = failure(usi.start)
    usi.kill()
    assert err.kind == "garbage"
    assert "lines that are not USI while waiting for usiok" in str(err)
    assert "'?? line 0 of nonsense'" in str(err)
    assert took < 10                   # the limit on lines, not the 30 s timeout


def test_scores():
    assert parse_score("info depth 3 score cp -34 pv 7g7f") == ("cp", -34)
    assert parse_score("info score mate -3 pv 7g7f") == ("mate", -3)
    assert parse_score("info score mate + pv 7g7f") == ("mate", 1)
    assert parse_score("info depth 3 nodes 100") is None
    assert parse_score("info score cp") is None


# The scripts on top: each reports the engine's failure instead of waiting for ever.

def test_verify_mate_reports_a_dead_engine(tmp_path, capsys):
    problems = tmp_path / "p.tsv"
    problems.write_text("name\tsfen\tplies\nkoten\t3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1\t3\n")
    rc = verify_mate.main(["--engine", stub("--mode", "dead"), "--problems", str(problems),
                           "--grace", "5"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "engine error:" in out and "exited with code 5 while waiting for usiok" in out


def test_verify_mate_reports_a_mute_engine_within_its_grace(tmp_path, capsys):
    problems = tmp_path / "p.tsv"
    problems.write_text("name\tsfen\tplies\nkoten\t3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1\t3\n")
    t0 = time.monotonic()
    rc = verify_mate.main(["--engine", stub("--mode", "mute"), "--problems", str(problems),
                           "--grace", "1", "--ms", "100"])
    assert rc == 1 and time.monotonic() - t0 < 10
    assert "did not send usiok in time" in capsys.readouterr().out


def test_find_short_wins_stops_on_a_hanging_engine():
    with pytest.raises(EngineError, match="did not send bestmove in time"):
        find_short_wins.main(["--engine", stub("--mode", "hang"), "--variant", "shogi",
                              "--games", "1", "--random-plies", "0", "--timeout", "1"])


def test_label_fails_clearly_on_a_crashing_engine(tmp_path):
    records = tmp_path / "r.jsonl"
    records.write_text('{"variant": "shogi", "start_sfen": "%s", "moves": '
                       '["7g7f", "3c3d", "2g2f", "8c8d"]}\n' % SHOGI)
    proc = subprocess.run([sys.executable, label.__file__, "--engine", stub("--mode", "crash"),
                           "--depth", "1", "--skip", "0", "--every", "1", str(records)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "label: error:" in proc.stderr and "exited with code 3" in proc.stderr
