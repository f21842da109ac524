"""Self-play training data from a Ray cluster: ``kawari datagen`` split into shards.

    kawari-datagen --cluster auto --variant judkins --games 10000 \\
        --nodes 5000 --seed 1 --out judkins.bin

Takes ``kawari datagen``'s options. The games ``0 .. games-1`` are cut into shards
of consecutive indices; each shard is a Ray task that runs ``kawari datagen`` on its
worker (the binary, and ``--eval-file``, travel through the object store) with
``--seed seed+first`` (so game ``i`` is played from ``seed + i``, as locally) and
sends the records back; the driver sets each record's game index to ``first + j``
and appends the shard to the one output file. The file then holds exactly the
records a local ``kawari datagen`` with the same build and options writes (as a
multiset: shards finish in any order). Format: src/learn/record.rs, 128 bytes
per record.

Resuming: every shard appended is noted in ``OUT.journal`` (after its records are
on disk), so a run stopped and started again cuts off a shard written only in part
and plays only the games not yet journaled. A file that ``kawari datagen`` wrote
(no journal) is continued after its highest game index, as kawari itself would.
A worker or node that dies mid-shard loses nothing: Ray runs the shard again
elsewhere, and only a finished shard's records are written, once.

Exit status: 0 when the file holds all the games, 1 if a shard failed (kawari's
error is shown) or the cluster cannot be joined, 2 on bad arguments or a journal of
other settings, 4 if the cluster went away (the shards finished are on disk).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time
from collections import deque
from typing import Optional, Union

from kawari_tools import probe, progress

RECORD_BYTES = 128
GAME_AT = 10            # u32, little endian: the game's index in the run
# kawari datagen's options that decide which records a game gives (--games and
# --threads do not): a journal of other values cannot be continued.
RECORD_OPTIONS = ("variant", "nodes", "random_plies", "max_plies", "seed", "hash",
                  "hand_made")
QUEUE_FACTOR = 2
PROGRESS_EVERY_S = 5.0


# --------------------------------------------------------------------------- records

def game_of(record: bytes) -> int:
    return struct.unpack_from("<I", record, GAME_AT)[0]


def renumber(data: bytes, first: int) -> bytes:
    """Records of a shard run from index 0: add ``first`` to every game index."""
    if len(data) % RECORD_BYTES:
        raise ValueError(f"{len(data)} bytes is not a whole number of records")
    out = bytearray(data)
    for at in range(GAME_AT, len(out), RECORD_BYTES):
        struct.pack_into("<I", out, at, struct.unpack_from("<I", out, at)[0] + first)
    return bytes(out)


# --------------------------------------------------------------------------- journal

def ranges_missing(total: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[first, end)`` ranges of ``0 .. total-1`` not covered by ``done``."""
    out, at = [], 0
    for first, end in sorted(done):
        if first > at:
            out.append((at, min(first, total)))
        at = max(at, end)
    if at < total:
        out.append((at, total))
    return [(a, b) for a, b in out if a < b]


def shards(missing: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """``(first, count)`` shards of at most ``size`` games covering ``missing``."""
    return [(a, min(size, end - a)) for first, end in missing for a in range(first, end, size)]


class Journal:
    """``OUT.journal``: a header with the settings, then one line per shard written:
    its games and the file's length after it. The data file is only ever appended to,
    so its valid part is the length the last line names."""

    def __init__(self, out: str, header: dict):
        self.out = out
        self.path = out + ".journal"
        self.header = header
        self.done: list[tuple[int, int]] = []
        self.length = 0

    def open(self) -> int:
        """Read or start the journal; cut the data file to its valid part. Returns the
        games done before this run. ValueError if it cannot be continued."""
        if os.path.exists(self.path):
            self._read()
        else:
            self._adopt()
        size = os.path.getsize(self.out) if os.path.exists(self.out) else 0
        if size < self.length:
            raise ValueError(f"{self.out} has {size} bytes, fewer than the {self.length} "
                             f"its journal records: it was changed by something else")
        if size > self.length:
            # a shard appended in part (or in full but not journaled) when a run
            # stopped: cut it off; its games are still missing, so they are played again
            with open(self.out, "r+b") as f:
                f.truncate(self.length)
        return sum(end - first for first, end in self.done)

    def _read(self) -> None:
        with open(self.path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        entries = []
        for line in lines:
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                break               # a line cut off by a stop: the shard is redone
        if not entries or entries[0].get("kind") != "header":
            raise ValueError(f"{self.path}: not a datagen journal")
        old = entries[0]
        for key in ("options", "kawari_sha256"):
            if old.get(key) != self.header[key]:
                raise ValueError(f"{self.path} was written with other {key}: "
                                 f"{old.get(key)} (now {self.header[key]}); use another --out")
        for e in entries[1:]:
            self.done.append((e["first"], e["first"] + e["count"]))
            self.length = e["bytes_end"]
        # rewrite without a cut-off last line, so that appends start on a line
        with open(self.path, "w", encoding="utf-8") as f:
            f.write("".join(json.dumps(e) + "\n" for e in entries))

    def _adopt(self) -> None:
        """No journal: a new file, or one of ``kawari datagen`` (continued after its
        highest game index, as kawari does)."""
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"kind": "header", **self.header}) + "\n")
        if not os.path.exists(self.out):
            return
        size = os.path.getsize(self.out)
        whole = size - size % RECORD_BYTES
        last = -1
        with open(self.out, "rb") as f:
            while True:
                r = f.read(RECORD_BYTES)
                if len(r) < RECORD_BYTES:
                    break
                last = max(last, game_of(r))
        self.length = whole
        if last >= 0:
            self.note(0, last + 1, whole // RECORD_BYTES, adopted=True)

    def note(self, first: int, count: int, records: int, adopted: bool = False) -> None:
        """Journal a shard whose records are on disk."""
        self.done.append((first, first + count))
        entry = {"kind": "shard", "first": first, "count": count, "records": records,
                 "bytes_end": self.length}
        if adopted:
            entry["adopted"] = True
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())


# --------------------------------------------------------------------------- task

def kawari_argv(kawari: str, o: dict, first: int, count: int, out: str,
                eval_file: Optional[str], book: Optional[str] = None) -> list[str]:
    """``kawari datagen`` for the games ``first .. first+count-1`` of run ``o``."""
    argv = [kawari, "datagen", "--variant", o["variant"], "--games", str(count),
            "--nodes", str(o["nodes"]), "--random-plies", str(o["random_plies"]),
            "--max-plies", str(o["max_plies"]), "--seed", str(o["seed"] + first),
            "--threads", str(o["threads"]), "--hash", str(o["hash"]), "--out", out]
    if eval_file:
        argv += ["--eval-file", eval_file]
    if o["hand_made"]:
        argv += ["--hand-made", "true"]
    # kawari's own defaults (in-check positions at --nodes, games ended at a proven
    # mate) are not repeated, so the argv of older runs stays as it was
    if o.get("check_nodes") is not None:
        argv += ["--check-nodes", str(o["check_nodes"])]
    if not o.get("adjudicate_mates", True):
        argv += ["--adjudicate-mates", "false"]
    if book:
        # kawari takes game i's line from its seed: with --seed seed+first the shard's
        # games start from the lines a single run gives them
        argv += ["--book", book]
    return argv


def play_shard(o: dict, first: int, count: int, kawari: tuple, net: Optional[tuple],
               kawari_data: bytes, net_data: Optional[bytes],
               book: Optional[tuple] = None, book_data: Optional[bytes] = None
               ) -> Union[bytes, dict]:
    """On a worker: run the shard with kawari datagen; its records, renumbered, or
    ``{"node": id, "unusable": why}`` when kawari does not run on this node."""
    import ray

    from kawari_tools import cluster, probe
    binary = cluster.local_copy(*kawari, kawari_data, executable=True)
    why = probe.probe([binary])
    if why is not None:
        return {"node": ray.get_runtime_context().get_node_id(), "unusable": f"kawari: {why}"}
    eval_file = cluster.local_copy(*net, net_data) if net else None
    book_file = cluster.local_copy(*book, book_data) if book else None
    with tempfile.TemporaryDirectory(prefix="kawari-shard-") as tmp:
        out = os.path.join(tmp, "shard.bin")
        proc = subprocess.run(kawari_argv(binary, o, first, count, out, eval_file, book_file),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"kawari datagen (games {first}..{first + count - 1}) exited "
                               f"with code {proc.returncode}: {proc.stderr.strip()[-500:]}")
        with open(out, "rb") as f:
            return renumber(f.read(), first)


# --------------------------------------------------------------------------- driver

def sha256_of(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class NoWorkers(Exception):
    """Every node of the cluster has failed the probe."""


class Driver:
    """Sends the missing shards to the cluster and writes their records as they come.
    ``a`` holds the settings under kawari-datagen's option names (``cluster``,
    ``kawari``, ``games``, ``out``, ``threads``, ``shard_games``, ``eval_file``,
    ``book``, ``variant``, ``quiet``); ``o`` the options every shard plays by."""

    def __init__(self, a: argparse.Namespace, o: dict, journal: Journal, before: int):
        self.a, self.o, self.journal, self.before = a, o, journal, before
        self.games = self.positions = 0
        self.progress = progress.Progress(a.games, "games", already=min(before, a.games))
        self.last_report = 0.0

    def run(self) -> int:
        a = self.a
        missing = ranges_missing(a.games, self.journal.done)
        if not missing:
            self.report_end()
            return 0
        from kawari_tools import cluster  # Ray: only now
        try:
            with cluster.session(a.cluster) as watch:
                status = self.play(missing, watch)
        except cluster.JoinError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        self.report_end()
        if status == 4:
            cluster.exit_now(4)
        return status

    def play(self, missing: list[tuple[int, int]], watch) -> int:
        """Send the shards, write the records as they come; the exit status."""
        import ray

        from kawari_tools import cluster
        a = self.a
        cluster.check_fits(a.threads, "each shard (--threads)")
        todo = sum(end - first for first, end in missing)
        slots = max(1, cluster.cpus_total() // a.threads)
        size = a.shard_games or max(1, min(50, math.ceil(todo / (4 * slots))))
        work = deque(shards(missing, size))
        kawari = cluster.ship(a.kawari)
        workers = cluster.Workers(lambda m: print(f"warning: {m}", file=sys.stderr, flush=True))
        workers.probe([{"label": "kawari", "argv": ["{0}"],
                        "shipped": [(kawari.name, kawari.sha256)]}], [kawari.ref],
                      probe.PROBE_TIMEOUT_S)
        if not workers.usable(a.threads):
            print("error: no node of the cluster can run kawari (see the warnings above)",
                  file=sys.stderr)
            return 1
        net = cluster.ship(a.eval_file) if a.eval_file else None
        book = cluster.ship(a.book) if a.book else None
        # by reference to this module, which the job ships to the workers
        task = ray.remote(max_retries=cluster.TASK_RETRIES,
                          retry_exceptions=False)(play_shard)
        if not a.quiet:
            print(f"datagen: {a.variant}, {todo} games to play in {len(work)} shards of up to "
                  f"{size} on {ray.get_runtime_context().gcs_address} ({cluster.cpus_total()} "
                  f"CPUs, {a.threads} per shard); {self.before} games already in {a.out}",
                  file=sys.stderr, flush=True)
        inflight: dict = {}
        status = 0
        try:
            while work or inflight:
                window = max(1, QUEUE_FACTOR * watch.cpus // a.threads)
                while work and len(inflight) < window:
                    first, count = work.popleft()
                    ref = task.options(**workers.options(a.threads)).remote(
                        self.o, first, count, (kawari.name, kawari.sha256),
                        (net.name, net.sha256) if net else None, kawari.ref,
                        net.ref if net else None,
                        (book.name, book.sha256) if book else None,
                        book.ref if book else None)
                    inflight[ref] = (first, count)
                ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
                watch.check()
                for ref in ready:
                    first, count = inflight.pop(ref)
                    answer = ray.get(ref)
                    if isinstance(answer, dict):        # kawari does not run there
                        workers.reject(answer["node"], answer["unusable"])
                        work.appendleft((first, count))
                        if not workers.usable(a.threads):
                            raise NoWorkers()
                        continue
                    self.write(first, count, answer)
        except KeyboardInterrupt:
            print("\ninterrupted; the shards written are kept (run again to go on)",
                  file=sys.stderr)
            status = 130
        except NoWorkers:
            print("error: no node of the cluster can run kawari (see the warnings above)",
                  file=sys.stderr)
            status = 1
        except ray.exceptions.RayTaskError as e:
            print(f"error: a shard failed: {e}", file=sys.stderr)
            status = 1
        except Exception as e:
            print(f"error: lost the Ray cluster ({type(e).__name__}: {e}); the shards "
                  f"finished are in {a.out} (run again to go on)", file=sys.stderr)
            status = 4
        # The shards still in flight are left to end with this job: Ray kills a job's
        # workers when its driver leaves. Cancelling them here raced with a shard
        # that was just finishing and crashed Ray's core worker (Ray 2.60, "Tried to
        # complete task that was not pending"), ending an interrupted run with 1.
        return status

    def write(self, first: int, count: int, data: bytes) -> None:
        """Append a shard's records, make them durable, then journal the shard."""
        with open(self.a.out, "ab") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        self.journal.length += len(data)
        self.journal.note(first, count, len(data) // RECORD_BYTES)
        self.games += count
        self.positions += len(data) // RECORD_BYTES
        self.progress.add(count)
        now = time.monotonic()
        if not self.a.quiet and (now - self.last_report >= PROGRESS_EVERY_S
                                 or self.progress.done >= self.progress.total):
            self.last_report = now
            r = self.progress.rate()
            per_hour = self.positions / self.games * r * 3600 if r else 0.0
            print(f"datagen: {self.progress.text()}; {self.positions} positions "
                  f"({per_hour:,.0f}/h)", file=sys.stderr, flush=True)

    def report_end(self) -> None:
        total = sum(end - first for first, end in self.journal.done)
        print(f"{self.games} games, {self.positions} positions written to {self.a.out} "
              f"(resumed after {self.before} games; the file holds {total} games, "
              f"{self.journal.length // RECORD_BYTES} positions)", file=sys.stderr)

