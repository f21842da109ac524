//! The `bench` positions: fixed-depth searches over them, one thread, a fresh
//! hash table and fresh heuristics per position, give the node count that is
//! the engine's behaviour signature (a commit that changes it says its new
//! `Bench: <n>`; `SIGNATURE` holds the current one), and the bench's
//! settings. The `bench` job itself runs on the engine's threads
//! (`engine::jobs`).

use crate::core::BitWord;
use crate::position::Position;
use crate::search::{Limits, Search, SearchOptions, Signals, TranspositionTable};
use crate::variant::Variant;
use crate::width::Width;
use crate::with_width;

/// The node count of `bench` with its defaults (one thread): a change to the
/// search's behaviour changes it, and must update it on purpose.
pub const SIGNATURE: u64 = 1_441_019;

/// The bench positions: (variant, SFEN). Openings, middlegames with pieces in
/// hand, endgames.
pub const POSITIONS: &[(&str, &str)] = &[
    (
        "shogi",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "shogi",
        "lnsgkgsnl/5r3/ppppppbpp/6p2/9/2PB5/PPNPPPPPP/7R1/L1SGKGSNL b - 9",
    ),
    (
        "shogi",
        "l1sg2s1l/1r1kg4/2ppppnpp/p5p2/1p1P1+bn2/2P3B2/PPS1PPPPP/4GSR2/L1G1K2NL b N 31",
    ),
    (
        "shogi",
        "l3kg3/1s1g1ps2/np1p4p/p3p1p2/7P1/2+b5P/PP1PPPP1N/2S4R1/3G1KS1L b B2L2Prg2np 51",
    ),
    (
        "shogi",
        "3gk1g1l/+N4s3/3ppp2p/1p+Rs1bp2/2P6/P8/bPsPPPP1P/5G3/+p2GK1SNL b RNL3Pnl 51",
    ),
    (
        "shogi",
        "l1s+R4l/4g4/1kpp2sp1/p3Np2p/1p1P2p2/2P1+rP3/PPS5P/3K5/L1G4N+b b GSNPbgnl3p 81",
    ),
    ("judkins", "rbnsgk/5p/6/6/P5/KGSNBR b - 1"),
    ("judkins", "r3gk/b3sp/1B4/P5/2S3/KG1N1R b N 9"),
    ("judkins", "r1nsgk/6/5p/2b3/PG2r1/K1SN2 b b 9"),
    ("judkins", "1+bn1gk/6/3b1p/G5/PS4/KS2+r1 b Rn 31"),
    ("judkins", "3+Ngk/5p/3s2/P5/1GS2+r/1K1N2 b RBb 31"),
    ("judkins", "2+R3/5p/6/P3+rk/BGS3/1KBN2 b SNg 51"),
    (
        "yarishogi",
        "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
    ),
    (
        "yarishogi",
        "1nnkb1r/r5b/1p1pppp/p1p4/7/1P5/P1PPPPP/6R/RBBKNN1 b - 9",
    ),
    (
        "yarishogi",
        "r1nkb2/4b2/1p1ppp1/p1p1r2/3n3/P3P1N/1PPP1P1/2B4/R1BK1N1 b RPp 31",
    ),
    (
        "yarishogi",
        "2nkb2/4r1r/+R+Ppp1p1/1p1R2p/2N4/1PP1pPP/3Pn2/7/2B1K2 b 2BNPp 51",
    ),
    (
        "yarishogi",
        "r1n+R3/2kb3/rp1p1p1/p1p4/1B3b1/PN2P2/1PP2P1/K6/3+n3 b RB3Pnp 81",
    ),
    (
        "yarishogi",
        "1k+b4/1p3+Rb/+r2pppp/1+P5/1K5/1P4P/5PN/p5+r/5R1 b P2b3n3p 111",
    ),
    (
        "heian",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
    ),
    (
        "heian",
        "l1sgkgsnl/9/nppp1ppp1/p3p3p/9/1P6P/P1PPPPPPL/9/LNSGKGSN1 b - 9",
    ),
    (
        "heian",
        "l2gk4/3s3s1/np2pp3/p1pp2p2/1P2PP1g1/P1PP2P2/N1S2S+n2/4G4/L3KG3 b - 51",
    ),
    (
        "heian",
        "4kg3/5s3/2p1gp3/1p1p2+N2/2s6/9/3PPPP+p1/4GS2+l/2SGK4 b - 51",
    ),
    (
        "heian",
        "5g3/4k4/5p1p1/1p4s2/2sSP2P1/1P2G3S/3P5/4G4/+l3K4 b - 81",
    ),
    (
        "heian",
        "3k5/4g4/7+N1/5+P3/2pg5/5P3/1+s1GP4/3G4+l/2K1+p4 b - 111",
    ),
    (
        "heian9x8",
        "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
    ),
    (
        "heian9x8",
        "l2gk2nl/5g1s1/3s1pppp/1Npp1P3/pn2S1PPP/2PP2N2/1S7/L2GKG2L b - 31",
    ),
    (
        "heian9x8",
        "3gk2n1/4g3l/2+P1sppp1/3+Lp3P/6P2/3PPPNP1/1+s1G1S3/4KG2L b - 51",
    ),
    (
        "heian9x8",
        "3k5/3s1g3/3pppp2/1pp6/ln1PPPP2/N1PS5/9/L2GKG1+l1 b - 51",
    ),
    (
        "heian9x8",
        "4g2n1/2+P5l/4sk1p1/8P/3P1S2L/6N2/1+s3G3/3GK4 b - 81",
    ),
    (
        "heian8x9",
        "lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
    ),
    (
        "heian8x9",
        "l2gk2l/3s1s2/n4p2/1pppp2p/L4Pp1/2PPP2P/NP4PL/3SKG2/5S2 b - 31",
    ),
    (
        "heian8x9",
        "4k2l/3g1s2/2p1p2n/1S2s1pp/2Pp1p2/3PP1PP/5S1N/8/3KG2L b - 51",
    ),
    (
        "heian8x9",
        "3gk3/5s1l/1+L1s3n/2pp2P1/1P2pp1L/2PP4/4PP2/2+nSSG2/4K3 b - 51",
    ),
    (
        "heian8x9",
        "5k2/2+S1g2l/4p2n/5spp/4Pp2/4G1PP/5S1N/1+s2K2L/8 b - 81",
    ),
    (
        "heian8x8",
        "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
    ),
    (
        "heian8x8",
        "l2gk2s/3s4/np2pp2/2pp4/L3PPp1/NPPPSN2/2S2G1+n/3K4 b - 31",
    ),
    (
        "heian8x8",
        "l3k1nl/3g4/np2sp1p/2pps1N1/LP3PPP/N1PP1S2/3S3L/3KG3 b - 31",
    ),
    (
        "heian8x8",
        "l3k3/2g5/np2s1s1/3p4/LPp1SG2/N2P4/2S3+n1/3K4 b - 51",
    ),
    (
        "heian8x8",
        "3gk3/l4s+Sl/p6n/1p1N4/P2n1P1L/1P3N2/8/L2KG3 b - 51",
    ),
];

/// `bench` settings, as Stockfish takes them: `bench [hash MB] [threads] [depth]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// Hash table size in MB (a table of the bench's own, fresh per position).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Search depth.
    pub depth: u32,
}

/// The bench's defaults: the node signature is taken with these.
pub const BENCH_DEFAULTS: BenchArgs = BenchArgs {
    hash_mb: 16,
    threads: 1,
    depth: 9,
};

/// Why `bench` arguments were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchArgsError {
    /// More than three arguments.
    Usage,
    /// An argument that is not a number in its range.
    Bad {
        /// Which argument (`hash`, `threads`, `depth`).
        name: &'static str,
        /// Its text, clipped.
        text: String,
        /// The smallest value accepted.
        lo: u64,
        /// The largest value accepted.
        hi: u64,
    },
}

impl std::fmt::Display for BenchArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchArgsError::Usage => write!(f, "usage: bench [hash MB] [threads] [depth]"),
            BenchArgsError::Bad { name, text, lo, hi } => {
                write!(f, "bad {name} '{text}' (expected {lo}..{hi})")
            }
        }
    }
}

impl BenchArgs {
    /// Parses `[hash] [threads] [depth]`; missing values take the defaults.
    pub fn parse(
        args: &[String],
        max_threads: usize,
        max_hash: usize,
    ) -> Result<BenchArgs, BenchArgsError> {
        if args.len() > 3 {
            return Err(BenchArgsError::Usage);
        }
        let num = |i: usize, name: &'static str, lo: u64, hi: u64, default: u64| match args.get(i) {
            None => Ok(default),
            Some(s) => s
                .parse::<u64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| BenchArgsError::Bad {
                    name,
                    text: s.chars().take(20).collect(),
                    lo,
                    hi,
                }),
        };
        let d = BENCH_DEFAULTS;
        Ok(BenchArgs {
            hash_mb: num(0, "hash", 1, max_hash as u64, d.hash_mb as u64)? as usize,
            threads: num(1, "threads", 1, max_threads as u64, d.threads as u64)? as usize,
            depth: num(2, "depth", 1, 64, d.depth as u64)? as u32,
        })
    }
}

/// Nodes of one fixed-depth search of `sfen` with fresh tables.
pub fn bench_position(variant: &'static Variant, sfen: &str, depth: u32) -> Result<u64, String> {
    let width = Width::for_variant(variant);
    with_width!(width, W => bench_one::<W>(variant, sfen, depth))
}

fn bench_one<W: BitWord>(variant: &'static Variant, sfen: &str, depth: u32) -> Result<u64, String> {
    let pos = Position::<W>::from_sfen(variant, sfen).map_err(|e| format!("{sfen}: {e}"))?;
    let mut search = Search::new();
    let tt = TranspositionTable::new(BENCH_DEFAULTS.hash_mb);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let signals = Signals::default();
    let opts = SearchOptions::default();
    search.run(&pos, &limits, &opts, &tt, &signals, &mut |_| {});
    Ok(search.nodes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_cover_every_variant() {
        for v in Variant::all() {
            let n = POSITIONS
                .iter()
                .filter(|(name, _)| *name == v.name())
                .count();
            assert!(n >= 5, "{} has {n} bench positions", v.name());
        }
        for &(name, sfen) in POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let pos =
                Position::<u128>::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            assert!(pos.game_end().is_none(), "{sfen} is over");
        }
    }

    #[test]
    fn arguments_follow_stockfish() {
        let a = |v: &[&str]| {
            let v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
            BenchArgs::parse(&v, 1024, 65536)
        };
        assert_eq!(a(&[]), Ok(BENCH_DEFAULTS));
        let got = a(&["32", "2", "5"]).unwrap();
        assert_eq!((got.hash_mb, got.threads, got.depth), (32, 2, 5));
        assert_eq!(a(&["8"]).unwrap().depth, BENCH_DEFAULTS.depth);
        for bad in [
            &["x"][..],
            &["0"],
            &["16", "0"],
            &["16", "2000"],
            &["16", "1", "65"],
            &["1", "1", "1", "1"],
        ] {
            assert!(a(bad).is_err(), "{bad:?}");
        }
    }
}
