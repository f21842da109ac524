//! Search: the interface the engine drives (`Search::run`) and its types.
//!
//! PLACEHOLDER IMPLEMENTATION: a plain fixed-budget alpha-beta on material so the
//! front end can be built and tested against the real interface; the real search
//! (iterative deepening, PVS, quiescence, TT, pruning, time management) replaces
//! the body of `run` without changing the types below.

mod limits;
mod tt;

pub use limits::Limits;
pub use tt::TranspositionTable;

use crate::core::BitWord;
use crate::position::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A search score as USI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many plies: positive = we mate, negative = we are mated.
    Mate(i32),
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index for MultiPV.
    pub multipv: u32,
    /// Score of this line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Flags the engine flips while a search runs (from the input thread).
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Stop as soon as possible and return the best move found.
    pub stop: AtomicBool,
    /// Set while pondering; cleared on `ponderhit` (the clock then starts).
    pub pondering: AtomicBool,
}

impl SearchControl {
    /// Whether `stop` was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Options that shape a search (from `setoption`).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Lines to report (MultiPV).
    pub multipv: u32,
    /// Game ply at which the game is a draw (0 = off).
    pub max_moves_to_draw: u32,
    /// Whether the entering-king declaration is allowed (shogi only).
    pub declaration: bool,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            max_moves_to_draw: 0,
            declaration: true,
            move_overhead: 50,
        }
    }
}

/// What a search decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move, optionally expecting `ponder`.
    Move(Move, Option<Move>),
    /// No legal move or lost beyond doubt: `bestmove resign`.
    Resign,
    /// The declaration rule holds: `bestmove win`.
    Win,
}

/// The searcher: keeps heuristics between searches; the hash table is passed in.
pub struct Search<W: BitWord> {
    nodes: u64,
    _w: std::marker::PhantomData<W>,
}

impl<W: BitWord> Default for Search<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W: BitWord> Search<W> {
    /// A fresh searcher.
    pub fn new() -> Search<W> {
        Search {
            nodes: 0,
            _w: std::marker::PhantomData,
        }
    }

    /// Forgets learned heuristics (`usinewgame`).
    pub fn clear(&mut self) {}

    /// Searches `pos` within `limits`, reporting progress through `on_info`.
    /// Returns promptly once `ctl.stop` is set. While `limits.ponder` is true it
    /// does not return before `stop` or `ponderhit` (the engine waits if needed).
    pub fn run(
        &mut self,
        pos: &mut Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        _tt: &mut TranspositionTable,
        ctl: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let start = Instant::now();
        if opts.declaration && pos.can_declare() {
            return BestMove::Win;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return BestMove::Resign;
        }
        let max_depth = limits.depth.unwrap_or(2).clamp(1, 3);
        let mut best = moves[0];
        for depth in 1..=max_depth {
            let mut best_score = i32::MIN;
            for &m in &moves {
                if ctl.stopped() {
                    break;
                }
                pos.do_move(m);
                let s = -self.negamax(pos, depth - 1);
                pos.undo_move();
                if s > best_score {
                    best_score = s;
                    best = m;
                }
            }
            on_info(&Info {
                depth,
                seldepth: depth,
                multipv: 1,
                score: Score::Cp(best_score),
                nodes: self.nodes,
                time_ms: start.elapsed().as_millis() as u64,
                hashfull: 0,
                pv: vec![best],
            });
        }
        BestMove::Move(best, None)
    }

    fn negamax(&mut self, pos: &mut Position<W>, depth: u32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return material(pos);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -30000;
        }
        let mut best = i32::MIN + 1;
        for &m in &moves {
            pos.do_move(m);
            best = best.max(-self.negamax(pos, depth - 1));
            pos.undo_move();
        }
        best
    }
}

fn material<W: BitWord>(pos: &Position<W>) -> i32 {
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
