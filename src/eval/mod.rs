//! Static evaluation: material on the board and in hand, piece-square terms
//! (advancement, standing in the enemy camp), king safety (attacks and defenders
//! around each king, open lines, drop squares), slider mobility and control of
//! the promotion zone. Weights live in `params`; `EvalTables` resolves them per
//! variant once.

pub mod params;

use crate::core::{BitWord, Bitboard, Color, Direction, MAX_SQUARES};
use crate::position::Position;
use crate::variant::{Kind, Variant, MAX_HAND_KINDS, MAX_KINDS};
use once_cell::sync::Lazy;
use params::{KingWeights, VariantWeights};

/// Value used for the king in exchanges.
pub const KING_VALUE: i32 = 20_000;

/// The weights of one variant resolved to arrays indexed by kind and square.
pub struct EvalTables {
    /// Value on the board per kind.
    pub board: [i32; MAX_KINDS],
    /// Value in hand per (base) kind.
    pub hand: [i32; MAX_HAND_KINDS],
    /// What capturing a kind swings in material (board value, plus the hand value
    /// of its base kind in drop variants); used by exchange evaluation.
    pub exchange: [i32; MAX_KINDS],
    /// Gain of promoting each kind (0 if it cannot).
    pub promotion_gain: [i32; MAX_KINDS],
    mobility: [i32; MAX_KINDS],
    king_attack: [i32; MAX_KINDS],
    hand_threat: [i32; MAX_HAND_KINDS],
    defend: [i32; MAX_KINDS],
    pst: [[[i32; MAX_SQUARES]; MAX_KINDS]; 2],
    /// The piece-square term of each kind averaged over the board's squares.
    pst_mean: [i32; MAX_KINDS],
    king: KingWeights,
    tempo: i32,
    zone_control: i32,
    few_pieces: i32,
    mop_up: i32,
    hanging: i32,
    pawn_threat: i32,
    /// Kinds that count as pawns for threats and the mobility area (bit per
    /// kind): those worth at most 1.5 times the cheapest piece.
    pawn_kinds: u64,
}

impl EvalTables {
    fn build(v: &'static Variant) -> EvalTables {
        EvalTables::from_weights(v, params::for_variant(v.name()))
    }

    /// Tables for `v` from explicit weights (for tuning).
    pub fn from_weights(v: &Variant, wv: &VariantWeights<'_>) -> EvalTables {
        let mut et = EvalTables {
            board: [0; MAX_KINDS],
            hand: [0; MAX_HAND_KINDS],
            exchange: [0; MAX_KINDS],
            promotion_gain: [0; MAX_KINDS],
            mobility: [0; MAX_KINDS],
            king_attack: [0; MAX_KINDS],
            hand_threat: [0; MAX_HAND_KINDS],
            defend: [0; MAX_KINDS],
            pst: [[[0; MAX_SQUARES]; MAX_KINDS]; 2],
            pst_mean: [0; MAX_KINDS],
            king: wv.king,
            tempo: wv.tempo,
            zone_control: wv.zone_control,
            few_pieces: wv.few_pieces,
            mop_up: wv.mop_up,
            hanging: wv.hanging,
            pawn_threat: wv.pawn_threat,
            pawn_kinds: 0,
        };
        let g = v.geometry();
        let ranks = g.ranks as i32;
        let zone_ranks = v.def.zone_ranks as i32;
        for (ki, info) in v.kinds.iter().enumerate() {
            let pw = wv
                .pieces
                .iter()
                .find(|p| p.letter == info.letter && p.promoted == info.promoted);
            let board = match pw {
                Some(p) => p.board,
                None if info.royal => 0,
                None => params::POINT_VALUE * info.points.max(1) as i32,
            };
            et.board[ki] = board;
            if ki < v.hand_kinds {
                et.hand[ki] = pw.map_or(board, |p| p.hand.max(board));
                et.hand_threat[ki] = pw.map_or(0, |p| p.hand_threat);
            }
            if let Some(p) = pw {
                et.mobility[ki] = p.mobility;
                et.king_attack[ki] = p.king_attack;
                et.defend[ki] = p.defend;
            }
            for c in Color::ALL {
                for sq in g.all() {
                    let r = g.rank_of(sq);
                    // Ranks advanced from the own back rank.
                    let rel = match c {
                        Color::Black => ranks - 1 - r,
                        Color::White => r,
                    };
                    let in_camp = rel >= ranks - zone_ranks;
                    // Files from the centre file (both middle files of an even
                    // board count as 0).
                    let off = (2 * g.file_of(sq) - (g.files as i32 - 1)).abs() / 2;
                    let mut s = 0;
                    if let Some(p) = pw {
                        s += p.rank[(rel as usize).min(params::RANK_TERMS - 1)];
                        s += p.file[(off as usize).min(params::FILE_TERMS - 1)];
                    }
                    if info.royal {
                        s -= wv.king.home_rank * rel.min(ranks / 2);
                        // Castles stand to one side.
                        s += wv.king.side_file * off.min(3);
                    } else if let Some(p) = pw {
                        s += p.advance * rel.min(p.advance_cap);
                        if in_camp {
                            s += p.in_zone;
                        }
                    }
                    et.pst[c.index()][ki][sq.index()] = s;
                }
            }
            let sum: i32 = g.all().map(|sq| et.pst[0][ki][sq.index()]).sum();
            et.pst_mean[ki] = sum / g.squares() as i32;
        }
        let cheapest = v
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, info)| !info.royal)
            .map(|(ki, _)| et.board[ki])
            .min()
            .unwrap_or(0);
        for (ki, info) in v.kinds.iter().enumerate() {
            et.exchange[ki] = if info.royal {
                KING_VALUE
            } else if v.hand_kinds > 0 {
                et.board[ki] + et.hand[info.base.index()]
            } else {
                et.board[ki]
            };
            if !info.royal && et.board[ki] * 2 <= cheapest * 3 {
                et.pawn_kinds |= 1 << ki;
            }
            if let Some(pk) = info.promotes_to {
                et.promotion_gain[ki] = (et.board[pk.index()] - et.board[ki]).max(0);
            }
        }
        et
    }
}

static TABLES: Lazy<Vec<EvalTables>> =
    Lazy::new(|| Variant::all().iter().map(EvalTables::build).collect());

/// The evaluation tables of a built-in variant.
pub fn tables(v: &'static Variant) -> &'static EvalTables {
    let all = Variant::all();
    let i = all
        .iter()
        .position(|x| std::ptr::eq(x, v))
        .or_else(|| all.iter().position(|x| x.name() == v.name()))
        .unwrap_or(0);
    &TABLES[i]
}

/// Evaluation in centipawns from the side to move's point of view.
pub fn evaluate<W: BitWord>(pos: &Position<W>) -> i32 {
    evaluate_with(tables(pos.variant()), pos)
}

/// The terms of the evaluation, as reported by `trace`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Piece values on the board and in hand.
    Material,
    /// Piece-square terms and defenders next to the king.
    Placement,
    /// Reachable squares.
    Mobility,
    /// King danger.
    KingSafety,
    /// Attacks on the enemy camp.
    ZoneControl,
    /// Undefended and pawn-attacked enemy pieces.
    Threats,
    /// Few pieces left (bare-king danger) and the endgame drive.
    Endgame,
}

impl Term {
    /// Every term, in report order.
    pub const ALL: [Term; 7] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::KingSafety,
        Term::ZoneControl,
        Term::Threats,
        Term::Endgame,
    ];

    /// Lower-case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Placement => "placement",
            Term::Mobility => "mobility",
            Term::KingSafety => "king safety",
            Term::ZoneControl => "zone control",
            Term::Threats => "threats",
            Term::Endgame => "endgame",
        }
    }
}

/// Receives each term as it is added (`NoTrace` in the search: compiled away).
pub trait Trace {
    /// `v` centipawns for colour index `c` under `term`.
    fn add(&mut self, term: Term, c: usize, v: i32);
}

/// The tracer of the search: does nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Term, _: usize, _: i32) {}
}

/// Per-term sums, indexed like `Term::ALL`, for Black and White.
#[derive(Default, Debug)]
pub struct TermSums(pub [[i32; 2]; 7]);

impl Trace for TermSums {
    fn add(&mut self, term: Term, c: usize, v: i32) {
        // `Term::ALL` lists the variants in declaration order.
        self.0[term as usize][c] += v;
    }
}

/// The evaluation split by term, and the total from the side to move's point
/// of view.
pub fn trace<W: BitWord>(pos: &Position<W>) -> (TermSums, i32) {
    let mut sums = TermSums::default();
    let v = evaluate_traced(tables(pos.variant()), pos, &mut sums);
    (sums, v)
}

/// `evaluate` with the variant's tables already looked up.
pub fn evaluate_with<W: BitWord>(et: &EvalTables, pos: &Position<W>) -> i32 {
    evaluate_traced(et, pos, &mut NoTrace)
}

/// Both sides' scores, each term also handed to a tracer.
struct Acc<'a, T: Trace> {
    score: [i32; 2],
    tr: &'a mut T,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, term: Term, c: usize, v: i32) {
        self.score[c] += v;
        self.tr.add(term, c, v);
    }
}

fn evaluate_traced<W: BitWord, T: Trace>(et: &EvalTables, pos: &Position<W>, tr: &mut T) -> i32 {
    let t = pos.tables();
    let v = t.variant;
    let occ = pos.occupied();
    let king = v.king;
    let ksq = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let kzone = [
        t.attacks(Color::Black, king, ksq[0], occ),
        t.attacks(Color::White, king, ksq[1], occ),
    ];
    // The outer ring: squares two steps from each king (used when weighted).
    let mut outer = [Bitboard::<W>::EMPTY; 2];
    if et.king.outer_ring != 0 {
        for c in Color::ALL {
            let ci = c.index();
            let mut ring = Bitboard::<W>::EMPTY;
            for sq in kzone[ci] {
                ring |= t.leap(c, king, sq);
            }
            outer[ci] = ring & !kzone[ci] & !Bitboard::from_square(ksq[ci]);
        }
    }
    // Squares each side attacks, per kind (for safe checks).
    let mut by_kind = [[Bitboard::<W>::EMPTY; MAX_KINDS]; 2];
    let mut acc = Acc { score: [0; 2], tr };
    let mut material = [0i32; 2];
    let mut attacked = [Bitboard::<W>::EMPTY; 2];
    // Danger units against the king of each colour.
    let mut danger = [0i32; 2];
    // Pawns of both sides and the squares each side's pawns attack. Only tables
    // that weigh threats compute them; there the attacked squares are also left
    // out of the other side's mobility (elsewhere mobility counts every square).
    let threats = et.pawn_threat != 0 || et.hanging != 0;
    let mut pawns = Bitboard::<W>::EMPTY;
    let mut pawn_attacks = [Bitboard::<W>::EMPTY; 2];
    if threats {
        let mut kinds = et.pawn_kinds;
        while kinds != 0 {
            let k = Kind(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            pawns |= pos.pieces_of_kind(k);
            for c in Color::ALL {
                for sq in pos.pieces_of_kind(k) & pos.pieces_of(c) {
                    pawn_attacks[c.index()] |= t.attacks(c, k, sq, occ);
                }
            }
        }
    }

    for c in Color::ALL {
        let ci = c.index();
        let them = c.opp().index();
        let own = pos.pieces_of(c);
        for sq in own {
            let k = pos.piece_at(sq).kind();
            let ki = k.index();
            material[ci] += et.board[ki];
            acc.add(Term::Material, ci, et.board[ki]);
            acc.add(Term::Placement, ci, et.pst[ci][ki][sq.index()]);
            if k == king {
                continue;
            }
            let a = t.attacks(c, k, sq, occ);
            attacked[ci] |= a;
            if et.mobility[ki] != 0 {
                let n = (a & !own & !pawn_attacks[them]).count() as i32;
                acc.add(Term::Mobility, ci, et.mobility[ki] * n);
            }
            let hits = (a & kzone[them]).count() as i32;
            danger[them] += et.king_attack[ki] * hits;
            if et.king.outer_ring != 0 {
                let far = (a & outer[them]).count() as i32;
                danger[them] += et.king_attack[ki] * et.king.outer_ring * far / 4;
            }
            if et.king.safe_check != 0 {
                by_kind[ci][ki] |= a;
            }
            if et.defend[ki] != 0 && kzone[ci].has(sq) {
                acc.add(Term::Placement, ci, et.defend[ki]);
                danger[ci] -= et.king.defender;
            }
        }
        let hand = pos.hand(c);
        for hk in 0..v.hand_kinds {
            let n = hand.count(Kind(hk as u8)) as i32;
            if n > 0 {
                acc.add(Term::Material, ci, n * et.hand[hk]);
                danger[them] += et.hand_threat[hk];
            }
        }
    }

    for c in Color::ALL {
        let ci = c.index();
        let them = c.opp();
        let ti = them.index();
        let kw = &et.king;
        let weak = kzone[ci] & attacked[ti] & !attacked[ci];
        let mut u = danger[ci] + kw.weak_square * weak.count() as i32;
        if v.hand_kinds > 0 && !pos.hand(them).is_empty() {
            u += kw.drop_square * (weak & !occ).count() as i32;
        }
        if kw.open_line != 0 {
            u += kw.open_line * open_lines(pos, ksq[ci], them, occ);
        }
        if kw.safe_check != 0 {
            // Squares from which one of their pieces could check us, reachable by
            // it and not covered by our other pieces.
            let unsafe_for_them = attacked[ci] | pos.pieces_of(them);
            for (ki, &reach) in by_kind[ti].iter().enumerate().take(v.kinds.len()) {
                if reach.is_empty() {
                    continue;
                }
                let from = t.attacks(c, Kind(ki as u8), ksq[ci], occ);
                u += kw.safe_check * (reach & from & !unsafe_for_them).count() as i32;
            }
        }
        if u > 0 {
            let penalty = (kw.linear * u + kw.quadratic * u * u / 256).min(kw.cap);
            acc.add(Term::KingSafety, ci, -penalty);
        }
        let n = (attacked[ci] & t.zone(c)).count() as i32;
        acc.add(Term::ZoneControl, ci, et.zone_control * n);
        if et.few_pieces != 0 {
            let n = pos.pieces_of(c).count() as i32 - 1;
            if n < 3 {
                acc.add(Term::Endgame, ci, -et.few_pieces * (3 - n));
            }
        }
    }

    if threats {
        for c in Color::ALL {
            let (ci, ti) = (c.index(), c.opp().index());
            // Their pieces (not the king) we attack and they do not defend.
            let targets = pos.pieces_of(c.opp()) & !pos.pieces_of_kind(king);
            let hanging = (targets & attacked[ci] & !attacked[ti]).count() as i32;
            acc.add(Term::Threats, ci, et.hanging * hanging);
            let hit = (targets & !pawns & pawn_attacks[ci]).count() as i32;
            acc.add(Term::Threats, ci, et.pawn_threat * hit);
        }
    }

    if et.mop_up != 0 {
        for c in Color::ALL {
            let (ci, ti) = (c.index(), c.opp().index());
            if pos.pieces_of(c.opp()).count() <= 4
                && material[ci] >= material[ti] + params::MOP_UP_LEAD
            {
                let g = t.geo;
                let (kf, kr) = (g.file_of(ksq[ti]), g.rank_of(ksq[ti]));
                for sq in pos.pieces_of(c) {
                    let d = (g.file_of(sq) - kf).abs().max((g.rank_of(sq) - kr).abs());
                    acc.add(Term::Endgame, ci, et.mop_up * (8 - d.min(8)));
                }
            }
        }
    }

    if et.mop_up != 0 && v.def.bare_king_loses {
        hunt(et, pos, &attacked, &kzone, &material, true, &mut acc);
    }

    let us = pos.side_to_move().index();
    acc.score[us] - acc.score[1 - us] + et.tempo
}

/// The bare-king hunt (Heian): once a side leads in material by
/// `params::MOP_UP_LEAD` and the opponent is down to one or two pieces besides
/// the king, taking those wins (the last one at once, even where it could be
/// taken back), so the leader's pieces hunt them. Each such piece gives its
/// side `params::HUNT_FLIGHT` per square it could move to that the hunter does
/// not hold; the hunter gets `params::HUNT_NEAR` per piece per step closer to
/// the nearest of them, and its pieces are placed at their kind's average
/// piece-square value wherever they stand (with `placement`: the tables are
/// in the sum).
fn hunt<W: BitWord, T: Trace>(
    et: &EvalTables,
    pos: &Position<W>,
    attacked: &[Bitboard<W>; 2],
    kzone: &[Bitboard<W>; 2],
    material: &[i32; 2],
    placement: bool,
    acc: &mut Acc<'_, T>,
) {
    let t = pos.tables();
    let g = t.geo;
    let occ = pos.occupied();
    for c in Color::ALL {
        let (ci, ti) = (c.index(), c.opp().index());
        if !pos.has_king(c.opp()) || material[ci] < material[ti] + params::MOP_UP_LEAD {
            continue;
        }
        let prey = pos.pieces_of(c.opp()) & !Bitboard::from_square(pos.king_square(c.opp()));
        if prey.is_empty() || prey.count() > 2 {
            continue;
        }
        // Squares we hold: attacked by one of our pieces, or next to our king
        // and not defended by theirs.
        let held = attacked[ci] | (kzone[ci] & !attacked[ti] & !kzone[ti]);
        for sq in prey {
            let k = pos.piece_at(sq).kind();
            let free = t.attacks(c.opp(), k, sq, occ) & !pos.pieces_of(c.opp()) & !held;
            acc.add(Term::Endgame, ti, params::HUNT_FLIGHT * free.count() as i32);
        }
        for from in pos.pieces_of(c) {
            let (f, r) = (g.file_of(from), g.rank_of(from));
            let d = prey
                .into_iter()
                .map(|sq| (g.file_of(sq) - f).abs().max((g.rank_of(sq) - r).abs()))
                .min()
                .unwrap_or(8);
            acc.add(Term::Endgame, ci, params::HUNT_NEAR * (8 - d.min(8)));
            if !placement {
                continue;
            }
            // The fitted tables would keep the hunters off the edges where
            // the prey hides: each counts its kind's average square instead.
            let ki = pos.piece_at(from).kind().index();
            acc.add(
                Term::Placement,
                ci,
                et.pst_mean[ki] - et.pst[ci][ki][from.index()],
            );
        }
    }
}

/// The bare-king hunt (see `hunt`) on its own, from the side to move's point
/// of view, to add to a network's score: self-play games rarely reach such
/// endings, so the networks did not learn to finish them. Costs two
/// popcounts unless a side is down to two pieces besides its king.
pub fn hunt_bonus<W: BitWord>(et: &EvalTables, pos: &Position<W>) -> i32 {
    let t = pos.tables();
    if et.mop_up == 0
        || !t.variant.def.bare_king_loses
        || Color::ALL.iter().all(|&c| pos.pieces_of(c).count() > 3)
    {
        return 0;
    }
    let occ = pos.occupied();
    let king = t.variant.king;
    let mut material = [0; 2];
    let mut attacked = [Bitboard::<W>::EMPTY; 2];
    let mut kzone = [Bitboard::<W>::EMPTY; 2];
    for c in Color::ALL {
        let ci = c.index();
        for sq in pos.pieces_of(c) {
            let k = pos.piece_at(sq).kind();
            material[ci] += et.board[k.index()];
            if k == king {
                kzone[ci] = t.attacks(c, king, sq, occ);
            } else {
                attacked[ci] |= t.attacks(c, k, sq, occ);
            }
        }
    }
    let mut acc = Acc {
        score: [0; 2],
        tr: &mut NoTrace,
    };
    hunt(et, pos, &attacked, &kzone, &material, false, &mut acc);
    let us = pos.side_to_move().index();
    acc.score[us] - acc.score[1 - us]
}

/// Empty squares on the lines out of `ksq` along which `them` has a slider able
/// to come (on the board, or in hand).
fn open_lines<W: BitWord>(
    pos: &Position<W>,
    ksq: crate::core::Square,
    them: Color,
    occ: Bitboard<W>,
) -> i32 {
    let t = pos.tables();
    let v = t.variant;
    let theirs = pos.pieces_of(them);
    let hand = pos.hand(them);
    let mut n = 0;
    for d in Direction::ALL {
        // Their pieces that slide from the far end of the ray towards the king.
        let mut kinds = t.sliders_toward(them, d.opposite());
        let mut present = false;
        while kinds != 0 {
            let k = Kind(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            if (k.index() < v.hand_kinds && hand.count(k) > 0)
                || (pos.pieces_of_kind(k) & theirs).any()
            {
                present = true;
                break;
            }
        }
        if present {
            n += (t.slide(d, ksq, occ) & !occ).count() as i32;
        }
    }
    n
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::all() {
            let mut pos = Position::<u128>::startpos(v);
            let e = evaluate(&pos);
            // Only the tempo separates the sides at the start.
            assert_eq!(e, tables(v).tempo, "{}", v.name());
            let m = pos.legal_moves()[0];
            pos.do_move(m);
            let _ = evaluate(&pos);
        }
    }

    /// The SFEN of the same position seen from the other side: board rotated,
    /// colours swapped.
    pub(crate) fn flip(sfen: &str) -> String {
        let f: Vec<&str> = sfen.split(' ').collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let ranks: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                // Tokens: digits, or an optional '+' and a letter.
                let mut toks: Vec<String> = Vec::new();
                let mut cur = String::new();
                for c in r.chars() {
                    cur.push(swap(c));
                    if c != '+' {
                        toks.push(std::mem::take(&mut cur));
                    }
                }
                toks.reverse();
                toks.concat()
            })
            .collect();
        let side = if f[1] == "b" { "w" } else { "b" };
        let hand: String = if f[2] == "-" {
            "-".into()
        } else {
            f[2].chars().map(swap).collect()
        };
        format!("{} {} {} {}", ranks.join("/"), side, hand, f[3])
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let a = Position::<u128>::from_sfen(v, sfen).unwrap();
            let fl = flip(sfen);
            let b = Position::<u128>::from_sfen(v, &fl).unwrap_or_else(|e| panic!("{fl}: {e}"));
            assert_eq!(evaluate(&a), evaluate(&b), "{name} {sfen} / {fl}");
        }
    }

    #[test]
    fn term_indices_follow_term_all() {
        for (i, t) in Term::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i, "{}", t.name());
        }
    }

    #[test]
    fn trace_adds_up_to_the_evaluation() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let (sums, total) = trace(&pos);
            assert_eq!(total, evaluate(&pos), "{name} {sfen}");
            let us = pos.side_to_move().index();
            let diff: i32 = sums.0.iter().map(|t| t[us] - t[1 - us]).sum();
            assert_eq!(diff + tables(v).tempo, total, "{name} {sfen}");
            // Both sides have material.
            assert!(sums.0[0][0] > 0 && sums.0[0][1] > 0, "{name} {sfen}");
        }
    }

    /// A piece in hand is worth more than the same piece on an average square
    /// (its value plus the piece-square term, which fitted tables use for part
    /// of the value).
    #[test]
    fn hand_pieces_are_worth_more() {
        for v in Variant::all() {
            let et = tables(v);
            let squares = v.geometry().squares();
            for k in 0..v.hand_kinds {
                let placed: i32 = (0..squares).map(|sq| et.pst[0][k][sq]).sum();
                let on_board = et.board[k] + placed / squares as i32;
                assert!(
                    et.hand[k] > on_board,
                    "{} kind {k}: hand {} board {on_board}",
                    v.name(),
                    et.hand[k]
                );
            }
        }
    }

    #[test]
    fn material_counts() {
        let v = Variant::by_name("shogi").unwrap();
        let base = Position::<u128>::startpos(v);
        let up = Position::<u128>::from_sfen(
            v,
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1",
        )
        .unwrap();
        assert!(evaluate(&up) > evaluate(&base) + 800);
    }

    /// Heian's bare-king hunt: with the opponent down to one piece besides the
    /// king, the leader gains by taking that piece's squares and closing in on
    /// it, wherever its own piece-square tables would rather have it; both
    /// sides see the same.
    #[test]
    fn the_hunt_closes_in_on_the_last_piece() {
        let v = Variant::by_name("heian8x8").unwrap();
        // Black (K G S P) against White's king and silver. The gold two
        // squares below the silver holds its three forward squares; in the
        // corner it holds none.
        let near = "k7/8/8/8/4s3/8/2S1G3/2P1K3 b - 1";
        let far = "k7/8/8/8/4s3/8/2S5/G1P1K3 b - 1";
        let eval_of = |sfen: &str| {
            let pos = Position::<u64>::from_sfen(v, sfen).unwrap();
            let flipped = Position::<u64>::from_sfen(v, &flip(sfen)).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&flipped), "{sfen}");
            evaluate(&pos)
        };
        let (n, f) = (eval_of(near), eval_of(far));
        // Two squares taken from the silver and two steps closer, at least.
        let gain = 2 * params::HUNT_FLIGHT + 2 * params::HUNT_NEAR;
        assert!(n >= f + gain, "near {n}, far {f}");
        // The hunt waits until White is down to two pieces besides the king.
        let endgame = |sfen: &str| {
            let (sums, _) = trace(&Position::<u64>::from_sfen(v, sfen).unwrap());
            sums.0[Term::Endgame as usize][Color::White.index()]
        };
        assert_eq!(endgame("k7/pp6/8/8/4s3/8/2S1G3/2P1K3 b - 1"), 0);
        assert!(endgame("k7/p7/8/8/4s3/8/2S1G3/2P1K3 b - 1") > -tables(v).few_pieces);
    }

    /// The hunt added to a network's score: the same flight and distance
    /// terms as in the hand-made evaluation, nothing outside such endings,
    /// and the same from both sides.
    #[test]
    fn the_hunt_bonus_alone_drives_the_same_ending() {
        let v = Variant::by_name("heian8x8").unwrap();
        let et = tables(v);
        let bonus = |sfen: &str| {
            let pos = Position::<u64>::from_sfen(v, sfen).unwrap();
            let flipped = Position::<u64>::from_sfen(v, &flip(sfen)).unwrap();
            assert_eq!(hunt_bonus(et, &pos), hunt_bonus(et, &flipped), "{sfen}");
            hunt_bonus(et, &pos)
        };
        let near = bonus("k7/8/8/8/4s3/8/2S1G3/2P1K3 b - 1");
        let far = bonus("k7/8/8/8/4s3/8/2S5/G1P1K3 b - 1");
        assert!(near >= far + 2 * params::HUNT_FLIGHT + 2 * params::HUNT_NEAR);
        assert!(far > 0, "{far}");
        // White to move sees the same ending from the other side.
        assert_eq!(bonus("k7/8/8/8/4s3/8/2S1G3/2P1K3 w - 1"), -near);
        assert_eq!(bonus("k7/pp6/8/8/4s3/8/2S1G3/2P1K3 b - 1"), 0);
        for v in Variant::all() {
            let pos = Position::<u128>::startpos(v);
            assert_eq!(hunt_bonus(tables(v), &pos), 0, "{}", v.name());
        }
    }

    /// The rank and file factors of the piece-square table count from each
    /// side's own back rank and from the centre file.
    #[test]
    fn rank_and_file_terms_apply_per_side() {
        let v = Variant::by_name("heian").unwrap();
        let base = *params::for_variant("heian");
        let mut pieces = base.pieces.to_vec();
        let pawn = pieces.iter_mut().find(|p| p.letter == 'P' && !p.promoted);
        let pawn = pawn.unwrap();
        pawn.rank[3] += 40;
        pawn.file[4] += 7;
        let changed = VariantWeights {
            pieces: &pieces,
            ..base
        };
        let (a, b) = (
            EvalTables::from_weights(v, &base),
            EvalTables::from_weights(v, &changed),
        );
        // Black has pushed the pawn of file 9 (an edge file) to rank 3 from
        // its back rank; White to move.
        let mut pos = Position::<u128>::startpos(v);
        pos.do_move(pos.parse_move("9g9f").unwrap());
        assert_eq!(evaluate_with(&b, &pos) - evaluate_with(&a, &pos), -40);
        // The edge-file pawns of both sides cancel.
        let start = Position::<u128>::startpos(v);
        assert_eq!(evaluate_with(&b, &start), evaluate_with(&a, &start));

        // The file factor: Black's gold steps from file 6 (one file from the
        // centre) to file 7 (two files).
        let mut pieces = base.pieces.to_vec();
        let gold = pieces.iter_mut().find(|p| p.letter == 'G').unwrap();
        gold.file[2] += 11;
        let gold_file = VariantWeights {
            pieces: &pieces,
            ..base
        };
        let c = EvalTables::from_weights(v, &gold_file);
        let mut pos = Position::<u128>::startpos(v);
        pos.do_move(pos.parse_move("6i7h").unwrap());
        assert_eq!(evaluate_with(&c, &pos) - evaluate_with(&a, &pos), -11);
    }
}
