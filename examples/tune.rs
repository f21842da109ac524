//! Fits evaluation weights to game results (Texel's method).
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

use kawari::engine::parse_move;
use kawari::eval::params::{self, KingWeights, PieceWeights, VariantWeights};
use kawari::eval::{evaluate_with, EvalTables};
use kawari::position::Position;
use kawari::variant::Variant;

/// One training position: the variant's index in `Variant::all()`, the
/// position, and the result for the side to move (1, 0.5, 0).
struct Sample {
    variant: usize,
    pos: Position<u128>,
    result: f64,
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

fn load(path: &str, table: &str, skip: usize, out: &mut Vec<Sample>) {
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
        let black = match field(line, "result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let Some(start) = field(line, "start_sfen") else {
            continue;
        };
        let Ok(mut pos) = Position::<u128>::from_sfen(v, start) else {
            continue;
        };
        let ms = moves(line);
        for (i, s) in ms.iter().enumerate() {
            let Ok(m) = parse_move(&pos, s) else {
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
                    result,
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

/// Mean squared error of the predictions with scale `k` (per centipawn).
fn loss(samples: &[Sample], w: &Owned, name: &str, k: f64) -> f64 {
    let vw = w.weights(name);
    let tables: Vec<EvalTables> = Variant::all()
        .iter()
        .map(|v| EvalTables::from_weights(v, &vw))
        .collect();
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = evaluate_with(&tables[s.variant], &s.pos) as f64;
            let d = s.result - sigmoid(k * e);
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
            "--only" => {
                let list = it.next().expect("--only NAME,NAME");
                only = list.split(',').map(str::to_string).collect();
            }
            "-h" | "--help" => {
                println!(
                    "usage: tune [--weights VARIANT] [--passes N] [--skip PLIES] \
                     [--only PART,...] RECORDS.jsonl...\n\
                     \x20 --weights  the table to fit (default heian)\n\
                     \x20 --passes   coordinate-descent passes (default 6)\n\
                     \x20 --skip     opening plies left out of each game (default 16)\n\
                     \x20 --only     fit only weights whose name contains a part"
                );
                return;
            }
            f => files.push(f.to_string()),
        }
    }
    let mut samples = Vec::new();
    for f in &files {
        load(f, &table, skip, &mut samples);
    }
    eprintln!("{} positions", samples.len());
    if samples.is_empty() {
        return;
    }
    let base = params::for_variant(&table);
    let drops = Variant::by_name(&table).is_some_and(|v| v.hand_kinds > 0);
    let mut w = Owned::from(base);

    // The scale: a golden-section search of K with the starting weights.
    let (mut lo, mut hi) = (0.0005f64, 0.02f64);
    for _ in 0..30 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if loss(&samples, &w, &table, m1) < loss(&samples, &w, &table, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let k = (lo + hi) / 2.0;
    let mut best = loss(&samples, &w, &table, k);
    eprintln!("K = {k:.5}, loss {best:.6}");

    let count = w.params(drops).len();
    for pass in 0..passes {
        let mut improved = 0;
        for i in 0..count {
            let name = w.params(drops)[i].0.clone();
            if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
                continue;
            }
            let cur = *w.params(drops)[i].1;
            let step = (cur.abs() / 16).max(1);
            for dir in [1, -1] {
                let mut t = w.clone();
                *t.params(drops)[i].1 = cur + dir * step;
                let l = loss(&samples, &t, &table, k);
                if l < best {
                    best = l;
                    w = t;
                    improved += 1;
                    break;
                }
            }
        }
        eprintln!("pass {pass}: loss {best:.6}, {improved} weights moved");
        if improved == 0 {
            break;
        }
    }
    let mut start = Owned::from(base);
    let before = start.params(drops);
    for ((name, v), (_, b)) in w.params(drops).into_iter().zip(before) {
        if *v != *b {
            println!("{name}: {} -> {}", *b, *v);
        }
    }
}
