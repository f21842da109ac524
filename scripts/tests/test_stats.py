"""Elo, error margin, LOS and SPRT arithmetic."""

import math

import pytest

from kawari_tools import elo_stats as E


def test_elo_and_score_are_inverse():
    for elo in (-600, -100, -1, 0, 3.5, 190.8, 800):
        assert E.score_to_elo(E.elo_to_score(elo)) == pytest.approx(elo)
    assert E.elo_to_score(0) == 0.5
    assert E.score_to_elo(0.75) == pytest.approx(190.848, abs=1e-3)
    assert E.score_to_elo(1.0) == math.inf and E.score_to_elo(0.0) == -math.inf


def test_trinomial_margin_by_hand():
    # W 60, D 20, L 20: mean 0.7, per-game variance 0.16, stdev of the mean 0.04
    elo, margin = E.elo_trinomial(60, 20, 20)
    lo, hi = 0.7 - E.Z95 * 0.04, 0.7 + E.Z95 * 0.04
    expected = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
    assert elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert margin == pytest.approx(expected)
    assert E.format_elo(elo, margin) == f"{elo:.1f} +/- {expected:.1f}"


def test_elo_edge_cases():
    assert E.format_elo(*E.elo_trinomial(5, 0, 0)) == "inf +/- nan"
    assert E.format_elo(*E.elo_trinomial(0, 0, 3)) == "-inf +/- nan"
    assert E.format_elo(*E.elo_trinomial(0, 4, 0)) == "0.0 +/- 0.0"
    assert E.format_elo(*E.elo_trinomial(3, 0, 3)).startswith("0.0 +/- ")
    elo, margin = E.elo_trinomial(0, 0, 0)
    assert elo == 0.0 and math.isnan(margin)


def test_pentanomial_equals_trinomial_mean():
    pairs = [3, 10, 20, 12, 5]
    elo, margin = E.elo_pentanomial(pairs)
    mean = sum(c * v for c, v in zip(pairs, E.PENTANOMIAL_VALUES)) / sum(pairs)
    assert elo == pytest.approx(E.score_to_elo(mean))
    assert margin > 0


def test_pair_category():
    assert E.pair_category(1, 1) == 4
    assert E.pair_category(1, 0) == 2
    assert E.pair_category(0.5, 0.5) == 2
    assert E.pair_category(0, 0.5) == 1
    assert E.pair_category(1, 0.5) == 3
    assert E.pair_category(0, 0) == 0


def test_los():
    assert E.los(5, 5) == 0.5
    assert E.los(0, 0) == 0.5
    assert E.los(10, 0) == pytest.approx(0.5 * (1 + math.erf(10 / math.sqrt(20))))
    assert E.los(3, 7) == pytest.approx(1 - E.los(7, 3))


def test_sprt_bounds_and_parse():
    s = E.Sprt.parse("0,10,0.05,0.05")
    assert s.lower == pytest.approx(math.log(0.05 / 0.95))
    assert s.upper == pytest.approx(math.log(0.95 / 0.05))
    assert E.Sprt.parse("-3,2").alpha == 0.05
    for bad in ("5,0,0.05,0.05", "0,5,1.5,0.05", "1", "a,b"):
        with pytest.raises(ValueError):
            E.Sprt.parse(bad)


def test_llr_all_wins_is_n_log_ratio():
    # with only wins, the best distribution with mean s puts mass s on wins
    s = E.Sprt(0, 10)
    s0, s1 = E.elo_to_score(0), E.elo_to_score(10)
    assert s.llr_trinomial(100, 0, 0) == pytest.approx(100 * math.log(s1 / s0), rel=1e-3)
    assert s.llr_trinomial(0, 0, 100) == \
        pytest.approx(100 * math.log((1 - s1) / (1 - s0)), rel=1e-3)


def test_llr_is_antisymmetric():
    s = E.Sprt(-5, 5)
    assert s.llr_trinomial(40, 30, 40) == pytest.approx(0.0, abs=1e-9)
    assert s.llr_trinomial(50, 30, 40) == pytest.approx(-s.llr_trinomial(40, 30, 50))
    assert s.llr_pentanomial([2, 8, 20, 8, 2]) == pytest.approx(0.0, abs=1e-9)


def test_llr_matches_normal_approximation_for_large_samples():
    s = E.Sprt(0, 10)
    w, d, l = 3000, 4000, 2800
    n = w + d + l
    m = (w + d / 2) / n
    var = (w * (1 - m) ** 2 + d * (0.5 - m) ** 2 + l * m ** 2) / n
    s0, s1 = E.elo_to_score(0), E.elo_to_score(10)
    approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    assert s.llr_trinomial(w, d, l) == pytest.approx(approx, rel=0.01)
    # the same for pairs
    pairs = [300, 1200, 2000, 1300, 400]
    vals = E.PENTANOMIAL_VALUES
    npairs = sum(pairs)
    m = sum(c * v for c, v in zip(pairs, vals)) / npairs
    var = sum(c * (v - m) ** 2 for c, v in zip(pairs, vals)) / npairs
    approx = npairs * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    assert s.llr_pentanomial(pairs) == pytest.approx(approx, rel=0.01)


def test_sprt_decisions():
    s = E.Sprt(0, 10)
    assert s.decide(3.0) == "H1"
    assert s.decide(-3.0) == "H0"
    assert s.decide(0.0) is None
    assert s.decide(s.llr_trinomial(5000, 2000, 3000)) == "H1"
    assert s.decide(s.llr_trinomial(3000, 2000, 5000)) == "H0"
    assert s.decide(s.llr_trinomial(3, 2, 3)) is None
