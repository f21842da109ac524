//! Bad input through the built binary, line by line: each is answered with
//! one `info string error:` line naming what is wrong, and changes nothing.

use crate::common::silent;
use std::time::Duration;

const SECS5: Duration = Duration::from_secs(5);
use super::usi::{errors, one_error, shown_sfen};
use crate::common::UsiProcess;

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    let before = shown_sfen(&mut e);
    let long_moves = format!("position startpos moves {}", "7g7f ".repeat(300));
    const SETOPTION: &str = "expected 'setoption name <id> [value <x>]'";
    const POSITION: &str = "expected 'position startpos|sfen <sfen>|fen <fen> [moves ...]'";
    let start = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1";
    let cases: Vec<(String, &[&str])> = vec![
        ("foo".into(), &["unknown command 'foo'"]),
        ("USI".into(), &["unknown command 'USI'"]),
        (
            "isready now".into(),
            &["'isready' takes no argument, got 'now'"],
        ),
        ("setoption".into(), &[SETOPTION]),
        ("setoption name".into(), &[SETOPTION]),
        ("setoption value 3".into(), &[SETOPTION]),
        (
            "setoption name Foo value 1".into(),
            &["unknown option", "'Foo'"],
        ),
        (
            "setoption name USI_Hash value abc".into(),
            &["USI_Hash", "'abc'", "65536"],
        ),
        (
            "setoption name USI_Hash value -1".into(),
            &["USI_Hash", "'-1'"],
        ),
        (
            "setoption name USI_Hash value 0".into(),
            &["USI_Hash", "'0'"],
        ),
        (
            "setoption name USI_Hash value 99999999999999999999".into(),
            &["USI_Hash", "'99999999999999999999'"],
        ),
        (
            "setoption name USI_Hash".into(),
            &["USI_Hash", "needs a value"],
        ),
        (
            "setoption name USI_Ponder value maybe".into(),
            &["USI_Ponder", "'maybe'"],
        ),
        ("setoption name MultiPV value 0".into(), &["MultiPV", "'0'"]),
        (
            "setoption name Threads value 1025".into(),
            &["Threads", "'1025'", "1024"],
        ),
        ("setoption name Threads value 0".into(), &["Threads", "'0'"]),
        (
            "setoption name MaxMovesToDraw value -1".into(),
            &["MaxMovesToDraw", "'-1'"],
        ),
        (
            "setoption name EnteringKingRule value TryRule".into(),
            &["EnteringKingRule", "'TryRule'", "CSARule27"],
        ),
        ("position".into(), &[POSITION, "got ''"]),
        ("position sfen".into(), &[POSITION, "got 'sfen'"]),
        ("position start".into(), &[POSITION, "got 'start'"]),
        ("position startpos 7g7f".into(), &[POSITION, "got '7g7f'"]),
        (
            "position sfen xyz b - 1".into(),
            &["bad SFEN", "expected 9 ranks, found 1"],
        ),
        (
            format!("{start}/LNSGKGSNL x - 1"),
            &["bad side to move 'x'"],
        ),
        (
            format!("{start}/LNSGKGSN b - 1"),
            &["rank i has 8 squares, expected 9"],
        ),
        (
            "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 1".into(),
            &["expected 9 ranks, found 6"],
        ),
        (
            format!("{start}/LNSGKGSNL b - 1 x"),
            &["expected 4 fields", "found 5"],
        ),
        (
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1".into(),
            &["too many pieces of kind P: 19, at most 18"],
        ),
        (
            "position startpos moves 7g7f 7g7f".into(),
            &["move 2 '7g7f' is illegal"],
        ),
        (
            "position startpos moves 7g7f zz".into(),
            &["move 2 'zz' is malformed"],
        ),
        (
            "position startpos moves 7g7f 3c3d P*5e".into(),
            &["move 3 'P*5e' is illegal"],
        ),
        (
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2b3c+".into(),
            &["move 5 '2b3c+' is illegal"],
        ),
        (
            "position startpos moves 7g7f 3c3d 7f7e+".into(),
            &["move 3 '7f7e+' is illegal"],
        ),
        (
            "position startpos moves 10a1a".into(),
            &["move 1 '10a1a' is malformed"],
        ),
        // Echoed as printable ASCII.
        (
            "position startpos moves 7g7f\u{e9}".into(),
            &["move 1 '7g7f?' is malformed"],
        ),
        (long_moves, &["move 2 '7g7f' is illegal"]),
        ("go btime".into(), &["'btime' needs a value"]),
        ("go btime abc".into(), &["bad value 'abc' for 'btime'"]),
        ("go depth -3".into(), &["bad value '-3' for 'depth'"]),
        ("go nodes x".into(), &["bad value 'x' for 'nodes'"]),
        (
            "go movetime 1.5".into(),
            &["bad value '1.5' for 'movetime'"],
        ),
        ("go foo".into(), &["unknown go parameter 'foo'"]),
        ("go perft -1".into(), &["bad value '-1' for 'perft'"]),
        ("go perft".into(), &["'perft' needs a value"]),
        ("go mate soon".into(), &["bad value 'soon' for 'mate'"]),
        (
            "go btime 99999999999999999999999".into(),
            &["bad value '99999999999999999999999' for 'btime'"],
        ),
        ("gameover maybe".into(), &["bad gameover result 'maybe'"]),
        ("ponderhit now".into(), &["unknown go parameter 'now'"]),
    ];
    for (line, names) in &cases {
        one_error(&mut e, line, names);
    }
    // Not UTF-8, control characters, a line of 2 MB.
    for (raw, shown) in [
        (&b"\xff\xfe\x80\n"[..], "'???'"),
        (b"\0\n", "'?'"),
        (b"go\x00depth 1\n", "'go?depth'"),
        (b"\x1b[31mred\n", "'?[31mred'"),
    ] {
        e.send_raw(raw);
        let lines = e.sync();
        assert_eq!(
            errors(&lines),
            [&format!("info string error: unknown command {shown}")],
            "{raw:?}"
        );
    }
    let mut huge = vec![b'x'; 2 << 20];
    huge.push(b'\n');
    e.send_raw(&huge);
    let lines = e.sync();
    assert_eq!(
        errors(&lines),
        ["info string error: line of 2097153 bytes is longer than 1048576; ignored"],
        "{lines:?}"
    );
    assert_eq!(
        shown_sfen(&mut e),
        before,
        "a rejected command changed the position"
    );
    // Still fully working.
    e.send("go depth 1");
    e.bestmove(SECS5);
    e.quit();
}
