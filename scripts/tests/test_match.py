"""kawari-match end to end against stub engines: misbehaving engines are caught and scored,
time controls forfeit, openings and records, options, SPRT, a short match per variant."""

import os
import re

import pytest
from conftest import REPO_ROOT, stub

from kawari_tools import paths
from kawari_tools import referee as R
from kawari_tools.cli import match
from kawari_tools.games.clock import TimeControl, go_command, start_clocks
from kawari_tools.games.openings import (
    Opening,
    default_openings_path,
    load_openings,
    random_openings,
)
from kawari_tools.games.records import GameJob, GameRecord
from kawari_tools.match import DEFAULT_RANDOM_PLIES, parse_options

VALID_REASONS = {"checkmate", "stalemate", "repetition", "perpetual check", "bare king",
                 "declaration", "false declaration", "impasse", "move cap", "illegal move",
                 "time forfeit", "crash", "stalled", "resign"}


def replay(record):
    """Replay a record with a fresh referee; check its final position and result."""
    ref = R.Referee(record["variant"], record["start_sfen"], record["moves"])
    assert ref.sfen == record["end_sfen"]
    return ref


# --------------------------------------------------------------------------- random games

@pytest.mark.parametrize("variant", list(R.VARIANTS))
def test_short_random_match_per_variant(run_match, variant):
    run = run_match("--variant", variant, "--engine", stub("--seed", "1"),
                    "--engine", stub("--seed", "2"), "--name", "A", "--name", "B",
                    "--games", "2", "--depth", "1", "--max-plies", "60",
                    "--concurrency", "2", "--crosscheck", "--seed", "7",
                    "--random-plies", "4")
    wins, losses, draws, score, games = run.score
    assert games == 2 and wins + losses + draws == 2
    assert score == pytest.approx((wins + draws / 2) / 2)
    assert len(run.records) == 2
    assert run.line("Illegal moves:") == "Illegal moves: A 0, B 0"
    assert run.line("Crashes:") == "Crashes: A 0, B 0"
    first, second = sorted(run.records, key=lambda r: r["game"])
    assert first["black"] == "A" and second["black"] == "B"       # colours swapped
    assert first["start_sfen"] == second["start_sfen"] == R.VARIANTS[variant].start_sfen
    assert first["moves"][:4] == second["moves"][:4] and first["opening_plies"] == 4
    for rec in run.records:
        assert rec["reason"] in {"checkmate", "stalemate", "repetition", "perpetual check",
                                 "bare king", "impasse", "move cap"}
        assert len(rec["times_ms"]) == len(rec["scores"]) == rec["plies"] - rec["opening_plies"]
        assert set(rec["scores"]) == {"cp 0"}
        ref = replay(rec)
        if rec["reason"] in ("move cap", "impasse"):
            assert rec["plies"] == 60
            assert ref.adjudicate_move_cap().winner == {"black": R.BLACK, "white": R.WHITE,
                                                         None: None}[rec["winner"]]
        else:
            assert rec["plies"] <= 60
            out = ref.outcome()
            assert out is not None and out.reason == rec["reason"]
            assert out.result_string() == rec["result"]
    assert "[2/2]" in run.stderr


# --------------------------------------------------------------------------- faults

@pytest.mark.parametrize("mode,tc,reason,fault_line", [
    ("illegal", ["--depth", "1"], "illegal move", "Illegal moves: R 0, X 2"),
    ("crash", ["--depth", "1"], "crash", "Crashes: R 0, X 2"),
    ("resign", ["--depth", "1"], "resign", "Crashes: R 0, X 0"),
    ("hang", ["--movetime", "300", "--margin", "200"], "time forfeit", "Time losses: R 0, X 2"),
    ("hang", ["--depth", "3", "--hang-timeout", "0.5"], "stalled", "Stalls (no reply): R 0, X 2"),
])
def test_misbehaving_engine_loses(run_match, mode, tc, reason, fault_line):
    run = run_match("--variant", "shogi", "--engine", stub(), "--engine",
                    stub("--mode", mode, "--after", "2"), "--name", "R", "--name", "X",
                    "--games", "2", "--random-plies", "4", *tc)
    assert run.score[:3] == (2, 0, 0)
    assert run.line(fault_line.split(":")[0] + ":") == fault_line
    for rec in run.records:
        assert rec["reason"] == reason
        assert rec["winner"] == ("white" if rec["black"] == "X" else "black")
        # X misbehaved after two moves of its own, so its third move ended the game
        n = rec["plies"] - rec["opening_plies"]
        x_moves = (n + 1) // 2 if rec["black"] == "X" else n // 2
        assert x_moves == 2, rec
        replay(rec)
    assert run.line("Game ends:") == f"Game ends: {reason} 2"


def test_illegal_move_detail_names_the_move(run_match, tmp_path):
    log = tmp_path / "io.log"
    run = run_match("--variant", "judkins", "--engine", stub("--mode", "illegal"),
                    "--engine", stub(), "--games", "1", "--depth", "1", "--debug", str(log))
    rec = run.records[0]
    assert rec["reason"] == "illegal move" and rec["winner"] == "white"
    assert "1a1a" in rec["detail"]
    text = log.read_text()
    assert "1:1 < usi" in text and "1:1 > bestmove 1a1a" in text and "1:2 > usiok" in text


@pytest.mark.parametrize("tc", [["--tc", "1+0"], ["--byoyomi", "0.5+0.2"], ["--tc", "0.3+0.2"]])
def test_slow_engine_forfeits_on_the_clock(run_match, tc):
    # 300 ms per move: 1 s sudden death lasts 3 moves; byoyomi 0.5 + 0.2 s lasts 2;
    # 0.3 s + 0.2 s increment: 300 -> 200 -> 100 -> ...
    run = run_match("--variant", "heian8x8", "--engine", stub(), "--engine",
                    stub("--mode", "slow", "--delay", "300"), "--name", "R", "--name", "S",
                    "--games", "1", "--margin", "50", "--random-plies", "0", *tc)
    rec = run.records[0]
    assert rec["reason"] == "time forfeit" and rec["winner"] == "black"
    assert run.line("Time losses:") == "Time losses: R 0, S 1"
    s_times = rec["times_ms"][1::2]
    assert all(t >= 290 for t in s_times)
    if tc[0] == "--tc" and tc[1] == "1+0":
        assert len(s_times) == 3


def test_fast_engine_keeps_its_clock(run_match):
    run = run_match("--variant", "judkins", "--engine", stub(), "--engine",
                    stub("--mode", "slow", "--delay", "20"), "--games", "1",
                    "--byoyomi", "0+0.5", "--max-plies", "30")
    assert run.records[0]["reason"] != "time forfeit"
    assert run.line("Time losses:") == "Time losses: Stub-random 0, Stub-slow 0"


def test_summary_reports_think_time_and_clock_left(run_match):
    # S sleeps 60 ms a move; R answers at once. Each engine's moves are told
    # apart by who played first (engine 1 is White in game 2), and the clock
    # left is the main time plus the increments earned less the time used.
    run = run_match("--variant", "judkins", "--engine", stub(), "--engine",
                    stub("--mode", "slow", "--delay", "60"), "--name", "R", "--name", "S",
                    "--games", "2", "--tc", "10+0.1", "--max-plies", "12")
    think = {"R": [], "S": []}
    left = {"R": [], "S": []}
    for rec in run.records:
        side = rec["start_sfen"].split()[1]
        own = {"R": [], "S": []}
        for ms in rec["times_ms"]:
            own[rec["black"] if side == "b" else rec["white"]].append(ms)
            side = "w" if side == "b" else "b"
        for name in own:
            think[name] += own[name]
            left[name].append(10000 + 100 * len(own[name]) - sum(own[name]))
    assert min(think["S"]) >= 60 and max(think["R"]) < 60
    line = run.line("Think time per move:")
    mean_s = round(sum(think["S"]) / len(think["S"]))
    assert f"S {mean_s} ms" in line and line.startswith("Think time per move: R ")
    clock = run.line("Clock left at game end:")
    mean_left = round(sum(left["S"]) / len(left["S"]))
    assert f"S {mean_left} ms" in clock and mean_left > 10000


def test_false_and_true_declarations(run_match):
    run = run_match("--variant", "judkins", "--engine", stub("--mode", "win"),
                    "--engine", stub(), "--games", "1", "--depth", "1")
    rec = run.records[0]
    assert rec["reason"] == "false declaration" and rec["winner"] == "white"
    assert run.line("Illegal moves:").endswith(" 1, Stub-random 0")
    sfen = "+R+R+B+B5/GGGG1SSSK/S8/9/9/9/9/9/4k4 b - 1"
    run = run_match("--variant", "shogi", "--engine", stub("--mode", "win"),
                    "--engine", stub(), "--games", "1", "--depth", "1",
                    "--start-sfen", sfen, "--random-plies", "0")
    rec = run.records[0]
    assert rec["reason"] == "declaration" and rec["winner"] == "black"
    assert rec["start_sfen"] == sfen and rec["moves"] == []


@pytest.mark.parametrize("variant,sfen,reason,winner", [
    ("shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "illegal move", "white"),
    ("judkins", "4nk/6/4G1/6/6/K5 b P 1", "illegal move", "white"),
    ("yarishogi", "5nk/7/5+N1/7/7/7/7/7/3K3 b P 1", "checkmate", "black"),
])
def test_pawn_drop_mate_in_a_game(run_match, variant, sfen, reason, winner):
    run = run_match("--variant", variant, "--engine", stub("--mode", "pawnmate"),
                    "--engine", stub(), "--games", "1", "--depth", "1",
                    "--start-sfen", sfen, "--random-plies", "0")
    rec = run.records[0]
    assert rec["reason"] == reason and rec["winner"] == winner
    assert rec["moves"] == ([] if reason == "illegal move" else ["P*1b"])
    if reason == "illegal move":
        assert "uchifuzume" in rec["detail"]


def test_engine_that_cannot_start(run_match):
    run = run_match("--variant", "shogi", "--engine", stub("--mode", "dead"),
                    "--engine", stub(), "--games", "1", "--depth", "1", check=False)
    assert run.returncode == 1
    assert "error:" in run.stderr


# --------------------------------------------------------------------------- protocol

def test_variant_options_only_when_listed(run_match, tmp_path):
    t1, t2 = tmp_path / "one.txt", tmp_path / "two.txt"
    run = run_match("--variant", "heian9x8",
                    "--engine", stub("--transcript", str(t1)),
                    "--engine", stub("--no-variant-option", "--variant", "heian9x8",
                                     "--transcript", str(t2)),
                    "--option", "1:USI_Hash=32", "--option", "Style=a b c",
                    "--option", "2:Clear_Hash",
                    "--games", "1", "--depth", "1", "--max-plies", "6")
    one, two = t1.read_text().splitlines(), t2.read_text().splitlines()
    assert one[0] == two[0] == "usi"
    ini = paths.DEFAULT_HEIAN_INI
    assert one[1:5] == [f"setoption name VariantPath value {ini}",
                        "setoption name USI_Variant value heian9x8",
                        "setoption name USI_Hash value 32",
                        "setoption name Style value a b c"]
    assert not any("Variant" in line for line in two)
    assert two[1:3] == ["setoption name Style value a b c", "setoption name Clear_Hash"]
    assert "usinewgame" in one and "quit" in one
    go = [line for line in one if line.startswith("position")]
    assert go and all(line.startswith("position sfen ") for line in go)
    assert any(line.startswith("gameover ") for line in one)
    assert "lists no USI_Variant" in run.stderr


def test_go_commands_per_time_control(run_match, tmp_path):
    expected = {
        ("--tc", "5+0.25"): r"^go btime \d+ wtime \d+ binc 250 winc 250$",
        ("--byoyomi", "3+1"): r"^go btime \d+ wtime \d+ byoyomi 1000$",
    }
    for n, (tc, pattern) in enumerate(expected.items()):
        t = tmp_path / f"t{n}.txt"
        run_match("--variant", "judkins", "--engine", stub("--transcript", str(t)),
                  "--engine", stub(), "--games", "1", "--max-plies", "8",
                  "--random-plies", "4", *tc)
        gos = [line for line in t.read_text().splitlines() if line.startswith("go")]
        assert gos and all(re.match(pattern, g) for g in gos), (tc, gos)
    # engine 1 is Black and moves first after the opening: it sees the full clocks
    first_go = next(line for line in (tmp_path / "t0.txt").read_text().splitlines()
                    if line.startswith("go"))
    assert first_go == "go btime 5000 wtime 5000 binc 250 winc 250"
    clocks = {R.BLACK: 0.0, R.WHITE: 0.0}
    assert TimeControl.fischer("5").go({R.BLACK: 5000.0, R.WHITE: 4000.4}, R.WHITE) \
        == ("go btime 5000 wtime 4000", 4000.4)
    assert TimeControl("movetime", movetime_ms=40).go(clocks, R.BLACK) == ("go movetime 40", 40)
    assert TimeControl("nodes", nodes=1000).go(clocks, R.BLACK) == ("go nodes 1000", None)
    assert TimeControl("depth", depth=2).go(clocks, R.WHITE) == ("go depth 2", None)


def test_parse_options_and_time_controls():
    opts = parse_options(["1:USI_Hash=64", "Threads=2", "2:Name=x=y", "Button"])
    assert opts[0] == [("USI_Hash", "64"), ("Threads", "2"), ("Button", None)]
    assert opts[1] == [("Threads", "2"), ("Name", "x=y"), ("Button", None)]
    with pytest.raises(ValueError):
        parse_options(["3:A=1"])
    tc = TimeControl.fischer("10+0.1")
    assert (tc.base_ms, tc.inc_ms) == (10000, 100)
    assert TimeControl.fischer("1:30").base_ms == 90000
    by = TimeControl.byoyomi("10+1")
    assert (by.base_ms, by.byoyomi_ms) == (10000, 1000)
    assert TimeControl.byoyomi("2").byoyomi_ms == 2000
    clocks = by.initial_clocks()
    cmd, allowed = by.go(clocks, R.BLACK)
    assert cmd == "go btime 10000 wtime 10000 byoyomi 1000" and allowed == 11000
    by.spend(clocks, R.BLACK, 10500)
    assert clocks[R.BLACK] == 0 and by.go(clocks, R.BLACK)[1] == 1000
    clocks = tc.initial_clocks()
    tc.spend(clocks, R.WHITE, 400)
    assert clocks[R.WHITE] == 9700


# --------------------------------------------------------------------------- time odds

def go_lines(transcript) -> list[list[str]]:
    """The go lines an engine received, per game (games start at usinewgame)."""
    games: list[list[str]] = []
    for line in transcript.read_text().splitlines():
        if line == "usinewgame":
            games.append([])
        elif line.startswith("go"):
            games[-1].append(line)
    return games


def expected_go_lines(rec, clocks) -> list[tuple[str, dict[str, int]]]:
    """(side to move, {btime, wtime, binc, winc}) of each engine move of a record,
    the clocks replayed from its think times, ``clocks`` = per engine (base, inc) ms."""
    side = rec["start_sfen"].split()[1]
    if rec["opening_plies"] % 2:
        side = "w" if side == "b" else "b"
    one = rec["engine1"][0]
    two = "w" if one == "b" else "b"
    base = {one: clocks[0][0], two: clocks[1][0]}
    inc = {one: clocks[0][1], two: clocks[1][1]}
    left = dict(base)
    out = []
    for ms in rec["times_ms"]:
        out.append((side, {"btime": left["b"], "wtime": left["w"],
                           "binc": inc["b"], "winc": inc["w"]}))
        left[side] += inc[side] - ms
        side = "w" if side == "b" else "b"
    return out


def test_time_odds_each_engine_gets_its_own_clock(run_match, tmp_path):
    # A at 5+0.05, B at 10+0.1, B sleeping 20 ms a move: each go line carries each
    # side's own time and increment, whichever colour each engine has in the game
    t1, t2 = tmp_path / "a.txt", tmp_path / "b.txt"
    run = run_match("--variant", "judkins", "--engine", stub("--transcript", str(t1)),
                    "--engine", stub("--mode", "slow", "--delay", "20",
                                     "--transcript", str(t2)),
                    "--name", "A", "--name", "B", "--games", "2", "--max-plies", "16",
                    "--random-plies", "4", "--tc", "5+0.05", "--tc", "10+0.1")
    recs = sorted(run.records, key=lambda r: r["game"])
    assert [r["engine1"] for r in recs] == ["black", "white"]
    assert {r["time_control"] for r in recs} == {"5+0.05 / 10+0.1"}
    clocks = [(5000, 50), (10000, 100)]
    received = [go_lines(t1), go_lines(t2)]
    assert len(received[0]) == len(received[1]) == 2
    pattern = re.compile(r"^go btime (\d+) wtime (\d+) binc (\d+) winc (\d+)$")
    for g, rec in enumerate(recs):
        one = rec["engine1"][0]
        expected = expected_go_lines(rec, clocks)
        for n in range(2):
            mine = one if n == 0 else ("w" if one == "b" else "b")
            want = [fields for side, fields in expected if side == mine]
            got = received[n][g]
            assert len(got) == len(want) >= 1, (rec, got)
            for ply, (line, fields) in enumerate(zip(got, want)):
                m = pattern.match(line)
                assert m, line
                seen = dict(zip(("btime", "wtime", "binc", "winc"), map(int, m.groups())))
                assert (seen["binc"], seen["winc"]) == (fields["binc"], fields["winc"]), line
                # the referee keeps the clocks in float ms, records round: 1 ms a move
                for key in ("btime", "wtime"):
                    assert abs(seen[key] - fields[key]) <= ply + 2, (line, fields)
            # its own time is its own clock's, never the other engine's
            own = [int(pattern.match(x)[1 if mine == "b" else 2]) for x in got]
            lo, hi = (9000, 20000) if n == 1 else (4000, 6000)
            assert all(lo < ms < hi for ms in own), (n, got)
        first = received[0][g][0] if one == "b" else received[1][g][0]
        assert first == ("go btime 5000 wtime 10000 binc 50 winc 100" if one == "b"
                         else "go btime 10000 wtime 5000 binc 100 winc 50")
    # the reports name each engine's clock; clock left is against each one's own
    assert "Match A vs B: judkins, 2 games, A 5+0.05, B 10+0.1, " in run.stderr
    assert run.line("Finished ") == "Finished 2 of 2 games: judkins, A 5+0.05, B 10+0.1"
    left = {"A": [], "B": []}
    for rec in recs:
        own = {"A": [], "B": []}
        side = rec["start_sfen"].split()[1]
        for ms in rec["times_ms"]:
            own[rec["black"] if side == "b" else rec["white"]].append(ms)
            side = "w" if side == "b" else "b"
        for name, (base, inc) in zip("AB", clocks):
            left[name].append(base + inc * len(own[name]) - sum(own[name]))
    mean = {name: round(sum(v) / len(v)) for name, v in left.items()}
    assert mean["B"] > 10000 > 6000 > mean["A"]
    assert run.line("Clock left at game end:") == \
        f"Clock left at game end: A {mean['A']} ms, B {mean['B']} ms"


def test_time_odds_forfeit_on_the_engines_own_clock(run_match):
    # the slow engine sleeps 300 ms a move at 1 s sudden death (3 moves), the other has
    # a minute: the slow one loses on time in both games, as Black and as White,
    # whether it is engine 1 or engine 2
    slow = stub("--mode", "slow", "--delay", "300")
    for engines, names, tcs in (([slow, stub()], ["S", "R"], ["1", "60"]),
                                ([stub(), slow], ["R", "S"], ["60", "1"])):
        run = run_match("--variant", "heian8x8", "--engine", engines[0], "--engine", engines[1],
                        "--name", names[0], "--name", names[1], "--games", "2",
                        "--margin", "50", "--random-plies", "0",
                        "--tc", tcs[0], "--tc", tcs[1])
        losses = {"S": 2, "R": 0}
        assert run.line("Time losses:") == \
            f"Time losses: {names[0]} {losses[names[0]]}, {names[1]} {losses[names[1]]}"
        clocks = {"1": "1 s sudden death", "60": "60 s sudden death"}
        assert run.line("Finished ") == (f"Finished 2 of 2 games: heian8x8, "
                                         f"{names[0]} {clocks[tcs[0]]}, "
                                         f"{names[1]} {clocks[tcs[1]]}")
        for rec in run.records:
            assert rec["reason"] == "time forfeit"
            assert rec["time_control"] == f"{clocks[tcs[0]]} / {clocks[tcs[1]]}"
            s_first = (rec["black"] == "S")     # the first mover (no opening plies)
            s_times = rec["times_ms"][(0 if s_first else 1)::2]
            assert len(s_times) == 3 and all(t >= 290 for t in s_times), rec


def test_byoyomi_odds(run_match, tmp_path):
    t1, t2 = tmp_path / "a.txt", tmp_path / "b.txt"
    run = run_match("--variant", "judkins", "--engine", stub("--transcript", str(t1)),
                    "--engine", stub("--transcript", str(t2)), "--games", "2",
                    "--max-plies", "10", "--random-plies", "4",
                    "--byoyomi", "0+0.5", "--byoyomi", "2+1")
    assert {r["time_control"] for r in run.records} == \
        {"0 s + byoyomi 0.5 s / 2 s + byoyomi 1 s"}
    pattern = re.compile(r"^go btime (\d+) wtime (\d+) byoyomi (\d+)$")
    for n, (transcript, main, byoyomi) in enumerate(((t1, 0, 500), (t2, 2000, 1000))):
        games = go_lines(transcript)
        assert len(games) == 2
        for g, lines in enumerate(games):
            black = (g == 0) == (n == 0)        # engine 1 is Black in game 1
            seen = [pattern.match(line) for line in lines]
            assert lines and all(seen), lines
            assert all(int(m[3]) == byoyomi for m in seen), lines     # its own byoyomi
            own = [int(m[1 if black else 2]) for m in seen]
            other = [int(m[2 if black else 1]) for m in seen]
            assert own[0] == main and all(ms <= main for ms in own), lines
            assert all(ms <= 2000 - main for ms in other), lines


def test_time_odds_clocks_are_charged_per_engine():
    fast, slow = TimeControl.fischer("5+0.05"), TimeControl.fischer("10")
    tcs = {R.BLACK: slow, R.WHITE: fast}
    clocks = start_clocks(tcs)
    assert clocks == {R.BLACK: 10000.0, R.WHITE: 5000.0}
    assert go_command(tcs, clocks, R.BLACK) == ("go btime 10000 wtime 5000 binc 0 winc 50",
                                               10000.0)
    tcs[R.BLACK].spend(clocks, R.BLACK, 300)
    tcs[R.WHITE].spend(clocks, R.WHITE, 300)
    assert clocks == {R.BLACK: 9700.0, R.WHITE: 4750.0}
    assert go_command(tcs, clocks, R.WHITE) == ("go btime 9700 wtime 4750 binc 0 winc 50",
                                               4750.0)
    byo = {R.BLACK: TimeControl.byoyomi("1+2"), R.WHITE: TimeControl.byoyomi("0.5")}
    clocks = start_clocks(byo)
    assert go_command(byo, clocks, R.WHITE) == ("go btime 1000 wtime 0 byoyomi 500", 500.0)
    assert go_command(byo, clocks, R.BLACK) == ("go btime 1000 wtime 0 byoyomi 2000", 3000.0)
    # a record's clock left: engine 1 (White here) at 5+0.05, engine 2 at 10
    job = GameJob(1, 0, Opening(R.VARIANTS["judkins"].start_sfen, []), first_black=False)
    rec = GameRecord(job, R.Outcome(None, "move cap"), [], "", {}, [100, 200, 300], [], [], "")
    assert rec.time_use(fast, slow) == [([200], 4850), ([100, 300], 9600)]
    assert rec.time_use(fast) == [([200], 4850), ([100, 300], 4700)]


@pytest.mark.parametrize("args,message", [
    (["--tc", "5", "--tc", "6", "--tc", "7"], "--tc given 3 times"),
    (["--byoyomi", "1", "--byoyomi", "2", "--byoyomi", "3"], "--byoyomi given 3 times"),
    (["--tc", "5", "--byoyomi", "1"], "not allowed with argument"),
    (["--byoyomi", "1", "--tc", "5", "--tc", "6"], "not allowed with argument"),
    (["--tc", "5", "--tc", "0"], "needs a positive base"),
])
def test_bad_time_odds_exit_2(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        match.main(["--variant", "shogi", "--engine", stub(), "--engine", stub(), *args])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err, err


def test_one_clock_given_twice_is_no_odds():
    args = match.build_parser().parse_args(
        ["--variant", "shogi", "--engine", "a", "--engine", "b", "--tc", "5+0.05",
         "--tc", "5+0.05", "--random-plies", "0"])
    config = match.config_from_args(args)
    assert config.tc2 is None and not config.time_odds
    assert config.describe_tc(["A", "B"]) == config.describe_tc() == "5+0.05"
    args.tc = ["5+0.05", "10+0.1"]
    config = match.config_from_args(args)
    assert config.time_odds and config.tc2 == TimeControl.fischer("10+0.1")
    assert config.describe_tc(["A", "B"]) == "A 5+0.05, B 10+0.1"
    assert config.describe_tc() == "5+0.05 / 10+0.1"


@pytest.mark.parametrize("args", [
    ["--tc", "abc"], ["--tc", "0"], ["--depth", "1", "--games", "0"],
    ["--depth", "1", "--start-sfen", "nonsense"], ["--depth", "1", "--sprt", "5,0"],
    ["--depth", "1", "--concurrency", "0"], ["--depth", "1", "--option", "3:A=1"],
])
def test_bad_arguments_exit_2(args, capsys):
    with pytest.raises(SystemExit) as e:
        match.main(["--variant", "shogi", "--engine", stub(), "--engine", stub(), *args])
    assert e.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_one_engine_is_not_enough(capsys):
    with pytest.raises(SystemExit) as e:
        match.main(["--variant", "shogi", "--engine", stub(), "--depth", "1"])
    assert e.value.code == 2


# --------------------------------------------------------------------------- openings

def test_openings_file_and_handicap(run_match, tmp_path):
    book = tmp_path / "book.txt"
    handicap = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    book.write_text("# comment line\n"
                    "7g7f 3c3d\n"
                    f"sfen {handicap} moves 5c5d\n"
                    "\n"
                    "startpos moves 2g2f\n")
    run = run_match("--variant", "shogi", "--engine", stub(), "--engine", stub(),
                    "--games", "6", "--depth", "1", "--max-plies", "12",
                    "--openings", str(book), "--concurrency", "2")
    recs = sorted(run.records, key=lambda r: r["game"])
    assert [r["opening"] for r in recs] == [1, 1, 2, 2, 3, 3]
    assert [r["engine1"] for r in recs] == ["black", "white"] * 3
    assert recs[0]["moves"][:2] == ["7g7f", "3c3d"] and recs[0]["opening_plies"] == 2
    assert recs[2]["start_sfen"] == handicap and recs[2]["moves"][0] == "5c5d"
    assert recs[4]["moves"][0] == "2g2f" and recs[4]["opening_plies"] == 1
    for rec in recs:
        replay(rec)


def test_first_opening_reads_the_openings_from_there(run_match, tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("7g7f 3c3d\n2g2f 8c8d\n5g5f 5c5d\n")
    run = run_match("--variant", "shogi", "--engine", stub(), "--engine", stub(),
                    "--games", "4", "--depth", "1", "--max-plies", "8",
                    "--openings", str(book), "--first-opening", "3")
    recs = sorted(run.records, key=lambda r: r["game"])
    # the third line, then round to the first; records number them as in the file
    assert [r["opening"] for r in recs] == [3, 3, 1, 1]
    assert [r["moves"][:2] for r in recs] == [["5g5f", "5c5d"]] * 2 + [["7g7f", "3c3d"]] * 2
    assert "3 openings (" + str(book) + ", from opening 3)" in run.stderr
    for args in (["--openings", str(book), "--first-opening", "4"],
                 ["--openings", str(book), "--first-opening", "0"],
                 ["--random-plies", "2", "--first-opening", "1"]):
        bad = run_match("--variant", "shogi", "--engine", stub(), "--engine", stub(),
                        "--depth", "1", *args, check=False)
        assert bad.returncode == 2 and "--first-opening" in bad.stderr, args


def test_bad_openings_file(run_match, tmp_path):
    book = tmp_path / "bad.txt"
    book.write_text("7g7f 7g7f\n")
    run = run_match("--variant", "shogi", "--engine", stub(), "--engine", stub(),
                    "--depth", "1", "--openings", str(book), check=False)
    assert run.returncode == 2 and "bad.txt:1" in run.stderr


@pytest.mark.parametrize("variant", list(R.VARIANTS))
def test_the_balanced_suite_is_the_default(run_match, variant):
    suite = default_openings_path(variant)
    assert suite == os.path.join(REPO_ROOT, "openings", f"{variant}.txt")
    v = R.VARIANTS[variant]
    book = load_openings(suite, v, v.start_sfen)
    run = run_match("--variant", variant, "--engine", stub(), "--engine", stub(),
                    "--games", "4", "--depth", "1", "--max-plies", "20")
    recs = sorted(run.records, key=lambda r: r["game"])
    # pairs from the suite's first lines, in order, with no plies added
    assert [r["start_sfen"] for r in recs] == [book[0].sfen] * 2 + [book[1].sfen] * 2
    assert book[0].sfen != book[1].sfen != v.start_sfen
    assert all(r["opening_plies"] == 0 for r in recs)
    assert f"{len(book)} openings (openings/{variant}.txt)" in run.stderr
    for rec in recs:
        replay(rec)


def test_random_openings_instead_of_the_suite(run_match):
    # --random-plies, or a --start-sfen, asks for random openings as before
    run = run_match("--variant", "judkins", "--engine", stub(), "--engine", stub(),
                    "--games", "2", "--depth", "1", "--max-plies", "10",
                    "--random-plies", "0")
    start = R.VARIANTS["judkins"].start_sfen
    assert [r["start_sfen"] for r in run.records] == [start, start]
    assert all(r["opening_plies"] == 0 for r in run.records)
    assert "0 random plies, seed 1" in run.stderr
    handicap = "rbnsgk/5p/6/6/P5/KGSNB1 b - 1"
    run = run_match("--variant", "judkins", "--engine", stub(), "--engine", stub(),
                    "--games", "2", "--depth", "1", "--max-plies", "10",
                    "--start-sfen", handicap)
    assert all(r["start_sfen"] == handicap and r["opening_plies"] == DEFAULT_RANDOM_PLIES
               for r in run.records)


def test_random_openings_are_seeded():
    v = R.VARIANTS["judkins"]
    a = random_openings(v, v.start_sfen, 6, 3, seed=5)
    b = random_openings(v, v.start_sfen, 6, 3, seed=5)
    c = random_openings(v, v.start_sfen, 6, 3, seed=6)
    assert [o.moves for o in a] == [o.moves for o in b] != [o.moves for o in c]
    assert all(len(o.moves) == 6 for o in a)
    assert random_openings(v, v.start_sfen, 0, 1, seed=1)[0].moves == []


def test_csa_record(run_match, tmp_path):
    csa = tmp_path / "csa"
    run = run_match("--variant", "shogi", "--engine", stub(), "--engine", stub("--mode", "resign",
                    "--after", "3"), "--games", "1", "--depth", "1", "--csa-dir", str(csa),
                    "--random-plies", "4")
    text = (csa / "game0001.csa").read_text().splitlines()
    assert text[0] == "V2.2" and text[1].startswith("N+") and text[2].startswith("N-")
    assert "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY" in text
    assert "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY" in text
    moves = [line for line in text if re.match(r"^[+-]\d{4}[A-Z]{2}$", line)]
    assert len(moves) == run.records[0]["plies"]
    assert text[-2] == "%TORYO"


# --------------------------------------------------------------------------- SPRT

@pytest.mark.parametrize("model,max_games", [("trinomial", 12), ("pentanomial", 20)])
def test_sprt_stops_when_it_decides(run_match, model, max_games):
    # every game is won by engine 1: LLR grows by about log(s1/s0) = 0.418 per game
    # (per pair with the pentanomial model), so H1 is accepted after 8 games / 8 pairs
    run = run_match("--variant", "judkins", "--engine", stub(), "--engine",
                    stub("--mode", "resign"), "--games", "100", "--depth", "1",
                    "--sprt", "0,200,0.05,0.05", "--sprt-model", model,
                    "--concurrency", "2")
    wins, losses, draws, score, games = run.score
    assert wins == games and games <= max_games and games >= 8
    assert "H1 was accepted" in run.line("SPRT:")
    assert len(run.records) == games


def test_sprt_h0(run_match):
    run = run_match("--variant", "judkins", "--engine", stub("--mode", "resign"),
                    "--engine", stub(), "--games", "100", "--depth", "1",
                    "--sprt", "0,100", "--sprt-model", "trinomial")
    assert "H0 was accepted" in run.line("SPRT:")
    assert run.score[4] < 100
