//! The weights of each variant resolved once into arrays indexed by kind and
//! square (`EvalTables`), which the evaluation and the search read.

use super::params::{self, KingWeights, VariantWeights, PAWN_RATIO};
use crate::core::{Color, MAX_SQUARES};
use crate::variant::{Variant, MAX_HAND_KINDS, MAX_KINDS};
use once_cell::sync::Lazy;

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
    pub(super) mobility: [i32; MAX_KINDS],
    pub(super) king_attack: [i32; MAX_KINDS],
    pub(super) hand_threat: [i32; MAX_HAND_KINDS],
    pub(super) defend: [i32; MAX_KINDS],
    pub(super) pst: [[[i32; MAX_SQUARES]; MAX_KINDS]; 2],
    /// The piece-square term of each kind averaged over the board's squares.
    pub(super) pst_mean: [i32; MAX_KINDS],
    pub(super) king: KingWeights,
    pub(super) tempo: i32,
    pub(super) zone_control: i32,
    pub(super) few_pieces: i32,
    pub(super) mop_up: i32,
    pub(super) hanging: i32,
    pub(super) pawn_threat: i32,
    /// Kinds that count as pawns for threats and the mobility area (bit per
    /// kind): those worth at most 1.5 times the cheapest piece.
    pub(super) pawn_kinds: u64,
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
                        s += wv.king.side_file * off.min(params::KING_SIDE_FILES);
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
            if !info.royal && et.board[ki] * PAWN_RATIO.1 <= cheapest * PAWN_RATIO.0 {
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
