#!/usr/bin/env python3
"""A two-node Ray test cluster on loopback, for test_cluster.py.

Run inside a network namespace of its own (``unshare -n``), where 127.0.0.1 is the
only address there is; it brings ``lo`` up, starts a head and one worker node
(``ray.cluster_utils.Cluster``, how Ray tests itself) with usage statistics off,
prints ``HARNESS {"address": ...}`` on stdout (Ray prints there too) and then obeys
one command per stdin line:

  kill    wait until the worker node is running a task, kill it (no grace), add a
          fresh worker node in its place; answer ``HARNESS {"killed_busy": true}``
  kill-head  kill the head node (no grace); answer ``HARNESS {"head_killed": true}``
  quit    (or end of input) stop the cluster and exit

Tests run their drivers inside the same namespace with ``nsenter --net``.
"""

import json
import os
import subprocess
import sys
import time

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

NODE = {"num_cpus": 2, "object_store_memory": 150 * 1024 * 1024,
        "node_ip_address": "127.0.0.1", "include_dashboard": False}


def worker_busy(node_id: str) -> bool:
    free = ray._private.state.available_resources_per_node().get(node_id, {})
    return free.get("CPU", 0) < NODE["num_cpus"]


def answer(data: dict) -> None:
    print("HARNESS " + json.dumps(data), flush=True)


def main() -> int:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    cluster = Cluster(initialize_head=True, connect=True, head_node_args=dict(NODE))
    worker = cluster.add_node(**{k: v for k, v in NODE.items() if k != "include_dashboard"})
    cluster.wait_for_nodes()
    answer({"address": cluster.address})
    try:
        for line in sys.stdin:
            cmd = line.strip()
            if cmd == "kill":
                deadline = time.monotonic() + 60
                while not worker_busy(worker.node_id) and time.monotonic() < deadline:
                    time.sleep(0.05)
                busy = worker_busy(worker.node_id)
                cluster.remove_node(worker, allow_graceful=False)
                worker = cluster.add_node(**{k: v for k, v in NODE.items()
                                             if k != "include_dashboard"})
                answer({"killed_busy": busy})
            elif cmd == "kill-head":
                ray.shutdown()          # this driver first: Ray would end it with the head
                cluster.remove_node(cluster.head_node, allow_graceful=False)
                answer({"head_killed": True})
            elif cmd == "quit":
                break
    finally:
        ray.shutdown()
        cluster.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
