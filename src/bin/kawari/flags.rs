//! The tools' `--name value` options, read with typed checks that name
//! the bad option.

use kawari::variant::Variant;
use kawari::width::Width;

/// One `--name value` pair of a tool's options, with typed readers that
/// say which option was bad.
pub(crate) struct Flag<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: &'a str,
}

impl Flag<'_> {
    pub(crate) fn num(&self, lo: u64, hi: u64) -> Result<u64, String> {
        self.in_range(lo, hi)
    }

    pub(crate) fn real(&self, lo: f32, hi: f32) -> Result<f32, String> {
        self.in_range(lo, hi)
    }

    /// The value as a `T` within `lo..=hi`.
    fn in_range<T>(&self, lo: T, hi: T) -> Result<T, String>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        self.value
            .parse::<T>()
            .ok()
            .filter(|x| (lo..=hi).contains(x))
            .ok_or_else(|| self.bad(&format!("{lo}..{hi}")))
    }

    pub(crate) fn boolean(&self) -> Result<bool, String> {
        match self.value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.bad("true or false")),
        }
    }

    pub(crate) fn variant(&self) -> Result<&'static Variant, String> {
        Variant::by_name(self.value).ok_or_else(|| format!("unknown variant '{}'", self.value))
    }

    /// `--width`: 64 or 128 bits a board word.
    pub(crate) fn width(&self) -> Result<Width, String> {
        Width::parse(self.value).ok_or_else(|| self.bad("64 or 128"))
    }

    fn bad(&self, expected: &str) -> String {
        format!("bad {} '{}' (expected {expected})", self.name, self.value)
    }
}

/// Calls `f` on each `--name value` pair of `args`.
pub(crate) fn each_flag(
    args: &[String],
    f: impl FnMut(&Flag) -> Result<(), String>,
) -> Result<(), String> {
    each_flag_or_switch(args, &[], f)
}

/// As `each_flag`, where the names in `switches` take no value (`f` sees
/// them with the value `true`).
pub(crate) fn each_flag_or_switch(
    args: &[String],
    switches: &[&str],
    mut f: impl FnMut(&Flag) -> Result<(), String>,
) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(name) = it.next() {
        let value = if switches.contains(&name.as_str()) {
            "true"
        } else {
            it.next().ok_or_else(|| format!("{name} needs a value"))?
        };
        f(&Flag { name, value })?;
    }
    Ok(())
}
