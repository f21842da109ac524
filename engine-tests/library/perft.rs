//! Perft against the Fairy-Stockfish reference data in `engine-tests/data`
//! (see its PROVENANCE.md), for all seven variants.

use crate::common::{position, rows, VARIANTS};
use kawari::core::BitWord;
use kawari::perft::{divide, perft};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::collections::BTreeMap;

/// Start-position perft up to `max_depth` for one variant.
fn start_positions(variant: &str, max_depth: u32) {
    let v = Variant::by_name(variant).unwrap();
    for row in rows(&format!("{variant}.tsv")).iter().take(6) {
        let depth: u32 = row[1].parse().unwrap();
        if depth > max_depth {
            continue;
        }
        let expected: u64 = row[2].parse().unwrap();
        let got =
            with_width!(Width::for_variant(v), W => perft(&mut position::<W>(v, &row[0]), depth));
        assert_eq!(got, expected, "{variant} start perft({depth})");
    }
}

fn reference_positions<W: BitWord>(variant: &str) {
    let v = Variant::by_name(variant).unwrap();
    let all = rows(&format!("{variant}.tsv"));
    assert_eq!(
        all.len(),
        306,
        "{variant}: 6 start rows + 100 positions x 3 depths"
    );
    let mut checked = 0;
    for row in &all[6..] {
        let depth: u32 = row[1].parse().unwrap();
        let expected: u64 = row[2].parse().unwrap();
        let mut pos = position::<W>(v, &row[0]);
        assert_eq!(pos.to_sfen(), row[0], "{variant}: SFEN round trip");
        assert_eq!(
            perft(&mut pos, depth),
            expected,
            "{variant} perft({depth}) of {}",
            row[0]
        );
        checked += 1;
    }
    assert_eq!(checked, 300);
}

fn kingless_positions<W: BitWord>(variant: &str) {
    let v = Variant::by_name(variant).unwrap();
    let all = rows(&format!("{variant}-kingless.tsv"));
    assert_eq!(all.len(), 18, "{variant}: 6 positions x 3 depths");
    for row in &all {
        let depth: u32 = row[1].parse().unwrap();
        let expected: u64 = row[2].parse().unwrap();
        let mut pos = position::<W>(v, &row[0]);
        assert_eq!(pos.to_sfen(), row[0], "{variant}: SFEN round trip");
        let kingless = kawari::core::Color::ALL
            .iter()
            .filter(|&&c| !pos.has_king(c))
            .count();
        assert_eq!(
            kingless, 1,
            "{variant}: {} has one side without a king",
            row[0]
        );
        assert_eq!(
            perft(&mut pos, depth),
            expected,
            "{variant} perft({depth}) of {}",
            row[0]
        );
    }
}

fn divides<W: BitWord>(variant: &str) {
    let v = Variant::by_name(variant).unwrap();
    let mut by_sfen: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for row in rows(&format!("{variant}-divide.tsv")) {
        by_sfen
            .entry(row[0].clone())
            .or_default()
            .insert(row[1].clone(), row[2].parse().unwrap());
    }
    assert_eq!(by_sfen.len(), 10, "{variant}: 10 divide positions");
    for (sfen, expected) in by_sfen {
        let mut pos = position::<W>(v, &sfen);
        let got: BTreeMap<String, u64> = divide(&mut pos, 2)
            .into_iter()
            .map(|(m, n)| (m.to_usi(v), n))
            .collect();
        assert_eq!(got, expected, "{variant} divide of {sfen}");
    }
}

macro_rules! variant_tests {
    ($($name:ident: $v:literal, $start_depth:literal;)*) => {
        mod reference {
            use super::*;
            $(
                #[test]
                fn $name() {
                    let v = Variant::by_name($v).unwrap();
                    with_width!(Width::for_variant(v), W => reference_positions::<W>($v));
                }
            )*
        }
        mod divide_reference {
            use super::*;
            $(
                #[test]
                fn $name() {
                    let v = Variant::by_name($v).unwrap();
                    with_width!(Width::for_variant(v), W => divides::<W>($v));
                }
            )*
        }
        /// Positions whose side to move has no king (a tsume problem's
        /// attacker), and one move later.
        mod kingless {
            use super::*;
            $(
                #[test]
                fn $name() {
                    let v = Variant::by_name($v).unwrap();
                    with_width!(Width::for_variant(v), W => kingless_positions::<W>($v));
                }
            )*
        }
        mod start {
            use super::*;
            $(
                #[test]
                fn $name() {
                    start_positions($v, $start_depth);
                }
            )*
        }
        /// Depth 6 from the start of every variant: a few minutes in all.
        /// `cargo test --release --test engine -- --ignored library::perft`
        mod start_deep {
            use super::*;
            $(
                #[test]
                #[ignore]
                fn $name() {
                    start_positions($v, 6);
                }
            )*
        }
    };
}

variant_tests! {
    shogi: "shogi", 5;
    judkins: "judkins", 6;
    yarishogi: "yarishogi", 6;
    heian: "heian", 5;
    heian9x8: "heian9x8", 5;
    heian8x9: "heian8x9", 6;
    heian8x8: "heian8x8", 6;
}

/// The 7x9 board also runs on u128 (the width decision is benchmarked, so both
/// widths must stay correct).
#[test]
fn yarishogi_on_u128() {
    let v = Variant::by_name("yarishogi").unwrap();
    assert_eq!(
        perft(&mut position::<u128>(v, v.def.start_sfen), 5),
        3174917
    );
    reference_positions::<u128>("yarishogi");
}

/// Small positions from the reference README: the pawn-drop-mate rule.
#[test]
fn pawn_drop_mate() {
    for (variant, sfen, n) in [
        ("shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", 80),
        ("judkins", "4nk/6/4G1/6/6/K5 b P 1", 36),
        ("yarishogi", "5nk/7/5+N1/7/7/7/7/7/3K3 b P 1", 70),
    ] {
        let v = Variant::by_name(variant).unwrap();
        let got = with_width!(Width::for_variant(v), W => perft(&mut position::<W>(v, sfen), 1));
        assert_eq!(got, n, "{variant} {sfen}");
    }
    assert_eq!(VARIANTS.len(), 7);
}
