//! Board primitives shared by every variant: the bit word, bitboards, squares,
//! colours and directions, and a random generator with a fixed stream. Nothing outside this module touches raw bit integers.

mod bitboard;
mod bitword;
mod color;
mod direction;
mod rng;
mod square;
pub mod zeroed;

pub use bitboard::{Bitboard, Squares};
pub use bitword::BitWord;
pub use color::Color;
pub use direction::Direction;
pub use rng::Rng;
pub use square::{Geometry, Square, MAX_SQUARES};
pub use zeroed::{AllocError, ZeroValid, ZeroedArray};
