"""find_short_wins.py: candidates come from the ends of decisive games, winner to move."""

import contextlib
import io

from conftest import stub

from kawari_tools import referee as R
from kawari_tools.cli import find_short_wins


def test_candidates_are_the_winners_positions_near_the_end():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = find_short_wins.main(["--engine", stub(), "--variant", "judkins", "--games", "3",
                                   "--seed", "2", "--max-plies", "300", "--random-plies", "300"])
    assert rc == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    assert rows, "three random judkins games of 300 plies give a decisive one"
    for variant, sfen, left in rows:
        assert variant == "judkins"
        # The winner moves at 1, 3, 5, 7 plies from the end.
        assert int(left) in (1, 3, 5, 7)
        assert R.Board.from_sfen(sfen, R.get_variant("judkins")).sfen() == sfen
    # The position one ply from the end has a move that ends the game.
    last = [sfen for _, sfen, left in rows if left == "1"]
    assert last
    for sfen in last:
        game = R.Referee("judkins", sfen)
        ends = []
        for m in game.legal_moves():
            g = R.Referee("judkins", sfen, [m])
            ends.append(g.outcome() is not None)
        assert any(ends), sfen
