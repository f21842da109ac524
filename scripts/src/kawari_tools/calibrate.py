"""Calibrate Kawari's levels against Fairy-Stockfish's ``USI_Elo``, one variant at a time.

Kawari maps ``USI_Elo`` to a ``Skill_Level`` through a row of ``SKILL_CALIBRATION``
(src/search/params.rs): its level at 1000, 1500, 2000 and 2500. This script measures
that row and then checks it.

search (the default): for each Elo point N, Kawari at an integer ``Skill_Level`` plays
``--games`` games (pairs from the balanced suite, colours swapped) against
Fairy-Stockfish at ``USI_LimitStrength true``, ``USI_Elo N``. The next level moves by
the Elo difference measured (``--slope`` Elo a level) until two levels one apart
bracket 50%, or by the secant between the closest bracketing levels. The point's level
is the linear interpolation between the bracketing levels (without a bracket, the last
level moved by the slope). At the end the row is printed as the Rust line to paste.

--verify: Kawari at ``USI_LimitStrength true``, ``USI_Elo N`` against Fairy-Stockfish
at the same, for each point; the issue asks 40-60% over at least 100 games.

--steps LO,HI: Kawari against itself, each ``Skill_Level`` L+1 against L for L from LO
to HI-1 (no Fairy-Stockfish); each step should score above 50%.

Example::

    kawari-calibrate --variant judkins --kawari target/release/kawari \\
        --fairy /path/to/fairy-stockfish --tc 2+0.02 --games 40 --concurrency 2
    kawari-calibrate --variant judkins --kawari target/release/kawari \\
        --fairy /path/to/fairy-stockfish --tc 2+0.02 --games 100 --concurrency 2 --verify

Each match's games go to ``--records`` (JSON lines, as kawari-match writes them). Exit
status: 0 when done, 1 if an engine cannot be used, 2 on bad arguments, 3 if
the match runner failed.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from dataclasses import dataclass
from typing import Optional

from kawari_tools import elo_stats
from kawari_tools.match import MatchConfig, Reporter, Runner, RunnerFailed, run_match
from kawari_tools.usi_client import EngineSpec

POINTS = (1000, 1500, 2000, 2500)
# SKILL_CALIBRATION's shogi row (the first one measured): where a search starts
DEFAULT_START = (-8, -1, 4, 7)
LEVEL_MIN, LEVEL_MAX = -20, 20
# an all-won or all-lost match counts as this many Elo (its own estimate is infinite)
ELO_CLAMP = 400.0


@dataclass
class Trial:
    """One match at one level: Kawari's results against Fairy-Stockfish."""

    level: int
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def elo(self) -> float:
        """Kawari's Elo difference, clamped to +-ELO_CLAMP."""
        score = (self.wins + self.draws / 2) / self.games
        return max(-ELO_CLAMP, min(ELO_CLAMP, elo_stats.score_to_elo(score)))

    def describe(self) -> str:
        elo, margin = elo_stats.elo_trinomial(self.wins, self.draws, self.losses)
        return (f"level {self.level}: {self.wins}-{self.losses}-{self.draws} "
                f"({elo_stats.format_elo(elo, margin)})")


def bracket(trials: list[Trial]) -> Optional[tuple[Trial, Trial]]:
    """The closest pair (below, above) of levels, below < above, where Kawari scored
    under 50% at ``below`` and at least 50% at ``above``; the latest on a tie."""
    best = None
    for a in trials:
        for b in trials:
            if a.level < b.level and a.elo < 0 <= b.elo:
                if best is None or b.level - a.level <= best[1].level - best[0].level:
                    best = (a, b)
    return best


def next_level(trials: list[Trial], slope: float, max_step: int) -> Optional[int]:
    """The level to play next, or None when the point is settled: bracketed by levels
    one apart, an even score, or the search stuck at the end of the level range."""
    last = trials[-1]
    if last.elo == 0:
        return None
    pair = bracket(trials)
    if pair is not None:
        a, b = pair
        if b.level - a.level <= 1:
            return None
        t = (0 - a.elo) / (b.elo - a.elo)
        return min(b.level - 1, max(a.level + 1, round(a.level + t * (b.level - a.level))))
    step = -last.elo / slope
    step = math.copysign(min(max_step, max(1, round(abs(step)))), step)
    level = int(min(LEVEL_MAX, max(LEVEL_MIN, last.level + step)))
    if any(t.level == level for t in trials):
        return None
    return level


def estimate(trials: list[Trial], slope: float) -> tuple[float, bool]:
    """(The level that scores 50%, whether two measured levels bracket it)."""
    pair = bracket(trials)
    if pair is not None:
        a, b = pair
        t = (0 - a.elo) / (b.elo - a.elo)
        return a.level + t * (b.level - a.level), True
    last = trials[-1]
    if last.elo == 0:
        return float(last.level), True
    return min(LEVEL_MAX, max(LEVEL_MIN, last.level - last.elo / slope)), False

class Calibrator:
    """Plays Kawari against Fairy-Stockfish (or, with ``steps``, against itself) with
    ``run_match``, each match from the next openings of ``base``'s, the first from
    ``base.first_opening``. ``base`` holds the two engines (Kawari first) with the
    options they always get, the clock, openings and ``games`` a match."""

    def __init__(self, base: MatchConfig, runner: Runner, reporter: Optional[Reporter] = None,
                 steps: bool = False):
        self.base = base
        self.runner = runner
        self.reporter = reporter
        self.next_pair = 0
        self.steps = steps
        self.names = ("higher", "lower") if steps else ("kawari", "fairy-stockfish")
        # the last match's fault counts per engine, as the match summary keeps them
        self.faults: list[dict[str, int]] = [{}, {}]

    def describe(self) -> str:
        c = self.base
        return (f"{c.variant.name}, {c.tc.describe()}, {c.games} games a "
                f"match, {len(c.openings)} openings ({c.openings_source})")

    def play(self, kawari: list[tuple[str, str]], fairy: list[tuple[str, str]]
             ) -> tuple[int, int, int]:
        """(wins, draws, losses) of Kawari with these options against the other engine
        (Fairy-Stockfish, or with ``steps`` Kawari again) with those. RunnerFailed if
        the match fails."""
        c = self.base
        first = (c.first_opening + self.next_pair) % len(c.openings)
        self.next_pair += math.ceil(c.games / 2)
        specs = [EngineSpec(spec.argv, name, list(spec.options) + extra)
                 for spec, name, extra in zip(c.engines, self.names, (kawari, fairy))]
        result = run_match(dataclasses.replace(c, engines=specs, first_opening=first),
                           self.runner, self.reporter)
        if not result.ok:
            raise RunnerFailed(result)
        t = result.tally
        self.faults = t.faults
        return t.wins, t.draws, t.losses

    def fault_note(self) -> str:
        """The last match's illegal moves, time losses, crashes and stalls, by engine:
        "no faults" when there were none."""
        parts = [f"{name} {kind} {count}"
                 for name, faults in zip(self.names, self.faults)
                 for kind, count in sorted(faults.items()) if count]
        return "faults: " + ", ".join(parts) if parts else "no faults"


def limited(elo: int) -> list[tuple[str, str]]:
    return [("USI_LimitStrength", "true"), ("USI_Elo", str(elo))]


def search(runner: Calibrator, variant: str, points: list[int], starts: list[int],
           rounds: int = 3, slope: float = 60.0, max_step: int = 6) -> list[float]:
    """For each Elo point, the level that scores 50% against Fairy-Stockfish at
    that ``USI_Elo``, searched from its start level; prints each point and the row."""
    row = []
    for point, start in zip(points, starts):
        trials: list[Trial] = []
        level: Optional[int] = start
        while level is not None and len(trials) < rounds:
            w, d, l_ = runner.play([("Skill_Level", str(level))], limited(point))
            trials.append(Trial(level, w, d, l_))
            print(f"USI_Elo {point}: {trials[-1].describe()}, {runner.fault_note()}",
                  file=sys.stderr, flush=True)
            level = next_level(trials, slope, max_step)
        found, bracketed = estimate(trials, slope)
        row.append(round(found, 1))
        note = "" if bracketed else " (not bracketed: moved from the last level by the slope)"
        print(f"USI_Elo {point}: " + "; ".join(t.describe() for t in trials)
              + f" => level {found:.1f}{note}", flush=True)
    print(f'Row: ("{variant}", [{", ".join(f"{x:.1f}" for x in row)}]),', flush=True)
    return row


def verify(runner: Calibrator, points: list[int]) -> int:
    """Kawari at each ``USI_Elo`` against Fairy-Stockfish at the same; prints a line
    per point; how many points scored outside 40-60%."""
    outside = 0
    for point in points:
        w, d, l_ = runner.play(limited(point), limited(point))
        games = w + d + l_
        score = (w + d / 2) / games
        elo, margin = elo_stats.elo_trinomial(w, d, l_)
        inside = 0.40 <= score <= 0.60
        outside += not inside
        print(f"USI_Elo {point}: Kawari {w}-{l_}-{d} of {games} ({100 * score:.1f}%), "
              f"Elo {elo_stats.format_elo(elo, margin)}, "
              f"{'within' if inside else 'OUTSIDE'} 40-60%, {runner.fault_note()}", flush=True)
    print(f"{len(points) - outside} of {len(points)} points within 40-60%",
          flush=True)
    return outside


def steps(runner: Calibrator, lo: int, hi: int) -> int:
    """Kawari's Skill_Level L+1 against L for L from ``lo`` to ``hi - 1``; prints a
    line per step; how many steps did not score above 50%."""
    below = 0
    total = [0, 0, 0]
    for level in range(lo, hi):
        w, d, l_ = runner.play([("Skill_Level", str(level + 1))],
                               [("Skill_Level", str(level))])
        total = [total[0] + w, total[1] + d, total[2] + l_]
        score = (w + d / 2) / (w + d + l_)
        elo, margin = elo_stats.elo_trinomial(w, d, l_)
        above = score > 0.5
        below += not above
        print(f"level {level + 1} against {level}: {w}-{l_}-{d} ({100 * score:.1f}%), "
              f"Elo {elo_stats.format_elo(elo, margin)}, "
              f"{'above' if above else 'NOT above'} 50%, {runner.fault_note()}", flush=True)
    # the average step, from the total score (+ 0.0 turns -0.0 into 0.0)
    w, d, l_ = total
    score = (w + d / 2) / (w + d + l_)
    print(f"{hi - lo - below} of {hi - lo} steps above 50%; together {w}-{l_}-{d} "
          f"({100 * score:.1f}%), about {elo_stats.score_to_elo(score) + 0.0:+.1f} Elo a step",
          flush=True)
    return below
