//! Static evaluation (PLACEHOLDER: material only; the real evaluation replaces it).

use crate::core::BitWord;
use crate::position::Position;

/// Evaluation in centipawns from the side to move's point of view.
pub fn evaluate<W: BitWord>(pos: &Position<W>) -> i32 {
    let us = pos.side_to_move();
    let v = pos.variant();
    let mut s = 0;
    for sq in pos.occupied() {
        let p = pos.piece_at(sq);
        let val = 100 * v.kind(p.kind()).points as i32;
        s += if p.color() == us { val } else { -val };
    }
    s
}
