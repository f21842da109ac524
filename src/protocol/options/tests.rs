//! The options' listing and `setoption` mapping.

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
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 1024".to_string()));
    assert!(
        lines.contains(&"option name USI_Hash type spin default 64 min 1 max 65536".to_string())
    );
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

#[cfg(feature = "tune")]
mod tune_tests {
    use super::super::{option_lines, setting, OptionError};
    use crate::engine::Setting;
    use crate::protocol::Dialect;

    /// A tune build lists every tunable in both dialects, after the usual
    /// options, and maps `setoption` onto it within its range. (The value
    /// itself is set by the engine; engine-tests' `tune` test shows that.)
    #[test]
    fn tune_options() {
        use crate::search::params::{Tunable, TUNABLES};
        for d in [Dialect::Usi, Dialect::Uci] {
            let lines = option_lines(d);
            let tail = &lines[lines.len() - TUNABLES.len()..];
            for (t, l) in TUNABLES.iter().zip(tail) {
                assert_eq!(
                    *l,
                    format!(
                        "option name {} type spin default {} min {} max {}",
                        t.name, t.default, t.min, t.max
                    )
                );
            }
        }
        assert!(option_lines(Dialect::Usi)
            .contains(&"option name RFP_MARGIN type spin default 90 min 45 max 180".to_string()));
        assert!(option_lines(Dialect::Usi).contains(
            &"option name LMR_BASE_X100 type spin default 60 min 30 max 120".to_string()
        ));
        match setting("rfp_margin", Some("120")) {
            Ok(Setting::Tune { name, value: 120 }) => assert_eq!(name, "RFP_MARGIN"),
            other => panic!("{other:?}"),
        }
        for (value, ok) in [("45", true), ("180", true), ("44", false), ("181", false)] {
            assert_eq!(setting("RFP_MARGIN", Some(value)).is_ok(), ok, "{value}");
        }
        assert!(matches!(
            setting("RFP_MARGIN", None),
            Err(OptionError::MissingValue("RFP_MARGIN"))
        ));
        assert!(matches!(
            setting("RFP_MARGIN", Some("x")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(Tunable::by_name("NO_SUCH").is_none());
        for t in TUNABLES {
            assert_eq!(t.get(), t.default, "{}", t.name);
        }
    }
}

#[test]
fn errors_name_the_option_as_it_was_sent() {
    for (sent, named) in [
        ("Hash", "Hash"),
        ("usi_hash", "USI_Hash"),
        ("USI_Hash", "USI_Hash"),
    ] {
        let e = setting(sent, Some("abc")).unwrap_err().to_string();
        assert!(e.contains(&format!("for option {named} (")), "{sent}: {e}");
    }
    let e = setting("Hash", None).unwrap_err().to_string();
    assert_eq!(e, "option Hash needs a value");
}
