//! An exact, full-width search for short forced wins at the root: the side to
//! move wins within `n` plies if some move leaves every reply lost within
//! `n - 1`, down to a last move that mates or bares the king. Nothing is
//! pruned, so a win the game search's reductions would hide is still seen; a
//! node budget keeps it to the small trees where that is cheap (the main
//! thread runs it before each iteration, up to `ShortWinBudget::plies`).
//!
//! It is conservative about the rules the tree search scores at nodes: a
//! repeated position, a possible declaration or the move limit inside the line
//! count as "no win", so a win it reports is a win under every rule. Its last
//! move is a mate or a baring capture; a quiet move that leaves the opponent
//! no legal move (a stalemate, also a loss) is not looked for, so such a win,
//! rare, is reported longer or not at all.

use super::SearchOptions;
use crate::core::BitWord;
use crate::position::{Move, Position, Repetition, MAX_MOVES};
use arrayvec::ArrayVec;

/// What a bounded proof attempt found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    /// The side to move wins within the plies asked: the line, attacker's
    /// moves shortest, defender's longest.
    Win(Vec<Move>),
    /// No win within the plies asked.
    NoWin,
    /// The node budget ran out or the search was stopped.
    Unknown,
}

/// One bounded proof attempt.
pub(super) struct ShortWin<'o> {
    opts: &'o SearchOptions,
    nodes: u64,
    budget: u64,
    aborted: bool,
    stop: &'o mut dyn FnMut() -> bool,
    /// The root moves to try first (the game search's order).
    root_order: &'o [Move],
    /// Per ply, the attacker move that last won there (tried first).
    killers: [Move; KILLER_PLIES],
}

/// Plies with a killer move (every proven length fits).
const KILLER_PLIES: usize = 16;

impl<'o> ShortWin<'o> {
    /// A prover that gives up after about `budget` positions or when `stop`
    /// (asked every 64 positions, as each may generate every move: the clock, `stop`) says so.
    /// `root_order`: root moves to try first, best first.
    pub(super) fn new(
        opts: &'o SearchOptions,
        budget: u64,
        stop: &'o mut dyn FnMut() -> bool,
        root_order: &'o [Move],
    ) -> Self {
        ShortWin {
            opts,
            nodes: 0,
            budget,
            aborted: false,
            stop,
            root_order,
            killers: [Move::NONE; KILLER_PLIES],
        }
    }

    /// Positions visited so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move wins within `plies` (odd) plies, with the line
    /// if so. Exactly the shortest win only if the caller knows there is none
    /// within `plies - 2`.
    pub(super) fn prove<W: BitWord>(&mut self, pos: &mut Position<W>, plies: i32) -> Proof {
        let limit = self.opts.max_moves_to_draw;
        if limit > 0 && pos.game_ply() + plies as u32 > limit {
            return Proof::NoWin;
        }
        let found = self.win_move(pos, plies, 0);
        if self.aborted {
            return Proof::Unknown;
        }
        match found {
            None => Proof::NoWin,
            Some(m) => {
                let mut line = Vec::new();
                self.line(pos, m, plies, &mut line);
                if self.aborted {
                    Proof::Unknown
                } else {
                    Proof::Win(line)
                }
            }
        }
    }

    /// Counts a position; true once the budget is spent or a stop came.
    fn tick(&mut self) -> bool {
        if self.nodes >= self.budget || (self.nodes & 63 == 0 && (self.stop)()) {
            self.aborted = true;
        } else {
            self.nodes += 1;
        }
        self.aborted
    }

    /// A first move that wins within `n` plies (odd, side to move attacks),
    /// `ply` plies from the root.
    fn win_move<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32, ply: usize) -> Option<Move> {
        if self.tick() || pos.bare_king_loss() || (self.opts.declaration && pos.can_declare()) {
            // Declaring is a win, but not a move this search plays out.
            return None;
        }
        if let Some(m) = pos.winning_move() {
            return Some(m);
        }
        if n < 3 {
            return None;
        }
        let moves = pos.legal_moves();
        // At the root the game search's order; below, the move that won at
        // this ply before, then checks and captures: a win usually starts
        // with one. Ordering only: every move is tried. Keys are computed
        // once per move (a sort's key function runs n log n times).
        let disc = pos.discoverers();
        let killer = self.killers.get(ply).copied().unwrap_or(Move::NONE);
        let root_order = if ply == 0 { self.root_order } else { &[] };
        let mut keyed: ArrayVec<(u64, Move), MAX_MOVES> = moves
            .iter()
            .map(|&m| {
                let rank = root_order
                    .iter()
                    .position(|&r| r == m)
                    .map_or(u32::MAX as u64, |r| r as u64);
                let check = pos.gives_check(disc, m);
                let capture = !m.is_drop() && pos.piece_at(m.to()).is_some();
                let key = (rank << 3)
                    | ((m != killer) as u64) << 2
                    | (!check as u64) << 1
                    | !capture as u64;
                (key, m)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        for (_, m) in keyed {
            pos.do_move(m);
            let lost = self.lost_within(pos, n - 1, ply + 1);
            pos.undo_move();
            if self.aborted {
                return None;
            }
            if lost {
                if let Some(k) = self.killers.get_mut(ply) {
                    *k = m;
                }
                return Some(m);
            }
        }
        None
    }

    /// Whether the side to move (defending) loses within `n` plies (even)
    /// whatever it plays.
    fn lost_within<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32, ply: usize) -> bool {
        if self.tick() {
            return false;
        }
        if pos.bare_king_loss() {
            return true;
        }
        if pos.repetition() != Repetition::None || (self.opts.declaration && pos.can_declare()) {
            return false;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if n == 0 {
            return false;
        }
        for m in moves {
            pos.do_move(m);
            let won = pos.repetition() == Repetition::None
                && self.win_move(pos, n - 1, ply + 1).is_some();
            pos.undo_move();
            if !won || self.aborted {
                return false;
            }
        }
        true
    }

    /// The shortest win of the position after the defender's move, in plies
    /// (odd, at most `n`), or `None`.
    fn shortest<W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        n: i32,
        ply: usize,
    ) -> Option<(i32, Move)> {
        (1..=n)
            .step_by(2)
            .find_map(|k| self.win_move(pos, k, ply).map(|m| (k, m)))
    }

    /// Appends the line of a win in `n` plies starting with `m`: after each
    /// attacker move, the reply that holds out longest.
    fn line<W: BitWord>(&mut self, pos: &mut Position<W>, m: Move, n: i32, line: &mut Vec<Move>) {
        line.push(m);
        pos.do_move(m);
        if n >= 3 && !pos.bare_king_loss() {
            let mut best: Option<(i32, Move, Move)> = None;
            for r in pos.legal_moves() {
                pos.do_move(r);
                let s = self.shortest(pos, n - 2, line.len() + 1);
                pos.undo_move();
                if let Some((k, next)) = s {
                    if best.is_none_or(|(bk, _, _)| k > bk) {
                        best = Some((k, r, next));
                    }
                }
            }
            if let Some((k, r, next)) = best {
                line.push(r);
                pos.do_move(r);
                self.line(pos, next, k, line);
                pos.undo_move();
            }
        }
        pos.undo_move();
    }
}
