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

Every move is checked with the referee (pyffish and the project's rules,
kawari_tools.referee).

The output file has a header of ``#`` comments (command, engine, depth, band, seed,
date, how many candidates were tried and kept), then one SFEN per line followed by a
``#`` comment with the score and the random moves that led to it.  kawari-match reads
it with ``--openings`` and by default from ``openings/<variant>.txt``; ``kawari datagen
--book`` reads it too.

Example::

    kawari-openings --variant judkins --engine target/release/kawari \\
        --out openings/judkins.txt

Exit status: 0 when the suite was written, 1 if the engine fails, 2 on bad arguments
or when the candidates run out before ``--count`` positions were kept.
"""

from __future__ import annotations

import os
import random
import subprocess
import threading
from dataclasses import dataclass
from typing import Callable, Optional

from kawari_tools import paths, referee
from kawari_tools.usi_client import EngineSpec, UsiEngine

SUITE_DIR = paths.OPENINGS_DIR
REPO_ROOT = paths.REPO_ROOT

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
        f"{stats.duplicates} duplicate positions, the other "
        f"{last + 1 - stats.ended - stats.duplicates} "
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
