"""Progress of a long run: done of total, rate and time left, as text for stderr."""

from __future__ import annotations

import time
from typing import Optional


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s`` or ``42s``."""
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Progress:
    """Counts units (games) done against a total since ``start`` (or construction).

    ``already`` units done before this run (a resumed run) count towards the total
    but not towards the rate.
    """

    def __init__(self, total: int, unit: str = "games", already: int = 0,
                 clock=time.monotonic):
        self.total = total
        self.unit = unit
        self.done = already
        self.already = already
        self.clock = clock
        self.t0 = clock()

    def add(self, n: int = 1) -> None:
        self.done += n

    def rate(self) -> Optional[float]:
        """Units per second in this run, None before the first."""
        elapsed = self.clock() - self.t0
        new = self.done - self.already
        return new / elapsed if new > 0 and elapsed > 0 else None

    def eta(self) -> Optional[float]:
        r = self.rate()
        return (self.total - self.done) / r if r else None

    def rate_eta(self) -> str:
        """``0.42 games/s, 6m28s left`` (``starting`` before the first unit)."""
        r = self.rate()
        if r is None:
            return "starting"
        return f"{r:.3g} {self.unit}/s, {duration(self.eta() or 0.0)} left"

    def text(self) -> str:
        """``37/200 games, 0.42 games/s, 6m28s left``."""
        return f"{self.done}/{self.total} {self.unit}, {self.rate_eta()}"
