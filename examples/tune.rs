//! Fits evaluation weights to game results (Texel's method) or, with
//! `--labels`, to search scores of positions (`scripts/label.py`).
//!
//! Reads match records (the JSON lines `scripts/match.py --records` writes),
//! keeps quiet positions (side to move not in check, the move played from it
//! not a capture or promotion), and minimises the mean squared error between
//! each game's result and `sigmoid(K * eval)` by coordinate descent over the
//! weights of one `src/eval/params.rs` table. Prints the weights it moved.
//!
//! ```text
//! cargo run --release --example tune -- --weights heian records1.jsonl records2.jsonl
//! ```
//! Every record whose variant uses the chosen table (all four Heian sizes share
//! one) is used.

use kawari::eval::params::{self, KingWeights, PieceWeights, VariantWeights};
use kawari::eval::{evaluate_with, EvalTables};
use kawari::position::Position;
use kawari::variant::Variant;

/// One training position: the variant's index in `Variant::all()`, the
/// position, and its target for the side to move: the game's result (1, 0.5,
/// 0), or with `--labels` a search score in centipawns.
struct Sample {
    variant: usize,
    pos: Position<u128>,
    target: f64,
}

/// An integer field of a flat JSON object.
fn int_field(line: &str, name: &str) -> Option<i64> {
    let key = format!("\"{name}\": ");
    let start = line.find(&key)? + key.len();
    let rest = &line[start..];
    let len = rest
        .find(|c: char| !(c == '-' || c.is_ascii_digit()))
        .unwrap_or(rest.len());
    rest[..len].parse().ok()
}

/// A string field of a flat JSON object (enough for match records).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("\"{name}\": \"");
    let start = line.find(&key)? + key.len();
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// The `moves` array of a match record.
fn moves(line: &str) -> Vec<&str> {
    let Some(start) = line.find("\"moves\": [").map(|i| i + 10) else {
        return Vec::new();
    };
    let Some(len) = line[start..].find(']') else {
        return Vec::new();
    };
    line[start..start + len]
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect()
}

/// Reads `path`: match records (every quiet position after `skip` plies, the
/// game result as target) or, with `labels`, the lines `scripts/label.py`
/// writes (the last position of each line, its score as target, left out when
/// in check or when the best move captures or promotes).
fn load(path: &str, table: &str, skip: usize, labels: bool, out: &mut Vec<Sample>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("tune: {path}: {e}");
        std::process::exit(2)
    });
    for line in text.lines() {
        let Some(name) = field(line, "variant") else {
            continue;
        };
        // The Heian sizes share one piece table.
        if !std::ptr::eq(
            params::for_variant(name).pieces,
            params::for_variant(table).pieces,
        ) {
            continue;
        }
        let Some(v) = Variant::by_name(name) else {
            continue;
        };
        let vi = Variant::all()
            .iter()
            .position(|x| x.name() == v.name())
            .unwrap();
        let Some(start) = field(line, "start_sfen") else {
            continue;
        };
        let Ok(mut pos) = Position::<u128>::from_sfen(v, start) else {
            continue;
        };
        let ms = moves(line);
        if labels {
            let Some(score) = int_field(line, "score") else {
                continue;
            };
            if ms.iter().any(|s| match pos.parse_move(s) {
                Ok(m) => {
                    pos.do_move(m);
                    false
                }
                Err(_) => true,
            }) {
                continue;
            }
            let tactical = field(line, "bestmove")
                .and_then(|b| pos.parse_move(b).ok())
                .is_some_and(|m| m.is_promotion() || pos.piece_at(m.to()).is_some());
            if !tactical && !pos.in_check() {
                pos.clear_history();
                out.push(Sample {
                    variant: vi,
                    pos,
                    target: score as f64,
                });
            }
            continue;
        }
        let black = match field(line, "result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        for (i, s) in ms.iter().enumerate() {
            let Ok(m) = pos.parse_move(s) else {
                break;
            };
            let quiet = !m.is_promotion() && !pos.piece_at(m.to()).is_some();
            if i >= skip && quiet && !pos.in_check() {
                let mut p = pos.clone();
                p.clear_history();
                let result = if pos.side_to_move().index() == 0 {
                    black
                } else {
                    1.0 - black
                };
                out.push(Sample {
                    variant: vi,
                    pos: p,
                    target: result,
                });
            }
            pos.do_move(m);
        }
    }
}

/// The weights of one table, owned so they can be changed.
#[derive(Clone)]
struct Owned {
    pieces: Vec<PieceWeights>,
    king: KingWeights,
    scalars: [i32; 6],
}

impl Owned {
    fn from(w: &VariantWeights) -> Owned {
        Owned {
            pieces: w.pieces.to_vec(),
            king: w.king,
            scalars: [
                w.tempo,
                w.zone_control,
                w.few_pieces,
                w.mop_up,
                w.hanging,
                w.pawn_threat,
            ],
        }
    }

    fn weights<'a>(&'a self, name: &'a str) -> VariantWeights<'a> {
        let [tempo, zone_control, few_pieces, mop_up, hanging, pawn_threat] = self.scalars;
        VariantWeights {
            variant: name,
            pieces: &self.pieces,
            king: self.king,
            tempo,
            zone_control,
            few_pieces,
            mop_up,
            hanging,
            pawn_threat,
        }
    }

    /// Every tunable weight with its name. `drops` says whether hand weights matter.
    fn params(&mut self, drops: bool) -> Vec<(String, &mut i32)> {
        let mut out: Vec<(String, &mut i32)> = Vec::new();
        for p in self.pieces.iter_mut() {
            let n = format!("{}{}", if p.promoted { "+" } else { "" }, p.letter);
            for (i, r) in p.rank.iter_mut().enumerate() {
                out.push((format!("{n}.rank{i}"), r));
            }
            for (i, f) in p.file.iter_mut().enumerate() {
                out.push((format!("{n}.file{i}"), f));
            }
            if p.letter == 'K' {
                continue;
            }
            out.push((format!("{n}.board"), &mut p.board));
            if drops && !p.promoted {
                out.push((format!("{n}.hand"), &mut p.hand));
                out.push((format!("{n}.hand_threat"), &mut p.hand_threat));
            }
            out.push((format!("{n}.mobility"), &mut p.mobility));
            out.push((format!("{n}.advance"), &mut p.advance));
            out.push((format!("{n}.in_zone"), &mut p.in_zone));
            out.push((format!("{n}.king_attack"), &mut p.king_attack));
            out.push((format!("{n}.defend"), &mut p.defend));
        }
        let k = &mut self.king;
        out.push(("king.weak_square".into(), &mut k.weak_square));
        if drops {
            out.push(("king.drop_square".into(), &mut k.drop_square));
        }
        out.push(("king.open_line".into(), &mut k.open_line));
        out.push(("king.defender".into(), &mut k.defender));
        out.push(("king.linear".into(), &mut k.linear));
        out.push(("king.quadratic".into(), &mut k.quadratic));
        out.push(("king.cap".into(), &mut k.cap));
        out.push(("king.home_rank".into(), &mut k.home_rank));
        out.push(("king.side_file".into(), &mut k.side_file));
        out.push(("king.outer_ring".into(), &mut k.outer_ring));
        out.push(("king.safe_check".into(), &mut k.safe_check));
        let names = [
            "tempo",
            "zone_control",
            "few_pieces",
            "mop_up",
            "hanging",
            "pawn_threat",
        ];
        for (n, s) in names.iter().zip(self.scalars.iter_mut()) {
            out.push((n.to_string(), s));
        }
        out
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions with scale `k` (per centipawn). With
/// labels the target is `sigmoid(k * scale * score)`.
fn loss(samples: &[Sample], w: &Owned, name: &str, k: f64, labels: Option<f64>) -> f64 {
    let vw = w.weights(name);
    let tables: Vec<EvalTables> = Variant::all()
        .iter()
        .map(|v| EvalTables::from_weights(v, &vw))
        .collect();
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = evaluate_with(&tables[s.variant], &s.pos) as f64;
            let target = match labels {
                Some(scale) => sigmoid(k * scale * s.target),
                None => s.target,
            };
            let d = target - sigmoid(k * e);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut table = "heian".to_string();
    let mut files = Vec::new();
    let mut passes = 6;
    let mut skip = 16;
    let mut only: Vec<String> = Vec::new();
    let mut labels = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--weights" => table = it.next().expect("--weights NAME").clone(),
            "--passes" => passes = it.next().and_then(|s| s.parse().ok()).expect("--passes N"),
            "--skip" => {
                skip = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--skip PLIES")
            }
            "--labels" => labels = true,
            "--only" => {
                let list = it.next().expect("--only NAME,NAME");
                only = list.split(',').map(str::to_string).collect();
            }
            "-h" | "--help" => {
                println!(
                    "usage: tune [--weights VARIANT] [--passes N] [--skip PLIES] \
                     [--only PART,...] [--labels] FILE.jsonl...\n\
                     \x20 --weights  the table to fit (default heian)\n\
                     \x20 --passes   coordinate-descent passes (default 6)\n\
                     \x20 --skip     opening plies left out of each game (default 16)\n\
                     \x20 --only     fit only weights whose name contains a part\n\
                     \x20 --labels   the files are scored positions (scripts/label.py):\n\
                     \x20            fit the evaluation to the scores, not to results"
                );
                return;
            }
            f => files.push(f.to_string()),
        }
    }
    let mut samples = Vec::new();
    for f in &files {
        load(f, &table, skip, labels, &mut samples);
    }
    // Every eighth run of 32 positions (mostly one game) is held out to show
    // whether the fit generalises.
    let mut held = Vec::new();
    let mut train = Vec::new();
    for (i, s) in samples.into_iter().enumerate() {
        if (i / 32) % 8 == 7 {
            held.push(s);
        } else {
            train.push(s);
        }
    }
    let samples = train;
    eprintln!("{} positions, {} held out", samples.len(), held.len());
    if samples.is_empty() || held.is_empty() {
        return;
    }
    let base = params::for_variant(&table);
    let drops = Variant::by_name(&table).is_some_and(|v| v.hand_kinds > 0);
    let mut w = Owned::from(base);

    // The scale: a golden-section search, with the starting weights, of K
    // (results) or of the factor from label centipawns to ours (labels, with
    // K fixed at one "winning chance" unit per 250 cp).
    let fit = |f: &dyn Fn(f64) -> f64, mut lo: f64, mut hi: f64| {
        for _ in 0..30 {
            let m1 = lo + (hi - lo) * 0.382;
            let m2 = lo + (hi - lo) * 0.618;
            if f(m1) < f(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        (lo + hi) / 2.0
    };
    let (k, scale) = if labels {
        let k = 1.0 / 250.0;
        let scale = fit(&|s| loss(&samples, &w, &table, k, Some(s)), 0.2, 5.0);
        (k, Some(scale))
    } else {
        (
            fit(&|k| loss(&samples, &w, &table, k, None), 0.0005, 0.02),
            None,
        )
    };
    let mut best = loss(&samples, &w, &table, k, scale);
    eprintln!(
        "K = {k:.5}, label scale {:.3}, loss {best:.6}, held out {:.6}",
        scale.unwrap_or(0.0),
        loss(&held, &w, &table, k, scale)
    );

    let count = w.params(drops).len();
    for pass in 0..passes {
        let mut improved = 0;
        for i in 0..count {
            let name = w.params(drops)[i].0.clone();
            if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
                continue;
            }
            // Rule knowledge a search score cannot teach a static evaluation
            // (the bare-king danger) stays as written.
            if labels && (name == "few_pieces" || name == "mop_up") {
                continue;
            }
            let floor = if never_negative(&name) { 0 } else { i32::MIN };
            let cur = *w.params(drops)[i].1;
            let step = (cur.abs() / 16).max(2);
            for dir in [1, -1] {
                // A short line search: keep going, doubling the step, while
                // the loss falls.
                let mut moved = false;
                let mut at = cur;
                let mut s = step;
                for _ in 0..6 {
                    if at + dir * s < floor {
                        break;
                    }
                    let mut t = w.clone();
                    *t.params(drops)[i].1 = at + dir * s;
                    let l = loss(&samples, &t, &table, k, scale);
                    if l >= best {
                        break;
                    }
                    best = l;
                    w = t;
                    at += dir * s;
                    s *= 2;
                    moved = true;
                }
                if moved {
                    improved += 1;
                    break;
                }
            }
        }
        eprintln!(
            "pass {pass}: loss {best:.6}, held out {:.6}, {improved} weights moved",
            loss(&held, &w, &table, k, scale)
        );
        // The weights so far, so a long fit can be stopped at any pass.
        println!("# after pass {pass}");
        print_changes(&mut w, base, drops);
        if improved == 0 {
            break;
        }
    }
}

/// Weights whose sign is part of their meaning (danger units, counts of
/// attacks and defenders, penalties): a fit may not turn them around.
fn never_negative(name: &str) -> bool {
    let part = name.rsplit('.').next().unwrap_or(name);
    matches!(
        part,
        "mobility"
            | "king_attack"
            | "hand_threat"
            | "defend"
            | "weak_square"
            | "drop_square"
            | "open_line"
            | "defender"
            | "linear"
            | "quadratic"
            | "cap"
            | "outer_ring"
            | "safe_check"
            | "hanging"
            | "pawn_threat"
            | "few_pieces"
            | "mop_up"
            | "zone_control"
    )
}

/// Prints every weight of `w` that differs from `base`.
fn print_changes(w: &mut Owned, base: &VariantWeights, drops: bool) {
    let mut start = Owned::from(base);
    let before = start.params(drops);
    for ((name, v), (_, b)) in w.params(drops).into_iter().zip(before) {
        if *v != *b {
            println!("{name}: {} -> {}", *b, *v);
        }
    }
}
