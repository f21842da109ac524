"""mate_suite.py runs an engine's `go mate` over a collection and judges each answer."""

import json
import sys
import textwrap

from kawari_tools.cli import mate_suite

KOTEN3 = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"

# A fake USI engine: answers `go mate` with the line given for the position's first
# word (the board), after an info line with nodes; "hang" never answers.
FAKE = textwrap.dedent("""
    import sys, time
    ANSWERS = {answers!r}
    SAID = {said!r}
    board = None
    for line in sys.stdin:
        w = line.split()
        if w[:1] == ["usi"]:
            print("id name fake"); print("usiok", flush=True)
        elif w[:1] == ["isready"]:
            print("readyok", flush=True)
        elif w[:2] == ["position", "sfen"]:
            board = w[2]
        elif w[:2] == ["go", "mate"]:
            a = ANSWERS[board]
            if a == "hang":
                continue
            print("info time 5 nodes 1234 nps 1", flush=True)
            if board in SAID:
                print("info string mate in 3 plies, " + SAID[board], flush=True)
            print("checkmate " + a, flush=True)
        elif w[:1] == ["stop"]:
            print("checkmate timeout", flush=True)
        elif w[:1] == ["quit"]:
            break
""")


def fake_engine(tmp_path, answers, said=None):
    path = tmp_path / "fake.py"
    path.write_text(FAKE.format(answers=answers, said=said or {}))
    return f"{sys.executable} {path}"


def problems(tmp_path, rows):
    path = tmp_path / "p.tsv"
    path.write_text("name\tsfen\tplies\n" + "".join(f"{n}\t{s}\t{p}\n" for n, s, p in rows))
    return str(path)


OTHER = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"  # head gold: G*5b


def test_answers_are_verified_counted_and_summed(tmp_path, capsys):
    eng = fake_engine(tmp_path, {"3sks3/9/4S4/9/9/B8/9/9/9": "9f5b+ 4a5b S*4b",
                                 "4k4/9/4P4/9/9/9/9/9/9": "timeout"})
    out = tmp_path / "r.jsonl"
    rc = mate_suite.main(["--engine", eng, "--problems",
                          problems(tmp_path, [("k3", KOTEN3, 3), ("one", OTHER, 1)]),
                          "--ms", "1000", "--hash", "16", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "solved 1 of 2 within 1 s (0 later, 1 unsolved, 0 wrong)" in text
    assert "lengths: 1 as the collection, 0 longer" in text
    assert "not solved: one" in text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["name"] == "k3" and rows[0]["verdict"] == "ok" and rows[0]["nodes"] == 1234
    assert rows[1]["verdict"] == "unsolved: timeout"


def test_a_wrong_line_fails_the_run_and_resume_skips_done(tmp_path, capsys):
    eng = fake_engine(tmp_path, {"3sks3/9/4S4/9/9/B8/9/9/9": "9f5b+ 4a5b",
                                 "4k4/9/4P4/9/9/9/9/9/9": "G*5b"})
    out = tmp_path / "r.jsonl"
    probs = problems(tmp_path, [("k3", KOTEN3, 3), ("one", OTHER, 1)])
    rc = mate_suite.main(["--engine", eng, "--problems", probs, "--ms", "1000",
                          "--only", "k3", "--out", str(out)])
    assert rc == 1
    assert "does not end in checkmate" in capsys.readouterr().out
    rc = mate_suite.main(["--engine", eng, "--problems", probs, "--ms", "1000",
                          "--out", str(out), "--resume"])
    text = capsys.readouterr().out
    assert rc == 1
    assert not any(line.startswith("k3") for line in text.splitlines())  # kept, not asked again
    assert "one " in text and "solved 1 of 2" in text and "1 wrong" in text
    assert len(out.read_text().splitlines()) == 2


def test_a_hung_engine_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(mate_suite, "GRACE_S", 0.2)
    eng = fake_engine(tmp_path, {"3sks3/9/4S4/9/9/B8/9/9/9": "hang"})
    answer, took, nodes, proven = mate_suite.ask(eng.split(), KOTEN3, 100, 16, "shogi", [])
    assert answer == ["timeout"] and nodes is None and proven is None and took < 5


def test_the_engines_word_on_shortness_is_counted(tmp_path, capsys):
    k3, head_gold = "3sks3/9/4S4/9/9/B8/9/9/9", "4k4/9/4P4/9/9/9/9/9/9"
    eng = fake_engine(
        tmp_path, {k3: "9f5b+ 4a5b S*4b", head_gold: "G*5b"},
        {k3: "proven the shortest",
         head_gold: "not proven the shortest: a mate within 3 plies is proven"})
    out = tmp_path / "r.jsonl"
    rc = mate_suite.main(["--engine", eng, "--problems",
                          problems(tmp_path, [("k3", KOTEN3, 3), ("one", OTHER, 1)]),
                          "--ms", "1000", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "(proven the shortest)" in text and "(within a bound only)" in text
    assert ("proven the shortest (the engine's word): 1 of 2;"
            " lines within a proven bound only: 1 (one:1)") in text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["proven"] for r in rows] == [True, False]
