#!/usr/bin/env python3
"""kawari-spsa: SPSA tuning of Kawari's search constants (kawari_tools.spsa).

Exit status: 0 when the run is done, 1 if the engine cannot be used, 2 on bad
arguments, 3 if the match runner failed, 130 after Ctrl-C (the checkpoint holds
the last finished iteration).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Optional

from kawari_tools import paths, progress, referee
from kawari_tools.games.clock import TimeControl
from kawari_tools.match import (
    ConsoleReporter,
    LocalRunner,
    MatchConfig,
    RunnerFailed,
    choose_openings,
    engine_specs,
)
from kawari_tools.spsa import (
    DEFAULT_A_RATIO,
    EngineUnusable,
    GameRunner,
    Perturbation,
    Spsa,
    engine_spins,
    select_params,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kawari-spsa",
        description="Tune Kawari's search constants by SPSA: games between the tune "
                    "build at theta+c*delta and at theta-c*delta, played as kawari-match plays, "
                    "move theta.",
        epilog="""\
parameters:
  the engine must be a tune build (cargo build --release --features tune); its tune
  options are the spins named in UPPER_SNAKE_CASE, e.g. RFP_MARGIN. Default: all of
  them, each from its default within its option's range, c_end = range/20 (at
  least 1), r_end = 0.002. A --params-file has fishtest's lines
      NAME, start, min, max, c_end, r_end      (# comments; trailing fields optional)
  The engines get theta+-c_k rounded to whole numbers: a c_end below 1 may round
  the perturbation away near the end of a run.

output:
  one progress line per iteration on stderr (iteration, pairs, result, theta, time
  left); at the end, on stdout, theta as 'setoption name X value V' lines and as
  'pub const X: i32 = V;' lines to paste into src/search/params.rs.

examples:
  kawari-spsa --variant shogi --params RFP_MARGIN,RFP_DEPTH \\
      --iterations 5000 --tc 5+0.05 --concurrency 2 --checkpoint rfp.json
  kawari-spsa --resume --checkpoint rfp.json --variant shogi --tc 5+0.05
  kawari-spsa --variant judkins --params-file params.txt --iterations 200 \\
      --pairs 8 --nodes 20000 --cluster auto
""",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_argument_group("tuning")
    g.add_argument("--engine", default=paths.TUNE_BINARY, metavar="CMD",
                   help="the tune build's command line (default: target/tune/release/kawari)")
    g.add_argument("--params", metavar="NAME,NAME",
                   help="tune these options (default: every tune option)")
    g.add_argument("--params-file", metavar="FILE",
                   help="tune the parameters of FILE (fishtest's format, see below)")
    g.add_argument("--iterations", type=int, default=1000, metavar="N",
                   help="iterations, one perturbation each (default: %(default)s)")
    g.add_argument("--pairs", type=int, default=1, metavar="P",
                   help="game pairs per iteration; the gains count pairs (default: %(default)s)")
    g.add_argument("--A-ratio", dest="a_ratio", type=float, default=DEFAULT_A_RATIO,
                   metavar="R", help="A as a share of the run's pairs (default: %(default)s)")
    g.add_argument("--seed", type=int, default=1,
                   help="seed of the perturbations and of random openings (default: %(default)s)")
    g.add_argument("--checkpoint", default="spsa-checkpoint.json", metavar="FILE",
                   help="state written after every iteration (default: %(default)s)")
    g.add_argument("--resume", action="store_true",
                   help="continue the run of --checkpoint: its parameters, iterations, "
                        "pairs and generator; the match options are taken from this call")
    m = p.add_argument_group("games (as kawari-match)")
    m.add_argument("--variant", required=True, help="the variant to play")
    tc = m.add_mutually_exclusive_group(required=True)
    tc.add_argument("--tc", metavar="BASE[+INC]", help="Fischer clock in seconds, e.g. 5+0.05")
    tc.add_argument("--byoyomi", metavar="MAIN+BYO", help="main time + byoyomi in seconds")
    tc.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move (ms)")
    tc.add_argument("--nodes", type=int, metavar="N", help="fixed nodes per move")
    tc.add_argument("--depth", type=int, metavar="D", help="fixed depth per move")
    m.add_argument("--openings", metavar="FILE",
                   help="openings file (default: the variant's balanced suite, "
                        "openings/<variant>.txt); iterations go through it in order")
    m.add_argument("--random-plies", type=int, metavar="K",
                   help="openings of K random plies instead of the suite (seeded by --seed)")
    m.add_argument("--start-sfen", metavar="SFEN", help="start position for random openings")
    m.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="another option for both engines, e.g. USI_Hash=16")
    m.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="games at the same time (default: %(default)s)")
    m.add_argument("--cluster", metavar="ADDRESS",
                   help="play each iteration's pairs on a Ray cluster (kawari-match --cluster); "
                        "each iteration joins it anew, so give a running cluster's "
                        "address and many --pairs")
    m.add_argument("--max-plies", type=int, default=512, metavar="N",
                   help="move cap (default: %(default)s)")
    m.add_argument("--margin", type=float, default=200, metavar="MS",
                   help="time an engine may overstep (default: %(default)s)")
    m.add_argument("--hang-timeout", type=float, default=60.0, metavar="S",
                   help="seconds without a bestmove under --nodes/--depth (default: %(default)s)")
    m.add_argument("--variant-path", metavar="INI",
                   default=paths.DEFAULT_HEIAN_INI,
                   help="Heian definition (default: the package's heian.ini)")
    m.add_argument("--records", metavar="FILE", help="append every game's record to FILE")
    m.add_argument("--debug", metavar="FILE", help="log all engine traffic to FILE")
    return p


def base_config(args: argparse.Namespace, engine_argv: list[str], total_pairs: int
                ) -> MatchConfig:
    """The match of the whole run: every opening it uses (random ones: one per pair)."""
    referee.init_pyffish(args.variant_path)
    variant = referee.get_variant(args.variant)
    engine = shlex.join(engine_argv)
    openings, source = choose_openings(variant, total_pairs, args.openings,
                                       args.random_plies, args.start_sfen, args.seed)
    return MatchConfig(
        variant, engine_specs([engine, engine], options=args.option),
        TimeControl.from_flags(args.tc, args.byoyomi, args.movetime, args.nodes, args.depth),
        openings, games=2 * total_pairs, openings_source=source, max_plies=args.max_plies,
        margin_ms=args.margin, hang_timeout=args.hang_timeout, records=args.records,
        variant_path=args.variant_path, debug=args.debug)


def match_runner(args: argparse.Namespace):
    """A Ray runner with ``--cluster`` (importing Ray), else a local one."""
    if args.cluster:
        from kawari_tools.match.ray_runner import RayRunner
        return RayRunner(args.cluster)
    return LocalRunner(args.concurrency)


def report(spsa: Spsa, out=sys.stdout) -> None:
    print(f"# SPSA after {spsa.done} of {spsa.iterations} iterations "
          f"({spsa.done * spsa.pairs} pairs)", file=out)
    for line in spsa.setoption_lines():
        print(line, file=out)
    print("# src/search/params.rs:", file=out)
    for line in spsa.rust_lines():
        print(line, file=out)
    out.flush()


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        engine_argv = shlex.split(args.engine)
        if not engine_argv:
            raise ValueError("empty --engine command")
        if args.concurrency < 1 or args.max_plies < 1:
            raise ValueError("--concurrency and --max-plies must be positive")
        if any(o.partition(":")[0].isdigit() for o in args.option):
            raise ValueError("--option applies to both engines: give NAME=VALUE")
        spins = engine_spins(engine_argv)
        if args.resume:
            spsa = Spsa.load(args.checkpoint)
            missing = [p.name for p in spsa.params if p.name not in spins]
            if missing:
                raise ValueError(f"the engine lacks the checkpoint's {', '.join(missing)}")
        else:
            params = select_params(spins, args.params, args.params_file)
            spsa = Spsa(params, args.iterations, args.pairs, args.a_ratio, args.seed)
        runner = GameRunner(base_config(args, engine_argv, spsa.iterations * spsa.pairs),
                            match_runner(args), ConsoleReporter(progress=False, summary=False))
    except EngineUnusable as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as e:
        parser.error(str(e))
    names = [p.name for p in spsa.params]
    print(f"SPSA: {len(names)} parameters, {spsa.iterations} iterations of {spsa.pairs} "
          f"pair(s), {runner.describe()}; "
          + ("resumed after iteration " + str(spsa.done) if spsa.done else "starting")
          + f"\n  theta {spsa.theta_text()}", file=sys.stderr, flush=True)
    bar = progress.Progress(spsa.iterations, "iterations", already=spsa.done)
    status = 0
    record: dict[str, int] = {}

    def play(pert: Perturbation) -> float:
        w, d, l = runner.play(pert, names, spsa.pairs, spsa.done * spsa.pairs)
        record.update(w=w, d=d, l=l)
        return w - l

    try:
        while not spsa.finished:
            result = spsa.step(play)
            spsa.save(args.checkpoint)
            bar.add()
            print(f"[{spsa.done}/{spsa.iterations}] pairs {spsa.done * spsa.pairs}: "
                  f"{result:+g} (W {record['w']} D {record['d']} L {record['l']}) | "
                  f"theta {spsa.theta_text()} | {bar.rate_eta()}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted; {args.checkpoint} holds iteration {spsa.done} "
              f"(continue with --resume)", file=sys.stderr)
        status = 130
    except RunnerFailed as e:
        print(f"error: {e}; {args.checkpoint} holds iteration {spsa.done}", file=sys.stderr)
        status = 3 if e.status == 3 else 1
    report(spsa)
    return status


if __name__ == "__main__":
    sys.exit(main())
