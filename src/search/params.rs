//! Search tunables: margins, reductions and limits, as named constants.

/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 120;
/// Largest iteration depth.
pub const MAX_DEPTH: i32 = 100;

/// Score of mating now; a mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32_000;
/// Above every score.
pub const INFINITE: i32 = 32_001;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Winning by a rule other than mate inside the tree (the opponent's perpetual
/// check): large, but not a mate score.
pub const RULE_WIN: i32 = 20_000;
/// The draw score.
pub const DRAW: i32 = 0;

/// Aspiration window half-width at the start of an iteration.
pub const ASPIRATION_DELTA: i32 = 30;
/// Aspiration windows start from this depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility: prune when `eval - margin * depth >= beta` up to this depth.
pub const RFP_DEPTH: i32 = 7;
/// Reverse futility margin per ply.
pub const RFP_MARGIN: i32 = 90;

/// Null move pruning from this depth.
pub const NMP_DEPTH: i32 = 3;
/// Base null move reduction.
pub const NMP_BASE: i32 = 3;
/// Depth divisor for the extra null move reduction.
pub const NMP_DIVISOR: i32 = 4;

/// Futility pruning of quiet moves up to this (reduced) depth.
pub const FUTILITY_DEPTH: i32 = 7;
/// Futility margin base.
pub const FUTILITY_BASE: i32 = 120;
/// Futility margin per ply.
pub const FUTILITY_MARGIN: i32 = 110;

/// SEE pruning threshold per ply squared for quiet moves.
pub const SEE_QUIET: i32 = 25;
/// SEE pruning threshold per ply for captures.
pub const SEE_CAPTURE: i32 = 100;
/// SEE pruning up to this depth.
pub const SEE_DEPTH: i32 = 8;

/// Late move pruning up to this depth.
pub const LMP_DEPTH: i32 = 8;
/// Late move pruning base count.
pub const LMP_BASE: i32 = 4;

/// Late move reductions: base and divisor of the `ln(depth) * ln(moves)` term.
pub const LMR_BASE: f64 = 0.6;
/// See `LMR_BASE`.
pub const LMR_DIVISOR: f64 = 2.3;

/// Internal iterative reduction from this depth when there is no hash move.
pub const IIR_DEPTH: i32 = 4;

/// Moves ordered below this (times depth) are left unsorted.
pub const SORT_LIMIT_PER_PLY: i32 = -3000;

/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 200;

/// History values are kept within +-this.
pub const HISTORY_MAX: i32 = 16_384;

/// Nodes between looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Forced wins up to this many plies are proven at the root by full-width
/// search (`shortwin`), shortest first.
pub const SHORT_WIN_PLIES: i32 = 7;
/// The same where the variant has drops.
pub const SHORT_WIN_PLIES_WITH_DROPS: i32 = 5;
/// A short-win proof may visit at least this many positions,
pub const SHORT_WIN_MIN_NODES: u64 = 2_000;
/// or this fraction (1/n) of the nodes the tree search has spent so far; an
/// unfinished proof is tried again once that has grown fourfold.
pub const SHORT_WIN_NODE_DIVISOR: u64 = 8;
