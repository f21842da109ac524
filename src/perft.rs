//! Perft: counting legal move sequences, the standard move-generator check.

use crate::core::BitWord;
use crate::position::{Move, Position};

/// Number of legal move sequences of length `depth`. The last ply is bulk
/// counted (no make/unmake for leaves).
pub fn perft<W: BitWord>(pos: &mut Position<W>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for &m in &moves {
                pos.do_move(m);
                n += perft(pos, depth - 1);
                pos.undo_move();
            }
            n
        }
    }
}

/// Perft that gives up (`None`) once `stopped()` says so; it asks between
/// subtrees of depth 4 and more, so a stop is seen within a depth-3 count.
pub fn perft_until<W: BitWord>(
    pos: &mut Position<W>,
    depth: u32,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= 3 {
        return Some(perft(pos, depth));
    }
    if stopped() {
        return None;
    }
    let mut n = 0;
    for m in pos.legal_moves() {
        pos.do_move(m);
        let sub = perft_until(pos, depth - 1, stopped);
        pos.undo_move();
        n += sub?;
    }
    Some(n)
}

/// Perft split by root move: `(move, count)` for each legal move.
pub fn divide<W: BitWord>(pos: &mut Position<W>, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        pos.do_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo_move();
        out.push((m, n));
    }
    out
}
