//! The options: what `usi` and `uci` list, and how `setoption` names and
//! values map onto engine `Setting`s. Each option has its USI name and, if UCI
//! offers it, its UCI name; `setoption` accepts every name in both dialects.

use super::{clip, Dialect};
use crate::engine::{Setting, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::search::params::MAX_DEPTH;
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

fn specs() -> [Spec; 19] {
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
        .chain(super::tune_options::lines())
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
    #[cfg(feature = "tune")]
    if let Some(s) = super::tune_options::setting(name, value) {
        return s;
    }
    let all = specs();
    let spec = all
        .iter()
        .find(|s| {
            s.name.eq_ignore_ascii_case(name)
                || s.uci.is_some_and(|u| u.eq_ignore_ascii_case(name))
                || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let bad = |expected: String| OptionError::BadValue {
        name: spec.name,
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
        .ok_or(OptionError::MissingValue(spec.name))?;
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
mod tests {
    use super::*;

    #[test]
    fn listing_has_every_option_once() {
        let lines = option_lines(Dialect::Usi);
        for name in [
            "USI_Variant",
            "USI_Hash",
            "USI_Ponder",
            "MultiPV",
            "Threads",
            "MaxMovesToDraw",
            "NetworkDelay",
            "EnteringKingRule",
            "Clear_Hash",
        ] {
            let prefix = format!("option name {name} type ");
            assert_eq!(
                lines.iter().filter(|l| l.starts_with(&prefix)).count(),
                1,
                "{name}"
            );
        }
        assert!(
            lines.contains(&"option name Threads type spin default 1 min 1 max 1024".to_string())
        );
        assert!(lines
            .contains(&"option name USI_Hash type spin default 64 min 1 max 65536".to_string()));
        assert!(lines[0].ends_with(
            "default shogi var shogi var judkins var yarishogi var heian var heian9x8 var heian8x9 var heian8x8"
        ));
        assert!(lines.iter().all(|l| l.is_ascii()));
    }

    #[test]
    fn uci_lists_its_own_names() {
        let lines = option_lines(Dialect::Uci);
        for name in [
            "UCI_Variant",
            "Hash",
            "Ponder",
            "MultiPV",
            "Threads",
            "Move Overhead",
            "Clear Hash",
        ] {
            let prefix = format!("option name {name} type ");
            assert_eq!(
                lines.iter().filter(|l| l.starts_with(&prefix)).count(),
                1,
                "{name}"
            );
        }
        assert!(!lines
            .iter()
            .any(|l| l.contains("USI_") || l.contains("EnteringKingRule")));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
    }

    #[test]
    fn settings() {
        assert!(matches!(
            setting("USI_Hash", Some("16")),
            Ok(Setting::HashMb(16))
        ));
        assert!(matches!(
            setting("hash", Some("16")),
            Ok(Setting::HashMb(16))
        ));
        assert!(matches!(
            setting("USI_Hash", Some("0")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("USI_Hash", Some("-3")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("USI_Hash", None),
            Err(OptionError::MissingValue(_))
        ));
        assert!(matches!(
            setting("USI_Hash", Some("")),
            Err(OptionError::MissingValue(_))
        ));
        assert!(matches!(
            setting("Threads", Some("1")),
            Ok(Setting::Threads(1))
        ));
        assert!(matches!(
            setting("Threads", Some("1024")),
            Ok(Setting::Threads(1024))
        ));
        assert!(matches!(
            setting("Threads", Some("1025")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("Threads", Some("0")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("MaxMovesToDraw", Some("320")),
            Ok(Setting::MaxMovesToDraw(320))
        ));
        assert!(matches!(
            setting("MaxMovesToDraw", Some("0")),
            Ok(Setting::MaxMovesToDraw(0))
        ));
        assert!(matches!(
            setting("USI_Ponder", Some("true")),
            Ok(Setting::Ponder(true))
        ));
        assert!(matches!(
            setting("USI_Ponder", Some("yes")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("MultiPV", Some("3")),
            Ok(Setting::MultiPv(3))
        ));
        assert!(matches!(
            setting("USI_MultiPV", Some("3")),
            Ok(Setting::MultiPv(3))
        ));
        assert!(matches!(
            setting("NetworkDelay", Some("120")),
            Ok(Setting::MoveOverhead(120))
        ));
        assert!(matches!(
            setting("Move Overhead", Some("120")),
            Ok(Setting::MoveOverhead(120))
        ));
        assert!(matches!(
            setting("EnteringKingRule", Some("NoEnteringKing")),
            Ok(Setting::Declaration(false))
        ));
        assert!(matches!(
            setting("EnteringKingRule", Some("CSARule27")),
            Ok(Setting::Declaration(true))
        ));
        assert!(matches!(
            setting("EnteringKingRule", Some("TryRule")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("Clear_Hash", None),
            Ok(Setting::ClearHash)
        ));
        assert!(matches!(
            setting("Clear Hash", None),
            Ok(Setting::ClearHash)
        ));
        assert!(matches!(
            setting("Ponder", Some("true")),
            Ok(Setting::Ponder(true))
        ));
        match setting("UCI_Variant", Some("judkins")) {
            Ok(Setting::Variant(v)) => assert_eq!(v.name(), "judkins"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            setting("USI_Variant", Some("chess")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            setting("Foo", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(setting("", None), Err(OptionError::Unknown(_))));
    }

    #[test]
    fn every_variant_is_listed() {
        for d in [Dialect::Usi, Dialect::Uci] {
            let line = &option_lines(d)[0];
            for v in Variant::all() {
                assert!(line.contains(&format!(" var {}", v.name())), "{line}");
            }
        }
    }

    /// The level options under Fairy-Stockfish's names in each dialect, and
    /// the other options its tools send.
    #[test]
    fn levels_and_the_options_fairy_stockfish_tools_send() {
        let usi = option_lines(Dialect::Usi);
        let uci = option_lines(Dialect::Uci);
        for (lines, listed) in [
            (
                &usi,
                &[
                    "option name Skill_Level type spin default 20 min -20 max 20",
                    "option name USI_LimitStrength type check default false",
                    "option name USI_Elo type spin default 1350 min 500 max 2850",
                    "option name USI_AnalyseMode type check default false",
                ][..],
            ),
            (
                &uci,
                &[
                    "option name Skill Level type spin default 20 min -20 max 20",
                    "option name UCI_LimitStrength type check default false",
                    "option name UCI_Elo type spin default 1350 min 500 max 2850",
                    "option name UCI_AnalyseMode type check default false",
                    "option name UCI_Chess960 type check default false",
                    "option name VariantPath type string default <empty>",
                ][..],
            ),
        ] {
            for l in listed {
                assert!(lines.contains(&l.to_string()), "{l}");
            }
            for l in [
                "option name NodesLimit type spin default 0 min 0 max",
                "option name DepthLimit type spin default 0 min 0 max 100",
            ] {
                assert!(lines.iter().any(|x| x.starts_with(l)), "{l}");
            }
        }
        assert!(!usi
            .iter()
            .any(|l| l.contains("Chess960") || l.contains("VariantPath")));
        // Every name in both dialects, any case.
        for (name, value) in [
            ("Skill Level", "-20"),
            ("skill_level", "5"),
            ("Skill_Level", "20"),
        ] {
            assert!(
                matches!(setting(name, Some(value)), Ok(Setting::SkillLevel(n)) if n.to_string() == value),
                "{name} {value}"
            );
        }
        assert!(matches!(
            setting("UCI_LimitStrength", Some("true")),
            Ok(Setting::LimitStrength(true))
        ));
        assert!(matches!(
            setting("USI_LimitStrength", Some("false")),
            Ok(Setting::LimitStrength(false))
        ));
        assert!(matches!(
            setting("USI_Elo", Some("500")),
            Ok(Setting::Elo(500))
        ));
        assert!(matches!(
            setting("UCI_Elo", Some("2850")),
            Ok(Setting::Elo(2850))
        ));
        assert!(matches!(
            setting("NodesLimit", Some("12345")),
            Ok(Setting::NodesLimit(12345))
        ));
        assert!(matches!(
            setting("DepthLimit", Some("7")),
            Ok(Setting::DepthLimit(7))
        ));
        assert!(matches!(
            setting("UCI_AnalyseMode", Some("true")),
            Ok(Setting::AnalyseMode(true))
        ));
        assert!(matches!(
            setting("UCI_Chess960", Some("false")),
            Ok(Setting::Unchanged)
        ));
        assert!(matches!(
            setting("VariantPath", Some("variants.ini")),
            Ok(Setting::VariantPath(Some(p))) if p == "variants.ini"
        ));
        assert!(matches!(
            setting("VariantPath", Some("<empty>")),
            Ok(Setting::VariantPath(None))
        ));
        // Out of range or malformed: the usual error, naming what fits.
        for (name, value) in [
            ("Skill Level", "21"),
            ("Skill Level", "-21"),
            ("UCI_Elo", "499"),
            ("UCI_Elo", "2851"),
            ("USI_Elo", "x"),
            ("DepthLimit", "101"),
            ("NodesLimit", "-1"),
            ("UCI_LimitStrength", "yes"),
        ] {
            let e = setting(name, Some(value)).unwrap_err();
            assert!(
                matches!(e, OptionError::BadValue { .. }),
                "{name} {value}: {e}"
            );
        }
        let e = setting("UCI_Chess960", Some("true")).unwrap_err();
        assert!(e.to_string().contains("Chess960"), "{e}");
    }
}
