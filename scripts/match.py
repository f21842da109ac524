#!/usr/bin/env python3
"""Play a match between two USI engines in one of Kawari's seven shogi variants.

Every move is refereed independently of the engines (see referee.py: legality by
pyffish plus the project's own rules for pawn-drop mate, repetition and perpetual
check, Heian's bare king, impasse and the 27-point declaration).  Games are played in
pairs from the same opening with colours swapped, optionally several at a time
(``--concurrency``), optionally under an SPRT that stops the match as soon as it decides.
The openings are by default the variant's balanced suite, ``openings/<variant>.txt``
(scripts/openings.py), in order; ``--openings FILE`` or ``--random-plies K`` choose others.

Example::

    python3 scripts/match.py --variant judkins \\
        --engine target/release/kawari --engine "/path/fairy-stockfish" \\
        --name kawari --name fsf --games 20 --tc 10+0.1 --records games.jsonl

The summary on stdout ends with two lines in cutechess-cli's format::

    Score of A vs B: W - L - D  [0.550] N
    Elo difference: 34.9 +/- 120.5

Before them it gives each engine's think time per move (mean and median) and, with
a clock, the time it had left at the end of its games (main time plus increments
earned, less the time used), as the time-use figures of a match.

Game records are JSON lines (start SFEN, USI moves, result, reason, and per engine
move its time and last reported score); ``--csa-dir``
also writes CSA files for 9x9 games with standard pieces (shogi, heian).

Engine handling: the first command sent is ``usi``; ``VariantPath`` (the Heian
definition, for Heian variants) is set only if the engine lists that option, and the
variant is selected through ``USI_Variant`` (or else ``UCI_Variant``) only if the engine
lists it.  Positions are always sent as ``position sfen <start> moves ...``.

With ``--cluster ADDRESS`` the pairs of games run as tasks on a Ray cluster
(cluster_match.py); the output is that of a local run.

Exit status: 0 after a match, 1 if an engine cannot be started (or the cluster not
joined), 2 on bad arguments, 3 if the runner itself failed during the match (a bug;
the summary is still printed), 4 if the Ray cluster went away during the match (the
summary of the games finished is printed).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import random
import shlex
import statistics
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Optional

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
if SCRIPTS_DIR not in sys.path:
    sys.path.insert(0, SCRIPTS_DIR)

import elo_stats  # noqa: E402
import progress  # noqa: E402
import referee  # noqa: E402
from referee import BLACK, WHITE, Outcome, Referee, opponent  # noqa: E402
from usi_client import (Aborted, EngineError, EngineSpec, IoLog,  # noqa: E402
                        UsiEngine, score_text)

DEFAULT_MAX_PLIES = 512
DEFAULT_MARGIN_MS = 200
DEFAULT_HANG_TIMEOUT_S = 60.0
DEFAULT_STARTUP_TIMEOUT_S = 20.0
DEFAULT_RANDOM_PLIES = 4
# The balanced opening suites (scripts/openings.py), one per variant: the default
# openings, so that every match and SPRT starts from positions a search calls even.
OPENINGS_DIR = os.path.join(os.path.dirname(SCRIPTS_DIR), "openings")

# Reasons that are charged to the loser in the summary's fault counts.
FAULTS = {"illegal move": "illegal", "false declaration": "illegal",
          "time forfeit": "time", "crash": "crash", "stalled": "stalled"}


# --------------------------------------------------------------------------- time control

@dataclass
class TimeControl:
    """One of: ``fischer`` (base + increment, sudden death when the increment is 0),
    ``byoyomi`` (main time + byoyomi), ``movetime``, ``nodes``, ``depth``."""

    kind: str
    base_ms: int = 0
    inc_ms: int = 0
    byoyomi_ms: int = 0
    movetime_ms: int = 0
    nodes: int = 0
    depth: int = 0

    @staticmethod
    def _seconds(text: str) -> float:
        if ":" in text:
            m, s = text.split(":", 1)
            return float(m) * 60 + float(s)
        return float(text)

    @classmethod
    def fischer(cls, text: str) -> "TimeControl":
        """``BASE[+INC]`` in seconds, e.g. ``10+0.1``, ``60`` or ``1:30+1``."""
        base, _, inc = text.partition("+")
        tc = cls("fischer", base_ms=round(cls._seconds(base) * 1000),
                 inc_ms=round(float(inc or 0) * 1000))
        if tc.base_ms <= 0 and tc.inc_ms <= 0:
            raise ValueError("time control needs a positive base or increment")
        return tc

    @classmethod
    def byoyomi(cls, text: str) -> "TimeControl":
        """``MAIN+BYOYOMI`` in seconds, e.g. ``10+1``; a single number is the byoyomi."""
        main, sep, byo = text.partition("+")
        if not sep:
            main, byo = "0", main
        tc = cls("byoyomi", base_ms=round(cls._seconds(main) * 1000),
                 byoyomi_ms=round(float(byo) * 1000))
        if tc.byoyomi_ms <= 0 and tc.base_ms <= 0:
            raise ValueError("byoyomi needs a positive main time or byoyomi")
        return tc

    def describe(self) -> str:
        if self.kind == "fischer":
            return f"{self.base_ms / 1000:g}+{self.inc_ms / 1000:g}" if self.inc_ms \
                else f"{self.base_ms / 1000:g} s sudden death"
        if self.kind == "byoyomi":
            return f"{self.base_ms / 1000:g} s + byoyomi {self.byoyomi_ms / 1000:g} s"
        if self.kind == "movetime":
            return f"movetime {self.movetime_ms} ms"
        if self.kind == "nodes":
            return f"nodes {self.nodes}"
        return f"depth {self.depth}"

    def go(self, clocks: dict[str, float], side: str) -> tuple[str, Optional[float]]:
        """The ``go`` command for ``side`` and the time it may use (ms, None = untimed)."""
        b, w = max(0, int(clocks[BLACK])), max(0, int(clocks[WHITE]))
        if self.kind == "fischer":
            cmd = f"go btime {b} wtime {w}"
            if self.inc_ms:
                cmd += f" binc {self.inc_ms} winc {self.inc_ms}"
            return cmd, clocks[side]
        if self.kind == "byoyomi":
            return f"go btime {b} wtime {w} byoyomi {self.byoyomi_ms}", \
                clocks[side] + self.byoyomi_ms
        if self.kind == "movetime":
            return f"go movetime {self.movetime_ms}", float(self.movetime_ms)
        if self.kind == "nodes":
            return f"go nodes {self.nodes}", None
        return f"go depth {self.depth}", None

    def spend(self, clocks: dict[str, float], side: str, elapsed_ms: float) -> None:
        """Charge a move's time to the clock of ``side``."""
        if self.kind == "fischer":
            clocks[side] = clocks[side] - elapsed_ms + self.inc_ms
        elif self.kind == "byoyomi":
            clocks[side] = max(0.0, clocks[side] - elapsed_ms)

    def initial_clocks(self) -> dict[str, float]:
        return {BLACK: float(self.base_ms), WHITE: float(self.base_ms)}


# --------------------------------------------------------------------------- engine I/O

class Engine(UsiEngine):
    """A USI engine as the match runner configures it: variant, then ``--option``s."""

    def __init__(self, spec: EngineSpec, label: str, log: IoLog,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT_S):
        super().__init__(spec, label, log, startup_timeout)

    def configure(self, variant: referee.Variant, variant_path: str,
                  warn: Callable[[str], None]) -> None:
        """Send VariantPath/USI_Variant where the engine lists them, then the options."""
        if not self.select_variant(variant.name, variant_path if variant.needs_ini else None):
            if variant.name != "shogi":
                warn(f"{self.name} lists no USI_Variant/UCI_Variant option; "
                     f"assuming it plays {variant.name}")
        for name, value in self.spec.options:
            if name not in self.options:
                warn(f"{self.name} does not list the option {name}; sending it anyway")
            self.set_option(name, value)
        self.isready()


# --------------------------------------------------------------------------- openings

@dataclass
class Opening:
    """A start position and the opening moves played from it."""

    sfen: str
    moves: list[str]


def parse_opening_line(line: str, variant: referee.Variant, base_sfen: str) -> Opening:
    """One line of an openings file: an SFEN (``sfen`` prefix optional), ``startpos``
    or a bare list of USI moves from ``base_sfen``; each optionally followed by
    ``moves m1 m2 ...``.  A leading ``position`` is ignored."""
    tokens = line.split()
    if tokens and tokens[0] == "position":
        tokens = tokens[1:]
    if not tokens:
        raise ValueError("empty opening")
    if tokens[0] == "startpos":
        sfen, rest = variant.start_sfen, tokens[1:]
    elif tokens[0] == "sfen" or "/" in tokens[0]:
        if tokens[0] == "sfen":
            tokens = tokens[1:]
        end = tokens.index("moves") if "moves" in tokens else len(tokens)
        sfen, rest = " ".join(tokens[:end]), tokens[end:]
    else:
        sfen, rest = base_sfen, tokens
    if rest and rest[0] == "moves":
        rest = rest[1:]
    ref = Referee(variant, sfen, rest)            # raises on a bad SFEN or move
    if ref.outcome() is not None:
        raise ValueError(f"the opening has already ended: {ref.outcome().reason}")
    return Opening(ref.start_sfen, list(rest))


def load_openings(path: str, variant: referee.Variant, base_sfen: str) -> list[Opening]:
    openings = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                openings.append(parse_opening_line(line, variant, base_sfen))
            except ValueError as e:
                raise ValueError(f"{path}:{number}: {e}") from e
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def default_openings_path(variant: str) -> str:
    """The repository's balanced suite of ``variant``: ``openings/<variant>.txt``."""
    return os.path.join(OPENINGS_DIR, f"{variant}.txt")


def random_openings(variant: referee.Variant, base_sfen: str, plies: int, count: int,
                    seed: int) -> list[Opening]:
    """``count`` openings of ``plies`` uniformly random legal moves (seeded), none of
    which ends the game; opening ``k`` depends only on the seed and ``k``."""
    start = Referee(variant, base_sfen).start_sfen
    openings = []
    for k in range(count):
        rng = random.Random(f"{seed}:{k}")
        for _attempt in range(1000):
            ref = Referee(variant, start)
            while ref.ply < plies and ref.outcome() is None:
                ref.push(rng.choice(ref.legal_moves()))
            if ref.outcome() is None:
                openings.append(Opening(start, list(ref.moves)))
                break
        else:
            raise ValueError(f"cannot find a {plies}-ply random opening that does not end the game")
    return openings


# --------------------------------------------------------------------------- games

@dataclass
class GameJob:
    index: int          # 0-based game number
    opening_index: int
    opening: Opening
    first_black: bool   # engine 1 plays Black


@dataclass
class GameRecord:
    job: GameJob
    outcome: Outcome
    moves: list[str]
    end_sfen: str
    names: dict[str, str]            # side -> engine name
    times_ms: list[int]
    infos: list[str]
    fens: list[str]
    started: str

    def to_wire(self) -> dict:
        """Plain data for a cluster task's answer (the job is known to the driver)."""
        o = self.outcome
        return {"index": self.job.index, "winner": o.winner, "reason": o.reason,
                "detail": o.detail, "moves": self.moves, "end_sfen": self.end_sfen,
                "names": self.names, "times_ms": self.times_ms, "infos": self.infos,
                "fens": self.fens, "started": self.started}

    @classmethod
    def from_wire(cls, job: "GameJob", d: dict) -> "GameRecord":
        return cls(job, Outcome(d["winner"], d["reason"], d["detail"]), d["moves"],
                   d["end_sfen"], d["names"], d["times_ms"], d["infos"], d["fens"],
                   d["started"])

    def time_use(self, tc: "TimeControl") -> list[tuple[list[int], Optional[int]]]:
        """Per engine (1, 2): its think time of each move, and its clock left at the
        game's end as the referee kept it (``TimeControl.spend``; None without a clock)."""
        side = self.job.opening.sfen.split()[1]     # the referee's SFEN names the side
        if len(self.job.opening.moves) % 2:
            side = opponent(side)
        first_side = BLACK if self.job.first_black else WHITE
        think: list[list[int]] = [[], []]
        clocks = tc.initial_clocks()
        for ms in self.times_ms:
            think[0 if side == first_side else 1].append(ms)
            tc.spend(clocks, side, ms)
            side = opponent(side)
        timed = tc.kind in ("fischer", "byoyomi")
        other_side = opponent(first_side)
        return [(think[0], round(clocks[first_side]) if timed else None),
                (think[1], round(clocks[other_side]) if timed else None)]

    def score_first(self) -> float:
        """Score of engine 1 in this game."""
        first_side = BLACK if self.job.first_black else WHITE
        if self.outcome.winner is None:
            return 0.5
        return 1.0 if self.outcome.winner == first_side else 0.0

    def to_json(self, variant: str, tc: str) -> dict:
        return {
            "game": self.job.index + 1,
            "variant": variant,
            "black": self.names[BLACK],
            "white": self.names[WHITE],
            "engine1": "black" if self.job.first_black else "white",
            "opening": self.job.opening_index + 1,
            "start_sfen": self.job.opening.sfen,
            "opening_plies": len(self.job.opening.moves),
            "moves": self.moves,
            "result": self.outcome.result_string(),
            "winner": {BLACK: "black", WHITE: "white", None: None}[self.outcome.winner],
            "reason": self.outcome.reason,
            "detail": self.outcome.detail,
            "plies": len(self.moves),
            "end_sfen": self.end_sfen,
            "time_control": tc,
            "times_ms": self.times_ms,
            "scores": [score_text(i) for i in self.infos],
            "started": self.started,
        }


class GamePlayer:
    """Plays single games between two running engines, refereeing every move."""

    def __init__(self, variant: referee.Variant, tc: TimeControl, max_plies: int,
                 margin_ms: float, hang_timeout: float, stop: threading.Event,
                 crosscheck: bool = False):
        self.crosscheck = crosscheck
        self.variant = variant
        self.tc = tc
        self.max_plies = max_plies
        self.margin_ms = margin_ms
        self.hang_timeout = hang_timeout
        self.stop = stop

    def play(self, job: GameJob, first: Engine, second: Engine,
             prepare: Callable[[Engine], None]) -> GameRecord:
        """Play one game; ``prepare`` (re)starts an engine that is not running."""
        engines = {BLACK: first, WHITE: second} if job.first_black \
            else {BLACK: second, WHITE: first}
        names = {s: e.name for s, e in engines.items()}
        started = _dt.datetime.now().isoformat(timespec="seconds")
        ref = Referee(self.variant, job.opening.sfen, job.opening.moves,
                      crosscheck=self.crosscheck)
        times: list[int] = []
        infos: list[str] = []

        def record(outcome: Outcome) -> GameRecord:
            for side, eng in engines.items():
                won = outcome.winner == side
                eng.game_over("draw" if outcome.winner is None else ("win" if won else "lose"))
            return GameRecord(job, outcome, list(ref.moves), ref.sfen, names, times, infos,
                              list(ref.fens), started)

        for side in (BLACK, WHITE):
            eng = engines[side]
            try:
                if not eng.healthy:
                    prepare(eng)
                eng.new_game()
            except EngineError as e:
                eng.kill()
                # an engine answering garbage is scored as broken, like a crash
                kind = "stalled" if e.kind == "stalled" else "crash"
                return record(Outcome(opponent(side), kind, str(e)))

        clocks = self.tc.initial_clocks()
        while True:
            if self.stop.is_set():
                raise Aborted()
            outcome = ref.outcome()
            if outcome is not None:
                return record(outcome)
            if ref.ply >= self.max_plies:
                return record(ref.adjudicate_move_cap())
            side = ref.side
            eng = engines[side]
            position = f"position sfen {ref.start_sfen}"
            if ref.moves:
                position += " moves " + " ".join(ref.moves)
            go, allowed = self.tc.go(clocks, side)
            limit_ms = allowed + self.margin_ms if allowed is not None else None
            timeout_s = limit_ms / 1000.0 if limit_ms is not None else self.hang_timeout
            try:
                reply = eng.go(position, go, max(timeout_s, 0.001), self.stop.is_set)
            except Aborted:
                eng.stop_and_drain()
                raise
            except EngineError as e:
                if e.kind == "stalled":
                    eng.stop_and_drain()
                    if limit_ms is not None:
                        return record(Outcome(opponent(side), "time forfeit",
                                              f"{eng.name} exceeded {allowed:.0f} ms "
                                              f"(+{self.margin_ms:.0f} ms margin) without a move"))
                    return record(Outcome(opponent(side), "stalled",
                                          f"{eng.name} sent no bestmove within "
                                          f"{self.hang_timeout:g} s"))
                eng.kill()
                return record(Outcome(opponent(side), "crash", str(e)))
            if limit_ms is not None and reply.elapsed_ms > limit_ms:
                return record(Outcome(opponent(side), "time forfeit",
                                      f"{eng.name} used {reply.elapsed_ms:.0f} ms of "
                                      f"{allowed:.0f} ms (+{self.margin_ms:.0f} ms margin)"))
            move = reply.move
            if move == "resign":
                return record(Outcome(opponent(side), "resign", f"{eng.name} resigns"))
            if move == "win":
                ok, why = ref.declaration()
                if ok:
                    return record(Outcome(side, "declaration", f"{eng.name} declares a win: {why}"))
                return record(Outcome(opponent(side), "false declaration",
                                      f"{eng.name} declared a win wrongly: {why}"))
            why = ref.check_move(move)
            if why is not None:
                return record(Outcome(opponent(side), "illegal move",
                                      f"{eng.name} played {move or '(nothing)'}: {why}"))
            ref.push(move)
            self.tc.spend(clocks, side, reply.elapsed_ms)
            times.append(round(reply.elapsed_ms))
            infos.append(reply.info)


# --------------------------------------------------------------------------- CSA

_CSA = {"P": "FU", "L": "KY", "N": "KE", "S": "GI", "G": "KI", "B": "KA", "R": "HI",
        "K": "OU", "+P": "TO", "+L": "NY", "+N": "NK", "+S": "NG", "+B": "UM", "+R": "RY"}
_CSA_END = {"checkmate": "%TSUMI", "resign": "%TORYO", "repetition": "%SENNICHITE",
            "perpetual check": "%OUTE_SENNICHITE", "illegal move": "%ILLEGAL_MOVE",
            "false declaration": "%ILLEGAL_MOVE", "time forfeit": "%TIME_UP",
            "declaration": "%KACHI", "impasse": "%JISHOGI", "move cap": "%HIKIWAKE"}


def csa_record(rec: GameRecord, variant: referee.Variant) -> str:
    """A CSA (V2.2) record of a 9x9 game with standard pieces."""
    v = variant
    out = ["V2.2", f"N+{rec.names[BLACK]}", f"N-{rec.names[WHITE]}",
           f"$START_TIME:{rec.started.replace('-', '/').replace('T', ' ')}",
           f"'variant {v.name}"]
    start = referee.Board.from_sfen(rec.job.opening.sfen, v)
    for r, cells in enumerate(start.grid):
        row = ""
        for p in cells:
            if p is None:
                row += " * "
            else:
                row += ("+" if start.owner(p) == BLACK else "-") + _CSA[_csa_key(p)]
        out.append(f"P{r + 1}{row}")
    for side, sign in ((BLACK, "+"), (WHITE, "-")):
        hand = "".join(f"00{_CSA[p]}" * n for p, n in start.hands[side].items())
        if hand:
            out.append(f"P{sign}{hand}")
    out.append("+" if start.side == BLACK else "-")
    opening = len(rec.job.opening.moves)
    for i, move in enumerate(rec.moves):
        board = referee.Board.from_fen(rec.fens[i], v)
        sign = "+" if board.side == BLACK else "-"
        if "*" in move:
            piece, to = move[0], move[2:]
            frm = "00"
        else:
            frm_sq, to = move[:2], move[2:4]
            row, col = ord(frm_sq[1]) - ord("a"), v.files - int(frm_sq[0])
            piece = _csa_key(board.grid[row][col])
            if move.endswith("+"):
                piece = "+" + piece
            frm = f"{frm_sq[0]}{row + 1}"
        out.append(f"{sign}{frm}{to[0]}{ord(to[1]) - ord('a') + 1}{_CSA[piece]}")
        if i >= opening and i - opening < len(rec.times_ms):
            out.append(f"T{rec.times_ms[i - opening] // 1000}")
    out.append(_CSA_END.get(rec.outcome.reason, "%CHUDAN"))
    out.append(f"'{rec.outcome.result_string()} {rec.outcome.reason}: {rec.outcome.detail}")
    return "\n".join(out) + "\n"


def _csa_key(piece: str) -> str:
    return ("+" if piece.startswith("+") else "") + piece.lstrip("+").upper()


# --------------------------------------------------------------------------- match

@dataclass
class Tally:
    """Results from engine 1's point of view, plus per-engine fault counts."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    faults: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    reasons: dict[str, int] = field(default_factory=dict)
    by_colour: dict[str, list[int]] = field(
        default_factory=lambda: {"black": [0, 0, 0], "white": [0, 0, 0]})
    # per engine: each move's think time, and the clock left at each game's end
    think_ms: list[list[int]] = field(default_factory=lambda: [[], []])
    left_ms: list[list[int]] = field(default_factory=lambda: [[], []])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


class Match:
    """Runs the games of a match on ``concurrency`` worker threads (or, with
    ``--cluster``, as tasks of a Ray cluster: cluster_match.py)."""

    # for cluster_match, which must use the classes of the running match.py
    engine_class = Engine
    record_class = GameRecord

    def __init__(self, args: argparse.Namespace, specs: list[EngineSpec],
                 variant: referee.Variant, tc: TimeControl, openings: list[Opening],
                 sprt: Optional[elo_stats.Sprt]):
        self.args = args
        self.specs = specs
        self.variant = variant
        self.tc = tc
        self.openings = openings
        self.sprt = sprt
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.tally = Tally()
        self.scores: dict[int, float] = {}
        self.sprt_result: Optional[str] = None
        self.llr = 0.0
        self.log = IoLog(args.debug)
        self.records = open(args.records, "a", encoding="utf-8") if args.records else None
        self.names = ["", ""]
        self.next_job = 0
        self.warned: set[str] = set()
        self.failed = False
        self.player = GamePlayer(variant, tc, args.max_plies, args.margin,
                                 args.hang_timeout, self.stop, args.crosscheck)
        # pair k plays the openings' (first + k)-th, wrapping round (--first-opening)
        first = (getattr(args, "first_opening", None) or 1) - 1
        at = [(first + i // 2) % len(openings) for i in range(args.games)]
        self.jobs = [GameJob(i, at[i], openings[at[i]], first_black=(i % 2 == 0))
                     for i in range(args.games)]
        self.progress = progress.Progress(len(self.jobs))

    # -- helpers ---------------------------------------------------------------
    def warn(self, message: str) -> None:
        with self.lock:
            if message not in self.warned:
                self.warned.add(message)
                print(f"warning: {message}", file=sys.stderr, flush=True)

    def prepare(self, engine: Engine) -> None:
        engine.start()
        engine.configure(self.variant, self.args.variant_path, self.warn)

    def make_engines(self, worker: int) -> list[Engine]:
        engines = [Engine(spec, f"{worker}:{n + 1}", self.log, self.args.startup_timeout)
                   for n, spec in enumerate(self.specs)]
        return engines

    # -- running ---------------------------------------------------------------
    def run(self) -> int:
        if self.args.cluster:
            import cluster_match            # imports Ray: only with --cluster
            return cluster_match.run(self)
        workers = max(1, min(self.args.concurrency, len(self.jobs)))
        pairs = [self.make_engines(w + 1) for w in range(workers)]
        try:
            for pair in pairs:
                for eng in pair:
                    self.prepare(eng)
        except EngineError as e:
            print(f"error: {e}", file=sys.stderr)
            for pair in pairs:
                for eng in pair:
                    eng.kill()
            return 1
        self.names = [pairs[0][0].name, pairs[0][1].name]
        self.print_header()
        threads = [threading.Thread(target=self.worker, args=(pair,), daemon=True)
                   for pair in pairs]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.2)
        except KeyboardInterrupt:
            print("\ninterrupted; stopping the running games", file=sys.stderr)
            self.stop.set()
            for t in threads:
                t.join(10)
        for pair in pairs:
            for eng in pair:
                eng.quit()
        if self.records:
            self.records.close()
        self.print_summary()
        return 3 if self.failed else 0

    def worker(self, pair: list[Engine]) -> None:
        while not self.stop.is_set():
            with self.lock:
                if self.next_job >= len(self.jobs):
                    return
                job = self.jobs[self.next_job]
                self.next_job += 1
            try:
                rec = self.player.play(job, pair[0], pair[1], self.prepare)
            except Aborted:
                return
            except Exception as e:          # a bug must not hang the match
                self.failed = True
                self.stop.set()
                print(f"error in game {job.index + 1}: {e!r}", file=sys.stderr, flush=True)
                raise
            self.finish(rec)

    def finish(self, rec: GameRecord) -> None:
        with self.lock:
            if self.sprt_result is not None:
                return                      # decided meanwhile; do not count
            if rec.job.index in self.scores:
                return                      # a game reported twice counts once
            self.progress.add()
            t = self.tally
            s = rec.score_first()
            colour = "black" if rec.job.first_black else "white"
            k = 0 if s == 1.0 else (1 if s == 0.5 else 2)
            t.by_colour[colour][k] += 1
            if s == 1.0:
                t.wins += 1
            elif s == 0.5:
                t.draws += 1
            else:
                t.losses += 1
            reason = rec.outcome.reason
            t.reasons[reason] = t.reasons.get(reason, 0) + 1
            if rec.outcome.winner is not None and reason in FAULTS:
                loser_side = opponent(rec.outcome.winner)
                loser = 0 if (loser_side == BLACK) == rec.job.first_black else 1
                kind = FAULTS[reason]
                t.faults[loser][kind] = t.faults[loser].get(kind, 0) + 1
            for n, (own, left) in enumerate(rec.time_use(self.tc)):
                t.think_ms[n].extend(own)
                if left is not None:
                    t.left_ms[n].append(left)
            self.scores[rec.job.index] = s
            partner = rec.job.index ^ 1
            if partner in self.scores:
                t.pentanomial[elo_stats.pair_category(s, self.scores[partner])] += 1
            if self.records:
                self.records.write(json.dumps(rec.to_json(self.variant.name,
                                                          self.tc.describe())) + "\n")
                self.records.flush()
            if self.args.csa_dir and self.variant.files == 9 and self.variant.ranks == 9:
                os.makedirs(self.args.csa_dir, exist_ok=True)
                path = os.path.join(self.args.csa_dir, f"game{rec.job.index + 1:04d}.csa")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(csa_record(rec, self.variant))
            self.update_sprt(pair_done=partner in self.scores)
            if not self.args.quiet:
                self.print_progress(rec)

    def update_sprt(self, pair_done: bool) -> None:
        if self.sprt is None:
            return
        t = self.tally
        if self.args.sprt_model == "pentanomial":
            if not pair_done:
                return
            self.llr = self.sprt.llr_pentanomial(t.pentanomial)
        else:
            self.llr = self.sprt.llr_trinomial(t.wins, t.draws, t.losses)
        decision = self.sprt.decide(self.llr)
        if decision is not None:
            self.sprt_result = decision
            self.stop.set()

    # -- output ----------------------------------------------------------------
    def print_header(self, where: str = "") -> None:
        if self.args.quiet:
            return
        where = where or f"concurrency {self.args.concurrency}"
        print(f"Match {self.names[0]} vs {self.names[1]}: {self.variant.name}, "
              f"{len(self.jobs)} games, {self.tc.describe()}, "
              f"{len(self.openings)} openings "
              f"({getattr(self.args, 'openings_source', 'given')}), {where}",
              file=sys.stderr, flush=True)

    def print_progress(self, rec: GameRecord) -> None:
        t = self.tally
        elo, margin = elo_stats.elo_trinomial(t.wins, t.draws, t.losses)
        line = (f"[{t.games}/{len(self.jobs)}] game {rec.job.index + 1} "
                f"{rec.names[BLACK]} (black) vs {rec.names[WHITE]}: "
                f"{rec.outcome.result_string()} {rec.outcome.reason} | "
                f"W {t.wins} D {t.draws} L {t.losses} score {t.score():.3f} "
                f"Elo {elo_stats.format_elo(elo, margin)}")
        if self.sprt is not None:
            line += f" LLR {self.llr:.2f} [{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]"
        print(f"{line} | {self.progress.rate_eta()}", file=sys.stderr, flush=True)

    def print_summary(self) -> None:
        t = self.tally
        a, b = self.names
        elo, margin = elo_stats.elo_trinomial(t.wins, t.draws, t.losses)
        lines = [f"Finished {t.games} of {len(self.jobs)} games: {self.variant.name}, "
                 f"{self.tc.describe()}"]
        for colour in ("black", "white"):
            w, d, l = t.by_colour[colour]
            lines.append(f"  {a} as {colour}: W {w} D {d} L {l}")
        if t.reasons:
            lines.append("Game ends: " + ", ".join(f"{r} {n}" for r, n in sorted(t.reasons.items())))
        for kind, label in (("illegal", "Illegal moves"), ("time", "Time losses"),
                            ("crash", "Crashes"), ("stalled", "Stalls (no reply)")):
            lines.append(f"{label}: {a} {t.faults[0].get(kind, 0)}, {b} {t.faults[1].get(kind, 0)}")
        if t.think_ms[0] or t.think_ms[1]:
            lines.append("Think time per move: " + ", ".join(
                f"{name} {statistics.mean(ms):.0f} ms (median {statistics.median(ms):.0f})"
                for name, ms in zip(self.names, t.think_ms) if ms))
        if t.left_ms[0] or t.left_ms[1]:
            lines.append("Clock left at game end: " + ", ".join(
                f"{name} {statistics.mean(ms):.0f} ms"
                for name, ms in zip(self.names, t.left_ms) if ms))
        if sum(t.pentanomial):
            pe, pm = elo_stats.elo_pentanomial(t.pentanomial)
            lines.append(f"Pentanomial [LL LD DD+WL WD WW]: {t.pentanomial}  "
                         f"Elo {elo_stats.format_elo(pe, pm)}")
        draw_ratio = t.draws / t.games * 100 if t.games else 0.0
        lines.append(f"LOS: {elo_stats.los(t.wins, t.losses) * 100:.1f} %, "
                     f"DrawRatio: {draw_ratio:.1f} %")
        if self.sprt is not None:
            verdict = {"H0": "H0 was accepted", "H1": "H1 was accepted",
                       None: "no decision"}[self.sprt_result]
            bound = self.sprt.upper if self.llr >= 0 else self.sprt.lower
            pct = self.llr / bound * 100 if bound else 0.0
            lines.append(f"SPRT: llr {self.llr:.2f} ({pct:.1f}%), lbound {self.sprt.lower:.2f}, "
                         f"ubound {self.sprt.upper:.2f} - {verdict} "
                         f"(elo0 {self.sprt.elo0:g}, elo1 {self.sprt.elo1:g}, "
                         f"alpha {self.sprt.alpha:g}, beta {self.sprt.beta:g}, "
                         f"{self.args.sprt_model})")
        lines.append(f"Score of {a} vs {b}: {t.wins} - {t.losses} - {t.draws}  "
                     f"[{t.score():.3f}] {t.games}")
        lines.append(f"Elo difference: {elo_stats.format_elo(elo, margin)}")
        print("\n".join(lines), flush=True)


# --------------------------------------------------------------------------- CLI

def forwarded(args: argparse.Namespace, flags: tuple[str, ...]) -> list[str]:
    """match.py arguments for the ``flags`` (attribute names) that ``args`` sets, and
    every ``--option``: how spsa.py and calibrate.py pass their own through."""
    argv = []
    for flag in flags:
        value = getattr(args, flag)
        if value is not None:
            argv += [f"--{flag.replace('_', '-')}", str(value)]
    for opt in args.option:
        argv += ["--option", opt]
    return argv


class QuietMatch(Match):
    """A match whose header and summary are left to its caller (spsa.py, calibrate.py),
    which plays many short matches and reports them its own way."""

    def print_header(self, where: str = "") -> None:
        pass

    def print_summary(self) -> None:
        pass


class RunnerFailed(Exception):
    """A ``QuietMatch`` returned a failure status (``run``'s: 1 or 3)."""

    def __init__(self, status: int):
        super().__init__(f"match.py's runner failed with status {status}")
        self.status = status


def parse_options(values: list[str], engines: int = 2) -> list[list[tuple[str, Optional[str]]]]:
    """``--option`` values -> per-engine (name, value) lists.  ``1:Name=Value`` for
    engine 1, ``2:...`` for engine 2, ``Name=Value`` for both; ``Name`` alone (no
    ``=``) sends ``setoption name Name`` (a button)."""
    out: list[list[tuple[str, Optional[str]]]] = [[] for _ in range(engines)]
    for text in values:
        targets = list(range(engines))
        head, sep, rest = text.partition(":")
        if sep and head.isdigit():
            n = int(head)
            if not 1 <= n <= engines:
                raise ValueError(f"--option {text!r}: engine number must be 1 or 2")
            targets, text = [n - 1], rest
        name, eq, value = text.partition("=")
        name = name.strip()
        if not name:
            raise ValueError(f"--option {text!r}: no option name")
        for t in targets:
            out[t].append((name, value if eq else None))
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="match.py",
        description="Play a match between two USI engines in a shogi variant, refereeing "
                    "every move with pyffish and the project's rules (RULES.md). Games are "
                    "played in pairs from the same opening with colours swapped.",
        epilog="""\
output:
  progress lines on stderr; the summary on stdout ends with cutechess-cli's lines
    Score of A vs B: W - L - D  [0.550] N
    Elo difference: 34.9 +/- 120.5
  (W, L, D from engine 1's point of view; 95% interval as cutechess-cli computes it)

examples:
  python3 scripts/match.py --variant shogi --engine target/release/kawari \\
      --engine fairy-stockfish --games 100 --byoyomi 0+1 --concurrency 2 \\
      --records shogi.jsonl
  python3 scripts/match.py --variant heian8x8 --engine "./new" --engine "./old" \\
      --option 1:USI_Hash=64 --games 2000 --tc 10+0.1 --sprt 0,5,0.05,0.05
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
    p.add_argument("--games", type=int, default=2, help="number of games, the maximum with --sprt (default: %(default)s)")
    tc = p.add_mutually_exclusive_group(required=True)
    tc.add_argument("--tc", metavar="BASE[+INC]",
                    help="Fischer clock in seconds, e.g. 10+0.1; '60' = sudden death")
    tc.add_argument("--byoyomi", metavar="MAIN+BYO",
                    help="main time + byoyomi in seconds, e.g. 10+1")
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

    p.add_argument("--seed", type=int, default=1, help="seed of the random openings (default: %(default)s)")
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
    p.add_argument("--variant-path", default=referee.DEFAULT_HEIAN_INI, metavar="INI",
                   help="Heian definition sent as VariantPath and loaded into pyffish "
                        "(default: scripts/heian.ini)")
    p.add_argument("--crosscheck", action="store_true",
                   help="also let pyffish compute every position and compare it with the "
                        "referee's own (slower; a self-test)")
    p.add_argument("--debug", metavar="FILE", help="log all engine traffic to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def setup(args: argparse.Namespace) -> tuple[list[EngineSpec], referee.Variant, TimeControl,
                                             list[Opening], Optional[elo_stats.Sprt]]:
    """What a ``Match`` needs, from the parsed arguments (which it checks); ValueError or
    OSError on bad ones.  Also used by spsa.py."""
    if len(args.engine) != 2:
        raise ValueError("give --engine exactly twice")
    if len(args.name) > 2:
        raise ValueError("give --name at most twice")
    if args.games < 1 or args.concurrency < 1 or args.max_plies < 1:
        raise ValueError("--games, --concurrency and --max-plies must be positive")
    if args.random_plies is not None and args.random_plies < 0:
        raise ValueError("--random-plies must not be negative")
    args.variant_path = os.path.abspath(args.variant_path)
    referee.init_pyffish(args.variant_path)
    variant = referee.get_variant(args.variant)
    if args.tc:
        tc = TimeControl.fischer(args.tc)
    elif args.byoyomi:
        tc = TimeControl.byoyomi(args.byoyomi)
    elif args.movetime is not None:
        tc = TimeControl("movetime", movetime_ms=args.movetime)
    elif args.nodes is not None:
        tc = TimeControl("nodes", nodes=args.nodes)
    else:
        tc = TimeControl("depth", depth=args.depth)
    options = parse_options(args.option)
    specs = []
    for n, cmd in enumerate(args.engine):
        argv_ = shlex.split(cmd)
        if not argv_:
            raise ValueError("empty --engine command")
        specs.append(EngineSpec(argv_, args.name[n] if n < len(args.name) else None,
                                options[n]))
    base = args.start_sfen or variant.start_sfen
    referee.Referee(variant, base)          # validates the SFEN
    pairs = math.ceil(args.games / 2)
    suite = default_openings_path(variant.name)
    if args.openings:
        openings = load_openings(args.openings, variant, base)
        args.openings_source = args.openings
    elif args.random_plies is None and args.start_sfen is None \
            and os.path.isfile(suite):
        openings = load_openings(suite, variant, base)
        args.openings_source = os.path.relpath(suite, os.path.dirname(SCRIPTS_DIR))
    else:
        plies = DEFAULT_RANDOM_PLIES if args.random_plies is None else args.random_plies
        openings = random_openings(variant, base, plies, pairs, args.seed)
        args.openings_source = f"{plies} random plies, seed {args.seed}"
        if args.first_opening is not None:
            raise ValueError("--first-opening reads the suite or --openings, "
                             "not random openings")
    if args.first_opening is not None:
        if not 1 <= args.first_opening <= len(openings):
            raise ValueError(f"--first-opening {args.first_opening}: there are "
                             f"{len(openings)} openings")
        args.openings_source += f", from opening {args.first_opening}"
    sprt = elo_stats.Sprt.parse(args.sprt) if args.sprt else None
    return specs, variant, tc, openings, sprt


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        specs, variant, tc, openings, sprt = setup(args)
    except (ValueError, OSError) as e:
        parser.error(str(e))
    return Match(args, specs, variant, tc, openings, sprt).run()


if __name__ == "__main__":
    sys.exit(main())
