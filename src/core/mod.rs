//! Board primitives shared by every variant: the bit word, bitboards, squares,
//! colours and directions. Nothing outside this module touches raw bit integers.

mod bitboard;
mod bitword;
mod color;
mod direction;
mod square;
pub mod zeroed;

pub use bitboard::{Bitboard, Squares};
pub use bitword::BitWord;
pub use color::Color;
pub use direction::Direction;
pub use square::{Geometry, Square, MAX_SQUARES};
pub use zeroed::{AllocError, ZeroValid, ZeroedArray};
