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
