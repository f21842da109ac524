//! The game position the engine holds, over the bit word its variant needs:
//! the one place where the engine dispatches on width.

use super::EngineError;
use crate::position::{Move, Notation, Position};
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

    /// The position of `v` written in `notation` (SFEN or FEN).
    pub fn parse(
        notation: Notation,
        v: &'static Variant,
        text: &str,
    ) -> Result<RootPosition, EngineError> {
        let err = |err| EngineError::Position {
            variant: v.name(),
            notation,
            err,
        };
        Ok(match Width::for_variant(v) {
            Width::W64 => {
                RootPosition::W64(Box::new(notation.parse_position(v, text).map_err(err)?))
            }
            Width::W128 => {
                RootPosition::W128(Box::new(notation.parse_position(v, text).map_err(err)?))
            }
        })
    }

    /// The position of `v` from `sfen`.
    pub fn from_sfen(v: &'static Variant, sfen: &str) -> Result<RootPosition, EngineError> {
        Self::parse(Notation::Usi, v, sfen)
    }

    /// The variant of the position.
    pub fn variant(&self) -> &'static Variant {
        with_root!(self, pos => pos.variant())
    }

    /// The position's text in `notation`.
    pub fn text(&self, notation: Notation) -> String {
        with_root!(self, pos => notation.position_text(pos.as_ref()))
    }

    /// Reads a move in `notation`, legal here.
    pub fn parse_move(&self, notation: Notation, text: &str) -> Result<Move, EngineError> {
        with_root!(self, pos => pos.parse_move_in(notation, text))
            .map_err(|err| EngineError::Move { index: 1, err })
    }

    /// Plays `moves`, written in `notation`. All or nothing: on error (with
    /// the 1-based index of the bad move) the position is unchanged.
    pub fn play(&mut self, notation: Notation, moves: &[String]) -> Result<(), EngineError> {
        let mut next = self.clone();
        with_root!(&mut next, pos => {
            for (i, text) in moves.iter().enumerate() {
                let m = pos
                    .parse_move_in(notation, text)
                    .map_err(|err| EngineError::Move { index: i + 1, err })?;
                pos.do_move(m);
            }
        });
        *self = next;
        Ok(())
    }
}
