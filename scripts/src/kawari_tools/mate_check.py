"""Checking a mate line with the referee (pyffish and the project's rules),
independently of the engine that found it: used by kawari-verify-mate and
kawari-mate-suite."""

from __future__ import annotations

from kawari_tools import referee


def verify_line(v: referee.Variant, sfen: str, line: list[str]) -> str | None:
    """None if ``line`` is a complete mate from ``sfen``, else what is wrong."""
    board = referee.Board.from_sfen(sfen, v)
    attacker = board.side
    for i, move in enumerate(line):
        if move not in referee.legal_usi_moves(v, board.sfen()):
            return f"move {i + 1} {move} is not legal"
        by_attacker = board.side == attacker
        board = board.apply(move)
        if by_attacker and not referee.board_in_check(v, board):
            return f"attacker's move {i + 1} {move} is not a check"
    mated = not referee.legal_usi_moves(v, board.sfen()) and referee.board_in_check(v, board)
    if not line or not mated:
        return "the line does not end in checkmate"
    return None
