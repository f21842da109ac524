//! The trainer's samples: datagen records read into each position's
//! active features from both sides, its search score and result, split into
//! training and held-out games (`train` fits a network to them, `export`
//! writes them for other trainers), and the `K` fitted to them.

use super::error::LearnError;
use super::record::{decode, RECORD_BYTES};
use crate::nnue::features::{FeatureSet, Features, Layout};
use crate::position::Position;
use crate::variant::Variant;
use std::io::Read;
use std::path::PathBuf;

/// What to read, and how to split it.
pub(super) struct Reading<'a> {
    pub(super) variant: &'static Variant,
    pub(super) features: FeatureSet,
    pub(super) data: &'a [PathBuf],
    /// Games whose index is a multiple of this are held out (0: none).
    pub(super) holdout: u32,
    /// Stop after this many positions (0: all).
    pub(super) max_positions: usize,
    /// Add every training position's mirror image.
    pub(super) mirror: bool,
}

/// Training positions: the side to move's features and the other side's,
/// the search score and the result (`export` writes them for other trainers).
pub(super) struct Samples {
    pub(super) features: Vec<u16>,
    pub(super) offsets: Vec<u32>,
    pub(super) score: Vec<f32>,
    pub(super) result: Vec<f32>,
}

impl Samples {
    pub(super) fn new() -> Samples {
        Samples {
            features: Vec::new(),
            offsets: vec![0],
            score: Vec::new(),
            result: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.score.len()
    }

    pub(super) fn push(&mut self, us: &[u16], them: &[u16], score: f32, result: f32) {
        for f in [us, them] {
            self.features.extend_from_slice(f);
            self.offsets.push(self.features.len() as u32);
        }
        self.score.push(score);
        self.result.push(result);
    }

    /// Sample `i`'s features: the side to move's, the other side's.
    pub(super) fn features(&self, i: usize) -> [&[u16]; 2] {
        let o = &self.offsets[2 * i..2 * i + 3];
        [
            &self.features[o[0] as usize..o[1] as usize],
            &self.features[o[1] as usize..o[2] as usize],
        ]
    }
}

/// Reads the records of `cfg.variant`; (training, held-out).
pub(super) fn load(
    cfg: &Reading<'_>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Samples, Samples), LearnError> {
    let layout = Layout::with(cfg.variant, cfg.features);
    let mirror = cfg.mirror;
    let (mut train, mut held) = (Samples::new(), Samples::new());
    let mut buf = [0u8; RECORD_BYTES];
    for path in cfg.data {
        let file = std::fs::File::open(path).map_err(|e| LearnError::io(path, e))?;
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        loop {
            match r.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(LearnError::io(path, e)),
            }
            let rec = decode(&buf).ok_or_else(|| LearnError::NotRecords(path.clone()))?;
            if rec.variant.name() != cfg.variant.name() {
                continue;
            }
            let pos = Position::<u128>::from_sfen(rec.variant, &rec.sfen).map_err(|e| {
                LearnError::BadRecord {
                    path: path.clone(),
                    sfen: rec.sfen.clone(),
                    reason: format!("{e:?}"),
                }
            })?;
            let us = layout.active(&pos, pos.side_to_move());
            let them = layout.active(&pos, pos.side_to_move().opp());
            let result = (rec.result as f32 + 1.0) / 2.0;
            if cfg.holdout > 0 && rec.game % cfg.holdout == 0 {
                held.push(&us, &them, rec.score as f32, result);
            } else {
                train.push(&us, &them, rec.score as f32, result);
                if mirror {
                    let m = |f: &Features| -> Features {
                        f.iter().map(|&x| layout.mirror(x)).collect()
                    };
                    train.push(&m(&us), &m(&them), rec.score as f32, result);
                }
            }
            if cfg.max_positions > 0 && train.len() + held.len() >= cfg.max_positions {
                break;
            }
            if (train.len() + held.len()) % 500_000 == 0 {
                progress(&format!("read {} positions", train.len() + held.len()));
            }
        }
    }
    Ok((train, held))
}

/// The logistic function.
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` that makes `sigmoid(score / K)` the best predictor of results.
pub(super) fn fit_k(s: &Samples) -> f32 {
    let err = |k: f32| -> f64 {
        (0..s.len())
            .map(|i| {
                let d = sigmoid(s.score[i] / k) - s.result[i];
                (d * d) as f64
            })
            .sum()
    };
    // Golden-section search over a wide range.
    let (mut lo, mut hi) = (30.0f32, 3000.0f32);
    let g = 0.618_034f32;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
