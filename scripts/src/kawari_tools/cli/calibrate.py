#!/usr/bin/env python3
"""kawari-calibrate: measure Kawari's levels against Fairy-Stockfish's ``USI_Elo``
(kawari_tools.calibrate), check a row (``--verify``), or play level against level
(``--steps``).

Exit status: 0 when done, 1 if an engine cannot be used, 2 on bad arguments, 3 if
the match runner failed.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Optional

from kawari_tools import referee
from kawari_tools.calibrate import (
    DEFAULT_START,
    LEVEL_MAX,
    LEVEL_MIN,
    POINTS,
    Calibrator,
    search,
    steps,
    verify,
)
from kawari_tools.games.clock import TimeControl
from kawari_tools.match import (
    ConsoleReporter,
    LocalRunner,
    MatchConfig,
    RunnerFailed,
    choose_openings,
    engine_specs,
)


def int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kawari-calibrate",
        description="Measure Kawari's level at each Fairy-Stockfish USI_Elo point "
                    "(SKILL_CALIBRATION's row for a variant), or check the row.",
        epilog="output: kawari-match's progress line per game and a line per match on stderr; "
               "per point its matches and level, then the row as Rust, on stdout "
               "(--verify: a line per point; --steps: a line per step)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", required=True, choices=sorted(referee.VARIANTS))
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
                   help="the first match from the openings' N-th, as kawari-match's")
    p.add_argument("--option", action="append", default=[],
                   help="more USI options, as kawari-match's --option")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--cluster", help="play on a Ray cluster, as kawari-match's --cluster")
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


def base_config(args: argparse.Namespace) -> MatchConfig:
    """Kawari against the other engine, ``--games`` a match, from the suite (or
    ``--openings``) and its ``--first-opening``-th on."""
    referee.init_pyffish()
    variant = referee.get_variant(args.variant)
    other = args.kawari if args.steps else args.fairy
    openings, source = choose_openings(variant, (args.games + 1) // 2, args.openings)
    first = args.first_opening or 1
    if not 1 <= first <= len(openings):
        raise ValueError(f"--first-opening {first}: there are {len(openings)} openings")
    if args.first_opening:
        source += f", from opening {first}"
    return MatchConfig(
        variant, engine_specs([args.kawari, other], options=args.option),
        TimeControl.from_flags(args.tc, args.byoyomi, args.movetime, args.nodes, args.depth),
        openings, games=args.games, openings_source=source, first_opening=first - 1,
        max_plies=args.max_plies, records=args.records, debug=args.debug)


def match_runner(args: argparse.Namespace):
    """A Ray runner with ``--cluster`` (importing Ray), else a local one."""
    if args.cluster:
        from kawari_tools.match.ray_runner import RayRunner
        return RayRunner(args.cluster)
    return LocalRunner(args.concurrency)


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
        runner = Calibrator(base_config(args), match_runner(args),
                            ConsoleReporter(progress=not args.quiet, summary=False, header=False),
                            steps=bool(args.steps))
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    against = "itself, level against level" if args.steps else "Fairy-Stockfish"
    print(f"Calibration of Kawari against {against}: {runner.describe()}", flush=True)
    try:
        if args.verify:
            verify(runner, args.points)
        elif args.steps:
            steps(runner, *args.steps)
        else:
            search(runner, args.variant, args.points, args.start, args.rounds, args.slope,
                   args.max_step)
    except RunnerFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1 if e.status == 1 else 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
