"""A match between two USI engines in one of Kawari's variants, as a library.

::

    from kawari_tools.match import (ConsoleReporter, LocalRunner, MatchConfig,
                                    choose_openings, engine_specs, run_match)

    config = MatchConfig(variant, engine_specs([cmd1, cmd2]), tc, openings, games=20)
    result = run_match(config, LocalRunner(concurrency=2), ConsoleReporter())

Every move is refereed independently of the engines (``kawari_tools.referee``).
Games are played in pairs from the same opening with colours swapped. The Ray
runner is ``kawari_tools.match.ray_runner.RayRunner`` (imports Ray; the
``[cluster]`` extra); nothing here imports Ray.
"""

from __future__ import annotations

from typing import Optional, Protocol

from kawari_tools.match.config import (
    DEFAULT_HANG_TIMEOUT_S,
    DEFAULT_MARGIN_MS,
    DEFAULT_MAX_PLIES,
    DEFAULT_RANDOM_PLIES,
    MatchConfig,
    choose_openings,
    engine_specs,
    parse_options,
)
from kawari_tools.match.local import LocalRunner
from kawari_tools.match.report import ConsoleReporter, Reporter
from kawari_tools.match.state import (
    CLUSTER_LOST,
    ENGINE_FAILED,
    OK,
    RUNNER_FAILED,
    MatchResult,
    MatchState,
    Tally,
)

__all__ = ["CLUSTER_LOST", "DEFAULT_HANG_TIMEOUT_S", "DEFAULT_MARGIN_MS",
           "DEFAULT_MAX_PLIES", "DEFAULT_RANDOM_PLIES", "ENGINE_FAILED", "OK",
           "RUNNER_FAILED", "ConsoleReporter", "LocalRunner", "MatchConfig", "MatchResult",
           "MatchState", "Reporter", "Runner", "RunnerFailed", "Tally", "choose_openings",
           "engine_specs", "parse_options", "run_match"]


class Runner(Protocol):
    """Plays a match's games: ``LocalRunner`` or ``ray_runner.RayRunner``."""

    def run(self, state: MatchState) -> int:
        """Play every job of ``state`` (until it stops); the exit status."""
        ...


class RunnerFailed(Exception):
    """A match that a tool needed ended with a failure status."""

    def __init__(self, result: MatchResult):
        why = f": {result.error}" if result.error else ""
        super().__init__(f"the match runner failed with status {result.status}{why}")
        self.status = result.status
        self.result = result


def run_match(config: MatchConfig, runner: Optional[Runner] = None,
              reporter: Optional[Reporter] = None) -> MatchResult:
    """Play the match of ``config`` with ``runner`` (default: one local thread),
    telling ``reporter`` (default: nothing) as it goes."""
    state = MatchState(config, reporter or Reporter())
    status = (runner or LocalRunner()).run(state)
    return state.result(status)
