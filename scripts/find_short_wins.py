#!/usr/bin/env python3
"""Collect positions that may hold a short forced win, for the search tests.

Plays Kawari against itself (``go nodes N``, a few random opening plies, every move
refereed with pyffish) and, in each decisive game, writes every position of the
last ``--plies`` plies in which the eventual winner is to move. These are
*candidates*: the game's end does not prove a forced win, nor its length. The
exact shortest win of each is decided by a brute-force search in Rust::

    python3 scripts/find_short_wins.py --engine target/release/kawari \\
        --variant heian --games 20 --seed 1 > /tmp/candidates.tsv
    KAWARI_CANDIDATES=/tmp/candidates.tsv cargo test --release --test short_wins \\
        -- --ignored label_short_win_candidates --nocapture

Candidates come from the game's end rather than from the engine's own mate
scores, so the test set is not limited to wins the engine already sees.

Output: TSV lines ``variant``, ``sfen``, ``plies to the game's end``.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import referee  # noqa: E402


class Usi:
    """A minimal USI session with one engine."""

    def __init__(self, cmd: list[str], variant: str):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send(f"usi\nsetoption name USI_Variant value {variant}\nisready")
        self.until("readyok")

    def send(self, text: str) -> None:
        assert self.p.stdin
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def until(self, word: str) -> str:
        assert self.p.stdout
        for line in self.p.stdout:
            if line.split()[:1] == [word]:
                return line
        raise RuntimeError("engine exited")

    def best(self, sfen: str, nodes: int) -> str:
        self.send(f"position sfen {sfen}\ngo nodes {nodes}")
        return self.until("bestmove").split()[1]

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


def play(usi: Usi, variant: str, rng: random.Random, nodes: int, random_plies: int,
         max_plies: int) -> tuple[referee.Referee, str | None]:
    """One self-play game; the winner's side, or None."""
    game = referee.Referee(variant)
    while game.ply < max_plies and game.outcome() is None:
        if game.ply < random_plies:
            move = rng.choice(game.legal_moves())
        else:
            move = usi.best(game.sfen, nodes)
            if move in ("resign", "win"):
                break
        game.push(move)
    out = game.outcome()
    return game, (out.winner if out else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="Kawari binary (a command line)")
    ap.add_argument("--variant", required=True, choices=referee.VARIANTS)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--nodes", type=int, default=20000, help="nodes per move")
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--plies", type=int, default=7, help="look back this far from the end")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heian-ini", default=os.path.join(os.path.dirname(__file__), "heian.ini"))
    args = ap.parse_args(argv)
    referee.init_pyffish(args.heian_ini)
    rng = random.Random(args.seed)
    usi = Usi(shlex.split(args.engine), args.variant)
    try:
        for g in range(args.games):
            game, winner = play(usi, args.variant, rng, args.nodes, args.random_plies,
                                args.max_plies)
            print(f"game {g + 1}: {game.ply} plies, winner {winner}", file=sys.stderr)
            if winner is None:
                continue
            replay = referee.Referee(args.variant)
            for i, m in enumerate(game.moves):
                left = game.ply - i
                if left <= args.plies and replay.side == winner:
                    print(f"{args.variant}\t{replay.sfen}\t{left}", flush=True)
                replay.push(m)
    finally:
        usi.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
