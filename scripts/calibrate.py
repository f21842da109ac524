#!/usr/bin/env python3
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

    python3 scripts/calibrate.py --variant judkins --kawari target/release/kawari \\
        --fairy /path/to/fairy-stockfish --tc 2+0.02 --games 40 --concurrency 2
    python3 scripts/calibrate.py --variant judkins --kawari target/release/kawari \\
        --fairy /path/to/fairy-stockfish --tc 2+0.02 --games 100 --concurrency 2 --verify

Each match's games go to ``--records`` (JSON lines, as match.py writes them). Exit
status: 0 when done, 1 if an engine cannot be used, 2 on bad arguments, 3 if
match.py's runner failed.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import elo_stats  # noqa: E402
import match  # noqa: E402

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


class Runner:
    """Plays Kawari against Fairy-Stockfish with match.py's ``Match``, each match
    from the next openings of the suite."""

    def __init__(self, args: argparse.Namespace):
        other = args.kawari if args.steps else args.fairy
        argv = ["--variant", args.variant, "--engine", args.kawari, "--engine", other,
                "--games", str(args.games), "--concurrency", str(args.concurrency),
                "--max-plies", str(args.max_plies)]
        if args.quiet:
            argv.append("--quiet")
        argv += match.forwarded(args, ("tc", "byoyomi", "movetime", "nodes", "depth",
                                       "openings", "first_opening", "cluster", "records",
                                       "debug"))
        self.args = match.build_parser().parse_args(argv)
        self.specs, self.variant, self.tc, self.openings, _ = match.setup(self.args)
        self.next_pair = 0
        # each match from the suite's next openings, the first from --first-opening
        self.first = (args.first_opening or 1) - 1
        self.steps = bool(args.steps)
        self.names = ("higher", "lower") if self.steps else ("kawari", "fairy-stockfish")
        # the last match's fault counts per engine, as match.py's summary keeps them
        self.faults: list[dict[str, int]] = [{}, {}]

    def describe(self) -> str:
        return (f"{self.variant.name}, {self.tc.describe()}, {self.args.games} games a "
                f"match, {len(self.openings)} openings ({self.args.openings_source})")

    def play(self, kawari: list[tuple[str, str]], fairy: list[tuple[str, str]]
             ) -> tuple[int, int, int]:
        """(wins, draws, losses) of Kawari with these options against the other engine
        (Fairy-Stockfish, or with --steps Kawari again) with those."""
        run_args = copy.copy(self.args)
        run_args.first_opening = (self.first + self.next_pair) % len(self.openings) + 1
        self.next_pair += math.ceil(self.args.games / 2)
        specs = [match.EngineSpec(spec.argv, name, list(spec.options) + extra)
                 for spec, name, extra in zip(self.specs, self.names, (kawari, fairy))]
        run = match.QuietMatch(run_args, specs, self.variant, self.tc, self.openings, None)
        status = run.run()
        if status != 0:
            raise match.RunnerFailed(status)
        t = run.tally
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


def search(runner: Runner, args: argparse.Namespace) -> list[float]:
    row = []
    for point, start in zip(args.points, args.start):
        trials: list[Trial] = []
        level: Optional[int] = start
        while level is not None and len(trials) < args.rounds:
            w, d, l_ = runner.play([("Skill_Level", str(level))], limited(point))
            trials.append(Trial(level, w, d, l_))
            print(f"USI_Elo {point}: {trials[-1].describe()}, {runner.fault_note()}",
                  file=sys.stderr, flush=True)
            level = next_level(trials, args.slope, args.max_step)
        found, bracketed = estimate(trials, args.slope)
        row.append(round(found, 1))
        note = "" if bracketed else " (not bracketed: moved from the last level by the slope)"
        print(f"USI_Elo {point}: " + "; ".join(t.describe() for t in trials)
              + f" => level {found:.1f}{note}", flush=True)
    print(f'Row: ("{args.variant}", [{", ".join(f"{x:.1f}" for x in row)}]),', flush=True)
    return row


def verify(runner: Runner, args: argparse.Namespace) -> int:
    outside = 0
    for point in args.points:
        w, d, l_ = runner.play(limited(point), limited(point))
        games = w + d + l_
        score = (w + d / 2) / games
        elo, margin = elo_stats.elo_trinomial(w, d, l_)
        inside = 0.40 <= score <= 0.60
        outside += not inside
        print(f"USI_Elo {point}: Kawari {w}-{l_}-{d} of {games} ({100 * score:.1f}%), "
              f"Elo {elo_stats.format_elo(elo, margin)}, "
              f"{'within' if inside else 'OUTSIDE'} 40-60%, {runner.fault_note()}", flush=True)
    print(f"{len(args.points) - outside} of {len(args.points)} points within 40-60%",
          flush=True)
    return outside


def steps(runner: Runner, args: argparse.Namespace) -> int:
    lo, hi = args.steps
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


def int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description="Measure Kawari's level at each Fairy-Stockfish USI_Elo point "
                    "(SKILL_CALIBRATION's row for a variant), or check the row.",
        epilog="output: match.py's progress line per game and a line per match on stderr; "
               "per point its matches and level, then the row as Rust, on stdout "
               "(--verify: a line per point; --steps: a line per step)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", required=True, choices=sorted(match.referee.VARIANTS))
    p.add_argument("--kawari", required=True, help="Kawari's command line")
    p.add_argument("--fairy", help="Fairy-Stockfish's command line (not with --steps)")
    p.add_argument("--points", type=int_list, default=list(POINTS),
                   help="USI_Elo points (default: 1000,1500,2000,2500)")
    p.add_argument("--start", type=int_list, default=None,
                   help="first level tried at each point (default: shogi's row, "
                        + ",".join(map(str, DEFAULT_START)) + ")")
    p.add_argument("--games", type=int, default=40, help="games a match (default: 40)")
    p.add_argument("--rounds", type=int, default=3,
                   help="matches at most per point (default: 3)")
    p.add_argument("--slope", type=float, default=60.0,
                   help="Elo a level is taken to be worth when no two levels bracket "
                        "50%% (default: 60)")
    p.add_argument("--max-step", type=int, default=6,
                   help="levels moved at most in one step (default: 6)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--verify", action="store_true",
                      help="play USI_Elo N against USI_Elo N instead of searching")
    mode.add_argument("--steps", type=int_list, metavar="LO,HI",
                      help="play Kawari's Skill_Level L+1 against L for L from LO to HI-1")
    clock = p.add_mutually_exclusive_group(required=True)
    clock.add_argument("--tc", help="Fischer clock, e.g. 2+0.02")
    clock.add_argument("--byoyomi")
    clock.add_argument("--movetime", type=int)
    clock.add_argument("--nodes", type=int)
    clock.add_argument("--depth", type=int)
    p.add_argument("--openings", help="openings file (default: the balanced suite)")
    p.add_argument("--first-opening", type=int, metavar="N",
                   help="the first match from the openings' N-th, as match.py's")
    p.add_argument("--option", action="append", default=[],
                   help="more USI options, as match.py's --option")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--cluster", help="play on a Ray cluster, as match.py's --cluster")
    p.add_argument("--max-plies", type=int, default=512)
    p.add_argument("--records", help="append every game record to this file")
    p.add_argument("--debug", help="log all engine traffic to this file")
    p.add_argument("--quiet", action="store_true",
                   help="no per-game progress lines on stderr (a line per match stays)")
    return p


# Options whose value is a list of integers, often starting with a minus sign.
LIST_OPTIONS = ("--points", "--start", "--steps")


def glue_negative_lists(argv: list[str]) -> list[str]:
    """``--steps -20,20`` as ``--steps=-20,20``: argparse takes a value that
    starts with a minus sign and is not a plain number for an option."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if a in LIST_OPTIONS and re.fullmatch(r"-\d[\d,-]*", nxt):
            out.append(f"{a}={nxt}")
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(glue_negative_lists(argv))
    if args.steps is not None and (len(args.steps) != 2 or args.steps[0] >= args.steps[1]
                                   or args.steps[0] < LEVEL_MIN or args.steps[1] > LEVEL_MAX):
        print(f"error: --steps takes LO,HI with {LEVEL_MIN} <= LO < HI <= {LEVEL_MAX}",
              file=sys.stderr)
        return 2
    if (args.fairy is None) == (args.steps is None):
        print("error: give --fairy, except with --steps", file=sys.stderr)
        return 2
    if args.start is None:
        args.start = list(DEFAULT_START)
    if not args.verify and not args.steps and len(args.start) != len(args.points):
        print("error: give --start one level for each of --points", file=sys.stderr)
        return 2
    if any(not LEVEL_MIN <= s <= LEVEL_MAX for s in args.start):
        print(f"error: levels run from {LEVEL_MIN} to {LEVEL_MAX}", file=sys.stderr)
        return 2
    if args.games < 2 or args.rounds < 1 or args.slope <= 0 or args.max_step < 1:
        print("error: --games must be at least 2, --rounds, --slope and --max-step "
              "positive", file=sys.stderr)
        return 2
    try:
        runner = Runner(args)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    against = "itself, level against level" if args.steps else "Fairy-Stockfish"
    print(f"Calibration of Kawari against {against}: {runner.describe()}", flush=True)
    try:
        if args.verify:
            verify(runner, args)
        elif args.steps:
            steps(runner, args)
        else:
            search(runner, args)
    except match.RunnerFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1 if e.status == 1 else 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
