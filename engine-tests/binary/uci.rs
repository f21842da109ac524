//! The UCI dialect: notation checked against Fairy-Stockfish's own (reference
//! data written by pyffish), USI ⇄ UCI round trips in every variant, and UCI
//! transcripts through the built binary (every command, bad input, stop
//! latency, clocks, quit and EOF).

use crate::common::{rows, UsiProcess, ANSWER_DEADLINE, VARIANTS};
use kawari::core::BitWord;
use kawari::position::{Notation, Position};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const SECS5: Duration = Duration::from_secs(5);

/// Tests that measure wall-clock time take this lock.
static TIMING: Mutex<()> = Mutex::new(());

/// The hand of a FEN as a sorted list of letters (`[]`, `[-]` and no
/// brackets are all empty).
fn fen_hand(fen: &str) -> Vec<char> {
    let first = fen.split_whitespace().next().unwrap_or("");
    let mut h: Vec<char> = first
        .split_once('[')
        .map(|(_, h)| {
            h.trim_end_matches(']')
                .chars()
                .filter(|&c| c != '-')
                .collect()
        })
        .unwrap_or_default();
    h.sort_unstable();
    h
}

/// Board, side and move number of a FEN (the fields both writers agree on).
fn fen_core(fen: &str) -> (String, String, String) {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let board = f[0].split('[').next().unwrap_or("").to_string();
    (board, f[1].to_string(), f.last().unwrap().to_string())
}

fn check_reference<W: BitWord>(v: &'static Variant, fen: &str, moves: &str) {
    let pos: Position<W> = Notation::Uci
        .parse_position(v, fen)
        .unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.name()));
    let ours: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| Notation::Uci.move_text(m, v))
        .collect();
    let theirs: BTreeSet<String> = moves.split_whitespace().map(str::to_string).collect();
    assert_eq!(ours, theirs, "{}: legal moves of {fen}", v.name());
    for m in &theirs {
        let mv = pos
            .parse_move_in(Notation::Uci, m)
            .unwrap_or_else(|e| panic!("{fen}: {m} is {e}"));
        assert_eq!(&Notation::Uci.move_text(mv, v), m);
    }
    let written = pos.to_fen();
    assert_eq!(
        fen_core(&written),
        fen_core(fen),
        "{}: FEN of {fen}",
        v.name()
    );
    assert_eq!(
        fen_hand(&written),
        fen_hand(fen),
        "{}: hand of {fen}",
        v.name()
    );
    let again: Position<W> = Notation::Uci.parse_position(v, &written).unwrap();
    assert_eq!(again.to_sfen(), pos.to_sfen());
}

/// Kawari reads Fairy-Stockfish's FENs, writes the same board, side, hand and
/// move number, and names every legal move as Fairy-Stockfish does.
#[test]
fn notation_matches_fairy_stockfish() {
    for name in VARIANTS {
        let v = Variant::by_name(name).unwrap();
        let rows: Vec<Vec<String>> = rows(&format!("{name}-uci.tsv"))
            .into_iter()
            .filter(|r| !r[0].starts_with('#') && r[0] != "fen")
            .collect();
        assert!(rows.len() >= 25, "{name}: {} rows", rows.len());
        let with_hand = rows.iter().filter(|r| !fen_hand(&r[0]).is_empty()).count();
        if v.hand_kinds > 0 {
            assert!(with_hand > 0, "{name}: no position with a hand");
        }
        for r in &rows {
            with_width!(Width::for_variant(v), W => check_reference::<W>(v, &r[0], &r[1]));
        }
    }
}

fn round_trips<W: BitWord>(v: &'static Variant, rng: &mut StdRng) -> usize {
    let mut pos = Position::<W>::startpos(v);
    let mut checked = 0;
    for _ in 0..150 {
        let sfen = pos.to_sfen();
        let fen = pos.to_fen();
        let back: Position<W> = Notation::Uci.parse_position(v, &fen).unwrap();
        assert_eq!(back.to_sfen(), sfen, "{fen}");
        let moves = pos.legal_moves();
        for &m in moves.iter() {
            for n in [Notation::Usi, Notation::Uci] {
                let text = n.move_text(m, v);
                assert_eq!(pos.parse_move_in(n, &text), Ok(m), "{sfen}: {text}");
            }
            checked += 1;
        }
        let Some(&m) = moves.choose(rng) else {
            break;
        };
        pos.do_move(m);
    }
    checked
}

/// Every position and every legal move of random games survives USI → UCI →
/// USI in every variant.
#[test]
fn usi_and_uci_round_trip() {
    let mut rng = StdRng::seed_from_u64(13);
    for name in VARIANTS {
        let v = Variant::by_name(name).unwrap();
        for _ in 0..4 {
            let n = with_width!(Width::for_variant(v), W => round_trips::<W>(v, &mut rng));
            assert!(n > 100, "{name}: {n} moves");
        }
    }
}

/// Starts the engine and speaks UCI to it.
fn uci() -> UsiProcess {
    let mut e = UsiProcess::start();
    e.send("uci");
    e.until(SECS5, |l| l == "uciok");
    e
}

/// The `Fen: ` line of `d`.
fn shown_fen(e: &mut UsiProcess) -> String {
    e.send("d");
    let (_, l) = e.until(SECS5, |l| l.starts_with("Fen: "));
    e.sync();
    l["Fen: ".len()..].to_string()
}

/// The position after `moves` (UCI) from `fen` (or the start), by the library.
fn fen_after(variant: &str, fen: Option<&str>, moves: &[&str]) -> String {
    let v = Variant::by_name(variant).unwrap();
    with_width!(Width::for_variant(v), W => {
        let mut pos: Position<W> = match fen {
            Some(f) => Notation::Uci.parse_position(v, f).unwrap(),
            None => Position::startpos(v),
        };
        for m in moves {
            let mv = pos.parse_move_in(Notation::Uci, m).unwrap();
            pos.do_move(mv);
        }
        pos.to_fen()
    })
}

/// Whether `mv` (UCI) is legal after `moves` from the start of `variant`.
fn legal_after(variant: &str, moves: &[&str], mv: &str) -> bool {
    let v = Variant::by_name(variant).unwrap();
    with_width!(Width::for_variant(v), W => {
        let mut pos = Position::<W>::startpos(v);
        for m in moves {
            let x = pos.parse_move_in(Notation::Uci, m).unwrap();
            pos.do_move(x);
        }
        pos.parse_move_in(Notation::Uci, mv).is_ok()
    })
}

fn errors(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count()
}

#[test]
fn handshake_speaks_uci() {
    let mut e = UsiProcess::start();
    e.send("uci");
    let (lines, _) = e.until(SECS5, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Kawari"), "{lines:?}");
    assert!(lines[1].starts_with("id author "));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(options.len(), lines.len() - 2, "{lines:?}");
    assert!(options.contains(
        &&"option name UCI_Variant type combo default shogi var shogi var judkins var yarishogi var heian var heian9x8 var heian8x9 var heian8x8".to_string()
    ), "{options:?}");
    for name in [
        "Hash",
        "Ponder",
        "MultiPV",
        "Threads",
        "Move Overhead",
        "Clear Hash",
    ] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {options:?}"
        );
    }
    assert!(!options.iter().any(|l| l.contains("USI_")), "{options:?}");
    // Every listed option is accepted under its UCI name.
    for (name, value) in [
        ("Hash", "16"),
        ("Ponder", "true"),
        ("MultiPV", "2"),
        ("Threads", "2"),
        ("Move Overhead", "30"),
        ("UCI_Variant", "yarishogi"),
        ("MaxMovesToDraw", "300"),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("setoption name Clear Hash");
    // cutechess sends `debug on` before every game.
    e.send("debug on");
    e.send("debug off");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.quit();
}

/// A game as cutechess plays one: variant, new game, the whole move list each
/// time, clocks; every answer is legal and in UCI notation.
#[test]
fn a_game_in_every_variant() {
    for name in VARIANTS {
        let mut e = uci();
        e.send(&format!("setoption name UCI_Variant value {name}"));
        e.send("ucinewgame");
        assert_eq!(e.sync(), Vec::<String>::new(), "{name}");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..8 {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go wtime 2000 btime 2000 winc 20 binc 20");
            let (lines, last) = e.until(SECS5, |l| l.starts_with("bestmove"));
            assert_eq!(errors(&lines), 0, "{name}: {lines:?}");
            let mv = last.split_whitespace().nth(1).unwrap().to_string();
            if mv == "(none)" {
                break;
            }
            let played: Vec<&str> = moves.iter().map(String::as_str).collect();
            assert!(
                legal_after(name, &played, &mv),
                "{name}: {mv} after {moves:?}"
            );
            let pv = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
            assert!(pv.contains(&format!(" pv {mv}")), "{pv} / {mv}");
            moves.push(mv);
        }
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert_eq!(shown_fen(&mut e), fen_after(name, None, &played), "{name}");
        e.quit();
    }
}

#[test]
fn position_forms() {
    let mut e = uci();
    // As pyffish's get_fen writes it: an empty hand is `[]`.
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";
    e.send("position startpos");
    assert_eq!(shown_fen(&mut e), start);
    // Fairy-Stockfish's, cutechess's and a minimal form of the same position.
    for fen in [
        start,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w - - 0 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    ] {
        e.send(&format!("position fen {fen} moves c3c4 g7g6"));
        assert_eq!(
            shown_fen(&mut e),
            fen_after("shogi", None, &["c3c4", "g7g6"]),
            "{fen}"
        );
    }
    // A hand, a drop and a promotion.
    let fen = "4k4/9/9/4P4/9/9/9/9/4K4[GPp] w - - 0 1";
    e.send(&format!("position fen {fen} moves G@a5 P@a6 e6e7+"));
    let after = shown_fen(&mut e);
    assert_eq!(
        after,
        fen_after("shogi", Some(fen), &["G@a5", "P@a6", "e6e7+"])
    );
    assert_eq!(after, "4k4/9/4+P4/p8/G8/9/9/9/4K4[P] b - - 0 2");
    // SFEN is understood in a UCI session too; its moves are UCI's.
    e.send(
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves c3c4",
    );
    assert_eq!(shown_fen(&mut e), fen_after("shogi", None, &["c3c4"]));
    e.quit();
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut e = uci();
    e.send("position startpos moves c3c4 g7g6");
    let before = shown_fen(&mut e);
    const POSITION: &str = "expected 'position startpos|sfen <sfen>|fen <fen> [moves ...]'";
    let fen = "position fen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1";
    let cases: Vec<(String, &[&str])> = vec![
        ("foo".into(), &["unknown command 'foo'"]),
        ("UCI".into(), &["unknown command 'UCI'"]),
        ("uci now".into(), &["'uci' takes no argument, got 'now'"]),
        (
            "ucinewgame x".into(),
            &["'ucinewgame' takes no argument, got 'x'"],
        ),
        ("setoption name Hash value abc".into(), &["Hash", "'abc'"]),
        ("setoption name Hash value 0".into(), &["Hash", "'0'"]),
        (
            "setoption name UCI_Variant value chess".into(),
            &["Variant", "'chess'", "heian8x8"],
        ),
        ("position fen".into(), &[POSITION, "got 'fen'"]),
        (
            format!("{fen}/LNSGKGSNL[-] x"),
            &["bad FEN", "bad side to move 'x'"],
        ),
        (
            format!("{fen}/LNSGKGSNL[-] w KQkq - 0 1"),
            &["bad FEN", "'KQkq'"],
        ),
        (
            format!("{fen}/LNSGKGSNL[-] w - - 0 0"),
            &["bad FEN", "move number '0'"],
        ),
        (
            format!("{fen}/LNSGKGSN[-] w - - 0 1"),
            &["rank i has 8 squares, expected 9"],
        ),
        (
            format!("{fen}/LNSGKGSNL[K] w - - 0 1"),
            &["'K' cannot be in hand"],
        ),
        (format!("{fen}/LNSGKGSNL[- w - - 0 1"), &["'[-' has no ']'"]),
        (
            "position fen rbnsgk/5p/6/6/P5/KGSNBR[-] w - - 0 1".into(),
            &["expected 9 ranks, found 6"],
        ),
        (
            "position startpos moves c3c4 c3c4".into(),
            &["move 2 'c3c4' is illegal"],
        ),
        // USI notation is not UCI's.
        (
            "position startpos moves 7g7f".into(),
            &["move 1 '7g7f' is malformed"],
        ),
        (
            "position startpos moves c3c4 g7g6 P@e5".into(),
            &["move 3 'P@e5' is illegal"],
        ),
        (
            "position startpos moves c3c4 g7g6 P*e5".into(),
            &["move 3 'P*e5' is illegal"],
        ),
        (
            "position startpos moves c3c4 g7g6 c4c5+".into(),
            &["move 3 'c4c5+' is illegal"],
        ),
        (
            "position startpos moves j1j2".into(),
            &["move 1 'j1j2' is malformed"],
        ),
        (
            "position startpos moves a0a1".into(),
            &["move 1 'a0a1' is malformed"],
        ),
        (
            "position startpos moves c3c4 g7g6 b2h8+ g9h8 h8g7+".into(),
            &["move 5 'h8g7+' is illegal"],
        ),
        ("go wtime abc".into(), &["bad value 'abc' for 'wtime'"]),
        ("go depth -3".into(), &["bad value '-3' for 'depth'"]),
        ("go perft x".into(), &["bad value 'x' for 'perft'"]),
        ("go mate".into(), &["go mate needs a number of moves"]),
    ];
    for (line, names) in &cases {
        e.send(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{line:?} gave {lines:?}\n{}", e.tail());
        assert_eq!(errors(&lines), 1, "{line:?} gave {lines:?}");
        for name in names.iter() {
            assert!(
                lines[0].contains(name),
                "{line:?} gave {:?}, not naming {name:?}",
                lines[0]
            );
        }
    }
    assert_eq!(
        shown_fen(&mut e),
        before,
        "a rejected command changed the position"
    );
    e.send("go depth 1");
    e.bestmove(SECS5);
    e.quit();
}

#[test]
fn perft_and_searchmoves_speak_uci() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value judkins");
    e.send("position startpos");
    e.send("go perft 2");
    let (lines, total) = e.until(SECS5, |l| l.starts_with("Nodes searched: "));
    let divide: Vec<&String> = lines.iter().filter(|l| l.contains(": ")).collect();
    let v = Variant::by_name("judkins").unwrap();
    let pos = Position::<u64>::startpos(v);
    let expected: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| Notation::Uci.move_text(m, v))
        .collect();
    let got: BTreeSet<String> = divide
        .iter()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(got, expected);
    let sum: u64 = divide
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, format!("Nodes searched: {sum}"));
    assert_eq!(
        sum,
        kawari::perft::perft(&mut Position::<u64>::startpos(v), 2)
    );
    // Only the listed root moves are searched.
    e.send("go depth 3 searchmoves a2a3 e1e2");
    let m = e.bestmove(SECS5);
    assert!(m == "a2a3" || m == "e1e2", "{m}");
    e.quit();
}

#[test]
fn mates_and_no_moves() {
    let mut e = uci();
    // Gold drop mates in one: a mate in one move.
    e.send("position fen 4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1");
    e.send("go depth 3");
    let (lines, best) = e.until(SECS5, |l| l.starts_with("bestmove"));
    assert!(best.starts_with("bestmove G@e8"), "{best}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // UCI's `go mate 1`: a search for a mate in one move.
    e.send("go mate 1");
    let (lines, best) = e.until(SECS5, |l| l.starts_with("bestmove"));
    assert!(best.starts_with("bestmove G@e8"), "{best}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // Mated: no legal move is `bestmove (none)`.
    e.send("position fen k8/9/9/9/9/9/8l/8g/8K[-] w - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.bestmove(SECS5), "(none)");
    e.quit();
}

/// `wtime` is the first mover's clock in UCI (it is `btime` in USI): with
/// 300 ms of its own against a minute of the other's, the first mover
/// answers within its 300 ms.
#[test]
fn wtime_is_the_first_movers_clock() {
    let _t = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = uci();
    e.send("position startpos");
    e.sync();
    let t = Instant::now();
    e.send("go wtime 300 btime 60000");
    e.bestmove(SECS5);
    let first = t.elapsed();
    assert!(first < Duration::from_millis(300), "{first:?}");
    e.send("position startpos moves c3c4");
    e.sync();
    let t = Instant::now();
    e.send("go wtime 60000 btime 300");
    e.bestmove(SECS5);
    let second = t.elapsed();
    assert!(second < Duration::from_millis(300), "{second:?}");
    e.quit();
}

#[test]
fn stop_ponder_and_quit() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_searching();
    e.send("stop");
    let m = e.bestmove(ANSWER_DEADLINE);
    assert!(legal_after("shogi", &[], &m), "{m}");
    // Ponder, then ponderhit with the clocks: the search goes on to an answer.
    e.send("setoption name Ponder value true");
    e.send("position startpos moves c3c4 g7g6");
    e.send("go ponder wtime 1000 btime 1000");
    e.wait_searching();
    e.send("ponderhit");
    let m = e.bestmove(SECS5);
    assert!(legal_after("shogi", &["c3c4", "g7g6"], &m), "{m}");
    // EOF during a search: a last answer, then a clean exit.
    e.send("go infinite");
    e.close_stdin();
    let m = e.bestmove(SECS5);
    assert!(legal_after("shogi", &["c3c4", "g7g6"], &m), "{m}");
    assert_eq!(e.wait_exit(SECS5), Some(0));
}

/// `d`'s `Fen:` line is pyffish's FEN, character for character (hand order,
/// `[]`, the halfmove clock and the move number), for each reference
/// position: set from that FEN, and reached from the start by the moves
/// pyffish played to it.
#[test]
fn d_shows_the_fen_fairy_stockfish_writes() {
    let mut e = uci();
    for name in VARIANTS {
        e.send(&format!("setoption name UCI_Variant value {name}"));
        let rows: Vec<Vec<String>> = rows(&format!("{name}-uci.tsv"))
            .into_iter()
            .filter(|r| !r[0].starts_with('#') && r[0] != "fen")
            .collect();
        let mut clocks = BTreeSet::new();
        for r in &rows {
            let fen = &r[0];
            clocks.insert(fen.split_whitespace().nth(4).unwrap().to_string());
            e.send(&format!("position fen {fen}"));
            assert_eq!(&shown_fen(&mut e), fen, "{name}: set from its FEN");
            e.send(&format!("position startpos moves {}", r[2]));
            assert_eq!(&shown_fen(&mut e), fen, "{name}: after {}", r[2]);
        }
        // The data does exercise the clock.
        assert!(clocks.len() > 3, "{name}: clocks {clocks:?}");
    }
    let tail = e.tail();
    assert!(!tail.contains("info string error"), "{tail}");
    e.quit();
}
