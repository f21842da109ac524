//! Short forced wins: the game search finds every one of up to 7 plies at
//! two plies beyond its length, with the exact `Score::Mate` and a winning
//! move played.
//!
//! `data/short-wins.tsv` holds positions from the ends of decisive self-play
//! games (`scripts/find_short_wins.py`), so they are not limited to wins the
//! engine already saw. The length of each is decided here, independently of
//! the engine's search: a brute-force minimax over every legal move, where a
//! side with no legal move, or left with a bare king under Heian's rule, has
//! lost. `label_short_win_candidates` (ignored) labels new candidates.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use kawari::core::BitWord;
use kawari::position::{Move, Position};
use kawari::search::{Decision, Limits, Score, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;

/// Longest win the data and the labeller consider, in plies.
const MAX_PLIES: i32 = 7;

/// The labeller's node budget per candidate.
const LABEL_BUDGET: u64 = 200_000_000;

/// Brute force with a node budget: `None` when the budget ran out.
///
/// An exact full-width minimax over every legal move. It uses only the rules
/// (move generation, making moves, the bare-king rule, the hash and
/// `gives_check` to order moves), never the engine's search, evaluation or
/// mate solver. What makes it fast is exact too:
/// - a table of proven facts per position (keyed by its hash, which covers
///   board, hands and side to move; a 64-bit collision would go unnoticed):
///   a win or loss within `n` plies is one within any longer limit, its
///   absence is one within any shorter limit;
/// - move ordering: at the winner's nodes checks and captures first, at every
///   node first the move that decided a sibling (a killer per ply);
/// - at the last ply only whether the opponent is left without a legal move
///   or with a bare king is asked, not the list of its moves.
struct Brute {
    budget: u64,
    /// Facts per position hash, limits in plies (`NONE` when none):
    /// [wins within, no win within, lost within, not lost within].
    known: HashMap<u64, [i8; 4], BuildHasherDefault<KeyHasher>>,
    /// Per plies left: the last move that decided a node.
    killer: [Option<Move>; MAX_PLIES as usize + 1],
}

/// No limit known.
const NONE: i8 = i8::MIN;
/// Entries kept before the table is cleared (about 150 MB).
const KNOWN_CAP: usize = 1 << 22;

/// The key is already a Zobrist hash: used as it is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

impl Brute {
    fn new(budget: u64) -> Brute {
        Brute {
            budget,
            known: HashMap::default(),
            killer: [None; MAX_PLIES as usize + 1],
        }
    }

    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// What the table says of fact `i` (0: wins, 2: lost) within `n` plies.
    fn recall(&self, hash: u64, i: usize, n: i32) -> Option<bool> {
        let k = self.known.get(&hash)?;
        if k[i] != NONE && i32::from(k[i]) <= n {
            Some(true)
        } else if k[i + 1] != NONE && i32::from(k[i + 1]) >= n {
            Some(false)
        } else {
            None
        }
    }

    fn remember(&mut self, hash: u64, i: usize, n: i32, r: bool) {
        if self.known.len() >= KNOWN_CAP {
            self.known.clear();
        }
        let k = self.known.entry(hash).or_insert([NONE; 4]);
        let n = n as i8;
        // A proof is kept for the shortest limit, a refutation for the longest.
        if r && (k[i] == NONE || n < k[i]) {
            k[i] = n;
        } else if !r && (k[i + 1] == NONE || n > k[i + 1]) {
            k[i + 1] = n;
        }
    }

    /// Puts the killer for `n` plies first, if it is in `moves`.
    fn killer_first(&self, moves: &mut [Move], n: i32) {
        if let Some(k) = self.killer[n as usize] {
            if let Some(i) = moves.iter().position(|&m| m == k) {
                moves[..=i].rotate_right(1);
            }
        }
    }

    /// Whether the side to move wins within `n` plies (odd).
    fn wins<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        let hash = pos.hash();
        if let Some(r) = self.recall(hash, 0, n) {
            return Some(r);
        }
        let mut moves = pos.legal_moves();
        // Checks, then captures, then the rest; the killer before all.
        let disc = pos.discoverers();
        let occ = pos.occupied();
        let rank = |m: Move| {
            if pos.gives_check(disc, m) {
                0
            } else if !m.is_drop() && occ.has(m.to()) {
                1
            } else {
                2
            }
        };
        moves.sort_by_key(|&m| rank(m));
        self.killer_first(&mut moves, n);
        let mut r = false;
        for &m in &moves {
            self.spend()?;
            pos.do_move(m);
            let lost = if n == 1 {
                // Whether the opponent has lost on the spot.
                Some(pos.bare_king_loss() || !pos.has_legal_move())
            } else {
                self.lost(pos, n - 1)
            };
            pos.undo_move();
            if lost? {
                self.killer[n as usize] = Some(m);
                r = true;
                break;
            }
        }
        self.remember(hash, 0, n, r);
        Some(r)
    }

    /// Whether the side to move loses within `n` plies (even) whatever it plays.
    fn lost<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        if pos.bare_king_loss() {
            return Some(true);
        }
        if n == 0 {
            return Some(!pos.has_legal_move());
        }
        let hash = pos.hash();
        if let Some(r) = self.recall(hash, 2, n) {
            return Some(r);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(true);
        }
        self.killer_first(&mut moves, n);
        let mut r = true;
        for &m in &moves {
            self.spend()?;
            pos.do_move(m);
            let won = self.wins(pos, n - 1);
            pos.undo_move();
            if !won? {
                self.killer[n as usize] = Some(m);
                r = false;
                break;
            }
        }
        self.remember(hash, 2, n, r);
        Some(r)
    }

    /// The shortest win within `max` plies: `Some(None)` if there is none.
    fn shortest<W: BitWord>(&mut self, pos: &mut Position<W>, max: i32) -> Option<Option<i32>> {
        for n in (1..=max).step_by(2) {
            if self.wins(pos, n)? {
                return Some(Some(n));
            }
        }
        Some(None)
    }
}

/// The search's score and move at `depth`.
fn search<W: BitWord>(pos: &mut Position<W>, depth: u32) -> (Score, Decision) {
    let mut s = Search::new();
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut last = None;
    let best = s.run(
        pos,
        &limits,
        &SearchOptions::default(),
        &tt,
        &Signals::default(),
        &mut |i| last = Some(i.score),
    );
    (last.expect("an info line"), best)
}

/// Checks the data's length by brute force, then the search at `depth`: it
/// must report `Mate(n)` and play a winning move.
fn check_row<W: BitWord>(v: &'static Variant, sfen: &str, n: i32, depth: u32) {
    let mut pos = crate::common::position::<W>(v, sfen);
    let mut brute = Brute::new(50_000_000);
    let shortest = brute
        .shortest(&mut pos, n)
        .unwrap_or_else(|| panic!("{sfen}: brute force over budget"));
    assert_eq!(
        shortest,
        Some(n),
        "{} {sfen}: the data's length is wrong",
        v.name()
    );
    let (score, best) = search(&mut pos, depth);
    assert_eq!(score, Score::Mate(n), "{} {sfen}: depth {depth}", v.name());
    // The move played is a winning one of that length.
    let Decision::Move { mv, .. } = best else {
        panic!("{sfen}: no move")
    };
    pos.do_move(mv);
    brute.budget = 50_000_000;
    assert_eq!(
        brute.lost(&mut pos, n - 1),
        Some(true),
        "{} {sfen}: {} does not win in {n}",
        v.name(),
        mv.to_usi(v)
    );
}

/// Runs `check` over the data rows.
fn each_row(mut check: impl FnMut(&'static Variant, &str, i32)) {
    for r in crate::common::rows("short-wins.tsv") {
        let v = Variant::by_name(&r[0]).unwrap();
        let n: i32 = r[2].parse().unwrap();
        check(v, &r[1], n);
    }
}

#[test]
fn short_wins_are_found_two_plies_beyond_their_length() {
    let rows = crate::common::rows("short-wins.tsv");
    for name in crate::common::VARIANTS {
        let n = rows.iter().filter(|r| r[0] == *name).count();
        assert!(n >= 3, "{name} needs short-win positions");
    }
    each_row(
        |v, sfen, n| with_width!(Width::for_variant(v), W => check_row::<W>(v, sfen, n, n as u32 + 2)),
    );
}

/// Labels candidates (`KAWARI_CANDIDATES`, lines `variant  sfen  ...`) with
/// their shortest win within `MAX_PLIES`, printing data rows for those that
/// have one and `# none` / `# unknown` lines for the rest.
#[test]
#[ignore]
fn label_short_win_candidates() {
    let path = std::env::var("KAWARI_CANDIDATES").expect("set KAWARI_CANDIDATES");
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let v = Variant::by_name(f[0]).unwrap();
        let verdict = with_width!(Width::for_variant(v), W => {
            let mut pos = crate::common::position::<W>(v, f[1]);
            Brute::new(LABEL_BUDGET).shortest(&mut pos, MAX_PLIES)
        });
        match verdict {
            Some(Some(n)) => println!("{}\t{}\t{n}", f[0], f[1]),
            Some(None) => println!("# none\t{}\t{}", f[0], f[1]),
            None => println!("# unknown\t{}\t{}", f[0], f[1]),
        }
    }
}

/// The plain minimax `Brute` replaced (no table, no ordering), as a
/// reference for it.
struct Naive {
    budget: u64,
}

impl Naive {
    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    fn wins<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        for m in pos.legal_moves() {
            self.spend()?;
            pos.do_move(m);
            let r = self.lost(pos, n - 1);
            pos.undo_move();
            if r? {
                return Some(true);
            }
        }
        Some(false)
    }

    fn lost<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        if pos.bare_king_loss() {
            return Some(true);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(true);
        }
        if n == 0 {
            return Some(false);
        }
        for m in moves {
            self.spend()?;
            pos.do_move(m);
            let r = self.wins(pos, n - 1);
            pos.undo_move();
            if !r? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// `Brute` agrees with the plain minimax on every row and, for wins of up
/// to 5 plies, on each move of the winner (whether it still wins within
/// `n - 1`, and within `n - 3`): facts both prove and both refute. Rows or
/// moves where the plain one runs out of its budget are skipped.
#[test]
#[ignore]
fn brute_agrees_with_plain_minimax() {
    let (mut compared, mut skipped) = (0, 0);
    each_row(|v, sfen, n| {
        with_width!(Width::for_variant(v), W => {
            let mut pos = crate::common::position::<W>(v, sfen);
            let mut brute = Brute::new(50_000_000);
            let mut questions = vec![(None, n), (None, n - 2)];
            if n <= 5 {
                for m in pos.legal_moves() {
                    questions.push((Some(m), n - 1));
                    questions.push((Some(m), n - 3));
                }
            }
            for (m, k) in questions.into_iter().filter(|&(_, k)| k >= 0) {
                let mut naive = Naive { budget: 20_000_000 };
                let (fast, plain) = match m {
                    None => (brute.wins(&mut pos, k), naive.wins(&mut pos, k)),
                    Some(m) => {
                        pos.do_move(m);
                        let r = (brute.lost(&mut pos, k), naive.lost(&mut pos, k));
                        pos.undo_move();
                        r
                    }
                };
                let Some(plain) = plain else {
                    skipped += 1;
                    continue;
                };
                assert_eq!(fast, Some(plain), "{} {sfen} {m:?} {k}", v.name());
                compared += 1;
            }
        })
    });
    println!("{compared} facts compared, {skipped} skipped (plain minimax over budget)");
}
