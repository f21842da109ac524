//! Offline learning, apart from the engine's runtime: self-play training
//! data (`datagen`, `kawari datagen`), its record format (`record`), and the
//! network trainer (`train`, `kawari train`) that turns records into the
//! files `nnue` loads, the samples it reads them into (`samples`), written
//! for other trainers too (`export`, `kawari features`); `error` says what
//! went wrong.

pub mod datagen;
pub mod error;
pub mod export;
pub mod record;
mod samples;
pub mod train;
