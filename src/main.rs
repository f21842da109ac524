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
    kawari datagen [OPTIONS]    self-play training data (positions, scores,
                                results; format in src/learn/record.rs)
    kawari train [OPTIONS]      fit a network (NNUE) to datagen files
    kawari mate [OPTIONS]       solve a tsume (as `go mate`), or say whether a
                                mate within N plies exists
    kawari --help               this text

PERFT OPTIONS:
    --variant <name>    {variants} (default {default})
    --sfen <sfen>       start from this position (default: the variant's start)
    --depth <n>         depth in plies (required)
    --divide            print the count below each root move
    --width <64|128>    force a bitboard width (default: the narrowest that fits)

DATAGEN OPTIONS:
    --variant <name>    the variant (default {default})
    --games <n>         games the file should hold when done (required; a file
                        that has games already is resumed after them)
    --out <file>        output file, appended to (required)
    --nodes <n>         nodes per move (default 5000)
    --random-plies <n>  random plies before the searches play (default 8)
    --max-plies <n>     a longer game is a draw (default 400)
    --seed <n>          game i is played from seed + i (default 1)
    --book <file>       start positions, one SFEN a line ('#' comments), e.g.
                        openings/<variant>.txt: game i starts from line
                        (seed + i) mod lines, then plays its random plies
    --threads <n>       playing threads (default: the CPUs there are)
    --hash <MB>         hash table per thread (default 16)
    --eval-file <file>  play with this network (default: the built-in one)
    --hand-made true    play with the hand-made evaluation

TRAIN OPTIONS:
    --variant <name>    the variant (default {default})
    --data <file>       a datagen file (required; repeat for more)
    --out <file>        the network file to write (required)
    --hidden <n>        hidden units per perspective, a multiple of 16 (default 128)
    --epochs <n>        passes over the data (default 4)
    --batch <n>         positions per step (default 1024)
    --lr <x>            Adam's learning rate (default 0.001)
    --lambda <x>        weight of the search score against the game result
                        in the target, 0..1 (default 0.75)
    --holdout <n>       games whose index is a multiple of n are held out
                        for the reported loss (default 20)
    --max-positions <n> read at most this many positions (default: all)
    --mirror <bool>     also train on each position with its files mirrored,
                        where the variant's moves are symmetric (default true)
    --seed <n>          initial weights and shuffles (default 1)
    --threads <n>       (default: the CPUs there are)

MATE OPTIONS:
    --variant <name>    the variant (default {default})
    --sfen <sfen>       the problem, the attacker to move (required)
    --moves <moves>     USI moves played from it first, space-separated
    --within <n>        only whether a mate within n plies exists, every ply
                        counted (interpositions too): `--within 39` on a
                        41-ply mate checks that no shorter mate exists;
                        the line shown is one mate within the bound, its
                        defences not all checked to be the longest
    --hash <MB>         the solver's table (default 1024)
    --time <s>          give up after this many seconds (default: none)

Logs go to stderr when RUST_LOG is set (e.g. RUST_LOG=debug).
";

/// The command-line tools, by their first argument.
type Tool = fn(&[String]) -> Result<(), String>;
const TOOLS: &[(&str, Tool)] = &[
    ("perft", run_perft),
    ("datagen", run_datagen),
    ("train", run_train),
    ("bench", run_bench),
    ("mate", run_mate),
];

/// One `--name value` pair of a tool's options, with typed readers that
/// say which option was bad.
struct Flag<'a> {
    name: &'a str,
    value: &'a str,
}

impl Flag<'_> {
    fn num(&self, lo: u64, hi: u64) -> Result<u64, String> {
        self.in_range(lo, hi)
    }

    fn real(&self, lo: f32, hi: f32) -> Result<f32, String> {
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

    fn boolean(&self) -> Result<bool, String> {
        match self.value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.bad("true or false")),
        }
    }

    fn variant(&self) -> Result<&'static Variant, String> {
        Variant::by_name(self.value).ok_or_else(|| format!("unknown variant '{}'", self.value))
    }

    fn bad(&self, expected: &str) -> String {
        format!("bad {} '{}' (expected {expected})", self.name, self.value)
    }
}

/// Calls `f` on each `--name value` pair of `args`.
fn each_flag(
    args: &[String],
    mut f: impl FnMut(&Flag) -> Result<(), String>,
) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(name) = it.next() {
        let value = it.next().ok_or_else(|| format!("{name} needs a value"))?;
        f(&Flag { name, value })?;
    }
    Ok(())
}

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
        Some("-h") | Some("--help") | Some("help") => print_help(),
        // `kawari datagen --help` and the like: the one help text.
        Some(cmd)
            if TOOLS.iter().any(|(name, _)| *name == cmd)
                && args[1..].iter().any(|a| a == "--help" || a == "-h") =>
        {
            print_help()
        }
        Some(cmd) => match TOOLS.iter().find(|(name, _)| *name == cmd) {
            Some((_, tool)) => match tool(&args[1..]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("kawari {cmd}: {e}");
                    ExitCode::from(2)
                }
            },
            None => {
                eprintln!("kawari: unknown command '{cmd}' (try --help)");
                ExitCode::from(2)
            }
        },
    }
}

/// Prints the help text (tools, options, variants) on stdout.
fn print_help() -> ExitCode {
    let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
    print!(
        "{}",
        HELP.replace("{variants}", &names.join(", "))
            .replace("{default}", Variant::default_variant().name())
    );
    ExitCode::SUCCESS
}

/// `kawari datagen`: self-play data; progress on stderr.
fn run_datagen(args: &[String]) -> Result<(), String> {
    use kawari::learn::datagen::{run, Config};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cfg = Config {
        variant: Variant::default_variant(),
        games: 0,
        nodes: 5000,
        random_plies: 8,
        max_plies: 400,
        seed: 1,
        threads,
        hash_mb: 16,
        out: std::path::PathBuf::new(),
        eval: kawari::nnue::EvalChoice::Default,
        book: Vec::new(),
    };
    let mut games = None;
    let mut book = None;
    each_flag(args, |f| {
        match f.name {
            "--variant" => cfg.variant = f.variant()?,
            "--games" => games = Some(f.num(1, u32::MAX as u64 - 1)? as u32),
            "--out" => cfg.out = f.value.into(),
            "--nodes" => cfg.nodes = f.num(1, u64::MAX)?,
            "--random-plies" => cfg.random_plies = f.num(0, 1000)? as u32,
            "--max-plies" => cfg.max_plies = f.num(1, 100_000)? as u32,
            "--seed" => cfg.seed = f.num(0, u64::MAX)?,
            "--book" => book = Some(std::path::PathBuf::from(f.value)),
            "--threads" => cfg.threads = f.num(1, 1024)? as usize,
            "--hash" => cfg.hash_mb = f.num(1, 65536)? as usize,
            "--eval-file" => {
                let net = kawari::nnue::load_file(std::path::Path::new(f.value))
                    .map_err(|e| e.to_string())?;
                cfg.eval = kawari::nnue::EvalChoice::Network(net);
            }
            "--hand-made" => {
                cfg.eval = if f.boolean()? {
                    kawari::nnue::EvalChoice::HandMade
                } else {
                    kawari::nnue::EvalChoice::Default
                }
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    cfg.games = games.ok_or("--games is required")?;
    // Read after the loop: --variant may come after --book.
    if let Some(path) = book {
        cfg.book =
            kawari::learn::datagen::read_book(&path, cfg.variant).map_err(|e| e.to_string())?;
    }
    if cfg.out.as_os_str().is_empty() {
        return Err("--out is required".into());
    }
    let mut last = Instant::now();
    let s = run(&cfg, &mut |line| {
        if last.elapsed().as_secs() >= 5 {
            eprintln!("{line}");
            last = Instant::now();
        }
    })
    .map_err(|e| e.to_string())?;
    eprintln!(
        "{} games, {} positions written to {} (resumed after {} games)",
        s.games,
        s.positions,
        cfg.out.display(),
        s.resumed_after
    );
    Ok(())
}

/// `kawari train`: fits a network; progress on stderr, the report on stdout.
fn run_train(args: &[String]) -> Result<(), String> {
    use kawari::learn::train::{run, Config};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cfg = Config {
        variant: Variant::default_variant(),
        data: Vec::new(),
        hidden: 128,
        epochs: 4,
        batch: 1024,
        lr: 0.001,
        lambda: 0.75,
        seed: 1,
        threads,
        holdout: 20,
        max_positions: 0,
        mirror: true,
    };
    let mut out = None;
    each_flag(args, |f| {
        match f.name {
            "--variant" => cfg.variant = f.variant()?,
            "--data" => cfg.data.push(f.value.into()),
            "--out" => out = Some(std::path::PathBuf::from(f.value)),
            "--hidden" => cfg.hidden = f.num(16, 2048)? as usize,
            "--epochs" => cfg.epochs = f.num(1, 10_000)? as u32,
            "--batch" => cfg.batch = f.num(1, 1 << 24)? as usize,
            "--lr" => cfg.lr = f.real(1e-7, 1.0)?,
            "--lambda" => cfg.lambda = f.real(0.0, 1.0)?,
            "--holdout" => cfg.holdout = f.num(0, u32::MAX as u64)? as u32,
            "--max-positions" => cfg.max_positions = f.num(0, u64::MAX)? as usize,
            "--mirror" => cfg.mirror = f.boolean()?,
            "--seed" => cfg.seed = f.num(0, u64::MAX)?,
            "--threads" => cfg.threads = f.num(1, 1024)? as usize,
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    if cfg.data.is_empty() {
        return Err("--data is required".into());
    }
    let out = out.ok_or("--out is required")?;
    let (net, r) = run(&cfg, &mut |line| eprintln!("{line}")).map_err(|e| e.to_string())?;
    std::fs::write(&out, net.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{}: {} inputs, {} hidden; {} training and {} held-out positions; K {:.0}",
        cfg.variant.name(),
        net.inputs(),
        net.hidden(),
        r.train_positions,
        r.holdout_positions,
        r.k
    );
    println!(
        "held-out loss: {:.6} (float), {:.6} (quantized); the search scores themselves: {:.6}",
        r.holdout_loss.last().copied().unwrap_or(f64::NAN),
        r.holdout_loss_quantized,
        r.holdout_loss_of_scores
    );
    println!("wrote {}", out.display());
    Ok(())
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

/// `kawari mate`: a tsume solved, or a mate within a bound looked for;
/// the answer on stdout, progress every few seconds on stderr.
fn run_mate(args: &[String]) -> Result<(), String> {
    let mut variant = Variant::default_variant();
    let mut sfen = None;
    let mut moves = Vec::new();
    let mut within = None;
    let mut hash_mb = 1024;
    let mut time = None;
    each_flag(args, |f| {
        match f.name {
            "--variant" => variant = f.variant()?,
            "--sfen" => sfen = Some(f.value.to_string()),
            "--moves" => moves = f.value.split_whitespace().map(str::to_string).collect(),
            "--within" => within = Some(f.num(1, kawari::mate::MAX_MATE_PLY as u64)? as u16),
            "--hash" => hash_mb = f.num(1, 1 << 20)? as usize,
            "--time" => time = Some(std::time::Duration::from_secs(f.num(1, 1 << 32)?)),
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    let sfen = sfen.ok_or("--sfen is required")?;
    let job = MateJob {
        variant,
        sfen: &sfen,
        moves: &moves,
        within,
        hash_mb,
        time,
    };
    with_width!(Width::for_variant(variant), W => mate_cli::<W>(&job))
}

/// What `kawari mate` was asked.
struct MateJob<'a> {
    variant: &'static Variant,
    sfen: &'a str,
    moves: &'a [String],
    within: Option<u16>,
    hash_mb: usize,
    time: Option<std::time::Duration>,
}

/// How often `kawari mate` reports progress on stderr.
const MATE_PROGRESS_SECS: u64 = 5;

fn mate_cli<W: BitWord>(job: &MateJob) -> Result<(), String> {
    use kawari::mate::{MateAnswer, MateProgress, Shortness, WithinAnswer};
    let v = job.variant;
    let mut pos = Position::<W>::from_sfen(v, job.sfen).map_err(|e| format!("bad SFEN: {e}"))?;
    for m in job.moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("bad move '{m}': {e}"))?;
        pos.do_move(mv);
    }
    let mut last = 0;
    let mut end = None;
    let mut progress = |p: MateProgress| {
        if p.time_ms / 1000 >= last + MATE_PROGRESS_SECS {
            last = p.time_ms / 1000;
            eprintln!(
                "{} s: {} nodes, {} nodes/s, table {:.1}% full",
                last,
                p.nodes,
                p.nodes * 1000 / p.time_ms.max(1),
                p.hashfull as f64 / 10.0
            );
        }
        end = Some(p);
    };
    let no_memory = |_| format!("no memory for a {} MB table", job.hash_mb);
    let line = |moves: &[kawari::position::Move]| {
        let usi: Vec<String> = moves.iter().map(|m| m.to_usi(v)).collect();
        format!("line {}", usi.join(" "))
    };
    let mut out = Vec::new();
    match job.within {
        Some(plies) => {
            let answer = kawari::mate::mate_within(
                &pos,
                job.hash_mb,
                plies,
                job.time,
                &|| false,
                &mut progress,
            )
            .map_err(no_memory)?;
            match answer {
                WithinAnswer::Mate(len, moves) => {
                    out.push(format!(
                        "mate within {plies}: yes, a mate of at most {} proven",
                        plies_text(len as usize)
                    ));
                    out.push(
                        moves.map_or("line not read (the table lost the proof)".into(), |m| {
                            line(&m)
                        }),
                    );
                }
                WithinAnswer::NoMate => out.push(format!("mate within {plies}: no")),
                WithinAnswer::Timeout => {
                    out.push(format!("mate within {plies}: unknown (time ran out)"))
                }
            }
        }
        None => {
            let answer = kawari::mate::solve(&pos, job.hash_mb, job.time, &|| false, &mut progress)
                .map_err(no_memory)?;
            match answer {
                MateAnswer::Mate(moves, shortness) => {
                    out.push(match shortness {
                        Shortness::Proven => {
                            format!("mate {}, proven the shortest", plies_text(moves.len()))
                        }
                        Shortness::Bounded { bound, defences } => format!(
                            "mate {}; a mate within {bound} proven, a shorter one not ruled out{}",
                            plies_text(moves.len()),
                            if defences {
                                ""
                            } else {
                                "; not every defence on the line shown the longest"
                            }
                        ),
                    });
                    out.push(line(&moves));
                }
                MateAnswer::NoMate => out.push("nomate".into()),
                MateAnswer::Timeout => out.push("unknown (time ran out)".into()),
            }
        }
    }
    if let Some(p) = end {
        out.push(format!(
            "nodes {} time {:.3} s nps {}",
            p.nodes,
            p.time_ms as f64 / 1000.0,
            p.nodes * 1000 / p.time_ms.max(1)
        ));
    }
    let mut stdout = std::io::stdout().lock();
    for l in out {
        writeln!(stdout, "{l}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// "1 ply", "3 plies".
fn plies_text(n: usize) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
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
