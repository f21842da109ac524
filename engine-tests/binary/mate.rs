//! `go mate`, the tsume solver, driven through the engine binary. Every
//! answer is checked move by move with the rules core, apart from the
//! solver: each attacker move legal and a check, each defender move legal,
//! the last position checkmate.

use crate::common::{position, rows, UsiProcess};
use kawari::position::{Move, Position};
use kawari::variant::Variant;
use std::time::{Duration, Instant};

/// Checks that `line` is a complete mate from `sfen`; returns its length.
fn verify(variant: &str, sfen: &str, line: &[String]) -> usize {
    let v = Variant::by_name(variant).unwrap();
    let mut pos: Position<u128> = position(v, sfen);
    let attacker = pos.side_to_move();
    for (i, text) in line.iter().enumerate() {
        let m = Move::from_usi(v, text).unwrap_or_else(|e| panic!("{sfen}: move {i} {text}: {e}"));
        assert!(
            pos.legal_moves().contains(&m),
            "{sfen}: move {i} {text} is not legal in {}",
            pos.to_sfen()
        );
        let by_attacker = pos.side_to_move() == attacker;
        pos.do_move(m);
        if by_attacker {
            assert!(
                pos.in_check(),
                "{sfen}: attacker's move {i} {text} is not a check"
            );
        }
    }
    assert!(
        pos.in_check() && pos.legal_moves().is_empty(),
        "{sfen}: the line {line:?} does not end in checkmate ({})",
        pos.to_sfen()
    );
    line.len()
}

/// Sends `go mate <ms>` and returns the answer's words after `checkmate`,
/// with the `info` lines before it.
fn go_mate(e: &mut UsiProcess, ms: u64) -> (Vec<String>, Vec<String>) {
    e.send(&format!("go mate {ms}"));
    let (before, l) = e.until(Duration::from_millis(ms + 5000), |l| {
        l.starts_with("checkmate")
    });
    let words = l.split_whitespace().skip(1).map(String::from).collect();
    (words, before)
}

/// The public problems of up to 100 plies (`data/tsume.tsv`, see
/// PROVENANCE.md): each solved within 60 s with a 256 MB table, with a line
/// that checks out as a mate, of the published length. zuko98 is proven
/// 37 plies in 2.7M nodes; before that, at the refinement's deadline (60% of
/// the limit), the line read from the bound is 35 plies: 10 s, even 20 s,
/// was too close on a loaded machine (four times slower on 2026-11-25). The
/// others take well under a second.
#[test]
fn public_problems_are_solved_with_verified_lines() {
    let mut e = UsiProcess::start();
    e.send("setoption name USI_Hash value 256");
    let mut report = Vec::new();
    for row in rows("tsume.tsv") {
        let (name, sfen, plies) = (&row[0], &row[1], row[2].parse::<usize>().unwrap());
        if plies > 100 {
            continue;
        }
        e.send(&format!("position sfen {sfen}"));
        let (answer, infos) = go_mate(&mut e, 60_000);
        assert!(
            !answer.is_empty() && answer[0] != "nomate" && answer[0] != "timeout",
            "{name}: {answer:?}"
        );
        let n = verify("shogi", sfen, &answer);
        // Progress lines, then one line saying how far the answer is shown
        // the shortest.
        let (last, progress) = infos.split_last().expect("a shortness line");
        for i in progress {
            assert!(i.starts_with("info time ") && i.contains(" nodes "), "{i}");
        }
        let said = format!("info string mate in {n} plies, ");
        assert!(last.starts_with(&said), "{name}: {last}");
        assert_eq!(n % 2, 1, "{name}");
        // Lines are shortened within node budgets: deterministic apart
        // from the 10 s.
        assert_eq!(n, plies, "{name}: {answer:?}");
        report.push(format!("{name}: {n} plies (published {plies})"));
    }
    assert_eq!(report.len(), 6, "{report:?}");
    eprintln!("{}", report.join("\n"));
    e.quit();
}

/// A problem in every variant, including Heian (no drops) and a position
/// where both sides have a king.
#[test]
fn mates_in_every_variant() {
    let mut e = UsiProcess::start();
    for (variant, sfen, plies) in [
        ("shogi", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", 1),
        ("judkins", "5k/6/5P/6/6/6 b G 1", 1),
        ("yarishogi", "6k/7/6P/7/7/7/7/7/7 b 2R 1", 3),
        ("heian", "4k4/9/3GG4/9/9/9/9/9/9 b - 1", 1),
        ("heian9x8", "4k4/9/3GG4/9/9/9/9/9 b - 1", 1),
        ("heian8x9", "3k4/8/2GG4/8/8/8/8/8/8 b - 1", 1),
        ("heian8x8", "3k4/8/2GG4/8/8/8/8/8 b - 1", 1),
        (
            "shogi",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b RBGSNLP 1",
            0,
        ),
    ] {
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send(&format!("position sfen {sfen}"));
        let (answer, _) = go_mate(&mut e, 10_000);
        if plies == 0 {
            // Both kings on the board: whatever the answer, a mate line
            // must check out.
            assert!(!answer.is_empty(), "{sfen}");
            if answer[0] != "nomate" && answer[0] != "timeout" {
                verify(variant, sfen, &answer);
            }
            continue;
        }
        assert_eq!(verify(variant, sfen, &answer), plies, "{variant} {sfen}");
    }
    e.quit();
}

/// Answers: `nomate` when no check mates, exactly one line per `go mate`,
/// `timeout` at the time limit or on `stop`, and the session stays alive.
#[test]
fn go_mate_answers_once_and_stops() {
    let mut e = UsiProcess::start();
    // A lone pawn in hand cannot even check: no mate.
    e.send("position sfen 4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1");
    assert_eq!(go_mate(&mut e, 5000).0, vec!["nomate"]);
    // The longest known problem: no answer within 300 ms, nor before `stop`.
    let micro = &rows("tsume.tsv")
        .into_iter()
        .find(|r| r[0] == "microcosmos")
        .unwrap()[1];
    e.send(&format!("position sfen {micro}"));
    assert_eq!(go_mate(&mut e, 300).0, vec!["timeout"]);
    e.send("go mate infinite");
    let lines = e.sync();
    assert!(lines.iter().all(|l| l.starts_with("info")), "{lines:?}");
    let t = Instant::now();
    e.send("stop");
    let (_, l) = e.until(Duration::from_secs(5), |l| l.starts_with("checkmate"));
    assert_eq!(l, "checkmate timeout");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    // A bare `go mate` is infinite too; one answer, then the session goes on.
    e.send("go mate");
    e.send("stop");
    e.until(Duration::from_secs(5), |l| l == "checkmate timeout");
    let after = e.sync();
    assert!(
        after.iter().all(|l| !l.starts_with("checkmate")),
        "{after:?}"
    );
    e.quit();
}

/// A long classic from `tsume.tsv`, solved with a table of `hash_mb` MB
/// within `minutes`: a verified mate of its published length.
fn long_classic(name: &str, hash_mb: usize, minutes: u64) {
    long_problem("tsume.tsv", name, hash_mb, minutes);
}

/// A problem of `file` (name, sfen, published length first), solved with a
/// table of `hash_mb` MB within `minutes`: a verified mate of its published
/// length.
fn long_problem(file: &str, name: &str, hash_mb: usize, minutes: u64) {
    let mut e = UsiProcess::start();
    e.send(&format!("setoption name USI_Hash value {hash_mb}"));
    let row = rows(file).into_iter().find(|r| r[0] == name).unwrap();
    e.send(&format!("position sfen {}", row[1]));
    let (answer, _) = go_mate(&mut e, minutes * 60_000);
    assert!(
        !answer.is_empty() && answer[0] != "nomate" && answer[0] != "timeout",
        "{answer:?}"
    );
    let n = verify("shogi", &row[1], &answer);
    assert_eq!(n.to_string(), row[2], "{name}: {n} plies");
    e.quit();
}

/// The long classic 図巧100番 "寿": a verified mate of the published 611
/// plies within 5 minutes with a 4 GB table. Slow and memory-hungry, so
/// ignored by default:
/// `cargo test --release --test engine -- --ignored long_classic_kotobuki`
#[test]
#[ignore]
fn long_classic_kotobuki() {
    long_classic("zuko100-kotobuki", 4096, 5);
}

/// 夢の旅人 (`long-tsume.tsv`, a horse and king loop): a verified mate of
/// the published 313 plies within 10 minutes with a 2 GB table (19.4M
/// nodes, about 1.5 minutes on a quiet 2-core machine). Ignored by default:
/// `cargo test --release --test engine -- --ignored long_yume_no_tabibito`
#[test]
#[ignore]
fn long_yume_no_tabibito() {
    long_problem("long-tsume.tsv", "yume-no-tabibito", 2048, 10);
}

/// ミクロコスモス: a verified mate of the published 1525 plies within 30
/// minutes with a 16 GB table (the machine needs 17 GB free; about 12
/// minutes on a 2-core machine). Ignored by default:
/// `cargo test --release --test engine -- --ignored long_classic_microcosmos`
#[test]
#[ignore]
fn long_classic_microcosmos() {
    long_classic("microcosmos", 16384, 30);
}

/// ミクロコスモス with an 8 GB table: a verified mate of the published 1525
/// plies within 15 minutes (the machine needs 9 GB free and a core to
/// itself). Ignored by default:
/// `cargo test --release --test engine -- --ignored long_microcosmos_8g`
#[test]
#[ignore]
fn long_microcosmos_8g() {
    long_classic("microcosmos", 8192, 15);
}

/// The classics (`data/classics-*.tsv`: 将棋無双 and 将棋図巧, 100 problems
/// each, see PROVENANCE.md): every position reads in the rules core, the
/// attacker (to move, without a king) is not in check and has a check, and
/// the defender's king is on the board.
#[test]
fn classics_are_legal_problems() {
    let v = Variant::by_name("shogi").unwrap();
    let mut names = Vec::new();
    for file in ["classics-musou.tsv", "classics-zukou.tsv"] {
        for row in rows(file) {
            let pos: Position<u128> = position(v, &row[1]);
            assert!(!pos.in_check(), "{}: attacker in check", row[0]);
            assert!(!pos.legal_checks().is_empty(), "{}: no check", row[0]);
            let sfen = pos.to_sfen();
            let board = sfen.split(' ').next().unwrap();
            assert!(board.contains('k') && !board.contains('K'), "{}", row[0]);
            names.push(row[0].clone());
        }
    }
    assert_eq!(names.len(), 200);
}

/// The quick part of the classics benchmark: the problems Kawari answered
/// (scripts/mate_suite.py, 30 s, 2 GB) within 300k nodes, each with its
/// length then (proven shortest: they finished before the refinement's
/// deadline). Each answer checks out in the rules core and has that length.
/// About 3M nodes in all: 18.5 s on a machine loaded four times over.
const CLASSICS_QUICK: [(&str, usize); 20] = [
    ("zukou-002", 21),
    ("zukou-005", 21),
    ("zukou-018", 25),
    ("zukou-022", 51),
    ("zukou-033", 19),
    ("zukou-034", 17),
    ("zukou-036", 13),
    ("zukou-042", 27),
    ("zukou-045", 43),
    ("zukou-058", 29),
    ("zukou-060", 29),
    ("zukou-066", 17),
    ("zukou-068", 27),
    ("zukou-081", 17),
    ("zukou-085", 15),
    ("zukou-088", 35),
    ("zukou-094", 23),
    ("musou-009", 29),
    ("musou-021", 25),
    ("musou-029", 25),
];

#[test]
fn classics_quick_part() {
    let mut e = UsiProcess::start();
    e.send("setoption name USI_Hash value 256");
    let all: Vec<Vec<String>> = ["classics-musou.tsv", "classics-zukou.tsv"]
        .iter()
        .flat_map(|f| rows(f))
        .collect();
    let t = Instant::now();
    for (name, plies) in CLASSICS_QUICK {
        let row = all.iter().find(|r| r[0] == name).unwrap();
        e.send(&format!("position sfen {}", row[1]));
        let (answer, infos) = go_mate(&mut e, 20_000);
        assert!(
            !answer.is_empty() && answer[0] != "nomate" && answer[0] != "timeout",
            "{name}: {answer:?}"
        );
        assert_eq!(verify("shogi", &row[1], &answer), plies, "{name}");
        // Found well within the refinement's time: proven, and said so.
        let proven = format!("info string mate in {plies} plies, proven the shortest");
        assert_eq!(infos.last(), Some(&proven), "{name}");
    }
    eprintln!("classics, quick part: {:?}", t.elapsed());
    e.quit();
}

/// The whole classics benchmark, issue #30's target: every problem of both
/// collections answered within 60 s (寿, 611 plies: 120 s) with a 2 GB
/// table, each answer a mate in the rules core (`nomate` for the three
/// positions without one). `scripts/mate_suite.py`'s run of the same limits
/// at dadc6e1 answered every problem (docs/tsume.md). Up to 3.5 hours, so
/// ignored:
/// `cargo test --release --test engine -- --ignored classics_whole_benchmark --nocapture`
/// (`scripts/mate_suite.py` gives the same run with nodes and lengths, and
/// runs other engines).
#[test]
#[ignore]
fn classics_whole_benchmark() {
    let mut missed = Vec::new();
    for file in ["classics-zukou.tsv", "classics-musou.tsv"] {
        for row in rows(file) {
            let (name, sfen) = (&row[0], &row[1]);
            let ms = if row[2] == "611" { 120_000 } else { 60_000 };
            // A fresh engine per problem: a fresh table, as in mate_suite.py.
            let mut e = UsiProcess::start();
            e.send("setoption name USI_Hash value 2048");
            e.send(&format!("position sfen {sfen}"));
            let t = Instant::now();
            let (answer, _) = go_mate(&mut e, ms);
            let took = t.elapsed();
            e.quit();
            // No mate by checks in the data set's 無双37, 73 and 88 (both
            // engines prove it; PROVENANCE.md): `nomate` is right there.
            let unsound = ["musou-037", "musou-073", "musou-088"].contains(&name.as_str());
            if unsound && answer.first().map(String::as_str) == Some("nomate") {
                eprintln!("{name}: nomate in {took:.1?}");
                continue;
            }
            if answer.is_empty() || answer[0] == "nomate" || answer[0] == "timeout" {
                eprintln!("{name}: {answer:?} after {took:.1?}");
                missed.push(name.clone());
                continue;
            }
            let n = verify("shogi", sfen, &answer);
            eprintln!("{name}: {n} plies (collection {}) in {took:.1?}", row[2]);
        }
    }
    assert!(missed.is_empty(), "not answered in time: {missed:?}");
}
