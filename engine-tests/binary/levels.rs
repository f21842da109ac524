//! Playing levels through the binary (UCI, Fairy-Stockfish's option names):
//! a low level plays legal moves that vary from game to game, full strength
//! repeats itself, and weakening never touches `go mate`, `go perft` or the
//! lines MultiPV reports. And a session as a Fairy-Stockfish site worker
//! drives one, with every option such tools send, is clean.

use crate::common::{data_path, UsiProcess};
use kawari::core::BitWord;
use kawari::position::{Notation, Position};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::collections::BTreeSet;
use std::time::Duration;

const SECS: Duration = Duration::from_secs(20);

/// A UCI session playing `variant` at `skill`.
fn session(variant: &str, skill: i32) -> UsiProcess {
    let mut e = UsiProcess::start();
    e.send("uci");
    e.until(SECS, |l| l == "uciok");
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send(&format!("setoption name Skill Level value {skill}"));
    e
}

/// The moves a session answers to `go` from the start, a fresh game each.
fn first_moves(e: &mut UsiProcess, go: &str, games: usize) -> Vec<String> {
    (0..games)
        .map(|_| {
            e.send("ucinewgame");
            e.send("position startpos");
            e.send(go);
            e.bestmove(SECS)
        })
        .collect()
}

fn legal_at_start<W: BitWord>(v: &'static Variant, mv: &str) -> bool {
    let pos = Position::<W>::startpos(v);
    pos.parse_move_in(Notation::Uci, mv).is_ok()
}

#[test]
fn a_low_level_plays_legal_varied_moves() {
    let v = Variant::by_name("judkins").unwrap();
    let mut weak = session("judkins", -10);
    let moves = first_moves(&mut weak, "go depth 6", 16);
    for m in &moves {
        let legal = with_width!(Width::for_variant(v), W => legal_at_start::<W>(v, m));
        assert!(legal, "{m} in {moves:?}");
    }
    let distinct: BTreeSet<&String> = moves.iter().collect();
    assert!(distinct.len() >= 2, "{moves:?}");
    assert!(
        !weak.tail().contains("info string error"),
        "{}",
        weak.tail()
    );
    weak.quit();

    let mut full = session("judkins", 20);
    let moves = first_moves(&mut full, "go depth 6", 4);
    let distinct: BTreeSet<&String> = moves.iter().collect();
    assert_eq!(distinct.len(), 1, "{moves:?}");
    full.quit();
}

/// `(depth, multipv, score, pv)` of each `info` line with a pv.
fn lines_reported(e: &mut UsiProcess, go: &str) -> (Vec<String>, String) {
    e.send("ucinewgame");
    e.send("position startpos moves c1c2 b6c5");
    e.send(go);
    let (lines, best) = e.until(SECS, |l| l.starts_with("bestmove"));
    let kept = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |k: &str| w.iter().position(|&x| x == k).unwrap();
            let pv = w[at("pv") + 1..].join(" ");
            let score = w[at("score") + 1..at("score") + 3].join(" ");
            format!(
                "{} {} {score} {pv}",
                w[at("depth") + 1],
                w[at("multipv") + 1]
            )
        })
        .collect();
    (kept, best)
}

#[test]
fn weakening_never_touches_mate_perft_or_the_reported_lines() {
    // The lines reported are the full-strength search's, line for line:
    // at level 0, which searches four lines to choose from, those of a
    // four-line search...
    let mut full = session("judkins", 20);
    full.send("setoption name MultiPV value 4");
    let mut level0 = session("judkins", 0);
    level0.send("setoption name MultiPV value 4");
    let (a, _) = lines_reported(&mut full, "go depth 5");
    let (b, _) = lines_reported(&mut level0, "go depth 5");
    assert!(!a.is_empty());
    assert_eq!(a, b);
    level0.quit();
    // ...and at -20, which searches 44, the first four of a 44-line search.
    let mut weak = session("judkins", -20);
    weak.send("setoption name MultiPV value 4");
    full.send("setoption name MultiPV value 44");
    let (a, _) = lines_reported(&mut full, "go depth 5");
    let first_four: Vec<String> = a
        .into_iter()
        .filter(|l| l.split_whitespace().nth(1).unwrap().parse::<u32>().unwrap() <= 4)
        .collect();
    let (b, _) = lines_reported(&mut weak, "go depth 5");
    assert!(!first_four.is_empty());
    assert_eq!(first_four, b);
    full.send("setoption name MultiPV value 1");

    // go perft counts the same.
    let perft = |e: &mut UsiProcess| {
        e.send("position startpos");
        e.send("go perft 3");
        e.until(SECS, |l| l.starts_with("Nodes searched")).1
    };
    assert_eq!(perft(&mut weak), perft(&mut full));
    full.quit();

    // UCI's go mate N finds the mate at the weakest level.
    let (name, _, sfen) = (
        "shogi",
        1,
        "l1+R4S1/3gnb2l/pg1s3pp/1k3p3/2P6/4PK1P1/2GP1PP1P/1+r3+bN2/3L3NL w 5Pg2sn2p 130",
    );
    let v = Variant::by_name(name).unwrap();
    let mut weak = session(name, -20);
    weak.send(&format!("position sfen {sfen}"));
    weak.send("go mate 1");
    let (lines, best) = weak.until(SECS, |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    let mv = best.split_whitespace().nth(1).unwrap();
    with_width!(Width::for_variant(v), W => {
        let mut pos: Position<W> = Notation::Usi.parse_position(v, sfen).unwrap();
        let m = pos.parse_move_in(Notation::Uci, mv).unwrap();
        pos.do_move(m);
        assert!(pos.in_check() && !pos.has_legal_move(), "{mv} does not mate");
    });
    weak.quit();
}

/// What a Fairy-Stockfish site worker (pychess-variants' fairyfishnet,
/// lishogi's) sends: its options, a new game, a FEN with moves, a search
/// bounded by time and depth, then `d`.
#[test]
fn a_fairy_stockfish_site_session_is_clean() {
    let v = Variant::by_name("yarishogi").unwrap();
    let (fen, moves) = with_width!(Width::for_variant(v), W => {
        let mut pos = Position::<W>::startpos(v);
        let fen = pos.to_fen();
        let mut moves = Vec::new();
        for i in 0..6 {
            let legal = pos.legal_moves();
            let m = legal[(i * 7) % legal.len()];
            moves.push(Notation::Uci.move_text(m, v));
            pos.do_move(m);
        }
        (fen, moves)
    });
    let ini = data_path("heian.ini");
    let mut e = UsiProcess::start();
    for line in [
        "uci".to_string(),
        "setoption name Threads value 1".into(),
        "setoption name Hash value 16".into(),
        "setoption name UCI_Variant value yarishogi".into(),
        format!("setoption name VariantPath value {}", ini.display()),
        "setoption name UCI_Chess960 value false".into(),
        "setoption name UCI_AnalyseMode value false".into(),
        "setoption name UCI_LimitStrength value true".into(),
        "setoption name UCI_Elo value 1500".into(),
        "setoption name Skill Level value 10".into(),
        "setoption name Move Overhead value 100".into(),
        "setoption name NodesLimit value 0".into(),
        "ucinewgame".into(),
        "isready".into(),
        format!("position fen {fen} moves {}", moves.join(" ")),
        "go movetime 300 depth 8".into(),
    ] {
        e.send(&line);
    }
    let mv = e.bestmove(SECS);
    e.send("d");
    e.sync();
    let tail = e.tail();
    assert!(!tail.contains("info string error"), "{tail}");
    with_width!(Width::for_variant(v), W => {
        let mut pos: Position<W> = Notation::Uci.parse_position(v, &fen).unwrap();
        for m in &moves {
            let m = pos.parse_move_in(Notation::Uci, m).unwrap();
            pos.do_move(m);
        }
        assert!(pos.parse_move_in(Notation::Uci, &mv).is_ok(), "{mv}");
    });
    e.quit();
}

/// `NodesLimit` and `DepthLimit` bound every `go`, also one with no limit.
#[test]
fn nodes_and_depth_limits_apply_to_every_go() {
    let mut e = session("shogi", 20);
    e.send("setoption name DepthLimit value 3");
    e.send("position startpos");
    // A go with no limit of its own: it ends by itself at depth 3.
    e.send("go");
    let (lines, _) = e.until(SECS, |l| l.starts_with("bestmove"));
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.iter().max(), Some(&3), "{lines:?}");
    e.send("setoption name DepthLimit value 0");
    e.send("setoption name NodesLimit value 3000");
    e.send("go depth 30");
    let (lines, _) = e.until(SECS, |l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let w: Vec<&str> = last.split_whitespace().collect();
    let nodes: u64 = w[w.iter().position(|&x| x == "nodes").unwrap() + 1]
        .parse()
        .unwrap();
    assert!(nodes <= 3000, "{last}");
    e.quit();
}
