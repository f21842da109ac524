"""``match.py --cluster``: the games of a match as Ray tasks.

Each pair of games (one opening, colours swapped) is one task that asks for the
CPUs its engines use (their ``Threads`` added up: 2 for two single-threaded engines).
The task starts both engines on its worker from binaries shipped through the object
store, plays and referees the two games with match.py's own ``GamePlayer`` and
returns the records; the driver counts them with match.py's ``Match.finish``, so
the summary, SPRT, records and CSA files are those of a local run.

Faults: a task whose worker or node dies is run again elsewhere by Ray (its games
start afresh, and with fixed nodes per move they are the same games); only a
finished task's answer is counted, and each game index once. An engine that
crashes inside a game is that engine's loss, decided inside the task, not a retry.
An SPRT decision cancels the tasks not yet finished.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections import deque

import ray

import cluster

# Tasks kept in flight per pair the cluster can run at once: enough to keep every
# node busy while answers travel, few enough that an SPRT stop wastes little.
QUEUE_FACTOR = 2


def threads_of(options: list[tuple[str, str | None]]) -> int:
    for name, value in options:
        if name in ("Threads", "USI_Threads") and value and value.isdigit():
            return max(1, int(value))
    return 1


@ray.remote(max_retries=cluster.TASK_RETRIES, retry_exceptions=False)
def play_pair(setup: dict, jobs: list[dict], ini: bytes, *blobs: bytes) -> dict:
    """Play ``jobs`` (one or two games) on this worker; their records as plain data."""
    import match                    # from the job's working directory (scripts/)
    import referee
    from usi_client import EngineSpec, IoLog

    ini_path = cluster.local_copy(setup["ini_name"], setup["ini_sha"], ini)
    referee.init_pyffish(ini_path)
    variant = referee.get_variant(setup["variant"])
    tc = match.TimeControl(**setup["tc"])
    player = match.GamePlayer(variant, tc, setup["max_plies"], setup["margin"],
                              setup["hang_timeout"], threading.Event(), setup["crosscheck"])
    warnings: list[str] = []
    engines, at = [], 0
    for n, e in enumerate(setup["engines"]):
        argv = cluster.fetch_command(e["argv"], e["shipped"], blobs[at:at + len(e["shipped"])])
        at += len(e["shipped"])
        spec = EngineSpec(argv, e["name"], [tuple(o) for o in e["options"]])
        engines.append(match.Engine(spec, f"{n + 1}", IoLog(None), setup["startup_timeout"]))

    def prepare(engine) -> None:
        engine.start()
        engine.configure(variant, ini_path, warnings.append)

    results = []
    try:
        for j in jobs:
            job = match.GameJob(j["index"], j["opening_index"],
                                match.Opening(j["sfen"], j["moves"]), j["first_black"])
            results.append(player.play(job, engines[0], engines[1], prepare).to_wire())
    finally:
        # also on cancellation (KeyboardInterrupt in the task): no engine outlives it
        for engine in engines:
            engine.quit()
    return {"results": results, "warnings": warnings,
            "node": ray.get_runtime_context().get_node_id()}


def _setup(m, ini, engines) -> dict:
    a = m.args
    return {"variant": m.variant.name, "tc": dataclasses.asdict(m.tc),
            "max_plies": a.max_plies, "margin": a.margin, "hang_timeout": a.hang_timeout,
            "startup_timeout": a.startup_timeout, "crosscheck": a.crosscheck,
            "ini_name": ini.name, "ini_sha": ini.sha256, "engines": engines}


def _job(job) -> dict:
    return {"index": job.index, "opening_index": job.opening_index, "sfen": job.opening.sfen,
            "moves": job.opening.moves, "first_black": job.first_black}


def _names(m) -> list[str]:
    """Start each engine here once, as a local run does: its name, and an early error
    for a command that does not work at all."""
    names = []
    for n, spec in enumerate(m.specs):
        engine = type(m).engine_class(spec, f"check:{n + 1}", m.log, m.args.startup_timeout)
        try:
            m.prepare(engine)
            names.append(engine.name)
        finally:
            engine.quit()
    return names


def run(m) -> int:
    """Play match ``m`` (match.Match) on the cluster; the exit status of match.py."""
    from usi_client import EngineError
    try:
        m.names = _names(m)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        with cluster.session(m.args.cluster) as watch:
            status = _play(m, watch)
    except cluster.JoinError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if m.records:
        m.records.close()
    m.print_summary()
    if status == 4:
        cluster.exit_now(4)
    return status or (3 if m.failed else 0)


def _play(m, watch) -> int:
    """Submit the pairs, count the answers as they come; 0, or 3/4 on failures."""
    per_pair = sum(threads_of(spec.options) for spec in m.specs)
    cluster.check_fits(per_pair, "each pair of games (the engines' Threads added up)")
    ini = cluster.ship(m.args.variant_path)
    blobs, engines = [], []
    for spec, name in zip(m.specs, m.names):
        argv, shipped = cluster.ship_command(spec.argv)
        # the names found here: a worker's engine is named before it starts
        engines.append({"argv": argv, "name": name, "options": spec.options,
                        "shipped": [(s.name, s.sha256) for s in shipped]})
        blobs += [s.ref for s in shipped]
    setup = _setup(m, ini, engines)
    m.print_header(f"cluster {ray.get_runtime_context().gcs_address} "
                   f"({cluster.cpus_total()} CPUs, {per_pair} per pair)")
    pending = deque([m.jobs[i:i + 2] for i in range(0, len(m.jobs), 2)])
    inflight: dict = {}
    status = 0
    try:
        while (pending or inflight) and not m.stop.is_set():
            window = max(1, QUEUE_FACTOR * watch.cpus // per_pair)
            while pending and len(inflight) < window:
                pair = pending.popleft()
                ref = play_pair.options(num_cpus=per_pair).remote(
                    setup, [_job(j) for j in pair], ini.ref, *blobs)
                inflight[ref] = pair
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
            watch.check()
            for ref in ready:
                inflight.pop(ref)
                answer = ray.get(ref)
                for w in answer["warnings"]:
                    m.warn(w)
                for r in answer["results"]:
                    m.finish(type(m).record_class.from_wire(m.jobs[r["index"]], r))
    except KeyboardInterrupt:
        print("\ninterrupted; cancelling the cluster's tasks", file=sys.stderr)
    except ray.exceptions.RayTaskError as e:
        # an exception inside a task is a bug of the runner, as in a local run
        m.failed = True
        status = 3
        print(f"error in a cluster task: {e}", file=sys.stderr, flush=True)
    except Exception as e:         # the head went away, ...
        status = 4
        print(f"error: lost the Ray cluster ({type(e).__name__}: {e}); the games finished "
              f"so far are counted below" + (" and in the records" if m.records else ""),
              file=sys.stderr, flush=True)
    if status != 4:
        for ref in inflight:
            try:
                ray.cancel(ref)     # SPRT decided, interrupted or failed: stop the rest
            except Exception:
                pass
    return status
