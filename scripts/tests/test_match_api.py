"""The match as a library: a ``MatchConfig`` run by ``LocalRunner`` with a reporter
passed in; what the reporter hears and what ``run_match`` returns."""

import dataclasses
import json
import pickle
import shlex

import pytest
from conftest import stub

from kawari_tools import elo_stats, referee
from kawari_tools.games.clock import TimeControl
from kawari_tools.match import (
    ENGINE_FAILED,
    OK,
    LocalRunner,
    MatchConfig,
    Reporter,
    choose_openings,
    engine_specs,
    run_match,
)


class Recorder(Reporter):
    """Keeps every event, in order."""

    def __init__(self):
        self.events = []

    def header(self, state, where):
        self.events.append(("header", list(state.names), where))

    def game(self, state, rec):
        self.events.append(("game", rec.job.index, rec.outcome.reason, state.tally.games))

    def summary(self, state):
        self.events.append(("summary", state.tally.games))

    def warning(self, message):
        self.events.append(("warning", message))

    def error(self, message):
        self.events.append(("error", message))

    def kinds(self, kind):
        return [e for e in self.events if e[0] == kind]


def config(engine2: str, games: int, **kw) -> MatchConfig:
    variant = referee.get_variant("shogi")
    openings, source = choose_openings(variant, (games + 1) // 2, random_plies=2, seed=3)
    return MatchConfig(variant, engine_specs([stub("--seed", "1"), engine2], ["R", "X"]),
                       TimeControl("depth", depth=1), openings, games=games,
                       openings_source=source, max_plies=40, **kw)


def test_a_config_runs_locally_and_the_reporter_hears_every_game():
    rec = Recorder()
    result = run_match(config(stub("--mode", "resign"), 4), LocalRunner(2), rec)
    assert result.status == OK and result.ok and result.error is None
    assert result.names == ["R", "X"]
    t = result.tally
    assert (t.wins, t.draws, t.losses) == (4, 0, 0)
    assert t.reasons == {"resign": 4} and t.pentanomial == [0, 0, 0, 0, 2]
    assert rec.events[0] == ("header", ["R", "X"], "concurrency 2")
    games = rec.kinds("game")
    assert sorted(g[1] for g in games) == [0, 1, 2, 3]
    assert [g[3] for g in games] == [1, 2, 3, 4]       # the tally as each was counted
    assert all(g[2] == "resign" for g in games)
    assert rec.events[-1] == ("summary", 4)
    assert not rec.kinds("warning") and not rec.kinds("error")


def test_an_sprt_decision_stops_the_match_and_says_so():
    rec = Recorder()
    result = run_match(config(stub("--mode", "resign"), 400,
                              sprt=elo_stats.Sprt.parse("0,300,0.05,0.05")),
                       LocalRunner(1), rec)
    assert result.ok and result.sprt_result == "H1"
    assert result.tally.games == 12 and len(rec.kinds("game")) == 12
    assert result.llr >= elo_stats.Sprt.parse("0,300,0.05,0.05").upper


def test_an_engine_that_cannot_start_fails_the_match_with_its_reason(tmp_path):
    records = tmp_path / "r.jsonl"
    rec = Recorder()
    result = run_match(config(stub("--mode", "cpu"), 2, records=str(records)),
                       LocalRunner(1), rec)
    assert result.status == ENGINE_FAILED and not result.ok
    assert "exited with code 1 while waiting for usiok" in result.error
    assert rec.kinds("error") == [("error", result.error)]
    assert not rec.kinds("header") and not rec.kinds("summary")
    assert result.tally.games == 0 and records.read_text() == ""


def test_the_default_reporter_is_silent_and_the_default_runner_local(capsys):
    result = run_match(config(stub("--mode", "resign"), 2))
    assert result.ok and result.tally.wins == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ""


def test_a_config_checks_itself():
    good = config(stub(), 2)
    with pytest.raises(ValueError, match="exactly two engines"):
        MatchConfig(good.variant, good.engines[:1], good.tc, good.openings)
    with pytest.raises(ValueError, match="first opening 5: there are 1 openings"):
        MatchConfig(good.variant, good.engines, good.tc, good.openings, first_opening=4)
    assert engine_specs([shlex.join(["a b", "-x"])], options=["1:Hash=8"])[0].argv == \
        ["a b", "-x"]


def test_time_odds_reach_the_cluster_tasks_set_up():
    # what a Ray task is told is plain data (pickled, or JSON) and makes the same clocks
    ray_runner = pytest.importorskip("kawari_tools.match.ray_runner")
    five, ten = TimeControl.fischer("5+0.05"), TimeControl.fischer("10+0.1")
    for tc2 in (ten, None):
        c = config(stub(), 2)
        c = MatchConfig(c.variant, c.engines, five, c.openings, max_plies=40, tc2=tc2)
        setup = ray_runner.task_setup(c, "heian.ini", "0" * 64, [])
        wire = pickle.loads(pickle.dumps(json.loads(json.dumps(setup))))
        assert wire == setup and wire["tc"] == dataclasses.asdict(five)
        assert wire["tc2"] == (dataclasses.asdict(ten) if tc2 else None)
        player = ray_runner.player_of(wire)
        assert (player.tc, player.tc2) == (five, tc2 or five)
        assert (player.variant.name, player.max_plies) == ("shogi", 40)


def test_time_odds_in_a_config():
    c = config(stub(), 2)
    five, ten = TimeControl.fischer("5+0.05"), TimeControl.fischer("10+0.1")
    odds = MatchConfig(c.variant, c.engines, five, c.openings, tc2=ten)
    assert odds.time_odds and odds.describe_tc(["R", "X"]) == "R 5+0.05, X 10+0.1"
    same = MatchConfig(c.variant, c.engines, five, c.openings, tc2=TimeControl.fischer("5+0.05"))
    assert same.tc2 is None and same.describe_tc(["R", "X"]) == "5+0.05"
    with pytest.raises(ValueError, match="two clocks of one kind, not fischer and byoyomi"):
        MatchConfig(c.variant, c.engines, five, c.openings, tc2=TimeControl.byoyomi("0+1"))
