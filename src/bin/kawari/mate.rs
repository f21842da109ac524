//! `kawari mate`: the tsume solver from the command line.

use crate::flags::each_flag;
use kawari::core::BitWord;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::io::Write;

/// `kawari mate`: a tsume solved, or a mate within a bound looked for;
/// the answer on stdout, progress every few seconds on stderr.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
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

/// Solves `job` on a `W`-wide board and prints the answer.
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
