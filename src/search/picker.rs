//! The move picker of `search` and `qsearch`: the hash move first, then the
//! generated moves best first by ordering score (good captures and promotions,
//! killers, the counter-move, history, bad captures). The first few picks
//! select; then what may still be searched is sorted once and a tail of poor
//! quiet moves is left unsorted. Quiescence uses the same picker over captures
//! and pawn promotions, or every evasion when in check.

use super::history::{piece_slot, History};
use super::params::{GAIN_ORDER_SCALE, MOVER_ORDER_DIVISOR};
use super::see::{captured_value, see_ge};
use crate::core::{BitWord, Bitboard};
use crate::eval::EvalTables;
use crate::position::{Move, MoveList, Position, MAX_MOVES};

/// Ordering score bands.
pub(super) const SCORE_TT: i32 = 1 << 30;
const SCORE_GOOD_TACTICAL: i32 = 1 << 28;
const SCORE_KILLER: i32 = 1 << 27;
const SCORE_COUNTER: i32 = SCORE_KILLER - 2;
const SCORE_BAD_TACTICAL: i32 = -(1 << 28);

/// Picks after which the rest of the list is sorted once instead of selected.
const SELECT_PICKS: usize = 3;

/// Where a picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Main search: give the hash move, then generate.
    TtMove,
    /// Main search: generate and score every other move.
    Generate,
    /// Quiescence: generate captures or evasions and score them.
    GenerateQuiescence,
    /// Hand out the scored list.
    Pick,
}

/// One ply's picker: its stage and its scored list (each move packed with its
/// score, so sorting the words sorts the moves).
pub(super) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    in_check: bool,
    cursor: usize,
    len: usize,
    sorted: bool,
    /// Ordering scores below this are not sorted (late quiet moves).
    sort_limit: i32,
    /// The node's killers and the move that led to it.
    node: NodeMoves,
    /// Zeroed by the allocator, so an idle thread's pickers cost no memory.
    list: Box<[i64]>,
}

#[inline(always)]
fn pack(score: i32, m: Move) -> i64 {
    ((score as i64) << 16) | m.raw() as i64
}

#[inline(always)]
fn unpack(x: i64) -> Move {
    Move::from_raw((x & 0xffff) as u16)
}

impl MovePicker {
    /// An idle picker.
    pub(super) fn new() -> MovePicker {
        MovePicker {
            stage: Stage::Pick,
            tt_move: Move::NONE,
            in_check: false,
            cursor: 0,
            len: 0,
            sorted: false,
            sort_limit: 0,
            node: NodeMoves::default(),
            list: vec![0; MAX_MOVES].into_boxed_slice(),
        }
    }

    /// Starts a main-search node: `tt_move` (legal, or none) comes first.
    #[inline]
    pub(super) fn start(
        &mut self,
        tt_move: Move,
        depth: i32,
        sort_limit_per_ply: i32,
        node: NodeMoves,
    ) {
        self.stage = Stage::TtMove;
        self.node = node;
        self.tt_move = tt_move;
        self.sort_limit = sort_limit_per_ply * depth;
        self.cursor = 0;
        self.len = 0;
        self.sorted = false;
    }

    /// Starts a quiescence node: `tt_move` is only ordered first if generated.
    #[inline]
    pub(super) fn start_quiescence(&mut self, tt_move: Move, in_check: bool, node: NodeMoves) {
        self.stage = Stage::GenerateQuiescence;
        self.node = node;
        self.tt_move = tt_move;
        self.in_check = in_check;
        self.sort_limit = i32::MIN / 2;
        self.cursor = 0;
        self.len = 0;
        self.sorted = false;
    }

    /// Selects the best remaining move of the list.
    #[inline]
    fn pick(&mut self) -> Option<Move> {
        let (cursor, len) = (self.cursor, self.len);
        if cursor >= len {
            return None;
        }
        let list = &mut self.list;
        if !self.sorted {
            if cursor >= SELECT_PICKS {
                // Sort what may still be searched; leave the tail of poor
                // quiet moves in generation order.
                let limit = pack(self.sort_limit, Move::NONE);
                let mut j = cursor;
                for i in cursor..len {
                    if list[i] >= limit {
                        list.swap(i, j);
                        j += 1;
                    }
                }
                list[cursor..j].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            } else {
                let mut best = cursor;
                for i in cursor + 1..len {
                    if list[i] > list[best] {
                        best = i;
                    }
                }
                list.swap(cursor, best);
            }
        }
        self.cursor += 1;
        Some(unpack(list[cursor]))
    }
}

/// Ordering score of a capture or promotion: the gain, less a little for a
/// valuable mover; `None` for a quiet move.
#[inline]
fn tactical_order<W: BitWord>(pos: &Position<W>, et: &EvalTables, m: Move) -> Option<i32> {
    let victim = captured_value(pos, et, m);
    if victim == 0 && !m.is_promotion() {
        return None;
    }
    Some(gain_order(pos, et, m, victim))
}

/// The gain of a move in material and promotion, scaled, less a little for a
/// valuable mover.
#[inline]
fn capture_order<W: BitWord>(pos: &Position<W>, et: &EvalTables, m: Move) -> i32 {
    gain_order(pos, et, m, captured_value(pos, et, m))
}

/// `capture_order` with the captured value known.
#[inline(always)]
fn gain_order<W: BitWord>(pos: &Position<W>, et: &EvalTables, m: Move, victim: i32) -> i32 {
    let mover = if m.is_drop() {
        m.drop_kind()
    } else {
        pos.piece_at(m.from()).kind()
    };
    let mut gain = victim;
    if m.is_promotion() {
        gain += et.promotion_gain[mover.index()];
    }
    gain * GAIN_ORDER_SCALE - et.exchange[mover.index()] / MOVER_ORDER_DIVISOR
}

/// What move ordering reads of the searching thread, lent for each pick:
/// its evaluation tables and its histories (two references).
pub(super) struct Heuristics<'a> {
    /// The variant's evaluation tables (piece values for captures).
    pub(super) et: &'a EvalTables,
    /// Quiet-move history and counter-moves.
    pub(super) history: &'a History,
}

/// What ordering needs of one node, given when its picker starts.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct NodeMoves {
    /// Quiet moves that caused cutoffs at this ply.
    pub(super) killers: [Move; 2],
    /// The move that led to this node (`Move::NONE` at the root or after a
    /// null move) and its history slot, for its counter-move.
    pub(super) prev: (usize, Move),
}

impl Heuristics<'_> {
    /// Ordering score of a move (not the hash move) at a node with these
    /// `killers` and `counter` move.
    #[inline]
    pub(super) fn score<W: BitWord>(
        &self,
        pos: &Position<W>,
        m: Move,
        killers: &[Move; 2],
        counter: Move,
    ) -> i32 {
        if let Some(order) = tactical_order(pos, self.et, m) {
            return if see_ge(pos, self.et, m, 0) {
                SCORE_GOOD_TACTICAL + order
            } else {
                SCORE_BAD_TACTICAL + order
            };
        }
        if m == killers[0] {
            SCORE_KILLER
        } else if m == killers[1] {
            SCORE_KILLER - 1
        } else if m == counter {
            SCORE_COUNTER
        } else {
            self.history.get(piece_slot(pos, m), m)
        }
    }

    /// The counter-move to `prev` (slot, move), if any.
    #[inline]
    fn counter(&self, prev: (usize, Move)) -> Move {
        let (slot, mv) = prev;
        if mv.is_none() {
            Move::NONE
        } else {
            self.history.counter(slot, mv)
        }
    }
}

impl MovePicker {
    /// The next move, best first; `scratch` is the thread's generation list.
    #[inline]
    pub(super) fn next<W: BitWord>(
        &mut self,
        pos: &Position<W>,
        h: &Heuristics,
        scratch: &mut MoveList,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if !self.tt_move.is_none() {
                        return Some(self.tt_move);
                    }
                }
                Stage::Generate | Stage::GenerateQuiescence => self.generate(pos, h, scratch),
                Stage::Pick => return self.pick(),
            }
        }
    }

    /// Generates and scores the node's moves: in the main search every
    /// legal move but the hash move; in quiescence captures and promotions
    /// by gain, or every evasion when in check (the hash move first).
    fn generate<W: BitWord>(&mut self, pos: &Position<W>, h: &Heuristics, scratch: &mut MoveList) {
        let quiescence = self.stage == Stage::GenerateQuiescence;
        scratch.clear();
        if quiescence && !self.in_check {
            generate_captures(pos, h.et, scratch);
        } else {
            pos.generate_into(scratch);
        }
        let counter = if quiescence {
            Move::NONE
        } else {
            h.counter(self.node.prev)
        };
        let mut n = 0;
        for &m in scratch.iter() {
            let s = if m == self.tt_move {
                if !quiescence {
                    continue;
                }
                SCORE_TT
            } else if quiescence && !self.in_check {
                capture_order(pos, h.et, m)
            } else {
                h.score(pos, m, &self.node.killers, counter)
            };
            self.list[n] = pack(s, m);
            n += 1;
        }
        self.len = n;
        self.cursor = 0;
        self.stage = Stage::Pick;
    }
}

/// Captures (promoting where that gains) and pawn promotions, for quiescence.
/// The side to move must not be in check. Every move is legal.
pub fn generate_captures<W: BitWord>(pos: &Position<W>, et: &EvalTables, list: &mut MoveList) {
    let t = pos.tables();
    let v = t.variant;
    let us = pos.side_to_move();
    let them = us.opp();
    let own = pos.pieces_of(us);
    let theirs = pos.pieces_of(them);
    let occ = pos.occupied();
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let zone = t.zone(us);
    for (ki, info) in v.kinds.iter().enumerate() {
        let k = crate::variant::Kind(ki as u8);
        let pcs = pos.pieces_of_kind(k) & own;
        if pcs.is_empty() {
            continue;
        }
        let dead = t.dead(us, k);
        let promotes = info.promotes_to.is_some();
        let prefer_promotion = et.promotion_gain[ki] > 0;
        let is_pawn = Some(k) == v.pawn;
        for from in pcs {
            let reach = t.attacks(us, k, from, occ);
            let mut a = reach & theirs;
            if is_pawn {
                let quiet = reach & !occ;
                a |= if zone.has(from) { quiet } else { quiet & zone };
            }
            if k == v.king {
                let no_king = occ ^ Bitboard::from_square(from);
                for to in a {
                    if !pos.is_attacked(to, them, no_king) {
                        list.push(Move::normal(from, to, false));
                    }
                }
                continue;
            }
            if pinned.has(from) {
                a &= t.line(ksq, from);
            }
            for to in a {
                let can_promote = promotes && (zone.has(from) || zone.has(to));
                let capture = theirs.has(to);
                if can_promote && (prefer_promotion || dead.has(to)) {
                    list.push(Move::normal(from, to, true));
                } else if capture && !dead.has(to) {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// Random playouts in every variant: quiescence's captures are legal moves.
    #[test]
    fn captures_are_legal() {
        let mut rng = StdRng::seed_from_u64(11);
        for v in Variant::all() {
            let et = crate::eval::tables(v);
            let mut seen = 0;
            for _game in 0..8 {
                let mut pos = Position::<u128>::startpos(v);
                for _ply in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if !pos.in_check() {
                        let mut caps = MoveList::new();
                        generate_captures(&pos, et, &mut caps);
                        for &m in &caps {
                            assert!(moves.contains(&m), "{} {}", pos.to_sfen(), m.to_usi(v));
                        }
                        seen += caps.len();
                    }
                    pos.do_move(moves[rng.gen_range(0..moves.len())]);
                }
            }
            assert!(seen > 0, "{}", v.name());
        }
    }
}
