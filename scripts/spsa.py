#!/usr/bin/env python3
"""SPSA tuning of Kawari's search constants, as fishtest tunes Stockfish's.

The engine is a tune build (``cargo build --release --features tune``), which lists
the search's tunables (src/search/params.rs) as spin options named after their
constants, e.g. ``option name RFP_MARGIN type spin default 90 min 45 max 180``.
Every iteration perturbs the parameters θ by ±c_k·Δ (Δ_i = ±1 at random), plays
``--pairs`` game pairs (same opening, colours swapped) between engine(θ+c_k·Δ) and
engine(θ−c_k·Δ) with match.py's own ``Match`` (so locally on ``--concurrency``
threads, or with ``--cluster`` on a Ray cluster), and moves θ along the result:

    θ_i += a_k / c_k · (wins − losses of θ+) · Δ_i      (then kept within [min, max])

with a_k = a / (A + k)^α and c_k = c / k^γ (α = 0.602, γ = 0.101), k counting game
pairs from 1.  As in fishtest each parameter is given by its start, min, max, c_end
(the perturbation at the end of the run) and r_end (a_end / c_end², the learning
rate at the end); then c = c_end·N^γ and a = r_end·c_end²·(A + N)^α, N the pairs of
the whole run and A = ``--A-ratio``·N.

The state (θ, the iteration and the random generator) is written to ``--checkpoint``
after every iteration; ``--resume`` continues a stopped run from it exactly as it
would have gone on.  At the end (and after Ctrl-C) θ is printed on stdout as
``setoption`` lines and as Rust constants to paste into src/search/params.rs.

Example::

    cargo build --release --features tune --target-dir target/tune
    python3 scripts/spsa.py --engine target/tune/release/kawari --variant shogi \\
        --params RFP_MARGIN,FUTILITY_MARGIN --iterations 2000 --tc 5+0.05 \\
        --concurrency 2 --checkpoint rfp.json

Exit status: 0 when the run is done, 1 if the engine cannot be used, 2 on bad
arguments, 3 if match.py's runner failed, 130 after Ctrl-C (the checkpoint holds
the last finished iteration).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Optional

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
if SCRIPTS_DIR not in sys.path:
    sys.path.insert(0, SCRIPTS_DIR)

import match  # noqa: E402
import progress  # noqa: E402

ALPHA = 0.602
GAMMA = 0.101
DEFAULT_A_RATIO = 0.1
DEFAULT_R_END = 0.002
# c_end by default: this share of the range (fishtest's usual advice), but at least 1:
# the engines get whole numbers, and a smaller perturbation may round to none at all
DEFAULT_C_END_SHARE = 1 / 20
MIN_DEFAULT_C_END = 1.0
DEFAULT_ENGINE = os.path.join(os.path.dirname(SCRIPTS_DIR), "target", "tune", "release",
                              "kawari")
CHECKPOINT_VERSION = 1
# A tune build's options are named after their constants: UPPER_SNAKE_CASE, which no
# ordinary option (USI_Hash, MultiPV, Threads, ...) is.
TUNE_NAME = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+")


# --------------------------------------------------------------------------- parameters

@dataclass
class Spin:
    """A spin option as the engine lists it."""

    name: str
    default: int
    min: int
    max: int


@dataclass
class Param:
    """One tuned parameter: fishtest's start, min, max, c_end, r_end, and theta now."""

    name: str
    start: float
    min: float
    max: float
    c_end: float
    r_end: float
    theta: float = math.nan

    def __post_init__(self):
        if not self.min < self.max:
            raise ValueError(f"{self.name}: min {self.min:g} must be below max {self.max:g}")
        if not self.min <= self.start <= self.max:
            raise ValueError(f"{self.name}: start {self.start:g} is outside "
                             f"[{self.min:g}, {self.max:g}]")
        if self.c_end <= 0 or self.r_end <= 0:
            raise ValueError(f"{self.name}: c_end and r_end must be positive")
        if math.isnan(self.theta):
            self.theta = float(self.start)

    def clamp(self, x: float) -> float:
        return min(max(x, self.min), self.max)


def engine_spins(argv: list[str], timeout: float = 20.0) -> dict[str, Spin]:
    """The spin options the engine lists after ``usi``, by name."""
    try:
        out = subprocess.run(argv, input="usi\nquit\n", capture_output=True, text=True,
                             timeout=timeout).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise EngineUnusable(f"cannot run {shlex.join(argv)}: {e}") from e
    if "usiok" not in out.split():
        raise EngineUnusable(f"{shlex.join(argv)} does not answer usi with usiok")
    spins = {}
    for line in out.splitlines():
        m = re.fullmatch(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)",
                         line.strip())
        if m:
            spins[m[1]] = Spin(m[1], int(m[2]), int(m[3]), int(m[4]))
    return spins


def tune_options(spins: dict[str, Spin]) -> list[Spin]:
    """The tune build's own options among the spins (UPPER_SNAKE_CASE names)."""
    return [s for s in spins.values() if TUNE_NAME.fullmatch(s.name)]


class EngineUnusable(Exception):
    """The engine does not run, or lists no tune options."""


def default_c_end(lo: float, hi: float) -> float:
    return max((hi - lo) * DEFAULT_C_END_SHARE, MIN_DEFAULT_C_END)


def default_param(spin: Spin) -> Param:
    return Param(spin.name, spin.default, spin.min, spin.max,
                 default_c_end(spin.min, spin.max), DEFAULT_R_END)


def parse_params_file(text: str, spins: dict[str, Spin]) -> list[Param]:
    """Lines ``NAME, start, min, max, c_end, r_end`` (fishtest's format); fields may be
    left off from the right: start, min and max then come from the engine's option,
    c_end is (max - min)/20 but at least 1, and r_end 0.002.  ``#`` starts a comment.
    The range must lie within the option's, which the engine enforces."""
    params: list[Param] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        try:
            name = fields[0]
            if name not in spins:
                raise ValueError(f"the engine has no spin option {name!r}")
            if any(p.name == name for p in params):
                raise ValueError(f"{name} is given twice")
            if len(fields) > 6:
                raise ValueError("expected NAME, start, min, max, c_end, r_end")
            spin = spins[name]
            values = [float(f) for f in fields[1:]]
            start, lo, hi = (values + [spin.default, spin.min, spin.max][len(values):])[:3]
            c_end = values[3] if len(values) > 3 else default_c_end(lo, hi)
            r_end = values[4] if len(values) > 4 else DEFAULT_R_END
            if lo < spin.min or hi > spin.max:
                raise ValueError(f"range [{lo:g}, {hi:g}] exceeds the engine's "
                                 f"[{spin.min}, {spin.max}]")
            params.append(Param(name, start, lo, hi, c_end, r_end))
        except ValueError as e:
            raise ValueError(f"line {number}: {e}") from e
    if not params:
        raise ValueError("no parameters")
    return params


def select_params(spins: dict[str, Spin], names: Optional[str],
                  params_file: Optional[str]) -> list[Param]:
    """The parameters to tune: from ``--params-file``, ``--params`` or all tune options."""
    if params_file:
        with open(params_file, encoding="utf-8") as f:
            try:
                return parse_params_file(f.read(), spins)
            except ValueError as e:
                raise ValueError(f"{params_file}: {e}") from e
    if names:
        chosen = [n.strip() for n in names.split(",") if n.strip()]
        unknown = [n for n in chosen if n not in spins]
        if unknown:
            raise ValueError(f"the engine has no spin option {', '.join(unknown)}")
        return [default_param(spins[n]) for n in dict.fromkeys(chosen)]
    found = tune_options(spins)
    if not found:
        raise EngineUnusable("the engine lists no tune options: build it with "
                             "`cargo build --release --features tune`")
    return [default_param(s) for s in found]


# --------------------------------------------------------------------------- SPSA

def engine_value(x: float) -> int:
    """The integer an engine option gets (nearest, halves up)."""
    return math.floor(x + 0.5)


@dataclass
class Schedule:
    """The gain sequences, over ``total`` game pairs."""

    total: int
    a_ratio: float = DEFAULT_A_RATIO
    alpha: float = ALPHA
    gamma: float = GAMMA

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.total

    def c(self, p: Param) -> float:
        return p.c_end * self.total ** self.gamma

    def a(self, p: Param) -> float:
        return p.r_end * p.c_end ** 2 * (self.big_a + self.total) ** self.alpha

    def c_k(self, p: Param, k: int) -> float:
        """Perturbation at pair ``k`` (1-based); c_end at the last."""
        return self.c(p) / k ** self.gamma

    def a_k(self, p: Param, k: int) -> float:
        """Step gain at pair ``k``; r_end*c_end^2 at the last."""
        return self.a(p) / (self.big_a + k) ** self.alpha


@dataclass
class Perturbation:
    """One iteration's engines: ``plus`` and ``minus`` as option values, and delta."""

    k: int
    delta: list[int]
    c_k: list[float]
    plus: list[int]
    minus: list[int]


class Spsa:
    """The tuner's state: parameters, schedule, iteration and the random generator.
    ``play(perturbation)`` must return wins - losses of the plus engine."""

    def __init__(self, params: list[Param], iterations: int, pairs: int = 1,
                 a_ratio: float = DEFAULT_A_RATIO, seed: int = 1):
        if iterations < 1 or pairs < 1:
            raise ValueError("--iterations and --pairs must be positive")
        self.params = params
        self.iterations = iterations
        self.pairs = pairs
        self.schedule = Schedule(iterations * pairs, a_ratio)
        self.seed = seed
        self.rng = random.Random(seed)
        self.done = 0               # iterations finished
        self.history: list[dict] = []

    @property
    def finished(self) -> bool:
        return self.done >= self.iterations

    def perturb(self) -> Perturbation:
        """The next iteration's engines (draws delta from the generator)."""
        k = self.done * self.pairs + 1
        delta = [self.rng.choice((-1, 1)) for _ in self.params]
        c_k = [self.schedule.c_k(p, k) for p in self.params]
        plus = [engine_value(p.clamp(p.theta + c * d)) for p, c, d in zip(self.params, c_k, delta)]
        minus = [engine_value(p.clamp(p.theta - c * d)) for p, c, d in zip(self.params, c_k, delta)]
        return Perturbation(k, delta, c_k, plus, minus)

    def update(self, pert: Perturbation, result: float) -> None:
        """theta after the plus engine scored ``result`` (wins - losses) against minus."""
        for p, c, d in zip(self.params, pert.c_k, pert.delta):
            step = self.schedule.a_k(p, pert.k) / c * result * d
            p.theta = p.clamp(p.theta + step)
        self.done += 1
        self.history.append({"iteration": self.done, "plus": pert.plus,
                             "minus": pert.minus, "result": result,
                             "theta": [p.theta for p in self.params]})

    def step(self, play: Callable[[Perturbation], float]) -> float:
        pert = self.perturb()
        result = play(pert)
        self.update(pert, result)
        return result

    # -- checkpoints -----------------------------------------------------------
    def state(self) -> dict:
        version, internal, gauss = self.rng.getstate()
        return {"version": CHECKPOINT_VERSION, "iterations": self.iterations,
                "pairs": self.pairs, "a_ratio": self.schedule.a_ratio, "seed": self.seed,
                "done": self.done, "params": [asdict(p) for p in self.params],
                "rng": [version, list(internal), gauss], "history": self.history}

    @classmethod
    def from_state(cls, d: dict) -> "Spsa":
        if d.get("version") != CHECKPOINT_VERSION:
            raise ValueError(f"checkpoint version {d.get('version')!r} is not "
                             f"{CHECKPOINT_VERSION}")
        s = cls([Param(**p) for p in d["params"]], d["iterations"], d["pairs"],
                d["a_ratio"], d["seed"])
        version, internal, gauss = d["rng"]
        s.rng.setstate((version, tuple(internal), gauss))
        s.done = d["done"]
        s.history = d["history"]
        return s

    def save(self, path: str) -> None:
        """Write the state to ``path`` atomically (a crash leaves the old one)."""
        tmp = f"{path}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.state(), f)
            f.write("\n")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str) -> "Spsa":
        with open(path, encoding="utf-8") as f:
            return cls.from_state(json.load(f))

    # -- output ----------------------------------------------------------------
    def theta_text(self) -> str:
        return " ".join(f"{p.name}={p.theta:.2f}" for p in self.params)

    def setoption_lines(self) -> list[str]:
        return [f"setoption name {p.name} value {engine_value(p.theta)}" for p in self.params]

    def rust_lines(self) -> list[str]:
        return [f"pub const {p.name}: i32 = {engine_value(p.theta)};" for p in self.params]


# --------------------------------------------------------------------------- games

class GameRunner:
    """Plays an iteration's pairs with match.py's ``Match`` (locally or on a cluster)."""

    def __init__(self, args: argparse.Namespace, engine_argv: list[str], total_pairs: int):
        argv = ["--variant", args.variant, "--engine", shlex.join(engine_argv),
                "--engine", shlex.join(engine_argv), "--games", str(2 * total_pairs),
                "--quiet", "--concurrency", str(args.concurrency),
                "--max-plies", str(args.max_plies), "--margin", str(args.margin),
                "--hang-timeout", str(args.hang_timeout), "--seed", str(args.seed),
                "--variant-path", args.variant_path]
        argv += match.forwarded(args, ("tc", "byoyomi", "movetime", "nodes", "depth",
                                       "openings", "random_plies", "start_sfen", "cluster",
                                       "records", "debug"))
        self.args = match.build_parser().parse_args(argv)
        # every opening the whole run uses (random ones: one per pair of the run)
        self.specs, self.variant, self.tc, self.openings, _ = match.setup(self.args)

    def describe(self) -> str:
        return (f"{self.variant.name}, {self.tc.describe()}, {len(self.openings)} openings "
                f"({self.args.openings_source})")

    def play(self, pert: Perturbation, names: list[str], pairs: int, first_pair: int) -> tuple:
        """``pairs`` pairs from opening ``first_pair`` on; (wins, draws, losses) of plus."""
        args = copy.copy(self.args)
        args.games = 2 * pairs
        at = first_pair % len(self.openings)
        openings = self.openings[at:] + self.openings[:at]
        base = self.specs[0]
        specs = [match.EngineSpec(base.argv, label,
                              list(base.options) + [(n, str(v)) for n, v in zip(names, values)])
                 for label, values in (("plus", pert.plus), ("minus", pert.minus))]
        run = match.QuietMatch(args, specs, self.variant, self.tc, openings, None)
        status = run.run()
        if status != 0:
            raise match.RunnerFailed(status)
        t = run.tally
        return t.wins, t.draws, t.losses


# --------------------------------------------------------------------------- CLI

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="spsa.py",
        description="Tune Kawari's search constants by SPSA: games between the tune "
                    "build at theta+c*delta and at theta-c*delta, played with match.py, "
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
  python3 scripts/spsa.py --variant shogi --params RFP_MARGIN,RFP_DEPTH \\
      --iterations 5000 --tc 5+0.05 --concurrency 2 --checkpoint rfp.json
  python3 scripts/spsa.py --resume --checkpoint rfp.json --variant shogi --tc 5+0.05
  python3 scripts/spsa.py --variant judkins --params-file params.txt --iterations 200 \\
      --pairs 8 --nodes 20000 --cluster auto
""",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_argument_group("tuning")
    g.add_argument("--engine", default=DEFAULT_ENGINE, metavar="CMD",
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
    m = p.add_argument_group("games (as match.py)")
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
                   help="play each iteration's pairs on a Ray cluster (match.py --cluster); "
                        "each iteration joins it anew, so give a running cluster's "
                        "address and many --pairs")
    m.add_argument("--max-plies", type=int, default=512, metavar="N",
                   help="move cap (default: %(default)s)")
    m.add_argument("--margin", type=float, default=200, metavar="MS",
                   help="time an engine may overstep (default: %(default)s)")
    m.add_argument("--hang-timeout", type=float, default=60.0, metavar="S",
                   help="seconds without a bestmove under --nodes/--depth (default: %(default)s)")
    m.add_argument("--variant-path", metavar="INI",
                   default=os.path.join(SCRIPTS_DIR, "heian.ini"),
                   help="Heian definition (default: scripts/heian.ini)")
    m.add_argument("--records", metavar="FILE", help="append every game's record to FILE")
    m.add_argument("--debug", metavar="FILE", help="log all engine traffic to FILE")
    return p


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
        runner = GameRunner(args, engine_argv, spsa.iterations * spsa.pairs)
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
    try:
        while not spsa.finished:
            record = {}

            def play(pert: Perturbation) -> float:
                w, d, l = runner.play(pert, names, spsa.pairs, spsa.done * spsa.pairs)
                record.update(w=w, d=d, l=l)
                return w - l

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
    except match.RunnerFailed as e:
        print(f"error: {e}; {args.checkpoint} holds iteration {spsa.done}", file=sys.stderr)
        status = 3 if e.status == 3 else 1
    report(spsa)
    return status


if __name__ == "__main__":
    sys.exit(main())
