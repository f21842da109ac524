"""USI/SFEN <-> pyffish conversion and move generation, checked against the reference
perft data on every board size."""

import collections
import csv
import os
import random

import pyffish
import pytest
from conftest import PERFT_DIR

from kawari_tools import referee as R

ALL = list(R.VARIANTS)
START_PERFT1 = {"shogi": 30, "judkins": 20, "yarishogi": 20, "heian": 26, "heian9x8": 26,
                "heian8x9": 22, "heian8x8": 22}


def read_tsv(name):
    path = os.path.join(PERFT_DIR, name)
    if not os.path.exists(path):
        pytest.fail(f"reference data {path} not present")
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize("name", ALL)
def test_start_position_perft1(name):
    v = R.VARIANTS[name]
    assert len(R.legal_usi_moves(v, v.start_sfen)) == START_PERFT1[name]
    assert R.Referee(v).start_sfen == v.start_sfen


@pytest.mark.parametrize("name,sfen,count,mate_drop,drop_legal", [
    ("shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", 80, "P*1b", False),
    ("judkins", "4nk/6/4G1/6/6/K5 b P 1", 36, "P*1b", False),
    ("yarishogi", "5nk/7/5+N1/7/7/7/7/7/3K3 b P 1", 70, "P*1b", True),
])
def test_pawn_drop_mate(name, sfen, count, mate_drop, drop_legal):
    v = R.VARIANTS[name]
    moves = R.legal_usi_moves(v, sfen)
    assert len(moves) == count
    assert (mate_drop in moves) == drop_legal
    # pyffish itself lists the mating drop in every variant
    assert R.move_to_fsf(mate_drop, v) in pyffish.legal_moves(name, R.sfen_to_fen(sfen, v), [])
    ref = R.Referee(v, sfen)
    why = ref.check_move(mate_drop)
    if drop_legal:
        assert why is None
        ref.push(mate_drop)
        assert ref.outcome().reason == "checkmate" and ref.outcome().winner == R.BLACK
    else:
        assert "uchifuzume" in why
        with pytest.raises(R.IllegalMove):
            ref.push(mate_drop)


def test_pawn_drop_check_that_is_not_mate_stays_legal():
    v = R.VARIANTS["shogi"]
    # as above but the king can escape to 2a
    moves = R.legal_usi_moves(v, "7nk/9/9/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" in moves


@pytest.mark.parametrize("files,ranks,usi,fsf", [
    (9, 9, "7g", "c3"), (9, 9, "3c", "g7"), (9, 9, "1a", "i9"), (9, 9, "9i", "a1"),
    (6, 6, "6f", "a1"), (6, 6, "1a", "f6"), (6, 6, "5e", "b2"),
    (7, 9, "1a", "g9"), (7, 9, "7i", "a1"), (7, 9, "4e", "d5"),
    (9, 8, "9h", "a1"), (9, 8, "1a", "i8"), (9, 8, "5d", "e5"),
    (8, 9, "8i", "a1"), (8, 9, "1a", "h9"), (8, 9, "4e", "e5"),
    (8, 8, "1h", "h1"), (8, 8, "8a", "a8"), (8, 8, "5d", "d5"),
])
def test_square_conversion(files, ranks, usi, fsf):
    v = next(v for v in R.VARIANTS.values() if (v.files, v.ranks) == (files, ranks))
    assert R.square_to_fsf(usi, v) == fsf
    assert R.square_from_fsf(fsf, v) == usi


@pytest.mark.parametrize("name", ALL)
def test_every_square_round_trips(name):
    v = R.VARIANTS[name]
    seen = set()
    for f in range(1, v.files + 1):
        for r in "abcdefghi"[:v.ranks]:
            fsf = R.square_to_fsf(f"{f}{r}", v)
            assert R.square_from_fsf(fsf, v) == f"{f}{r}"
            seen.add(fsf)
    assert len(seen) == v.files * v.ranks
    with pytest.raises(R.NotationError):
        R.square_to_fsf(f"{v.files + 1}a", v)
    with pytest.raises(R.NotationError):
        R.square_to_fsf("1" + "abcdefghij"[v.ranks], v)


def test_move_conversion():
    v = R.VARIANTS["shogi"]
    assert R.move_to_fsf("7g7f", v) == "c3c4"
    assert R.move_to_fsf("8h2b+", v) == "b2h8+"
    assert R.move_to_fsf("P*5e", v) == "P@e5"
    assert R.move_from_fsf("P@e5", v) == "P*5e"
    assert R.move_from_fsf("b2h8+", v) == "8h2b+"
    j = R.VARIANTS["judkins"]
    assert R.move_to_fsf("6f5e", j) == "a1b2"
    assert R.move_to_fsf("N*1a", j) == "N@f6"
    for bad in ("7g7", "7g7f=", "p*5e", "P*0e", "77", "", "resign"):
        with pytest.raises(R.NotationError):
            R.move_to_fsf(bad, v)


def test_fen_conversion_details():
    v = R.VARIANTS["shogi"]
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2PSb3p 10"
    fen = R.sfen_to_fen(sfen, v)
    assert fen.startswith("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[")
    assert fen.split()[1] == "b"                 # White to move is "b" in pyffish
    assert sorted(fen[fen.index("[") + 1:fen.index("]")]) == sorted("SPPbppp")
    assert R.fen_to_sfen(fen, v, 10) == \
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w S2Pb3p 10"
    h = R.VARIANTS["heian8x8"]
    assert R.sfen_to_fen(h.start_sfen, h) == pyffish.start_fen("heian8x8")
    with pytest.raises(R.NotationError):
        R.Board.from_sfen("lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b P 1", h)  # no hands
    with pytest.raises(R.NotationError):
        R.Board.from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1", h)
    with pytest.raises(R.NotationError):
        R.Board.from_sfen("rbnsgk/5p/6/6/P5/KGSNB+G b - 1", R.VARIANTS["judkins"])


@pytest.mark.parametrize("name", ALL)
def test_divide_files_legal_moves_and_perft2(name):
    """Every position of <variant>-divide.tsv: the same USI legal moves, and for the
    first four positions the same number of replies after each move (perft 2)."""
    v = R.VARIANTS[name]
    by_sfen = collections.OrderedDict()
    for row in read_tsv(f"{name}-divide.tsv"):
        by_sfen.setdefault(row["sfen"], {})[row["move"]] = int(row["nodes"])
    assert by_sfen
    for i, (sfen, divide) in enumerate(by_sfen.items()):
        assert R.normalize_sfen(sfen, v) == sfen
        ref = R.Referee(v, sfen)
        legal = ref.legal_moves()
        assert len(legal) == len(set(legal))
        assert set(legal) == set(divide), sfen
        if i < 4:
            for move, nodes in divide.items():
                after = ref.board.apply(move)
                assert len(R.legal_fsf_moves(v, after.fen())) == nodes, (sfen, move)


@pytest.mark.parametrize("name", ALL)
def test_perft1_of_reference_positions(name):
    v = R.VARIANTS[name]
    rows = [r for r in read_tsv(f"{name}.tsv") if r["depth"] == "1"]
    assert len(rows) > 50
    for r in rows:
        assert len(R.legal_usi_moves(v, r["sfen"])) == int(r["nodes"]), r["sfen"]


@pytest.mark.parametrize("name", ALL)
def test_positions_agree_with_pyffish_in_random_games(name):
    """The referee's own move application equals pyffish's get_fen (crosscheck) along
    random games biased toward captures and promotions; SFEN round-trips."""
    v = R.VARIANTS[name]
    rng = random.Random(name)
    plies = 0
    for _game in range(2):
        ref = R.Referee(v, crosscheck=True)
        while ref.ply < 80 and ref.outcome() is None:
            legal = ref.legal_moves()
            board = ref.board
            special = [m for m in legal if m.endswith("+") or "*" in m
                       or board.grid[board.square_index(m[2:4])[0]][board.square_index(m[2:4])[1]]
                       is not None] if rng.random() < 0.7 else []
            ref.push(rng.choice(special or legal))
            plies += 1
            sfen = ref.sfen
            assert R.normalize_sfen(sfen, v) == sfen
            assert R.fen_to_sfen(R.sfen_to_fen(sfen, v), v, ref.board.move_number) == sfen
    assert plies > 40
