#!/usr/bin/env python3
"""Label positions from match records with a USI engine's search score.

Reads the JSON-lines records ``match.py --records`` writes, takes every
``--every``-th position of each game after ``--skip`` plies, searches it with the
given engine (``go depth N`` or ``go nodes N``) and writes one JSON line per
position: the variant, the game's start SFEN, the moves leading to the position,
the score in centipawns for the side to move, and the engine's best move.
``examples/tune.rs --labels`` fits evaluation weights to these scores.

    python3 scripts/label.py --engine ./kawari --depth 8 games.jsonl > labels.jsonl

Positions whose score is a mate, or beyond ``--max-score``, are left out: an
evaluation cannot be fitted to them. Heian variants need ``--variant-path``
for engines that load them from a file (Fairy-Stockfish).
"""

import argparse
import json
import subprocess
import sys
import threading
from typing import Iterator, Optional


class UsiEngine:
    """A USI engine process driven line by line (no time limits: fixed searches)."""

    def __init__(self, argv: list[str], variant: str, variant_path: Optional[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        options = []
        for line in self._lines("usiok"):
            tokens = line.split()
            if tokens[:2] == ["option", "name"] and "type" in tokens:
                options.append(" ".join(tokens[2:tokens.index("type")]))
        if variant_path and "VariantPath" in options:
            self.send(f"setoption name VariantPath value {variant_path}")
        name = "UCI_Variant" if "UCI_Variant" in options else "USI_Variant"
        self.send(f"setoption name {name} value {variant}")
        self.send("isready")
        for _ in self._lines("readyok"):
            pass

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _lines(self, until: str) -> Iterator[str]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited while waiting for {until}")
            if line.split()[:1] == [until]:
                return
            yield line

    def search(self, sfen: str, moves: list[str], go: str) -> tuple[Optional[int], str]:
        """The last reported score (None if a mate) and the best move."""
        self.send(f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        score: Optional[int] = None
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited during a search")
            tokens = line.split()
            if tokens[:1] == ["bestmove"]:
                return score, tokens[1] if len(tokens) > 1 else "resign"
            if "score" in tokens:
                i = tokens.index("score")
                kind, value = tokens[i + 1], tokens[i + 2]
                score = int(value) if kind == "cp" else None

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


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
                    engines[v] = UsiEngine(args.engine.split(), v, args.variant_path)
                moves = r["moves"][:n]
                score, best = engines[v].search(r["start_sfen"], moves, go)
                with lock:
                    done[0] += 1
                    if done[0] % 500 == 0:
                        print(f"label: {done[0]}/{len(jobs)}", file=sys.stderr)
                    if score is None or abs(score) > args.max_score:
                        continue
                    print(json.dumps({"variant": v, "start_sfen": r["start_sfen"],
                                      "moves": moves, "score": score, "bestmove": best}),
                          flush=True)
        finally:
            for e in engines.values():
                e.close()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
