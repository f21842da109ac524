"""What a match tells while it runs: a ``Reporter`` is handed to ``run_match``.

The base class says nothing (a caller such as SPSA reads the ``MatchResult``);
``ConsoleReporter`` prints what ``kawari-match`` prints: a header and a progress
line per game on stderr, and on stdout the summary that ends with cutechess-cli's
two lines::

    Score of A vs B: W - L - D  [0.550] N
    Elo difference: 34.9 +/- 120.5
"""

from __future__ import annotations

import statistics
import sys
from typing import Optional, Protocol

from kawari_tools import elo_stats, progress
from kawari_tools.games.records import GameJob, GameRecord
from kawari_tools.match.config import MatchConfig
from kawari_tools.match.tally import Tally
from kawari_tools.referee import BLACK, WHITE


class MatchView(Protocol):
    """What a reporter reads of a running match (``MatchState`` is one)."""

    config: MatchConfig
    names: list[str]
    jobs: list[GameJob]
    tally: Tally
    sprt_result: Optional[str]
    llr: float
    progress: progress.Progress


class Reporter:
    """Receives a match's events; every method does nothing here. Methods are called
    from the runner's threads, ``game`` with the match's lock held."""

    def header(self, state: MatchView, where: str) -> None:
        """The engines are up and the games start; ``where`` names the runner."""

    def game(self, state: MatchView, rec: GameRecord) -> None:
        """A game was counted (its tally is in ``state.tally``)."""

    def summary(self, state: MatchView) -> None:
        """The match is over (decided, done, interrupted or failed)."""

    def warning(self, message: str) -> None:
        """Something the user should know that does not stop the match."""

    def error(self, message: str) -> None:
        """Why the match cannot go on (it is also in ``MatchResult.error``)."""

    def notice(self, message: str) -> None:
        """A runner's own note, e.g. that it is stopping after an interrupt."""


class ConsoleReporter(Reporter):
    """kawari-match's output. ``progress=False`` drops the header and the per-game
    lines (``--quiet``); ``summary=False`` the summary (callers that sum many short
    matches up their own way). Warnings and errors always go to stderr."""

    def __init__(self, progress: bool = True, summary: bool = True, header: bool = True):
        self.progress = progress
        self.show_summary = summary
        self.show_header = header and progress

    def header(self, state: MatchView, where: str) -> None:
        if not self.show_header:
            return
        c = state.config
        print(f"Match {state.names[0]} vs {state.names[1]}: {c.variant.name}, "
              f"{len(state.jobs)} games, {c.describe_tc(state.names)}, "
              f"{len(c.openings)} openings ({c.openings_source}), {where}",
              file=sys.stderr, flush=True)

    def game(self, state: MatchView, rec: GameRecord) -> None:
        if not self.progress:
            return
        t = state.tally
        sprt = state.config.sprt
        elo, margin = elo_stats.elo_trinomial(t.wins, t.draws, t.losses)
        line = (f"[{t.games}/{len(state.jobs)}] game {rec.job.index + 1} "
                f"{rec.names[BLACK]} (black) vs {rec.names[WHITE]}: "
                f"{rec.outcome.result_string()} {rec.outcome.reason} | "
                f"W {t.wins} D {t.draws} L {t.losses} score {t.score():.3f} "
                f"Elo {elo_stats.format_elo(elo, margin)}")
        if sprt is not None:
            line += f" LLR {state.llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]"
        print(f"{line} | {state.progress.rate_eta()}", file=sys.stderr, flush=True)

    def summary(self, state: MatchView) -> None:
        if self.show_summary:
            print("\n".join(summary_lines(state)), flush=True)

    def warning(self, message: str) -> None:
        print(f"warning: {message}", file=sys.stderr, flush=True)

    def error(self, message: str) -> None:
        print(f"error: {message}", file=sys.stderr, flush=True)

    def notice(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)


def summary_lines(state: MatchView) -> list[str]:
    """The summary of a match as kawari-match prints it."""
    t = state.tally
    c = state.config
    a, b = state.names
    elo, margin = elo_stats.elo_trinomial(t.wins, t.draws, t.losses)
    lines = [f"Finished {t.games} of {len(state.jobs)} games: {c.variant.name}, "
             f"{c.describe_tc(state.names)}"]
    for colour in ("black", "white"):
        w, d, l = t.by_colour[colour]
        lines.append(f"  {a} as {colour}: W {w} D {d} L {l}")
    if t.reasons:
        lines.append("Game ends: " + ", ".join(f"{r} {n}" for r, n in sorted(t.reasons.items())))
    for kind, label in (("illegal", "Illegal moves"), ("time", "Time losses"),
                        ("crash", "Crashes"), ("stalled", "Stalls (no reply)")):
        lines.append(f"{label}: {a} {t.faults[0].get(kind, 0)}, {b} {t.faults[1].get(kind, 0)}")
    if t.think_ms[0] or t.think_ms[1]:
        lines.append("Think time per move: " + ", ".join(
            f"{name} {statistics.mean(ms):.0f} ms (median {statistics.median(ms):.0f})"
            for name, ms in zip(state.names, t.think_ms) if ms))
    if t.left_ms[0] or t.left_ms[1]:
        lines.append("Clock left at game end: " + ", ".join(
            f"{name} {statistics.mean(ms):.0f} ms"
            for name, ms in zip(state.names, t.left_ms) if ms))
    if sum(t.pentanomial):
        pe, pm = elo_stats.elo_pentanomial(t.pentanomial)
        lines.append(f"Pentanomial [LL LD DD+WL WD WW]: {t.pentanomial}  "
                     f"Elo {elo_stats.format_elo(pe, pm)}")
    draw_ratio = t.draws / t.games * 100 if t.games else 0.0
    lines.append(f"LOS: {elo_stats.los(t.wins, t.losses) * 100:.1f} %, "
                 f"DrawRatio: {draw_ratio:.1f} %")
    sprt = c.sprt
    if sprt is not None:
        verdict = {"H0": "H0 was accepted", "H1": "H1 was accepted",
                   None: "no decision"}[state.sprt_result]
        bound = sprt.upper if state.llr >= 0 else sprt.lower
        pct = state.llr / bound * 100 if bound else 0.0
        lines.append(f"SPRT: llr {state.llr:.2f} ({pct:.1f}%), lbound {sprt.lower:.2f}, "
                     f"ubound {sprt.upper:.2f} - {verdict} "
                     f"(elo0 {sprt.elo0:g}, elo1 {sprt.elo1:g}, "
                     f"alpha {sprt.alpha:g}, beta {sprt.beta:g}, {c.sprt_model})")
    lines.append(f"Score of {a} vs {b}: {t.wins} - {t.losses} - {t.draws}  "
                 f"[{t.score():.3f}] {t.games}")
    lines.append(f"Elo difference: {elo_stats.format_elo(elo, margin)}")
    return lines
