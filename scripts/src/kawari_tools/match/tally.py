"""The tally of a match: results from engine 1's point of view, pentanomial pairs,
fault counts per engine, game ends, and each engine's time use."""

from __future__ import annotations

from dataclasses import dataclass, field

# Reasons that are charged to the loser in the summary's fault counts.
FAULTS = {"illegal move": "illegal", "false declaration": "illegal",
          "time forfeit": "time", "crash": "crash", "stalled": "stalled"}


@dataclass
class Tally:
    """Results from engine 1's point of view, plus per-engine fault counts."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    faults: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    reasons: dict[str, int] = field(default_factory=dict)
    by_colour: dict[str, list[int]] = field(
        default_factory=lambda: {"black": [0, 0, 0], "white": [0, 0, 0]})
    # per engine: each move's think time, and the clock left at each game's end
    think_ms: list[list[int]] = field(default_factory=lambda: [[], []])
    left_ms: list[list[int]] = field(default_factory=lambda: [[], []])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0
