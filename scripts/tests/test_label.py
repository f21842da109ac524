"""label.py: sampling of match-record positions and the JSON lines it writes."""

import json
import subprocess

from conftest import stub, tool

LABEL = tool("label")


def label(*args: str) -> tuple[list, str]:
    proc = subprocess.run([*LABEL, *args], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def games(run_match, tmp_path, max_plies: int):
    """Two stub-vs-stub judkins games: their records and the file holding them."""
    run = run_match("--variant", "judkins", "--engine", stub("--seed", "1"),
                    "--engine", stub("--seed", "2"), "--games", "2", "--depth", "1",
                    "--max-plies", str(max_plies), "--seed", "3")
    records = tmp_path / "games.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in run.records))
    return run, records


def test_every_sampled_position_is_labelled(run_match, tmp_path):
    run, records = games(run_match, tmp_path, 40)
    out, _ = label("--engine", stub(), "--depth", "1", "--skip", "4", "--every", "3",
                   "--concurrency", "2", str(records))
    expected = {(r["game"], n) for r in run.records for n in range(4, len(r["moves"]), 3)}
    assert len(out) == len(expected) > 0
    by_moves = {tuple(r["moves"]): r for r in run.records}
    for line in out:
        assert line["variant"] == "judkins"
        assert line["score"] == 0                      # the stub reports cp 0
        game = next(r for moves, r in by_moves.items()
                    if moves[:len(line["moves"])] == tuple(line["moves"]))
        assert line["start_sfen"] == game["start_sfen"]
        assert len(line["moves"]) >= 4 and (len(line["moves"]) - 4) % 3 == 0
        assert line["bestmove"]


def test_scores_beyond_the_limit_are_left_out(run_match, tmp_path):
    _, records = games(run_match, tmp_path, 20)
    out, _ = label("--engine", stub(), "--depth", "1", "--max-score", "-1", str(records))
    assert out == []


def test_depth_or_nodes_is_required(tmp_path):
    proc = subprocess.run([*LABEL, "--engine", "x", str(tmp_path / "r")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "--depth" in proc.stderr
