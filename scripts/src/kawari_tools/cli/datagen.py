#!/usr/bin/env python3
"""kawari-datagen: self-play training data from a Ray cluster, ``kawari datagen``
split into shards (kawari_tools.datagen says how shards, resuming and faults work).

Exit status: 0 when the file holds all the games, 1 if a shard failed (kawari's
error is shown) or the cluster cannot be joined, 2 on bad arguments or a journal of
other settings, 4 if the cluster went away (the shards finished are on disk), 130
after Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from typing import Optional

from kawari_tools import paths
from kawari_tools.datagen import RECORD_OPTIONS, Driver, Journal, kawari_argv, sha256_of


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kawari-datagen",
                                description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Resuming and faults: see docs/tools.md and "
                                       "kawari_tools.datagen.")
    p.add_argument("--cluster", required=True, metavar="ADDRESS",
                   help="Ray cluster: HEAD:PORT, or 'auto' (RAY_ADDRESS, else a cluster "
                        "started on this machine)")
    p.add_argument("--kawari", default=paths.KAWARI_BINARY,
                   help="the Kawari binary shipped to the workers (default: %(default)s)")
    p.add_argument("--variant", default="shogi")
    p.add_argument("--games", type=int, required=True,
                   help="games the file should hold when done (a resumed file counts its own)")
    p.add_argument("--out", required=True, help="the data file (appended to)")
    p.add_argument("--nodes", type=int, default=5000, help="nodes per move (5000)")
    p.add_argument("--random-plies", type=int, default=8, help="(8)")
    p.add_argument("--max-plies", type=int, default=400, help="(400)")
    p.add_argument("--seed", type=int, default=1, help="game i is played from seed + i (1)")
    p.add_argument("--threads", type=int, default=1,
                   help="kawari's playing threads per shard, and the CPUs each shard "
                        "asks for (1)")
    p.add_argument("--hash", type=int, default=16, help="hash table per thread, MB (16)")
    p.add_argument("--check-nodes", type=int,
                   help="nodes per search of a position in check (never kept; default: "
                        "--nodes)")
    p.add_argument("--adjudicate-mates", choices=("true", "false"), default="true",
                   help="end a game at its first proven mate (%(default)s)")
    p.add_argument("--eval-file", help="play with this network (shipped to the workers)")
    p.add_argument("--hand-made", choices=("true", "false"), default="false")
    p.add_argument("--book", help="start positions, e.g. openings/<variant>.txt (shipped to "
                                  "the workers): game i starts from line (seed + i) mod N")
    p.add_argument("--shard-games", type=int, default=0,
                   help="games per shard (default: about four shards for each the cluster "
                        "runs at once, at "
                        "most 50 games)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    if (a.games < 1 or a.nodes < 1 or a.threads < 1 or a.shard_games < 0
            or (a.check_nodes is not None and a.check_nodes < 1)):
        parser.error("--games, --nodes, --check-nodes and --threads must be positive")
    if not os.path.isfile(a.kawari):
        parser.error(f"--kawari {a.kawari}: no such file (cargo build --release?)")
    o = {"variant": a.variant, "nodes": a.nodes, "random_plies": a.random_plies,
         "max_plies": a.max_plies, "seed": a.seed, "threads": a.threads, "hash": a.hash,
         "hand_made": a.hand_made == "true", "check_nodes": a.check_nodes,
         "adjudicate_mates": a.adjudicate_mates == "true"}
    header = {"options": {k: o[k] for k in RECORD_OPTIONS},
              "kawari_sha256": sha256_of(a.kawari),
              "eval_file_sha256": sha256_of(a.eval_file) if a.eval_file else None}
    header["options"]["eval_file_sha256"] = header.pop("eval_file_sha256")
    # these only when not the default, so that the journals of earlier runs still match
    if a.book:
        header["options"]["book_sha256"] = sha256_of(a.book)
    if a.check_nodes is not None:
        header["options"]["check_nodes"] = a.check_nodes
    if a.adjudicate_mates == "false":
        header["options"]["adjudicate_mates"] = False
    # kawari checks its own options (variant, network) here, before any cluster work:
    # one game of one ply at one node
    with tempfile.TemporaryDirectory() as tmp:
        quick = {**o, "threads": 1, "nodes": 1, "random_plies": 0, "max_plies": 1}
        check = subprocess.run(kawari_argv(a.kawari, quick, 0, 1, os.path.join(tmp, "c.bin"),
                                           a.eval_file, a.book), capture_output=True, text=True)
    if check.returncode != 0:
        parser.error(f"kawari datagen refuses these options: {check.stderr.strip()}")
    journal = Journal(a.out, header)
    try:
        before = journal.open()
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return Driver(a, o, journal, before).run()




if __name__ == "__main__":
    sys.exit(main())
