#!/usr/bin/env python3
"""Solve tsume problems with a USI engine's `go mate` and check every answer with
pyffish, independently of the engine: each attacker move legal and a check, each
defender move legal, the last position checkmate.

Example::

    python3 scripts/verify_mate.py --engine target/release/kawari \\
        --problems engine-tests/data/tsume.tsv --max-plies 100

The problems file is a TSV with a header and the columns ``name``, ``sfen`` and
``plies`` (the published length; more columns are ignored). Exit status 1 when an
answer is missing, wrong, or (with ``--exact``) not of the published length.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import referee  # noqa: E402


def verify_line(v: referee.Variant, sfen: str, line: list[str]) -> str | None:
    """None if ``line`` is a complete mate from ``sfen``, else what is wrong."""
    board = referee.Board.from_sfen(sfen, v)
    attacker = board.side
    for i, move in enumerate(line):
        if move not in referee.legal_usi_moves(v, board.sfen()):
            return f"move {i + 1} {move} is not legal"
        by_attacker = board.side == attacker
        board = board.apply(move)
        if by_attacker and not referee.board_in_check(v, board):
            return f"attacker's move {i + 1} {move} is not a check"
    mated = not referee.legal_usi_moves(v, board.sfen()) and referee.board_in_check(v, board)
    if not line or not mated:
        return "the line does not end in checkmate"
    return None


def ask_engine(cmd: list[str], variant: str, sfen: str, ms: int, hash_mb: int) -> tuple[list[str], float]:
    """The words after `checkmate` in the engine's answer, and the seconds it took."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert p.stdin and p.stdout
    p.stdin.write(f"usi\nsetoption name USI_Hash value {hash_mb}\n"
                  f"setoption name USI_Variant value {variant}\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    start = time.monotonic()
    p.stdin.write(f"position sfen {sfen}\ngo mate {ms}\n")
    p.stdin.flush()
    answer: list[str] = []
    for line in p.stdout:
        if line.startswith("checkmate"):
            answer = line.split()[1:]
            break
    took = time.monotonic() - start
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=10)
    return answer, took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="engine command line")
    ap.add_argument("--problems", required=True, help="TSV of name, sfen, plies")
    ap.add_argument("--variant", default="shogi")
    ap.add_argument("--ms", type=int, default=10_000, help="go mate time per problem")
    ap.add_argument("--hash", type=int, default=256, help="USI_Hash in MB")
    ap.add_argument("--max-plies", type=int, default=100,
                    help="skip problems longer than this (published length)")
    ap.add_argument("--exact", action="store_true",
                    help="also require the published length")
    ap.add_argument("--heian-ini", default=None)
    a = ap.parse_args(argv)
    referee.init_pyffish(a.heian_ini)
    v = referee.get_variant(a.variant)
    failures = 0
    with open(a.problems, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()][1:]
    for name, sfen, plies, *_ in rows:
        if int(plies) > a.max_plies:
            continue
        answer, took = ask_engine(shlex.split(a.engine), a.variant, sfen, a.ms, a.hash)
        if not answer or answer[0] in ("nomate", "timeout"):
            verdict = f"no mate: {' '.join(answer) or 'no answer'}"
        else:
            verdict = verify_line(v, sfen, answer) or "ok"
            if verdict == "ok" and a.exact and len(answer) != int(plies):
                verdict = "not the published length"
        failures += verdict != "ok"
        got = len(answer) if answer and answer[0] not in ("nomate", "timeout") else "-"
        print(f"{name:20} published {plies:>5}  answer {got!s:>5}  {took:6.2f} s  {verdict}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
