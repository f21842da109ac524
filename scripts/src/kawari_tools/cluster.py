"""Ray plumbing shared by ``kawari-match --cluster`` and ``kawari-datagen``.

* ``connect``: join a running cluster (``auto``: ``RAY_ADDRESS``, else a cluster
  started on this machine), shipping this package to the workers with the job, so
  that they import the same referee and runner code.
* ``ship`` / ``local_copy``: files the tasks need (engine binaries, Heian's .ini, a
  network) go through Ray's object store, so a worker machine needs Python, Ray
  and pyffish but not the engines. Each node keeps one copy per content hash.
* ``Workers``: every node is probed (the shipped binaries start and answer ``usi``)
  before work goes there; one that cannot run them is reported and left out.

Only the cluster paths import this module: local runs need no Ray.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

import kawari_tools
from kawari_tools import probe

# A task killed with its node is retried this often on other nodes; a finite
# number, so a task that itself brings workers down cannot loop for ever.
TASK_RETRIES = 5
# A head whose port refuses connections this long is taken for gone.
HEAD_LOST_AFTER_S = 10.0


def address_of(arg: str) -> str:
    """``auto`` -> ``RAY_ADDRESS`` if set, else Ray's own ``auto`` (a local cluster)."""
    if arg == "auto":
        return os.environ.get("RAY_ADDRESS") or "auto"
    return arg


@contextlib.contextmanager
def session(arg: str):
    """Connected to the cluster at ``arg`` as a job driver for the ``with`` block,
    with a ``HeadWatch`` running; yields the watch.

    Ray prints cluster events (a node that died, ...) on the driver's stdout, which
    carries the match summary only: in the block, ``sys.stdout`` is stderr, and the
    block ends with ``ray.shutdown()``, after which nothing of Ray prints (unless the
    head is gone: then shutting down would only wait for it).
    JoinError if the cluster cannot be joined.
    """
    stdout = sys.stdout
    sys.stdout = sys.stderr
    watch = None
    try:
        try:
            connect(arg)
        except Exception as e:         # Ray raises ConnectionError and others
            raise JoinError(f"cannot join the Ray cluster at {address_of(arg)}: {e}") from e
        watch = HeadWatch(ray.get_runtime_context().gcs_address)
        yield watch
    finally:
        if watch is None or not watch.lost.is_set():
            try:
                ray.shutdown()
            except Exception:
                pass
        sys.stdout = stdout


class HeadLost(Exception):
    """The head node stopped answering."""


class HeadWatch:
    """Checks every second that the head's GCS port takes connections. Ray itself
    notices a lost head only after its 60 s reconnect timeout and then ends the
    driver's process at once, with no summary; this lets the driver stop first."""

    def __init__(self, gcs_address: str, lost_after_s: float = HEAD_LOST_AFTER_S):
        host, _, port = gcs_address.rpartition(":")
        self.where = (host, int(port))
        self.lost_after_s = lost_after_s
        self.lost = threading.Event()
        self.cpus = cpus_total()
        threading.Thread(target=self._watch, daemon=True).start()
        threading.Thread(target=self._count_cpus, daemon=True).start()

    def _count_cpus(self) -> None:
        """Keep ``cpus`` current here: asking the head blocks while it is gone, and the
        driver's loop must not."""
        while not self.lost.is_set():
            time.sleep(2.0)
            try:
                self.cpus = cpus_total()
            except Exception:
                pass

    def _watch(self) -> None:
        down_since = None
        while True:
            try:
                socket.create_connection(self.where, timeout=2).close()
                down_since = None
            except OSError:
                down_since = down_since or time.monotonic()
                if time.monotonic() - down_since >= self.lost_after_s:
                    self.lost.set()
                    return
            time.sleep(1.0)

    def check(self) -> None:
        if self.lost.is_set():
            raise HeadLost(f"the head at {self.where[0]}:{self.where[1]} has not answered "
                           f"for {self.lost_after_s:g} s")


def exit_now(status: int) -> None:
    """End the process without Python's shutdown, where Ray's exit hook would wait for
    a head that is gone (up to its 60 s timeout, then end us with its own status)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


class JoinError(Exception):
    """The cluster could not be joined."""


def connect(arg: str) -> None:
    """Connect this process to the cluster at ``arg`` as a job driver."""
    # Nothing may try to leave the machine on our account.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # log_to_driver off: Ray would copy its workers' and raylets' logs to our stdout,
    # which carries the match summary only; a task's failure comes back as an error.
    ray.init(address=address_of(arg), logging_level="WARNING", log_to_driver=False,
             runtime_env={"py_modules": [kawari_tools],
                          "excludes": ["__pycache__/", "*.pyc"]})


def cpus_total() -> int:
    """CPUs of the nodes alive now (nodes may come and go during a run)."""
    return int(ray.cluster_resources().get("CPU", 0))


def largest_node() -> int:
    """CPUs of the largest node alive now."""
    return max((int(n["Resources"].get("CPU", 0)) for n in ray.nodes() if n.get("Alive")),
               default=0)


def check_fits(cpus: int, what: str) -> None:
    """JoinError unless some node can run a task asking for ``cpus`` CPUs: Ray would
    keep such a task waiting for ever, with no more than a warning in its log."""
    largest = largest_node()
    if cpus > largest:
        raise JoinError(f"{what} asks for {cpus} CPUs, but the largest node of the cluster "
                        f"has {largest} (ray start --num-cpus N raises a node's count)")


@dataclass
class Shipped:
    """A file in the object store: its name, content hash and object reference."""

    name: str
    sha256: str
    ref: Any


def ship(path: str) -> Shipped:
    with open(path, "rb") as f:
        data = f.read()
    return Shipped(os.path.basename(path), hashlib.sha256(data).hexdigest(), ray.put(data))


def local_copy(name: str, sha256: str, data: bytes, executable: bool = False) -> str:
    """Write a shipped file once per node (keyed by its hash) and return its path."""
    folder = os.path.join(tempfile.gettempdir(), "kawari-ray", sha256[:16])
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        # Several tasks on one node may write it at once: write aside, then rename.
        part = f"{path}.{os.getpid()}.part"
        with open(part, "wb") as f:
            f.write(data)
        os.chmod(part, 0o755 if executable else 0o644)
        os.replace(part, path)
    return path


def on_path(program: str) -> bool:
    """Whether ``program`` lives in a directory on PATH (``/usr/bin/python3``): a
    system program that a worker is expected to have too."""
    folder = os.path.dirname(os.path.realpath(program))
    return any(os.path.realpath(d) == folder
               for d in os.environ.get("PATH", "").split(os.pathsep) if d)


def ship_command(argv: list[str]) -> tuple[list[str], list[Shipped]]:
    """Ship the program of a command line if it is a file here that is not a system
    program (``target/release/kawari``, ``/opt/fsf/fairy-stockfish``); a bare name or
    a program on PATH (``python3``) is left to the worker. Further arguments are
    passed as they are (files they name must exist on the workers). Returns the argv
    with the program replaced by ``{0}`` and the shipped files."""
    if argv and os.sep in argv[0] and os.path.isfile(argv[0]) and not on_path(argv[0]):
        return ["{0}", *argv[1:]], [ship(argv[0])]
    return list(argv), []


def fetch_command(argv: list[str], shipped: list[tuple[str, str]], blobs: list[bytes]) -> list[str]:
    """On a worker: the argv of ``ship_command`` with the program written out here."""
    if shipped:
        (name, sha), = shipped
        program = local_copy(name, sha, blobs[0], executable=True)
        return [program if a == "{0}" else a for a in argv]
    return list(argv)


# --------------------------------------------------------------------------- workers

# The label every Ray node carries with its id: tasks avoid the nodes that failed.
NODE_ID_LABEL = "ray.io/node-id"


def fetch_commands(commands: list[dict], blobs: tuple) -> list[list[str]]:
    """On a worker: each command's argv (``ship_command``'s, with ``shipped``: the
    files it ships, in ``blobs`` in order), its shipped program written out here."""
    argvs, at = [], 0
    for c in commands:
        argvs.append(fetch_command(c["argv"], c["shipped"], blobs[at:at + len(c["shipped"])]))
        at += len(c["shipped"])
    return argvs


def why_not_here(commands: list[dict], argvs: list[list[str]], timeout: float) -> Optional[str]:
    """On a worker: why one of the commands (each a USI engine, named by its
    ``label``) cannot run on this node, or None when all answer ``usi``."""
    for c, argv in zip(commands, argvs):
        why = probe.probe(argv, timeout)
        if why is not None:
            return f"{c['label']}: {why}"
    return None


@ray.remote(num_cpus=0, max_retries=TASK_RETRIES, retry_exceptions=False)
def probe_node(commands: list[dict], timeout: float, *blobs: bytes) -> dict:
    """Whether this node runs every command: ``{"node": id, "why": None or a line}``."""
    why = why_not_here(commands, fetch_commands(commands, blobs), timeout)
    return {"node": ray.get_runtime_context().get_node_id(), "why": why}


def _node_names() -> dict[str, str]:
    """Alive nodes' ids -> their address, to name them in messages."""
    return {n["NodeID"]: n.get("NodeManagerAddress", "?") for n in ray.nodes()
            if n.get("Alive")}


class Workers:
    """The nodes a run may send work to. ``probe`` tries the commands on every
    alive node with CPUs before any work goes out; a node that cannot run one (a
    binary built for a newer CPU dies there at once) is reported through ``warn``
    with the command's own last line, and ``options`` keeps tasks off it. Tasks check
    their node again (``why_not_here``) for nodes that join later and hand back
    ``reject``'s arguments."""

    def __init__(self, warn: Callable[[str], None]):
        self.warn = warn
        self.bad: dict[str, str] = {}           # node id -> why it cannot run the commands

    def probe(self, commands: list[dict], blobs: list, timeout: float) -> None:
        names = _node_names()
        nodes = [n["NodeID"] for n in ray.nodes()
                 if n.get("Alive") and n["Resources"].get("CPU", 0) > 0]
        refs = [probe_node.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
                    node, soft=False)).remote(commands, timeout, *blobs)
                for node in nodes]
        for node, ref in zip(nodes, refs):
            try:
                answer = ray.get(ref)
            except ray.exceptions.RayError as e:
                # The node died or left between the listing and its probe (a
                # busy node's missed heartbeats do this too): no work for it,
                # and the run goes on with the others.
                self.bad[node] = f"lost ({type(e).__name__})"
                self.warn(f"node {names.get(node, '?')} ({node[:8]}) was lost before its "
                          f"probe answered ({type(e).__name__}); it gets no work")
                continue
            if answer["why"] is not None:
                self.reject(answer["node"], answer["why"], names)

    def reject(self, node: str, why: str, names: Optional[dict[str, str]] = None) -> None:
        """No more work for ``node``; tell why (once)."""
        if node in self.bad:
            return
        self.bad[node] = why
        where = (names or _node_names()).get(node, "?")
        self.warn(f"node {where} ({node[:8]}) cannot run {why}; it gets no work")

    def usable(self, cpus: int) -> bool:
        """Whether some alive node that runs the commands has ``cpus`` CPUs."""
        return any(n.get("Alive") and n["NodeID"] not in self.bad
                   and n["Resources"].get("CPU", 0) >= cpus for n in ray.nodes())

    def options(self, cpus: int) -> dict:
        """Ray task options: ``cpus`` CPUs, on no node that failed."""
        options: dict = {"num_cpus": cpus}
        if self.bad:
            options["label_selector"] = {NODE_ID_LABEL: f"!in({','.join(self.bad)})"}
        return options
