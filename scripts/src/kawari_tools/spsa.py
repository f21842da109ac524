"""SPSA tuning of Kawari's search constants, as fishtest tunes Stockfish's.

The engine is a tune build (``cargo build --release --features tune``), which lists
the search's tunables (src/search/params.rs) as spin options named after their
constants, e.g. ``option name RFP_MARGIN type spin default 90 min 45 max 180``.
Every iteration perturbs the parameters θ by ±c_k·Δ (Δ_i = ±1 at random), plays
``--pairs`` game pairs (same opening, colours swapped) between engine(θ+c_k·Δ) and
engine(θ−c_k·Δ) with ``run_match`` (locally on ``--concurrency`` threads, or
with ``--cluster`` on a Ray cluster), and moves θ along the result:

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
    kawari-spsa --engine target/tune/release/kawari --variant shogi \\
        --params RFP_MARGIN,FUTILITY_MARGIN --iterations 2000 --tc 5+0.05 \\
        --concurrency 2 --checkpoint rfp.json

Exit status: 0 when the run is done, 1 if the engine cannot be used, 2 on bad
arguments, 3 if the match runner failed, 130 after Ctrl-C (the checkpoint holds
the last finished iteration).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import shlex
import subprocess
from dataclasses import asdict, dataclass
from typing import Callable, Optional

from kawari_tools.match import MatchConfig, Reporter, Runner, RunnerFailed, run_match
from kawari_tools.usi_client import EngineSpec

ALPHA = 0.602
GAMMA = 0.101
DEFAULT_A_RATIO = 0.1
DEFAULT_R_END = 0.002
# c_end by default: this share of the range (fishtest's usual advice), but at least 1:
# the engines get whole numbers, and a smaller perturbation may round to none at all
DEFAULT_C_END_SHARE = 1 / 20
MIN_DEFAULT_C_END = 1.0
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
    """Plays an iteration's pairs with ``run_match``: ``base`` is the match of the
    whole run (both engines the tune build with the options they share, every
    opening the run uses), ``runner`` local or Ray, ``reporter`` its messages."""

    def __init__(self, base: MatchConfig, runner: Runner, reporter: Optional[Reporter] = None):
        self.base = base
        self.runner = runner
        self.reporter = reporter

    def describe(self) -> str:
        c = self.base
        return (f"{c.variant.name}, {c.tc.describe()}, {len(c.openings)} openings "
                f"({c.openings_source})")

    def play(self, pert: Perturbation, names: list[str], pairs: int, first_pair: int) -> tuple:
        """``pairs`` pairs from opening ``first_pair`` on; (wins, draws, losses) of plus.
        RunnerFailed if the match fails."""
        base = self.base.engines[0]
        specs = [EngineSpec(base.argv, label,
                            list(base.options) + [(n, str(v)) for n, v in zip(names, values)])
                 for label, values in (("plus", pert.plus), ("minus", pert.minus))]
        config = dataclasses.replace(self.base, engines=specs, games=2 * pairs,
                                     first_opening=first_pair % len(self.base.openings))
        result = run_match(config, self.runner, self.reporter)
        if not result.ok:
            raise RunnerFailed(result)
        t = result.tally
        return t.wins, t.draws, t.losses
