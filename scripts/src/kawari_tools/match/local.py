"""The local runner: the games of a match on ``concurrency`` threads of this
process, each thread with its own pair of engines."""

from __future__ import annotations

import threading

from kawari_tools.games.player import Engine
from kawari_tools.match.state import ENGINE_FAILED, OK, RUNNER_FAILED, MatchState
from kawari_tools.usi_client import Aborted, EngineError

# Seconds the runner waits for each game thread to stop after an interrupt.
STOP_WAIT_S = 10


class LocalRunner:
    """Plays a match's games here, ``concurrency`` at a time."""

    def __init__(self, concurrency: int = 1):
        if concurrency < 1:
            raise ValueError("concurrency must be positive")
        self.concurrency = concurrency

    def run(self, state: MatchState) -> int:
        """Play the match; its exit status (``OK``, ``ENGINE_FAILED``, ``RUNNER_FAILED``)."""
        workers = max(1, min(self.concurrency, len(state.jobs)))
        pairs = [[state.make_engine(n, f"{w + 1}:{n + 1}") for n in range(2)]
                 for w in range(workers)]
        try:
            for pair in pairs:
                for eng in pair:
                    state.prepare(eng)
        except EngineError as e:
            state.error(str(e))
            for pair in pairs:
                for eng in pair:
                    eng.kill()
            state.close()
            return ENGINE_FAILED
        state.names = [pairs[0][0].name, pairs[0][1].name]
        state.reporter.header(state, f"concurrency {self.concurrency}")
        threads = [threading.Thread(target=self._worker, args=(state, pair), daemon=True)
                   for pair in pairs]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.2)
        except KeyboardInterrupt:
            state.reporter.notice("\ninterrupted; stopping the running games")
            state.stop.set()
            for t in threads:
                t.join(STOP_WAIT_S)
        for pair in pairs:
            for eng in pair:
                eng.quit()
        state.close()
        state.reporter.summary(state)
        return RUNNER_FAILED if state.failed else OK

    @staticmethod
    def _worker(state: MatchState, pair: list[Engine]) -> None:
        while (job := state.next()) is not None:
            try:
                rec = state.player.play(job, pair[0], pair[1], state.prepare)
            except Aborted:
                return
            except Exception as e:          # a bug must not hang the match
                state.failed = True
                state.stop.set()
                state.error(f"in game {job.index + 1}: {e!r}")
                raise
            state.finish(rec)
