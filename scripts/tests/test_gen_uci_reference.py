"""gen_uci_reference.py writes pyffish's own FENs, moves and the moves that reached
them; it reproduces the shipped data."""

import os

import pyffish

from kawari_tools.cli import gen_uci_reference

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "engine-tests", "data")


def test_rows_are_pyffish_positions_with_their_moves():
    rows = gen_uci_reference.positions("judkins", games=1, plies=30, every=5, seed=3)
    assert len(rows) == 6
    start = pyffish.start_fen("judkins")
    for fen, moves, played in rows:
        assert pyffish.validate_fen(fen, "judkins") == 1
        assert moves == sorted(moves)
        assert set(moves) <= set(pyffish.legal_moves("judkins", fen, []))
        # The moves played from the start reach the FEN, counters included.
        assert pyffish.get_fen("judkins", start, played) == fen


def test_shipped_data_is_reproduced(tmp_path):
    out = tmp_path / "judkins-uci.tsv"
    assert gen_uci_reference.main(["--variant", "judkins", "--games", "4", "--seed", "1",
                                   "--out", str(out)]) == 0
    shipped = open(os.path.join(DATA, "judkins-uci.tsv"), encoding="utf-8").read()
    assert out.read_text(encoding="utf-8") == shipped
