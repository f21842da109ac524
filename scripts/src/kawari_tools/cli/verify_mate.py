#!/usr/bin/env python3
"""Solve tsume problems with a USI engine's `go mate` and check every answer with
pyffish, independently of the engine: each attacker move legal and a check, each
defender move legal, the last position checkmate.

Example::

    kawari-verify-mate --engine target/release/kawari \\
        --problems engine-tests/data/tsume.tsv --max-plies 100

The problems file is a TSV with a header and the columns ``name``, ``sfen`` and
``plies`` (the published length; more columns are ignored). Exit status 1 when an
answer is missing, wrong, or (with ``--exact``) not of the published length.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from kawari_tools import referee
from kawari_tools.mate_check import verify_line
from kawari_tools.usi_client import EngineError, UsiEngine


def ask_engine(cmd: list[str], variant: str, sfen: str, ms: int, hash_mb: int,
               grace: float = 30.0) -> tuple[list[str], float]:
    """The words after `checkmate` in the engine's answer, and the seconds it took.
    EngineError if the engine dies, hangs (no answer within ``ms`` + ``grace``) or
    answers garbage."""
    with UsiEngine(cmd, timeout=grace) as usi:
        usi.set_option("USI_Hash", str(hash_mb))
        usi.select_variant(variant)
        usi.isready()
        start = time.monotonic()
        answer = usi.mate(sfen, ms, ms / 1000 + grace)
        return answer, time.monotonic() - start


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
    ap.add_argument("--grace", type=float, default=30.0,
                    help="seconds beyond --ms before an engine that has not answered "
                         "counts as hung (30)")
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
        try:
            answer, took = ask_engine(shlex.split(a.engine), a.variant, sfen, a.ms, a.hash,
                                      a.grace)
            error = None
        except EngineError as e:
            answer, took, error = [], 0.0, str(e)
        if error:
            verdict = f"engine error: {error}"
        elif not answer or answer[0] in ("nomate", "timeout", "notimplemented"):
            verdict = f"no mate: {' '.join(answer) or 'no answer'}"
        else:
            verdict = verify_line(v, sfen, answer) or "ok"
            if verdict == "ok" and a.exact and len(answer) != int(plies):
                verdict = "not the published length"
        failures += verdict != "ok"
        got = len(answer) if answer and answer[0] not in ("nomate", "timeout",
                                                          "notimplemented") else "-"
        print(f"{name:20} published {plies:>5}  answer {got!s:>5}  {took:6.2f} s  {verdict}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
