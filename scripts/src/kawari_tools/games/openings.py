"""Openings of a match: a start position and moves played from it, read from a
file (the variant's balanced suite by default) or made of random legal plies."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

from kawari_tools import paths, referee
from kawari_tools.referee import Referee


@dataclass
class Opening:
    """A start position and the opening moves played from it."""

    sfen: str
    moves: list[str]


def parse_opening_line(line: str, variant: referee.Variant, base_sfen: str) -> Opening:
    """One line of an openings file: an SFEN (``sfen`` prefix optional), ``startpos``
    or a bare list of USI moves from ``base_sfen``; each optionally followed by
    ``moves m1 m2 ...``.  A leading ``position`` is ignored."""
    tokens = line.split()
    if tokens and tokens[0] == "position":
        tokens = tokens[1:]
    if not tokens:
        raise ValueError("empty opening")
    if tokens[0] == "startpos":
        sfen, rest = variant.start_sfen, tokens[1:]
    elif tokens[0] == "sfen" or "/" in tokens[0]:
        if tokens[0] == "sfen":
            tokens = tokens[1:]
        end = tokens.index("moves") if "moves" in tokens else len(tokens)
        sfen, rest = " ".join(tokens[:end]), tokens[end:]
    else:
        sfen, rest = base_sfen, tokens
    if rest and rest[0] == "moves":
        rest = rest[1:]
    ref = Referee(variant, sfen, rest)            # raises on a bad SFEN or move
    if ref.outcome() is not None:
        raise ValueError(f"the opening has already ended: {ref.outcome().reason}")
    return Opening(ref.start_sfen, list(rest))


def load_openings(path: str, variant: referee.Variant, base_sfen: str) -> list[Opening]:
    openings = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                openings.append(parse_opening_line(line, variant, base_sfen))
            except ValueError as e:
                raise ValueError(f"{path}:{number}: {e}") from e
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def default_openings_path(variant: str) -> str:
    """The repository's balanced suite of ``variant``: ``openings/<variant>.txt``."""
    return os.path.join(paths.OPENINGS_DIR, f"{variant}.txt")


def random_openings(variant: referee.Variant, base_sfen: str, plies: int, count: int,
                    seed: int) -> list[Opening]:
    """``count`` openings of ``plies`` uniformly random legal moves (seeded), none of
    which ends the game; opening ``k`` depends only on the seed and ``k``."""
    start = Referee(variant, base_sfen).start_sfen
    openings = []
    for k in range(count):
        rng = random.Random(f"{seed}:{k}")
        for _attempt in range(1000):
            ref = Referee(variant, start)
            while ref.ply < plies and ref.outcome() is None:
                ref.push(rng.choice(ref.legal_moves()))
            if ref.outcome() is None:
                openings.append(Opening(start, list(ref.moves)))
                break
        else:
            raise ValueError(f"cannot find a {plies}-ply random opening that does not end the game")
    return openings
