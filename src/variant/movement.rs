//! Piece movement as data: leaps and slides relative to the piece's owner.

/// A step relative to the owner: `(right, forward)`. Forward points towards the
/// opponent; right is the owner's right hand (file 1 for Black).
pub type Offset = (i8, i8);

/// One step forward.
pub const F: Offset = (0, 1);
/// One step backward.
pub const B: Offset = (0, -1);
/// One step to the owner's left.
pub const L: Offset = (-1, 0);
/// One step to the owner's right.
pub const R: Offset = (1, 0);
/// Diagonally forward-left.
pub const FL: Offset = (-1, 1);
/// Diagonally forward-right.
pub const FR: Offset = (1, 1);
/// Diagonally backward-left.
pub const BL: Offset = (-1, -1);
/// Diagonally backward-right.
pub const BR: Offset = (1, -1);

/// The four orthogonal directions.
pub const ORTHOGONAL: &[Offset] = &[F, B, L, R];
/// The four diagonal directions.
pub const DIAGONAL: &[Offset] = &[FL, FR, BL, BR];
/// All eight neighbours.
pub const ALL_AROUND: &[Offset] = &[F, B, L, R, FL, FR, BL, BR];
/// The shogi gold general's steps.
pub const GOLD_STEPS: &[Offset] = &[F, FL, FR, L, R, B];
/// The shogi silver general's steps.
pub const SILVER_STEPS: &[Offset] = &[F, FL, FR, BL, BR];
/// The shogi knight's two forward jumps.
pub const KNIGHT_JUMPS: &[Offset] = &[(-1, 2), (1, 2)];

/// How a piece moves: squares it leaps to (never blocked) and directions it
/// slides along until blocked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Leaps (one-square steps and jumps alike), relative to the owner.
    pub leaps: &'static [Offset],
    /// Unit directions of unlimited slides, relative to the owner.
    pub slides: &'static [Offset],
}

impl Movement {
    /// Leaps only.
    pub const fn leaper(leaps: &'static [Offset]) -> Movement {
        Movement { leaps, slides: &[] }
    }

    /// Slides only.
    pub const fn slider(slides: &'static [Offset]) -> Movement {
        Movement { leaps: &[], slides }
    }

    /// Both leaps and slides.
    pub const fn new(leaps: &'static [Offset], slides: &'static [Offset]) -> Movement {
        Movement { leaps, slides }
    }
}

/// King, the royal piece.
pub const KING: Movement = Movement::leaper(ALL_AROUND);
/// Shogi gold, and what +S +N +L +P move as.
pub const GOLD: Movement = Movement::leaper(GOLD_STEPS);
