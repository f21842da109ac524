"""A match as data: ``MatchConfig`` says what to play (variant, engines, clock,
openings, limits, outputs); ``choose_openings`` and ``engine_specs`` build its parts
from the forms a user gives them (a file, a seed, command lines, ``--option`` text)."""

from __future__ import annotations

import math
import os
import shlex
from dataclasses import dataclass
from typing import Optional

from kawari_tools import elo_stats, paths, referee
from kawari_tools.games.clock import TimeControl
from kawari_tools.games.openings import (
    Opening,
    default_openings_path,
    load_openings,
    random_openings,
)
from kawari_tools.games.player import DEFAULT_STARTUP_TIMEOUT_S
from kawari_tools.usi_client import EngineSpec

DEFAULT_MAX_PLIES = 512
DEFAULT_MARGIN_MS = 200
DEFAULT_HANG_TIMEOUT_S = 60.0
# random plies of the openings made when there is no suite (or a --start-sfen)
DEFAULT_RANDOM_PLIES = 4
SPRT_MODELS = ("pentanomial", "trinomial")


@dataclass
class MatchConfig:
    """Everything a match plays by. Pair ``k`` (games ``2k`` and ``2k+1``, colours
    swapped) starts from ``openings[(first_opening + k) % len(openings)]``. Both
    engines play under ``tc``; with time odds engine 2 plays under ``tc2`` (a clock
    of the same kind), whichever colour it has."""

    variant: referee.Variant
    engines: list[EngineSpec]
    tc: TimeControl
    openings: list[Opening]
    games: int = 2
    openings_source: str = "given"
    first_opening: int = 0              # 0-based
    max_plies: int = DEFAULT_MAX_PLIES
    margin_ms: float = DEFAULT_MARGIN_MS
    hang_timeout: float = DEFAULT_HANG_TIMEOUT_S
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT_S
    sprt: Optional[elo_stats.Sprt] = None
    sprt_model: str = "pentanomial"
    records: Optional[str] = None       # JSON lines appended here
    csa_dir: Optional[str] = None       # one CSA file per game (9x9 boards)
    variant_path: str = paths.DEFAULT_HEIAN_INI
    crosscheck: bool = False            # pyffish recomputes every position too
    debug: Optional[str] = None         # all engine traffic logged here
    tc2: Optional[TimeControl] = None   # engine 2's clock with time odds (else tc)

    def __post_init__(self):
        if len(self.engines) != 2:
            raise ValueError("a match needs exactly two engines")
        if self.games < 1 or self.max_plies < 1:
            raise ValueError("games and max_plies must be positive")
        if not self.openings:
            raise ValueError("a match needs at least one opening")
        if not 0 <= self.first_opening < len(self.openings):
            raise ValueError(f"first opening {self.first_opening + 1}: there are "
                             f"{len(self.openings)} openings")
        if self.sprt_model not in SPRT_MODELS:
            raise ValueError(f"sprt_model must be one of {', '.join(SPRT_MODELS)}")
        if self.tc2 == self.tc:
            self.tc2 = None                 # no odds: the same clock given twice
        if self.tc2 is not None and self.tc2.kind != self.tc.kind:
            raise ValueError(f"time odds need two clocks of one kind, not "
                             f"{self.tc.kind} and {self.tc2.kind}")
        self.variant_path = os.path.abspath(self.variant_path)

    @property
    def pairs(self) -> int:
        return math.ceil(self.games / 2)

    @property
    def time_odds(self) -> bool:
        return self.tc2 is not None

    def describe_tc(self, names: Optional[list[str]] = None) -> str:
        """The clock as the reports give it: ``5+0.05``, or with time odds each
        engine's (``kawari 5+0.05, fsf 10+0.1``; without names, as the records give
        it: ``5+0.05 / 10+0.1``, engine 1's first)."""
        if self.tc2 is None:
            return self.tc.describe()
        if names is None:
            return f"{self.tc.describe()} / {self.tc2.describe()}"
        return f"{names[0]} {self.tc.describe()}, {names[1]} {self.tc2.describe()}"


def choose_openings(variant: referee.Variant, pairs: int, openings_file: Optional[str] = None,
                    random_plies: Optional[int] = None, start_sfen: Optional[str] = None,
                    seed: int = 1) -> tuple[list[Opening], str]:
    """The openings of a match and a description of where they came from: the file,
    else the variant's balanced suite (unless random plies or a start position are
    asked for), else ``pairs`` openings of random legal plies. ValueError or OSError
    on a bad file or position."""
    if random_plies is not None and random_plies < 0:
        raise ValueError("random plies must not be negative")
    base = start_sfen or variant.start_sfen
    referee.Referee(variant, base)          # validates the SFEN
    suite = default_openings_path(variant.name)
    if openings_file:
        return load_openings(openings_file, variant, base), openings_file
    if random_plies is None and start_sfen is None and os.path.isfile(suite):
        return load_openings(suite, variant, base), paths.display_path(suite)
    plies = DEFAULT_RANDOM_PLIES if random_plies is None else random_plies
    return (random_openings(variant, base, plies, pairs, seed),
            f"{plies} random plies, seed {seed}")


def parse_options(values: list[str], engines: int = 2) -> list[list[tuple[str, Optional[str]]]]:
    """``--option`` values -> per-engine (name, value) lists.  ``1:Name=Value`` for
    engine 1, ``2:...`` for engine 2, ``Name=Value`` for both; ``Name`` alone (no
    ``=``) sends ``setoption name Name`` (a button)."""
    out: list[list[tuple[str, Optional[str]]]] = [[] for _ in range(engines)]
    for text in values:
        targets = list(range(engines))
        head, sep, rest = text.partition(":")
        if sep and head.isdigit():
            n = int(head)
            if not 1 <= n <= engines:
                raise ValueError(f"--option {text!r}: engine number must be 1 or 2")
            targets, text = [n - 1], rest
        name, eq, value = text.partition("=")
        name = name.strip()
        if not name:
            raise ValueError(f"--option {text!r}: no option name")
        for t in targets:
            out[t].append((name, value if eq else None))
    return out


def engine_specs(commands: list[str], names: Optional[list[str]] = None,
                 options: Optional[list[str]] = None) -> list[EngineSpec]:
    """Engines from command lines (split as a shell would), display names (fewer
    than engines: the rest use their ``id name``) and ``--option`` texts."""
    names = names or []
    if len(names) > len(commands):
        raise ValueError("more names than engines")
    per_engine = parse_options(options or [], len(commands))
    specs = []
    for n, cmd in enumerate(commands):
        argv = shlex.split(cmd)
        if not argv:
            raise ValueError("empty engine command")
        specs.append(EngineSpec(argv, names[n] if n < len(names) else None, per_engine[n]))
    return specs
