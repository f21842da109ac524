//! A quantized network and its file format.
//!
//! Shape: the features of each perspective feed one shared layer of `hidden`
//! units (the accumulator); the side to move's units then the other side's,
//! clipped to `[0, 1]`, feed one linear output, the score in units of
//! `SCALE` centipawns.
//!
//! Integers: first-layer weights and biases are scaled by `QA`, output
//! weights by the file's `qb` (`QB`, or a finer power of two up to `MAX_QB`
//! for a network whose output weights are small), the output bias by
//! `QA * qb`; so the output sum is the float network's output times
//! `QA * qb`.
//!
//! File (little endian): the header, 72 bytes (64 in version 1)
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `KWNN` |
//! | 4..8 | format version (2; version 1 files are read too) |
//! | 8..40 | variant name, ASCII, zero-padded |
//! | 40..44 | inputs (must equal the variant's `Layout::inputs` under the set) |
//! | 44..48 | hidden units (a multiple of 16, at most 2048) |
//! | 48..52, 52..56, 56..60 | `QA`, `qb`, `SCALE` (`QA` and `SCALE` this build's; `qb` a power of two, `QB` to `MAX_QB`) |
//! | 60..64 | FNV-1a 32 checksum of everything after the header |
//! | 64..68 | feature set (`FeatureSet::id`; version 1 has none: `Psq`) |
//! | 68..72 | zero (reserved) |
//!
//! then `hidden` first-layer biases (i16), `inputs * hidden` first-layer
//! weights, feature by feature (i16), `2 * hidden` output weights (i16), the
//! output bias (i32).

use super::error::NetworkError;
use super::features::{FeatureSet, Layout};
use super::simd;
use crate::variant::Variant;

/// First-layer quantization: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-weight quantization: 1.0 is `QB` (a file may use a finer one).
pub const QB: i32 = 64;
/// The finest output-weight quantization a file may use.
pub const MAX_QB: i32 = 1024;
/// What a file's quantization may be, for errors: QA, QB to MAX_QB, SCALE.
const READS: (u32, u32, u32, u32) = (QA as u32, QB as u32, MAX_QB as u32, SCALE as u32);
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 4] = b"KWNN";
const VERSION: u32 = 2;
/// The first version, whose only feature set was `Psq`.
const VERSION_PSQ_ONLY: u32 = 1;
const HEADER: usize = 72;
const HEADER_V1: usize = 64;
const MAX_HIDDEN: usize = 2048;

/// A loaded network for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    variant: String,
    set: FeatureSet,
    inputs: usize,
    hidden: usize,
    ft_bias: Vec<i16>,
    ft_weights: Vec<i16>,
    out_weights: Vec<i16>,
    out_bias: i32,
    /// Output-weight quantization: 1.0 is `qb`.
    qb: i32,
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// Quantization a file may have: this build's `QA` and `SCALE`, a `qb`
/// that is a power of two from `QB` to `MAX_QB`.
fn check_quantization(qa: u32, qb: u32, scale: u32) -> Result<(), NetworkError> {
    let qb_ok = (QB as u32..=MAX_QB as u32).contains(&qb) && qb.is_power_of_two();
    if (qa, scale) != (QA as u32, SCALE as u32) || !qb_ok {
        return Err(NetworkError::Quantization {
            found: (qa, qb, scale),
            reads: READS,
        });
    }
    Ok(())
}

/// A hidden layer size the network code supports.
fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
        return Err(NetworkError::Hidden {
            found: hidden,
            max: MAX_HIDDEN,
        });
    }
    Ok(())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn i16s(b: &[u8]) -> Vec<i16> {
    b.chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// A variant name as file headers hold it (bytes 8..40 of both the
/// network and the features file): ASCII, zero-padded to 32 bytes.
pub fn padded_name(name: &str) -> [u8; 32] {
    let mut b = [0u8; 32];
    let n = name.len().min(32);
    b[..n].copy_from_slice(&name.as_bytes()[..n]);
    b
}

impl Network {
    /// A network from its parts (the trainer's output, or tests'), its
    /// output weights quantized by `qb`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        v: &Variant,
        set: FeatureSet,
        hidden: usize,
        ft_bias: Vec<i16>,
        ft_weights: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
        qb: i32,
    ) -> Result<Network, NetworkError> {
        let inputs = Layout::with(v, set).inputs();
        check_hidden(hidden)?;
        if ft_bias.len() != hidden
            || ft_weights.len() != inputs * hidden
            || out_weights.len() != 2 * hidden
        {
            return Err(NetworkError::LayerSizes);
        }
        check_quantization(QA as u32, qb as u32, SCALE as u32)?;
        // The output sum (clipped units of at most QA times the weights)
        // must fit the i32 the SIMD dot product adds in.
        let bound = out_weights
            .iter()
            .map(|&w| (w as i64).abs() * QA as i64)
            .sum::<i64>()
            + (out_bias as i64).abs();
        if bound > i32::MAX as i64 {
            return Err(NetworkError::OutputRange);
        }
        Ok(Network {
            variant: v.name().to_string(),
            set,
            inputs,
            hidden,
            ft_bias,
            ft_weights,
            out_weights,
            out_bias,
            qb,
        })
    }

    /// The variant a network file's header names.
    pub fn variant_of(b: &[u8]) -> Result<&'static Variant, NetworkError> {
        if b.len() < 4 || &b[0..4] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let header = if b.len() >= 8 && u32_at(b, 4) == VERSION_PSQ_ONLY {
            HEADER_V1
        } else {
            HEADER
        };
        if b.len() < header {
            return Err(NetworkError::Truncated {
                found: b.len(),
                header,
            });
        }
        let name_bytes = &b[8..40];
        let end = name_bytes.iter().position(|&c| c == 0).unwrap_or(32);
        let name = String::from_utf8_lossy(&name_bytes[..end]).to_string();
        Variant::by_name(&name).ok_or(NetworkError::UnknownVariant(name))
    }

    /// Reads a network file for `v`; the error says what is wrong with it.
    pub fn from_bytes(v: &Variant, b: &[u8]) -> Result<Network, NetworkError> {
        let named = Network::variant_of(b)?;
        let version = u32_at(b, 4);
        let (header, set) = match version {
            VERSION_PSQ_ONLY => (HEADER_V1, FeatureSet::Psq),
            VERSION => {
                let id = u32_at(b, 64);
                let set = FeatureSet::from_id(id).ok_or(NetworkError::FeatureSet(id))?;
                (HEADER, set)
            }
            _ => {
                return Err(NetworkError::Version {
                    found: version,
                    expected: VERSION,
                })
            }
        };
        if named.name() != v.name() {
            return Err(NetworkError::WrongVariant {
                found: named.name().to_string(),
                expected: v.name().to_string(),
            });
        }
        let inputs = u32_at(b, 40) as usize;
        let hidden = u32_at(b, 44) as usize;
        let expect = Layout::with(v, set).inputs();
        if inputs != expect {
            return Err(NetworkError::Inputs {
                found: inputs,
                variant: v.name().to_string(),
                set: set.name(),
                expected: expect,
            });
        }
        check_hidden(hidden)?;
        let (qa, qb, scale) = (u32_at(b, 48), u32_at(b, 52), u32_at(b, 56));
        check_quantization(qa, qb, scale)?;
        let size = header + 2 * hidden + 2 * inputs * hidden + 4 * hidden + 4;
        if b.len() != size {
            return Err(NetworkError::Size {
                found: b.len(),
                expected: size,
            });
        }
        if fnv1a(&b[header..]) != u32_at(b, 60) {
            return Err(NetworkError::Checksum);
        }
        let mut at = header;
        let mut take = |n: usize| {
            let s = &b[at..at + n];
            at += n;
            s
        };
        let ft_bias = i16s(take(2 * hidden));
        let ft_weights = i16s(take(2 * inputs * hidden));
        let out_weights = i16s(take(4 * hidden));
        let out_bias = i32::from_le_bytes(take(4).try_into().expect("4 bytes"));
        Network::new(
            v,
            set,
            hidden,
            ft_bias,
            ft_weights,
            out_weights,
            out_bias,
            qb as i32,
        )
    }

    /// The file image of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(2 * self.ft_weights.len() + 8 * self.hidden + 4);
        for x in self
            .ft_bias
            .iter()
            .chain(&self.ft_weights)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&x.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut b = Vec::with_capacity(HEADER + payload.len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&padded_name(&self.variant));
        for x in [
            self.inputs as u32,
            self.hidden as u32,
            QA as u32,
            self.qb as u32,
            SCALE as u32,
            fnv1a(&payload),
            self.set.id(),
            0,
        ] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&payload);
        b
    }

    /// A network with random weights of plausible size, for tests and
    /// benchmarks of the machinery (it plays badly).
    pub fn random(v: &Variant, set: FeatureSet, hidden: usize, seed: u64) -> Network {
        let mut rng = crate::core::Rng::seed_from_u64(seed);
        let inputs = Layout::with(v, set).inputs();
        let mut r = |n: usize, lo: i16, hi: i16| -> Vec<i16> {
            (0..n)
                .map(|_| rng.range_i64(lo.into(), hi.into()) as i16)
                .collect()
        };
        let bias = r(hidden, 0, 200);
        let w = r(inputs * hidden, -60, 60);
        let out = r(2 * hidden, -40, 40);
        Network::new(v, set, hidden, bias, w, out, 1234, QB).expect("valid sizes")
    }

    /// The variant it was trained for.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Its feature set.
    pub fn feature_set(&self) -> FeatureSet {
        self.set
    }

    /// Its inputs' layout for variant `v` (its own).
    pub fn layout(&self, v: &Variant) -> Layout {
        Layout::with(v, self.set)
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The first-layer biases (an empty accumulator).
    #[inline(always)]
    pub fn bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The first-layer weights of feature `f`.
    #[inline(always)]
    pub fn row(&self, f: u16) -> &[i16] {
        let at = f as usize * self.hidden;
        &self.ft_weights[at..at + self.hidden]
    }

    /// Sets `acc` to the first-layer sums of the active features `features`
    /// (from scratch; the search updates them move by move instead).
    pub fn accumulate(&self, acc: &mut [i16], features: impl IntoIterator<Item = u16>) {
        acc.copy_from_slice(self.bias());
        for f in features {
            simd::update(acc, &[], &[self.row(f)]);
        }
    }

    /// The score in centipawns for the side whose accumulator is `us`.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (wu, wt) = self.out_weights.split_at(self.hidden);
        let sum = simd::dot_clipped::<{ QA as i16 }>(us, wu) as i64
            + simd::dot_clipped::<{ QA as i16 }>(them, wt) as i64
            + self.out_bias as i64;
        // The usual `QB` divides by a constant (a multiplication).
        if self.qb == QB {
            (sum * SCALE as i64 / (QA * QB) as i64) as i32
        } else {
            (sum * SCALE as i64 / (QA * self.qb) as i64) as i32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let v = Variant::by_name("judkins").unwrap();
        let net = Network::random(v, FeatureSet::Psq, 32, 1);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(v, &bytes).unwrap(), net);
        let shogi = Variant::by_name("shogi").unwrap();
        let e = Network::from_bytes(shogi, &bytes).unwrap_err();
        assert!(e.to_string().contains("judkins"), "{e}");
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(Network::from_bytes(v, &bad)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(Network::from_bytes(v, &bytes[..bytes.len() - 2])
            .unwrap_err()
            .to_string()
            .contains("bytes"));
        assert!(Network::from_bytes(v, b"hello")
            .unwrap_err()
            .to_string()
            .contains("KWNN"));
        // A file cut inside its header says so, not that it is no network.
        for cut in [4, 40, 71] {
            let e = Network::from_bytes(v, &bytes[..cut])
                .unwrap_err()
                .to_string();
            assert_eq!(
                e,
                format!("truncated: {cut} bytes, shorter than its 72-byte header")
            );
        }
    }

    #[test]
    fn files_carry_their_feature_set() {
        let v = Variant::by_name("judkins").unwrap();
        let net = Network::random(v, FeatureSet::KingBuckets, 16, 2);
        assert_eq!(net.inputs(), 9 * Layout::of(v).inputs());
        let bytes = net.to_bytes();
        assert_eq!(u32_at(&bytes, 4), 2);
        let back = Network::from_bytes(v, &bytes).unwrap();
        assert_eq!(back.feature_set(), FeatureSet::KingBuckets);
        assert_eq!(back, net);
        // An unknown set is named, with the ones this build reads.
        let mut bad = bytes.clone();
        bad[64] = 9;
        let e = Network::from_bytes(v, &bad).unwrap_err().to_string();
        assert!(
            e.contains("feature set 9") && e.contains("king-buckets"),
            "{e}"
        );
        // A file whose set does not match its inputs says both.
        let mut bad = bytes.clone();
        bad[64] = 0;
        let e = Network::from_bytes(v, &bad).unwrap_err().to_string();
        assert!(e.contains("psq") && e.contains("1080"), "{e}");
    }

    #[test]
    fn a_finer_output_quantization_scores_alike() {
        let v = Variant::by_name("judkins").unwrap();
        let net = Network::random(v, FeatureSet::Psq, 32, 3);
        // The same weights at eight times the precision: the same scores.
        let fine = Network::new(
            v,
            FeatureSet::Psq,
            32,
            net.ft_bias.clone(),
            net.ft_weights.clone(),
            net.out_weights.iter().map(|&w| w * 8).collect(),
            net.out_bias * 8,
            8 * QB,
        )
        .unwrap();
        let back = Network::from_bytes(v, &fine.to_bytes()).unwrap();
        assert_eq!(back, fine);
        let (mut us, mut them) = (vec![0i16; 32], vec![0i16; 32]);
        for f in 0..50u16 {
            net.accumulate(&mut us, [f, 2 * f + 60]);
            net.accumulate(&mut them, [f + 200]);
            assert_eq!(back.output(&us, &them), net.output(&us, &them));
        }
        // A QB that is no power of two, or past MAX_QB, is refused and named.
        for qb in [100u32, 2 * MAX_QB as u32, 32] {
            let mut bad = fine.to_bytes();
            bad[52..56].copy_from_slice(&qb.to_le_bytes());
            let e = Network::from_bytes(v, &bad).unwrap_err().to_string();
            assert!(e.contains(&format!("/{qb}/")) && e.contains("1024"), "{e}");
        }
        // Output weights whose sum could overflow are refused.
        let wide = Network::random(v, FeatureSet::Psq, 256, 3);
        let e = Network::new(
            v,
            FeatureSet::Psq,
            256,
            wide.ft_bias,
            wide.ft_weights,
            vec![i16::MAX; 512],
            0,
            QB,
        );
        assert!(matches!(e, Err(NetworkError::OutputRange)));
    }

    #[test]
    fn version_1_files_are_piece_square_networks() {
        let v = Variant::by_name("judkins").unwrap();
        let net = Network::random(v, FeatureSet::Psq, 16, 3);
        let v2 = net.to_bytes();
        // The same network as version 1 wrote it: 64-byte header, no set.
        let mut v1 = v2[..HEADER_V1].to_vec();
        v1[4..8].copy_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v2[HEADER..]);
        assert_eq!(Network::from_bytes(v, &v1).unwrap(), net);
        let mut v3 = v2.clone();
        v3[4..8].copy_from_slice(&3u32.to_le_bytes());
        let e = Network::from_bytes(v, &v3).unwrap_err().to_string();
        assert!(e.contains("version 3"), "{e}");
    }
}
