//! Helpers shared by the integration tests: reference data and width dispatch.
#![allow(dead_code)]

use kawari::core::BitWord;
use kawari::position::Position;
use kawari::variant::Variant;

/// The seven variants, in the order the reference data lists them.
pub const VARIANTS: &[&str] = &[
    "shogi",
    "judkins",
    "yarishogi",
    "heian",
    "heian9x8",
    "heian8x9",
    "heian8x8",
];

/// Path of a file under `engine-tests/data`.
pub fn data_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join("data")
        .join(name)
}

/// Rows of a reference TSV (header skipped), split on tabs.
pub fn rows(name: &str) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(data_path(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Parses an SFEN for a variant, panicking with the SFEN on error.
pub fn position<W: BitWord>(v: &'static Variant, sfen: &str) -> Position<W> {
    Position::<W>::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Path of the built `kawari` binary.
pub fn kawari_bin() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_kawari"))
}
