"""Match statistics: Elo difference with its 95% interval, LOS, and the SPRT.

* Elo: the logistic model, ``score = 1 / (1 + 10^(-elo/400))``.  The error margin is
  computed the way cutechess-cli does it: the per-game score variance gives a 95%
  interval for the mean score, whose two ends are converted to Elo; the margin is half
  the width of that Elo interval.
* SPRT: the generalized SPRT used by fishtest.  The results are a multinomial sample of
  per-game scores (trinomial: loss, draw, win = 0, 1/2, 1) or of per-pair mean scores
  (pentanomial, for games played in pairs with colours swapped: 0, 1/4, 1/2, 3/4, 1).
  For each hypothesis (Elo = elo0 or elo1, i.e. a given expected score) the
  distribution of largest likelihood with that mean is found (an exponential tilt of the
  empirical one, solved by bisection); the log-likelihood ratio of the two is the test
  statistic.  Empty categories get a tiny count (1e-3) so the tilt always exists.  The
  test stops when LLR <= log(beta / (1 - alpha)) (H0 accepted) or
  LLR >= log((1 - beta) / alpha) (H1 accepted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

Z95 = 1.959963984540054      # the 97.5% quantile of the standard normal distribution
REGULARIZE = 1e-3


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """Elo difference that gives the expected ``score`` (+-inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _elo_interval(values: Sequence[float], counts: Sequence[float]) -> tuple[float, float]:
    n = sum(counts)
    if n <= 0:
        return 0.0, math.nan
    mu = sum(a * c for a, c in zip(values, counts)) / n
    var = sum(c * (a - mu) ** 2 for a, c in zip(values, counts)) / n
    stdev = math.sqrt(var / n)
    elo = score_to_elo(mu)
    lo, hi = mu - Z95 * stdev, mu + Z95 * stdev
    if math.isinf(elo):
        return elo, math.nan
    margin = (score_to_elo(hi) - score_to_elo(lo)) / 2.0
    return elo, margin


def elo_trinomial(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """(Elo difference, 95% error margin) from game results, as cutechess-cli."""
    return _elo_interval((1.0, 0.5, 0.0), (wins, draws, losses))


def elo_pentanomial(pairs: Sequence[int]) -> tuple[float, float]:
    """(Elo difference, 95% margin) from pair counts [LL, LD, DD+WL, WD, WW]."""
    return _elo_interval((0.0, 0.25, 0.5, 0.75, 1.0), pairs)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority (0..1): probability that the first player is stronger."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _tilt(values: Sequence[float], probs: Sequence[float], target: float) -> float:
    """Lagrange multiplier ``lam`` with sum p_i (a_i - t) / (1 + lam (a_i - t)) = 0."""
    d = [a - target for a in values]
    hi_d, lo_d = max(d), min(d)
    if hi_d <= 0 or lo_d >= 0:
        raise ValueError("target score outside the range of results")
    lo, hi = -1.0 / hi_d, -1.0 / lo_d          # the open interval where all 1 + lam d > 0
    eps = 1e-12 * (hi - lo)
    lo, hi = lo + eps, hi - eps

    def g(lam: float) -> float:
        return sum(p * x / (1.0 + lam * x) for p, x in zip(probs, d))

    for _ in range(200):                        # g is decreasing in lam
        mid = (lo + hi) / 2.0
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    n = sum(counts)
    if n <= 0:
        return 0.0
    reg = [c if c > 0 else REGULARIZE for c in counts]
    total = sum(reg)
    probs = [c / total for c in reg]
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    lam0 = _tilt(values, probs, s0)
    lam1 = _tilt(values, probs, s1)
    return sum(c * (math.log1p(lam0 * (a - s0)) - math.log1p(lam1 * (a - s1)))
               for a, c in zip(values, reg))


TRINOMIAL_VALUES = (0.0, 0.5, 1.0)
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass
class Sprt:
    """Sequential probability ratio test between Elo bounds elo0 and elo1."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``ELO0,ELO1,ALPHA,BETA`` (alpha and beta default to 0.05)."""
        parts = [float(x) for x in text.split(",")]
        if len(parts) == 2:
            parts += [0.05, 0.05]
        if len(parts) != 4:
            raise ValueError("--sprt wants ELO0,ELO1,ALPHA,BETA")
        elo0, elo1, alpha, beta = parts
        if not elo0 < elo1:
            raise ValueError("--sprt needs ELO0 < ELO1")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("--sprt needs 0 < ALPHA, BETA < 1")
        return cls(elo0, elo1, alpha, beta)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        return llr((losses, draws, wins), TRINOMIAL_VALUES, self.elo0, self.elo1)

    def llr_pentanomial(self, pairs: Sequence[int]) -> float:
        return llr(pairs, PENTANOMIAL_VALUES, self.elo0, self.elo1)

    def decide(self, value: float) -> Optional[str]:
        """``"H0"``, ``"H1"`` or ``None`` (continue) for an LLR value."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def pair_category(score_a: float, score_b: float) -> int:
    """Index into [LL, LD, DD+WL, WD, WW] of a pair of game scores (1, 1/2, 0)."""
    return int(round((score_a + score_b) * 2))


def format_elo(elo: float, margin: float) -> str:
    """``34.9 +/- 120.5`` as cutechess-cli prints it (``inf``/``nan`` when undefined)."""
    def f(x: float) -> str:
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{x + 0.0:.1f}".replace("-0.0", "0.0")
    return f"{f(elo)} +/- {f(margin)}"
