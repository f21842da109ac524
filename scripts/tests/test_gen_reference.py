"""gen_reference.py recomputes the shipped perft data with pyffish."""

import os

from kawari_tools import referee
from kawari_tools.cli import gen_reference

DATA = gen_reference.DATA_DIR


def test_start_counts_match_shipped_data():
    for name in ("shogi", "judkins", "yarishogi", "heian8x9"):
        v = referee.get_variant(name)
        rows = gen_reference.read_tsv(os.path.join(DATA, f"{name}.tsv"))
        board = referee.Board.from_sfen(v.start_sfen, v)
        for sfen, depth, nodes in rows[:2]:
            assert sfen == v.start_sfen
            assert gen_reference.perft(v, board, int(depth)) == int(nodes)


def test_check_mode_passes_on_shipped_data(capsys):
    assert gen_reference.main(["check", "--variant", "judkins", "--max-depth", "1"]) == 0
    assert "0 mismatches" in capsys.readouterr().out


def test_check_mode_catches_a_wrong_count(tmp_path):
    for suffix in ("", "-divide"):
        src = os.path.join(DATA, f"judkins{suffix}.tsv")
        lines = open(src, encoding="utf-8").read().splitlines()
        if not suffix:
            sfen, depth, nodes = lines[1].split("\t")
            lines[1] = f"{sfen}\t{depth}\t{int(nodes) + 1}"
        (tmp_path / f"judkins{suffix}.tsv").write_text("\n".join(lines) + "\n")
    assert gen_reference.main(["check", "--variant", "judkins", "--max-depth", "1",
                               "--data", str(tmp_path)]) == 1


def test_pawn_drop_mate_removed_for_shogi_only():
    for name, sfen, n in [
        ("shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", 80),
        ("judkins", "4nk/6/4G1/6/6/K5 b P 1", 36),
        ("yarishogi", "5nk/7/5+N1/7/7/7/7/7/3K3 b P 1", 70),
    ]:
        v = referee.get_variant(name)
        assert gen_reference.perft(v, referee.Board.from_sfen(sfen, v), 1) == n


def test_kingless_positions_lack_the_movers_king(tmp_path):
    out = tmp_path / "judkins-kingless.tsv"
    assert gen_reference.main(["kingless", "--variant", "judkins", "--count", "1",
                               "--depth", "2", "--out", str(out)]) == 0
    rows = gen_reference.read_tsv(str(out))
    shipped = gen_reference.read_tsv(os.path.join(DATA, "judkins-kingless.tsv"))
    v = referee.get_variant("judkins")
    sfens = gen_reference.unique_sfens(rows)
    assert len(sfens) == 2
    first, after = (referee.Board.from_sfen(s, v) for s in sfens)
    assert first.king_square(first.side) is None
    assert after.king_square(after.side) is not None
    assert after.king_square(first.side) is None
    # Same seed, same positions and counts as the shipped file's first rows.
    assert rows == [r for r in shipped if r[0] in sfens and int(r[1]) <= 2]
