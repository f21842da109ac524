//! Why a network file or a network's parts were refused.

use std::fmt;

/// Why a network could not be loaded or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Read {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// No `KWNN` header.
    NotANetwork,
    /// The header names a variant this build does not know.
    UnknownVariant(String),
    /// A file format version this build does not read.
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// A network for another variant than the one asked for.
    WrongVariant {
        /// The file's variant.
        found: String,
        /// The variant asked for.
        expected: String,
    },
    /// A feature set this build does not know.
    FeatureSet(u32),
    /// An input count that is not the variant's in this build.
    Inputs {
        /// The file's count.
        found: usize,
        /// The variant.
        variant: String,
        /// The file's feature set.
        set: &'static str,
        /// The variant's count in this build.
        expected: usize,
    },
    /// A hidden layer size that is not a multiple of 16 up to the maximum.
    Hidden {
        /// The size.
        found: usize,
        /// The largest size accepted.
        max: usize,
    },
    /// Layer sizes that do not match the variant's inputs.
    LayerSizes,
    /// Quantization constants this build does not read.
    Quantization {
        /// The file's (QA, QB, scale).
        found: (u32, u32, u32),
        /// This build's QA, its coarsest and finest QB, its scale.
        reads: (u32, u32, u32, u32),
    },
    /// Output weights whose sum could overflow the output's arithmetic.
    OutputRange,
    /// A file size other than its header says.
    Size {
        /// Bytes in the file.
        found: usize,
        /// Bytes the header implies.
        expected: usize,
    },
    /// The checksum does not match the payload.
    Checksum,
    /// A file with the magic but cut inside its header.
    Truncated {
        /// Bytes in the file.
        found: usize,
        /// Bytes of its version's header.
        header: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Read { path, reason } => write!(f, "cannot read {path}: {reason}"),
            NetworkError::NotANetwork => write!(f, "not a Kawari network file (no KWNN header)"),
            NetworkError::Truncated { found, header } => write!(
                f,
                "truncated: {found} bytes, shorter than its {header}-byte header"
            ),
            NetworkError::UnknownVariant(name) => {
                write!(f, "a network for unknown variant '{name}'")
            }
            NetworkError::Version { found, expected } => write!(
                f,
                "network format version {found}, this build reads {expected}"
            ),
            NetworkError::WrongVariant { found, expected } => {
                write!(f, "a network for {found}, not {expected}")
            }
            NetworkError::FeatureSet(id) => write!(
                f,
                "feature set {id} is unknown to this build (it reads {})",
                super::features::FeatureSet::ALL
                    .map(|s| format!("{} = {}", s.id(), s.name()))
                    .join(", ")
            ),
            NetworkError::Inputs {
                found,
                variant,
                set,
                expected,
            } => write!(
                f,
                "{found} inputs, {variant} has {expected} with feature set {set} in this build"
            ),
            NetworkError::Hidden { found, max } => write!(
                f,
                "{found} hidden units: must be a multiple of 16 up to {max}"
            ),
            NetworkError::LayerSizes => write!(f, "layer sizes do not match the variant's inputs"),
            NetworkError::Quantization { found, reads } => write!(
                f,
                "quantization {}/{}/{}, this build reads {}/{}..{} (a power of two)/{}",
                found.0, found.1, found.2, reads.0, reads.1, reads.2, reads.3
            ),
            NetworkError::OutputRange => {
                write!(f, "output weights too large for the output's arithmetic")
            }
            NetworkError::Size { found, expected } => {
                write!(f, "{found} bytes, the header says {expected}")
            }
            NetworkError::Checksum => write!(f, "checksum mismatch: the file is damaged"),
        }
    }
}

impl std::error::Error for NetworkError {}
