//! Training data from self-play (`kawari datagen`): games of Kawari against
//! itself from random opening plies, at a fixed node count per move, on as
//! many threads as asked; each quiet position is written with the search's
//! score and move and the game's result (`record` has the format).
//!
//! With a book (`--book`, e.g. a suite of `openings/`), game `i` starts from
//! its line `(seed + i) mod N` instead of the start position, then plays its
//! random plies: the line is a function of the game's own seed, as its random
//! plies are, so resumed runs and `scripts/datagen.py`'s shards (each run
//! with `--seed seed + first`) start every game where a single run would.
//!
//! Positions in check, whose best move is a capture, or with a mate score
//! are left out: a static evaluation cannot be expected to see those. Two
//! options spend less on what is not kept: `adjudicate_mates` ends a game at
//! its first mate score, which decides its result (the command line's
//! default: the records were those of the games played out), and
//! `check_nodes` searches positions in check (never kept) on a smaller
//! budget, which changes the games (docs/tools.md has their measurements).
//!
//! Each thread keeps one searcher and one hash table for all its games and
//! clears both before each game: a game's records do not depend on the
//! games played before it on that thread, and no table is allocated per game.
//!
//! A run
//! is resumable: game `i` is played from its own seed, and a run that finds
//! records in its output file plays the games below `--games` that have none
//! there (with several threads, games end out of order: a run stopped early
//! may have finished game 9 but not game 7).

use super::error::{LearnError, StartProblem};
use super::record::{self, encode, RECORD_BYTES};
use crate::core::{BitWord, Rng};
use crate::nnue::EvalChoice;
use crate::position::{GameEnd, Position};
use crate::search::TranspositionTable;
use crate::search::{Decision, Info, Limits, Score, Search, SearchOptions, Signals};
use crate::variant::Variant;
use crate::width::Width;
use crate::with_width;
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant.
    pub variant: &'static Variant,
    /// Games to have in the file when the run ends (resumed runs count the
    /// games already there).
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random legal plies before the searches take over.
    pub random_plies: u32,
    /// Games longer than this are adjudicated a draw.
    pub max_plies: u32,
    /// Seed of the whole run; game `i` uses `seed + i`.
    pub seed: u64,
    /// Playing threads.
    pub threads: usize,
    /// Hash table per thread, MB.
    pub hash_mb: usize,
    /// The output file (appended to).
    pub out: PathBuf,
    /// The evaluation the searches use.
    pub eval: EvalChoice,
    /// Start positions (SFENs) of the games, or none for the variant's start
    /// position; see the module's docs for which game takes which.
    pub book: Vec<String>,
}

/// Less search where nothing is recorded (`run_with`); the default, which
/// `run` uses, has none.
#[derive(Clone, Debug, Default)]
pub struct Shortcuts {
    /// Nodes per move in positions in check (never recorded); None: `nodes`.
    pub check_nodes: Option<u64>,
    /// End a game at the first mate score a search reports: the side it
    /// favours wins (the mate's own position is never recorded anyway).
    pub adjudicate_mates: bool,
}

/// The SFENs of a book file: one per line, `#` starts a comment, blank lines
/// are skipped, a leading `position` or `sfen` is allowed. Every one must be
/// a position of `variant` whose game has not ended.
pub fn read_book(path: &Path, variant: &'static Variant) -> Result<Vec<String>, LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
    let mut book = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let line = line.strip_prefix("position").map_or(line, str::trim_start);
        let line = line.strip_prefix("sfen").map_or(line, str::trim_start);
        if line.is_empty() {
            continue;
        }
        check_start(variant, line).map_err(|e| match e {
            LearnError::BadStart { sfen, problem, .. } => LearnError::BadStart {
                at: Some((path.to_path_buf(), n + 1)),
                sfen,
                problem,
            },
            other => other,
        })?;
        book.push(line.to_string());
    }
    if book.is_empty() {
        return Err(LearnError::EmptyBook(path.to_path_buf()));
    }
    Ok(book)
}

/// Whether `sfen` is a position of `v` to play a game from.
fn check_start(v: &'static Variant, sfen: &str) -> Result<(), LearnError> {
    let bad = |problem| LearnError::BadStart {
        at: None,
        sfen: sfen.to_string(),
        problem,
    };
    with_width!(Width::for_variant(v), W => {
        let pos = Position::<W>::from_sfen(v, sfen)
            .map_err(|e| bad(StartProblem::BadSfen(e.to_string())))?;
        match pos.game_end() {
            Some(_) => Err(bad(StartProblem::Ended)),
            None => Ok(()),
        }
    })
}

/// What a run did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played by this run.
    pub games: u32,
    /// Positions written by this run.
    pub positions: u64,
    /// Games found in the file before the run.
    pub resumed_after: u32,
    /// Positions searched by this run (the written ones among them).
    pub searches: u64,
    /// Of those, positions in check.
    pub check_searches: u64,
    /// Nodes of all those searches.
    pub nodes: u64,
}

/// What one game did: its records, ready to append, and its searches.
#[derive(Default)]
struct Game {
    bytes: Vec<u8>,
    searches: u64,
    check_searches: u64,
    nodes: u64,
}

/// The game indices that have records in an existing output file (none if
/// there is no file).
fn games_in_file(path: &PathBuf) -> Result<HashSet<u32>, LearnError> {
    // Buffered: a file holds millions of 128-byte records.
    let mut f = match std::fs::File::open(path) {
        Ok(f) => std::io::BufReader::new(f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(LearnError::io(path, e)),
    };
    let mut games = HashSet::new();
    let mut buf = [0u8; RECORD_BYTES];
    loop {
        match f.read_exact(&mut buf) {
            Ok(()) => {
                let r = record::decode(&buf).ok_or_else(|| LearnError::NotRecords(path.clone()))?;
                games.insert(r.game);
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(games),
            Err(e) => return Err(LearnError::io(path, e)),
        }
    }
}

/// Plays the games and appends their positions to `cfg.out`; progress goes
/// to `progress` (a line every few seconds).
pub fn run(cfg: &Config, progress: &mut (dyn FnMut(&str) + Send)) -> Result<Summary, LearnError> {
    run_with(cfg, &Shortcuts::default(), progress)
}

/// `run`, with `shortcuts`.
pub fn run_with(
    cfg: &Config,
    shortcuts: &Shortcuts,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Result<Summary, LearnError> {
    // Checked here, so that a game never meets a bad line half-way through a run.
    for sfen in &cfg.book {
        check_start(cfg.variant, sfen)?;
    }
    let found = games_in_file(&cfg.out)?;
    let todo: Vec<u32> = (0..cfg.games).filter(|g| !found.contains(g)).collect();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| LearnError::io(&cfg.out, e))?;
    // A run killed in the middle of a write leaves part of a record; cut it
    // off, or every record appended after it would be misaligned.
    let len = file
        .metadata()
        .map_err(|e| LearnError::io(&cfg.out, e))?
        .len();
    let whole = len - len % RECORD_BYTES as u64;
    if whole != len {
        file.set_len(whole)
            .map_err(|e| LearnError::io(&cfg.out, e))?;
    }
    let out = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let (games, positions) = (AtomicU32::new(0), AtomicU64::new(0));
    let (searches, check_searches, nodes) =
        (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let progress = Mutex::new(progress);
    let start = Instant::now();
    let failed: Mutex<Option<LearnError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                // Made when the thread has a game to play (a run with every
                // game done allocates no table).
                let mut player: Option<(Search, TranspositionTable)> = None;
                loop {
                    let Some(&game) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        return;
                    };
                    if failed.lock().map_or(true, |f| f.is_some()) {
                        return;
                    }
                    let (search, tt) = player.get_or_insert_with(|| {
                        (Search::new(), TranspositionTable::new(cfg.hash_mb))
                    });
                    let g = with_width!(Width::for_variant(cfg.variant), W => {
                        play::<W>(cfg, shortcuts, game, search, tt)
                    });
                    searches.fetch_add(g.searches, Ordering::Relaxed);
                    check_searches.fetch_add(g.check_searches, Ordering::Relaxed);
                    nodes.fetch_add(g.nodes, Ordering::Relaxed);
                    let n = (g.bytes.len() / RECORD_BYTES) as u64;
                    let written =
                        out.lock()
                            .map_err(|_| LearnError::OutputLock)
                            .and_then(|mut f| {
                                f.write_all(&g.bytes)
                                    .map_err(|e| LearnError::io(&cfg.out, e))
                            });
                    if let Err(e) = written {
                        *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        return;
                    }
                    let done = games.fetch_add(1, Ordering::SeqCst) + 1;
                    let total = positions.fetch_add(n, Ordering::SeqCst) + n;
                    let secs = start.elapsed().as_secs_f64();
                    let mut p = progress.lock().unwrap_or_else(|p| p.into_inner());
                    (p)(&format!(
                        "game {}/{}: {done} games, {total} positions, {:.1} games/s",
                        game + 1,
                        cfg.games,
                        done as f64 / secs.max(1e-3)
                    ));
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(Summary {
        games: games.into_inner(),
        positions: positions.into_inner(),
        resumed_after: found.len() as u32,
        searches: searches.into_inner(),
        check_searches: check_searches.into_inner(),
        nodes: nodes.into_inner(),
    })
}

/// Where game `game` starts: its book line (or the start position), then
/// its random plies; None if a random ply ends the game.
fn start_position<W: BitWord>(cfg: &Config, game: u32) -> Option<Position<W>> {
    let v = cfg.variant;
    let game_seed = cfg.seed.wrapping_add(game as u64);
    let mut rng = Rng::seed_from_u64(game_seed);
    let mut pos = if cfg.book.is_empty() {
        Position::<W>::startpos(v)
    } else {
        let line = &cfg.book[(game_seed % cfg.book.len() as u64) as usize];
        Position::<W>::from_sfen(v, line).expect("book lines are checked by run")
    };
    for _ in 0..cfg.random_plies {
        let moves = pos.legal_moves();
        let Some(&m) = rng.choose(&moves) else {
            break;
        };
        pos.do_move(m);
        if pos.game_end().is_some() {
            return None;
        }
    }
    Some(pos)
}

/// One game, with `search` and `tt` (cleared here, whatever they hold: a
/// game's records are those of a fresh searcher and table).
fn play<W: BitWord>(
    cfg: &Config,
    sc: &Shortcuts,
    game: u32,
    search: &mut Search,
    tt: &TranspositionTable,
) -> Game {
    let Some(mut pos) = start_position::<W>(cfg, game) else {
        return Game::default();
    };
    search.clear();
    // A table fresh from the allocator is already empty.
    if tt.touched() {
        tt.clear();
    }
    let mut g = Game::default();
    let opts = SearchOptions {
        declaration: false,
        eval: cfg.eval,
        ..SearchOptions::default()
    };
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let check_limits = Limits {
        nodes: Some(sc.check_nodes.unwrap_or(cfg.nodes)),
        ..Limits::default()
    };
    // (position, score, move), side to move's view.
    let mut kept: Vec<([u8; RECORD_BYTES], usize)> = Vec::new();
    let mut plies = 0;
    // The result for the side to move at the end, and who that is.
    let end = loop {
        if let Some(e) = pos.game_end() {
            break Some((e, pos.side_to_move()));
        }
        if plies >= cfg.max_plies {
            break None;
        }
        let mut score = Score::Cp(0);
        // Fresh signals: a search that reaches its node budget stops them.
        let signals = Signals::default();
        let in_check = pos.in_check();
        let lim = if in_check { &check_limits } else { &limits };
        let d = search.run(&pos, lim, &opts, tt, &signals, &mut |i: &Info| {
            score = i.score;
        });
        g.searches += 1;
        g.check_searches += in_check as u64;
        g.nodes += search.nodes();
        let Decision::Move { mv, .. } = d else {
            break Some((GameEnd::Loss, pos.side_to_move()));
        };
        match score {
            Score::Mate(n) if sc.adjudicate_mates && n > 0 => {
                break Some((GameEnd::Win, pos.side_to_move()))
            }
            Score::Mate(n) if sc.adjudicate_mates && n < 0 => {
                break Some((GameEnd::Loss, pos.side_to_move()))
            }
            _ => {}
        }
        let quiet = !in_check && (mv.is_drop() || pos.piece_at(mv.to()).is_none());
        if let (true, Score::Cp(cp)) = (quiet, score) {
            let cp = cp.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16;
            kept.push((encode(&pos, cp, mv, 0, game), pos.side_to_move().index()));
        }
        pos.do_move(mv);
        plies += 1;
    };
    g.bytes.reserve_exact(kept.len() * RECORD_BYTES);
    for (mut rec, side) in kept {
        let result: i8 = match end {
            None | Some((GameEnd::Draw, _)) => 0,
            Some((e, loser_or_winner)) => {
                let won = matches!(e, GameEnd::Win);
                // `e` is for the side to move at the end.
                if (side == loser_or_winner.index()) == won {
                    1
                } else {
                    -1
                }
            }
        };
        rec[3] = result as u8;
        g.bytes.extend_from_slice(&rec);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_writes_resumes_and_labels_results() {
        let dir = std::env::temp_dir().join(format!("kawari-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("judkins.bin");
        let _ = std::fs::remove_file(&out);
        let cfg = Config {
            variant: Variant::by_name("judkins").unwrap(),
            games: 2,
            nodes: 300,
            random_plies: 4,
            max_plies: 200,
            seed: 5,
            threads: 2,
            hash_mb: 1,
            out: out.clone(),
            eval: EvalChoice::Default,
            book: Vec::new(),
        };
        let s = run(&cfg, &mut |_| {}).unwrap();
        assert_eq!((s.games, s.resumed_after), (2, 0));
        assert!(s.positions > 10, "{s:?}");
        // Resuming to 3 games plays only the third, after cutting off a
        // partly written record.
        let mut f = OpenOptions::new().append(true).open(&out).unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        let s2 = run(
            &Config {
                games: 3,
                ..cfg.clone()
            },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((s2.games, s2.resumed_after), (1, 2));
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(
            bytes.len() as u64,
            (s.positions + s2.positions) * RECORD_BYTES as u64
        );
        let mut games = std::collections::BTreeSet::new();
        let mut scores = std::collections::BTreeSet::new();
        for chunk in bytes.chunks_exact(RECORD_BYTES) {
            let r = record::decode(chunk.try_into().unwrap()).unwrap();
            let pos = Position::<u64>::from_sfen(r.variant, &r.sfen).unwrap();
            assert!(!pos.in_check(), "{}", r.sfen);
            assert!(pos.is_legal(r.mv), "{}", r.sfen);
            assert!((-1..=1).contains(&r.result));
            games.insert(r.game);
            scores.insert(r.score);
        }
        // Every move was searched (a search that does not run scores 0).
        assert!(scores.len() > 5, "{scores:?}");
        assert_eq!(games.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);
        // The same seed plays the same games.
        let again = dir.join("again.bin");
        let _ = std::fs::remove_file(&again);
        run(
            &Config {
                games: 3,
                threads: 1,
                out: again.clone(),
                ..cfg.clone()
            },
            &mut |_| {},
        )
        .unwrap();
        let mut a: Vec<&[u8]> = bytes.chunks_exact(RECORD_BYTES).collect();
        let b = std::fs::read(&again).unwrap();
        let mut b: Vec<&[u8]> = b.chunks_exact(RECORD_BYTES).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // A run stopped with game 2 written but not games 0 and 1 (threads
        // finish out of order) plays those two on resuming, and only those.
        let gap = dir.join("gap.bin");
        let later: Vec<u8> = b
            .iter()
            .filter(|c| record::decode((**c).try_into().unwrap()).unwrap().game == 2)
            .flat_map(|c| c.iter().copied())
            .collect();
        std::fs::write(&gap, &later).unwrap();
        let s3 = run(
            &Config {
                games: 3,
                out: gap.clone(),
                ..cfg
            },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((s3.games, s3.resumed_after), (2, 1));
        let c = std::fs::read(&gap).unwrap();
        let mut c: Vec<&[u8]> = c.chunks_exact(RECORD_BYTES).collect();
        c.sort();
        assert_eq!(c, b);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn small(games: u32) -> Config {
        Config {
            variant: Variant::by_name("judkins").unwrap(),
            games,
            nodes: 300,
            random_plies: 4,
            max_plies: 200,
            seed: 11,
            threads: 1,
            hash_mb: 1,
            out: PathBuf::new(),
            eval: EvalChoice::Default,
            book: Vec::new(),
        }
    }

    /// Plays `game` with a fresh searcher and table.
    fn fresh(cfg: &Config, sc: &Shortcuts, game: u32) -> Game {
        play::<u64>(
            cfg,
            sc,
            game,
            &mut Search::new(),
            &TranspositionTable::new(1),
        )
    }

    #[test]
    fn a_reused_searcher_and_table_play_as_fresh_ones() {
        let cfg = small(4);
        let (mut search, tt) = (Search::new(), TranspositionTable::new(1));
        let mut written = 0;
        for game in [2, 0, 3, 1, 2] {
            let reused = play::<u64>(&cfg, &Shortcuts::default(), game, &mut search, &tt);
            let new = fresh(&cfg, &Shortcuts::default(), game);
            assert_eq!(reused.bytes, new.bytes, "game {game}");
            assert_eq!(
                (reused.searches, reused.check_searches, reused.nodes),
                (new.searches, new.check_searches, new.nodes)
            );
            assert_eq!(new.bytes.len() % RECORD_BYTES, 0);
            written += new.bytes.len();
        }
        assert!(written > 20 * RECORD_BYTES, "{written}");
    }

    #[test]
    fn check_nodes_bound_the_searches_in_check_only() {
        let cfg = small(4);
        let none = Shortcuts::default();
        let same = Shortcuts {
            check_nodes: Some(cfg.nodes),
            ..Shortcuts::default()
        };
        let less = Shortcuts {
            check_nodes: Some(40),
            ..Shortcuts::default()
        };
        let mut in_check = 0;
        for game in 0..4 {
            let base = fresh(&cfg, &none, game);
            assert_eq!(fresh(&cfg, &same, game).bytes, base.bytes);
            let g = fresh(&cfg, &less, game);
            let others = g.searches - g.check_searches;
            assert!(
                g.nodes <= 40 * g.check_searches + 300 * others,
                "game {game}"
            );
            in_check += g.check_searches;
        }
        assert!(in_check > 0);
    }

    #[test]
    fn adjudication_ends_games_at_the_first_mate_score() {
        let cfg = small(8);
        let adj = Shortcuts {
            adjudicate_mates: true,
            ..Shortcuts::default()
        };
        let (mut full_searches, mut cut_searches) = (0, 0);
        for game in 0..8 {
            let full = fresh(&cfg, &Shortcuts::default(), game);
            let cut = fresh(&cfg, &adj, game);
            // The same game up to the mate: its records (results aside) are
            // the first ones of the game played out.
            let strip = |b: &[u8]| -> Vec<Vec<u8>> {
                b.chunks_exact(RECORD_BYTES)
                    .map(|r| {
                        let mut r = r.to_vec();
                        r[3] = 0;
                        r
                    })
                    .collect()
            };
            let (f, c) = (strip(&full.bytes), strip(&cut.bytes));
            assert!(c.len() <= f.len() && f[..c.len()] == c[..], "game {game}");
            assert!(cut.searches <= full.searches, "game {game}");
            full_searches += full.searches;
            cut_searches += cut.searches;
        }
        // Some game saw a mate coming before its last move.
        assert!(
            cut_searches < full_searches,
            "{cut_searches} {full_searches}"
        );
    }

    #[test]
    fn a_book_gives_each_game_its_line() {
        let v = Variant::by_name("judkins").unwrap();
        let dir = std::env::temp_dir().join(format!("kawari-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        // Move numbers 101 and 1001 tell the games of the two lines apart.
        std::fs::write(
            &path,
            "# a suite's header\n\n\
             rb1sgk/5p/1n4/P5/1G4/K1SNBR w - 101  # -53 cp after 6e6d 4a5c 5f5e\n\
             position sfen r2sgk/b4p/3n2/6/PB4/KGSN1R b - 1001\n",
        )
        .unwrap();
        let book = read_book(&path, v).unwrap();
        let lines = [
            "rb1sgk/5p/1n4/P5/1G4/K1SNBR w - 101",
            "r2sgk/b4p/3n2/6/PB4/KGSN1R b - 1001",
        ];
        assert_eq!(book, lines);
        let cfg = Config {
            variant: v,
            games: 4,
            nodes: 300,
            random_plies: 0,
            max_plies: 200,
            seed: 5,
            threads: 2,
            hash_mb: 1,
            out: dir.join("book.bin"),
            eval: EvalChoice::Default,
            book,
        };
        // Game i takes line (seed + i) mod 2, then its random plies.
        for game in 0..4 {
            let pos = start_position::<u64>(&cfg, game).unwrap();
            assert_eq!(pos.to_sfen(), lines[(5 + game as usize) % 2]);
        }
        let plied = Config {
            random_plies: 3,
            ..cfg.clone()
        };
        let a = start_position::<u64>(&plied, 1).unwrap().to_sfen();
        assert_eq!(a, start_position::<u64>(&plied, 1).unwrap().to_sfen());
        // Game 1 takes line 0 (White to move, move 101): three plies on.
        assert!(a.contains(" b ") && a.ends_with(" 104"), "{a}");
        // The records of a run come from those starts.
        let _ = std::fs::remove_file(&cfg.out);
        let s = run(&cfg, &mut |_| {}).unwrap();
        assert_eq!(s.games, 4);
        let bytes = std::fs::read(&cfg.out).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for chunk in bytes.chunks_exact(RECORD_BYTES) {
            let r = record::decode(chunk.try_into().unwrap()).unwrap();
            let number: u32 = r.sfen.rsplit(' ').next().unwrap().parse().unwrap();
            let first = [101, 1001][((5 + r.game) % 2) as usize];
            assert!(
                (first..first + 201).contains(&number),
                "{} {}",
                r.game,
                r.sfen
            );
            seen.insert(r.game);
        }
        assert_eq!(seen.len(), 4);
        // Bad books are refused with the line that is wrong.
        for (text, error) in [
            ("# nothing\n", "no positions"),
            (
                "rbnsgk/5p/6/6/P5/KGSNBR b - 1\nrbnsgk/5p/6 b - 1\n",
                ":2: bad SFEN",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
                ":1: bad SFEN",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = read_book(&path, v).unwrap_err().to_string();
            assert!(e.contains(error), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
