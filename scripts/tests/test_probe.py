"""The worker probe (kawari_tools.probe): an engine that starts and answers ``usi``
passes; one that dies at once is reported with why, in one line, ending with what
it said on stderr."""

import sys

from conftest import STUB

from kawari_tools.probe import probe

CPU_LINE = "stub: this binary needs a CPU with AVX2 and BMI2, which this machine lacks"


def stub_argv(*extra: str) -> list[str]:
    return [sys.executable, STUB, *extra]


def test_an_engine_that_answers_usiok_passes():
    assert probe(stub_argv()) is None


def test_a_binary_that_refuses_the_cpu_is_reported_with_its_line():
    why = probe(stub_argv("--mode", "cpu"))
    assert why == f"{sys.executable} exited with code 1 before usiok: {CPU_LINE}"


def test_a_binary_killed_by_an_illegal_instruction_says_so():
    why = probe(stub_argv("--mode", "sigill"))
    assert why == f"{sys.executable} was killed by SIGILL (illegal instruction) before usiok"


def test_the_cpu_check_follows_the_environment(monkeypatch):
    # the stub of the cluster test: refuses where the variable is missing
    monkeypatch.delenv("KAWARI_PROBE_TEST", raising=False)
    assert CPU_LINE in probe(stub_argv("--mode", "cpu", "--only-without", "KAWARI_PROBE_TEST"))
    monkeypatch.setenv("KAWARI_PROBE_TEST", "1")
    assert probe(stub_argv("--mode", "cpu", "--only-without", "KAWARI_PROBE_TEST")) is None


def test_a_missing_program_and_a_silent_one_are_reported(tmp_path):
    missing = str(tmp_path / "no-such-engine")
    assert probe([missing]).startswith(f"cannot start {missing}: ")
    assert probe(stub_argv("--mode", "mute"), timeout=0.5) == \
        f"{sys.executable} did not answer usi with usiok within 0.5 s"
    # an engine that answers something else and exits: its exit, not a hang
    assert probe(stub_argv("--mode", "dead")) == \
        f"{sys.executable} exited with code 5 before usiok"


def test_a_node_lost_before_its_probe_answers_gets_no_work(monkeypatch):
    """A node that dies between the listing and its probe (Ray then raises for its
    task) is left out with a warning; the other nodes' answers still count."""
    ray = __import__("pytest").importorskip("ray")
    from kawari_tools import cluster

    nodes = [{"NodeID": "a" * 56, "Alive": True, "NodeManagerAddress": "10.0.0.1",
              "Resources": {"CPU": 2}},
             {"NodeID": "b" * 56, "Alive": True, "NodeManagerAddress": "10.0.0.2",
              "Resources": {"CPU": 2}}]

    class Task:
        def options(self, scheduling_strategy):
            self.node = scheduling_strategy.node_id
            return self

        def remote(self, *args):
            return self.node

    def get(node):
        if node == "a" * 56:
            raise ray.exceptions.TaskUnschedulableError("the node is gone")
        return {"node": node, "why": "kawari: exited with code 1 before usiok: no AVX2"}

    monkeypatch.setattr(cluster.ray, "nodes", lambda: nodes)
    monkeypatch.setattr(cluster.ray, "get", get)
    monkeypatch.setattr(cluster, "probe_node", Task())
    warnings = []
    workers = cluster.Workers(warnings.append)
    workers.probe([{"label": "kawari", "argv": ["{0}"]}], [], 1.0)
    assert warnings == [
        f"node 10.0.0.1 ({'a' * 8}) was lost before its probe answered "
        "(TaskUnschedulableError); it gets no work",
        f"node 10.0.0.2 ({'b' * 8}) cannot run kawari: exited with code 1 before usiok: "
        "no AVX2; it gets no work",
    ]
    assert set(workers.bad) == {"a" * 56, "b" * 56}
    assert not workers.usable(1)
