"""kawari-match --cluster and kawari-datagen on a two-node Ray cluster that lives on
loopback only, in a network namespace of its own (cluster_harness.py): the same games
and records as a local run, also when a node is killed mid-run; an engine's crash is
a loss, not a retry; an SPRT decision ends the run. Skipped, with the reason, where a
namespace cannot be made or Ray is missing."""

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Optional

import pytest
from conftest import MATCH, TESTS_DIR, stub
from test_kawari import KAWARI, REQUIRED
from test_kawari import REASON as KAWARI_REASON
from test_probe import CPU_LINE

from kawari_tools import datagen

HARNESS = os.path.join(TESTS_DIR, "cluster_harness.py")
DATAGEN = ["-m", "kawari_tools.cli.datagen"]
# A match of two different engines (hand-made evaluation against the network), so
# the two games of a pair differ; fixed nodes per move make it deterministic. No
# --name: the records carry the engines' own names, as locally.
MATCH_ARGS = ["--variant", "judkins", "--engine", KAWARI, "--engine", KAWARI,
              "--option", "1:UseNNUE=false",
              "--nodes", "1500", "--seed", "11", "--max-plies", "200"]
DATAGEN_ARGS = ["--variant", "judkins", "--nodes", "400", "--seed", "3"]


def _cannot_cluster():
    try:
        import ray  # noqa: F401
    except ImportError:
        return "ray is not installed (pip install -e 'scripts[cluster]')"
    missing = [t for t in ("unshare", "nsenter", "ip") if shutil.which(t) is None]
    if missing:
        return f"{', '.join(missing)} not found: no network namespace for the test cluster"
    try:
        subprocess.run(["unshare", "-n", "true"], check=True, capture_output=True, timeout=10)
        subprocess.run(["nsenter", "--version"], check=True, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as e:
        return (f"cannot make a network namespace ({e}); the cluster tests run only on "
                f"loopback in a namespace of their own (unshare -n, as root)")
    return None


class Harness:
    """The test cluster's process (in its own network namespace) and its address."""

    def __init__(self, log_path: str):
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(["unshare", "-n", sys.executable, HARNESS],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True)
        self.address = self.answer(180)["address"]

    def answer(self, timeout: float) -> dict:
        """The harness's next answer; Ray's own lines on its stdout are passed over."""
        deadline = time.monotonic() + timeout
        while True:
            out: queue.Queue = queue.Queue()
            threading.Thread(target=lambda q=out: q.put(self.proc.stdout.readline()),
                             daemon=True).start()
            try:
                line = out.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the cluster harness said nothing in {timeout} s "
                                     f"(log: {self.log.name})") from None
            assert line, f"the cluster harness exited (log: {self.log.name})"
            if line.startswith("HARNESS "):
                return json.loads(line[len("HARNESS "):])

    def kill_worker(self) -> dict:
        return self.command("kill")

    def command(self, cmd: str) -> dict:
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return self.answer(120)

    def inside(self, argv: list[str]) -> list[str]:
        """``argv`` run in the cluster's network namespace."""
        return ["nsenter", f"--net=/proc/{self.proc.pid}/ns/net", *argv]

    def stop(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()           # the harness we started, by its handle
            self.proc.wait(timeout=10)
        self.log.close()


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    if KAWARI_REASON is not None:
        if REQUIRED:
            pytest.fail(KAWARI_REASON)
        pytest.skip(KAWARI_REASON)
    reason = _cannot_cluster()
    if reason:
        pytest.skip(reason)
    harness = Harness(str(tmp_path_factory.mktemp("ray") / "harness.log"))
    yield harness
    harness.stop()


class Driver:
    """A driver process (kawari-match or kawari-datagen) inside the namespace, its stderr
    read line by line so a test can act in the middle of the run."""

    def __init__(self, cluster: Harness, argv: list[str], env: Optional[dict] = None):
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", **(env or {}))
        self.proc = subprocess.Popen(cluster.inside([sys.executable, *argv]),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.err_lines: queue.Queue = queue.Queue()
        self.stderr: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)
            self.err_lines.put(line)
        self.err_lines.put(None)

    def wait_for_line(self, start: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while True:
            line = self.err_lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "".join(self.stderr)
            if line.startswith(start):
                return line

    def finish(self, timeout: float = 300) -> tuple[int, str, str]:
        out = self.proc.stdout.read()
        self.proc.wait(timeout=timeout)
        self.reader.join(timeout=10)
        return self.proc.returncode, out, "".join(self.stderr)


def comparable(records: list[dict]) -> list[dict]:
    """Records without what differs between any two runs (times, start time)."""
    return sorted(({k: v for k, v in r.items() if k not in ("times_ms", "started")}
                   for r in records), key=lambda r: r["game"])


def read_records(path) -> list[dict]:
    return [json.loads(line) for line in open(path) if line.strip()]


def chunks(path) -> list[bytes]:
    data = open(path, "rb").read()
    assert len(data) % datagen.RECORD_BYTES == 0
    return sorted(data[i:i + datagen.RECORD_BYTES]
                  for i in range(0, len(data), datagen.RECORD_BYTES))


def local_datagen(tmp_path, games: int) -> list[bytes]:
    out = tmp_path / f"local{games}.bin"
    subprocess.run([KAWARI, "datagen", *DATAGEN_ARGS, "--games", str(games), "--threads", "1",
                    "--out", str(out)], check=True, capture_output=True, timeout=300)
    return chunks(out)


# --------------------------------------------------------------------------- match

def untimed(summary: str) -> str:
    """A match summary without its think-time and clock lines (wall-clock figures
    that differ from run to run)."""
    return "\n".join(line for line in summary.splitlines()
                     if not line.startswith(("Think time per move:", "Clock left at game end:")))


def test_local_match_does_not_import_ray():
    code = ("import sys; from kawari_tools.cli import match; "
            "rc = match.main(['--variant', 'shogi', '--engine', %r, "
            "'--engine', %r, '--games', '2', '--depth', '1', '--max-plies', '20', '--quiet']); "
            "print('ray' in sys.modules, rc)") % (stub(), stub())
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120).stdout
    assert out.splitlines()[-1] == "False 0", out


def test_cluster_match_plays_the_local_games(ray_cluster, run_match, tmp_path):
    local = run_match(*MATCH_ARGS, "--games", "6")
    records = tmp_path / "cluster.jsonl"
    rc, out, err = Driver(ray_cluster, [*MATCH, *MATCH_ARGS, "--games", "6", "--records",
                                        str(records), "--cluster", ray_cluster.address]).finish()
    assert rc == 0, err
    assert untimed(out) == untimed(local.stdout)    # summary, Elo, cutechess lines
    assert "Think time per move: " in out
    assert comparable(read_records(records)) == comparable(local.records)
    assert f"cluster {ray_cluster.address}" in err, err
    assert "[6/6]" in err and "games/s" in err


def test_a_node_killed_during_a_match_costs_nothing(ray_cluster, run_match, tmp_path):
    local = run_match(*MATCH_ARGS, "--games", "12")
    records = tmp_path / "cluster.jsonl"
    driver = Driver(ray_cluster, [*MATCH, *MATCH_ARGS, "--games", "12", "--records",
                                  str(records), "--cluster", ray_cluster.address])
    driver.wait_for_line("[1/12]")
    assert ray_cluster.kill_worker() == {"killed_busy": True}
    rc, out, err = driver.finish()
    assert rc == 0, err
    assert untimed(out) == untimed(local.stdout)
    got = read_records(records)
    assert sorted(r["game"] for r in got) == list(range(1, 13))     # none lost or twice
    assert comparable(got) == comparable(local.records)


def test_an_engine_crash_on_the_cluster_is_a_loss(ray_cluster, tmp_path):
    records = tmp_path / "crash.jsonl"
    rc, out, err = Driver(ray_cluster, [
        *MATCH, "--variant", "shogi", "--engine", stub(), "--engine",
        stub("--mode", "crash", "--after", "2"), "--name", "R", "--name", "X", "--games", "2",
        "--depth", "1", "--records", str(records), "--cluster", ray_cluster.address]).finish()
    assert rc == 0, err
    assert "Crashes: R 0, X 2" in out and "Score of R vs X: 2 - 0 - 0" in out
    assert [r["reason"] for r in read_records(records)] == ["crash", "crash"]


def test_an_sprt_decision_ends_the_cluster_match(ray_cluster):
    # X resigns every game: every pair is a double win, and the SPRT accepts H1 with
    # the sixth pair (as a local run does: 0,300 decides after 12 games). A task's two
    # games come back together, so the count is 12 whatever the order of the answers;
    # the pairs still running then are left to end with the job and not counted.
    t0 = time.monotonic()
    rc, out, err = Driver(ray_cluster, [
        *MATCH, "--variant", "shogi", "--engine", stub(), "--engine", stub("--mode", "resign"),
        "--name", "R", "--name", "X", "--games", "400", "--depth", "1",
        "--sprt", "0,300,0.05,0.05", "--cluster", ray_cluster.address]).finish()
    assert rc == 0, err
    assert "Finished 12 of 400 games" in out and "H1 was accepted" in out
    assert "Pentanomial [LL LD DD+WL WD WW]: [0, 0, 0, 0, 6]" in out
    assert "Score of R vs X: 12 - 0 - 0  [1.000] 12" in out
    assert "LLR" in err
    assert time.monotonic() - t0 < 60


def test_a_lost_head_ends_the_match_with_what_finished(ray_cluster, tmp_path):
    # a cluster of its own: this one's head goes (the module's cluster is only there
    # to skip or fail this test as the others). Ray's driver keeps pushing tasks to the
    # workers it already leased when the head is gone, so the match must be far longer
    # than the 10 s the watch waits: 40 games once finished in that time (about 4.6
    # games a second) and the match ended normally, with status 0.
    doomed = Harness(str(tmp_path / "harness.log"))
    try:
        records = tmp_path / "lost.jsonl"
        driver = Driver(doomed, [*MATCH, *MATCH_ARGS, "--games", "1000", "--records",
                                 str(records), "--cluster", doomed.address])
        driver.wait_for_line("[2/1000]")
        assert doomed.command("kill-head") == {"head_killed": True}
        t0 = time.monotonic()
        rc, out, err = driver.finish(timeout=120)
        took = time.monotonic() - t0
    finally:
        doomed.stop()
    assert rc == 4, err
    assert "error: lost the Ray cluster" in err and "has not answered for 10 s" in err
    assert took < 40                                 # not Ray's own 60 s
    finished = int(out.split("Finished ")[1].split()[0])
    got = read_records(records)
    assert 2 <= finished == len(got) < 1000, out
    assert len({r["game"] for r in got}) == len(got)


def test_a_pair_no_node_can_hold_is_refused(ray_cluster):
    rc, out, err = Driver(ray_cluster, [*MATCH, *MATCH_ARGS, "--games", "2", "--option",
                                        "Threads=2", "--cluster", ray_cluster.address]).finish()
    assert rc == 1 and out == ""
    assert "asks for 4 CPUs, but the largest node of the cluster has 2" in err


def test_workers_that_cannot_run_an_engine_get_no_games(ray_cluster, tmp_path):
    # engine 2 runs where the driver runs (it has the variable) and refuses the CPU
    # on the workers (their processes come from the cluster, without it): both nodes
    # are probed, reported with the engine's own line, and no game is played
    records = tmp_path / "probe.jsonl"
    rc, out, err = Driver(ray_cluster, [
        *MATCH, "--variant", "shogi", "--engine", stub(), "--engine",
        stub("--mode", "cpu", "--only-without", "KAWARI_PROBE_DRIVER"), "--name", "R",
        "--name", "X", "--games", "4", "--depth", "1", "--records", str(records),
        "--cluster", ray_cluster.address], env={"KAWARI_PROBE_DRIVER": "1"}).finish()
    assert rc == 1 and out == "", err
    refusals = [line for line in err.splitlines() if "cannot run engine 2 (X)" in line]
    assert len(refusals) == 2, err                  # the head and the worker
    for line in refusals:
        assert line.startswith("warning: node 127.0.0.1 (") and line.endswith(
            f"exited with code 1 before usiok: {CPU_LINE}; it gets no work"), line
    assert "error: no node of the cluster can run the engines" in err
    assert not records.exists() or records.read_text() == ""


# --------------------------------------------------------------------------- datagen

def test_cluster_datagen_writes_the_local_records(ray_cluster, tmp_path):
    out = tmp_path / "cluster.bin"
    rc, _, err = Driver(ray_cluster, [*DATAGEN, "--cluster", ray_cluster.address,
                                      "--kawari", KAWARI, *DATAGEN_ARGS, "--games", "8",
                                      "--shard-games", "3", "--out", str(out)]).finish()
    assert rc == 0, err
    assert "datagen: 8/8 games" in err
    assert chunks(out) == local_datagen(tmp_path, 8)


def test_a_node_killed_during_datagen_costs_nothing(ray_cluster, tmp_path):
    out = tmp_path / "cluster.bin"
    driver = Driver(ray_cluster, [*DATAGEN, "--cluster", ray_cluster.address, "--kawari",
                                  KAWARI, *DATAGEN_ARGS, "--games", "16", "--shard-games", "1",
                                  "--out", str(out)])
    driver.wait_for_line("datagen: 1/16")
    assert ray_cluster.kill_worker() == {"killed_busy": True}
    rc, _, err = driver.finish()
    assert rc == 0, err
    assert chunks(out) == local_datagen(tmp_path, 16)


def test_datagen_leaves_out_workers_that_cannot_run_kawari(ray_cluster, tmp_path):
    # a "kawari" that runs where the driver runs and refuses the CPU on the workers
    wrapper = tmp_path / "kawari-wrapper"
    wrapper.write_text(f'#!/bin/sh\nif [ -z "$KAWARI_PROBE_DRIVER" ]; then\n'
                       f'  echo "{CPU_LINE}" >&2; exit 1\nfi\nexec {KAWARI} "$@"\n')
    wrapper.chmod(0o755)
    out = tmp_path / "probe.bin"
    rc, _, err = Driver(ray_cluster, [*DATAGEN, "--cluster", ray_cluster.address, "--kawari",
                                      str(wrapper), *DATAGEN_ARGS, "--games", "2",
                                      "--out", str(out)],
                        env={"KAWARI_PROBE_DRIVER": "1"}).finish()
    assert rc == 1, err
    refusals = [line for line in err.splitlines() if "cannot run kawari: " in line]
    assert len(refusals) == 2, err                  # the head and the worker
    assert all(line.endswith(f"exited with code 1 before usiok: {CPU_LINE}; it gets no work")
               for line in refusals), refusals
    assert "error: no node of the cluster can run kawari" in err
    assert not out.exists() or out.stat().st_size == 0


def test_a_stopped_datagen_run_goes_on_where_it_stopped(ray_cluster, tmp_path):
    out = tmp_path / "cluster.bin"
    argv = [*DATAGEN, "--cluster", ray_cluster.address, "--kawari", KAWARI, *DATAGEN_ARGS,
            "--games", "12", "--shard-games", "1", "--out", str(out)]
    first = Driver(ray_cluster, argv)
    first.wait_for_line("datagen: 1/12")
    first.proc.send_signal(signal.SIGINT)            # our own driver process
    rc, _, err = first.finish()
    assert rc == 130, err
    done = sum(e["count"] for e in map(json.loads, open(f"{out}.journal")) if "count" in e)
    assert 1 <= done < 12, err
    with open(out, "ab") as f:
        f.write(b"\x01" * 200)                         # a shard cut off mid-write
    rc, _, err = Driver(ray_cluster, argv).finish()
    assert rc == 0, err
    assert f"resumed after {done} games" in err
    assert chunks(out) == local_datagen(tmp_path, 12)
