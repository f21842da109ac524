//! An exact, full-width search for short forced wins at the root: the side to
//! move wins within `n` plies if some move leaves every reply lost within
//! `n - 1`, down to a last move that mates or bares the king. Nothing is
//! pruned, so a win the game search's reductions would hide is still seen; a
//! node budget keeps it to the small trees where that is cheap (the main
//! thread runs it before each iteration, up to `ShortWinBudget::plies`).
//!
//! It is conservative about the rules the tree search scores at nodes: a
//! repeated position, a possible declaration or the move limit inside the line
//! count as "no win", so a win it reports is a win under every rule. Its last
//! move is a mate or a baring capture; a quiet move that leaves the opponent
//! no legal move (a stalemate, also a loss) is not looked for, so such a win,
//! rare, is reported longer or not at all.
//!
//! Results are kept in a `ProofTable` for the whole search: king hunts
//! transpose a lot, and an attempt that ran out of budget is retried later
//! with most of its work still known. A kept result was found on one path;
//! as in any transposition table, the repetitions of another path are not
//! looked at again (a win that passes a position twice is still a win: a
//! repetition draws only at the fourth time).

use super::SearchOptions;
use crate::core::BitWord;
use crate::position::{Move, Position, Repetition, MAX_MOVES};
use arrayvec::ArrayVec;

/// How far and on how many nodes the root proves short forced wins
/// (`shortwin`): wins of up to `plies` plies, shortest first, each proof on
/// max(`min_nodes`, tree-search nodes / `divisor`) positions, retried once
/// that has grown fourfold.
#[derive(Copy, Clone, Debug)]
pub struct ShortWinBudget {
    /// Longest win proven, in plies (odd).
    pub plies: i32,
    /// Least nodes of a proof.
    pub min_nodes: u64,
    /// A proof's share of the tree search's nodes, 1/divisor.
    pub divisor: u64,
}

/// Without drops, on a full board (more than `SPARSE_PIECES` pieces): no
/// bare-king hunt is near, and the game search finds short mates by checks;
/// deeper proofs lost Heian strength in matches.
pub const SHORT_WINS_NO_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 3,
    min_nodes: 500,
    divisor: 16,
};

/// A sparse board without drops (at most `SPARSE_PIECES` pieces besides the
/// kings) is where bare-king hunts happen, and the tree search found some
/// 7-ply hunts only at depth 13 to 15, or not by depth 15. With the prover's table such a proof
/// takes up to about 30k nodes, more than a small tree search's share, hence
/// the larger minimum; the trees are narrow there.
pub const SHORT_WINS_SPARSE: ShortWinBudget = ShortWinBudget {
    plies: 7,
    min_nodes: 32_000,
    divisor: 8,
};

/// Most pieces on the board, kings aside, for `SHORT_WINS_SPARSE` (Heian
/// starts with 38, its 8-file boards with 30).
pub const SPARSE_PIECES: u32 = 14;

/// With drops the trees are wide and a proof's nodes dear (each generates
/// every move), deeper proofs showed no gain in matches, and the game search
/// finds every shogi and yari win of the test data at depth N+2 without
/// them: only the mate in one.
pub const SHORT_WINS_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 1,
    min_nodes: 500,
    divisor: 16,
};

/// With drops on a small board (judkins' 36 squares) a position has a
/// third of shogi's moves, and 5-ply proofs are affordable. The judkins
/// network's search found a 5-ply drop mate only at depth 10 without them.
pub const SHORT_WINS_SMALL_DROPS: ShortWinBudget = ShortWinBudget {
    plies: 5,
    min_nodes: 500,
    divisor: 16,
};

/// Boards of at most this many squares count as small for
/// `SHORT_WINS_SMALL_DROPS`.
pub const SMALL_BOARD_SQUARES: usize = 36;

/// What a bounded proof attempt found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    /// The side to move wins within the plies asked: the line, attacker's
    /// moves shortest, defender's longest.
    Win(Vec<Move>),
    /// No win within the plies asked.
    NoWin,
    /// The node budget ran out or the search was stopped.
    Unknown,
}

/// What the prover knows of a position: the side to move's result is
/// decided within `yes` plies (it wins there when it is the prover's side,
/// it loses when it defends), and not within `no` plies.
#[derive(Copy, Clone, Default)]
struct Known {
    key: u64,
    /// Plies within which it is decided; 0: not known.
    yes: u8,
    /// Plies within which it is known not to be decided.
    no: u8,
    /// The winning move, with `yes` at the prover's side's positions.
    mv: Move,
}

/// Results of the prover, kept for one search (cleared with `clear`).
pub(super) struct ProofTable {
    slots: Box<[Known]>,
    /// The slots written since the last `clear`, while they are few: a
    /// search of a few thousand nodes (datagen's) writes a few hundred, and
    /// emptying all 1 MB after each cost it about 2.5% of its time.
    written: Vec<u32>,
    /// More than `PROOF_TABLE_DIRTY_MAX` slots were written: `clear` empties all.
    overflowed: bool,
}

/// Slots of a `ProofTable` (16 bytes each: 1 MB).
const PROOF_TABLE_SLOTS: usize = 1 << 16;
/// Written slots a `ProofTable` lists for `clear` (a sixteenth of the
/// table: past that, emptying all of it costs about as much).
const PROOF_TABLE_DIRTY_MAX: usize = PROOF_TABLE_SLOTS / 16;

impl ProofTable {
    /// An empty table.
    pub(super) fn new() -> ProofTable {
        ProofTable {
            slots: vec![Known::default(); PROOF_TABLE_SLOTS].into_boxed_slice(),
            written: Vec::new(),
            overflowed: false,
        }
    }

    /// Forgets everything (a new search: another root, another history).
    pub(super) fn clear(&mut self) {
        if self.overflowed {
            self.slots.fill(Known::default());
        } else {
            for &i in &self.written {
                self.slots[i as usize] = Known::default();
            }
        }
        self.written.clear();
        self.overflowed = false;
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (PROOF_TABLE_SLOTS - 1)
    }

    /// Some(true) if decided within `n` plies, Some(false) if known not to
    /// be, None if not known.
    fn probe(&self, key: u64, n: i32) -> Option<(bool, Move)> {
        let k = &self.slots[self.slot(key)];
        if k.key != key {
            None
        } else if k.yes != 0 && i32::from(k.yes) <= n {
            Some((true, k.mv))
        } else if i32::from(k.no) >= n {
            Some((false, Move::NONE))
        } else {
            None
        }
    }

    /// Records that the position is decided within `n` plies (`decided`,
    /// with the winning move if the prover's side moves) or is not.
    fn store(&mut self, key: u64, n: i32, decided: bool, mv: Move) {
        let i = self.slot(key);
        let k = &mut self.slots[i];
        // A slot still empty is listed once, on its first write.
        if !self.overflowed && k.key == 0 && k.yes == 0 && k.no == 0 && k.mv == Move::NONE {
            if self.written.len() < PROOF_TABLE_DIRTY_MAX {
                self.written.push(i as u32);
            } else {
                self.overflowed = true;
            }
        }
        if k.key != key {
            *k = Known {
                key,
                ..Known::default()
            };
        }
        let n = n.clamp(0, i32::from(u8::MAX)) as u8;
        if decided {
            if k.yes == 0 || n < k.yes {
                k.yes = n;
                k.mv = mv;
            }
        } else {
            k.no = k.no.max(n);
        }
    }
}

/// One bounded proof attempt.
pub(super) struct ShortWin<'o> {
    opts: &'o SearchOptions,
    table: &'o mut ProofTable,
    nodes: u64,
    budget: u64,
    aborted: bool,
    stop: &'o mut dyn FnMut() -> bool,
    /// The root moves to try first (the game search's order).
    root_order: &'o [Move],
    /// Per ply, the attacker move that last won there (tried first).
    killers: [Move; KILLER_PLIES],
    /// Per ply, the defence that last held there (tried first).
    defences: [Move; KILLER_PLIES],
}

/// Plies with a killer move (every proven length fits).
const KILLER_PLIES: usize = 16;

impl<'o> ShortWin<'o> {
    /// A prover that gives up after about `budget` positions or when `stop`
    /// (asked every 64 positions, as each may generate every move: the clock, `stop`) says so.
    /// `root_order`: root moves to try first, best first.
    pub(super) fn new(
        opts: &'o SearchOptions,
        table: &'o mut ProofTable,
        budget: u64,
        stop: &'o mut dyn FnMut() -> bool,
        root_order: &'o [Move],
    ) -> Self {
        ShortWin {
            opts,
            table,
            nodes: 0,
            budget,
            aborted: false,
            stop,
            root_order,
            killers: [Move::NONE; KILLER_PLIES],
            defences: [Move::NONE; KILLER_PLIES],
        }
    }

    /// Positions visited so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move wins within `plies` (odd) plies, with the line
    /// if so. Exactly the shortest win only if the caller knows there is none
    /// within `plies - 2`.
    pub(super) fn prove<W: BitWord>(&mut self, pos: &mut Position<W>, plies: i32) -> Proof {
        let limit = self.opts.max_moves_to_draw;
        if limit > 0 && pos.game_ply() + plies as u32 > limit {
            return Proof::NoWin;
        }
        let found = self.win_move(pos, plies, 0);
        if self.aborted {
            return Proof::Unknown;
        }
        match found {
            None => Proof::NoWin,
            Some(m) => {
                let mut line = Vec::new();
                self.line(pos, m, plies, &mut line);
                if self.aborted {
                    Proof::Unknown
                } else {
                    Proof::Win(line)
                }
            }
        }
    }

    /// Counts a position; true once the budget is spent or a stop came.
    fn tick(&mut self) -> bool {
        if self.nodes >= self.budget || (self.nodes & 63 == 0 && (self.stop)()) {
            self.aborted = true;
        } else {
            self.nodes += 1;
        }
        self.aborted
    }

    /// A first move that wins within `n` plies (odd, side to move attacks),
    /// `ply` plies from the root.
    fn win_move<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32, ply: usize) -> Option<Move> {
        if self.tick() || pos.bare_king_loss() || (self.opts.declaration && pos.can_declare()) {
            // Declaring is a win, but not a move this search plays out.
            return None;
        }
        if let Some(m) = pos.winning_move() {
            return Some(m);
        }
        if n < 3 {
            return None;
        }
        // Not at the root, whose move is played: a key collision elsewhere
        // costs at most a wrong proof, never an illegal move.
        if ply > 0 {
            if let Some((won, m)) = self.table.probe(pos.hash(), n) {
                return won.then_some(m);
            }
        }
        let moves = pos.legal_moves();
        // At the root the game search's order; below, the move that won at
        // this ply before, then checks and captures: a win usually starts
        // with one. Ordering only: every move is tried. Keys are computed
        // once per move (a sort's key function runs n log n times).
        let disc = pos.discoverers();
        let killer = self.killers.get(ply).copied().unwrap_or(Move::NONE);
        let root_order = if ply == 0 { self.root_order } else { &[] };
        let mut keyed: ArrayVec<(u64, Move), MAX_MOVES> = moves
            .iter()
            .map(|&m| {
                let rank = root_order
                    .iter()
                    .position(|&r| r == m)
                    .map_or(u32::MAX as u64, |r| r as u64);
                let check = pos.gives_check(disc, m);
                let capture = !m.is_drop() && pos.piece_at(m.to()).is_some();
                let key = (rank << 3)
                    | ((m != killer) as u64) << 2
                    | (!check as u64) << 1
                    | !capture as u64;
                (key, m)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        for (_, m) in keyed {
            pos.do_move(m);
            let lost = self.lost_within(pos, n - 1, ply + 1);
            pos.undo_move();
            if self.aborted {
                return None;
            }
            if lost {
                if let Some(k) = self.killers.get_mut(ply) {
                    *k = m;
                }
                self.table.store(pos.hash(), n, true, m);
                return Some(m);
            }
        }
        self.table.store(pos.hash(), n, false, Move::NONE);
        None
    }

    /// Whether the side to move (defending) loses within `n` plies (even)
    /// whatever it plays.
    fn lost_within<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32, ply: usize) -> bool {
        if self.tick() {
            return false;
        }
        if pos.bare_king_loss() {
            return true;
        }
        if pos.repetition() != Repetition::None || (self.opts.declaration && pos.can_declare()) {
            return false;
        }
        // Before generating moves: a hit saves that. (With no plies left
        // the answer is whether a move exists, which the table does not keep.)
        if n > 0 {
            if let Some((lost, _)) = self.table.probe(pos.hash(), n) {
                return lost;
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if n == 0 {
            return false;
        }
        // The defence that held here last time first: a refutation found
        // early saves proving every other reply lost.
        let held = self.defences.get(ply).copied().unwrap_or(Move::NONE);
        let first = moves.iter().position(|&m| m == held);
        let order = first
            .into_iter()
            .chain((0..moves.len()).filter(|&i| Some(i) != first));
        for i in order {
            let m = moves[i];
            pos.do_move(m);
            let won = pos.repetition() == Repetition::None
                && self.win_move(pos, n - 1, ply + 1).is_some();
            pos.undo_move();
            if self.aborted {
                return false;
            }
            if !won {
                if let Some(d) = self.defences.get_mut(ply) {
                    *d = m;
                }
                self.table.store(pos.hash(), n, false, Move::NONE);
                return false;
            }
        }
        self.table.store(pos.hash(), n, true, Move::NONE);
        true
    }

    /// The shortest win of the position after the defender's move, in plies
    /// (odd, at most `n`), or `None`.
    fn shortest<W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        n: i32,
        ply: usize,
    ) -> Option<(i32, Move)> {
        (1..=n)
            .step_by(2)
            .find_map(|k| self.win_move(pos, k, ply).map(|m| (k, m)))
    }

    /// Appends the line of a win in `n` plies starting with `m`: after each
    /// attacker move, the reply that holds out longest.
    fn line<W: BitWord>(&mut self, pos: &mut Position<W>, m: Move, n: i32, line: &mut Vec<Move>) {
        // A move from the table is checked: a key collision must not put an
        // illegal move into the line.
        if self.aborted || !pos.legal_moves().contains(&m) {
            self.aborted = true;
            return;
        }
        line.push(m);
        pos.do_move(m);
        if n >= 3 && !pos.bare_king_loss() {
            let mut best: Option<(i32, Move, Move)> = None;
            for r in pos.legal_moves() {
                pos.do_move(r);
                let s = self.shortest(pos, n - 2, line.len() + 1);
                pos.undo_move();
                if let Some((k, next)) = s {
                    if best.is_none_or(|(bk, _, _)| k > bk) {
                        best = Some((k, r, next));
                    }
                }
            }
            if let Some((k, r, next)) = best {
                line.push(r);
                pos.do_move(r);
                self.line(pos, next, k, line);
                pos.undo_move();
            }
        }
        pos.undo_move();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_table_keeps_bounds_by_length() {
        let mut t = ProofTable::new();
        let m = Move::from_raw(0x123);
        let key = 0xdead_beef_u64;
        assert_eq!(t.probe(key, 5), None);
        // Decided within 5: also within 7, not known within 3.
        t.store(key, 5, true, m);
        assert_eq!(t.probe(key, 7), Some((true, m)));
        assert_eq!(t.probe(key, 5), Some((true, m)));
        assert_eq!(t.probe(key, 3), None);
        // Not decided within 3: not within 1 either.
        t.store(key, 3, false, Move::NONE);
        assert_eq!(t.probe(key, 1), Some((false, Move::NONE)));
        assert_eq!(t.probe(key, 5), Some((true, m)));
        // A shorter decision replaces a longer one, not the other way.
        let short = Move::from_raw(0x77);
        t.store(key, 7, true, short);
        assert_eq!(t.probe(key, 5), Some((true, m)));
        // Another key in the same slot replaces the entry.
        let other = key + PROOF_TABLE_SLOTS as u64;
        t.store(other, 3, false, Move::NONE);
        assert_eq!(t.probe(key, 7), None);
        assert_eq!(t.probe(other, 3), Some((false, Move::NONE)));
        t.clear();
        assert_eq!(t.probe(other, 3), None);
    }

    #[test]
    fn clearing_empties_every_written_slot_few_or_many() {
        let m = Move::from_raw(0x123);
        for n in [
            1,
            100,
            PROOF_TABLE_DIRTY_MAX,
            PROOF_TABLE_DIRTY_MAX + 1,
            3 * PROOF_TABLE_SLOTS / 2,
        ] {
            let mut t = ProofTable::new();
            // Keys 7 apart fill distinct slots, then wrap onto written ones.
            let keys: Vec<u64> = (1..=n as u64).map(|i| i * 7).collect();
            for _ in 0..2 {
                for &k in &keys {
                    t.store(k, 3, true, m);
                }
                assert_eq!(t.probe(*keys.last().unwrap(), 3), Some((true, m)), "{n}");
                t.clear();
                for &k in &keys {
                    assert_eq!(t.probe(k, 3), None, "{n} {k}");
                }
                assert!(
                    t.slots
                        .iter()
                        .all(|k| k.key == 0 && k.yes == 0 && k.no == 0),
                    "{n}"
                );
            }
        }
    }
}
