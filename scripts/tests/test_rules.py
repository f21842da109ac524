"""Game-end rules judged by the referee: mate and stalemate, N-fold repetition and
perpetual check, Heian's bare king, impasse adjudication, the 27-point declaration."""

import pytest

from kawari_tools import referee as R
from kawari_tools.referee import BLACK, WHITE


def play(variant, sfen, moves):
    """Push moves until the game ends; return (plies played, outcome)."""
    ref = R.Referee(variant, sfen)
    for i, m in enumerate(moves):
        assert ref.outcome() is None, (i, ref.outcome())
        ref.push(m)
    return ref


# --------------------------------------------------------------------------- mate

def test_checkmate_side_to_move_loses():
    ref = play("shogi", "4k4/9/4G4/9/9/9/9/9/4K4 b G 1", ["G*5b"])
    out = ref.outcome()
    assert out.winner == BLACK and out.reason == "checkmate"
    assert out.result_string() == "1-0"


def test_stalemate_loses_in_heian():
    # White's king on 1a cannot move (1b, 2b by the gold, 2a by the knight), no check
    ref = R.Referee("heian", "8k/9/6N1G/9/9/9/9/9/4K4 w - 1")
    assert ref.legal_moves() == []
    assert not ref.in_check()
    out = ref.outcome()
    assert out.winner == BLACK and out.reason == "stalemate"


# --------------------------------------------------------------------------- repetition

SHUFFLES = {
    # (variant, N, four moves that return to the start position without checks)
    "shogi": (4, ["2h3h", "8b7b", "3h2h", "7b8b"]),
    "judkins": (4, ["6f5e", "1a2b", "5e6f", "2b1a"]),
    "yarishogi": (3, ["4i4h", "4a4b", "4h4i", "4b4a"]),
    "heian": (4, ["5i4h", "5a6b", "4h5i", "6b5a"]),
    "heian9x8": (4, ["5h4g", "5a6b", "4g5h", "6b5a"]),
    "heian8x9": (4, ["5i4h", "4a5b", "4h5i", "5b4a"]),
    "heian8x8": (4, ["5h4g", "4a5b", "4g5h", "5b4a"]),
}


@pytest.mark.parametrize("name", list(SHUFFLES))
def test_n_fold_repetition_is_a_draw(name):
    n, cycle = SHUFFLES[name]
    assert R.VARIANTS[name].repetition == n
    moves = cycle * (n - 1)
    ref = play(name, None, moves[:-1])
    assert ref.outcome() is None           # the start position has occurred n-1 times
    ref.push(moves[-1])
    out = ref.outcome()
    assert out is not None and out.winner is None and out.reason == "repetition"
    assert ref.keys.count(ref.keys[-1]) == n


def test_repetition_counts_hands_and_side_to_move():
    # a capture changes the hands, so the board alone repeating is not a repetition
    ref = R.Referee("shogi")
    a = ref.board.key()
    b = ref.board.apply("2h3h").key()
    assert a != b
    swapped = R.Board.from_sfen(R.VARIANTS["shogi"].start_sfen.replace(" b ", " w "),
                                R.VARIANTS["shogi"])
    assert swapped.key() != a


PERPETUAL_START = "8k/9/9/9/9/9/9/9/R3K4 b - 1"
# Black's rook checks along rank a / rank b while White's king steps 1a <-> 1b
# (position after 9i9a occurs at plies 1, 5, 9 and 13)
PERPETUAL_MOVES = ["9i9a", "1a1b"] + ["9a9b", "1b1a", "9b9a", "1a1b"] * 2 + ["9a9b", "1b1a", "9b9a"]


def test_perpetual_check_loses():
    ref = play("shogi", PERPETUAL_START, PERPETUAL_MOVES[:-1])
    assert ref.outcome() is None
    ref.push(PERPETUAL_MOVES[-1])
    out = ref.outcome()
    assert out.reason == "perpetual check" and out.winner == WHITE
    assert all(ref.gave_check(i) for i in range(0, ref.ply, 2))      # Black's moves
    assert not any(ref.gave_check(i) for i in range(1, ref.ply, 2))  # White's moves


def test_perpetual_check_in_yarishogi_after_three_occurrences():
    # a yari rook cannot move backward: it checks sideways-stepping along files 1 and 2
    sfen = "6k/7/5R1/7/7/7/7/7/3K3 b - 1"
    moves = ["2c1c", "1a2a", "1c2c", "2a1a"] * 2          # the start recurs at 4 and 8
    ref = play("yarishogi", sfen, moves[:-1])
    assert ref.outcome() is None
    ref.push(moves[-1])
    out = ref.outcome()
    assert out.reason == "perpetual check" and out.winner == WHITE
    assert "3-fold" in out.detail


def test_repetition_with_some_checks_is_a_draw():
    # Black's rook checks from 9a but not from 9h: not every move of the cycle checks
    sfen = "8k/9/9/9/9/9/9/R8/4K4 b - 1"
    moves = ["9h9a", "1a1b", "9a9h", "1b1a"] * 3          # the start recurs at 4, 8, 12
    ref = play("shogi", sfen, moves[:-1])
    assert ref.outcome() is None
    ref.push(moves[-1])
    out = ref.outcome()
    assert out.reason == "repetition" and out.winner is None
    assert ref.gave_check(0) and not ref.gave_check(2)


# --------------------------------------------------------------------------- bare king

def test_bare_king_loses_at_once():
    ref = R.Referee("heian", "4k4/9/9/9/9/9/9/3g5/4K4 b - 1")
    ref.push("5i6h")                      # the king takes White's last other piece
    out = ref.outcome()
    assert out.reason == "bare king" and out.winner == BLACK
    assert ref.legal_moves()              # pyffish still generates White's moves


def test_bare_king_when_the_capturer_is_bare_too():
    ref = R.Referee("heian8x8", "3k4/8/8/8/8/8/3g4/3K4 b - 1")
    ref.push("5h5g")
    assert ref.outcome().reason == "bare king" and ref.outcome().winner == BLACK


def test_no_bare_king_without_a_capture_or_with_pieces_left():
    ref = R.Referee("heian", "4k4/9/9/9/9/9/9/9/4KG3 w - 1")   # White starts bare
    assert ref.outcome() is None
    ref = R.Referee("heian", "4k4/p8/9/9/9/9/9/3g5/4K4 b - 1")
    ref.push("5i6h")                      # White keeps a pawn
    assert ref.outcome() is None
    ref = R.Referee("shogi", "4k4/9/9/9/9/9/9/3g5/4K4 b - 1")
    ref.push("5i6h")                      # not a rule of shogi
    assert ref.outcome() is None


# --------------------------------------------------------------------------- declaration

DECLARE_BLACK = "+R+R+B+B5/GGGG1SSSK/S8/9/9/9/9/9/4k4 b - 1"     # 12 pieces, 28 points


def test_declaration_valid():
    ok, why = R.Referee("shogi", DECLARE_BLACK).declaration()
    assert ok, why


@pytest.mark.parametrize("sfen,reason", [
    ("+R+R+B+B5/GGGG1SSSK/9/9/9/9/9/9/4k4 b - 1", "points"),           # 27 < 28 for Black
    ("+R+R+B+B5/GGGG1SSSK/S7g/9/9/9/9/9/4k4 b - 1", "check"),
    ("+R+R+B+B5/GGGG1SSS1/S8/9/9/9/9/9/k3K4 b - 1", "zone"),
    ("+R+R+B+B5/G4SSSK/9/9/9/9/9/9/4k4 b 3GS 1", "pieces"),           # 8 in the zone
])
def test_declaration_invalid(sfen, reason):
    ok, why = R.Referee("shogi", sfen).declaration()
    assert not ok and reason in why


def test_declaration_white_needs_27():
    ok, why = R.Referee("shogi", "4K4/9/9/9/9/9/9/ksss1gggg/5+b+b+r+r w - 1").declaration()
    assert ok, why


def test_declaration_counts_the_hand():
    ok, why = R.Referee("shogi", "+R+R+B+B5/GGGG1SSSK/9/9/9/9/9/9/4k4 b P 1").declaration()
    assert ok, why


def test_declaration_only_in_shogi():
    ok, why = R.Referee("judkins").declaration()
    assert not ok and "no declaration" in why


# --------------------------------------------------------------------------- impasse

@pytest.mark.parametrize("name,sfen,winner", [
    # shogi 24 points: Black has R+B in hand (10), White the rest (44)
    ("shogi", "9/4K4/9/9/9/9/9/4k4/9 b RBrb4g4s4n4l18p 1", WHITE),
    ("shogi", "9/4K4/9/9/9/9/9/4k4/9 b RB4G4S4N4L9Prb9p 1", BLACK),     # 45 vs 19
    ("shogi", "9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", None),  # 27 each
    # judkins 12 points: Black 9, White 19; then Black 12, White 16
    ("judkins", "3K2/6/6/6/6/k5 b RGSNPr2bgsnp 1", WHITE),
    ("judkins", "3K2/6/6/6/6/k5 b RBGSrbgs2n2p 1", None),
    # yarishogi 26 points
    ("yarishogi", "3K3/7/7/7/7/7/7/7/3k3 b 2R2B2N7Pp 1", BLACK),
])
def test_impasse_points(name, sfen, winner):
    ref = R.Referee(name, sfen)
    b = ref.board
    threshold = R.VARIANTS[name].impasse_points
    pb, pw = b.material_points(BLACK), b.material_points(WHITE)
    out = ref.adjudicate_move_cap()
    assert out.reason == "impasse"
    expected = None
    if pb < threshold <= pw:
        expected = WHITE
    elif pw < threshold <= pb:
        expected = BLACK
    assert out.winner == expected == winner, (pb, pw, out)


def test_impasse_needs_both_kings_in_their_zones():
    out = R.Referee("shogi", "9/9/9/4K4/9/9/9/4k4/9 b RBrb4g4s4n4l18p 1").adjudicate_move_cap()
    assert out.winner is None and out.reason == "move cap"


def test_heian_move_cap_is_a_draw():
    out = R.Referee("heian", "4K4/9/9/9/9/9/9/9/4k4 b - 1").adjudicate_move_cap()
    assert out.winner is None and out.reason == "move cap"


def test_material_points_by_base_type():
    b = R.Board.from_sfen("3K2/6/6/6/6/k1+b3 b R2P 1", R.VARIANTS["judkins"])
    assert b.material_points(BLACK) == 7
    assert b.material_points(WHITE) == 5
