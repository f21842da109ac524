"""Playing one refereed game between two running engines: the engine as a match
configures it (variant, options) and the ``GamePlayer`` that sends positions, keeps
the clocks and judges every reply. Both match runners use it: the local one on its
threads, the Ray one inside each task."""

from __future__ import annotations

import datetime as _dt
import threading
from typing import Callable, Optional

from kawari_tools import referee
from kawari_tools.games.clock import TimeControl, controls_by_side, go_command, start_clocks
from kawari_tools.games.records import GameJob, GameRecord
from kawari_tools.referee import BLACK, WHITE, Outcome, Referee, opponent
from kawari_tools.usi_client import Aborted, EngineError, EngineSpec, IoLog, UsiEngine

DEFAULT_STARTUP_TIMEOUT_S = 20.0


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


class GamePlayer:
    """Plays single games between two running engines, refereeing every move. Each
    engine plays under its own clock: ``tc`` for the first, ``tc2`` (time odds, of
    the same kind) or else ``tc`` for the second, whichever colour it has."""

    def __init__(self, variant: referee.Variant, tc: TimeControl, max_plies: int,
                 margin_ms: float, hang_timeout: float, stop: threading.Event,
                 crosscheck: bool = False, tc2: Optional[TimeControl] = None):
        self.crosscheck = crosscheck
        self.variant = variant
        self.tc = tc
        self.tc2 = tc2 or tc
        self.max_plies = max_plies
        self.margin_ms = margin_ms
        self.hang_timeout = hang_timeout
        self.stop = stop

    def play(self, job: GameJob, first: Engine, second: Engine,
             prepare: Callable[[Engine], None]) -> GameRecord:
        """Play one game; ``prepare`` (re)starts an engine that is not running."""
        engines = {BLACK: first, WHITE: second} if job.first_black \
            else {BLACK: second, WHITE: first}
        tcs = controls_by_side(BLACK if job.first_black else WHITE, self.tc, self.tc2)
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

        clocks = start_clocks(tcs)
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
            go, allowed = go_command(tcs, clocks, side)
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
            tcs[side].spend(clocks, side, reply.elapsed_ms)
            times.append(round(reply.elapsed_ms))
            infos.append(reply.info)
