"""calibrate.py: the level search (steps, brackets, the secant, the estimate) and whole
runs through kawari-match with stub engines: one that always loses climbs the levels, and
the options of each match reach the engines."""

import json
import subprocess

import pytest
from conftest import REPO_ROOT, stub, tool

from kawari_tools import calibrate as C

CALIBRATE = tool("calibrate")


def t(level, wins, draws, losses):
    return C.Trial(level, wins, draws, losses)


def test_a_trial_counts_kawaris_elo_clamped():
    assert t(0, 20, 0, 20).elo == 0
    assert t(0, 30, 0, 10).elo == pytest.approx(190.85, abs=0.01)
    assert t(0, 0, 0, 40).elo == -C.ELO_CLAMP
    assert t(0, 40, 0, 0).elo == C.ELO_CLAMP
    assert t(3, 1, 2, 1).describe().startswith("level 3: 1-1-2 (0.0 +/- ")


def test_without_a_bracket_the_level_moves_by_the_slope():
    # 75% is +190.8 Elo: 190.8 / 60 rounds to 3 levels down
    assert C.next_level([t(5, 30, 0, 10)], slope=60, max_step=6) == 2
    # all lost: -400 / 60 = 6.7, capped at 6 levels up
    assert C.next_level([t(-8, 0, 0, 40)], slope=60, max_step=6) == -2
    # a small difference still moves one level
    assert C.next_level([t(0, 21, 0, 19)], slope=60, max_step=6) == -1
    # and never beyond the level range
    assert C.next_level([t(18, 0, 0, 40)], slope=60, max_step=6) == 20


def test_a_bracket_is_narrowed_by_the_secant_until_one_level_apart():
    below, above = t(-8, 10, 0, 30), t(-2, 30, 0, 10)      # -190.8 and +190.8
    assert C.bracket([below, above]) == (below, above)
    assert C.next_level([below, above], slope=60, max_step=6) == -5
    # nearer 50% at -2 than at -8: the secant lands nearer -2
    assert C.next_level([below, t(-2, 22, 0, 18)], slope=60, max_step=6) == -3
    # one level apart: settled
    assert C.next_level([t(-4, 10, 0, 30), t(-3, 30, 0, 10)], 60, 6) is None
    # the closest bracket wins
    trials = [t(-8, 0, 0, 40), t(2, 40, 0, 0), t(-1, 10, 0, 30), t(1, 30, 0, 10)]
    assert C.bracket(trials) == (trials[2], trials[3])
    # scoring the other way round at a higher level is no bracket
    assert C.bracket([t(2, 10, 0, 30), t(-2, 30, 0, 10)]) is None


def test_the_search_stops_on_an_even_score_or_a_repeated_level():
    assert C.next_level([t(4, 20, 0, 20)], 60, 6) is None
    assert C.next_level([t(20, 0, 0, 40), t(20, 0, 0, 40)], 60, 6) is None
    assert C.next_level([t(14, 0, 0, 40), t(20, 0, 0, 40)], 60, 6) is None


def test_the_estimate_interpolates_a_bracket_or_extrapolates_the_last_level():
    level, bracketed = C.estimate([t(-8, 10, 0, 30), t(-2, 30, 0, 10)], slope=60)
    assert bracketed and level == pytest.approx(-5.0)
    level, bracketed = C.estimate([t(-4, 10, 0, 30), t(-3, 20, 0, 20)], slope=60)
    assert bracketed and level == pytest.approx(-3.0)
    level, bracketed = C.estimate([t(4, 20, 0, 20)], slope=60)
    assert bracketed and level == 4.0
    level, bracketed = C.estimate([t(0, 30, 0, 10)], slope=60)
    assert not bracketed and level == pytest.approx(-190.85 / 60, abs=0.01)
    level, bracketed = C.estimate([t(20, 0, 0, 40)], slope=60)
    assert not bracketed and level == 20


def run(*args, timeout=120):
    proc = subprocess.run([*CALIBRATE, *args], capture_output=True,
                          text=True, timeout=timeout, cwd=REPO_ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def run_stubs(*args):
    """calibrate.py in Judkins at depth 1: a Kawari stub that resigns every game against
    a Fairy-Stockfish stub that plays."""
    return run("--variant", "judkins", "--kawari", stub("--mode", "resign"),
               "--fairy", stub(), "--depth", "1", *args)


def test_a_kawari_that_always_loses_climbs_until_its_rounds_are_spent(tmp_path):
    records = tmp_path / "cal.jsonl"
    rc, out, err = run_stubs("--games", "4", "--rounds", "3", "--points", "1000,2500",
                             "--start=-8,17", "--records", str(records))
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Calibration of Kawari against Fairy-Stockfish: judkins, "
                               "depth 1, 4 games a match, ")
    assert lines[1] == ("USI_Elo 1000: level -8: 0-4-0 (-inf +/- nan); level -2: 0-4-0 "
                        "(-inf +/- nan); level 4: 0-4-0 (-inf +/- nan) => level 10.7 "
                        "(not bracketed: moved from the last level by the slope)")
    # from 17 the next step is capped at 20, and 20 is not tried twice
    assert lines[2].startswith("USI_Elo 2500: level 17: 0-4-0 (-inf +/- nan); level 20: "
                               "0-4-0 (-inf +/- nan) => level 20.0")
    assert lines[3] == 'Row: ("judkins", [10.7, 20.0]),'
    assert err.count("USI_Elo 1000: level ") == 3
    assert err.count("[4/4] game") == 5                 # kawari-match's progress, per match
    got = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(got) == 20
    # each match from the next openings of the suite, numbered as in the suite
    assert len({(r["start_sfen"], *r["moves"][:r["opening_plies"]]) for r in got}) == 10
    assert sorted(r["opening"] for r in got) == sorted(list(range(1, 11)) * 2)


def test_the_first_match_starts_at_first_opening(tmp_path):
    records = tmp_path / "steps.jsonl"
    rc, out, err = run("--variant", "judkins", "--kawari", stub("--mode", "resign"),
                       "--depth", "1", "--games", "2", "--steps", "0,2",
                       "--first-opening", "7", "--records", str(records))
    assert rc == 0, err
    assert ", from opening 7)" in out.splitlines()[0]
    got = [json.loads(line) for line in records.read_text().splitlines()]
    assert sorted(r["opening"] for r in got) == [7, 7, 8, 8]


def test_verify_plays_each_point_at_the_same_elo_and_reports_the_band(tmp_path):
    debug = tmp_path / "io.log"
    rc, out, err = run_stubs("--games", "2", "--points", "1200,2200", "--verify",
                             "--debug", str(debug))
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[1] == ("USI_Elo 1200: Kawari 0-2-0 of 2 (0.0%), Elo -inf +/- nan, "
                        "OUTSIDE 40-60%, no faults")
    assert lines[3] == "0 of 2 points within 40-60%"
    log = debug.read_text()
    assert "setoption name USI_LimitStrength value true" in log
    # each engine is started once a match (the pair's two games share it)
    assert log.count("setoption name USI_Elo value 1200") == 2
    assert log.count("setoption name USI_Elo value 2200") == 2
    assert "Skill_Level" not in log


def test_the_search_sends_the_level_to_kawari_and_the_elo_to_fairy(tmp_path):
    debug = tmp_path / "io.log"
    rc, out, err = run_stubs("--games", "2", "--rounds", "1", "--points", "1500",
                             "--start", "-3", "--debug", str(debug))
    assert rc == 0, err
    log = debug.read_text()
    assert log.count("setoption name Skill_Level value -3") == 1
    assert log.count("setoption name USI_Elo value 1500") == 1


def test_steps_play_each_level_against_the_one_below(tmp_path):
    debug = tmp_path / "io.log"
    # both resign at once, so whoever moves first loses: each step goes 1-1
    rc, out, err = run("--variant", "judkins", "--kawari", stub("--mode", "resign"),
                       "--depth", "1", "--games", "2", "--steps", "-2,1", "--debug", str(debug))
    assert rc == 0, err
    assert out.splitlines() == [
        out.splitlines()[0],
        "level -1 against -2: 1-1-0 (50.0%), Elo 0.0 +/- inf, NOT above 50%, no faults",
        "level 0 against -1: 1-1-0 (50.0%), Elo 0.0 +/- inf, NOT above 50%, no faults",
        "level 1 against 0: 1-1-0 (50.0%), Elo 0.0 +/- inf, NOT above 50%, no faults",
        "0 of 3 steps above 50%; together 3-3-0 (50.0%), about +0.0 Elo a step"]
    assert out.startswith("Calibration of Kawari against itself, level against level: ")
    log = debug.read_text()
    for level, count in ((-2, 1), (-1, 2), (0, 2), (1, 1)):
        assert log.count(f"setoption name Skill_Level value {level}\n") == count
    assert "USI_Elo" not in log


def test_a_step_line_counts_each_engines_faults(tmp_path):
    # the stub's first move is illegal: each side loses one game by it
    rc, out, err = run("--variant", "judkins", "--kawari", stub("--mode", "illegal"),
                       "--depth", "1", "--games", "2", "--steps", "0,1")
    assert rc == 0, err
    assert out.splitlines()[1] == ("level 1 against 0: 1-1-0 (50.0%), Elo 0.0 +/- inf, "
                                   "NOT above 50%, faults: higher illegal 1, lower illegal 1")


def test_bad_arguments_are_refused():
    rc, _, err = run("--variant", "judkins", "--kawari", stub(), "--fairy", stub(),
                     "--depth", "1", "--points", "1000,1500", "--start=3")
    assert rc == 2 and "one level for each of --points" in err
    rc, _, err = run("--variant", "judkins", "--kawari", stub(), "--fairy", stub(),
                     "--depth", "1", "--points", "1000", "--start=21")
    assert rc == 2 and "levels run from -20 to 20" in err
    rc, _, err = run("--variant", "judkins", "--kawari", stub(), "--depth", "1")
    assert rc == 2 and "give --fairy, except with --steps" in err
    rc, _, err = run("--variant", "judkins", "--kawari", stub(), "--depth", "1",
                     "--steps=3,3")
    assert rc == 2 and "--steps takes LO,HI" in err
