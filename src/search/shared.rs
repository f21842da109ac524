//! What the threads of one search share, and what they hand back: the shared
//! state (`Shared`), per-thread node counters, a root move's line and a
//! thread's result. Its own file so that the worker, the driver and the
//! thread orchestration can all see these without seeing each other.

use super::{Limits, SearchOptions, Signals, TranspositionTable};
use crate::position::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) prev_score: i32,
    pub(super) seldepth: usize,
    pub(super) pv: Vec<Move>,
}

/// One node counter per thread, each on its own cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Counter(AtomicU64);

/// Nodes searched per thread, readable by the main thread while they run.
#[derive(Debug)]
pub struct NodeCounters(Box<[Counter]>);

impl NodeCounters {
    /// Counters for `threads` threads, at zero.
    pub fn new(threads: usize) -> NodeCounters {
        NodeCounters((0..threads.max(1)).map(|_| Counter::default()).collect())
    }

    /// Publishes thread `i`'s count.
    #[inline]
    pub fn set(&self, i: usize, nodes: u64) {
        self.0[i].0.store(nodes, Ordering::Relaxed);
    }

    /// The sum over all threads.
    pub fn total(&self) -> u64 {
        self.0.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The hash table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponderhit.
    pub signals: &'a Signals,
    /// What `go` asked for.
    pub limits: &'a Limits,
    /// Options of the search.
    pub opts: &'a SearchOptions,
    /// Nodes per thread.
    pub nodes: &'a NodeCounters,
}

/// What one thread found: its deepest finished iteration's best line.
#[derive(Clone, Debug, Default)]
pub struct ThreadResult {
    /// The last finished iteration (0: none finished).
    pub depth: i32,
    /// The best line's score (internal units).
    pub score: i32,
    /// Deepest ply of that line's search.
    pub seldepth: u32,
    /// The best line; its first move is the thread's choice.
    pub pv: Vec<Move>,
}
