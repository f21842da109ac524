//! The tree search's tunables: depth limits, margins, reductions and move
//! ordering, as named constants (SPSA's `Tunable`s among them). Constants
//! with another owner live beside it: scores with `Score` (`score`), levels
//! with `skill`, the clock with `time`, the main thread's decisions with
//! `driver`, the root's short-win proofs with `shortwin`.

/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 120;
/// Largest iteration depth.
pub const MAX_DEPTH: i32 = 100;

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
