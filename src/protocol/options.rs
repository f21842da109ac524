//! The options: what `usi` and `uci` list, and how `setoption` names and
//! values map onto engine `Setting`s. Each option has its USI name and, if UCI
//! offers it, its UCI name; `setoption` accepts every name in both dialects.
//! A tune build (cargo feature `tune`) also lists the search's tunables, as
//! spins named after their constants, for SPSA (`scripts/spsa.py`).

use super::{clip, Dialect};
use crate::engine::{Setting, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::search::params::MAX_DEPTH;
#[cfg(feature = "tune")]
use crate::search::params::TUNABLES;
use crate::search::{SearchOptions, ELO_MAX, ELO_MIN, SKILL_MIN_LEVEL};
use crate::variant::Variant;
use std::fmt;

/// The type of a USI option, with its default and bounds.
#[derive(Clone, Debug)]
enum Type {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo(&'static str, Vec<&'static str>),
    Button,
    /// A string (a path); `<empty>`-style placeholder default.
    Str(&'static str),
}

/// Which engine setting an option feeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Id {
    Variant,
    Hash,
    Ponder,
    MultiPv,
    Threads,
    MaxMovesToDraw,
    NetworkDelay,
    EnteringKingRule,
    ClearHash,
    UseNetwork,
    EvalFile,
    SkillLevel,
    LimitStrength,
    Elo,
    NodesLimit,
    DepthLimit,
    AnalyseMode,
    Chess960,
    VariantPath,
    /// The search tunable at this index of `TUNABLES` (tune build).
    #[cfg(feature = "tune")]
    Tune(usize),
}

/// One option: its listed names, names also accepted, type.
struct Spec {
    id: Id,
    /// The name `usi` lists.
    name: &'static str,
    /// The name `uci` lists; `None` where UCI has no use for the option.
    uci: Option<&'static str>,
    aliases: &'static [&'static str],
    ty: Type,
    /// Listed by `uci` only (Fairy-Stockfish's UCI options with no USI use).
    uci_only: bool,
}

/// Entering-king rule values (YaneuraOu's names, which GUIs already know).
const NO_ENTERING_KING: &str = "NoEnteringKing";
const CSA_RULE_27: &str = "CSARule27";

/// Names accepted for "no declaration" and "CSA 27-point declaration".
const OFF_ALIASES: &[&str] = &[NO_ENTERING_KING, "none", "off"];
/// The largest `NodesLimit`.
const MAX_NODES_LIMIT: i64 = 1 << 50;
/// A string option's "nothing" (`VariantPath`'s default).
const EMPTY: &str = "<empty>";
/// `EvalFile`'s default: the networks built into the binary.
pub const BUILT_IN: &str = "<built-in>";

const CSA27_ALIASES: &[&str] = &[CSA_RULE_27, "csa27", "27"];

/// Every option, the tune build's tunables last.
fn specs() -> Vec<Spec> {
    engine_specs().into_iter().chain(tunable_specs()).collect()
}

/// The search's tunables as spins under their constants' names (tune build).
#[cfg(feature = "tune")]
fn tunable_specs() -> impl Iterator<Item = Spec> {
    TUNABLES.iter().enumerate().map(|(i, t)| Spec {
        id: Id::Tune(i),
        name: t.name,
        uci: Some(t.name),
        aliases: &[],
        ty: Type::Spin {
            default: t.default as i64,
            min: t.min as i64,
            max: t.max as i64,
        },
        uci_only: false,
    })
}

/// The normal build has no tune options.
#[cfg(not(feature = "tune"))]
fn tunable_specs() -> std::iter::Empty<Spec> {
    std::iter::empty()
}

/// The engine's own options.
fn engine_specs() -> [Spec; 19] {
    let d = SearchOptions::default();
    [
        Spec {
            id: Id::Variant,
            name: "USI_Variant",
            uci: Some("UCI_Variant"),
            aliases: &[],
            ty: Type::Combo(
                Variant::default_variant().name(),
                Variant::all().iter().map(|v| v.name()).collect(),
            ),
            uci_only: false,
        },
        Spec {
            id: Id::Hash,
            name: "USI_Hash",
            uci: Some("Hash"),
            aliases: &[],
            ty: Type::Spin {
                default: DEFAULT_HASH_MB as i64,
                min: 1,
                max: MAX_HASH_MB as i64,
            },
            uci_only: false,
        },
        Spec {
            id: Id::Ponder,
            name: "USI_Ponder",
            uci: Some("Ponder"),
            aliases: &[],
            ty: Type::Check(false),
            uci_only: false,
        },
        Spec {
            id: Id::MultiPv,
            name: "MultiPV",
            uci: Some("MultiPV"),
            aliases: &["USI_MultiPV"],
            ty: Type::Spin {
                default: 1,
                min: 1,
                max: 500,
            },
            uci_only: false,
        },
        Spec {
            id: Id::Threads,
            name: "Threads",
            uci: Some("Threads"),
            aliases: &[],
            ty: Type::Spin {
                default: 1,
                min: 1,
                max: MAX_THREADS as i64,
            },
            uci_only: false,
        },
        Spec {
            id: Id::MaxMovesToDraw,
            name: "MaxMovesToDraw",
            uci: Some("MaxMovesToDraw"),
            aliases: &[],
            ty: Type::Spin {
                default: d.max_moves_to_draw as i64,
                min: 0,
                max: 100_000,
            },
            uci_only: false,
        },
        Spec {
            id: Id::NetworkDelay,
            name: "NetworkDelay",
            uci: Some("Move Overhead"),
            aliases: &["MoveOverhead"],
            ty: Type::Spin {
                default: d.move_overhead as i64,
                min: 0,
                max: 10_000,
            },
            uci_only: false,
        },
        Spec {
            id: Id::EnteringKingRule,
            name: "EnteringKingRule",
            uci: None,
            aliases: &[],
            ty: Type::Combo(
                if d.declaration {
                    CSA_RULE_27
                } else {
                    NO_ENTERING_KING
                },
                vec![NO_ENTERING_KING, CSA_RULE_27],
            ),
            uci_only: false,
        },
        Spec {
            id: Id::ClearHash,
            name: "Clear_Hash",
            uci: Some("Clear Hash"),
            aliases: &["ClearHash"],
            ty: Type::Button,
            uci_only: false,
        },
        Spec {
            id: Id::UseNetwork,
            name: "UseNNUE",
            uci: Some("Use NNUE"),
            aliases: &["Use NNUE", "UseNNUE"],
            ty: Type::Check(true),
            uci_only: false,
        },
        Spec {
            id: Id::EvalFile,
            name: "EvalFile",
            uci: Some("EvalFile"),
            aliases: &[],
            ty: Type::Str(BUILT_IN),
            uci_only: false,
        },
        Spec {
            id: Id::SkillLevel,
            name: "Skill_Level",
            uci: Some("Skill Level"),
            aliases: &[],
            ty: Type::Spin {
                default: d.skill_level as i64,
                min: SKILL_MIN_LEVEL as i64,
                max: d.skill_level as i64,
            },
            uci_only: false,
        },
        Spec {
            id: Id::LimitStrength,
            name: "USI_LimitStrength",
            uci: Some("UCI_LimitStrength"),
            aliases: &[],
            ty: Type::Check(d.limit_strength),
            uci_only: false,
        },
        Spec {
            id: Id::Elo,
            name: "USI_Elo",
            uci: Some("UCI_Elo"),
            aliases: &[],
            ty: Type::Spin {
                default: d.elo as i64,
                min: ELO_MIN as i64,
                max: ELO_MAX as i64,
            },
            uci_only: false,
        },
        Spec {
            id: Id::NodesLimit,
            name: "NodesLimit",
            uci: Some("NodesLimit"),
            aliases: &[],
            ty: Type::Spin {
                default: 0,
                min: 0,
                max: MAX_NODES_LIMIT,
            },
            uci_only: false,
        },
        Spec {
            id: Id::DepthLimit,
            name: "DepthLimit",
            uci: Some("DepthLimit"),
            aliases: &[],
            ty: Type::Spin {
                default: 0,
                min: 0,
                max: MAX_DEPTH as i64,
            },
            uci_only: false,
        },
        Spec {
            id: Id::AnalyseMode,
            name: "USI_AnalyseMode",
            uci: Some("UCI_AnalyseMode"),
            aliases: &[],
            ty: Type::Check(false),
            uci_only: false,
        },
        Spec {
            id: Id::Chess960,
            name: "UCI_Chess960",
            uci: Some("UCI_Chess960"),
            aliases: &[],
            ty: Type::Check(false),
            uci_only: true,
        },
        Spec {
            id: Id::VariantPath,
            name: "VariantPath",
            uci: Some("VariantPath"),
            aliases: &[],
            ty: Type::Str(EMPTY),
            uci_only: true,
        },
    ]
}

/// The `option name ...` lines that `usi` or `uci` prints.
pub fn option_lines(dialect: Dialect) -> Vec<String> {
    specs()
        .iter()
        .filter_map(|s| {
            let name = match dialect {
                Dialect::Usi if s.uci_only => return None,
                Dialect::Usi => s.name,
                Dialect::Uci => s.uci?,
            };
            let ty = match &s.ty {
                Type::Check(d) => format!("type check default {d}"),
                Type::Spin { default, min, max } => {
                    format!("type spin default {default} min {min} max {max}")
                }
                Type::Combo(d, vars) => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    format!("type combo default {d} {}", vars.join(" "))
                }
                Type::Button => "type button".to_string(),
                Type::Str(d) => format!("type string default {d}"),
            };
            Some(format!("option name {name} {ty}"))
        })
        .collect()
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name.
    Unknown(String),
    /// The option needs a value and got none.
    MissingValue(&'static str),
    /// The value does not fit the option.
    BadValue {
        /// The option's listed name.
        name: &'static str,
        /// The value sent.
        value: String,
        /// What would fit.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{}'", clip(n)),
            OptionError::MissingValue(n) => write!(f, "option {n} needs a value"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "bad value '{}' for option {name} (expected {expected})",
                clip(value)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// Maps `setoption name <name> [value <value>]` onto an engine setting.
/// Names are matched ignoring case; so are check and combo values.
pub fn setting(name: &str, value: Option<&str>) -> Result<Setting, OptionError> {
    let all = specs();
    let spec = all
        .iter()
        .find(|s| {
            s.name.eq_ignore_ascii_case(name)
                || s.uci.is_some_and(|u| u.eq_ignore_ascii_case(name))
                || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    // Errors name the option as the sender called it (UCI's `Hash`, not `USI_Hash`).
    let shown: &'static str = std::iter::once(spec.name)
        .chain(spec.uci)
        .chain(spec.aliases.iter().copied())
        .find(|n| n.eq_ignore_ascii_case(name))
        .unwrap_or(spec.name);
    let bad = |expected: String| OptionError::BadValue {
        name: shown,
        value: value.unwrap_or("").to_string(),
        expected,
    };
    if let Type::Button = &spec.ty {
        return match spec.id {
            Id::ClearHash => Ok(Setting::ClearHash),
            _ => Err(OptionError::Unknown(name.to_string())),
        };
    }
    if let Type::Str(default) = &spec.ty {
        // No value, or the default, means none (the built-in networks).
        let path = value
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case(default) && *v != EMPTY)
            .map(str::to_string);
        return Ok(match spec.id {
            Id::VariantPath => Setting::VariantPath(path),
            _ => Setting::EvalFile(path),
        });
    }
    let value = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or(OptionError::MissingValue(shown))?;
    match &spec.ty {
        Type::Check(_) => {
            let on = if value.eq_ignore_ascii_case("true") {
                true
            } else if value.eq_ignore_ascii_case("false") {
                false
            } else {
                return Err(bad("true or false".into()));
            };
            match spec.id {
                Id::Ponder => Ok(Setting::Ponder(on)),
                Id::UseNetwork => Ok(Setting::UseNetwork(on)),
                Id::LimitStrength => Ok(Setting::LimitStrength(on)),
                Id::AnalyseMode => Ok(Setting::AnalyseMode(on)),
                Id::Chess960 if on => Err(bad("false (Kawari plays no Chess960)".into())),
                Id::Chess960 => Ok(Setting::Unchanged),
                _ => Err(OptionError::Unknown(name.to_string())),
            }
        }
        Type::Spin { min, max, .. } => {
            let n = value
                .parse::<i64>()
                .ok()
                .filter(|n| (*min..=*max).contains(n))
                .ok_or_else(|| bad(format!("an integer from {min} to {max}")))?;
            Ok(match spec.id {
                Id::Hash => Setting::HashMb(n as usize),
                Id::MultiPv => Setting::MultiPv(n as u32),
                Id::Threads => Setting::Threads(n as usize),
                Id::MaxMovesToDraw => Setting::MaxMovesToDraw(n as u32),
                Id::SkillLevel => Setting::SkillLevel(n as i32),
                Id::Elo => Setting::Elo(n as u32),
                Id::NodesLimit => Setting::NodesLimit(n as u64),
                Id::DepthLimit => Setting::DepthLimit(n as u32),
                #[cfg(feature = "tune")]
                Id::Tune(i) => Setting::Tune {
                    name: TUNABLES[i].name,
                    value: n as i32,
                },
                _ => Setting::MoveOverhead(n as u64),
            })
        }
        Type::Combo(_, vars) => {
            let expected = || format!("one of {}", vars.join(" "));
            match spec.id {
                Id::Variant => Variant::by_name(value)
                    .map(Setting::Variant)
                    .ok_or_else(|| bad(expected())),
                _ => {
                    let is = |names: &[&str]| names.iter().any(|n| n.eq_ignore_ascii_case(value));
                    if is(OFF_ALIASES) {
                        Ok(Setting::Declaration(false))
                    } else if is(CSA27_ALIASES) {
                        Ok(Setting::Declaration(true))
                    } else {
                        Err(bad(expected()))
                    }
                }
            }
        }
        Type::Button | Type::Str(_) => Err(OptionError::Unknown(name.to_string())),
    }
}

#[cfg(test)]
mod tests;
