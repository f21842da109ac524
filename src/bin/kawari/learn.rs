//! `kawari datagen`, `kawari train` and `kawari features`: the learning
//! tools' options, read into `kawari::learn`'s configurations.

use crate::flags::each_flag;
use kawari::variant::Variant;
use std::time::Instant;

/// `kawari datagen`: self-play data; progress on stderr.
pub(crate) fn run_datagen(args: &[String]) -> Result<(), String> {
    use kawari::learn::datagen::{run_with, Config, Shortcuts};
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
    let mut sc = Shortcuts {
        check_nodes: None,
        // The records were the same as with games played out (docs/tools.md).
        adjudicate_mates: true,
    };
    let mut games = None;
    let mut book = None;
    each_flag(args, |f| {
        match f.name {
            "--variant" => cfg.variant = f.variant()?,
            "--games" => games = Some(f.num(1, u32::MAX as u64 - 1)? as u32),
            "--out" => cfg.out = f.value.into(),
            "--nodes" => cfg.nodes = f.num(1, u64::MAX)?,
            "--check-nodes" => sc.check_nodes = Some(f.num(1, u64::MAX)?),
            "--adjudicate-mates" => sc.adjudicate_mates = f.boolean()?,
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
    let s = run_with(&cfg, &sc, &mut |line| {
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
    eprintln!(
        "searched {} positions ({} in check), {} nodes",
        s.searches, s.check_searches, s.nodes
    );
    Ok(())
}

/// `kawari train`: fits a network; progress on stderr, the report on stdout.
pub(crate) fn run_train(args: &[String]) -> Result<(), String> {
    use kawari::learn::train::{run, Config};
    let mut cfg = Config::default();
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
            "--patience" => cfg.patience = f.num(0, 10_000)? as u32,
            "--bucket-decay" => cfg.bucket_decay = f.real(0.0, 500.0)?,
            "--symmetric-factor" => cfg.symmetric_factor = f.boolean()?,
            "--output-k" => cfg.output_k = Some(f.real(30.0, 3000.0)?),
            "--features" => {
                cfg.features = kawari::nnue::FeatureSet::by_name(f.value).ok_or_else(|| {
                    format!("unknown feature set '{}' (psq or king-buckets)", f.value)
                })?
            }
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
        "{}: {} inputs ({}), {} hidden; {} training and {} held-out positions; K {:.0}, the network's {:.0}",
        cfg.variant.name(),
        net.inputs(),
        net.feature_set().name(),
        net.hidden(),
        r.train_positions,
        r.holdout_positions,
        r.k,
        r.output_k
    );
    println!(
        "held-out loss: {:.6} (float, epoch {} kept), {:.6} (quantized); the search scores themselves: {:.6}",
        r.holdout_loss.get(r.best_epoch.wrapping_sub(1)).copied().unwrap_or(f64::NAN),
        r.best_epoch,
        r.holdout_loss_quantized,
        r.holdout_loss_of_scores
    );
    println!("wrote {}", out.display());
    Ok(())
}

/// `kawari features`: the trainer's samples written for another trainer
/// (`kawari-train-torch`); progress on stderr, the summary on stdout.
pub(crate) fn run_features(args: &[String]) -> Result<(), String> {
    use kawari::learn::export::{run, Source};
    use kawari::learn::train::Config;
    // One thread: the export reads the files once.
    let mut cfg = Config {
        threads: 1,
        ..Config::default()
    };
    let (mut out, mut sfens) = (None, None);
    each_flag(args, |f| {
        match f.name {
            "--variant" => cfg.variant = f.variant()?,
            "--data" => cfg.data.push(f.value.into()),
            "--sfens" => sfens = Some(std::path::PathBuf::from(f.value)),
            "--out" => out = Some(std::path::PathBuf::from(f.value)),
            "--holdout" => cfg.holdout = f.num(0, u32::MAX as u64)? as u32,
            "--max-positions" => cfg.max_positions = f.num(0, u64::MAX)? as usize,
            "--mirror" => cfg.mirror = f.boolean()?,
            "--features" => {
                cfg.features = kawari::nnue::FeatureSet::by_name(f.value).ok_or_else(|| {
                    format!("unknown feature set '{}' (psq or king-buckets)", f.value)
                })?
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    let out = out.ok_or("--out is required")?;
    let source = match sfens {
        Some(_) if !cfg.data.is_empty() => return Err("give --data or --sfens, not both".into()),
        Some(path) => Source::Sfens {
            variant: cfg.variant,
            features: cfg.features,
            path,
        },
        None if cfg.data.is_empty() => return Err("--data or --sfens is required".into()),
        None => Source::Records(cfg.clone()),
    };
    let s = run(&source, &out, &mut |line| eprintln!("{line}")).map_err(|e| e.to_string())?;
    println!(
        "{}: {} inputs ({}); {} training and {} held-out positions; K {:.0}",
        cfg.variant.name(),
        s.inputs,
        cfg.features.name(),
        s.train_positions,
        s.holdout_positions,
        s.k
    );
    println!("wrote {}", out.display());
    Ok(())
}
