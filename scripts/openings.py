#!/usr/bin/env python3
"""Generate a suite of balanced opening positions for one of Kawari's variants.

Candidate ``k`` is the position after N uniformly random legal plies from the start
(N drawn from the variant's range, both seeded by ``--seed`` and ``k`` only).  A
candidate is dropped if the game has ended, the side to move is in check (its reply
would be forced), or its position (SFEN without the move number) was met before.  The
others are searched by the engine at a fixed depth on a cleared hash table
(``usinewgame`` before each search, so a score does not depend on what was searched
before) and kept when the score, in centipawns for the side to move, is within
``--band`` of 0; mate scores are never kept.  The suite is the first ``--count``
kept candidates in order of ``k``, so the same engine build, seed and settings give
the same file, whatever ``--concurrency``.

Every move is checked with the referee (pyffish and the project's rules, referee.py).

The output file has a header of ``#`` comments (command, engine, depth, band, seed,
date, how many candidates were tried and kept), then one SFEN per line followed by a
``#`` comment with the score and the random moves that led to it.  match.py reads it
with ``--openings`` and by default from ``openings/<variant>.txt``; ``kawari datagen
--book`` reads it too.

Example::

    python3 scripts/openings.py --variant judkins --engine target/release/kawari \\
        --out openings/judkins.txt

Exit status: 0 when the suite was written, 1 if the engine fails, 2 on bad arguments
or when the candidates run out before ``--count`` positions were kept.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import random
import shlex
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Optional

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(SCRIPTS_DIR)
if SCRIPTS_DIR not in sys.path:
    sys.path.insert(0, SCRIPTS_DIR)

import referee  # noqa: E402
from usi_client import EngineError, EngineSpec, UsiEngine  # noqa: E402

SUITE_DIR = os.path.join(REPO_ROOT, "openings")

# Random plies per candidate, (least, most).  Random moves are mostly bad ones, so
# the fewer the better for balance, but enough for variety: on 9x9 shogi and 7x9
# yari shogi the armies are four ranks apart and four to eight plies rarely lose
# anything, while giving many thousands of distinct positions.  Judkins (6x6) has
# its pieces in contact after a move or two, and the Heian boards (no drops, no
# rook or bishop) have few useful first moves: two to six plies there.
PLY_RANGES = {
    "shogi": (4, 8),
    "yarishogi": (4, 8),
    "judkins": (2, 6),
    "heian": (2, 6),
    "heian9x8": (2, 6),
    "heian8x9": (2, 6),
    "heian8x8": (2, 6),
}
# Kept scores, +/- centipawns for the side to move.  Kawari at depth 10 scores the
# start positions +13 to +46 (judkins +144): 60 cp is about three times the first
# move's worth in shogi and yari shogi, and keeps 5% of judkins candidates (median
# |score| of those kept about 30).  The Heian boards score small (no drops, short
# moves): 95% of their candidates fall within 60 cp, so 30 there.
BANDS = {"shogi": 60, "yarishogi": 60, "judkins": 60, "heian": 30, "heian9x8": 30,
         "heian8x9": 30, "heian8x8": 30}
# Depth 10 costs Kawari some 20-40 ms a position; shallower scores swing more from
# one iteration to the next.
DEFAULT_DEPTH = 10
DEFAULT_COUNT = 300
DEFAULT_MAX_CANDIDATES = 20000
SEARCH_TIMEOUT_S = 300.0


def suite_path(variant: str) -> str:
    """The repository's suite of ``variant``: ``openings/<variant>.txt``."""
    return os.path.join(SUITE_DIR, f"{variant}.txt")


@dataclass
class Candidate:
    """Candidate ``index``: the position after ``moves`` from the start."""

    index: int
    sfen: str
    key: str
    moves: list[str]


@dataclass
class Stats:
    """What happened to the candidates, for the provenance header."""

    drawn: int = 0          # candidates generated
    ended: int = 0          # the game ended or the side to move is in check
    duplicates: int = 0
    searched: int = 0
    kept: int = 0           # of those searched, within the band (before the cut)


def random_candidate(variant: referee.Variant, seed: int, index: int,
                     plies: tuple[int, int]) -> Optional[Candidate]:
    """Candidate ``index`` of ``seed``; None if the game ended on the way or the side
    to move is in check at the end."""
    rng = random.Random(f"openings:{seed}:{index}")
    ref = referee.Referee(variant)
    for _ in range(rng.randint(*plies)):
        if ref.outcome() is not None:
            return None
        ref.push(rng.choice(ref.legal_moves()))
    if ref.outcome() is not None or ref.in_check():
        return None
    return Candidate(index, ref.sfen, ref.board.key(), list(ref.moves))


class Candidates:
    """Hands out distinct candidates in order of their index, from several threads."""

    def __init__(self, variant: referee.Variant, seed: int, plies: tuple[int, int],
                 limit: int):
        self.variant, self.seed, self.plies, self.limit = variant, seed, plies, limit
        self.next_index = 0
        self.seen: set[str] = set()
        self.stats = Stats()
        self.lock = threading.Lock()

    def next(self) -> Optional[Candidate]:
        with self.lock:
            while self.next_index < self.limit:
                k = self.next_index
                self.next_index += 1
                self.stats.drawn += 1
                c = random_candidate(self.variant, self.seed, k, self.plies)
                if c is None:
                    self.stats.ended += 1
                elif c.key in self.seen:
                    self.stats.duplicates += 1
                else:
                    self.seen.add(c.key)
                    return c
            return None


def in_band(score: Optional[tuple[str, int]], band: int) -> bool:
    """A centipawn score within ``band`` of 0 (mate scores never are)."""
    return score is not None and score[0] == "cp" and abs(score[1]) <= band


def generate(variant: referee.Variant, spec: EngineSpec, count: int, depth: int,
             band: int, seed: int, plies: tuple[int, int], max_candidates: int,
             concurrency: int, variant_path: str,
             progress: Callable[[str], None] = lambda _: None
             ) -> tuple[list[tuple[Candidate, int]], Stats, str]:
    """The first ``count`` balanced candidates (with their scores), the statistics,
    and the engine's ``id name``.  Fewer than ``count`` if the candidates run out."""
    cands = Candidates(variant, seed, plies, max_candidates)
    results: dict[int, Optional[int]] = {}     # searched index -> cp if kept, else None
    order: list[int] = []                       # searched indices, as handed out
    lock = threading.Lock()
    done = threading.Event()
    errors: list[BaseException] = []
    names: list[str] = []

    def enough() -> bool:
        # Kept among the candidates handed out before the first one still searching:
        # only that prefix is final, and it is what makes the result independent of
        # the number of threads.
        kept = 0
        for k in order:
            if k not in results:
                return False
            if results[k] is not None:
                kept += 1
                if kept >= count:
                    return True
        return False

    def worker() -> None:
        try:
            with UsiEngine(spec, "openings") as eng:
                eng.select_variant(variant.name, variant_path if variant.needs_ini else None)
                for name, value in spec.options:
                    eng.set_option(name, value)
                eng.set_option("Threads", "1")
                eng.isready()
                with lock:
                    names.append(eng.name)
                while not done.is_set():
                    with lock:
                        c = cands.next()
                        if c is None:
                            return
                        order.append(c.index)
                    eng.new_game()
                    reply = eng.search(c.sfen, [], f"go depth {depth}", SEARCH_TIMEOUT_S)
                    score = reply.score
                    with lock:
                        cands.stats.searched += 1
                        ok = in_band(score, band)
                        cands.stats.kept += ok
                        results[c.index] = score[1] if ok else None
                        c_by_index[c.index] = c
                        if cands.stats.searched % 100 == 0:
                            progress(f"{variant.name}: {cands.stats.searched} searched, "
                                     f"{cands.stats.kept} in the band")
                        if enough():
                            done.set()
        except BaseException as e:          # reported by the caller
            errors.append(e)
            done.set()

    c_by_index: dict[int, Candidate] = {}
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    kept: list[tuple[Candidate, int]] = []
    for k in sorted(results):
        if results[k] is not None and len(kept) < count:
            kept.append((c_by_index[k], results[k]))
    return kept, cands.stats, names[0] if names else ""


def repository_commit() -> str:
    """HEAD of the repository and whether its tree has changes, e.g. ``d9116bd5 (clean)``."""
    try:
        head = subprocess.run(["git", "-C", REPO_ROOT, "rev-parse", "HEAD"], text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO_ROOT, "status", "--porcelain",
                                "--untracked-files=no"], text=True, capture_output=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} ({'with uncommitted changes' if dirty else 'clean'})"


def suite_text(variant: str, kept: list[tuple[Candidate, int]], stats: Stats, command: str,
               engine: str, build: str, depth: int, band: int, seed: int,
               plies: tuple[int, int], date: str) -> str:
    """The suite file: the provenance header, then one SFEN per line."""
    last = kept[-1][0].index if kept else -1
    lines = [
        f"# Kawari balanced openings: {variant}, {len(kept)} positions",
        f"# command: {command}",
        f"# engine: {engine}; build: {build}",
        f"# search: go depth {depth}, Threads 1, hash cleared before each position",
        f"# kept: score within +/-{band} cp of 0 for the side to move (no mate scores)",
        f"# candidates: {plies[0]}-{plies[1]} random legal plies from the start, seed {seed}",
        f"# tried: candidates 0..{last} ({last + 1}): {stats.ended} ended or in check, "
        f"{stats.duplicates} duplicate positions, the other {last + 1 - stats.ended - stats.duplicates} "
        f"searched, {len(kept)} kept",
        f"# date: {date}",
        "# format: one SFEN per line; after '#' the score (cp, side to move) and the random "
        "moves from the start position",
    ]
    for c, cp in kept:
        lines.append(f"{c.sfen}  # {cp:+d} cp after {' '.join(c.moves)}")
    return "\n".join(lines) + "\n"


def count_tried(kept: list[tuple[Candidate, int]], variant: referee.Variant, seed: int,
                plies: tuple[int, int]) -> Stats:
    """The statistics of candidates 0..last kept one alone (the run may have drawn a
    few more that were searched in parallel): what the header reports."""
    stats = Stats()
    last = kept[-1][0].index if kept else -1
    seen: set[str] = set()
    for k in range(last + 1):
        c = random_candidate(variant, seed, k, plies)
        if c is None:
            stats.ended += 1
        elif c.key in seen:
            stats.duplicates += 1
        else:
            seen.add(c.key)
    return stats


def parse_plies(text: str) -> tuple[int, int]:
    lo, sep, hi = text.partition("-")
    a, b = int(lo), int(hi if sep else lo)
    if not 0 <= a <= b:
        raise ValueError(f"bad --plies {text!r}: expected LO-HI with 0 <= LO <= HI")
    return a, b


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="openings.py",
        description="Generate balanced opening positions for a variant: random plies from "
                    "the start, kept when a fixed-depth search scores them near 0, "
                    "deduplicated; one SFEN per line with a provenance header.")
    p.add_argument("--variant", required=True, choices=sorted(referee.VARIANTS))
    p.add_argument("--engine", default=os.path.join(REPO_ROOT, "target", "release", "kawari"),
                   metavar="CMD", help="engine command line (default: %(default)s)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="USI option for the engine (repeatable)")
    p.add_argument("--out", metavar="FILE",
                   help="output file (default: openings/<variant>.txt in the repository)")
    p.add_argument("--count", type=int, default=DEFAULT_COUNT,
                   help="positions to keep (default: %(default)s)")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                   help="search depth (default: %(default)s)")
    p.add_argument("--band", type=int, metavar="CP",
                   help="keep scores within +/-CP of 0 (default per variant: " +
                        ", ".join(f"{v} {b}" for v, b in BANDS.items()) + ")")
    p.add_argument("--plies", metavar="LO-HI",
                   help="random plies per candidate (default per variant: " +
                        ", ".join(f"{v} {a}-{b}" for v, (a, b) in PLY_RANGES.items()) + ")")
    p.add_argument("--seed", type=int, default=1, help="(default: %(default)s)")
    p.add_argument("--max-candidates", type=int, default=DEFAULT_MAX_CANDIDATES,
                   help="give up after this many candidates (default: %(default)s)")
    p.add_argument("--concurrency", type=int, default=1,
                   help="engines searching at the same time (default: %(default)s)")
    p.add_argument("--variant-path", default=referee.DEFAULT_HEIAN_INI, metavar="INI",
                   help="Heian definition sent as VariantPath and loaded into pyffish")
    p.add_argument("--build", metavar="TEXT",
                   help="the engine's build for the header (default: the repository's HEAD)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.band is None:
            args.band = BANDS[args.variant]
        if args.count < 1 or args.depth < 1 or args.band < 0 or args.concurrency < 1 \
                or args.max_candidates < 1:
            raise ValueError("--count, --depth, --concurrency and --max-candidates must be "
                             "positive and --band not negative")
        plies = parse_plies(args.plies) if args.plies else PLY_RANGES[args.variant]
        engine_argv = shlex.split(args.engine)
        if not engine_argv:
            raise ValueError("empty --engine command")
        options = []
        for text in args.option:
            name, eq, value = text.partition("=")
            options.append((name.strip(), value if eq else None))
        args.variant_path = os.path.abspath(args.variant_path)
        referee.init_pyffish(args.variant_path)
        variant = referee.get_variant(args.variant)
    except ValueError as e:
        parser.error(str(e))
    out = args.out or suite_path(variant.name)
    log = (lambda _: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    spec = EngineSpec(engine_argv, None, options)
    try:
        kept, _, engine = generate(variant, spec, args.count, args.depth, args.band,
                                   args.seed, plies, args.max_candidates, args.concurrency,
                                   args.variant_path, log)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if len(kept) < args.count:
        print(f"error: only {len(kept)} of {args.count} positions within the band in "
              f"{args.max_candidates} candidates", file=sys.stderr)
        return 2
    stats = count_tried(kept, variant, args.seed, plies)
    command = "python3 scripts/openings.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = suite_text(variant.name, kept, stats, command, engine,
                      args.build or f"repository HEAD {repository_commit()}",
                      args.depth, args.band, args.seed, plies, date)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    summary = text.splitlines()[6].lstrip("# ")
    print(f"{variant.name}: wrote {len(kept)} positions to {out}; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
