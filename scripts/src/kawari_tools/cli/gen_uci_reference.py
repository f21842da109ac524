#!/usr/bin/env python3
"""Write UCI-notation reference data with pyffish, for Kawari's UCI front end.

Fairy-Stockfish's own FEN and move notation is the reference for Kawari's UCI
dialect, so both come straight from pyffish here: random games are played with
pyffish's legal moves, and for each position the file records pyffish's FEN
(``pyffish.get_fen``) and its legal moves in its own notation.  The only change
made to pyffish's answer is the one the rules require: a pawn drop that mates is
removed in shogi and judkins (``referee.legal_fsf_moves``).  Heian is loaded from
``heian.ini`` with the bare-king rule off, as for perft.

Output, one file per variant: ``fen<TAB>moves<TAB>played`` with the legal
moves sorted and separated by spaces, and ``played`` the moves from the start
position that reached the FEN (so the FEN's move counters can be checked
too); lines starting with ``#`` are comments.

Example::

    kawari-gen-uci-reference --variant judkins --games 4 --seed 1 \\
        --out engine-tests/data/judkins-uci.tsv
"""

from __future__ import annotations

import argparse
import random
import sys

import pyffish

from kawari_tools import referee


def positions(variant: str, games: int, plies: int, every: int,
              seed: int) -> list[tuple[str, list[str], list[str]]]:
    """``(fen, sorted legal moves, moves played from the start)`` every
    ``every`` plies of ``games`` random games."""
    v = referee.get_variant(variant)
    referee.init_pyffish()
    rng = random.Random(seed)
    start = pyffish.start_fen(variant)
    out = []
    for _ in range(games):
        moves: list[str] = []
        for ply in range(plies):
            fen = pyffish.get_fen(variant, start, moves)
            legal = sorted(referee.legal_fsf_moves(v, fen))
            if not legal:
                break
            if ply % every == 0:
                out.append((fen, legal, list(moves)))
            # Prefer captures and drops now and then, so that hands fill up.
            busy = [m for m in legal if "@" in m or m.endswith("+")]
            moves.append(rng.choice(busy if busy and rng.random() < 0.3 else legal))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True, choices=sorted(referee.VARIANTS))
    ap.add_argument("--games", type=int, default=4, help="random games (default 4)")
    ap.add_argument("--plies", type=int, default=120, help="plies per game (default 120)")
    ap.add_argument("--every", type=int, default=8, help="record every Nth ply (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="output TSV file")
    args = ap.parse_args(argv)
    rows = positions(args.variant, args.games, args.plies, args.every, args.seed)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(f"# pyffish {pyffish.version()}: {args.variant}, {args.games} random games, "
                f"seed {args.seed}, every {args.every}th ply of {args.plies}\n")
        f.write("fen\tmoves\tplayed\n")
        for fen, legal, played in rows:
            f.write(f"{fen}\t{' '.join(legal)}\t{' '.join(played)}\n")
    print(f"{args.out}: {len(rows)} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
