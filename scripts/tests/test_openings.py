"""openings.py: candidates, the filter against Kawari's own search, the file it writes,
and the suites shipped in openings/ (one per variant, valid, balanced, distinct)."""

import os
import re
import subprocess

import pytest
from conftest import REPO_ROOT, tool
from test_kawari import kawari  # noqa: F401  (the fixture: the built engine)

from kawari_tools import opening_suite as openings
from kawari_tools import referee as R
from kawari_tools.games.openings import default_openings_path, load_openings
from kawari_tools.usi_client import EngineSpec, UsiEngine

OPENINGS = tool("openings")
HEADER_KEYS = ("command:", "engine:", "search: go depth", "kept: score within",
               "candidates:", "tried: candidates", "date:")


def positions(path):
    """(sfen, comment) of every position line of a suite."""
    out = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        sfen, _, comment = line.partition("#")
        out.append((sfen.strip(), comment.strip()))
    return out


def test_candidates_are_seeded_and_within_the_ply_range():
    v = R.VARIANTS["judkins"]
    a = [openings.random_candidate(v, 3, k, (2, 6)) for k in range(30)]
    b = [openings.random_candidate(v, 3, k, (2, 6)) for k in range(30)]
    c = [openings.random_candidate(v, 4, k, (2, 6)) for k in range(30)]
    assert [x and x.moves for x in a] == [x and x.moves for x in b]
    assert [x and x.moves for x in a] != [x and x.moves for x in c]
    kept = [x for x in a if x is not None]
    assert kept and {len(x.moves) for x in kept} <= set(range(2, 7))
    assert len({len(x.moves) for x in kept}) > 1
    for x in kept:
        ref = R.Referee(v, None, x.moves)
        assert ref.sfen == x.sfen and ref.board.key() == x.key
        assert ref.outcome() is None and not ref.in_check()


def test_in_band():
    assert openings.in_band(("cp", 60), 60) and openings.in_band(("cp", -60), 60)
    assert not openings.in_band(("cp", 61), 60) and not openings.in_band(("cp", -61), 60)
    assert not openings.in_band(("mate", 3), 60) and not openings.in_band(None, 60)


def generate(tmp_path, name, *extra):
    out = tmp_path / name
    proc = subprocess.run([*OPENINGS, "--variant", "judkins",
                           "--engine", openings_engine(), "--count", "6", "--depth", "4",
                           "--band", "40", "--seed", "2", "--out", str(out), "--quiet",
                           *extra], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


def openings_engine():
    from test_kawari import KAWARI
    return KAWARI


def test_generated_suite_is_balanced_distinct_and_reproducible(kawari, tmp_path):  # noqa: F811
    out, printed = generate(tmp_path, "a.txt")
    text = out.read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    for key in HEADER_KEYS:
        assert any(key in line for line in header), (key, header)
    assert "--depth 4" in header[1] and "within +/-40 cp" in text and "seed 2" in text
    m = re.search(r"tried: candidates 0\.\.\d+ \((\d+)\): (\d+) ended or in check, "
                  r"(\d+) duplicate positions, the other (\d+) searched, 6 kept", text)
    assert m, header
    assert int(m[1]) == int(m[2]) + int(m[3]) + int(m[4]) and int(m[4]) >= 6
    assert "wrote 6 positions" in printed
    v = R.VARIANTS["judkins"]
    lines = positions(out)
    assert len(lines) == 6
    assert len({" ".join(s.split()[:3]) for s, _ in lines}) == 6
    # kawari-match reads the file; each line is the position after its recorded moves
    book = load_openings(str(out), v, v.start_sfen)
    assert [o.moves for o in book] == [[]] * 6
    # the recorded score is what the engine says again, and it is within the band
    with UsiEngine(EngineSpec([kawari])) as eng:
        eng.select_variant("judkins")
        eng.isready()
        for sfen, comment in lines:
            cp, moves = re.match(r"^([+-]\d+) cp after (.+)$", comment).groups()
            assert R.Referee(v, None, moves.split()).sfen == sfen
            assert 2 <= len(moves.split()) <= 6
            eng.new_game()
            score = eng.search(sfen, [], "go depth 4", 60).score
            assert score == ("cp", int(cp)) and abs(int(cp)) <= 40, (sfen, score)
    # the same seed gives the same positions whatever the concurrency
    again, _ = generate(tmp_path, "b.txt", "--concurrency", "2")
    assert positions(again) == lines
    other, _ = generate(tmp_path, "c.txt", "--seed", "3")
    assert positions(other) != lines


def test_bad_arguments_exit_2(tmp_path):
    for args in (["--count", "0"], ["--plies", "5-2"], ["--band", "-1"]):
        proc = subprocess.run([*OPENINGS, "--variant", "shogi",
                               "--out", str(tmp_path / "x.txt"), *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, (args, proc.stderr)
        assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("variant", list(R.VARIANTS))
def test_shipped_suite(variant):
    path = os.path.join(REPO_ROOT, "openings", f"{variant}.txt")
    assert openings.suite_path(variant) == path == default_openings_path(variant)
    v = R.VARIANTS[variant]
    text = open(path, encoding="utf-8").read()
    for key in HEADER_KEYS:
        assert f"# {key}" in text, key
    band = int(re.search(r"within \+/-(\d+) cp", text)[1])
    assert band <= 60
    lines = positions(path)
    assert 200 <= len(lines) <= 400
    check_lines(v, lines, band)



def test_second_judkins_set():
    # openings/judkins-random8.txt: 8 random plies each, kept by another engine's
    # search (nets/PROVENANCE.md); every line replays its moves to its position
    path = os.path.join(REPO_ROOT, "openings", "judkins-random8.txt")
    text = open(path, encoding="utf-8").read()
    for key in HEADER_KEYS:
        assert f"# {key}" in text, key
    lines = positions(path)
    assert len(lines) == 150
    check_lines(R.VARIANTS["judkins"], lines, 100, plies=8)


def check_lines(v, lines, band, plies=None):
    """Each line's score within the band, its moves replaying to its position, the
    positions distinct, none ended or in check."""
    keys = set()
    for sfen, comment in lines:
        cp, moves = re.match(r"^([+-]\d+) cp after (.+)$", comment).groups()
        assert abs(int(cp)) <= band
        assert plies is None or len(moves.split()) == plies
        ref = R.Referee(v, None, moves.split())
        assert ref.sfen == sfen, (sfen, moves)
        assert ref.outcome() is None and not ref.in_check()
        keys.add(ref.board.key())
    assert len(keys) == len(lines)
