//! USI transcripts through the built binary: every command and option, every
//! kind of bad input, quit and EOF (stop, ponder and the clock: usi_clock.rs).

use super::usi_clock::bestmove_within;
use crate::common::{silent, timed_go, UsiProcess, ANSWER_DEADLINE};
use kawari::core::BitWord;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use std::sync::Mutex;
use std::time::Duration;

/// Tests whose assertions are about wall-clock time take this lock, so they do
/// not compete with each other for the CPU.
static TIMING: Mutex<()> = Mutex::new(());

pub(super) fn timing() -> std::sync::MutexGuard<'static, ()> {
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}

const SECS5: Duration = Duration::from_secs(5);
const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Legal moves (USI) of `variant` at `sfen` after `moves`.
pub(super) fn legal_moves(variant: &str, sfen: Option<&str>, moves: &[&str]) -> Vec<String> {
    let v = Variant::by_name(variant).unwrap();
    with_width!(Width::for_variant(v), W => legal_moves_w::<W>(v, sfen, moves))
}

fn legal_moves_w<W: BitWord>(
    v: &'static Variant,
    sfen: Option<&str>,
    moves: &[&str],
) -> Vec<String> {
    let mut pos = match sfen {
        Some(s) => Position::<W>::from_sfen(v, s).unwrap(),
        None => Position::<W>::startpos(v),
    };
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.do_move(mv);
    }
    pos.legal_moves().iter().map(|m| m.to_usi(v)).collect()
}

/// The SFEN after `moves` from `sfen` (or the start), by the library.
fn sfen_after(variant: &str, sfen: Option<&str>, moves: &[&str]) -> String {
    let v = Variant::by_name(variant).unwrap();
    with_width!(Width::for_variant(v), W => {
        let mut pos = match sfen {
            Some(s) => Position::<W>::from_sfen(v, s).unwrap(),
            None => Position::<W>::startpos(v),
        };
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.do_move(mv);
        }
        pos.to_sfen()
    })
}

/// The `sfen: ` line of `d`.
pub(super) fn shown_sfen(e: &mut UsiProcess) -> String {
    e.send("d");
    let (_, l) = e.until(SECS5, |l| l.starts_with("sfen: "));
    e.sync();
    l["sfen: ".len()..].to_string()
}

pub(super) fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

/// Sends `line`, then `isready`; asserts the answer was exactly one error
/// line, and that it names what is wrong: it contains each of `names`
/// (the rejected word, the field or rule it breaks).
pub(super) fn one_error(e: &mut UsiProcess, line: &str, names: &[&str]) {
    e.send(line);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{line:?} gave {lines:?}\n{}", e.tail());
    assert_eq!(errors(&lines).len(), 1, "{line:?} gave {lines:?}");
    for name in names {
        assert!(
            lines[0].contains(name),
            "{line:?} gave {:?}, not naming {name:?}",
            lines[0]
        );
    }
}

#[test]
fn handshake_lists_every_option() {
    let mut e = UsiProcess::start();
    e.send("usi");
    let (lines, _) = e.until(SECS5, |l| l == "usiok");
    assert!(lines[0].starts_with("id name Kawari"), "{lines:?}");
    assert!(lines[0].is_ascii());
    assert!(lines[1].starts_with("id author "));
    for name in [
        "USI_Variant type combo default shogi var shogi var judkins var yarishogi var heian var heian9x8 var heian8x9 var heian8x8",
        "USI_Hash type spin default 64 min 1 max 65536",
        "USI_Ponder type check",
        "MultiPV type spin default 1 min 1",
        "Threads type spin default 1 min 1 max 1024",
        "MaxMovesToDraw type spin default 0 min 0 max",
        "NetworkDelay type spin",
        "EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule27",
        "Clear_Hash type button",
        "UseNNUE type check default true",
        "EvalFile type string default <built-in>",
    ] {
        let want = format!("option name {name}");
        assert!(
            lines.iter().any(|l| l.starts_with(&want)),
            "missing {want:?} in {lines:?}"
        );
    }
    let max_moves: u64 = lines
        .iter()
        .find(|l| l.starts_with("option name MaxMovesToDraw"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(max_moves >= 1000);
    assert!(lines.iter().all(|l| l.is_ascii()));
    e.send("isready");
    e.until(SECS5, |l| l == "readyok");
    e.quit();
}

#[test]
fn every_option_is_accepted() {
    let mut e = UsiProcess::start();
    for v in Variant::all() {
        silent(
            &mut e,
            &format!("setoption name USI_Variant value {}", v.name()),
        );
    }
    for line in [
        "setoption name UCI_Variant value shogi",
        "setoption name USI_Hash value 16",
        "setoption name USI_Ponder value true",
        "setoption name USI_Ponder value false",
        "setoption name MultiPV value 3",
        "setoption name USI_MultiPV value 1",
        "setoption name Threads value 1",
        "setoption name Threads value 4",
        "setoption name Threads value 1",
        "setoption name MaxMovesToDraw value 320",
        "setoption name MaxMovesToDraw value 0",
        "setoption name NetworkDelay value 120",
        "setoption name EnteringKingRule value NoEnteringKing",
        "setoption name EnteringKingRule value CSARule27",
        "setoption name Clear_Hash",
        "setoption name UseNNUE value false",
        "setoption name Use NNUE value true",
        "setoption name EvalFile value <built-in>",
        "setoption name EvalFile value",
        "usinewgame",
        "stop",
        "gameover",
        "gameover win",
        "gameover lose",
        "gameover draw",
    ] {
        silent(&mut e, line);
    }
    e.quit();
}

/// `EvalFile` loads a network for the variant in its header, `eval` shows
/// what is in use, `UseNNUE false` goes back to the hand-made evaluation,
/// and bad files are refused with the old setting kept.
#[test]
fn network_files_are_loaded_used_and_refused() {
    use kawari::nnue::Network;
    let dir = std::env::temp_dir().join(format!("kawari-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let judkins = Variant::by_name("judkins").unwrap();
    let good = dir.join("judkins.nnue");
    std::fs::write(
        &good,
        Network::random(judkins, kawari::nnue::FeatureSet::KingBuckets, 32, 5).to_bytes(),
    )
    .unwrap();
    let damaged = dir.join("damaged.nnue");
    let mut bytes =
        Network::random(judkins, kawari::nnue::FeatureSet::KingBuckets, 32, 5).to_bytes();
    bytes[100] ^= 0x40;
    std::fs::write(&damaged, bytes).unwrap();
    let not_a_net = dir.join("text.nnue");
    std::fs::write(&not_a_net, "hello").unwrap();

    let mut e = UsiProcess::start();
    let eval_lines = |e: &mut UsiProcess| {
        e.send("eval");
        let (mut lines, last) = e.until(SECS5, |l| l.starts_with("info string eval "));
        lines.push(last);
        e.sync();
        lines
    };
    silent(&mut e, "setoption name USI_Variant value judkins");
    silent(
        &mut e,
        &format!("setoption name EvalFile value {}", good.display()),
    );
    silent(&mut e, "position startpos moves 2f3e");
    let lines = eval_lines(&mut e);
    let net_line = lines
        .iter()
        .find(|l| l.starts_with("info string network judkins"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        net_line.starts_with("info string network judkins king-buckets 9720x32:"),
        "{net_line}"
    );
    let net_value = net_line
        .rsplit(": ")
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(
        lines.last().unwrap(),
        &format!("info string eval {net_value}"),
        "{lines:?}"
    );
    // A search with it works.
    e.send("go depth 6");
    let m = e.bestmove(SECS5);
    assert!(legal_moves("judkins", None, &["2f3e"]).contains(&m), "{m}");
    let missing = dir.join("missing.nnue");
    let cannot_read = format!("cannot read {}", missing.display());
    for (bad, why) in [
        (&damaged, "checksum mismatch"),
        (&not_a_net, "not a Kawari network file"),
        (&missing, cannot_read.as_str()),
    ] {
        one_error(
            &mut e,
            &format!("setoption name EvalFile value {}", bad.display()),
            &["EvalFile", why],
        );
    }
    // The good network is still in use.
    assert!(eval_lines(&mut e).iter().any(|l| l == net_line));
    silent(&mut e, "setoption name UseNNUE value false");
    let lines = eval_lines(&mut e);
    assert!(
        lines.iter().any(|l| l.contains("network: none")),
        "{lines:?}"
    );
    let hand_made = lines
        .iter()
        .find(|l| l.starts_with("info string hand-made evaluation "))
        .unwrap()
        .split(' ')
        .nth(4)
        .unwrap()
        .to_string();
    assert_eq!(
        lines.last().unwrap(),
        &format!("info string eval {hand_made}")
    );
    silent(&mut e, "setoption name UseNNUE value true");
    silent(&mut e, "setoption name EvalFile value <built-in>");
    // A network for another variant is kept for that variant only.
    silent(
        &mut e,
        &format!("setoption name EvalFile value {}", good.display()),
    );
    silent(&mut e, "setoption name USI_Variant value shogi");
    assert!(!eval_lines(&mut e).iter().any(|l| l == net_line));
    // Loading it while another variant is played says so, once.
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    assert_eq!(
        e.sync(),
        ["info string EvalFile: the network is for judkins; shogi keeps its own until USI_Variant is judkins"]
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// shogiarena's default setup, and one process kept across games.
#[test]
fn several_games_in_one_process() {
    let mut e = UsiProcess::start();
    e.send("usi");
    e.until(SECS5, |l| l == "usiok");
    for line in [
        "setoption name Threads value 1",
        "setoption name USI_Hash value 256",
        "setoption name MaxMovesToDraw value 320",
    ] {
        silent(&mut e, line);
    }
    for result in ["win", "lose", "draw"] {
        silent(&mut e, "usinewgame");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..4 {
            let line = format!("position startpos moves {}", moves.join(" "));
            e.send(line.trim_end());
            e.send("go depth 1");
            let m = e.bestmove(SECS5);
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            assert!(
                legal_moves("shogi", None, &refs).contains(&m),
                "illegal {m} after {moves:?}"
            );
            moves.push(m);
        }
        silent(&mut e, &format!("gameover {result}"));
    }
    e.quit();
}

#[test]
fn variant_change_resets_the_position() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f");
    for v in Variant::all() {
        silent(
            &mut e,
            &format!("setoption name USI_Variant value {}", v.name()),
        );
        assert_eq!(shown_sfen(&mut e), v.def.start_sfen, "{}", v.name());
        silent(&mut e, "position startpos");
        e.send("go depth 1");
        let m = e.bestmove(SECS5);
        assert!(
            legal_moves(v.name(), None, &[]).contains(&m),
            "{}: {m}",
            v.name()
        );
        // A second move, from an SFEN and a move list, in every variant.
        let sfen = v.def.start_sfen;
        e.send(&format!("position sfen {sfen} moves {m}"));
        e.send("go depth 1");
        let reply = e.bestmove(SECS5);
        assert!(
            legal_moves(v.name(), Some(sfen), &[&m]).contains(&reply),
            "{}: {m} {reply}",
            v.name()
        );
    }
    silent(&mut e, "setoption name UCI_Variant value judkins");
    assert_eq!(shown_sfen(&mut e), "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
    e.quit();
}

#[test]
fn position_forms() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f 3c3d 8h2b+");
    assert_eq!(
        shown_sfen(&mut e),
        sfen_after("shogi", None, &["7g7f", "3c3d", "8h2b+"])
    );
    silent(&mut e, &format!("position sfen {SHOGI_START} moves 2g2f"));
    assert_eq!(
        shown_sfen(&mut e),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"
    );
    assert_eq!(shown_sfen(&mut e), sfen_after("shogi", None, &["2g2f"]));
    // Without the move number, drops, extra spaces, CRLF, tabs.
    silent(
        &mut e,
        "position  sfen 4k4/9/9/9/9/9/9/9/4K4 b P \t moves P*5b 5a4a\r",
    );
    assert_eq!(
        shown_sfen(&mut e),
        sfen_after(
            "shogi",
            Some("4k4/9/9/9/9/9/9/9/4K4 b P 1"),
            &["P*5b", "5a4a"]
        )
    );
    silent(&mut e, "position startpos moves");
    assert_eq!(shown_sfen(&mut e), SHOGI_START);
    e.quit();
}

/// A table that cannot be allocated (the process is limited to 1 GB of
/// address space) is refused with an error; the engine keeps its old table
/// and goes on searching.
#[test]
fn a_table_that_cannot_be_had_is_refused() {
    let mut e = UsiProcess::start_with_memory_limit(1 << 20);
    e.send("usi");
    e.until(SECS5, |l| l == "usiok");
    e.send("setoption name USI_Hash value 4096");
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string error: cannot allocate a hash table of 4096 MB".to_string()]
    );
    e.send("go depth 6");
    let (lines, _) = e.until(SECS5, |l| l.starts_with("bestmove"));
    assert_eq!(errors(&lines), Vec::<&String>::new());
    silent(&mut e, "setoption name USI_Hash value 16");
    e.send("go depth 3");
    e.bestmove(SECS5);
    e.quit();
}

#[test]
fn line_ends_and_spaces_are_tolerated() {
    let mut e = UsiProcess::start();
    e.send_raw(b"  usi  \r\n");
    e.until(SECS5, |l| l == "usiok");
    e.send_raw(b"isready\r\n");
    e.until(SECS5, |l| l == "readyok");
    e.send_raw(b"\r\n\n   \n\t\n");
    e.send_raw(b"go\tdepth   1 \r\n");
    e.bestmove(SECS5);
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.quit();
}

#[test]
fn negative_times_are_read_as_zero() {
    let mut e = UsiProcess::start();
    e.send("go btime -100 wtime -100 byoyomi 300");
    let (lines, _) = e.until(SECS5, |l| l.starts_with("bestmove"));
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    e.quit();
}

#[test]
fn info_lines_are_well_formed() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    e.send("go depth 2");
    let (lines, _) = e.until(SECS5 * 6, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for l in infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        let keys = [
            "depth", "seldepth", "multipv", "score", "time", "nodes", "nps", "hashfull",
        ];
        for k in keys {
            assert!(w.contains(&k), "{l}");
        }
        let s = w.iter().position(|&x| x == "score").unwrap();
        assert!(w[s + 1] == "cp" || w[s + 1] == "mate", "{l}");
        assert!(w[s + 2].parse::<i64>().is_ok() || w[s + 2] == "-0", "{l}");
        assert!(!(w[s + 1] == "mate" && w[s + 2] == "0"), "{l}");
    }
    e.quit();
}

#[test]
fn go_perft_prints_a_divide() {
    let mut e = UsiProcess::start();
    e.send("go perft 3");
    let (lines, total) = e.until(SECS5 * 6, |l| l.starts_with("Nodes searched: "));
    assert_eq!(total, "Nodes searched: 25470");
    assert_eq!(lines.len(), 31, "{lines:?}");
    assert_eq!(lines[30], "");
    let sum: u64 = lines[..30]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 25470);
    e.send("go perft 0");
    let (_, total) = e.until(SECS5, |l| l.starts_with("Nodes searched: "));
    assert_eq!(total, "Nodes searched: 1");
    silent(&mut e, "setoption name USI_Variant value judkins");
    e.send("go perft 1");
    let (lines, total) = e.until(SECS5, |l| l.starts_with("Nodes searched: "));
    assert_eq!(lines.len() as u64 - 1, total[16..].parse::<u64>().unwrap());
    e.quit();
}

#[test]
fn stop_interrupts_perft() {
    let mut e = UsiProcess::start();
    // Perft 12 would run for days: any answer to `stop` shows it was
    // interrupted, and no node count is given for the unfinished count.
    e.send("go perft 12");
    e.send("stop");
    let (lines, _) = e.until(ANSWER_DEADLINE, |l| l == "info string perft stopped");
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn debug_commands() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position sfen 4k4/9/9/9/9/9/9/4r4/4K4 b - 1");
    e.send("d");
    let (lines, _) = e.until(SECS5, |l| l.starts_with("checkers: "));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("sfen: 4k4/9/9/9/9/9/9/4r4/4K4 b - 1")));
    assert!(lines.iter().any(|l| l.starts_with("key: ")));
    assert_eq!(e.transcript.last().unwrap(), "< checkers: 5h");
    e.send("eval");
    let (lines, l) = e.until(SECS5, |l| l.starts_with("info string eval "));
    assert!(l[17..].parse::<i32>().is_ok(), "{l}");
    // The trace: a material line with Black's rook up (the difference column).
    let material = lines
        .iter()
        .find(|l| {
            l.trim_start_matches("info string")
                .trim_start()
                .starts_with("material")
        })
        .unwrap_or_else(|| panic!("no material line in {lines:?}"));
    let diff: i32 = material.split_whitespace().last().unwrap().parse().unwrap();
    assert!(diff < -500, "{material}");
    e.sync();
    e.quit();
}

#[test]
fn bench_keeps_the_session_alive() {
    let _t = timing();
    let mut e = UsiProcess::start();
    // The bench runs on the pool: the session answers while it runs, and
    // `stop` ends it.
    e.send("bench 16 1 20");
    e.send("isready");
    let (lines, _) = e.until(SECS5, |l| l == "readyok");
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    e.send("go depth 1");
    let (_, l) = e.until(SECS5, |l| l.starts_with("info string error"));
    assert!(l.contains("running"), "{l}");
    e.send("stop");
    e.until(SECS5, |l| l == "info string bench stopped");
    // The defaults give the pinned signature, as info strings.
    e.send("bench");
    let (lines, l) = e.until(Duration::from_secs(300), |l| {
        l.starts_with("info string Bench: ")
    });
    assert_eq!(
        l,
        format!("info string Bench: {}", kawari::bench::SIGNATURE),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    // Two threads: a result, not a pinned one; the session's Threads stays.
    e.send("bench 8 2 5");
    e.until(Duration::from_secs(300), |l| {
        l.starts_with("info string Bench: ")
    });
    e.send("isready");
    e.until(SECS5, |l| l == "readyok");
    e.quit();
}

#[test]
fn resign_and_declare() {
    let mut e = UsiProcess::start();
    // Black to move, mated.
    silent(&mut e, "position sfen k8/9/9/9/9/9/8l/8g/8K b - 1");
    e.send("go byoyomi 100");
    assert_eq!(e.bestmove(SECS5), "resign");
    e.send("go ponder byoyomi 100");
    assert_eq!(bestmove_within(&mut e, Duration::from_millis(200)), None);
    e.send("ponderhit");
    assert_eq!(e.bestmove(SECS5), "resign");
    // Black may declare: king in the zone, 10 pieces there, 28 points.
    let declare = "position sfen RBGGGG3/SSSS1K3/9/9/9/9/9/9/4k4 b L9P 1";
    silent(&mut e, declare);
    e.send("go byoyomi 100");
    assert_eq!(e.bestmove(SECS5), "win");
    silent(
        &mut e,
        "setoption name EnteringKingRule value NoEnteringKing",
    );
    e.send("go byoyomi 100");
    let m = e.bestmove(SECS5);
    assert!(m != "win" && m != "resign", "{m}");
    e.quit();
}

#[test]
fn quit_and_eof_exit_cleanly() {
    // quit while idle
    let e = UsiProcess::start();
    e.quit();
    // EOF while idle
    let mut e = UsiProcess::start();
    e.send("usi");
    e.close_stdin();
    assert_eq!(e.wait_exit(SECS5), Some(0));
    // quit during a search
    let mut e = UsiProcess::start();
    e.send("go infinite");
    e.wait_searching();
    e.send("quit");
    assert_eq!(e.wait_exit(ANSWER_DEADLINE), Some(0));
    assert_eq!(e.final_stderr(), "");
    // EOF during a ponder search and during perft (which reports nothing
    // until its first root move is counted: EOF comes while it runs).
    for go in ["go ponder byoyomi 1000", "go perft 12"] {
        let mut e = UsiProcess::start();
        e.send(go);
        if go.contains("ponder") {
            e.wait_searching();
        }
        e.close_stdin();
        assert_eq!(e.wait_exit(ANSWER_DEADLINE), Some(0), "{go}");
        assert_eq!(e.final_stderr(), "", "{go}");
    }
}

/// `go nodes N` stops at N nodes, inside the first iteration too, and its last
/// `info` line (before `bestmove`) says so; `movestogo` and `searchmoves` are
/// accepted and answered, `searchmoves` honoured.
#[test]
fn node_limits_movestogo_and_searchmoves() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    for n in [50u64, 3000, 40_000] {
        e.send(&format!("go nodes {n}"));
        let (lines, _) = e.until(SECS5, |l| l.starts_with("bestmove"));
        let last = lines.last().expect("an info line before bestmove");
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "nodes").expect(last);
        let nodes: u64 = words[at + 1].parse().unwrap();
        assert_eq!(nodes, n, "{last}");
    }
    let (m, _) = timed_go(&mut e, "go btime 2000 wtime 2000 movestogo 2", SECS5);
    assert!(
        legal_moves("shogi", None, &["7g7f", "3c3d"]).contains(&m),
        "{m}"
    );
    for only in ["1g1f", "9g9f"] {
        let (m, _) = timed_go(&mut e, &format!("go searchmoves {only} depth 6"), SECS5);
        assert_eq!(m, only);
    }
    // A bad move in the list is reported and left out; the search still answers.
    e.send("go searchmoves 1g1f 5e5d depth 4");
    let (lines, m) = e.until(SECS5, |l| l.starts_with("bestmove"));
    assert_eq!(m.split_whitespace().nth(1), Some("1g1f"), "{m}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    e.quit();
}
