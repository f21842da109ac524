"""The clock of a match: Fischer, byoyomi, or a fixed movetime, node or depth
budget per move; the ``go`` command each side gets and how a move's time is charged.
With time odds each side has a clock of its own (``go_command``, ``start_clocks``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Optional

from kawari_tools.referee import BLACK, WHITE, opponent


@dataclass
class TimeControl:
    """One of: ``fischer`` (base + increment, sudden death when the increment is 0),
    ``byoyomi`` (main time + byoyomi), ``movetime``, ``nodes``, ``depth``."""

    kind: str
    base_ms: int = 0
    inc_ms: int = 0
    byoyomi_ms: int = 0
    movetime_ms: int = 0
    nodes: int = 0
    depth: int = 0

    @staticmethod
    def _seconds(text: str) -> float:
        if ":" in text:
            m, s = text.split(":", 1)
            return float(m) * 60 + float(s)
        return float(text)

    @classmethod
    def fischer(cls, text: str) -> "TimeControl":
        """``BASE[+INC]`` in seconds, e.g. ``10+0.1``, ``60`` or ``1:30+1``."""
        base, _, inc = text.partition("+")
        tc = cls("fischer", base_ms=round(cls._seconds(base) * 1000),
                 inc_ms=round(float(inc or 0) * 1000))
        if tc.base_ms <= 0 and tc.inc_ms <= 0:
            raise ValueError("time control needs a positive base or increment")
        return tc

    @classmethod
    def byoyomi(cls, text: str) -> "TimeControl":
        """``MAIN+BYOYOMI`` in seconds, e.g. ``10+1``; a single number is the byoyomi."""
        main, sep, byo = text.partition("+")
        if not sep:
            main, byo = "0", main
        tc = cls("byoyomi", base_ms=round(cls._seconds(main) * 1000),
                 byoyomi_ms=round(float(byo) * 1000))
        if tc.byoyomi_ms <= 0 and tc.base_ms <= 0:
            raise ValueError("byoyomi needs a positive main time or byoyomi")
        return tc

    @classmethod
    def from_flags(cls, tc: Optional[str] = None, byoyomi: Optional[str] = None,
                   movetime: Optional[int] = None, nodes: Optional[int] = None,
                   depth: Optional[int] = None) -> "TimeControl":
        """The clock of whichever of the command lines' ``--tc``, ``--byoyomi``,
        ``--movetime``, ``--nodes`` or ``--depth`` is given (in that order)."""
        if tc:
            return cls.fischer(tc)
        if byoyomi:
            return cls.byoyomi(byoyomi)
        if movetime is not None:
            return cls("movetime", movetime_ms=movetime)
        if nodes is not None:
            return cls("nodes", nodes=nodes)
        if depth is not None:
            return cls("depth", depth=depth)
        raise ValueError("no time control given")

    def describe(self) -> str:
        if self.kind == "fischer":
            return f"{self.base_ms / 1000:g}+{self.inc_ms / 1000:g}" if self.inc_ms \
                else f"{self.base_ms / 1000:g} s sudden death"
        if self.kind == "byoyomi":
            return f"{self.base_ms / 1000:g} s + byoyomi {self.byoyomi_ms / 1000:g} s"
        if self.kind == "movetime":
            return f"movetime {self.movetime_ms} ms"
        if self.kind == "nodes":
            return f"nodes {self.nodes}"
        return f"depth {self.depth}"

    def go(self, clocks: dict[str, float], side: str) -> tuple[str, Optional[float]]:
        """The ``go`` command for ``side`` and the time it may use (ms, None = untimed)."""
        return go_command({BLACK: self, WHITE: self}, clocks, side)

    def spend(self, clocks: dict[str, float], side: str, elapsed_ms: float) -> None:
        """Charge a move's time to the clock of ``side``."""
        if self.kind == "fischer":
            clocks[side] = clocks[side] - elapsed_ms + self.inc_ms
        elif self.kind == "byoyomi":
            clocks[side] = max(0.0, clocks[side] - elapsed_ms)

    def initial_clocks(self) -> dict[str, float]:
        return start_clocks({BLACK: self, WHITE: self})

    def to_wire(self) -> dict:
        """Plain data (a cluster task's set-up); ``from_wire`` makes it again."""
        return asdict(self)

    @classmethod
    def from_wire(cls, d: dict) -> "TimeControl":
        return cls(**d)


def controls_by_side(first_side: str, tc: TimeControl,
                     tc2: Optional[TimeControl] = None) -> dict[str, TimeControl]:
    """Each side's control in a game where engine 1 plays ``first_side``: engine 1's
    ``tc``, engine 2's ``tc2`` (time odds) or else ``tc``."""
    return {first_side: tc, opponent(first_side): tc2 or tc}


def start_clocks(tcs: dict[str, TimeControl]) -> dict[str, float]:
    """Each side's clock at the start of a game, ``tcs`` giving each side's control."""
    return {side: float(tc.base_ms) for side, tc in tcs.items()}


def go_command(tcs: dict[str, TimeControl], clocks: dict[str, float],
               side: str) -> tuple[str, Optional[float]]:
    """The ``go`` command for ``side`` and the time it may use (ms, None = untimed),
    each side under its own control ``tcs[side]`` (the same one but with time odds;
    the two are of one kind). The line carries both sides' time and increment, and
    the byoyomi of the side to move."""
    tc = tcs[side]
    b, w = max(0, int(clocks[BLACK])), max(0, int(clocks[WHITE]))
    if tc.kind == "fischer":
        cmd = f"go btime {b} wtime {w}"
        binc, winc = tcs[BLACK].inc_ms, tcs[WHITE].inc_ms
        if binc or winc:
            cmd += f" binc {binc} winc {winc}"
        return cmd, clocks[side]
    if tc.kind == "byoyomi":
        return f"go btime {b} wtime {w} byoyomi {tc.byoyomi_ms}", clocks[side] + tc.byoyomi_ms
    if tc.kind == "movetime":
        return f"go movetime {tc.movetime_ms}", float(tc.movetime_ms)
    if tc.kind == "nodes":
        return f"go nodes {tc.nodes}", None
    return f"go depth {tc.depth}", None
