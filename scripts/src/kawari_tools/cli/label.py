#!/usr/bin/env python3
"""Label positions from match records with a USI engine's search score.

Reads the JSON-lines records ``kawari-match --records`` writes, takes every
``--every``-th position of each game after ``--skip`` plies, searches it with the
given engine (``go depth N`` or ``go nodes N``) and writes one JSON line per
position: the variant, the game's start SFEN, the moves leading to the position,
the score in centipawns for the side to move, and the engine's best move.
``examples/tune.rs --labels`` fits evaluation weights to these scores.

    kawari-label --engine ./kawari --depth 8 games.jsonl > labels.jsonl

Positions whose score is a mate, or beyond ``--max-score``, are left out: an
evaluation cannot be fitted to them. Heian variants need ``--variant-path``
for engines that load them from a file (Fairy-Stockfish).
"""

import argparse
import json
import shlex
import sys
import threading
from typing import Iterator, Optional

from kawari_tools.usi_client import EngineError, UsiEngine


def open_engine(cmd: str, variant: str, variant_path: Optional[str],
                timeout: float) -> UsiEngine:
    """A started engine playing ``variant``."""
    engine = UsiEngine(shlex.split(cmd), timeout=timeout).start()
    if not engine.select_variant(variant, variant_path):
        engine.set_option("USI_Variant", variant)      # unlisted: try it anyway
    engine.isready()
    return engine


def label_one(engine: UsiEngine, sfen: str, moves: list[str], go: str,
              timeout: float) -> tuple[Optional[int], str]:
    """The last reported score in centipawns (None if a mate or none) and the best move."""
    reply = engine.search(sfen, moves, go, timeout)
    score = reply.score
    return (score[1] if score and score[0] == "cp" else None), reply.move


def positions(records: list[dict], skip: int, every: int) -> Iterator[tuple[dict, int]]:
    """(record, number of moves played) for each sampled position."""
    for r in records:
        for n in range(skip, len(r["moves"]), every):
            yield r, n


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="match records (JSON lines)")
    ap.add_argument("--engine", required=True, help="USI engine command")
    ap.add_argument("--variant-path", help="variants file for engines that load one")
    ap.add_argument("--depth", type=int, help="search depth per position")
    ap.add_argument("--nodes", type=int, help="search nodes per position")
    ap.add_argument("--skip", type=int, default=8, help="opening plies left out (8)")
    ap.add_argument("--every", type=int, default=3, help="take every n-th position (3)")
    ap.add_argument("--max-score", type=int, default=3000,
                    help="leave out positions scored beyond this (3000)")
    ap.add_argument("--variant", action="append",
                    help="only records of this variant (repeatable)")
    ap.add_argument("--concurrency", type=int, default=1, help="engines in parallel (1)")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds an engine may take for one search or to start (300)")
    args = ap.parse_args(argv)
    if (args.depth is None) == (args.nodes is None):
        ap.error("give exactly one of --depth and --nodes")
    go = f"go depth {args.depth}" if args.depth is not None else f"go nodes {args.nodes}"

    records = []
    for path in args.records:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if not args.variant or r["variant"] in args.variant:
                        records.append(r)
    jobs = list(positions(records, args.skip, args.every))
    lock = threading.Lock()
    cursor = [0]
    done = [0]

    failed: list[str] = []

    def worker() -> None:
        engines: dict[str, UsiEngine] = {}
        try:
            while True:
                with lock:
                    if cursor[0] >= len(jobs):
                        return
                    r, n = jobs[cursor[0]]
                    cursor[0] += 1
                v = r["variant"]
                if v not in engines:
                    engines[v] = open_engine(args.engine, v, args.variant_path, args.timeout)
                moves = r["moves"][:n]
                score, best = label_one(engines[v], r["start_sfen"], moves, go, args.timeout)
                with lock:
                    done[0] += 1
                    if done[0] % 500 == 0:
                        print(f"label: {done[0]}/{len(jobs)}", file=sys.stderr)
                    if score is None or abs(score) > args.max_score:
                        continue
                    print(json.dumps({"variant": v, "start_sfen": r["start_sfen"],
                                      "moves": moves, "score": score, "bestmove": best}),
                          flush=True)
        except EngineError as e:
            with lock:
                failed.append(str(e))
                cursor[0] = len(jobs)           # the other threads stop too
        finally:
            for e in engines.values():
                e.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        print(f"label: error: {failed[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
