"""A game to play (``GameJob``) and a game played (``GameRecord``): its JSON line,
its wire form for a cluster task's answer, its time use, and a CSA record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from kawari_tools import referee
from kawari_tools.games.clock import TimeControl, controls_by_side, start_clocks
from kawari_tools.games.openings import Opening
from kawari_tools.referee import BLACK, WHITE, Outcome, opponent
from kawari_tools.usi_client import score_text


@dataclass
class GameJob:
    """One game of a match: its number, its opening, and who has Black."""

    index: int          # 0-based game number
    opening_index: int
    opening: Opening
    first_black: bool   # engine 1 plays Black


@dataclass
class GameRecord:
    """A game played: its outcome, moves, final position, names by side, think times,
    the last score line of each move, the positions (pyffish FEN) and start time."""

    job: GameJob
    outcome: Outcome
    moves: list[str]
    end_sfen: str
    names: dict[str, str]            # side -> engine name
    times_ms: list[int]
    infos: list[str]
    fens: list[str]
    started: str

    def to_wire(self) -> dict:
        """Plain data for a cluster task's answer (the job is known to the driver)."""
        o = self.outcome
        return {"index": self.job.index, "winner": o.winner, "reason": o.reason,
                "detail": o.detail, "moves": self.moves, "end_sfen": self.end_sfen,
                "names": self.names, "times_ms": self.times_ms, "infos": self.infos,
                "fens": self.fens, "started": self.started}

    @classmethod
    def from_wire(cls, job: GameJob, d: dict) -> GameRecord:
        return cls(job, Outcome(d["winner"], d["reason"], d["detail"]), d["moves"],
                   d["end_sfen"], d["names"], d["times_ms"], d["infos"], d["fens"],
                   d["started"])

    def time_use(self, tc: TimeControl, tc2: Optional[TimeControl] = None
                 ) -> list[tuple[list[int], Optional[int]]]:
        """Per engine (1, 2): its think time of each move, and its clock left at the
        game's end as the referee kept it (``TimeControl.spend``; None without a clock),
        engine 1 under ``tc`` and engine 2 under ``tc2`` (time odds) or else ``tc``."""
        side = self.job.opening.sfen.split()[1]     # the referee's SFEN names the side
        if len(self.job.opening.moves) % 2:
            side = opponent(side)
        first_side = BLACK if self.job.first_black else WHITE
        other_side = opponent(first_side)
        tcs = controls_by_side(first_side, tc, tc2)
        think: list[list[int]] = [[], []]
        clocks = start_clocks(tcs)
        for ms in self.times_ms:
            think[0 if side == first_side else 1].append(ms)
            tcs[side].spend(clocks, side, ms)
            side = opponent(side)
        timed = tc.kind in ("fischer", "byoyomi")
        return [(think[0], round(clocks[first_side]) if timed else None),
                (think[1], round(clocks[other_side]) if timed else None)]

    def score_first(self) -> float:
        """Score of engine 1 in this game."""
        first_side = BLACK if self.job.first_black else WHITE
        if self.outcome.winner is None:
            return 0.5
        return 1.0 if self.outcome.winner == first_side else 0.0

    def to_json(self, variant: str, tc: str) -> dict:
        return {
            "game": self.job.index + 1,
            "variant": variant,
            "black": self.names[BLACK],
            "white": self.names[WHITE],
            "engine1": "black" if self.job.first_black else "white",
            "opening": self.job.opening_index + 1,
            "start_sfen": self.job.opening.sfen,
            "opening_plies": len(self.job.opening.moves),
            "moves": self.moves,
            "result": self.outcome.result_string(),
            "winner": {BLACK: "black", WHITE: "white", None: None}[self.outcome.winner],
            "reason": self.outcome.reason,
            "detail": self.outcome.detail,
            "plies": len(self.moves),
            "end_sfen": self.end_sfen,
            "time_control": tc,
            "times_ms": self.times_ms,
            "scores": [score_text(i) for i in self.infos],
            "started": self.started,
        }


# --------------------------------------------------------------------------- CSA

_CSA = {"P": "FU", "L": "KY", "N": "KE", "S": "GI", "G": "KI", "B": "KA", "R": "HI",
        "K": "OU", "+P": "TO", "+L": "NY", "+N": "NK", "+S": "NG", "+B": "UM", "+R": "RY"}
_CSA_END = {"checkmate": "%TSUMI", "resign": "%TORYO", "repetition": "%SENNICHITE",
            "perpetual check": "%OUTE_SENNICHITE", "illegal move": "%ILLEGAL_MOVE",
            "false declaration": "%ILLEGAL_MOVE", "time forfeit": "%TIME_UP",
            "declaration": "%KACHI", "impasse": "%JISHOGI", "move cap": "%HIKIWAKE"}


def csa_record(rec: GameRecord, variant: referee.Variant) -> str:
    """A CSA (V2.2) record of a 9x9 game with standard pieces."""
    v = variant
    out = ["V2.2", f"N+{rec.names[BLACK]}", f"N-{rec.names[WHITE]}",
           f"$START_TIME:{rec.started.replace('-', '/').replace('T', ' ')}",
           f"'variant {v.name}"]
    start = referee.Board.from_sfen(rec.job.opening.sfen, v)
    for r, cells in enumerate(start.grid):
        row = ""
        for p in cells:
            if p is None:
                row += " * "
            else:
                row += ("+" if start.owner(p) == BLACK else "-") + _CSA[_csa_key(p)]
        out.append(f"P{r + 1}{row}")
    for side, sign in ((BLACK, "+"), (WHITE, "-")):
        hand = "".join(f"00{_CSA[p]}" * n for p, n in start.hands[side].items())
        if hand:
            out.append(f"P{sign}{hand}")
    out.append("+" if start.side == BLACK else "-")
    opening = len(rec.job.opening.moves)
    for i, move in enumerate(rec.moves):
        board = referee.Board.from_fen(rec.fens[i], v)
        sign = "+" if board.side == BLACK else "-"
        if "*" in move:
            piece, to = move[0], move[2:]
            frm = "00"
        else:
            frm_sq, to = move[:2], move[2:4]
            row, col = ord(frm_sq[1]) - ord("a"), v.files - int(frm_sq[0])
            piece = _csa_key(board.grid[row][col])
            if move.endswith("+"):
                piece = "+" + piece
            frm = f"{frm_sq[0]}{row + 1}"
        out.append(f"{sign}{frm}{to[0]}{ord(to[1]) - ord('a') + 1}{_CSA[piece]}")
        if i >= opening and i - opening < len(rec.times_ms):
            out.append(f"T{rec.times_ms[i - opening] // 1000}")
    out.append(_CSA_END.get(rec.outcome.reason, "%CHUDAN"))
    out.append(f"'{rec.outcome.result_string()} {rec.outcome.reason}: {rec.outcome.detail}")
    return "\n".join(out) + "\n"


def _csa_key(piece: str) -> str:
    return ("+" if piece.startswith("+") else "") + piece.lstrip("+").upper()
