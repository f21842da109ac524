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

/// How far and on how many nodes the root proves short forced wins
/// (`shortwin`): wins of up to `plies` plies, shortest first, each proof on
/// max(`min_nodes`, tree-search nodes / `divisor`) positions, retried once
/// that has grown fourfold.
#[derive(Copy, Clone, Debug)]
pub struct ShortWinBudget {
    /// Longest win proven, in plies (odd).
    pub plies: i32,
    /// Least nodes of a proof.
    pub min_nodes: u64,
    /// A proof's share of the tree search's nodes, 1/divisor.
    pub divisor: u64,
}

/// Without drops, on a full board (more than `SPARSE_PIECES` pieces): no
/// bare-king hunt is near, and the game search finds short mates by checks.
/// Deeper proofs cost Heian strength there: with 5-ply proofs the engine
/// scored -41.9 +/- 46.9 against no prover after 125 games at 2+0.02
/// (session 4's four Heian matches of 5- and 7-ply provers, 71 to 200
/// games, gave -7.4 to -26.8).
pub const SHORT_WINS_NO_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 3,
    min_nodes: 500,
    divisor: 16,
};

/// A sparse board without drops (at most `SPARSE_PIECES` pieces besides the
/// kings) is where bare-king hunts happen, and the tree search found some
/// 7-ply hunts only at depth 13 to 15, or not by depth 15. With the prover's table such a proof
/// takes up to about 30k nodes, more than a small tree search's share, hence
/// the larger minimum; the trees are narrow there.
pub const SHORT_WINS_SPARSE: ShortWinBudget = ShortWinBudget {
    plies: 7,
    min_nodes: 32_000,
    divisor: 8,
};

/// Most pieces on the board, kings aside, for `SHORT_WINS_SPARSE` (Heian
/// starts with 38, its 8-file boards with 30).
pub const SPARSE_PIECES: u32 = 14;

/// With drops the trees are wide and a proof's nodes dear (each generates
/// every move): 5-ply proofs cost the shogi search half a ply at 90 ms a
/// move, and lost Elo at 2+0.02 (commit history). 3-ply ones scored +13.9
/// +/- 48.3 and then -29.6 +/- 47.8 (200 games each, shogi, 2+0.02), not a
/// match that shows no cost, and the game search finds every shogi and yari
/// win of the test data at depth N+2 without them: only the mate in one.
pub const SHORT_WINS_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 1,
    min_nodes: 500,
    divisor: 16,
};

/// With drops on a small board (judkins' 36 squares) a position has a
/// third of shogi's moves, and 5-ply proofs are affordable. The judkins
/// network's search found a 5-ply drop mate only at depth 10 without them.
pub const SHORT_WINS_SMALL_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 5,
    min_nodes: 500,
    divisor: 16,
};

/// Boards of at most this many squares count as small for
/// `SHORT_WINS_SMALL_DROPS`.
pub const SMALL_BOARD_SQUARES: usize = 36;
