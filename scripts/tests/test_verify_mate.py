"""verify_mate.py checks tsume answers with pyffish alone."""

from kawari_tools import mate_check, referee

KOTEN3 = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"


def test_a_mate_line_passes():
    v = referee.get_variant("shogi")
    assert mate_check.verify_line(v, KOTEN3, ["9f5b+", "4a5b", "S*4b"]) is None


def test_wrong_lines_are_named():
    v = referee.get_variant("shogi")
    assert "checkmate" in mate_check.verify_line(v, KOTEN3, ["9f5b+", "4a5b"])
    assert "not a check" in mate_check.verify_line(v, KOTEN3, ["9f8g"])
    assert "not legal" in mate_check.verify_line(v, KOTEN3, ["9f5b+", "5a5b"])
    assert "checkmate" in mate_check.verify_line(v, KOTEN3, [])


def test_other_variants_and_kingless_defender_moves():
    v = referee.get_variant("yarishogi")
    assert mate_check.verify_line(v, "6k/7/6P/7/7/7/7/7/7 b 2R 1",
                                   ["R*1b", "1a2a", "R*1a"]) is None
    h = referee.get_variant("heian")
    assert mate_check.verify_line(h, "4k4/9/3GG4/9/9/9/9/9/9 b - 1", ["5c5b"]) is None
