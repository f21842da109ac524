//! `Position<W>`: board, hands, side to move, incremental Zobrist hash, the
//! move history for repetition, make/unmake, attack queries.

mod display;
mod evasions;
mod hand;
mod legality;
mod movegen;
mod moves;
mod notation;
mod piece;
mod rules;
mod sfen;
#[cfg(test)]
pub(crate) mod testing;

pub use hand::Hand;
pub use movegen::{MoveList, MAX_MOVES};
pub use moves::{Move, MoveError};
pub use notation::Notation;
pub use piece::Piece;
pub use rules::{EndReason, GameEnd, Repetition};
pub use sfen::SfenError;

use crate::core::{BitWord, Bitboard, Color, Direction, Square, MAX_SQUARES};
use crate::tables::Tables;
use crate::variant::{Kind, Variant, MAX_KINDS};

/// What `undo_move` needs, and what repetition detection reads.
#[derive(Copy, Clone, Debug)]
struct StateInfo<W: BitWord> {
    /// Hash of the position before the move.
    hash: u64,
    /// Checkers of the position before the move.
    checkers_before: Bitboard<W>,
    /// The move played.
    mv: Move,
    /// The piece it captured (NONE if none).
    captured: Piece,
}

/// A game position of a variant, over bit word `W`.
#[derive(Clone)]
pub struct Position<W: BitWord> {
    t: &'static Tables<W>,
    board: [Piece; MAX_SQUARES],
    by_color: [Bitboard<W>; 2],
    by_kind: [Bitboard<W>; MAX_KINDS],
    /// Pieces per colour and leap class (see `Tables::leap_class`).
    by_class: [[Bitboard<W>; MAX_KINDS]; 2],
    /// Pieces per colour that slide in each absolute direction.
    by_slide: [[Bitboard<W>; 8]; 2],
    hands: [Hand; 2],
    side: Color,
    king: [Square; 2],
    /// The side without a king, if any (a tsume problem's attacker); its
    /// `king` entry is then a placeholder square.
    kingless: Option<Color>,
    /// Plies played before the SFEN this position was set from.
    start_ply: u32,
    /// Fairy-Stockfish's halfmove clock at the root (from a FEN; SFEN has
    /// none, so 0).
    start_clock: u32,
    hash: u64,
    checkers: Bitboard<W>,
    history: Vec<StateInfo<W>>,
}

impl<W: BitWord> Position<W> {
    /// The variant's start position.
    pub fn startpos(v: &'static Variant) -> Position<W> {
        Position::from_sfen(v, v.def.start_sfen).expect("start SFEN of a built-in variant is valid")
    }

    /// An empty board (for the SFEN parser to fill in).
    fn empty(v: &'static Variant) -> Position<W> {
        Position {
            t: Tables::get(v),
            board: [Piece::NONE; MAX_SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            by_class: [[Bitboard::EMPTY; MAX_KINDS]; 2],
            by_slide: [[Bitboard::EMPTY; 8]; 2],
            hands: [Hand::default(); 2],
            side: Color::Black,
            king: [Square::new(0); 2],
            kingless: None,
            start_ply: 0,
            start_clock: 0,
            hash: 0,
            checkers: Bitboard::EMPTY,
            history: Vec::with_capacity(256),
        }
    }

    /// The variant being played.
    #[inline(always)]
    pub fn variant(&self) -> &'static Variant {
        self.t.variant
    }

    /// The variant's lookup tables.
    #[inline(always)]
    pub fn tables(&self) -> &'static Tables<W> {
        self.t
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Squares occupied by colour `c`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard<W> {
        self.by_color[c.index()]
    }

    /// Squares occupied by kind `k` (both colours).
    #[inline(always)]
    pub fn pieces_of_kind(&self, k: Kind) -> Bitboard<W> {
        self.by_kind[k.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<W> {
        self.by_color[0] | self.by_color[1]
    }

    /// A player's hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }

    /// Where colour `c`'s king stands (a placeholder if `!has_king(c)`).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king[c.index()]
    }

    /// Whether colour `c` has a king. Only a tsume problem's attacker may
    /// lack one; a king is never captured, so this holds for the whole game.
    #[inline(always)]
    pub fn has_king(&self, c: Color) -> bool {
        self.kingless != Some(c)
    }

    /// Zobrist hash of board, both hands and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard<W> {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Plies played since the SFEN this position was set from.
    #[inline(always)]
    pub fn plies_from_root(&self) -> usize {
        self.history.len()
    }

    /// The game's ply count (SFEN move number - 1 plus moves played).
    pub fn game_ply(&self) -> u32 {
        self.start_ply + self.history.len() as u32
    }

    /// Fairy-Stockfish's halfmove clock, as its FEN shows it: plies since
    /// the last capture, drop or promotion (a pawn move does not reset it in
    /// these variants), counting the root's own clock if none was played
    /// since.
    pub fn halfmove_clock(&self) -> u32 {
        let resets =
            |s: &StateInfo<W>| !s.captured.is_none() || s.mv.is_drop() || s.mv.is_promotion();
        match self.history.iter().rposition(resets) {
            Some(i) => (self.history.len() - 1 - i) as u32,
            None => self.start_clock + self.history.len() as u32,
        }
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    /// The piece the last move captured (NONE if none or no move).
    pub fn last_captured(&self) -> Piece {
        self.history.last().map_or(Piece::NONE, |s| s.captured)
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = p;
        self.toggle(sq, p);
    }

    #[inline(always)]
    fn lift(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = Piece::NONE;
        self.toggle(sq, p);
    }

    /// Flips `sq` in every bitboard that piece `p` belongs to.
    #[inline(always)]
    fn toggle(&mut self, sq: Square, p: Piece) {
        let (c, k) = (p.color(), p.kind());
        self.by_color[c.index()].toggle(sq);
        self.by_kind[k.index()].toggle(sq);
        let class = self.t.leap_class(k);
        if class != crate::tables::NO_CLASS {
            self.by_class[c.index()][class as usize].toggle(sq);
        }
        let mut dirs = self.t.slide_dirs(c, k);
        while dirs != 0 {
            self.by_slide[c.index()][dirs.trailing_zeros() as usize].toggle(sq);
            dirs &= dirs - 1;
        }
    }

    /// Pieces of colour `c` that attack `sq`, given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, c: Color, occ: Bitboard<W>) -> Bitboard<W> {
        let t = self.t;
        let mut att = Bitboard::EMPTY;
        for class in 0..t.num_leap_classes() {
            let pcs = self.by_class[c.index()][class];
            if pcs.any() {
                att |= t.class_leap(c.opp(), class, sq) & pcs;
            }
        }
        for d in Direction::ALL {
            let sliders = self.sliders(c, d.opposite());
            if sliders.any() && (t.ray(d, sq) & sliders).any() {
                att |= t.slide(d, sq, occ) & sliders;
            }
        }
        att
    }

    /// Whether colour `c` attacks `sq` with occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, c: Color, occ: Bitboard<W>) -> bool {
        let t = self.t;
        for class in 0..t.num_leap_classes() {
            if (t.class_leap(c.opp(), class, sq) & self.by_class[c.index()][class]).any() {
                return true;
            }
        }
        for d in Direction::ALL {
            let sliders = self.sliders(c, d.opposite());
            if (t.ray(d, sq) & sliders).any() && (t.slide(d, sq, occ) & sliders).any() {
                return true;
            }
        }
        false
    }

    /// Pieces of colour `c` that slide in direction `d`.
    #[inline(always)]
    fn sliders(&self, c: Color, d: Direction) -> Bitboard<W> {
        self.by_slide[c.index()][d.index()]
    }

    /// Pieces of colour `c` that are pinned to their own king.
    #[inline]
    pub fn pinned(&self, c: Color) -> Bitboard<W> {
        self.blockers(c, c.opp()) & self.by_color[c.index()]
    }

    /// Pieces (of either colour) that are the only piece between the king of
    /// `king_of` and a slider of `sliders_of` aimed at it: pinned pieces when the
    /// colours differ from the blocker's, discovered-check candidates otherwise.
    pub fn blockers(&self, king_of: Color, sliders_of: Color) -> Bitboard<W> {
        let t = self.t;
        if !self.has_king(king_of) {
            return Bitboard::EMPTY;
        }
        let ksq = self.king[king_of.index()];
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for d in Direction::ALL {
            let snipers = t.ray(d, ksq) & self.sliders(sliders_of, d.opposite());
            if snipers.is_empty() {
                continue;
            }
            // Only the nearest slider along the ray matters.
            let s = if d.is_increasing() {
                snipers.lowest()
            } else {
                snipers.highest()
            };
            let b = t.between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// The hash `do_move(m)` would give, without playing `m` (a legal move).
    #[inline]
    pub fn hash_after(&self, m: Move) -> u64 {
        let t = self.t;
        let us = self.side;
        let mut hash = self.hash ^ t.zobrist.side;
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            hash ^= t.hand_key(us, k, self.hands[us.index()].count(k));
            hash ^= t.psq_key(us, k, to);
        } else {
            let from = m.from();
            let k = self.board[from.index()].kind();
            let captured = self.board[to.index()];
            if captured.is_some() {
                let ck = captured.kind();
                hash ^= t.psq_key(us.opp(), ck, to);
                if t.variant.hand_kinds > 0 {
                    let base = t.variant.kind(ck).base;
                    hash ^= t.hand_key(us, base, self.hands[us.index()].count(base) + 1);
                }
            }
            hash ^= t.psq_key(us, k, from);
            let nk = if m.is_promotion() {
                t.variant.kind(k).promotes_to.unwrap_or(k)
            } else {
                k
            };
            hash ^= t.psq_key(us, nk, to);
        }
        hash
    }

    /// Plays a legal move.
    pub fn do_move(&mut self, m: Move) {
        let t = self.t;
        let us = self.side;
        let mut hash = self.hash;
        let mut captured = Piece::NONE;
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            let n = self.hands[us.index()].count(k);
            hash ^= t.hand_key(us, k, n);
            self.hands[us.index()].remove(k);
            self.put(to, Piece::new(us, k));
            hash ^= t.psq_key(us, k, to);
        } else {
            let from = m.from();
            let p = self.board[from.index()];
            let k = p.kind();
            captured = self.board[to.index()];
            if captured.is_some() {
                let ck = captured.kind();
                self.lift(to, captured);
                hash ^= t.psq_key(us.opp(), ck, to);
                if t.variant.hand_kinds > 0 {
                    let base = t.variant.kind(ck).base;
                    self.hands[us.index()].add(base);
                    hash ^= t.hand_key(us, base, self.hands[us.index()].count(base));
                }
            }
            self.lift(from, p);
            hash ^= t.psq_key(us, k, from);
            let nk = if m.is_promotion() {
                t.variant.kind(k).promotes_to.unwrap_or(k)
            } else {
                k
            };
            self.put(to, Piece::new(us, nk));
            hash ^= t.psq_key(us, nk, to);
            if k == t.variant.king {
                self.king[us.index()] = to;
            }
        }
        self.history.push(StateInfo {
            hash: self.hash,
            checkers_before: self.checkers,
            mv: m,
            captured,
        });
        self.side = us.opp();
        self.hash = hash ^ t.zobrist.side;
        self.checkers = self.checkers_after(m, us);
    }

    /// The pieces of `us` (who just played `m`) that check the other king: the
    /// moved piece directly, or a slider uncovered on the vacated square.
    #[inline(always)]
    fn checkers_after(&self, m: Move, us: Color) -> Bitboard<W> {
        let t = self.t;
        if !self.has_king(us.opp()) {
            return Bitboard::EMPTY;
        }
        let ksq = self.king[us.opp().index()];
        let occ = self.occupied();
        let to = m.to();
        let mut chk = Bitboard::EMPTY;
        if t.attacks(us, self.board[to.index()].kind(), to, occ)
            .has(ksq)
        {
            chk.set(to);
        }
        if !m.is_drop() {
            if let Some(d) = t.direction(ksq, m.from()) {
                chk |= t.slide(d, ksq, occ) & self.by_slide[us.index()][d.opposite().index()];
            }
        }
        chk
    }

    /// Takes back the last move played with `do_move`.
    pub fn undo_move(&mut self) {
        let st = self.history.pop().expect("undo_move without a move");
        let t = self.t;
        self.side = self.side.opp();
        let us = self.side;
        let m = st.mv;
        let to = m.to();
        if m.is_drop() {
            let p = self.board[to.index()];
            self.lift(to, p);
            self.hands[us.index()].add(m.drop_kind());
        } else {
            let from = m.from();
            let p = self.board[to.index()];
            self.lift(to, p);
            let k = if m.is_promotion() {
                t.variant.kind(p.kind()).base
            } else {
                p.kind()
            };
            self.put(from, Piece::new(us, k));
            if k == t.variant.king {
                self.king[us.index()] = from;
            }
            if st.captured.is_some() {
                self.put(to, st.captured);
                if t.variant.hand_kinds > 0 {
                    self.hands[us.index()].remove(t.variant.kind(st.captured.kind()).base);
                }
            }
        }
        self.hash = st.hash;
        self.checkers = st.checkers_before;
    }

    /// Passes the turn (null move, for search). Only legal when not in check.
    pub fn do_null_move(&mut self) {
        self.history.push(StateInfo {
            hash: self.hash,
            checkers_before: self.checkers,
            mv: Move::NONE,
            captured: Piece::NONE,
        });
        self.side = self.side.opp();
        self.hash ^= self.t.zobrist.side;
        self.checkers = Bitboard::EMPTY;
    }

    /// Takes back `do_null_move`.
    pub fn undo_null_move(&mut self) {
        let st = self.history.pop().expect("undo_null_move without a move");
        self.side = self.side.opp();
        self.hash = st.hash;
        self.checkers = st.checkers_before;
    }

    /// The hash computed from scratch (to check the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let t = self.t;
        let mut h = 0;
        for sq in self.occupied() {
            let p = self.board[sq.index()];
            h ^= t.psq_key(p.color(), p.kind(), sq);
        }
        for c in Color::ALL {
            for k in 0..t.variant.hand_kinds {
                for n in 1..=self.hands[c.index()].count(Kind(k as u8)) {
                    h ^= t.hand_key(c, Kind(k as u8), n);
                }
            }
        }
        if self.side == Color::White {
            h ^= t.zobrist.side;
        }
        h
    }

    /// Forgets the move history (the current position becomes the root).
    pub fn clear_history(&mut self) {
        self.start_clock = self.halfmove_clock();
        self.start_ply += self.history.len() as u32;
        self.history.clear();
    }
}
