#!/usr/bin/env python3
"""Collect positions that may hold a short forced win, for the search tests.

Plays Kawari against itself (``go nodes N``, a few random opening plies, every move
refereed with pyffish) and, in each decisive game, writes every position of the
last ``--plies`` plies in which the eventual winner is to move. These are
*candidates*: the game's end does not prove a forced win, nor its length. The
exact shortest win of each is decided by a brute-force search in Rust::

    kawari-find-short-wins --engine target/release/kawari \\
        --variant heian --games 20 --seed 1 > /tmp/candidates.tsv
    KAWARI_CANDIDATES=/tmp/candidates.tsv cargo test --release --test engine \\
        -- --ignored label_short_win_candidates --nocapture

Candidates come from the game's end rather than from the engine's own mate
scores, so the test set is not limited to wins the engine already sees.

Output: TSV lines ``variant``, ``sfen``, ``plies to the game's end``.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys

from kawari_tools import paths, referee
from kawari_tools.usi_client import UsiEngine


def open_engine(cmd: list[str], variant: str, timeout: float) -> UsiEngine:
    """A started Kawari playing ``variant``."""
    usi = UsiEngine(cmd, timeout=timeout).start()
    usi.select_variant(variant)
    usi.isready()
    return usi


def play(usi: UsiEngine, variant: str, rng: random.Random, nodes: int, random_plies: int,
         max_plies: int, timeout: float) -> tuple[referee.Referee, str | None]:
    """One self-play game; the winner's side, or None."""
    game = referee.Referee(variant)
    while game.ply < max_plies and game.outcome() is None:
        if game.ply < random_plies:
            move = rng.choice(game.legal_moves())
        else:
            move = usi.search(game.sfen, [], f"go nodes {nodes}", timeout).move
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
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds the engine may take for one move or to start (60)")
    ap.add_argument("--heian-ini", default=paths.DEFAULT_HEIAN_INI)
    args = ap.parse_args(argv)
    referee.init_pyffish(args.heian_ini)
    rng = random.Random(args.seed)
    usi = open_engine(shlex.split(args.engine), args.variant, args.timeout)
    try:
        for g in range(args.games):
            game, winner = play(usi, args.variant, rng, args.nodes, args.random_plies,
                                args.max_plies, args.timeout)
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
        usi.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
