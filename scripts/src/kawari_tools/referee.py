"""Rules referee for the match runner: variants, SFEN/USI notation, game-end rules.

The legal moves of every position come from pyffish (Fairy-Stockfish's Python
binding), which is independent of the engines under test.  The position itself is
kept here (``Board.apply``: move the piece, promote on ``+``, captured pieces go to the
capturer's hand unpromoted in variants with drops) because every pyffish call costs
milliseconds; ``Referee(crosscheck=True)`` (``kawari-match --crosscheck``) also asks pyffish
for each new position and stops on any difference, and the tests do so on random games
in every variant.  Everything pyffish does differently from the project's rules (see
docs/rules.md in the repository) is handled here:

* Notation.  pyffish speaks Fairy-Stockfish's FEN and chess-like coordinates, not
  SFEN/USI.  In its FEN the first player (Black, sente) is uppercase *and* has the side
  letter ``w``, hands are written in brackets after the board (``[GPpp]``, one letter
  per piece; no brackets in Heian, which has no hands), and the move counter is a chess
  full-move number.  Squares are ``<file letter a..><rank number 1..>`` with file ``a``
  on Black's left and rank 1 on Black's side; USI squares are ``<file number 1..W from
  Black's right><rank letter a.. from the top>`` (on 6x6, USI ``6f`` = pyffish ``a1``).
  Drops are ``P@e5`` in pyffish, ``P*5e`` in USI; promotion is a ``+`` suffix in both.
* Pawn-drop mate (uchifuzume).  Upstream Fairy-Stockfish generates a pawn drop that
  mates as a legal move in shogi and judkins (it only scores it as a loss); here it is
  removed from the legal moves.  In yarishogi it stays legal.
* Heian's bare king.  pyffish is given heian.ini with ``extinctionValue = none`` so
  that its move generator keeps working on a bare king; the rule itself (the player
  whose last piece other than the king was just captured loses at once) is checked here.
* Repetition (N-fold, per variant) with the perpetual-check rule, impasse points,
  the 27-point declaration and the move cap are judged here, not by pyffish.

Perpetual check: when a position occurs for the N-th time, the "cycle" is every move
made since its first occurrence.  If every move of exactly one player in that span gave
check, that player loses; otherwise the game is drawn.

Impasse points (at the move cap, both kings in their zones): every piece a player owns
on the board and in hand, by its unpromoted type: R and B (yari rook and yari bishop in
yarishogi) 5, the others 1, the king 0.  Under the variant's threshold (shogi 24,
judkins 12, yarishogi 26) loses; otherwise a draw.  Heian has no impasse rule: a draw.

The module does not talk to engines; the test stubs use it to move randomly and
kawari-gen-reference to count perft.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import pyffish

from kawari_tools.paths import DEFAULT_HEIAN_INI

BLACK, WHITE = "b", "w"
HAND_ORDER = "RBGSNLP"


def opponent(side: str) -> str:
    """The other side: ``b`` <-> ``w``."""
    return WHITE if side == BLACK else BLACK


@dataclass(frozen=True)
class Variant:
    """The data of one variant, as far as the referee needs it."""

    name: str
    files: int
    ranks: int
    start_sfen: str
    pieces: str              # unpromoted piece letters, king included
    promotable: str          # letters that have a promoted form
    drops: bool
    zone: int                # promotion zone depth in ranks
    repetition: int          # N of the N-fold repetition rule
    uchifuzume_illegal: bool
    bare_king: bool
    big_pieces: str          # letters worth 5 points (by base type) in impasse counts
    impasse_points: Optional[int]   # adjudication threshold at the move cap, or None
    declaration: bool        # `bestmove win` under the 27-point rule
    needs_ini: bool          # defined by heian.ini rather than built into pyffish


def _heian(name: str, files: int, ranks: int, start: str) -> Variant:
    return Variant(name, files, ranks, start, "KGSNLP", "SNLP", drops=False, zone=3,
                   repetition=4, uchifuzume_illegal=False, bare_king=True,
                   big_pieces="", impasse_points=None, declaration=False,
                   needs_ini=True)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("shogi", 9, 9,
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "KRBGSNLP", "RBSNLP", drops=True, zone=3, repetition=4,
                uchifuzume_illegal=True, bare_king=False, big_pieces="RB",
                impasse_points=24, declaration=True, needs_ini=False),
        Variant("judkins", 6, 6, "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
                "KRBGSNP", "RBSNP", drops=True, zone=2, repetition=4,
                uchifuzume_illegal=True, bare_king=False, big_pieces="RB",
                impasse_points=12, declaration=False, needs_ini=False),
        Variant("yarishogi", 7, 9, "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
                "KRBNP", "RBNP", drops=True, zone=3, repetition=3,
                uchifuzume_illegal=False, bare_king=False, big_pieces="RB",
                impasse_points=26, declaration=False, needs_ini=False),
        _heian("heian", 9, 9, "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1"),
        _heian("heian9x8", 9, 8, "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1"),
        _heian("heian8x9", 8, 9, "lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL b - 1"),
        _heian("heian8x8", 8, 8, "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1"),
    )
}


def get_variant(name: str) -> Variant:
    """Look a variant up by name (case-insensitive); ValueError if unknown."""
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


# --------------------------------------------------------------------------- pyffish

_loaded_ini: Optional[str] = None


def init_pyffish(ini_path: Optional[str] = None) -> None:
    """Load the Heian definitions into pyffish (once; again if the path changes).

    The bare-king rule is switched off for pyffish (``extinctionValue = none``):
    otherwise its move generator returns no moves for a bare king, and this module
    applies the rule itself.
    """
    global _loaded_ini
    path = os.path.abspath(ini_path or DEFAULT_HEIAN_INI)
    if _loaded_ini == path:
        return
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"(?m)^\s*extinctionValue\s*=.*$", "extinctionValue = none", text)
    pyffish.load_variant_config(text)
    _loaded_ini = path


def _need(variant: Variant) -> None:
    if variant.needs_ini and _loaded_ini is None:
        init_pyffish()


# --------------------------------------------------------------------------- notation

class NotationError(ValueError):
    """A malformed SFEN, FEN or move string."""


def square_to_fsf(sq: str, v: Variant) -> str:
    """USI square (``7g``) -> pyffish square (``c3`` on 9x9)."""
    if len(sq) != 2 or not sq[0].isdigit():
        raise NotationError(f"bad square {sq!r}")
    f = int(sq[0])
    r = ord(sq[1]) - ord("a")
    if not (1 <= f <= v.files and 0 <= r < v.ranks):
        raise NotationError(f"square {sq!r} is off the {v.files}x{v.ranks} board")
    return chr(ord("a") + v.files - f) + str(v.ranks - r)


def square_from_fsf(sq: str, v: Variant) -> str:
    """pyffish square (``c3``) -> USI square (``7g`` on 9x9)."""
    col = ord(sq[0]) - ord("a")
    row = int(sq[1:])
    if not (0 <= col < v.files and 1 <= row <= v.ranks):
        raise NotationError(f"pyffish square {sq!r} is off the board")
    return str(v.files - col) + chr(ord("a") + v.ranks - row)


_USI_MOVE = re.compile(r"^(?:([1-9][a-z])([1-9][a-z])(\+?)|([A-Z])\*([1-9][a-z]))$")
_FSF_MOVE = re.compile(r"^(?:([a-z][0-9]+)([a-z][0-9]+)(\+?)|([A-Z])@([a-z][0-9]+))$")


def move_to_fsf(move: str, v: Variant) -> str:
    """USI move (``7g7f``, ``2b3c+``, ``P*5e``) -> pyffish move."""
    m = _USI_MOVE.match(move)
    if not m:
        raise NotationError(f"malformed USI move {move!r}")
    if m.group(4):
        return f"{m.group(4)}@{square_to_fsf(m.group(5), v)}"
    return square_to_fsf(m.group(1), v) + square_to_fsf(m.group(2), v) + m.group(3)


def move_from_fsf(move: str, v: Variant) -> str:
    """pyffish move (``c3c4``, ``P@e5``) -> USI move."""
    m = _FSF_MOVE.match(move)
    if not m:
        raise NotationError(f"unexpected pyffish move {move!r}")
    if m.group(4):
        return f"{m.group(4).upper()}*{square_from_fsf(m.group(5), v)}"
    return square_from_fsf(m.group(1), v) + square_from_fsf(m.group(2), v) + m.group(3)


@dataclass
class Board:
    """A parsed position: ``grid[row][col]`` with row 0 = rank ``a`` (top) and col 0 =
    file W (Black's left); cells hold ``None`` or a piece such as ``P``, ``+p``."""

    variant: Variant
    grid: list[list[Optional[str]]]
    side: str
    hands: dict[str, Counter] = field(default_factory=lambda: {BLACK: Counter(), WHITE: Counter()})
    move_number: int = 1

    # -- SFEN ------------------------------------------------------------------
    @classmethod
    def from_sfen(cls, sfen: str, v: Variant) -> "Board":
        parts = sfen.split()
        if len(parts) == 3:
            parts.append("1")
        if len(parts) != 4:
            raise NotationError(f"SFEN needs 4 fields: {sfen!r}")
        board, side, hand, number = parts
        if side not in (BLACK, WHITE):
            raise NotationError(f"bad side to move {side!r} in {sfen!r}")
        grid = cls._parse_board(board, v)
        hands = {BLACK: Counter(), WHITE: Counter()}
        if hand != "-":
            count = ""
            for ch in hand:
                if ch.isdigit():
                    count += ch
                    continue
                if ch.upper() not in v.pieces or ch.upper() == "K":
                    raise NotationError(f"bad piece {ch!r} in hand of {sfen!r}")
                hands[BLACK if ch.isupper() else WHITE][ch.upper()] += int(count or 1)
                count = ""
            if count:
                raise NotationError(f"dangling count in hand of {sfen!r}")
            if not v.drops and sum(hands[BLACK].values()) + sum(hands[WHITE].values()):
                raise NotationError(f"{v.name} has no pieces in hand: {sfen!r}")
        if not number.isdigit() or int(number) < 1:
            raise NotationError(f"bad move number in {sfen!r}")
        return cls(v, grid, side, hands, int(number))

    @staticmethod
    def _parse_board(board: str, v: Variant) -> list[list[Optional[str]]]:
        rows = board.split("/")
        if len(rows) != v.ranks:
            raise NotationError(f"{v.name} needs {v.ranks} ranks: {board!r}")
        grid = []
        for row in rows:
            cells: list[Optional[str]] = []
            i = 0
            while i < len(row):
                ch = row[i]
                if ch.isdigit():
                    j = i
                    while j < len(row) and row[j].isdigit():
                        j += 1
                    cells.extend([None] * int(row[i:j]))
                    i = j
                    continue
                promoted = ch == "+"
                if promoted:
                    i += 1
                    if i >= len(row):
                        raise NotationError(f"dangling '+' in {board!r}")
                    ch = row[i]
                letter = ch.upper()
                if letter not in v.pieces or (promoted and letter not in v.promotable):
                    raise NotationError(f"bad piece {'+' if promoted else ''}{ch} for {v.name}")
                cells.append(("+" if promoted else "") + ch)
                i += 1
            if len(cells) != v.files:
                raise NotationError(f"{v.name} needs {v.files} files per rank: {board!r}")
            grid.append(cells)
        return grid

    def board_string(self) -> str:
        rows = []
        for cells in self.grid:
            out, empty = "", 0
            for c in cells:
                if c is None:
                    empty += 1
                    continue
                if empty:
                    out += str(empty)
                    empty = 0
                out += c
            if empty:
                out += str(empty)
            rows.append(out)
        return "/".join(rows)

    def hand_string(self) -> str:
        out = ""
        for side in (BLACK, WHITE):
            for p in HAND_ORDER:
                n = self.hands[side][p]
                if n:
                    letter = p if side == BLACK else p.lower()
                    out += (str(n) if n > 1 else "") + letter
        return out or "-"

    def sfen(self) -> str:
        return f"{self.board_string()} {self.side} {self.hand_string()} {self.move_number}"

    def key(self) -> str:
        """Repetition key: board, side to move and both hands (no move number)."""
        return f"{self.board_string()} {self.side} {self.hand_string()}"

    # -- pyffish FEN -----------------------------------------------------------
    def fen(self) -> str:
        side = "w" if self.side == BLACK else "b"     # pyffish: first player is "w"
        full = (self.move_number + 1) // 2
        if not self.variant.drops:
            return f"{self.board_string()} {side} - - 0 {full}"
        hand = ""
        for s in (BLACK, WHITE):
            for p in HAND_ORDER:
                hand += (p if s == BLACK else p.lower()) * self.hands[s][p]
        return f"{self.board_string()}[{hand}] {side} - - 0 {full}"

    @classmethod
    def from_fen(cls, fen: str, v: Variant, move_number: int = 1) -> "Board":
        parts = fen.split()
        if len(parts) < 2:
            raise NotationError(f"bad pyffish FEN {fen!r}")
        board, side = parts[0], parts[1]
        hands = {BLACK: Counter(), WHITE: Counter()}
        if "[" in board:
            board, _, hand = board.partition("[")
            for ch in hand.rstrip("]"):
                if ch == "-":
                    continue
                hands[BLACK if ch.isupper() else WHITE][ch.upper()] += 1
        grid = cls._parse_board(board, v)
        if side not in ("w", "b"):
            raise NotationError(f"bad side in pyffish FEN {fen!r}")
        return cls(v, grid, BLACK if side == "w" else WHITE, hands, move_number)

    # -- queries ---------------------------------------------------------------
    def owner(self, piece: str) -> str:
        return BLACK if piece.lstrip("+").isupper() else WHITE

    def pieces_of(self, side: str):
        """Yield (row, col, piece) for every piece of ``side`` on the board."""
        for r, cells in enumerate(self.grid):
            for c, p in enumerate(cells):
                if p is not None and self.owner(p) == side:
                    yield r, c, p

    def king_square(self, side: str) -> Optional[tuple[int, int]]:
        for r, c, p in self.pieces_of(side):
            if p.upper() == "K":
                return r, c
        return None

    def in_zone(self, side: str, row: int) -> bool:
        """Is ``row`` in the promotion zone of ``side`` (the opponent's camp)?"""
        z = self.variant.zone
        return row < z if side == BLACK else row >= self.variant.ranks - z

    def non_king_count(self, side: str) -> int:
        return sum(1 for _, _, p in self.pieces_of(side) if p.upper() != "K")

    def piece_points(self, piece: str) -> int:
        """5 for a big piece (by its base type, promoted or not), 0 for a king, else 1."""
        base = piece.lstrip("+").upper()
        if base == "K":
            return 0
        return 5 if base in self.variant.big_pieces else 1

    def material_points(self, side: str) -> int:
        """Impasse points: every piece on the board and in hand, kings excluded."""
        total = sum(self.piece_points(p) for _, _, p in self.pieces_of(side))
        return total + sum(self.piece_points(p) * n for p, n in self.hands[side].items())

    def square_name(self, row: int, col: int) -> str:
        return f"{self.variant.files - col}{chr(ord('a') + row)}"

    def square_index(self, sq: str) -> tuple[int, int]:
        """USI square -> (row, col) in ``grid``."""
        return ord(sq[1]) - ord("a"), self.variant.files - int(sq[0])

    def copy(self) -> "Board":
        return Board(self.variant, [list(r) for r in self.grid], self.side,
                     {BLACK: Counter(self.hands[BLACK]), WHITE: Counter(self.hands[WHITE])},
                     self.move_number)

    def apply(self, move: str) -> "Board":
        """The position after the USI ``move``, which must be legal (it is not checked):
        captures go to the capturer's hand unpromoted when the variant has drops."""
        b = self.copy()
        side = self.side
        if "*" in move:
            letter = move[0]
            r, c = b.square_index(move[2:4])
            b.hands[side][letter] -= 1
            if not b.hands[side][letter]:
                del b.hands[side][letter]
            b.grid[r][c] = letter if side == BLACK else letter.lower()
        else:
            fr, fc = b.square_index(move[0:2])
            tr, tc = b.square_index(move[2:4])
            piece = b.grid[fr][fc]
            if piece is None:
                raise NotationError(f"no piece on {move[0:2]} for {move}")
            captured = b.grid[tr][tc]
            if captured is not None and self.variant.drops:
                b.hands[side][captured.lstrip("+").upper()] += 1
            if move.endswith("+"):
                piece = "+" + piece
            b.grid[fr][fc] = None
            b.grid[tr][tc] = piece
        b.side = opponent(side)
        b.move_number += 1
        return b


def sfen_to_fen(sfen: str, v: Variant) -> str:
    """SFEN -> pyffish FEN."""
    return Board.from_sfen(sfen, v).fen()


def fen_to_sfen(fen: str, v: Variant, move_number: int = 1) -> str:
    """pyffish FEN -> SFEN (hands in the canonical order R B G S N L P)."""
    return Board.from_fen(fen, v, move_number).sfen()


def normalize_sfen(sfen: str, v: Variant) -> str:
    """Parse and re-print an SFEN (canonical hand order, 4 fields)."""
    return Board.from_sfen(sfen, v).sfen()


# --------------------------------------------------------------------------- rules

@dataclass
class Outcome:
    """How a game ended: ``winner`` is ``b``, ``w`` or ``None`` for a draw."""

    winner: Optional[str]
    reason: str
    detail: str = ""

    def result_string(self) -> str:
        return {BLACK: "1-0", WHITE: "0-1", None: "1/2-1/2"}[self.winner]


def legal_fsf_moves(v: Variant, fen: str) -> list[str]:
    """pyffish's legal moves of a FEN, pawn-drop mates removed where illegal."""
    _need(v)
    moves = pyffish.legal_moves(v.name, fen, [])
    if not v.uchifuzume_illegal:
        return moves
    # A pawn checks only from the square directly in front of the enemy king, so at
    # most one pawn drop per position can be a pawn-drop mate.
    board = Board.from_fen(fen, v)
    them = opponent(board.side)
    king = board.king_square(them)
    if king is None:
        return moves
    row = king[0] + (1 if board.side == BLACK else -1)
    if not 0 <= row < v.ranks:
        return moves
    drop = "P@" + square_to_fsf(board.square_name(row, king[1]), v)
    if drop in moves and not pyffish.legal_moves(v.name, fen, [drop]):
        moves = [m for m in moves if m != drop]
    return moves


def board_in_check(v: Variant, board: "Board") -> bool:
    """Whether the side to move of ``board`` is in check (pyffish)."""
    _need(v)
    return bool(pyffish.gives_check(v.name, sfen_to_fen(board.sfen(), v), []))


def legal_usi_moves(v: Variant, sfen: str) -> list[str]:
    """Legal moves of an SFEN in USI notation (pawn-drop mate handled)."""
    return [move_from_fsf(m, v) for m in legal_fsf_moves(v, sfen_to_fen(sfen, v))]


class Referee:
    """Follows one game, validating every move and detecting the end of the game.

    ``push`` applies a move (raising :class:`IllegalMove` if it is not legal),
    ``outcome`` is the game-ending status of the current position (``None`` while the
    game goes on).
    """

    def __init__(self, variant: Variant | str, start_sfen: Optional[str] = None,
                 moves: Optional[list[str]] = None, crosscheck: bool = False):
        self.v = get_variant(variant) if isinstance(variant, str) else variant
        self.crosscheck = crosscheck
        _need(self.v)
        start = Board.from_sfen(start_sfen or self.v.start_sfen, self.v)
        self.start_sfen = start.sfen()
        self.start_number = start.move_number
        self.start_side = start.side
        self.board = start
        self.fens = [start.fen()]           # FEN before each move, and the current one
        self.keys = [start.key()]
        self.moves: list[str] = []
        self._legal: Optional[list[str]] = None
        self._checks: dict[int, bool] = {}   # ply index -> did that move give check
        self._outcome: Optional[Outcome] = None
        self._last_capture_bared = False
        for m in moves or []:
            self.push(m)

    # -- state -----------------------------------------------------------------
    @property
    def side(self) -> str:
        return self.board.side

    @property
    def fen(self) -> str:
        return self.fens[-1]

    @property
    def sfen(self) -> str:
        return self.board.sfen()

    @property
    def ply(self) -> int:
        return len(self.moves)

    def legal_moves(self) -> list[str]:
        """Legal USI moves of the side to move."""
        if self._legal is None:
            self._legal = [move_from_fsf(m, self.v) for m in legal_fsf_moves(self.v, self.fen)]
        return self._legal

    def in_check(self) -> bool:
        """Is the side to move in check?"""
        _need(self.v)
        return bool(pyffish.gives_check(self.v.name, self.fen, []))

    def gave_check(self, ply: int) -> bool:
        """Did move number ``ply`` (0-based) give check?"""
        if ply not in self._checks:
            fsf = move_to_fsf(self.moves[ply], self.v)
            self._checks[ply] = bool(pyffish.gives_check(self.v.name, self.fens[ply], [fsf]))
        return self._checks[ply]

    # -- moves -----------------------------------------------------------------
    def check_move(self, move: str) -> Optional[str]:
        """``None`` if ``move`` is legal, else why it is not."""
        try:
            fsf = move_to_fsf(move, self.v)
        except NotationError as e:
            return str(e)
        if move in self.legal_moves():
            return None
        if (self.v.uchifuzume_illegal and move.startswith("P*")
                and fsf in pyffish.legal_moves(self.v.name, self.fen, [])):
            return f"{move} is a pawn-drop mate (uchifuzume)"
        return f"{move} is not a legal move in {self.sfen}"

    def push(self, move: str) -> None:
        """Play ``move``; :class:`IllegalMove` if it is not legal."""
        why = self.check_move(move)
        if why is not None:
            raise IllegalMove(why)
        before = self.board
        after = before.apply(move)
        fen = after.fen()
        if self.crosscheck:
            theirs = pyffish.get_fen(self.v.name, self.fen, [move_to_fsf(move, self.v)])
            if Board.from_fen(theirs, self.v, after.move_number).sfen() != after.sfen():
                raise AssertionError(f"position after {move} differs from pyffish: "
                                     f"{after.sfen()} vs {theirs}")
        self.moves.append(move)
        self.fens.append(fen)
        self.keys.append(after.key())
        self.board = after
        self._legal = None
        self._outcome = None
        mover = before.side
        self._last_capture_bared = (
            self.v.bare_king
            and before.non_king_count(opponent(mover)) > 0
            and after.non_king_count(opponent(mover)) == 0
        )

    # -- game end --------------------------------------------------------------
    def outcome(self) -> Optional[Outcome]:
        """The end of the game in the current position, or ``None``."""
        if self._outcome is None:
            self._outcome = self._judge()
        return self._outcome or None

    def _judge(self):
        side = self.side
        if self._last_capture_bared:
            return Outcome(opponent(side), "bare king",
                           f"{_name(side)} was left with a bare king")
        if not self.legal_moves():
            if self.in_check():
                return Outcome(opponent(side), "checkmate", f"{_name(opponent(side))} mates")
            return Outcome(opponent(side), "stalemate",
                           f"{_name(side)} has no legal move (not in check)")
        rep = self.repetition()
        if rep is not None:
            return rep
        return False

    def repetition(self) -> Optional[Outcome]:
        """N-fold repetition of the current position, with the perpetual-check rule."""
        key = self.keys[-1]
        count = self.keys.count(key)
        if count < self.v.repetition:
            return None
        first = self.keys.index(key)
        span = range(first, len(self.moves))          # the moves since the first occurrence
        checker = []
        for s in (BLACK, WHITE):
            own = [i for i in span if self._mover(i) == s]
            if own and all(self.gave_check(i) for i in own):
                checker.append(s)
        if len(checker) == 1:
            return Outcome(opponent(checker[0]), "perpetual check",
                           f"{_name(checker[0])} checked perpetually ({count}-fold repetition)")
        return Outcome(None, "repetition", f"{count}-fold repetition")

    def _mover(self, ply: int) -> str:
        """Side that made move ``ply`` (0-based)."""
        return self.start_side if ply % 2 == 0 else opponent(self.start_side)

    def adjudicate_move_cap(self) -> Outcome:
        """Result at the move cap: impasse points when both kings are in their zones
        (and the variant has an impasse rule), else a draw."""
        b = self.board
        kb, kw = b.king_square(BLACK), b.king_square(WHITE)
        threshold = self.v.impasse_points
        if threshold is None or kb is None or kw is None \
                or not (b.in_zone(BLACK, kb[0]) and b.in_zone(WHITE, kw[0])):
            return Outcome(None, "move cap", f"move cap of {self.ply} plies reached")
        pb, pw = b.material_points(BLACK), b.material_points(WHITE)
        detail = f"impasse: Black {pb}, White {pw} points (needs {threshold})"
        if pb < threshold <= pw:
            return Outcome(WHITE, "impasse", detail)
        if pw < threshold <= pb:
            return Outcome(BLACK, "impasse", detail)
        return Outcome(None, "impasse", detail)

    def declaration(self) -> tuple[bool, str]:
        """Check a `bestmove win` of the side to move (27-point rule, shogi only)."""
        if not self.v.declaration:
            return False, f"{self.v.name} has no declaration rule"
        b, side = self.board, self.side
        king = b.king_square(side)
        if king is None or not b.in_zone(side, king[0]):
            return False, "king not in the promotion zone"
        zone = [p for r, _, p in b.pieces_of(side) if p.upper() != "K" and b.in_zone(side, r)]
        if len(zone) < 10:
            return False, f"only {len(zone)} pieces in the zone (10 needed)"
        points = sum(b.piece_points(p) for p in zone)
        points += sum(b.piece_points(p) * n for p, n in b.hands[side].items())
        need = 28 if side == BLACK else 27
        if points < need:
            return False, f"{points} points ({need} needed)"
        if self.in_check():
            return False, "king in check"
        return True, f"{points} points, {len(zone)} pieces in the zone"


class IllegalMove(ValueError):
    """An illegal or malformed move was pushed."""


def _name(side: str) -> str:
    return "Black" if side == BLACK else "White"
