//! Move-ordering memory kept between nodes: the history table (how often a
//! quiet move by this piece to this square caused a cutoff) and counter-moves
//! (the reply that refuted the previous move). Drops have their own entries.

use super::params::HISTORY_MAX;
use crate::core::{BitWord, MAX_SQUARES};
use crate::position::{Move, Position};

/// Distinct moved-piece indices: colour x (board kind | 16 + dropped kind).
pub const PIECE_SLOTS: usize = 64;

/// The history slot of `m` in `pos` (before it is played).
#[inline(always)]
pub fn piece_slot<W: BitWord>(pos: &Position<W>, m: Move) -> usize {
    let c = pos.side_to_move().index() * 32;
    if m.is_drop() {
        c + 16 + m.drop_kind().index()
    } else {
        c + pos.piece_at(m.from()).kind().index()
    }
}

/// The ordering tables.
pub struct History {
    main: [[i16; MAX_SQUARES]; PIECE_SLOTS],
    counter: [[Move; MAX_SQUARES]; PIECE_SLOTS],
}

impl History {
    /// Empty tables, on the heap.
    pub fn new() -> Box<History> {
        Box::new(History {
            main: [[0; MAX_SQUARES]; PIECE_SLOTS],
            counter: [[Move::NONE; MAX_SQUARES]; PIECE_SLOTS],
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History {
            main: [[0; MAX_SQUARES]; PIECE_SLOTS],
            counter: [[Move::NONE; MAX_SQUARES]; PIECE_SLOTS],
        };
    }

    /// History score of a quiet move.
    #[inline(always)]
    pub fn get(&self, slot: usize, m: Move) -> i32 {
        self.main[slot][m.to().index()] as i32
    }

    /// Moves the score of a quiet move towards `bonus` (positive or negative).
    #[inline]
    pub fn update(&mut self, slot: usize, m: Move, bonus: i32) {
        let h = &mut self.main[slot][m.to().index()];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = *h as i32 + b - *h as i32 * b.abs() / HISTORY_MAX;
        *h = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
    }

    /// The counter-move to a previous move (its slot and destination).
    #[inline(always)]
    pub fn counter(&self, prev_slot: usize, prev: Move) -> Move {
        self.counter[prev_slot][prev.to().index()]
    }

    /// Remembers `m` as the reply to the previous move.
    #[inline(always)]
    pub fn set_counter(&mut self, prev_slot: usize, prev: Move, m: Move) {
        self.counter[prev_slot][prev.to().index()] = m;
    }
}

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 128).min(2400)
}
