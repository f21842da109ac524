"""datagen.py without a cluster: shards, renumbering, and the journal that makes a
run resumable (test_cluster.py runs it on a cluster)."""

import json
import os
import struct
import subprocess

import pytest
from conftest import tool
from test_kawari import kawari  # noqa: F401  (the fixture: the built engine)

from kawari_tools import datagen as D

HEADER = {"options": {"variant": "judkins", "nodes": 400}, "kawari_sha256": "abc"}


def record(game: int, fill: int = 7) -> bytes:
    r = bytearray([fill]) * D.RECORD_BYTES
    struct.pack_into("<I", r, D.GAME_AT, game)
    return bytes(r)


def test_missing_ranges_and_shards():
    assert D.ranges_missing(10, []) == [(0, 10)]
    assert D.ranges_missing(10, [(0, 3), (5, 6), (3, 4)]) == [(4, 5), (6, 10)]
    assert D.ranges_missing(4, [(0, 6)]) == []
    assert D.shards([(4, 5), (6, 13)], 3) == [(4, 1), (6, 3), (9, 3), (12, 1)]


def test_renumber_moves_every_game_index_and_nothing_else():
    data = record(0) + record(2)
    out = D.renumber(data, 40)
    assert [D.game_of(out[i:i + 128]) for i in (0, 128)] == [40, 42]
    assert out[:10] == data[:10] and out[14:128] == data[14:128]
    with pytest.raises(ValueError):
        D.renumber(data[:-1], 1)


def test_a_new_journal_then_a_resumed_one(tmp_path):
    out = str(tmp_path / "d.bin")
    j = D.Journal(out, HEADER)
    assert j.open() == 0
    with open(out, "ab") as f:
        f.write(record(3) + record(4))
    j.length += 256
    j.note(3, 2, 2)
    with open(out, "ab") as f:
        f.write(record(0) + b"\x01" * 50)          # a shard not journaled, cut short
    with open(j.path, "a") as f:
        f.write('{"kind": "shard", "fir')          # a journal line cut short
    again = D.Journal(out, HEADER)
    assert again.open() == 2
    assert again.done == [(3, 5)]
    assert open(out, "rb").read() == record(3) + record(4)
    assert D.ranges_missing(6, again.done) == [(0, 3), (5, 6)]
    assert all(json.loads(line) for line in open(again.path))


def test_a_journal_of_other_settings_is_refused(tmp_path):
    out = str(tmp_path / "d.bin")
    D.Journal(out, HEADER).open()
    other = {**HEADER, "options": {"variant": "judkins", "nodes": 500}}
    with pytest.raises(ValueError, match="other options"):
        D.Journal(out, other).open()


def test_a_file_of_kawari_datagen_goes_on_after_its_highest_game(tmp_path):
    out = tmp_path / "k.bin"
    out.write_bytes(record(0) + record(2) + record(1) + b"\x05" * 3)
    j = D.Journal(str(out), HEADER)
    assert j.open() == 3
    assert j.done == [(0, 3)] and out.stat().st_size == 3 * 128


def test_cluster_is_required_and_kawari_must_exist(tmp_path):
    run = tool("datagen")
    proc = subprocess.run(run + ["--games", "2", "--out", "x"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "--cluster" in proc.stderr
    proc = subprocess.run(run + ["--cluster", "auto", "--games", "2", "--out", "x",
                                 "--kawari", str(tmp_path / "none")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_a_shard_with_a_book_gives_the_records_of_a_single_run(kawari, tmp_path):  # noqa: F811
    # what play_shard runs on a worker, without the cluster: games 2 and 3 as a shard
    # (--seed seed+2, games renumbered) start from the book lines of a single run
    from conftest import REPO_ROOT
    book = os.path.join(REPO_ROOT, "openings", "judkins.txt")
    o = {"variant": "judkins", "nodes": 200, "random_plies": 1, "max_plies": 60,
         "seed": 5, "threads": 1, "hash": 1, "hand_made": False}

    def records(path):
        data = open(path, "rb").read()
        return sorted(data[i:i + D.RECORD_BYTES] for i in range(0, len(data), D.RECORD_BYTES))

    whole, shard = str(tmp_path / "whole.bin"), str(tmp_path / "shard.bin")
    argv = D.kawari_argv(kawari, o, 0, 4, whole, None, book)
    assert argv[-2:] == ["--book", book]
    subprocess.run(argv, check=True, capture_output=True)
    subprocess.run(D.kawari_argv(kawari, o, 2, 2, shard, None, book), check=True,
                   capture_output=True)
    with open(shard, "rb") as f:
        renumbered = D.renumber(f.read(), 2)
    with open(shard, "wb") as f:
        f.write(renumbered)
    later = [r for r in records(whole) if D.game_of(r) >= 2]
    assert later and records(shard) == later
    # and the book matters: without it the same games are others
    subprocess.run(D.kawari_argv(kawari, o, 0, 4, str(tmp_path / "plain.bin"), None),
                   check=True, capture_output=True)
    assert records(str(tmp_path / "plain.bin")) != records(whole)


def test_the_shortcut_options_reach_kawari(kawari, tmp_path):  # noqa: F811
    # --check-nodes and --adjudicate-mates false travel to each shard's kawari, which
    # then writes what a direct run with them writes (and not kawari's defaults)
    o = {"variant": "judkins", "nodes": 200, "random_plies": 1, "max_plies": 60,
         "seed": 7, "threads": 1, "hash": 1, "hand_made": False, "check_nodes": 20,
         "adjudicate_mates": False}
    argv = D.kawari_argv(kawari, o, 0, 3, str(tmp_path / "shard.bin"), None)
    assert argv[-4:] == ["--check-nodes", "20", "--adjudicate-mates", "false"]
    subprocess.run(argv, check=True, capture_output=True)
    direct = [kawari, "datagen", "--variant", "judkins", "--games", "3", "--nodes", "200",
              "--random-plies", "1", "--max-plies", "60", "--seed", "7", "--threads", "1",
              "--hash", "1", "--check-nodes", "20", "--adjudicate-mates", "false",
              "--out", str(tmp_path / "direct.bin")]
    subprocess.run(direct, check=True, capture_output=True)
    plain = D.kawari_argv(kawari, {**o, "check_nodes": None, "adjudicate_mates": True}, 0, 3,
                          str(tmp_path / "plain.bin"), None)
    assert "--check-nodes" not in plain and "--adjudicate-mates" not in plain
    subprocess.run(plain, check=True, capture_output=True)

    def records(name):
        data = (tmp_path / name).read_bytes()
        return sorted(data[i:i + D.RECORD_BYTES] for i in range(0, len(data), D.RECORD_BYTES))

    assert records("shard.bin") == records("direct.bin")
    assert records("plain.bin") != records("shard.bin")
