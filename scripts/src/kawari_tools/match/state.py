"""The count of a running match, shared by both runners: the jobs, the tally, the
SPRT, the records and CSA files written as games finish, and the engines' set-up."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from typing import Optional

from kawari_tools import elo_stats, progress
from kawari_tools.games.player import Engine, GamePlayer
from kawari_tools.games.records import GameJob, GameRecord, csa_record
from kawari_tools.match.config import MatchConfig
from kawari_tools.match.report import Reporter
from kawari_tools.match.tally import FAULTS, Tally
from kawari_tools.referee import BLACK, opponent
from kawari_tools.usi_client import IoLog

# Exit statuses of a match (and of kawari-match).
OK, ENGINE_FAILED, RUNNER_FAILED, CLUSTER_LOST = 0, 1, 3, 4


@dataclass
class MatchResult:
    """What ``run_match`` returns: the exit status (``OK``, ``ENGINE_FAILED``,
    ``RUNNER_FAILED``, ``CLUSTER_LOST``), the engines' names, the tally, the SPRT's
    decision (``H0``, ``H1`` or None) and LLR, and the first error reported."""

    status: int
    names: list[str]
    tally: Tally
    sprt_result: Optional[str] = None
    llr: float = 0.0
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.status == OK


class MatchState:
    """A match being played: the runners take jobs from it and hand it each finished
    game (``finish``), from any thread; it counts each game once and stops the
    match when the SPRT decides."""

    def __init__(self, config: MatchConfig, reporter: Reporter):
        self.config = config
        self.reporter = reporter
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.tally = Tally()
        self.scores: dict[int, float] = {}
        self.sprt_result: Optional[str] = None
        self.llr = 0.0
        self.log = IoLog(config.debug)
        self.records = open(config.records, "a", encoding="utf-8") if config.records else None
        self.names = ["", ""]
        self.next_job = 0
        self.warned: set[str] = set()
        self.failed = False
        self.first_error: Optional[str] = None
        self.player = GamePlayer(config.variant, config.tc, config.max_plies,
                                 config.margin_ms, config.hang_timeout, self.stop,
                                 config.crosscheck, config.tc2)
        n = len(config.openings)
        at = [(config.first_opening + i // 2) % n for i in range(config.games)]
        self.jobs = [GameJob(i, at[i], config.openings[at[i]], first_black=(i % 2 == 0))
                     for i in range(config.games)]
        self.progress = progress.Progress(len(self.jobs))

    # -- messages --------------------------------------------------------------
    def warn(self, message: str) -> None:
        """Report a warning once however many engines or games raise it."""
        with self.lock:
            if message in self.warned:
                return
            self.warned.add(message)
        self.reporter.warning(message)

    def error(self, message: str) -> None:
        self.first_error = self.first_error or message
        self.reporter.error(message)

    # -- engines ---------------------------------------------------------------
    def make_engine(self, n: int, label: str) -> Engine:
        """Engine ``n`` (0 or 1), not started."""
        return Engine(self.config.engines[n], label, self.log, self.config.startup_timeout)

    def prepare(self, engine: Engine) -> None:
        """Start an engine and set it up for the match's variant and options."""
        engine.start()
        engine.configure(self.config.variant, self.config.variant_path, self.warn)

    # -- counting --------------------------------------------------------------
    def next(self) -> Optional[GameJob]:
        """The next game to play, or None when all are taken or the match stops."""
        with self.lock:
            if self.stop.is_set() or self.next_job >= len(self.jobs):
                return None
            job = self.jobs[self.next_job]
            self.next_job += 1
            return job

    def finish(self, rec: GameRecord) -> None:
        """Count a finished game (once; not after the SPRT has decided)."""
        with self.lock:
            if self.sprt_result is not None:
                return                      # decided meanwhile; do not count
            if rec.job.index in self.scores:
                return                      # a game reported twice counts once
            self.progress.add()
            self._count(rec)
            self._write(rec)
            partner = rec.job.index ^ 1
            self._update_sprt(pair_done=partner in self.scores)
            self.reporter.game(self, rec)

    def _count(self, rec: GameRecord) -> None:
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
        for n, (own, left) in enumerate(rec.time_use(self.config.tc, self.config.tc2)):
            t.think_ms[n].extend(own)
            if left is not None:
                t.left_ms[n].append(left)
        self.scores[rec.job.index] = s
        partner = rec.job.index ^ 1
        if partner in self.scores:
            t.pentanomial[elo_stats.pair_category(s, self.scores[partner])] += 1

    def _write(self, rec: GameRecord) -> None:
        c = self.config
        if self.records:
            self.records.write(json.dumps(rec.to_json(c.variant.name, c.describe_tc())) + "\n")
            self.records.flush()
        if c.csa_dir and c.variant.files == 9 and c.variant.ranks == 9:
            os.makedirs(c.csa_dir, exist_ok=True)
            path = os.path.join(c.csa_dir, f"game{rec.job.index + 1:04d}.csa")
            with open(path, "w", encoding="utf-8") as f:
                f.write(csa_record(rec, c.variant))

    def _update_sprt(self, pair_done: bool) -> None:
        sprt = self.config.sprt
        if sprt is None:
            return
        t = self.tally
        if self.config.sprt_model == "pentanomial":
            if not pair_done:
                return
            self.llr = sprt.llr_pentanomial(t.pentanomial)
        else:
            self.llr = sprt.llr_trinomial(t.wins, t.draws, t.losses)
        decision = sprt.decide(self.llr)
        if decision is not None:
            self.sprt_result = decision
            self.stop.set()

    # -- the end ---------------------------------------------------------------
    def close(self) -> None:
        """Close the records file (the runner calls this once, before the summary)."""
        if self.records:
            self.records.close()
            self.records = None

    def result(self, status: int) -> MatchResult:
        return MatchResult(status, list(self.names), self.tally, self.sprt_result,
                           self.llr, self.first_error)
