//! The tune build's options (cargo feature `tune`): the search's tunables
//! as spins named after their constants, for `scripts/spsa.py`. The normal
//! build lists none.

#[cfg(feature = "tune")]
use super::options::OptionError;
#[cfg(feature = "tune")]
use crate::engine::Setting;

/// A tune build's search tunables, as spins under their constants' names
/// (both dialects).
#[cfg(feature = "tune")]
pub(super) fn lines() -> impl Iterator<Item = String> {
    crate::search::params::TUNABLES.iter().map(|t| {
        format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        )
    })
}

/// The normal build has no tune options.
#[cfg(not(feature = "tune"))]
pub(super) fn lines() -> std::iter::Empty<String> {
    std::iter::empty()
}

/// `setoption` of a search tunable (tune build), if `name` is one.
#[cfg(feature = "tune")]
pub(super) fn setting(name: &str, value: Option<&str>) -> Option<Result<Setting, OptionError>> {
    let t = crate::search::params::Tunable::by_name(name)?;
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    Some(match value {
        None => Err(OptionError::MissingValue(t.name)),
        Some(v) => v
            .parse::<i32>()
            .ok()
            .filter(|n| (t.min..=t.max).contains(n))
            .map(|n| Setting::Tune(t, n))
            .ok_or_else(|| OptionError::BadValue {
                name: t.name,
                value: v.to_string(),
                expected: format!("an integer from {} to {}", t.min, t.max),
            }),
    })
}

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::super::options::{option_lines, setting, OptionError};
    use super::super::Dialect;
    use crate::engine::Setting;

    /// A tune build lists every tunable in both dialects, after the usual
    /// options, and maps `setoption` onto it within its range. (The value
    /// itself is set by the engine; engine-tests' `tune` test shows that.)
    #[test]
    fn tune_options() {
        use crate::search::params::{Tunable, RFP_MARGIN, TUNABLES};
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
            Ok(Setting::Tune(t, 120)) => assert!(std::ptr::eq(t, &RFP_MARGIN)),
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
