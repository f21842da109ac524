//! Search: a thread's state and iterative deepening (`Worker`), the tree
//! search (`alphabeta`) and its move picker, the main thread's clock and
//! reports (`Driver`), the shared hash table, and `Search`, one thread's whole
//! search for callers that want no threads of their own. The engine's pool runs
//! the same pieces on many threads (Lazy SMP).

mod alphabeta;
mod driver;
pub mod history;
mod limits;
pub mod params;
mod picker;
pub mod see;
mod shortwin;
mod signals;
pub mod time;
mod tt;
mod worker;

pub use driver::{choose, ponder_move, Driver};
pub use limits::Limits;
pub use picker::generate_captures;
pub use signals::{Ponderhit, Signals};
pub use tt::{AllocError, Bound, TranspositionTable, TtHit};
pub use worker::{NodeCounters, Shared, ThreadResult, Worker};

use crate::core::BitWord;
use crate::nnue::EvalChoice;
use crate::position::{Move, Position};
use params::*;

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
    /// The evaluation: the variant's network or the hand-made one.
    pub eval: EvalChoice,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            max_moves_to_draw: 0,
            declaration: true,
            move_overhead: 50,
            eval: EvalChoice::Default,
        }
    }
}

/// What a search decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play `mv`, expecting `ponder`.
    Move {
        /// The move, legal in the searched position.
        mv: Move,
        /// The expected reply, if any.
        ponder: Option<Move>,
    },
    /// No legal move.
    Resign,
    /// The entering-king declaration holds.
    Win,
}

/// The decision that needs no search: the declaration holds, or there is no
/// legal move.
pub fn decided_without_search<W: BitWord>(
    pos: &Position<W>,
    opts: &SearchOptions,
) -> Option<Decision> {
    if opts.declaration && pos.can_declare() {
        Some(Decision::Win)
    } else if !pos.has_legal_move() {
        Some(Decision::Resign)
    } else {
        None
    }
}

/// A score as USI reports it.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

/// One thread's whole search, for callers without a thread pool (tests,
/// tools): the main thread's work of the engine's search job, alone.
#[derive(Default)]
pub struct Search {
    worker: Worker,
}

impl Search {
    /// A fresh searcher.
    pub fn new() -> Search {
        Search {
            worker: Worker::new(),
        }
    }

    /// Checks every incremental network evaluation against one computed
    /// from scratch, and panics on a difference (slow; for tests).
    pub fn verify_evaluation(&mut self, on: bool) {
        self.worker.verify_evaluation = on;
    }

    /// Forgets learned heuristics.
    pub fn clear(&mut self) {
        self.worker.clear();
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.worker.nodes()
    }

    /// Searches `pos` within `limits`, reporting each finished iteration
    /// through `on_info`. `signals` are left stopped when a limit ends the
    /// search: give each search fresh ones. Returns promptly once `signals` stop it; while
    /// pondering or in `go infinite` it holds its answer until `stop` or
    /// `ponderhit`.
    pub fn run<W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        tt: &TranspositionTable,
        signals: &Signals,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision {
        if let Some(d) = decided_without_search(pos, opts) {
            return d;
        }
        tt.new_search();
        let nodes = NodeCounters::new(1);
        let shared = Shared {
            tt,
            signals,
            limits,
            opts,
            nodes: &nodes,
        };
        let mut driver = Driver::new(pos, limits, opts, on_info);
        let result = self.worker.iterate(pos, &shared, 0, Some(&mut driver));
        signals.hold(limits.infinite);
        let ponder = ponder_move(pos, tt, &result);
        Decision::Move {
            mv: result.pv[0],
            ponder,
        }
    }
}
