"""spsa.py: the gains, the update, convergence on a synthetic noisy objective,
params files and bounds, checkpoints and resume, and short real runs through kawari-match
(stub engines; Kawari's tune build when it is built)."""

import json
import math
import os
import random
import subprocess

import pytest
from conftest import REPO_ROOT, stub, tool

from kawari_tools import spsa as S

SPSA = tool("spsa")
KAWARI_TUNE = os.environ.get("KAWARI_TUNE_BIN") or os.path.join(
    REPO_ROOT, "target", "tune", "release", "kawari")


def param(name="X", start=100.0, lo=0.0, hi=200.0, c_end=10.0, r_end=0.01):
    return S.Param(name, start, lo, hi, c_end, r_end)


# --------------------------------------------------------------------------- gains

def test_gains_follow_fishtest():
    p = param(c_end=4.0, r_end=0.002)
    s = S.Schedule(total=1000)
    assert s.big_a == pytest.approx(100.0)
    assert s.c(p) == pytest.approx(4.0 * 1000 ** 0.101)
    assert s.a(p) == pytest.approx(0.002 * 16 * 1100 ** 0.602)
    # at the last pair the perturbation is c_end and a_k / c_k^2 is r_end
    assert s.c_k(p, 1000) == pytest.approx(4.0)
    assert s.a_k(p, 1000) / s.c_k(p, 1000) ** 2 == pytest.approx(0.002)
    # both decrease, c_k = c / k^gamma, a_k = a / (A + k)^alpha
    assert s.c_k(p, 1) == pytest.approx(s.c(p))
    assert s.a_k(p, 7) == pytest.approx(s.a(p) / 107 ** 0.602)
    for k in range(1, 1000):
        assert s.c_k(p, k) > s.c_k(p, k + 1)
        assert s.a_k(p, k) > s.a_k(p, k + 1)


def test_update_moves_theta_along_the_result():
    params = [param("X", 100), param("Y", 50)]
    s = S.Spsa(params, iterations=10, pairs=2, seed=5)
    pert = s.perturb()
    assert pert.k == 1
    for p, c, d, plus, minus in zip(params, pert.c_k, pert.delta, pert.plus, pert.minus):
        assert d in (-1, 1)
        assert plus == S.engine_value(p.theta + c * d)
        assert minus == S.engine_value(p.theta - c * d)
    s.update(pert, 2)             # plus won by two games
    for p, start, c, d in zip(params, (100, 50), pert.c_k, pert.delta):
        want = start + s.schedule.a_k(p, 1) / c * 2 * d
        assert p.theta == pytest.approx(want)
        assert (p.theta - start) * d > 0            # towards plus
    assert s.done == 1
    assert s.perturb().k == 3     # the gains count pairs: 2 per iteration


def test_theta_and_the_engines_stay_within_bounds():
    p = param("X", start=199.0, lo=10.0, hi=200.0, c_end=30.0, r_end=1.0)
    s = S.Spsa([p], iterations=50, seed=2)
    for _ in range(50):
        pert = s.perturb()
        assert 10 <= pert.plus[0] <= 200 and 10 <= pert.minus[0] <= 200
        # an enormous result pushes towards a bound, which holds
        s.update(pert, 2 * pert.delta[0])
        assert 10.0 <= p.theta <= 200.0
    assert p.theta == 200.0


def test_engine_values_round_halves_up():
    assert [S.engine_value(x) for x in (1.4, 1.5, 2.5, -0.5, -0.6)] == [1, 2, 3, 0, -1]


# --------------------------------------------------------------------------- a synthetic tuning

OPTIMUM = (130.0, 70.0)


def synthetic_elo(values):
    """A strength with its maximum at OPTIMUM: -60 Elo per (25 units)^2 away."""
    return -60.0 * sum(((v - o) / 25.0) ** 2 for v, o in zip(values, OPTIMUM))


def synthetic_play(seed):
    """Plays a pair of decisive games by the logistic model, noise seeded per pair."""
    def play(pert):
        rng = random.Random(f"{seed}:{pert.k}")
        diff = synthetic_elo(pert.plus) - synthetic_elo(pert.minus)
        p_win = 1.0 / (1.0 + 10.0 ** (-diff / 400.0))
        return sum(1 if rng.random() < p_win else -1 for _ in range(2))
    return play


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_approaches_the_optimum_of_a_noisy_objective(seed):
    # from (70, 130), 85 units from the optimum (130, 70)
    params = [param("X", 70, 0, 200, c_end=10, r_end=0.01),
              param("Y", 130, 0, 200, c_end=10, r_end=0.01)]
    s = S.Spsa(params, iterations=1000, seed=seed)
    play = synthetic_play(seed)
    while not s.finished:
        s.step(play)
    for p, o in zip(params, OPTIMUM):
        assert abs(p.theta - o) < 10, (p.name, p.theta)


# --------------------------------------------------------------------------- checkpoints

def run_to_end(s, play):
    while not s.finished:
        s.step(play)
    return s


def test_resume_continues_as_an_uninterrupted_run(tmp_path):
    def fresh():
        return S.Spsa([param("X", 70), param("Y", 130)], iterations=40, pairs=2, seed=9)

    play = synthetic_play(4)
    whole = run_to_end(fresh(), play)

    part = fresh()
    for _ in range(17):
        part.step(play)
    path = str(tmp_path / "ck.json")
    part.save(path)
    assert not os.path.exists(path + ".tmp")
    resumed = S.Spsa.load(path)
    assert resumed.done == 17
    run_to_end(resumed, play)

    assert resumed.history == whole.history
    assert [p.theta for p in resumed.params] == [p.theta for p in whole.params]
    assert resumed.rng.getstate() == whole.rng.getstate()
    # the state survives JSON exactly
    assert S.Spsa.from_state(json.loads(json.dumps(whole.state()))).state() == whole.state()


def test_checkpoint_of_another_version_is_refused():
    state = S.Spsa([param()], iterations=3).state()
    state["version"] = 99
    with pytest.raises(ValueError):
        S.Spsa.from_state(state)


# --------------------------------------------------------------------------- parameters

SPINS = {s.name: s for s in (S.Spin("RFP_MARGIN", 90, 45, 180), S.Spin("LMP_BASE", 4, 2, 8),
                             S.Spin("USI_Hash", 16, 1, 1024), S.Spin("MultiPV", 1, 1, 500))}


def test_params_file_fields_and_defaults():
    params = S.parse_params_file("""
        # name, start, min, max, c_end, r_end
        RFP_MARGIN, 100, 60, 160, 8, 0.003   # all given
        LMP_BASE, 5                          # the rest from the option
    """, SPINS)
    rfp, lmp = params
    assert (rfp.name, rfp.start, rfp.min, rfp.max, rfp.c_end, rfp.r_end, rfp.theta) == \
        ("RFP_MARGIN", 100, 60, 160, 8, 0.003, 100)
    assert (lmp.start, lmp.min, lmp.max, lmp.r_end) == (5, 2, 8, S.DEFAULT_R_END)
    assert lmp.c_end == 1.0       # range / 20 is 0.3: at least 1, or it rounds away


@pytest.mark.parametrize("text, error", [
    ("NO_SUCH, 1", "no spin option"),
    ("RFP_MARGIN, 200", "outside"),                    # start beyond the option's max
    ("RFP_MARGIN, 90, 40, 180", "exceeds"),            # below the engine's min
    ("RFP_MARGIN, 90, 100, 80", "below max"),
    ("RFP_MARGIN, 90, 45, 180, 0", "positive"),
    ("RFP_MARGIN, x", "could not convert"),
    ("RFP_MARGIN\nRFP_MARGIN", "twice"),
    ("RFP_MARGIN, 1, 2, 3, 4, 5, 6", "expected"),
    ("# nothing", "no parameters"),
])
def test_params_file_errors(text, error):
    with pytest.raises(ValueError, match=error):
        S.parse_params_file(text, SPINS)


def test_params_selection():
    assert [p.name for p in S.select_params(SPINS, None, None)] == ["RFP_MARGIN", "LMP_BASE"]
    chosen = S.select_params(SPINS, "LMP_BASE, RFP_MARGIN", None)
    assert [(p.name, p.theta, p.min, p.max) for p in chosen] == \
        [("LMP_BASE", 4, 2, 8), ("RFP_MARGIN", 90, 45, 180)]
    assert chosen[1].c_end == pytest.approx(135 / 20)
    with pytest.raises(ValueError, match="NOPE"):
        S.select_params(SPINS, "RFP_MARGIN,NOPE", None)
    with pytest.raises(S.EngineUnusable):
        S.select_params({"USI_Hash": SPINS["USI_Hash"]}, None, None)


def test_output_lines():
    s = S.Spsa([param("RFP_MARGIN", 93.5), param("LMP_BASE", 4.2)], iterations=1)
    assert s.setoption_lines() == ["setoption name RFP_MARGIN value 94",
                                   "setoption name LMP_BASE value 4"]
    assert s.rust_lines() == ["pub const RFP_MARGIN: i32 = 94;",
                              "pub const LMP_BASE: i32 = 4;"]


# --------------------------------------------------------------------------- runs

def run_spsa(*args, timeout=300):
    return subprocess.run([*SPSA, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO_ROOT)


STUB_SPINS = ("--spin", "RFP_MARGIN=90:45:180", "--spin", "LMP_BASE=4:2:8")


def test_help():
    out = run_spsa("--help", timeout=60)
    assert out.returncode == 0
    for word in ("--params-file", "--resume", "--cluster", "c_end", "r_end", "pub const"):
        assert word in out.stdout


def test_short_run_with_stub_engines(tmp_path):
    transcript = tmp_path / "transcript.txt"
    ck = tmp_path / "ck.json"
    records = tmp_path / "games.jsonl"
    engine = stub(*STUB_SPINS, "--transcript", str(transcript))
    out = run_spsa("--engine", engine, "--variant", "judkins", "--depth", "1",
                   "--max-plies", "16", "--iterations", "2", "--seed", "3",
                   "--checkpoint", str(ck), "--records", str(records))
    assert out.returncode == 0, out.stderr
    state = json.loads(ck.read_text())
    assert state["done"] == 2 and len(state["history"]) == 2
    assert [p["name"] for p in state["params"]] == ["RFP_MARGIN", "LMP_BASE"]
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 4
    assert {g["black"] for g in games} == {"plus", "minus"}
    # the engines got theta +- c_k per parameter, symmetric around the start
    sent = transcript.read_text()
    first = state["history"][0]
    for name, plus, minus, start in zip(("RFP_MARGIN", "LMP_BASE"), first["plus"],
                                        first["minus"], (90, 4)):
        assert f"setoption name {name} value {plus}" in sent
        assert f"setoption name {name} value {minus}" in sent
        assert plus != minus and abs(plus + minus - 2 * start) <= 1
    assert "[2/2]" in out.stderr and "theta RFP_MARGIN=" in out.stderr
    lines = out.stdout.splitlines()
    rfp, lmp = (math.floor(p["theta"] + 0.5) for p in state["params"])
    assert f"setoption name RFP_MARGIN value {rfp}" in lines
    assert f"pub const LMP_BASE: i32 = {lmp};" in lines


def test_resume_through_the_command_line(tmp_path):
    """A checkpoint after iteration 1 of 2: --resume plays iteration 2 with the
    perturbation an uninterrupted run would have drawn."""
    ck = tmp_path / "ck.json"
    s = S.Spsa([param("RFP_MARGIN", 90, 45, 180, 6.75, 0.002),
                param("LMP_BASE", 4, 2, 8, 0.3, 0.002)], iterations=2, seed=11)
    s.step(lambda pert: 1)
    s.save(str(ck))
    expected = S.Spsa.load(str(ck)).perturb()
    out = run_spsa("--engine", stub(*STUB_SPINS), "--variant", "judkins", "--depth", "1",
                   "--max-plies", "16", "--resume", "--checkpoint", str(ck),
                   "--iterations", "50", "--params", "LMP_BASE")   # ignored on resume
    assert out.returncode == 0, out.stderr
    state = json.loads(ck.read_text())
    assert state["done"] == 2 and state["iterations"] == 2
    assert state["history"][1]["plus"] == expected.plus
    assert state["history"][1]["minus"] == expected.minus
    assert "resumed after iteration 1" in out.stderr
    # a finished run resumed plays nothing and prints the result again
    again = run_spsa("--engine", stub(*STUB_SPINS), "--variant", "judkins", "--depth", "1",
                     "--resume", "--checkpoint", str(ck))
    assert again.returncode == 0 and "pub const RFP_MARGIN" in again.stdout
    assert json.loads(ck.read_text()) == state


def test_an_engine_without_tune_options_is_refused(tmp_path):
    out = run_spsa("--engine", stub(), "--variant", "judkins", "--depth", "1",
                   "--checkpoint", str(tmp_path / "ck.json"))
    assert out.returncode == 1 and "--features tune" in out.stderr


def _kawari_tune_reason():
    if not os.access(KAWARI_TUNE, os.X_OK):
        return f"no tune build at {KAWARI_TUNE} (cargo build --release --features tune " \
               f"--target-dir target/tune, or set KAWARI_TUNE_BIN)"
    try:
        spins = S.engine_spins([KAWARI_TUNE])
    except S.EngineUnusable as e:
        return str(e)
    if "RFP_MARGIN" not in spins:
        return f"{KAWARI_TUNE} is not a tune build"
    return None


@pytest.mark.skipif(_kawari_tune_reason() is not None, reason=str(_kawari_tune_reason()))
def test_short_run_with_kawari_tune_build(tmp_path):
    ck = tmp_path / "ck.json"
    args = ["--engine", KAWARI_TUNE, "--variant", "judkins", "--nodes", "1000",
            "--params", "RFP_MARGIN,LMR_BASE_X100", "--iterations", "2", "--seed", "5",
            "--max-plies", "200", "--checkpoint", str(ck)]
    out = run_spsa(*args)
    assert out.returncode == 0, out.stderr
    state = json.loads(ck.read_text())
    assert state["done"] == 2
    for p in state["params"]:
        assert p["min"] <= p["theta"] <= p["max"]
    assert "pub const LMR_BASE_X100: i32 = " in out.stdout
    # fixed nodes and a seed: the same run again gives the same results
    again = run_spsa(*args)
    assert again.returncode == 0
    assert json.loads(ck.read_text())["history"] == state["history"]
