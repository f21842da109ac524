//! Move-ordering memory kept between nodes: the history table (how often a
//! quiet move by this piece to this square caused a cutoff) and counter-moves
//! (the reply that refuted the previous move), and the continuation histories
//! (how a quiet move fared after a given earlier move). Drops have their own
//! entries.

use super::params::HISTORY_MAX;
use crate::core::{BitWord, MAX_SQUARES};
use crate::position::{Move, Position};
use crate::variant::Variant;

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
        gravity(&mut self.main[slot][m.to().index()], bonus);
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

/// "No previous move" (root, null move) for the continuation histories.
pub const NO_CONTEXT: u32 = u32::MAX;

/// Continuation histories: how a quiet move fared after a given earlier
/// move, keyed by both moves' pieces and destinations. Table 0 follows the
/// move just played (the opponent's), table 1 the move before it (our own).
/// Sized for the variant searched: moved pieces are the board kinds, then
/// the dropped kinds, so shogi's tables are 11.6 MB each and Judkins' 1.7 MB.
pub struct ContinuationHistory {
    /// Board kinds of the variant (dropped kinds are numbered after them).
    board_kinds: usize,
    /// Moved pieces of one colour: board kinds plus hand kinds.
    pieces: usize,
    squares: usize,
    tables: [Vec<i16>; 2],
}

impl ContinuationHistory {
    /// Empty tables (sized by `fit` before a search).
    pub fn new() -> ContinuationHistory {
        ContinuationHistory {
            board_kinds: 0,
            pieces: 0,
            squares: 0,
            tables: [Vec::new(), Vec::new()],
        }
    }

    /// Makes the tables the size `variant` needs (emptied if they change).
    pub fn fit(&mut self, variant: &Variant) {
        let board_kinds = variant.kinds.len();
        let pieces = board_kinds + variant.hand_kinds;
        let squares = variant.def.geometry.squares();
        if (board_kinds, pieces, squares) != (self.board_kinds, self.pieces, squares)
            || self.squares != squares
        {
            let len = 2 * pieces * squares * pieces * squares;
            *self = ContinuationHistory {
                board_kinds,
                pieces,
                squares,
                tables: [vec![0; len], vec![0; len]],
            };
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for t in self.tables.iter_mut() {
            t.fill(0);
        }
    }

    /// The moved piece of `m` in `pos` (before it is played), colour aside.
    #[inline(always)]
    fn piece<W: BitWord>(&self, pos: &Position<W>, m: Move) -> usize {
        if m.is_drop() {
            self.board_kinds + m.drop_kind().index()
        } else {
            pos.piece_at(m.from()).kind().index()
        }
    }

    /// The key of `m` in `pos` (before it is played) as an earlier move:
    /// where the entries of the moves that follow it start.
    #[inline(always)]
    pub fn context<W: BitWord>(&self, pos: &Position<W>, m: Move) -> u32 {
        let colour = pos.side_to_move().index();
        let piece = colour * self.pieces + self.piece(pos, m);
        ((piece * self.squares + m.to().index()) * self.pieces * self.squares) as u32
    }

    /// The entry of `m` in `pos` within a context.
    #[inline(always)]
    fn entry<W: BitWord>(&self, pos: &Position<W>, m: Move) -> usize {
        self.piece(pos, m) * self.squares + m.to().index()
    }

    /// The sum of a quiet move's scores after the earlier moves `contexts`.
    #[inline(always)]
    pub fn get<W: BitWord>(&self, contexts: [u32; 2], pos: &Position<W>, m: Move) -> i32 {
        let e = self.entry(pos, m);
        let mut s = 0;
        for (t, &c) in self.tables.iter().zip(contexts.iter()) {
            if c != NO_CONTEXT {
                s += t[c as usize + e] as i32;
            }
        }
        s
    }

    /// Moves a quiet move's scores after `contexts` towards `bonus`.
    #[inline]
    pub fn update<W: BitWord>(
        &mut self,
        contexts: [u32; 2],
        pos: &Position<W>,
        m: Move,
        bonus: i32,
    ) {
        let e = self.entry(pos, m);
        for (t, &c) in self.tables.iter_mut().zip(contexts.iter()) {
            if c != NO_CONTEXT {
                gravity(&mut t[c as usize + e], bonus);
            }
        }
    }
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves a history entry towards `bonus`, slower as it nears the bound.
#[inline(always)]
fn gravity(h: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *h as i32 + b - *h as i32 * b.abs() / HISTORY_MAX;
    *h = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables fit each variant: shogi's 21 moved pieces a colour (14
    /// board kinds, 7 dropped) on 81 squares, Judkins' 18 on 36.
    #[test]
    fn continuation_tables_are_sized_per_variant() {
        let mut c = ContinuationHistory::new();
        c.fit(Variant::by_name("shogi").unwrap());
        assert_eq!(c.tables[0].len(), 2 * 21 * 81 * 21 * 81);
        c.fit(Variant::by_name("judkins").unwrap());
        assert_eq!(c.tables[1].len(), 2 * 18 * 36 * 18 * 36);
    }

    /// A bonus after one earlier move raises that move's score there only:
    /// not after another earlier move, not for another reply, and a missing
    /// context counts nothing.
    #[test]
    fn a_continuation_is_kept_per_earlier_move() {
        let v = Variant::by_name("judkins").unwrap();
        let mut c = ContinuationHistory::new();
        c.fit(v);
        let mut pos = Position::<u64>::startpos(v);
        let moves = pos.legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let (ca, cb) = (c.context(&pos, a), c.context(&pos, b));
        assert_ne!(ca, cb);
        pos.do_move(a);
        let replies = pos.legal_moves();
        let (x, y) = (replies[0], replies[replies.len() - 1]);
        c.update([ca, NO_CONTEXT], &pos, x, 1000);
        assert_eq!(c.get([ca, NO_CONTEXT], &pos, x), 1000);
        assert_eq!(c.get([ca, ca], &pos, x), 1000, "table 1 untouched");
        assert_eq!(c.get([cb, NO_CONTEXT], &pos, x), 0);
        assert_eq!(c.get([ca, NO_CONTEXT], &pos, y), 0);
        assert_eq!(c.get([NO_CONTEXT; 2], &pos, x), 0);
        c.update([ca, cb], &pos, x, -3000);
        assert_eq!(c.get([NO_CONTEXT, cb], &pos, x), -3000);
        c.clear();
        assert_eq!(c.get([ca, cb], &pos, x), 0);
    }
}
