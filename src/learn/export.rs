//! The trainer's samples for other trainers (`kawari features`): every
//! position's active features, both perspectives, with its score and result,
//! in a file that numpy reads without this crate (the PyTorch trainer of
//! `scripts/`, `kawari-train-torch`). The features are the ones `train`
//! computes (its own `load`: the same held-out games, the same mirrored
//! copies), so no other program repeats the feature logic.
//!
//! File (little endian), a 128-byte header:
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `KWFT` |
//! | 4..8 | format version (1) |
//! | 8..40 | variant name, ASCII, zero-padded |
//! | 40..44 | feature set (`FeatureSet::id`) |
//! | 44..48 | inputs (`Layout::inputs`; a network file of this set must have as many) |
//! | 48..52 | inputs of one king bucket (`Layout::bucket_inputs`; = inputs for `psq`) |
//! | 52..56 | flags: bit 0 the variant's moves are mirror-symmetric, bit 1 the training section holds each position's mirror image too |
//! | 56..60 | `K` of `sigmoid(score / K)`, fitted to the training section (f32; 0 for `--sfens`) |
//! | 60..64, 64..68, 68..72 | the network file's `QA`, `QB`, `SCALE` |
//! | 72..76, 76..80 | the trainer's bounds on first-layer and output weights (f32) |
//! | 80..88, 88..96 | training and held-out positions (u64) |
//! | 96..104, 104..112 | features in the training and in the held-out section (u64) |
//! | 112..116 | games whose index is a multiple of this were held out (0: none) |
//! | 116..128 | zero (reserved) |
//!
//! then `Layout::mirror` of every feature of one bucket (u16 each: what the
//! trainer's symmetric factor shares), then the training section, then the
//! held-out one, each of `n` positions holding `F` features:
//!
//! - `2n + 1` offsets (u32) into the section's features: position `i`'s
//!   side to move sees `features[off[2i]..off[2i+1]]`, the other side
//!   `features[off[2i+1]..off[2i+2]]`;
//! - `F` features (u16);
//! - `n` search scores, centipawns for the side to move (i16);
//! - `n` results for the side to move (i8: 1 win, 0 draw, -1 loss).
//!
//! With `--sfens` the positions of a text file (one SFEN a line) make the
//! training section, with scores and results 0: features to evaluate a
//! model on, e.g. against the engine's `eval`.

use super::error::LearnError;
use super::samples::{fit_k, load, Samples};
use super::train::{self, W1_LIMIT, W2_LIMIT};
use crate::nnue::features::{FeatureSet, Layout};
use crate::nnue::network::{QA, QB, SCALE};
use crate::position::Position;
use crate::variant::Variant;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file's magic.
pub const MAGIC: &[u8; 4] = b"KWFT";
/// The file format's version.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER: usize = 128;
/// Flag: the variant's moves are mirror-symmetric.
pub const FLAG_SYMMETRIC: u32 = 1;
/// Flag: the training section holds mirror images too.
pub const FLAG_MIRRORED: u32 = 2;

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Datagen files, read as `kawari train` reads them: its `Config`
    /// (variant, features, data, holdout, max_positions and mirror count;
    /// the rest is not used).
    Records(train::Config),
    /// A text file of SFENs, one a line (`#` comments).
    Sfens {
        /// The variant.
        variant: &'static Variant,
        /// The inputs.
        features: FeatureSet,
        /// The file.
        path: PathBuf,
    },
}

/// What was written.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Training positions (mirror images included).
    pub train_positions: usize,
    /// Held-out positions.
    pub holdout_positions: usize,
    /// The fitted `K` (0 for SFENs).
    pub k: f32,
    /// Inputs of the layout.
    pub inputs: usize,
}

/// Writes the samples of `source` to `out`; `progress` gets the reader's
/// lines.
pub fn run(
    source: &Source,
    out: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Summary, LearnError> {
    let (variant, set, train, held, k, holdout, mirrored) = match source {
        Source::Records(cfg) => {
            let (train, held) = load(&cfg.reading(), progress)?;
            if train.len() == 0 {
                return Err(LearnError::NoPositions(cfg.variant.name()));
            }
            let k = fit_k(&train);
            let mirrored = cfg.adds_mirrors();
            let v = cfg.variant;
            (v, cfg.features, train, held, k, cfg.holdout, mirrored)
        }
        Source::Sfens {
            variant,
            features,
            path,
        } => {
            let layout = Layout::with(variant, *features);
            let mut s = Samples::new();
            for sfen in read_sfens(path)? {
                let pos = Position::<u128>::from_sfen(variant, &sfen).map_err(|e| {
                    LearnError::BadRecord {
                        path: path.clone(),
                        sfen: sfen.clone(),
                        reason: e.to_string(),
                    }
                })?;
                let us = layout.active(&pos, pos.side_to_move());
                let them = layout.active(&pos, pos.side_to_move().opp());
                s.push(&us, &them, 0.0, 0.5);
            }
            if s.len() == 0 {
                return Err(LearnError::EmptyBook(path.clone()));
            }
            (*variant, *features, s, Samples::new(), 0.0, 0, false)
        }
    };
    let layout = Layout::with(variant, set);
    let mut flags = 0;
    if variant.mirror_symmetric() {
        flags |= FLAG_SYMMETRIC;
    }
    if mirrored {
        flags |= FLAG_MIRRORED;
    }
    let mut b = Vec::with_capacity(HEADER);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&crate::nnue::network::padded_name(variant.name()));
    for x in [
        set.id(),
        layout.inputs() as u32,
        layout.bucket_inputs() as u32,
        flags,
        k.to_bits(),
        QA as u32,
        QB as u32,
        SCALE as u32,
        W1_LIMIT.to_bits(),
        W2_LIMIT.to_bits(),
    ] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    for x in [
        train.len(),
        held.len(),
        train.features.len(),
        held.features.len(),
    ] {
        b.extend_from_slice(&(x as u64).to_le_bytes());
    }
    b.extend_from_slice(&holdout.to_le_bytes());
    b.resize(HEADER, 0);
    let file = std::fs::File::create(out).map_err(|e| LearnError::io(out, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut put = |bytes: &[u8]| w.write_all(bytes).map_err(|e| LearnError::io(out, e));
    put(&b)?;
    let mirror: Vec<u8> = (0..layout.bucket_inputs() as u16)
        .flat_map(|f| layout.mirror(f).to_le_bytes())
        .collect();
    put(&mirror)?;
    for s in [&train, &held] {
        put(&le_bytes(&s.offsets, |x| x.to_le_bytes()))?;
        put(&le_bytes(&s.features, |x| x.to_le_bytes()))?;
        // Scores were read from i16 and results from -1, 0, 1, so these
        // conversions are exact.
        put(&le_bytes(&s.score, |&x| (x as i16).to_le_bytes()))?;
        let results: Vec<u8> = s
            .result
            .iter()
            .map(|&r| (2.0 * r - 1.0).round() as i8 as u8)
            .collect();
        put(&results)?;
    }
    w.flush().map_err(|e| LearnError::io(out, e))?;
    Ok(Summary {
        train_positions: train.len(),
        holdout_positions: held.len(),
        k,
        inputs: layout.inputs(),
    })
}

/// The values of `xs` as little-endian bytes.
fn le_bytes<T, const N: usize>(xs: &[T], f: impl Fn(&T) -> [u8; N]) -> Vec<u8> {
    xs.iter().flat_map(f).collect()
}

/// The SFENs of a text file: one a line, `#` comments, blank lines skipped.
fn read_sfens(path: &Path) -> Result<Vec<String>, LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    fn u64_at(b: &[u8], at: usize) -> usize {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
    }

    /// One section of a file read back: (offsets, features, scores,
    /// results), and where the next one starts.
    type Section = (Vec<u32>, Vec<u16>, Vec<i16>, Vec<i8>);

    fn section(b: &[u8], at: usize, n: usize, f: usize) -> (Section, usize) {
        let offs: Vec<u32> = (0..2 * n + 1).map(|i| u32_at(b, at + 4 * i)).collect();
        let at = at + 4 * (2 * n + 1);
        let feats: Vec<u16> = (0..f)
            .map(|i| u16::from_le_bytes([b[at + 2 * i], b[at + 2 * i + 1]]))
            .collect();
        let at = at + 2 * f;
        let scores: Vec<i16> = (0..n)
            .map(|i| i16::from_le_bytes([b[at + 2 * i], b[at + 2 * i + 1]]))
            .collect();
        let at = at + 2 * n;
        let results: Vec<i8> = b[at..at + n].iter().map(|&x| x as i8).collect();
        ((offs, feats, scores, results), at + n)
    }

    #[test]
    fn sfens_are_written_with_the_layout_s_features() {
        let dir = std::env::temp_dir().join(format!("kawari-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let v = Variant::by_name("judkins").unwrap();
        let sfens: Vec<&str> = crate::bench::POSITIONS
            .iter()
            .filter(|(name, _)| *name == "judkins")
            .map(|&(_, s)| s)
            .collect();
        assert!(!sfens.is_empty());
        let list = dir.join("positions.txt");
        std::fs::write(&list, format!("# a comment\n\n{}\n", sfens.join("\n"))).unwrap();
        for set in FeatureSet::ALL {
            let out = dir.join(format!("{}.kwft", set.name()));
            let source = Source::Sfens {
                variant: v,
                features: set,
                path: list.clone(),
            };
            let s = run(&source, &out, &mut |_| {}).unwrap();
            let b = std::fs::read(&out).unwrap();
            let layout = Layout::with(v, set);
            assert_eq!(&b[0..4], MAGIC);
            assert_eq!(u32_at(&b, 4), VERSION);
            assert_eq!(&b[8..15], b"judkins");
            assert_eq!(u32_at(&b, 40), set.id());
            assert_eq!(u32_at(&b, 44) as usize, layout.inputs());
            assert_eq!(u32_at(&b, 48) as usize, layout.bucket_inputs());
            assert_eq!(u32_at(&b, 52), FLAG_SYMMETRIC);
            assert_eq!((u32_at(&b, 60), u32_at(&b, 68)), (QA as u32, SCALE as u32));
            assert_eq!(f32::from_bits(u32_at(&b, 72)), W1_LIMIT);
            let (n, f) = (u64_at(&b, 80), u64_at(&b, 96));
            assert_eq!((n, u64_at(&b, 88), u64_at(&b, 104)), (sfens.len(), 0, 0));
            assert_eq!(s.train_positions, sfens.len());
            let mirror_at = HEADER;
            let f7 = u16::from_le_bytes([b[mirror_at + 14], b[mirror_at + 15]]);
            assert_eq!(f7, layout.mirror(7));
            let at = HEADER + 2 * layout.bucket_inputs();
            let ((offs, feats, scores, results), end) = section(&b, at, n, f);
            // Held-out section: one offset (0), nothing else.
            assert_eq!(end + 4, b.len());
            for (i, sfen) in sfens.iter().enumerate() {
                let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
                let stm = pos.side_to_move();
                for (k, persp) in [stm, stm.opp()].into_iter().enumerate() {
                    let (a, z) = (offs[2 * i + k] as usize, offs[2 * i + k + 1] as usize);
                    assert_eq!(&feats[a..z], &layout.active(&pos, persp)[..], "{sfen}");
                }
            }
            assert!(scores.iter().all(|&x| x == 0) && results.iter().all(|&x| x == 0));
        }
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "not a position\n").unwrap();
        let source = Source::Sfens {
            variant: v,
            features: FeatureSet::Psq,
            path: bad,
        };
        let e = run(&source, &dir.join("x"), &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("not a position"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn records_are_split_and_mirrored_as_the_trainer_does() {
        let dir = std::env::temp_dir().join(format!("kawari-export-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let v = Variant::by_name("judkins").unwrap();
        // Records of games 0..6, each position of the bench's judkins one.
        let sfen = crate::bench::POSITIONS
            .iter()
            .find(|(name, _)| *name == "judkins")
            .unwrap()
            .1;
        let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        let mv = pos.legal_moves()[0];
        let data = dir.join("d.bin");
        let bytes: Vec<u8> = (0..6u32)
            .flat_map(|g| super::super::record::encode(&pos, 10 * g as i16 - 20, mv, 1, g))
            .collect();
        std::fs::write(&data, bytes).unwrap();
        let cfg = train::Config {
            variant: v,
            features: FeatureSet::Psq,
            data: vec![data],
            hidden: 16,
            epochs: 1,
            batch: 1,
            lr: 0.001,
            lambda: 1.0,
            seed: 1,
            threads: 1,
            holdout: 3,
            max_positions: 0,
            mirror: true,
            patience: 0,
            bucket_decay: 0.0,
            symmetric_factor: true,
            output_k: None,
        };
        let out = dir.join("f.kwft");
        let s = run(&Source::Records(cfg), &out, &mut |_| {}).unwrap();
        // Games 0 and 3 held out; the other four twice (mirrored).
        assert_eq!((s.train_positions, s.holdout_positions), (8, 2));
        let b = std::fs::read(&out).unwrap();
        assert_eq!(u32_at(&b, 52), FLAG_SYMMETRIC | FLAG_MIRRORED);
        assert_eq!(u32_at(&b, 112), 3);
        let layout = Layout::of(v);
        let (nt, nh) = (u64_at(&b, 80), u64_at(&b, 88));
        let at = HEADER + 2 * layout.bucket_inputs();
        let ((offs, feats, scores, results), at) = section(&b, at, nt, u64_at(&b, 96));
        let ((_, _, hs, hr), end) = section(&b, at, nh, u64_at(&b, 104));
        assert_eq!(end, b.len());
        assert_eq!(scores, vec![-10, -10, 0, 0, 20, 20, 30, 30]);
        assert_eq!((hs, hr), (vec![-20, 10], vec![1, 1]));
        assert!(results.iter().all(|&r| r == 1));
        let stm = pos.side_to_move();
        let own = layout.active(&pos, stm);
        let mirrored: Vec<u16> = own.iter().map(|&f| layout.mirror(f)).collect();
        assert_eq!(&feats[offs[0] as usize..offs[1] as usize], &own[..]);
        assert_eq!(&feats[offs[2] as usize..offs[3] as usize], &mirrored[..]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
