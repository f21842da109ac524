//! The command-line tools of the `kawari` binary (`perft`, `datagen`, `mate`,
//! `train`, `--help`), run as a user runs them: counts against the reference
//! data, a network made from scratch and loaded by the engine, and bad options
//! refused on stderr with exit code 2 and nothing on stdout.

use crate::common::{kawari_bin, rows, UsiProcess, VARIANTS};
use std::process::{Command, Output};
use std::time::Duration;

/// The judkins suite shipped in openings/ (read by the --book checks).
/// A one-game datagen run from `book`.
fn book_run(book: &str) -> [&str; 7] {
    ["datagen", "--games", "1", "--out", "x", "--book", book]
}

const JUDKINS_SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/judkins.txt");

/// Runs `kawari args...` to the end.
fn run(args: &[&str]) -> Output {
    Command::new(kawari_bin())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running kawari {args:?}: {e}"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The reference count of the variant's start position at `depth`.
fn start_count(variant: &str, depth: u32) -> u64 {
    let table = rows(&format!("{variant}.tsv"));
    let start = &table[0][0];
    table
        .iter()
        .find(|r| &r[0] == start && r[1] == depth.to_string())
        .unwrap_or_else(|| panic!("{variant}: no depth {depth} row"))[2]
        .parse()
        .unwrap()
}

/// The `nodes N` line of a perft run.
fn nodes_line(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .unwrap_or_else(|| panic!("no nodes line in {out}"))
        .parse()
        .unwrap()
}

#[test]
fn perft_tool_counts_as_the_reference() {
    for &v in VARIANTS {
        let o = run(&["perft", "--variant", v, "--depth", "3"]);
        assert!(o.status.success(), "{v}: {}", stderr(&o));
        assert_eq!(nodes_line(&stdout(&o)), start_count(v, 3), "{v}");
    }
    // --divide: one line per root move, summing to the total.
    let o = run(&["perft", "--variant", "judkins", "--depth", "2", "--divide"]);
    let out = stdout(&o);
    let moves: Vec<u64> = out
        .lines()
        .filter(|l| !l.starts_with("nodes") && !l.starts_with("time") && !l.starts_with("nps"))
        .map(|l| l.rsplit(": ").next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(moves.len() as u64, start_count("judkins", 1), "{out}");
    assert_eq!(
        moves.iter().sum::<u64>(),
        start_count("judkins", 2),
        "{out}"
    );
    assert_eq!(nodes_line(&out), start_count("judkins", 2));
    // --sfen, and the 128-bit board forced on a board that fits in 64 bits.
    let table = rows("shogi.tsv");
    let row = table.iter().find(|r| r[0] != table[0][0] && r[1] == "2");
    let row = row.expect("a non-start shogi row at depth 2");
    let o = run(&["perft", "--sfen", &row[0], "--depth", "2"]);
    assert_eq!(nodes_line(&stdout(&o)), row[2].parse::<u64>().unwrap());
    let o = run(&[
        "perft",
        "--variant",
        "judkins",
        "--depth",
        "3",
        "--width",
        "128",
    ]);
    assert_eq!(nodes_line(&stdout(&o)), start_count("judkins", 3));
}

/// A shogi problem whose shortest mate is 15 plies.
const MATE_15: &str = "8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1";

/// The USI moves of `kawari mate`'s `line` output.
fn mate_line(out: &str) -> Vec<String> {
    let line = out.lines().find_map(|l| l.strip_prefix("line "));
    let line = line.unwrap_or_else(|| panic!("no line in {out}"));
    line.split(' ').map(str::to_string).collect()
}

/// `kawari mate` solves as `go mate` does, and with `--within` says whether
/// a mate within a bound exists: none within 13 plies, one within 15, in
/// shogi and after `--moves`; on Judkins' 64-bit board too (a 3-ply mate).
#[test]
fn mate_tool_solves_and_bounds() {
    let o = run(&["mate", "--sfen", MATE_15, "--hash", "16"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.starts_with("mate 15 plies, proven the shortest\n"),
        "{out}"
    );
    let line = mate_line(&out);
    assert_eq!(line.len(), 15, "{out}");
    assert!(out.lines().any(|l| l.starts_with("nodes ")), "{out}");
    let o = run(&["mate", "--sfen", MATE_15, "--within", "13", "--hash", "16"]);
    assert!(
        stdout(&o).starts_with("mate within 13: no\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["mate", "--sfen", MATE_15, "--within", "15", "--hash", "16"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("mate within 15: yes, a mate of at most 15 plies proven\n"),
        "{out}"
    );
    // One mate within the bound, not the longest defence (the engine's
    // unit tests check such lines move by move).
    let within = mate_line(&out).len();
    assert!(within % 2 == 1 && within <= 15, "{out}");
    // Two plies into the line, 13 are left.
    let played = format!("{} {}", line[0], line[1]);
    let args = [
        "mate", "--sfen", MATE_15, "--moves", &played, "--within", "13",
    ];
    let o = run(&args);
    assert!(
        stdout(&o).starts_with("mate within 13: yes"),
        "{}",
        stdout(&o)
    );
    let judkins = [
        "mate",
        "--variant",
        "judkins",
        "--sfen",
        "5k/6/6/5P/6/6 b GSB 1",
    ];
    let o = run(&judkins);
    assert!(
        stdout(&o).starts_with("mate 3 plies, proven the shortest\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&[&judkins[..], &["--within", "1"]].concat());
    assert!(
        stdout(&o).starts_with("mate within 1: no\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn tools_refuse_bad_options() {
    for (args, says) in [
        (&["perft"][..], "--depth is required"),
        (
            &["perft", "--depth", "x"],
            "bad --depth 'x' (expected 0..64)",
        ),
        (
            &["perft", "--variant", "chess", "--depth", "1"],
            "unknown variant 'chess'",
        ),
        (
            &["perft", "--depth", "1", "--width", "64"],
            "needs --width 128",
        ),
        (&["perft", "--depth", "1", "--sfen", "9/9 b"], "bad SFEN"),
        (
            &["perft", "--depth", "1", "--width", "32"],
            "bad --width '32' (expected 64 or 128)",
        ),
        (&["perft", "--depth", "1", "--sfen"], "--sfen needs a value"),
        (&["datagen", "--games", "3"], "--out is required"),
        (
            &["datagen", "--games", "0", "--out", "x"],
            "bad --games '0'",
        ),
        (&["datagen", "--games"], "--games needs a value"),
        (
            &["datagen", "--mirror", "true"],
            "unknown option '--mirror'",
        ),
        (&["datagen", "--hand-made", "yes"], "bad --hand-made 'yes'"),
        (&["datagen", "--check-nodes", "0"], "bad --check-nodes '0'"),
        (
            &["datagen", "--adjudicate-mates", "yes"],
            "bad --adjudicate-mates 'yes'",
        ),
        (&book_run("/nonexistent/book")[..], "/nonexistent/book"),
        // A suite is for its own variant (the default variant is shogi).
        (&book_run(JUDKINS_SUITE), "judkins.txt:10: bad SFEN"),
        (
            &["datagen", "--eval-file", "/nonexistent/net"],
            "cannot read",
        ),
        (&["train", "--out", "x"], "--data is required"),
        (&["train", "--lr", "5"], "bad --lr '5'"),
        (
            &["train", "--features", "halfkp"],
            "unknown feature set 'halfkp' (psq or king-buckets)",
        ),
        (
            &["train", "--mirror", "1"],
            "bad --mirror '1' (expected true or false)",
        ),
        (&["train", "--hidden", "8"], "bad --hidden '8'"),
        (&["features", "--out", "x"], "--data or --sfens is required"),
        (&["features", "--data", "x"], "--out is required"),
        (
            &["features", "--data", "a", "--sfens", "b", "--out", "x"],
            "give --data or --sfens, not both",
        ),
        (
            &["features", "--sfens", "/nonexistent/list", "--out", "x"],
            "/nonexistent/list",
        ),
        (&["mate", "--within", "3"], "--sfen is required"),
        (
            &["mate", "--sfen", MATE_15, "--within", "0"],
            "bad --within '0'",
        ),
        (
            &["mate", "--sfen", MATE_15, "--moves", "1i1h"],
            "bad move '1i1h'",
        ),
        (&["mate", "--sfen", "9/9 b"], "bad SFEN"),
        (&["frobnicate"], "unknown command 'frobnicate'"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn help_lists_the_tools_and_variants() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    // Each tool's --help gives the same text (it was "--help needs a value").
    for tool in ["perft", "datagen", "train", "features", "bench"] {
        let t = run(&[tool, "--help"]);
        assert!(t.status.success(), "{tool}: {}", stderr(&t));
        assert_eq!(stdout(&t), stdout(&o), "{tool}");
    }
    let out = stdout(&o);
    for word in [
        "kawari perft",
        "kawari bench",
        "kawari datagen",
        "kawari train",
        "kawari features",
    ] {
        assert!(out.contains(word), "{word}");
    }
    for &v in VARIANTS {
        assert!(out.contains(v), "{v}");
    }
}

/// A private directory for one test's files, removed at the end.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kawari-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, file: &str) -> String {
        self.0.join(file).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn datagen_plays_from_the_book_it_is_given() {
    use kawari::learn::datagen::read_book;
    use kawari::learn::record::{decode, RECORD_BYTES};
    let dir = Scratch::new("book");
    let data = dir.path("judkins.bin");
    let o = run(&[
        "datagen",
        "--variant",
        "judkins",
        "--book",
        JUDKINS_SUITE,
        "--random-plies",
        "0",
        "--games",
        "3",
        "--nodes",
        "300",
        "--seed",
        "0",
        "--threads",
        "1",
        "--out",
        &data,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 games"), "{}", stderr(&o));
    let judkins = kawari::variant::Variant::by_name("judkins").unwrap();
    let book = read_book(std::path::Path::new(JUDKINS_SUITE), judkins).unwrap();
    let bytes = std::fs::read(&data).unwrap();
    let records: Vec<_> = bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| decode(c.try_into().unwrap()).unwrap())
        .collect();
    // With seed 0 and no random plies, game i's first position is line i of
    // the book (its first record, unless the search captured or was in check
    // there: the suite's positions are quiet enough that these three are not).
    for game in 0..3u32 {
        let first = records.iter().find(|r| r.game == game).unwrap();
        assert_eq!(first.sfen, book[game as usize], "game {game}");
    }
}

#[test]
fn datagen_and_train_make_a_network_the_engine_plays_with() {
    let dir = Scratch::new("tools");
    let (data, net) = (dir.path("judkins.bin"), dir.path("judkins.nnue"));
    let datagen = |games: &str| {
        let args = [
            "datagen",
            "--variant",
            "judkins",
            "--games",
            games,
            "--nodes",
            "300",
            "--threads",
            "1",
            "--out",
            &data,
        ];
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "datagen writes its reports to stderr");
        stderr(&o)
    };
    let first = datagen("4");
    assert!(first.contains("4 games"), "{first}");
    let size = std::fs::metadata(&data).unwrap().len();
    assert!(size > 0);
    let again = datagen("6");
    assert!(again.contains("resumed after 4 games"), "{again}");
    assert!(std::fs::metadata(&data).unwrap().len() > size);

    let o = run(&[
        "train",
        "--variant",
        "judkins",
        "--data",
        &data,
        "--out",
        &net,
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
        "--features",
        "king-buckets",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(
        report.contains("judkins: 9720 inputs (king-buckets), 16 hidden"),
        "{report}"
    );
    assert!(report.contains("held-out loss"), "{report}");

    // The engine loads the file for judkins, evaluates with it and plays.
    let mut e = UsiProcess::start();
    e.send("usi");
    e.until(Duration::from_secs(10), |l| l == "usiok");
    e.send("setoption name USI_Variant value judkins");
    e.send(&format!("setoption name EvalFile value {net}"));
    e.send("position startpos");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("network judkins king-buckets 9720x16")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("go nodes 2000");
    let m = e.bestmove(Duration::from_secs(20));
    assert_ne!(m, "resign");
    e.quit();
}
