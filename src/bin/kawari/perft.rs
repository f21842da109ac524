//! `kawari perft`: move-path counts from the command line.

use crate::flags::each_flag_or_switch;
use kawari::core::BitWord;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::io::Write;
use std::time::Instant;

/// The deepest `--depth` taken: far beyond what finishes, but a bound.
const PERFT_MAX_DEPTH: u64 = 64;

/// `kawari perft`: counts on stdout (with `--divide`, one line per root move).
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut variant = Variant::default_variant();
    let mut sfen: Option<String> = None;
    let mut depth: Option<u32> = None;
    let mut divide = false;
    let mut width: Option<Width> = None;
    each_flag_or_switch(args, &["--divide"], |f| {
        match f.name {
            "--variant" => variant = f.variant()?,
            "--sfen" => sfen = Some(f.value.to_string()),
            "--depth" => depth = Some(f.num(0, PERFT_MAX_DEPTH)? as u32),
            "--divide" => divide = true,
            "--width" => width = Some(f.width()?),
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    let depth = depth.ok_or("--depth is required")?;
    let width = width.unwrap_or_else(|| Width::for_variant(variant));
    if width == Width::W64 && variant.geometry().squares() > 64 {
        return Err(format!("{} needs --width 128", variant.name()));
    }
    with_width!(width, W => perft_cli::<W>(variant, sfen.as_deref(), depth, divide))
}

/// Counts from `sfen` (or the start) to `depth` on a `W`-wide board.
fn perft_cli<W: BitWord>(
    v: &'static Variant,
    sfen: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<(), String> {
    let mut pos = match sfen {
        Some(s) => Position::<W>::from_sfen(v, s).map_err(|e| format!("bad SFEN: {e}"))?,
        None => Position::<W>::startpos(v),
    };
    // Write errors (a closed pipe) end the command quietly instead of panicking.
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in kawari::perft::divide(&mut pos, depth) {
            writeln!(out, "{}: {}", m.to_usi(v), n).map_err(|e| e.to_string())?;
            total += n;
        }
        total
    } else {
        kawari::perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "nodes {nodes}\ntime {secs:.3} s\nnps {:.0}",
        nodes as f64 / secs.max(1e-9)
    )
    .map_err(|e| e.to_string())
}
