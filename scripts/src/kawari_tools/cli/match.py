#!/usr/bin/env python3
"""kawari-match: play a match between two USI engines in one of Kawari's seven
shogi variants.

Every move is refereed independently of the engines (see kawari_tools.referee: legality by
pyffish plus the project's own rules for pawn-drop mate, repetition and perpetual
check, Heian's bare king, impasse and the 27-point declaration).  Games are played in
pairs from the same opening with colours swapped, optionally several at a time
(``--concurrency``), optionally under an SPRT that stops the match as soon as it decides.
The openings are by default the variant's balanced suite, ``openings/<variant>.txt``
(kawari-openings), in order; ``--openings FILE`` or ``--random-plies K`` choose others.

Example::

    kawari-match --variant judkins \\
        --engine target/release/kawari --engine "/path/fairy-stockfish" \\
        --name kawari --name fsf --games 20 --tc 10+0.1 --records games.jsonl

The summary on stdout ends with two lines in cutechess-cli's format::

    Score of A vs B: W - L - D  [0.550] N
    Elo difference: 34.9 +/- 120.5

Before them it gives each engine's think time per move (mean and median) and, with
a clock, the time it had left at the end of its games (main time plus increments
earned, less the time used), as the time-use figures of a match.

Time odds: ``--tc`` (or ``--byoyomi``) given twice is engine 1's clock, then engine
2's, as in cutechess-cli; each engine keeps its own whichever colour it has, and the
``go`` line carries each side's own time and increment (``go btime B wtime W binc IB
winc IW``).  The header and summary name each engine's clock, and the records'
``time_control`` is both (``5+0.05 / 10+0.1``, engine 1's first).

Game records are JSON lines (start SFEN, USI moves, result, reason, and per engine
move its time and last reported score); ``--csa-dir``
also writes CSA files for 9x9 games with standard pieces (shogi, heian).

Engine handling: the first command sent is ``usi``; ``VariantPath`` (the Heian
definition, for Heian variants) is set only if the engine lists that option, and the
variant is selected through ``USI_Variant`` (or else ``UCI_Variant``) only if the engine
lists it.  Positions are always sent as ``position sfen <start> moves ...``.

With ``--cluster ADDRESS`` the pairs of games run as tasks on a Ray cluster
(kawari_tools.match.ray_runner); the output is that of a local run.

Exit status: 0 after a match, 1 if an engine cannot be started (or the cluster not
joined), 2 on bad arguments, 3 if the runner itself failed during the match (a bug;
the summary is still printed), 4 if the Ray cluster went away during the match (the
summary of the games finished is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

from kawari_tools import elo_stats, paths, referee
from kawari_tools.games.clock import TimeControl
from kawari_tools.games.openings import default_openings_path
from kawari_tools.games.player import DEFAULT_STARTUP_TIMEOUT_S
from kawari_tools.match import (
    CLUSTER_LOST,
    DEFAULT_HANG_TIMEOUT_S,
    DEFAULT_MARGIN_MS,
    DEFAULT_MAX_PLIES,
    DEFAULT_RANDOM_PLIES,
    ConsoleReporter,
    LocalRunner,
    MatchConfig,
    choose_openings,
    engine_specs,
    run_match,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kawari-match",
        description="Play a match between two USI engines in a shogi variant, refereeing "
                    "every move with pyffish and the project's rules (docs/rules.md). Games are "
                    "played in pairs from the same opening with colours swapped.",
        epilog="""\
output:
  progress lines on stderr; the summary on stdout ends with cutechess-cli's lines
    Score of A vs B: W - L - D  [0.550] N
    Elo difference: 34.9 +/- 120.5
  (W, L, D from engine 1's point of view; 95% interval as cutechess-cli computes it)

examples:
  kawari-match --variant shogi --engine target/release/kawari \\
      --engine fairy-stockfish --games 100 --byoyomi 0+1 --concurrency 2 \\
      --records shogi.jsonl
  kawari-match --variant heian8x8 --engine "./new" --engine "./old" \\
      --option 1:USI_Hash=64 --games 2000 --tc 10+0.1 --sprt 0,5,0.05,0.05
  # time odds: engine 1 at 5+0.05, engine 2 at twice its time
  kawari-match --variant shogi --engine target/release/kawari --engine ./yaneuraou \\
      --tc 5+0.05 --tc 10+0.1 --games 200 --concurrency 2
""",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", required=True, choices=sorted(referee.VARIANTS),
                   help="the variant to play")
    p.add_argument("--engine", action="append", required=True, metavar="CMD",
                   help="engine command line, split as a shell would (give it twice)")
    p.add_argument("--name", action="append", default=[], metavar="NAME",
                   help="display names of engine 1 and 2 (default: their 'id name')")
    p.add_argument("--option", action="append", default=[], metavar="[N:]NAME=VALUE",
                   help="USI option: '1:USI_Hash=64' for engine 1, '2:...' for engine 2, "
                        "'USI_Hash=64' for both")
    p.add_argument("--games", type=int, default=2,
                   help="number of games, the maximum with --sprt (default: %(default)s)")
    tc = p.add_mutually_exclusive_group(required=True)
    tc.add_argument("--tc", action="append", metavar="BASE[+INC]",
                    help="Fischer clock in seconds, e.g. 10+0.1; '60' = sudden death. "
                         "Give it twice for time odds: engine 1's clock, then engine 2's "
                         "(each engine keeps its own whichever colour it has)")
    tc.add_argument("--byoyomi", action="append", metavar="MAIN+BYO",
                    help="main time + byoyomi in seconds, e.g. 10+1; twice for time odds, "
                         "as --tc")
    tc.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move (ms)")
    tc.add_argument("--nodes", type=int, metavar="N", help="fixed nodes per move")
    tc.add_argument("--depth", type=int, metavar="D", help="fixed depth per move")
    p.add_argument("--margin", type=float, default=DEFAULT_MARGIN_MS, metavar="MS",
                   help="time an engine may overstep its clock or movetime before it forfeits "
                        "(default: %(default)s)")
    p.add_argument("--hang-timeout", type=float, default=DEFAULT_HANG_TIMEOUT_S, metavar="S",
                   help="with --nodes/--depth: seconds without a bestmove before the engine "
                        "loses as stalled (default: %(default)s)")
    p.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT_S,
                   metavar="S", help="seconds allowed for usiok and readyok (default: %(default)s)")
    p.add_argument("--openings", metavar="FILE",
                   help="openings, one per line: an SFEN, 'startpos' or USI moves, each "
                        "optionally followed by 'moves ...'; '#' starts a comment "
                        "(default: the variant's balanced suite, openings/<variant>.txt, "
                        "unless --random-plies or --start-sfen is given)")
    p.add_argument("--first-opening", type=int, metavar="N",
                   help="read the openings from their N-th (1 = the first), wrapping "
                        "round: another pass over the suite on other openings")
    p.add_argument("--random-plies", type=int, metavar="K",
                   help="instead of the suite: openings of K random legal plies (seeded "
                        "by --seed), 0 = the start position; the default with --start-sfen "
                        f"or a variant without a suite is {DEFAULT_RANDOM_PLIES}"),

    p.add_argument("--seed", type=int, default=1,
                   help="seed of the random openings (default: %(default)s)")
    p.add_argument("--start-sfen", metavar="SFEN",
                   help="start position (e.g. a handicap) for random openings and for "
                        "move-list lines of --openings")
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                   help="move cap; then impasse adjudication (both kings in their zones "
                        "and the variant has points) or a draw (default: %(default)s)")
    p.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="games played at the same time (default: %(default)s)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Ray cluster: HEAD:PORT, or 'auto' (RAY_ADDRESS, "
                        "else a cluster started on this machine); each pair of games is a "
                        "task asking for the CPUs its engines use (Threads of both); "
                        "--concurrency is then the cluster's")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="stop as soon as the SPRT between logistic Elo bounds decides")
    p.add_argument("--sprt-model", choices=("pentanomial", "trinomial"), default="pentanomial",
                   help="results model of the SPRT; pentanomial uses game pairs "
                        "(default: %(default)s)")
    p.add_argument("--records", metavar="FILE", help="append game records (JSON lines) to FILE")
    p.add_argument("--csa-dir", metavar="DIR",
                   help="also write one CSA file per game (9x9 variants: shogi, heian)")
    p.add_argument("--variant-path", default=paths.DEFAULT_HEIAN_INI, metavar="INI",
                   help="Heian definition sent as VariantPath and loaded into pyffish "
                        "(default: the package's heian.ini)")
    p.add_argument("--crosscheck", action="store_true",
                   help="also let pyffish compute every position and compare it with the "
                        "referee's own (slower; a self-test)")
    p.add_argument("--debug", metavar="FILE", help="log all engine traffic to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def config_from_args(args: argparse.Namespace) -> MatchConfig:
    """The match of the parsed arguments (which it checks); ValueError or OSError on
    bad ones."""
    if len(args.engine) != 2:
        raise ValueError("give --engine exactly twice")
    if len(args.name) > 2:
        raise ValueError("give --name at most twice")
    if args.games < 1 or args.concurrency < 1 or args.max_plies < 1:
        raise ValueError("--games, --concurrency and --max-plies must be positive")
    if args.random_plies is not None and args.random_plies < 0:
        raise ValueError("--random-plies must not be negative")
    tc, tc2 = time_controls(args)
    referee.init_pyffish(args.variant_path)
    variant = referee.get_variant(args.variant)
    specs = engine_specs(args.engine, args.name, args.option)
    openings, source = choose_openings(variant, (args.games + 1) // 2, args.openings,
                                       args.random_plies, args.start_sfen, args.seed)
    from_file = args.openings or (args.random_plies is None and args.start_sfen is None
                                  and os.path.isfile(default_openings_path(variant.name)))
    if args.first_opening is not None:
        if not from_file:
            raise ValueError("--first-opening reads the suite or --openings, "
                             "not random openings")
        if not 1 <= args.first_opening <= len(openings):
            raise ValueError(f"--first-opening {args.first_opening}: there are "
                             f"{len(openings)} openings")
        source += f", from opening {args.first_opening}"
    return MatchConfig(
        variant, specs, tc, openings, games=args.games, openings_source=source,
        first_opening=(args.first_opening or 1) - 1, max_plies=args.max_plies,
        margin_ms=args.margin, hang_timeout=args.hang_timeout,
        startup_timeout=args.startup_timeout,
        sprt=elo_stats.Sprt.parse(args.sprt) if args.sprt else None,
        sprt_model=args.sprt_model, records=args.records, csa_dir=args.csa_dir,
        variant_path=args.variant_path, crosscheck=args.crosscheck, debug=args.debug, tc2=tc2)


def time_controls(args: argparse.Namespace) -> tuple[TimeControl, Optional[TimeControl]]:
    """Engine 1's clock and, with time odds (``--tc`` or ``--byoyomi`` given twice),
    engine 2's; ValueError on a third or a bad one."""
    flag, given = ("--tc", args.tc) if args.tc else ("--byoyomi", args.byoyomi or [])
    if len(given) > 2:
        raise ValueError(f"{flag} given {len(given)} times: give it once for both engines, "
                         f"or twice for time odds (engine 1's clock, then engine 2's)")
    clocks = [TimeControl.from_flags(text if flag == "--tc" else None,
                                     text if flag == "--byoyomi" else None)
              for text in given]
    if not clocks:
        clocks = [TimeControl.from_flags(None, None, args.movetime, args.nodes, args.depth)]
    return clocks[0], (clocks[1] if len(clocks) == 2 else None)


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
    except (ValueError, OSError) as e:
        parser.error(str(e))
    if args.cluster:
        from kawari_tools.match.ray_runner import RayRunner  # imports Ray: only here
        runner = RayRunner(args.cluster)
    else:
        runner = LocalRunner(args.concurrency)
    result = run_match(config, runner, ConsoleReporter(progress=not args.quiet))
    if result.status == CLUSTER_LOST:
        from kawari_tools import cluster  # Ray's exit hook would wait for the lost head
        cluster.exit_now(CLUSTER_LOST)
    return result.status


if __name__ == "__main__":
    sys.exit(main())
