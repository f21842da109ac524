//! Choosing the bit word for a variant: the one place that dispatches on width.

use crate::variant::Variant;

/// The bitboard width a variant runs on.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Width {
    /// `u64`: boards of at most 64 squares.
    W64,
    /// `u128`: boards of up to 128 squares.
    W128,
}

impl Width {
    /// The narrowest width that holds the variant's board.
    pub fn for_variant(v: &Variant) -> Width {
        if v.geometry().squares() <= 64 {
            Width::W64
        } else {
            Width::W128
        }
    }

    /// Parses `64` or `128`.
    pub fn parse(s: &str) -> Option<Width> {
        match s {
            "64" => Some(Width::W64),
            "128" => Some(Width::W128),
            _ => None,
        }
    }
}

/// Runs `$body` with the type alias `$W` bound to the bit word for `$width`.
#[macro_export]
macro_rules! with_width {
    ($width:expr, $W:ident => $body:expr) => {
        match $width {
            $crate::width::Width::W64 => {
                type $W = u64;
                $body
            }
            $crate::width::Width::W128 => {
                type $W = u128;
                $body
            }
        }
    };
}
