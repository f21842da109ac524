"""Ray plumbing shared by ``match.py --cluster`` and ``datagen.py --cluster``.

* ``connect``: join a running cluster (``auto``: ``RAY_ADDRESS``, else a cluster
  started on this machine), with this directory (scripts/) as the job's working
  directory, so that workers import the same referee and runner code.
* ``ship`` / ``local_copy``: files the tasks need (engine binaries, Heian's .ini, a
  network) go through Ray's object store, so a worker machine needs Python, Ray
  and pyffish but not the engines. Each node keeps one copy per content hash.

Only the ``--cluster`` paths import this module: local runs need no Ray.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import tempfile
from dataclasses import dataclass
from typing import Any

import ray

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
# A task killed with its node is retried this often on other nodes; a finite
# number, so a task that itself brings workers down cannot loop for ever.
TASK_RETRIES = 5


def address_of(arg: str) -> str:
    """``auto`` -> ``RAY_ADDRESS`` if set, else Ray's own ``auto`` (a local cluster)."""
    if arg == "auto":
        return os.environ.get("RAY_ADDRESS") or "auto"
    return arg


def connect(arg: str) -> None:
    """Connect this process to the cluster at ``arg`` as a job driver."""
    # Nothing may try to leave the machine on our account.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address=address_of(arg), logging_level="WARNING", log_to_driver=True,
             runtime_env={"working_dir": SCRIPTS_DIR,
                          "excludes": ["tests/", "__pycache__/", "*.pyc"]})


def cpus_total() -> int:
    """CPUs of the nodes alive now (nodes may come and go during a run)."""
    return int(ray.cluster_resources().get("CPU", 0))


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


def ship_command(argv: list[str]) -> tuple[list[str], list[Shipped]]:
    """Ship the program of a command line if it is a file here (``target/release/kawari``,
    ``/opt/fsf``); a bare name (``python3``) is left to the worker's PATH. Returns the
    argv with the program replaced by ``{0}`` and the shipped files."""
    if argv and os.path.isfile(argv[0]) and os.sep in argv[0]:
        return ["{0}", *argv[1:]], [ship(argv[0])]
    return list(argv), []


def fetch_command(argv: list[str], shipped: list[tuple[str, str]], blobs: list[bytes]) -> list[str]:
    """On a worker: the argv of ``ship_command`` with the program written out here."""
    if shipped:
        (name, sha), = shipped
        program = local_copy(name, sha, blobs[0], executable=True)
        return [program if a == "{0}" else a for a in argv]
    return list(argv)


def describe(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)
