//! Offline learning, apart from the engine's runtime: self-play training
//! data (`datagen`, `kawari datagen`), its record format (`record`), and the
//! network trainer (`train`, `kawari train`) that turns records into the
//! files `nnue` loads, and its samples written for other trainers (`export`,
//! `kawari features`); `error` says what went wrong.

pub mod datagen;
pub mod error;
pub mod export;
pub mod record;
pub mod train;
