#!/usr/bin/env python3
"""Regenerate or check perft reference data with pyffish, independently of Kawari.

pyffish is Fairy-Stockfish's Python binding. Its legal moves are converted to USI by
``kawari_tools.referee``, which also removes pawn-drop mates in shogi and judkins (upstream
Fairy-Stockfish generates them) and loads Heian from ``heian.ini`` with the bare-king
rule off (perft ignores game-end rules other than "no legal move").

Examples::

    # perft(1..3) of every position in a reference file, written as a new TSV
    kawari-gen-reference perft --variant judkins \\
        --positions engine-tests/data/judkins.tsv --depth 3 --out /tmp/judkins.tsv
    # divides (per-move perft(2)) of the positions in a divide file
    kawari-gen-reference divide --variant shogi \\
        --positions engine-tests/data/shogi-divide.tsv --out /tmp/shogi-divide.tsv
    # check the shipped data against pyffish (depth <= 2 keeps it quick)
    kawari-gen-reference check --variant heian8x8 --max-depth 2

Output files use the formats described in engine-tests/data/PROVENANCE.md.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from kawari_tools import paths, referee

DATA_DIR = os.path.join(paths.REPO_ROOT,
                        "engine-tests", "data")


def perft(v: referee.Variant, board: referee.Board, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (last ply bulk-counted)."""
    if depth == 0:
        return 1
    moves = referee.legal_usi_moves(v, board.sfen())
    if depth == 1:
        return len(moves)
    return sum(perft(v, board.apply(m), depth - 1) for m in moves)


def divide(v: referee.Variant, sfen: str, depth: int = 2) -> list[tuple[str, int]]:
    """``(move, perft(depth - 1) after it)`` for every legal move."""
    board = referee.Board.from_sfen(sfen, v)
    return [(m, perft(v, board.apply(m), depth - 1))
            for m in sorted(referee.legal_usi_moves(v, sfen))]


def read_tsv(path: str) -> list[list[str]]:
    """Rows of a TSV file, header skipped."""
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    return [line.split("\t") for line in lines[1:]]


def unique_sfens(rows: list[list[str]]) -> list[str]:
    """First-column SFENs in file order, without repeats."""
    seen: dict[str, None] = {}
    for row in rows:
        seen.setdefault(row[0], None)
    return list(seen)


def write_perft_table(v: referee.Variant, sfens: list[str], depth: int, path: str) -> None:
    """``sfen<TAB>depth<TAB>nodes`` rows: perft(1..depth) of each position."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("sfen\tdepth\tnodes\n")
        for sfen in sfens:
            board = referee.Board.from_sfen(sfen, v)
            for d in range(1, depth + 1):
                out.write(f"{sfen}\t{d}\t{perft(v, board, d)}\n")


def cmd_perft(a: argparse.Namespace) -> int:
    v = referee.get_variant(a.variant)
    sfens = unique_sfens(read_tsv(a.positions)) if a.positions else [v.start_sfen]
    write_perft_table(v, sfens, a.depth, a.out)
    return 0


def cmd_divide(a: argparse.Namespace) -> int:
    v = referee.get_variant(a.variant)
    sfens = unique_sfens(read_tsv(a.positions)) if a.positions else [v.start_sfen]
    with open(a.out, "w", encoding="utf-8") as out:
        out.write("sfen\tmove\tnodes\n")
        for sfen in sfens:
            for move, n in divide(v, sfen):
                out.write(f"{sfen}\t{move}\t{n}\n")
    return 0


def without_king(board: referee.Board, side: str) -> referee.Board:
    """``board`` with ``side``'s king taken off (a tsume problem's attacker)."""
    b = board.copy()
    for row in b.grid:
        for col, piece in enumerate(row):
            if piece == ("K" if side == referee.BLACK else "k"):
                row[col] = None
    return b


def in_check(v: referee.Variant, board: referee.Board, side: str) -> bool:
    """Whether ``side`` is in check in ``board`` (pyffish asked with ``side`` to move)."""
    b = board.copy()
    b.side = side
    return referee.board_in_check(v, b)


def kingless_positions(v: referee.Variant, sfens: list[str], count: int,
                       seed: int) -> list[str]:
    """Up to ``count`` positions whose side to move has no king, made from ``sfens``
    by taking that king off (kept when the other king is not in check and a move
    exists), each followed by a position one random move later (the side with the
    king to move)."""
    rng = random.Random(seed)
    out: list[str] = []
    for sfen in sfens:
        if len(out) >= 2 * count:
            break
        board = referee.Board.from_sfen(sfen, v)
        board = without_king(board, board.side)
        if in_check(v, board, referee.opponent(board.side)):
            continue
        moves = referee.legal_usi_moves(v, board.sfen())
        if not moves:
            continue
        after = board.apply(rng.choice(sorted(moves)))
        if not referee.legal_usi_moves(v, after.sfen()):
            continue
        out += [board.sfen(), after.sfen()]
    return out


def cmd_kingless(a: argparse.Namespace) -> int:
    v = referee.get_variant(a.variant)
    rows = read_tsv(os.path.join(a.data, f"{v.name}.tsv"))
    sfens = kingless_positions(v, unique_sfens(rows)[1:], a.count, a.seed)
    write_perft_table(v, sfens, a.depth, a.out)
    return 0


def cmd_check(a: argparse.Namespace) -> int:
    """Compare the shipped reference files with pyffish; exit 1 on any mismatch."""
    v = referee.get_variant(a.variant)
    bad = checked = 0
    for sfen, depth, nodes in read_tsv(os.path.join(a.data, f"{v.name}.tsv")):
        if int(depth) > a.max_depth:
            continue
        got = perft(v, referee.Board.from_sfen(sfen, v), int(depth))
        checked += 1
        if got != int(nodes):
            bad += 1
            print(f"MISMATCH {sfen} perft({depth}): file {nodes}, pyffish {got}")
    by_sfen: dict[str, dict[str, int]] = {}
    for sfen, move, nodes in read_tsv(os.path.join(a.data, f"{v.name}-divide.tsv")):
        by_sfen.setdefault(sfen, {})[move] = int(nodes)
    for sfen, expected in by_sfen.items():
        got = dict(divide(v, sfen))
        checked += 1
        if got != expected:
            bad += 1
            print(f"MISMATCH divide of {sfen}: "
                  f"only in file {sorted(set(expected) - set(got))}, "
                  f"only in pyffish {sorted(set(got) - set(expected))}")
    print(f"{v.name}: {checked} counts checked, {bad} mismatches")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--heian-ini", default=None,
                   help="Heian definitions (default: the package's heian.ini)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("perft", help="perft(1..depth) of positions")
    sp.add_argument("--variant", required=True)
    sp.add_argument("--positions", help="TSV whose first column is SFENs (default: start)")
    sp.add_argument("--depth", type=int, default=3)
    sp.add_argument("--out", required=True)
    sd = sub.add_parser("divide", help="per-move perft(2) of positions")
    sd.add_argument("--variant", required=True)
    sd.add_argument("--positions")
    sd.add_argument("--out", required=True)
    sc = sub.add_parser("check", help="check engine-tests/data against pyffish")
    sc.add_argument("--variant", required=True)
    sc.add_argument("--max-depth", type=int, default=2)
    sc.add_argument("--data", default=DATA_DIR)
    sk = sub.add_parser("kingless", help="perft of positions whose side to move has no "
                        "king (made from the reference positions) and one move later")
    sk.add_argument("--variant", required=True)
    sk.add_argument("--count", type=int, default=4, help="positions without a king to move")
    sk.add_argument("--depth", type=int, default=3)
    sk.add_argument("--seed", type=int, default=1)
    sk.add_argument("--data", default=DATA_DIR)
    sk.add_argument("--out", required=True)
    a = p.parse_args(argv)
    referee.init_pyffish(a.heian_ini)
    commands = {"perft": cmd_perft, "divide": cmd_divide, "check": cmd_check,
                "kingless": cmd_kingless}
    return commands[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
