"""The Ray runner: the games of a match as tasks of a Ray cluster.

Each pair of games (one opening, colours swapped) is one task that asks for the
CPUs its engines use (their ``Threads`` added up: 2 for two single-threaded engines).
The task starts both engines on its worker from binaries shipped through the object
store, plays and referees the two games with the games core's ``GamePlayer`` and
returns the records; the driver counts them with the match's ``MatchState``, so
the summary, SPRT, records and CSA files are those of a local run.

Workers: before any game, every node is probed (``kawari_tools.probe``: the
engines start and answer ``usi`` with ``usiok``); a node that cannot run an engine
(a binary built for a newer CPU dies there at once) is reported with the engine's
own last line and gets no games. Each task probes its node again before it plays,
which covers nodes that join later: a failing node's pair goes back to the queue.

Faults: a task whose worker or node dies is run again elsewhere by Ray (its games
start afresh, and with fixed nodes per move they are the same games); only a
finished task's answer is counted, and each game index once. An engine that
crashes inside a game is that engine's loss, decided inside the task, not a retry.
An SPRT decision ends the match; the tasks not yet finished end with its Ray job
(Ray kills a job's workers when its driver leaves, and their engines see EOF).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Optional

import ray

from kawari_tools import cluster, referee
from kawari_tools.games.clock import TimeControl
from kawari_tools.games.openings import Opening
from kawari_tools.games.player import Engine, GamePlayer
from kawari_tools.games.records import GameJob, GameRecord
from kawari_tools.match.config import MatchConfig
from kawari_tools.match.state import CLUSTER_LOST, ENGINE_FAILED, OK, RUNNER_FAILED, MatchState
from kawari_tools.usi_client import EngineError, EngineSpec, IoLog

# Tasks kept in flight per pair the cluster can run at once: enough to keep every
# node busy while answers travel, few enough that an SPRT stop wastes little.
QUEUE_FACTOR = 2


def threads_of(options: list[tuple[str, Optional[str]]]) -> int:
    for name, value in options:
        if name in ("Threads", "USI_Threads") and value and value.isdigit():
            return max(1, int(value))
    return 1


@ray.remote(max_retries=cluster.TASK_RETRIES, retry_exceptions=False)
def play_pair(setup: dict, jobs: list[dict], ini: bytes, *blobs: bytes) -> dict:
    """Play ``jobs`` (one or two games) on this worker; their records as plain data,
    or ``unusable`` (why) when an engine does not run on this node."""
    node = ray.get_runtime_context().get_node_id()
    argvs = cluster.fetch_commands(setup["engines"], blobs)
    why = cluster.why_not_here(setup["engines"], argvs, setup["startup_timeout"])
    if why is not None:
        return {"results": [], "warnings": [], "node": node, "unusable": why}
    ini_path = cluster.local_copy(setup["ini_name"], setup["ini_sha"], ini)
    referee.init_pyffish(ini_path)
    player = player_of(setup)
    variant = player.variant
    warnings: list[str] = []
    engines = []
    for n, (e, argv) in enumerate(zip(setup["engines"], argvs)):
        spec = EngineSpec(argv, e["name"], [tuple(o) for o in e["options"]])
        engines.append(Engine(spec, f"{n + 1}", IoLog(None), setup["startup_timeout"]))

    def prepare(engine) -> None:
        engine.start()
        engine.configure(variant, ini_path, warnings.append)

    results = []
    try:
        for j in jobs:
            job = GameJob(j["index"], j["opening_index"], Opening(j["sfen"], j["moves"]),
                          j["first_black"])
            results.append(player.play(job, engines[0], engines[1], prepare).to_wire())
    finally:
        # also on a KeyboardInterrupt in the task; a killed worker's engines see EOF
        for engine in engines:
            engine.quit()
    return {"results": results, "warnings": warnings, "node": node}


def task_setup(c: MatchConfig, ini_name: str, ini_sha: str, engines: list[dict]) -> dict:
    """What every task of the match is told, as plain data: the variant, both
    engines' clocks (``tc2`` is engine 2's with time odds, else None), the limits,
    the Heian definition shipped and the engines (``cluster.ship_command``'s)."""
    return {"variant": c.variant.name, "tc": c.tc.to_wire(),
            "tc2": c.tc2.to_wire() if c.tc2 is not None else None,
            "max_plies": c.max_plies, "margin": c.margin_ms,
            "hang_timeout": c.hang_timeout, "startup_timeout": c.startup_timeout,
            "crosscheck": c.crosscheck, "ini_name": ini_name, "ini_sha": ini_sha,
            "engines": engines}


def player_of(setup: dict) -> GamePlayer:
    """A task's game player, from ``task_setup``'s data (pyffish set up first)."""
    tc2 = setup.get("tc2")
    return GamePlayer(referee.get_variant(setup["variant"]), TimeControl.from_wire(setup["tc"]),
                      setup["max_plies"], setup["margin"], setup["hang_timeout"],
                      threading.Event(), setup["crosscheck"],
                      TimeControl.from_wire(tc2) if tc2 else None)


def _job(job: GameJob) -> dict:
    return {"index": job.index, "opening_index": job.opening_index, "sfen": job.opening.sfen,
            "moves": job.opening.moves, "first_black": job.first_black}


class RayRunner:
    """Plays a match's games on the Ray cluster at ``address`` (``HEAD:PORT``, or
    ``auto``: ``RAY_ADDRESS``, else a cluster started on this machine)."""

    def __init__(self, address: str):
        self.address = address
        self.workers: Optional[cluster.Workers] = None

    def run(self, state: MatchState) -> int:
        """Play the match on the cluster; its exit status (``CLUSTER_LOST`` after the
        head went away: the caller should then end the process with
        ``cluster.exit_now``, as Ray's own exit hook would wait for the head)."""
        try:
            state.names = self._names(state)
        except EngineError as e:
            state.error(str(e))
            state.close()
            return ENGINE_FAILED
        try:
            with cluster.session(self.address) as watch:
                status = self._play(state, watch)
        except cluster.JoinError as e:
            state.error(str(e))
            state.close()
            return ENGINE_FAILED
        state.close()
        if status != ENGINE_FAILED:
            state.reporter.summary(state)
        return status or (RUNNER_FAILED if state.failed else OK)

    @staticmethod
    def _names(state: MatchState) -> list[str]:
        """Start each engine here once, as a local run does: its name, and an early
        error for a command that does not work at all."""
        names = []
        for n in range(2):
            engine = state.make_engine(n, f"check:{n + 1}")
            try:
                state.prepare(engine)
                names.append(engine.name)
            finally:
                engine.quit()
        return names

    def _usable(self, state: MatchState, per_pair: int) -> bool:
        """Whether some node that can run the engines holds a pair; an error if not."""
        if self.workers.usable(per_pair):
            return True
        state.error("no node of the cluster can run the engines (see the warnings above)")
        return False

    def _play(self, state: MatchState, watch) -> int:
        """Probe the nodes, submit the pairs, count the answers as they come."""
        c = state.config
        per_pair = sum(threads_of(spec.options) for spec in c.engines)
        cluster.check_fits(per_pair, "each pair of games (the engines' Threads added up)")
        ini = cluster.ship(c.variant_path)
        blobs, engines = [], []
        for spec, name in zip(c.engines, state.names):
            argv, shipped = cluster.ship_command(spec.argv)
            # the names found here: a worker's engine is named before it starts
            engines.append({"argv": argv, "name": name, "options": spec.options,
                            "label": f"engine {len(engines) + 1} ({name})",
                            "shipped": [(s.name, s.sha256) for s in shipped]})
            blobs += [s.ref for s in shipped]
        # a runner may play several matches (SPSA): it keeps what it learnt of the nodes
        self.workers = self.workers or cluster.Workers(state.warn)
        self.workers.warn = state.warn
        self.workers.probe(engines, blobs, c.startup_timeout)
        if not self._usable(state, per_pair):
            return ENGINE_FAILED
        setup = task_setup(c, ini.name, ini.sha256, engines)
        state.reporter.header(state, f"cluster {ray.get_runtime_context().gcs_address} "
                                     f"({cluster.cpus_total()} CPUs, {per_pair} per pair)")
        pending = deque([state.jobs[i:i + 2] for i in range(0, len(state.jobs), 2)])
        inflight: dict = {}
        status = OK
        try:
            while (pending or inflight) and not state.stop.is_set():
                window = max(1, QUEUE_FACTOR * watch.cpus // per_pair)
                while pending and len(inflight) < window:
                    pair = pending.popleft()
                    ref = play_pair.options(**self.workers.options(per_pair)).remote(
                        setup, [_job(j) for j in pair], ini.ref, *blobs)
                    inflight[ref] = pair
                ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
                watch.check()
                for ref in ready:
                    pair = inflight.pop(ref)
                    answer = ray.get(ref)
                    if "unusable" in answer:
                        self.workers.reject(answer["node"], answer["unusable"])
                        pending.appendleft(pair)
                        if not self._usable(state, per_pair):
                            status = ENGINE_FAILED
                            state.stop.set()        # the tasks in flight end with the job
                            break
                        continue
                    for w in answer["warnings"]:
                        state.warn(w)
                    for r in answer["results"]:
                        state.finish(GameRecord.from_wire(state.jobs[r["index"]], r))
        except KeyboardInterrupt:
            state.reporter.notice("\ninterrupted; stopping the cluster's tasks")
        except ray.exceptions.RayTaskError as e:
            # an exception inside a task is a bug of the runner, as in a local run
            state.failed = True
            status = RUNNER_FAILED
            state.error(f"in a cluster task: {e}")
        except Exception as e:         # the head went away, ...
            status = CLUSTER_LOST
            state.error(f"lost the Ray cluster ({type(e).__name__}: {e}); the games finished "
                        f"so far are counted below"
                        + (" and in the records" if state.records else ""))
        # SPRT decided, interrupted or failed: the pairs still in flight end with this
        # job (Ray kills a job's workers when its driver leaves). Cancelling them here
        # raced with a pair that was just finishing and crashed Ray's core worker (Ray
        # 2.60, "Tried to complete task that was not pending").
        return status
