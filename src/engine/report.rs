//! What the engine says, as typed values: the protocol layer turns them into
//! text in its own notation.

use crate::mate::{MateAnswer, MateProgress};
use crate::position::Move;
pub use crate::search::Decision;
use crate::search::Info;
use crate::variant::Variant;
use std::sync::Arc;

/// What the engine reports, in order, through its sink. Reports that carry
/// moves carry the variant they are moves of (a variant change made during a
/// search applies after it).
#[derive(Clone, Debug)]
pub enum Report {
    /// Search progress.
    Info {
        /// The search's report.
        info: Info,
        /// The variant of `info.pv`.
        variant: &'static Variant,
    },
    /// The one answer to a search `go`.
    BestMove {
        /// What to play.
        decision: Decision,
        /// The variant of its moves.
        variant: &'static Variant,
    },
    /// One root move of `go perft` and its count.
    PerftMove {
        /// The move.
        mv: Move,
        /// Leaf count below it.
        nodes: u64,
        /// The variant of `mv`.
        variant: &'static Variant,
    },
    /// The total of `go perft`.
    PerftTotal(u64),
    /// Progress of `go mate`.
    MateProgress(MateProgress),
    /// The one answer to `go mate`.
    Checkmate {
        /// Mate line, no mate, or timeout.
        answer: MateAnswer,
        /// The variant of the line's moves.
        variant: &'static Variant,
    },
    /// A line of `bench` output.
    Bench(String),
    /// A remark for the user.
    Message(String),
    /// Something went wrong inside the engine (a panicking thread, a failed
    /// allocation noticed late).
    Error(String),
}

/// The static evaluation of a position, term by term (`eval` command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalBreakdown {
    /// Each hand-made term: its name, Black's and White's sums (centipawns).
    pub terms: Vec<(&'static str, i32, i32)>,
    /// The hand-made evaluation, side to move's view.
    pub hand_made: i32,
    /// The network in use, if any.
    pub network: Option<NetworkEval>,
    /// The bare-king hunt's share (added to a network's score).
    pub hunt: i32,
    /// The evaluation the search uses, side to move's view.
    pub total: i32,
}

/// A network's view of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkEval {
    /// The variant it was trained for.
    pub variant: String,
    /// Its feature set's name.
    pub features: &'static str,
    /// Its inputs per perspective.
    pub inputs: usize,
    /// Its hidden units per perspective.
    pub hidden: usize,
    /// Its score, side to move's view.
    pub score: i32,
}

/// Where reports go; called from the engine's threads.
pub type Sink = Arc<dyn Fn(Report) + Send + Sync>;
