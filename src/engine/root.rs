//! The game position the engine holds, over the bit word its variant needs:
//! the one place where the engine dispatches on width.

use crate::position::Position;
use crate::variant::Variant;
use crate::width::Width;

/// The engine's position, over `u64` or `u128` bitboards.
#[derive(Clone)]
pub enum RootPosition {
    /// Boards of at most 64 squares.
    W64(Box<Position<u64>>),
    /// Larger boards.
    W128(Box<Position<u128>>),
}

/// Runs `$body` with `$pos` bound to the position inside `$root`, whatever
/// its width.
#[macro_export]
macro_rules! with_root {
    ($root:expr, $pos:ident => $body:expr) => {
        match $root {
            $crate::engine::RootPosition::W64($pos) => $body,
            $crate::engine::RootPosition::W128($pos) => $body,
        }
    };
}

impl RootPosition {
    /// The start position of `v`.
    pub fn startpos(v: &'static Variant) -> RootPosition {
        match Width::for_variant(v) {
            Width::W64 => RootPosition::W64(Box::new(Position::startpos(v))),
            Width::W128 => RootPosition::W128(Box::new(Position::startpos(v))),
        }
    }
}
