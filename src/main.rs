//! The `kawari` binary: the USI/UCI engine on stdin/stdout, or a command-line tool
//! (`perft`, `--help`).

use kawari::core::BitWord;
use kawari::perft;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
kawari - a USI and UCI engine for shogi variants

USAGE:
    kawari                      start the engine on stdin/stdout; the first
                                `usi` or `uci` command chooses the protocol
    kawari perft [OPTIONS]      count legal move sequences
    kawari bench [hash] [threads] [depth]
                                fixed-depth search benchmark over every variant
                                (defaults 16 MB, 1 thread, depth 9; with one
                                thread the node count is the engine's signature)
    kawari --help               this text

PERFT OPTIONS:
    --variant <name>    {variants} (default {default})
    --sfen <sfen>       start from this position (default: the variant's start)
    --depth <n>         depth in plies (required)
    --divide            print the count below each root move
    --width <64|128>    force a bitboard width (default: the narrowest that fits)

Logs go to stderr when RUST_LOG is set (e.g. RUST_LOG=debug).
";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            kawari::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some("-h") | Some("--help") | Some("help") => {
            let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
            print!(
                "{}",
                HELP.replace("{variants}", &names.join(", "))
                    .replace("{default}", Variant::default_variant().name())
            );
            ExitCode::SUCCESS
        }
        Some("perft") => match run_perft(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kawari perft: {e}");
                ExitCode::from(2)
            }
        },
        Some("bench") => match run_bench(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kawari bench: {e}");
                ExitCode::from(2)
            }
        },
        Some(other) => {
            eprintln!("kawari: unknown command '{other}' (try --help)");
            ExitCode::from(2)
        }
    }
}

/// `kawari bench`: the engine's bench job, its lines on stdout.
fn run_bench(args: &[String]) -> Result<(), String> {
    use kawari::engine::{Engine, Report, Sink};
    use std::sync::{Arc, Mutex};
    let failed = Arc::new(Mutex::new(None));
    let f = failed.clone();
    let sink: Sink = Arc::new(move |r| match r {
        Report::Bench(line) => {
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        }
        Report::Error(e) => *f.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
        _ => {}
    });
    let mut engine = Engine::new(sink);
    engine.bench(args).map_err(|e| e.to_string())?;
    engine.wait();
    let err = failed.lock().unwrap_or_else(|p| p.into_inner()).take();
    err.map_or(Ok(()), Err)
}

fn run_perft(args: &[String]) -> Result<(), String> {
    let mut variant = Variant::default_variant();
    let mut sfen: Option<String> = None;
    let mut depth: Option<u32> = None;
    let mut divide = false;
    let mut width: Option<Width> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--variant" => {
                let n = value("--variant")?;
                variant = Variant::by_name(&n).ok_or_else(|| format!("unknown variant '{n}'"))?;
            }
            "--sfen" => sfen = Some(value("--sfen")?),
            "--depth" => {
                let d = value("--depth")?;
                depth = Some(d.parse().map_err(|_| format!("bad depth '{d}'"))?);
            }
            "--divide" => divide = true,
            "--width" => {
                let w = value("--width")?;
                width = Some(Width::parse(&w).ok_or_else(|| format!("bad width '{w}'"))?);
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let depth = depth.ok_or("--depth is required")?;
    let width = width.unwrap_or_else(|| Width::for_variant(variant));
    if width == Width::W64 && variant.geometry().squares() > 64 {
        return Err(format!("{} needs --width 128", variant.name()));
    }
    with_width!(width, W => perft_cli::<W>(variant, sfen.as_deref(), depth, divide))
}

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
        for (m, n) in perft::divide(&mut pos, depth) {
            writeln!(out, "{}: {}", m.to_usi(v), n).map_err(|e| e.to_string())?;
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "nodes {nodes}\ntime {secs:.3} s\nnps {:.0}",
        nodes as f64 / secs.max(1e-9)
    )
    .map_err(|e| e.to_string())
}
