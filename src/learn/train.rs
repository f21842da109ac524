//! Fits a network to `kawari datagen` records (`kawari train`).
//!
//! The float network is the quantized one's shape: `acc = b1 + sum W1[f]` per
//! perspective, `h = clamp(acc, 0, 1)`, `y = b2 + w2 . (h_us, h_them)`, the
//! score `y * SCALE` centipawns. The loss is the squared error of win
//! probabilities, `sigmoid(score / K)` against a blend of the search's score
//! and the game's result (`lambda` 1 is the score alone); `K` is fitted to the
//! data first. Optimizer: Adam on whole batches, learning rate decayed by a
//! cosine to a twentieth. Games whose index is a multiple of `holdout` are
//! held out and their loss is reported every epoch.
//!
//! With king buckets the trainer also learns a piece-square factor shared by
//! every bucket (each active feature adds its bucket's row and the shared
//! row); the export folds the factor into each bucket, so the file has the
//! buckets only. The buckets start at zero: training begins as a piece-square
//! network and the buckets learn what differs by king square, which lets a
//! few million positions train several thousand rows.
//!
//! The network kept is the one of the epoch with the lowest held-out loss;
//! training stops early after `patience` epochs without a new lowest.
//!
//! A run is reproducible from its seed for the same data and thread count
//! (threads sum their gradients in a fixed order).

use super::error::LearnError;
use super::samples::{fit_k, load, sigmoid, Reading, Samples};
use crate::core::Rng;
use crate::nnue::features::{FeatureSet, Layout};
use crate::nnue::network::{Network, MAX_QB, QA, QB, SCALE};
use crate::variant::Variant;
use std::path::PathBuf;

/// What to train.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant; records of other variants are skipped.
    pub variant: &'static Variant,
    /// The network's inputs.
    pub features: FeatureSet,
    /// Datagen files.
    pub data: Vec<PathBuf>,
    /// Hidden units per perspective (a multiple of 16).
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's initial learning rate.
    pub lr: f32,
    /// Weight of the search score in the target (the rest is the result).
    pub lambda: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Threads computing gradients.
    pub threads: usize,
    /// Games with an index divisible by this are held out.
    pub holdout: u32,
    /// Use at most this many positions (0: all).
    pub max_positions: usize,
    /// Also train on every training position mirrored (files reversed),
    /// where the variant's rules are mirror-symmetric (piece-square inputs
    /// only: king buckets already see every position from the left).
    pub mirror: bool,
    /// Stop after this many epochs without a lower held-out loss (0: never).
    pub patience: u32,
    /// Decoupled weight decay of the king buckets' rows (not the shared
    /// factor's): what is not worth a difference by king square stays in
    /// the factor, which every position trains.
    pub bucket_decay: f32,
    /// With king buckets, also learn a factor shared by mirror-image
    /// squares (where the variant is mirror-symmetric).
    pub symmetric_factor: bool,
    /// The network's own `K`: its output layer is rescaled after training
    /// so that `sigmoid(cp / K)` is the expected result, whatever scale the
    /// data's scores had (None: the data's fitted `K`, their scale kept).
    /// Search margins are centipawns, so networks of one `K` prune alike.
    pub output_k: Option<f32>,
}

impl Config {
    /// Whether the training set gets each position's mirror image: asked
    /// for, a mirror-symmetric variant, and piece-square inputs (a king
    /// bucket sees its king on the left only).
    pub fn adds_mirrors(&self) -> bool {
        self.mirror && self.variant.mirror_symmetric() && self.features == FeatureSet::Psq
    }

    /// What `samples::load` reads for this run.
    pub(super) fn reading(&self) -> Reading<'_> {
        Reading {
            variant: self.variant,
            features: self.features,
            data: &self.data,
            holdout: self.holdout,
            max_positions: self.max_positions,
            mirror: self.adds_mirrors(),
        }
    }
}

impl Default for Config {
    /// `kawari train`'s defaults: the default variant, no data, threads =
    /// the machine's cores.
    fn default() -> Config {
        Config {
            variant: Variant::default_variant(),
            features: FeatureSet::Psq,
            data: Vec::new(),
            hidden: 128,
            epochs: 4,
            batch: 1024,
            lr: 0.001,
            lambda: 0.75,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            holdout: 20,
            max_positions: 0,
            mirror: true,
            patience: 2,
            bucket_decay: 50.0,
            symmetric_factor: true,
            output_k: None,
        }
    }
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Training and held-out positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub holdout_positions: usize,
    /// The fitted win-probability scale `K` of the data's scores.
    pub k: f32,
    /// The network's `K` (`Config::output_k`, or `k`).
    pub output_k: f32,
    /// Held-out loss of the data's own search scores (what a network that
    /// reproduced the search exactly would score against the blended target).
    pub holdout_loss_of_scores: f64,
    /// Held-out loss after each epoch, float network.
    pub holdout_loss: Vec<f64>,
    /// The epoch (from 1) whose network was kept.
    pub best_epoch: usize,
    /// Held-out loss of the quantized network.
    pub holdout_loss_quantized: f64,
}

/// Float weights.
#[derive(Clone)]
struct Params {
    hidden: usize,
    /// The network's inputs; rows past them are the shared factors'.
    inputs: usize,
    /// With king buckets: the factor rows of each piece-square feature.
    factor: Option<std::sync::Arc<Factor>>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// The rows shared by every king bucket, trained beside the buckets and
/// folded into them at export: piece-square feature `f` of any bucket also
/// adds the plain factor's row `f`, and the symmetric factor's row shared by
/// `f` and its mirror image (what mirrored training positions teach a
/// piece-square network; a king bucket sees its king on the left only).
struct Factor {
    /// A bucket's inputs.
    block: usize,
    /// Per piece-square feature: its plain and its symmetric factor row.
    rows: Vec<[u32; 2]>,
}

impl Factor {
    /// The factor rows of `layout`'s buckets, numbered after its inputs.
    fn of(layout: &Layout, symmetric: bool) -> Factor {
        let (inputs, block) = (layout.inputs(), layout.bucket_inputs());
        let rows = (0..block as u16)
            .map(|f| {
                let sym = if symmetric {
                    f.min(layout.mirror(f))
                } else {
                    f
                };
                [
                    (inputs + f as usize) as u32,
                    (inputs + block + sym as usize) as u32,
                ]
            })
            .collect();
        Factor { block, rows }
    }
}

/// Limits that keep the quantized sums inside their integers: a row is at
/// most 505 as i16, and 40-odd rows stay below 32767; the output sum is at
/// most 255 * 1024 * 4096 < 2^31.
pub(super) const W1_LIMIT: f32 = 1.98;
pub(super) const W2_LIMIT: f32 = 16.0;

impl Params {
    /// Random weights; with factors the buckets and the symmetric factor
    /// start at zero and the plain factor random.
    fn new(inputs: usize, factor: Option<Factor>, hidden: usize, rng: &mut Rng) -> Params {
        let s1 = 0.5 / (30f32).sqrt();
        let s2 = 1.0 / ((2 * hidden) as f32).sqrt();
        let w1 = match &factor {
            None => (0..inputs * hidden)
                .map(|_| rng.range_f32(-s1, s1))
                .collect(),
            Some(fac) => {
                let mut w = vec![0.0; inputs * hidden];
                w.extend((0..fac.block * hidden).map(|_| rng.range_f32(-s1, s1)));
                w.extend(std::iter::repeat_n(0.0, fac.block * hidden));
                w
            }
        };
        let factor = factor.map(std::sync::Arc::new);
        Params {
            hidden,
            inputs,
            factor,
            w1,
            b1: (0..hidden).map(|_| rng.range_f32(0.0, 0.5)).collect(),
            w2: (0..2 * hidden).map(|_| rng.range_f32(-s2, s2)).collect(),
            b2: 0.0,
        }
    }

    fn zeros_like(p: &Params) -> Params {
        Params {
            hidden: p.hidden,
            inputs: p.inputs,
            factor: p.factor.clone(),
            w1: vec![0.0; p.w1.len()],
            b1: vec![0.0; p.b1.len()],
            w2: vec![0.0; p.w2.len()],
            b2: 0.0,
        }
    }

    /// Adds `other` (a gradient) to this one.
    fn add(&mut self, other: &Params) {
        for (a, b) in [
            (&mut self.w1, &other.w1),
            (&mut self.b1, &other.b1),
            (&mut self.w2, &other.w2),
        ] {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        self.b2 += other.b2;
    }

    /// Sets every value to zero (a fresh gradient).
    fn clear(&mut self) {
        for a in [&mut self.w1, &mut self.b1, &mut self.w2] {
            a.fill(0.0);
        }
        self.b2 = 0.0;
    }

    /// Multiplies every value by `k`.
    fn scale(&mut self, k: f32) {
        for a in [&mut self.w1, &mut self.b1, &mut self.w2] {
            a.iter_mut().for_each(|x| *x *= k);
        }
        self.b2 *= k;
    }

    /// The rows feature `x` adds: its own, and the factors' if any.
    #[inline(always)]
    fn rows(&self, x: u16) -> impl Iterator<Item = usize> + '_ {
        let own = x as usize;
        let shared = self
            .factor
            .as_ref()
            .map(|fac| fac.rows[own % fac.block])
            .into_iter()
            .flatten()
            .map(|r| r as usize);
        std::iter::once(own).chain(shared)
    }

    fn accumulate(&self, f: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &x in f {
            for r in self.rows(x) {
                for (a, w) in acc.iter_mut().zip(&self.w1[r * h..(r + 1) * h]) {
                    *a += w;
                }
            }
        }
    }

    /// Output (network units) for sample features `f` (side to move's, other's).
    fn forward(&self, f: [&[u16]; 2], us: &mut [f32], them: &mut [f32]) -> f32 {
        self.accumulate(f[0], us);
        self.accumulate(f[1], them);
        let h = self.hidden;
        let mut y = self.b2;
        for i in 0..h {
            y += us[i].clamp(0.0, 1.0) * self.w2[i] + them[i].clamp(0.0, 1.0) * self.w2[h + i];
        }
        y
    }

    /// Multiplies the output by `f` (the output layer only: the hidden
    /// layer is untouched, so the network ranks positions as before).
    fn scale_output(&mut self, f: f32) {
        self.w2.iter_mut().for_each(|w| *w *= f);
        self.b2 *= f;
    }

    /// The network file's weights: the factors folded into every bucket,
    /// the output weights at the finest `QB` they fit.
    fn quantize(&self, v: &Variant, set: FeatureSet) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let h = self.hidden;
        let w1 = (0..self.inputs * h).map(|i| {
            let (row, unit) = (i / h, i % h);
            let w: f32 = self.rows(row as u16).map(|r| self.w1[r * h + unit]).sum();
            q(w.clamp(-W1_LIMIT, W1_LIMIT), QA)
        });
        let qb = output_quantization(&self.w2, self.b2);
        Network::new(
            v,
            set,
            self.hidden,
            self.b1.iter().map(|&x| q(x, QA)).collect(),
            w1.collect(),
            self.w2.iter().map(|&x| q(x, qb)).collect(),
            (self.b2 * (QA * qb) as f32).round() as i32,
            qb,
        )
        .expect("trained sizes are valid")
    }
}

/// The finest output quantization (`QB` up to `MAX_QB`, by powers of two)
/// whose integers fit: each weight an i16, the output sum an i32.
fn output_quantization(w2: &[f32], b2: f32) -> i32 {
    let largest = w2.iter().fold(0f32, |m, w| m.max(w.abs()));
    let sum: f64 = w2.iter().map(|w| w.abs() as f64).sum::<f64>() + b2.abs() as f64;
    let mut qb = MAX_QB;
    while qb > QB
        && (largest * qb as f32 >= i16::MAX as f32 || sum * (QA * qb) as f64 >= OUTPUT_SUM_LIMIT)
    {
        qb /= 2;
    }
    qb
}

/// The output sum's bound for a finer `QB`: half of i32's range, so that
/// rounding never takes it past.
const OUTPUT_SUM_LIMIT: f64 = (1u64 << 30) as f64;

/// The blended target of sample `i`.
fn target(s: &Samples, i: usize, k: f32, lambda: f32) -> f32 {
    lambda * sigmoid(s.score[i] / k) + (1.0 - lambda) * s.result[i]
}

/// Loss and gradient of samples `idx` into `g` (summed, not averaged).
fn gradient(p: &Params, s: &Samples, idx: &[u32], k: f32, lambda: f32, g: &mut Params) -> f64 {
    let h = p.hidden;
    let (mut us, mut them) = (vec![0f32; h], vec![0f32; h]);
    let mut da = vec![0f32; h];
    let mut loss = 0f64;
    let c = SCALE as f32 / k;
    for &i in idx {
        let i = i as usize;
        let f = s.features(i);
        let y = p.forward(f, &mut us, &mut them);
        let prob = sigmoid(y * c);
        let t = target(s, i, k, lambda);
        loss += ((prob - t) * (prob - t)) as f64;
        let dy = 2.0 * (prob - t) * prob * (1.0 - prob) * c;
        g.b2 += dy;
        for (side, acc) in [(0usize, &us), (1, &them)] {
            let w2 = &p.w2[side * h..(side + 1) * h];
            let gw2 = &mut g.w2[side * h..(side + 1) * h];
            for j in 0..h {
                let a = acc[j];
                gw2[j] += dy * a.clamp(0.0, 1.0);
                da[j] = if a > 0.0 && a < 1.0 { dy * w2[j] } else { 0.0 };
            }
            for (gb, d) in g.b1.iter_mut().zip(&da) {
                *gb += d;
            }
            for &x in f[side] {
                for r in p.rows(x) {
                    for (gw, d) in g.w1[r * h..(r + 1) * h].iter_mut().zip(&da) {
                        *gw += d;
                    }
                }
            }
        }
    }
    loss
}

/// Mean loss of the float network over `s`.
fn mean_loss(p: &Params, s: &Samples, k: f32, lambda: f32) -> f64 {
    let h = p.hidden;
    let (mut us, mut them) = (vec![0f32; h], vec![0f32; h]);
    let c = SCALE as f32 / k;
    let total: f64 = (0..s.len())
        .map(|i| {
            let y = p.forward(s.features(i), &mut us, &mut them);
            let d = sigmoid(y * c) - target(s, i, k, lambda);
            (d * d) as f64
        })
        .sum();
    total / s.len().max(1) as f64
}

/// Mean loss of the quantized network, whose `K` is `net_k`, over `s`.
fn mean_loss_quantized(net: &Network, s: &Samples, k: f32, net_k: f32, lambda: f32) -> f64 {
    let h = net.hidden();
    let (mut us, mut them) = (vec![0i16; h], vec![0i16; h]);
    let total: f64 = (0..s.len())
        .map(|i| {
            let [fu, ft] = s.features(i);
            net.accumulate(&mut us, fu.iter().copied());
            net.accumulate(&mut them, ft.iter().copied());
            let cp = net.output(&us, &them) as f32;
            let d = sigmoid(cp / net_k) - target(s, i, k, lambda);
            (d * d) as f64
        })
        .sum();
    total / s.len().max(1) as f64
}

struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    fn step(&mut self, p: &mut Params, g: &Params, lr: f32, bucket_decay: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let upd = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32, limit: f32| {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w = w.clamp(-limit, limit);
        };
        let layer = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], limit: f32| {
            for i in 0..w.len() {
                upd(&mut w[i], g[i], &mut m[i], &mut v[i], limit);
            }
        };
        layer(&mut p.w1, &g.w1, &mut self.m.w1, &mut self.v.w1, W1_LIMIT);
        if p.factor.is_some() && bucket_decay > 0.0 {
            let keep = 1.0 - lr * bucket_decay;
            p.w1[..p.inputs * p.hidden]
                .iter_mut()
                .for_each(|w| *w *= keep);
        }
        layer(&mut p.b1, &g.b1, &mut self.m.b1, &mut self.v.b1, W1_LIMIT);
        layer(&mut p.w2, &g.w2, &mut self.m.w2, &mut self.v.w2, W2_LIMIT);
        upd(&mut p.b2, g.b2, &mut self.m.b2, &mut self.v.b2, 1000.0);
    }
}

/// Trains a network; `progress` gets a line per epoch.
pub fn run(cfg: &Config, progress: &mut dyn FnMut(&str)) -> Result<(Network, Report), LearnError> {
    if cfg.hidden == 0 || !cfg.hidden.is_multiple_of(16) {
        return Err(LearnError::Hidden(cfg.hidden));
    }
    let (train, held) = load(&cfg.reading(), progress)?;
    if train.len() == 0 {
        return Err(LearnError::NoPositions(cfg.variant.name()));
    }
    let layout = Layout::with(cfg.variant, cfg.features);
    let k = fit_k(&train);
    let scores_loss = if held.len() > 0 {
        (0..held.len())
            .map(|i| {
                let d = sigmoid(held.score[i] / k) - target(&held, i, k, cfg.lambda);
                (d * d) as f64
            })
            .sum::<f64>()
            / held.len() as f64
    } else {
        0.0
    };
    let output_k = cfg.output_k.unwrap_or(k);
    progress(&format!(
        "{} training, {} held-out positions; K = {k:.0}{}",
        train.len(),
        held.len(),
        match cfg.output_k {
            Some(n) => format!(", the network's K = {n:.0}"),
            None => String::new(),
        }
    ));
    let mut rng = Rng::seed_from_u64(cfg.seed);
    let factor = (layout.buckets() > 1).then(|| {
        Factor::of(
            &layout,
            cfg.variant.mirror_symmetric() && cfg.symmetric_factor,
        )
    });
    let mut p = Params::new(layout.inputs(), factor, cfg.hidden, &mut rng);
    let mut adam = Adam {
        m: Params::zeros_like(&p),
        v: Params::zeros_like(&p),
        t: 0,
    };
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Params> = (0..threads).map(|_| Params::zeros_like(&p)).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let batch = cfg.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch);
    let total_steps = (steps_per_epoch * cfg.epochs as usize).max(1);
    let mut holdout_loss = Vec::new();
    let mut best: Option<(f64, usize, Params)> = None;
    let mut step = 0usize;
    for epoch in 0..cfg.epochs {
        rng.shuffle(&mut order);
        let mut train_loss = 0f64;
        for chunk in order.chunks(batch) {
            let progress_frac = step as f32 / total_steps as f32;
            let lr =
                cfg.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress_frac).cos()));
            let per = chunk.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|s| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(chunk.chunks(per))
                    .map(|(g, idx)| {
                        let (p, train) = (&p, &train);
                        s.spawn(move || {
                            g.clear();
                            gradient(p, train, idx, k, cfg.lambda, g)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            // Only the first `used` gradients were computed for this batch.
            let used = chunk.len().div_ceil(per);
            let (first, rest) = grads.split_at_mut(1);
            let g = &mut first[0];
            for other in &rest[..used - 1] {
                g.add(other);
            }
            g.scale(1.0 / chunk.len() as f32);
            adam.step(&mut p, g, lr, cfg.bucket_decay);
            step += 1;
        }
        if train_loss.is_nan() {
            return Err(LearnError::TrainingThread);
        }
        let hl = mean_loss(&p, &held, k, cfg.lambda);
        holdout_loss.push(hl);
        progress(&format!(
            "epoch {}/{}: train loss {:.6}, held-out loss {:.6}",
            epoch + 1,
            cfg.epochs,
            train_loss / train.len() as f64,
            hl
        ));
        let epoch = epoch as usize + 1;
        match &best {
            // Without held-out positions every epoch is "best": keep the last.
            Some((lowest, _, _)) if held.len() > 0 && hl >= *lowest => {}
            _ => best = Some((hl, epoch, p.clone())),
        }
        let best_epoch = best.as_ref().map_or(epoch, |b| b.1);
        if cfg.patience > 0 && epoch - best_epoch >= cfg.patience as usize {
            progress(&format!(
                "no lower held-out loss for {} epochs: stopping, keeping epoch {best_epoch}",
                cfg.patience
            ));
            break;
        }
    }
    let (_, best_epoch, mut p) = best.unwrap_or_else(|| (0.0, 0, p.clone()));
    // Trained in the data's scale (the same steps whatever `output_k`),
    // then rescaled.
    p.scale_output(output_k / k);
    let net = p.quantize(cfg.variant, cfg.features);
    let quantized = mean_loss_quantized(&net, &held, k, output_k, cfg.lambda);
    Ok((
        net,
        Report {
            train_positions: train.len(),
            holdout_positions: held.len(),
            k,
            output_k,
            holdout_loss_of_scores: scores_loss,
            holdout_loss,
            best_epoch,
            holdout_loss_quantized: quantized,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::EvalChoice;

    #[test]
    fn output_quantization_is_the_finest_that_fits() {
        // The same cases as scripts/tests/test_nnue_files.py's.
        assert_eq!(output_quantization(&[0.5, -0.25], 0.1), 1024);
        assert_eq!(output_quantization(&[31.9], 0.0), 1024);
        assert_eq!(output_quantization(&[40.0], 0.0), 512);
        assert_eq!(output_quantization(&[10.0; 512], 0.0), 512);
        assert_eq!(output_quantization(&[600.0], 0.0), QB);
    }

    #[test]
    fn training_is_reproducible_and_learns() {
        let dir = std::env::temp_dir().join(format!("kawari-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("judkins.bin");
        let _ = std::fs::remove_file(&data);
        let v = Variant::by_name("judkins").unwrap();
        crate::learn::datagen::run(
            &crate::learn::datagen::Config {
                variant: v,
                games: 40,
                nodes: 400,
                random_plies: 6,
                max_plies: 200,
                seed: 3,
                threads: 2,
                hash_mb: 1,
                out: data.clone(),
                eval: EvalChoice::HandMade,
                book: Vec::new(),
            },
            &mut |_| {},
        )
        .unwrap();
        let cfg = Config {
            variant: v,
            data: vec![data],
            hidden: 16,
            epochs: 4,
            batch: 64,
            lr: 0.003,
            lambda: 0.75,
            seed: 9,
            threads: 2,
            holdout: 5,
            max_positions: 0,
            mirror: true,
            patience: 0,
            features: FeatureSet::Psq,
            bucket_decay: 0.0,
            symmetric_factor: true,
            output_k: None,
        };
        let (a, ra) = run(&cfg, &mut |_| {}).unwrap();
        let (b, _) = run(&cfg, &mut |_| {}).unwrap();
        assert_eq!(a, b, "same seed, same network");
        assert!(
            ra.holdout_positions > 20 && ra.train_positions > 100,
            "{ra:?}"
        );
        // Held-out loss falls, the lowest epoch is kept, and quantization
        // changes its loss little.
        let first = ra.holdout_loss[0];
        let kept = ra.holdout_loss[ra.best_epoch - 1];
        assert!(ra.holdout_loss.iter().all(|&l| l >= kept), "{ra:?}");
        assert!(kept < first, "{ra:?}");
        assert!(
            (ra.holdout_loss_quantized - kept).abs() < 0.1 * kept,
            "{ra:?}"
        );
        // King buckets learn too, and their factors fold into the file's
        // buckets: the quantized network scores as the float one did.
        let kb = Config {
            features: FeatureSet::KingBuckets,
            bucket_decay: 50.0,
            ..cfg.clone()
        };
        let (n, rk) = run(&kb, &mut |_| {}).unwrap();
        assert_eq!(n.feature_set(), FeatureSet::KingBuckets);
        assert_eq!(
            n.inputs(),
            Layout::with(v, FeatureSet::KingBuckets).inputs()
        );
        let kept = rk.holdout_loss[rk.best_epoch - 1];
        assert!(kept < rk.holdout_loss[0], "{rk:?}");
        assert!(
            (rk.holdout_loss_quantized - kept).abs() < 0.1 * kept,
            "{rk:?}"
        );
        // Another K: trained alike, the output rescaled (a finer QB keeps
        // its precision), so the quantized loss stays and scores double.
        let twice = Config {
            output_k: Some(2.0 * ra.k),
            ..cfg.clone()
        };
        let (d, rd) = run(&twice, &mut |_| {}).unwrap();
        assert_eq!(rd.holdout_loss, ra.holdout_loss);
        assert_eq!(rd.output_k, 2.0 * ra.k);
        assert!(
            (rd.holdout_loss_quantized - ra.holdout_loss_quantized).abs()
                < 0.01 * ra.holdout_loss_quantized,
            "{rd:?} {ra:?}"
        );
        let score = |n: &Network, f: &[u16]| {
            let (mut us, mut them) = (vec![0i16; n.hidden()], vec![0i16; n.hidden()]);
            n.accumulate(&mut us, f.iter().copied());
            n.accumulate(&mut them, f.iter().rev().map(|&x| x + 1));
            n.output(&us, &them)
        };
        let (sa, sd) = (0..40u16)
            .map(|i| [i, 3 * i + 7, 5 * i + 100])
            .map(|f| (score(&a, &f), score(&d, &f)))
            .max_by_key(|s| s.0.abs())
            .unwrap();
        assert!(sa.abs() >= 10, "{sa}");
        assert!((sd - 2 * sa).abs() <= 2 + sa.abs() / 50, "{sa} {sd}");
        let (c, _) = run(&Config { seed: 10, ..cfg }, &mut |_| {}).unwrap();
        assert_ne!(a, c, "another seed, another network");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
