//! Search tunables: margins, reductions and limits, time management and the
//! main thread's decisions, as named constants.

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

/// Checks are extended while the ply is below `CHECK_EXTENSION_PLY_FACTOR *
/// root depth + CHECK_EXTENSION_PLY_SLACK`, so perpetual checks cannot
/// extend the line without end.
pub const CHECK_EXTENSION_PLY_FACTOR: usize = 2;
/// See `CHECK_EXTENSION_PLY_FACTOR`.
pub const CHECK_EXTENSION_PLY_SLACK: usize = 8;

/// Null moves only with at least this many pieces on the board (or some in
/// hand): fewer, and zugzwang is likely.
pub const NMP_MIN_PIECES: u32 = 4;

/// Depths and move counts of the reduction table (larger ones use its last
/// row and column).
pub const LMR_TABLE: usize = 64;

/// A search constant that SPSA may tune. In the normal build it is a
/// constant and `get` folds to its value; with the cargo feature `tune` it is
/// a runtime value that `setoption name <NAME> value <n>` sets (the option
/// name is the constant's), within `min..=max`.
#[cfg(not(feature = "tune"))]
#[derive(Copy, Clone, Debug)]
pub struct Tunable(i32);

#[cfg(not(feature = "tune"))]
impl Tunable {
    /// The value.
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.0
    }
}

/// A search constant that SPSA may tune: with the feature `tune`, a runtime
/// value that `setoption name <NAME> value <n>` sets (the option name is the
/// constant's), within `min..=max`. Values change between searches only
/// (derived tables are rebuilt when a search starts).
#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Tunable {
    /// The constant's name, also the option's.
    pub name: &'static str,
    /// The value in the source.
    pub default: i32,
    /// Least value accepted.
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
    value: std::sync::atomic::AtomicI32,
}

#[cfg(feature = "tune")]
impl Tunable {
    const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            value: std::sync::atomic::AtomicI32::new(default),
        }
    }

    /// The value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Sets the value, kept within `min..=max`.
    pub fn set(&self, v: i32) {
        self.value.store(
            v.clamp(self.min, self.max),
            std::sync::atomic::Ordering::Relaxed,
        );
    }

    /// The tunable named `name` (ignoring case), if any.
    pub fn by_name(name: &str) -> Option<&'static Tunable> {
        TUNABLES
            .iter()
            .copied()
            .find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// Declares the tunables: each is written as a plain `pub const NAME: i32 =
/// value;` line (so SPSA's output pastes over it) under its doc and a
/// `#[tune(min, max)]` range. Without the feature it is a constant `Tunable`;
/// with it, a static listed in `TUNABLES`.
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        #[tune($min:expr, $max:expr)]
        pub const $name:ident: i32 = $value:expr;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Tunable = Tunable($value);
            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            pub static $name: Tunable = Tunable::new(stringify!($name), $value, $min, $max);
            const _: () = assert!(0 < $min && $min <= $value && $value <= $max);
        )*
        /// Every tunable, in declaration order (the tune options).
        #[cfg(feature = "tune")]
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}

// Ranges: about half to twice the value, and never 0 (some are divisors).
tunables! {
    /// Aspiration window half-width at the start of an iteration.
    #[tune(15, 60)]
    pub const ASPIRATION_DELTA: i32 = 30;
    /// Aspiration windows start from this depth.
    #[tune(2, 10)]
    pub const ASPIRATION_MIN_DEPTH: i32 = 5;
    /// A failed window grows by `delta / ASPIRATION_GROWTH_DIVISOR +
    /// ASPIRATION_GROWTH_STEP`.
    #[tune(1, 4)]
    pub const ASPIRATION_GROWTH_DIVISOR: i32 = 2;
    /// See `ASPIRATION_GROWTH_DIVISOR`.
    #[tune(2, 10)]
    pub const ASPIRATION_GROWTH_STEP: i32 = 5;
    /// Beyond this half-width the window opens fully.
    #[tune(750, 3000)]
    pub const ASPIRATION_MAX_DELTA: i32 = 1500;

    /// Reverse futility: prune when `eval - margin * depth >= beta` up to this depth.
    #[tune(3, 14)]
    pub const RFP_DEPTH: i32 = 7;
    /// Reverse futility margin per ply.
    #[tune(45, 180)]
    pub const RFP_MARGIN: i32 = 90;

    /// Null move pruning from this depth.
    #[tune(1, 6)]
    pub const NMP_DEPTH: i32 = 3;
    /// Base null move reduction.
    #[tune(1, 6)]
    pub const NMP_BASE: i32 = 3;
    /// Depth divisor for the extra null move reduction.
    #[tune(2, 8)]
    pub const NMP_DIVISOR: i32 = 4;
    /// Each this much of eval above beta reduces the null move one ply more...
    #[tune(100, 400)]
    pub const NMP_EVAL_DIVISOR: i32 = 200;
    /// ...up to this many plies.
    #[tune(1, 6)]
    pub const NMP_EVAL_MAX: i32 = 3;

    /// Futility pruning of quiet moves up to this (reduced) depth.
    #[tune(3, 14)]
    pub const FUTILITY_DEPTH: i32 = 7;
    /// Futility margin base.
    #[tune(60, 240)]
    pub const FUTILITY_BASE: i32 = 120;
    /// Futility margin per ply.
    #[tune(55, 220)]
    pub const FUTILITY_MARGIN: i32 = 110;

    /// SEE pruning threshold per ply squared for quiet moves.
    #[tune(12, 50)]
    pub const SEE_QUIET: i32 = 25;
    /// SEE pruning threshold per ply for captures.
    #[tune(50, 200)]
    pub const SEE_CAPTURE: i32 = 100;
    /// SEE pruning up to this depth.
    #[tune(4, 16)]
    pub const SEE_DEPTH: i32 = 8;

    /// Late move pruning up to this depth.
    #[tune(4, 16)]
    pub const LMP_DEPTH: i32 = 8;
    /// Late move pruning base count.
    #[tune(2, 8)]
    pub const LMP_BASE: i32 = 4;

    /// Late move reductions: base of the `ln(depth) * ln(moves)` term, in
    /// hundredths (0.60).
    #[tune(30, 120)]
    pub const LMR_BASE_X100: i32 = 60;
    /// The divisor of that term, in hundredths (2.30).
    #[tune(115, 460)]
    pub const LMR_DIVISOR_X100: i32 = 230;
    /// Late move reductions from this depth.
    #[tune(2, 6)]
    pub const LMR_DEPTH: i32 = 3;
    /// A quiet move's reduction shrinks by one ply per this much history.
    #[tune(3000, 12000)]
    pub const LMR_HISTORY_DIVISOR: i32 = 6000;

    /// Internal iterative reduction from this depth when there is no hash move.
    #[tune(2, 8)]
    pub const IIR_DEPTH: i32 = 4;

    /// Quiescence delta pruning margin.
    #[tune(100, 400)]
    pub const DELTA_MARGIN: i32 = 200;
}

/// Quiet moves remembered per node for the history malus.
pub const MAX_QUIETS: usize = 64;

/// Moves ordered below this (times depth) are left unsorted.
pub const SORT_LIMIT_PER_PLY: i32 = -3000;
/// A capture's ordering score is its material gain times this...
pub const GAIN_ORDER_SCALE: i32 = 8;
/// ...less the mover's exchange value over this (cheaper attackers first).
pub const MOVER_ORDER_DIVISOR: i32 = 64;

/// History values are kept within +-this.
pub const HISTORY_MAX: i32 = 16_384;

/// Nodes between looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

// Playing weaker (`skill`), as Fairy-Stockfish: its levels, lines and fit.

/// Full strength; lower levels are weaker.
pub const SKILL_MAX_LEVEL: i32 = 20;
/// The weakest level.
pub const SKILL_MIN_LEVEL: i32 = -20;
/// Lines searched to choose from at a lower level.
pub const SKILL_LINES: usize = 4;
/// Below level 0 every level down searches this many more lines to choose
/// from (a deviation from Fairy-Stockfish, whose negative levels differ only
/// by a weakness of 2/128 a level: 40 games a step in Judkins could not tell
/// levels −20 to −12 apart, 152-168 over the eight steps).
pub const SKILL_LINES_PER_WEAK_LEVEL: usize = 2;
/// Weakness at level 0; each level above takes `SKILL_WEAKNESS_PER_LEVEL` off
/// up to `SKILL_TOP_LEVELS_FROM` (a top level's weakened moves are its).
pub const SKILL_WEAKNESS_BASE: i32 = 120;
/// See `SKILL_WEAKNESS_BASE`.
pub const SKILL_WEAKNESS_PER_LEVEL: i32 = 2;
/// The random push is at most the lines' spread, capped at this (a pawn)...
pub const SKILL_SPREAD_CAP: i32 = 100;
/// ...plus this for each level below 0.
pub const SKILL_SPREAD_PER_WEAK_LEVEL: i32 = 40;
/// A weakened pick never takes a line more than `SKILL_LOSS_BASE +
/// SKILL_LOSS_PER_LEVEL * (20 - level)` centipawns below the best, plus
/// `SKILL_LOSS_PER_WEAK_LEVEL` a level below 0 (a deviation from
/// Fairy-Stockfish, whose low levels may drop a piece for nothing).
pub const SKILL_LOSS_BASE: i32 = 300;
/// See `SKILL_LOSS_BASE`.
pub const SKILL_LOSS_PER_LEVEL: i32 = 10;
/// Below level 0 the margin grows by this much more a level.
pub const SKILL_LOSS_PER_WEAK_LEVEL: i32 = 30;
/// From this level up a level plays one more eleventh of its moves at full
/// strength (`skill`'s `full_strength_share`) and the others as this level
/// (a deviation from Fairy-Stockfish, whose levels pick at depth 1 + level:
/// at a fast clock that depth is out of reach for the top levels, which then
/// differ by 2/128 of weakness only). Below it the level alone decides, as
/// in the calibrated rows.
pub const SKILL_TOP_LEVELS_FROM: i32 = 10;
/// Pushes are `(weakness * distance + spread * random) / this`.
pub const SKILL_PUSH_DIVISOR: i32 = 128;
/// Lowest `UCI_Elo`.
pub const ELO_MIN: u32 = 500;
/// Highest `UCI_Elo`.
pub const ELO_MAX: u32 = 2850;
/// `UCI_Elo`'s default (Fairy-Stockfish's).
pub const ELO_DEFAULT: u32 = 1350;
/// The Elo of level 0 in Fairy-Stockfish's fit `((elo - anchor) / per
/// level) ^ (1 / exponent)`.
pub const ELO_ANCHOR: f64 = 1346.6;
/// See `ELO_ANCHOR`.
pub const ELO_PER_LEVEL: f64 = 143.4;
/// See `ELO_ANCHOR`.
pub const ELO_LEVEL_EXPONENT: f64 = 0.806;
/// The `UCI_Elo`s at which Kawari's levels are measured against
/// Fairy-Stockfish at the same setting, in each variant of
/// `SKILL_CALIBRATION`.
pub const ELO_CALIBRATION_POINTS: [u32; 4] = [1000, 1500, 2000, 2500];
/// Per variant, the level at which Kawari scores about 50% against
/// Fairy-Stockfish at each of `ELO_CALIBRATION_POINTS` (measured:
/// docs/levels.md). Kawari's search sees more at the same depth, so the same
/// level is stronger than Fairy-Stockfish's. A variant without a row (each
/// Heian board needs its own; all have one now) uses Fairy-Stockfish's
/// levels.
pub const SKILL_CALIBRATION: [(&str, [f64; 4]); 7] = [
    // A first pass at 2+0.02, 24 games a point (±150-190 Elo): levels -8,
    // -4 / -2 / 1.1, 1 / 5 and 8 against 1000, 1500, 2000 and 2500.
    // 100-game checks: 1000 58%, 2000 48%; 1500 at -1.0 scored 37.5% (-89),
    // and the first pass had 1.1 at +276, so -0.5 (interpolated); 2500 at 7.0
    // and at 6.1 both scored 62% (+85); at 5.2 53%.
    // With the wider choice below level 0: 1000 at -5, -3, -4 scored 10-20,
    // 18-12, 18-12 (-4.4), then 45% over 100 games; 1500 at -0.5 scored
    // 32-62 (34.0%) in 94 games, so -0.3 (level 0 is unchanged), then 46%.
    ("shogi", [-4.4, -0.3, 4.3, 5.2]),
    // scripts/calibrate.py at 2+0.02, 30 games a match (±130-170 Elo), 2-3
    // levels a point. 100-game checks: 2000 43% and 2500 48% as measured.
    // With the wider choice below level 0: 1000 at -12, -11, -9 scored 43%,
    // 33%, 43% (moved by the slope to -8.2); 1500 at -3, -2, -1 47%, 40%,
    // 60% (-1.5).
    ("judkins", [-8.2, -1.5, 3.2, 8.0]),
    // The same way: every point bracketed or scored exactly 50%. With the
    // wider choice below level 0: 1000 at -4, 1, -2 scored 5-25, 28-2, 8-22
    // (secant: -1.1); 1500 at -1.0 scored 25% over 100 games, so 0.0 (level
    // 0 is as it was; the old -1.0 scored 45%).
    ("yarishogi", [-1.1, 0.0, 4.5, 6.3]),
    // 24 games a match, at most 2 a point: 1000 and 1500 not bracketed (Kawari
    // lost at every level tried: -8, -4; -1, 0), extrapolated at 60 Elo a level.
    // 100-game checks: 59%, 50.5%, 43% at the first three; 2500 at 7.0 scored
    // 37.5% (-89), so 8.0 (about 100 Elo a level there). With the wider
    // choice below level 0, 1000 at -1.1 scored 16-39-11 (32.6%) in 66
    // games, so -0.45.
    ("heian", [-0.45, 1.0, 4.4, 8.0]),
    // scripts/calibrate.py at 2+0.02, from Heian's row, 24 games a match:
    // 2000 at 3 / 4 and 2500 at 7 / 8 bracketed. 1000 and 1500 again with
    // 30 games a match: 1000 at -1 / -2 (+23, -176), 1500 at 1 / 0 / -1
    // (+70, +12, -260). A first 1000 at -2.2 (0 / -5 interpolated) scored
    // 15.5% over 100 games: Elo is far from linear in the level there.
    // 100-game checks of [-1.1, 0.0, 3.6, 7.8]: 50.5%, 61.5%, 46.5%, 53.0%;
    // 1500 moved to -0.3 (81 Elo at about 270 a level), then 47.5%.
    ("heian8x8", [-1.1, -0.3, 3.6, 7.8]),
    // The same way, 24 games a match from -1 / 0 / 4 / 8: 2500 not
    // bracketed (7 and 8 both +29), moved by the slope to 6.5. 100-game
    // checks of [-0.6, 0.0, 4.2, 6.5]: 57.5%, 40.5%, 54.5%, 64.0%; 2500
    // moved to 5.8 (about 250 Elo a level there), then 44.5%.
    ("heian9x8", [-0.6, 0.0, 4.2, 5.8]),
    // The same way from -1 / 0 / 4 / 6, every point bracketed. 100-game
    // checks: 55.0%, 46.0%, 50.0%, 59.0%.
    ("heian8x9", [-0.4, 0.6, 4.7, 8.0]),
];
/// Below the anchor Fairy-Stockfish's fit is `shifted / per level +
/// (shifted / this) ^ 5`, `shifted` = elo − anchor (negative).
pub const ELO_LOW_SCALE: f64 = 500.0;

// The main thread's decisions between iterations (`driver`).

/// The count of best-move changes decays by this factor each iteration.
pub const BEST_CHANGE_DECAY: f64 = 0.5;
/// Time scale with a settled best move...
pub const INSTABILITY_BASE: f64 = 0.7;
/// ...plus this per (decayed) best-move change.
pub const INSTABILITY_PER_CHANGE: f64 = 1.2;
/// Iterations whose best scores are compared for a falling score (this one
/// against the mean of the ones before).
pub const FALLING_SCORE_WINDOW: usize = 3;
/// The score change counted, in centipawns: a rise down to this...
pub const FALLING_SCORE_MIN: i32 = -100;
/// ...a fall up to this.
pub const FALLING_SCORE_MAX: i32 = 300;
/// Time scale from a falling score: `1 + fall / FALLING_SCORE_DIVISOR`...
pub const FALLING_SCORE_DIVISOR: f64 = 400.0;
/// ...kept at least this...
pub const FALLING_FACTOR_MIN: f64 = 0.8;
/// ...and at most this.
pub const FALLING_FACTOR_MAX: f64 = 1.75;
/// A proven mate in `n` plies ends the search once the depth passes `2n`
/// plus this.
pub const MATE_STOP_SLACK: i32 = 4;
/// A thread's vote for its move weighs its score above the worst thread's
/// plus this, times its depth.
pub const VOTE_MARGIN: i32 = 14;

// Time management (`time`). Shares of a budget are in permille.

/// Milliseconds every budget keeps back besides `move_overhead`: the time from
/// the stop decision to the `bestmove` line (unwinding, joining threads,
/// printing) and a scheduling delay of a busy machine, so that
/// `NetworkDelay 0` still never overruns (10 ms was overrun once in a full
/// test run on two busy cores).
pub const MARGIN_MS: u64 = 20;
/// A clock below this many milliseconds spends less than the increment.
pub const LOW_CLOCK_MS: u64 = 2_000;
/// Expected moves of ours still to play at the start of a game...
pub const MOVES_TO_GO: u64 = 50;
/// ...one fewer every this many plies played...
pub const MOVES_TO_GO_PLY_DIVISOR: u64 = 4;
/// ...and never fewer than this.
pub const MIN_MOVES_TO_GO: u64 = 20;
/// Sudden death keeps back `MARGIN_MS` for each of `moves to go + this` moves.
pub const SUDDEN_DEATH_EXTRA_MOVES: u64 = 2;
/// Sudden death and Fischer: the hard limit's share of the usable clock.
pub const HARD_LIMIT_PERMILLE: u64 = 800;
/// Share of the increment spent per move (with a clock of at least
/// `LOW_CLOCK_MS`).
pub const INC_SPEND_PERMILLE: u64 = 750;
/// With at most this many moves to the time control, the target may take...
pub const LAST_MOVES_TO_GO: u64 = 2;
/// ...this share of the hard limit...
pub const LAST_MOVES_CAP_PERMILLE: u64 = 750;
/// ...and otherwise this share.
pub const USUAL_CAP_PERMILLE: u64 = 500;
/// The hard limit is at most this many times the target.
pub const MAX_OVER_OPTIMUM: u64 = 5;
/// Byoyomi: the hard limit takes at most the clock over this, besides the
/// period.
pub const BYOYOMI_MAX_CLOCK_DIVISOR: u64 = 4;
/// Byoyomi: the soft stop never comes before this share of the period.
pub const BYOYOMI_FLOOR_PERMILLE: u64 = 950;
/// No iteration starts after this share of the soft time: the next one
/// takes a few times longer than the last, and could not finish.
pub const ITERATION_START_SHARE: f64 = 0.6;

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
/// bare-king hunt is near, and the game search finds short mates by checks;
/// deeper proofs lost Heian strength in matches.
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
/// every move), deeper proofs showed no gain in matches, and the game search
/// finds every shogi and yari win of the test data at depth N+2 without
/// them: only the mate in one.
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
