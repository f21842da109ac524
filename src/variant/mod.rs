//! A variant is data: board size, pieces and their movements, promotions,
//! zones, drop rules and game-end rules. `Variant::build` checks a definition
//! once and derives what move generation needs (kind indices, hand kinds).

mod builtin;
pub mod movement;

pub use builtin::BUILTIN;
pub use movement::Movement;

use crate::core::{Geometry, MAX_SQUARES};
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;
use std::fmt;

/// Most piece kinds (unpromoted and promoted) a variant may have.
pub const MAX_KINDS: usize = 16;
/// Most kinds that may be held in hand.
pub const MAX_HAND_KINDS: usize = 8;

/// A piece kind's index within its variant: base pieces in definition order
/// (hand order R B G S N L P, king last), then the promoted forms.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Kind(pub u8);

impl Kind {
    /// Index as usize.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The promoted form of a piece.
#[derive(Copy, Clone, Debug)]
pub struct Promotion {
    /// Human-readable name of the promoted piece.
    pub name: &'static str,
    /// How the promoted piece moves.
    pub movement: Movement,
}

/// One unpromoted piece of a variant, as written in its definition.
#[derive(Copy, Clone, Debug)]
pub struct PieceDef {
    /// Uppercase SFEN letter.
    pub letter: char,
    /// Human-readable name.
    pub name: &'static str,
    /// How the piece moves.
    pub movement: Movement,
    /// Its promoted form, if it can promote.
    pub promotion: Option<Promotion>,
    /// The king: must not be left in check; never captured to hand.
    pub royal: bool,
    /// Subject to nifu and the pawn-drop-mate rule.
    pub pawn: bool,
    /// Points for impasse counting and the entering-king declaration.
    pub points: u8,
}

/// The shogi entering-king declaration (CSA 27-point rule).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DeclarationRule {
    /// Points Black needs.
    pub black_points: u32,
    /// Points White needs.
    pub white_points: u32,
    /// Pieces other than the king that must stand in the zone.
    pub pieces_in_zone: u32,
}

/// A variant as written: the data of `docs/rules.md`.
#[derive(Copy, Clone, Debug)]
pub struct VariantDef {
    /// The USI_Variant name.
    pub name: &'static str,
    /// Board size.
    pub geometry: Geometry,
    /// Unpromoted pieces in SFEN hand order, the king last.
    pub pieces: &'static [PieceDef],
    /// Start position.
    pub start_sfen: &'static str,
    /// Moves a side is expected to play in a game, for time management: the
    /// median length of Kawari's self-play (the 2,030-game soak of build
    /// 8b581ca) where an SPRT kept it, else the usual 50.
    pub game_moves: u64,
    /// The hand's letters (uppercase) in the order Fairy-Stockfish writes
    /// them in a FEN: its piece types, highest first.
    pub fen_hand_order: &'static str,
    /// Depth of the promotion zone in ranks.
    pub zone_ranks: u8,
    /// Captured pieces go to hand and may be dropped.
    pub drops: bool,
    /// A pawn drop that mates is illegal (uchifuzume).
    pub pawn_drop_mate_illegal: bool,
    /// The N of N-fold repetition.
    pub repetition: u8,
    /// A player left with a bare king loses.
    pub bare_king_loses: bool,
    /// Entering-king declaration, if the variant has one.
    pub declaration: Option<DeclarationRule>,
    /// Impasse adjudication: fewer points than this loses.
    pub impasse_points: Option<u32>,
}

/// Everything about one piece kind that the engine looks up.
#[derive(Copy, Clone, Debug)]
pub struct KindInfo {
    /// Uppercase SFEN letter of the unpromoted form.
    pub letter: char,
    /// Whether this is a promoted form (`+` in SFEN).
    pub promoted: bool,
    /// Human-readable name.
    pub name: &'static str,
    /// How it moves.
    pub movement: Movement,
    /// The unpromoted kind (itself when unpromoted); what a capture puts in hand.
    pub base: Kind,
    /// The kind it promotes to.
    pub promotes_to: Option<Kind>,
    /// The royal piece.
    pub royal: bool,
    /// Subject to nifu and the pawn-drop-mate rule.
    pub pawn: bool,
    /// Impasse / declaration points.
    pub points: u8,
}

/// A checked variant with its derived kind table.
#[derive(Debug)]
pub struct Variant {
    /// The definition it was built from.
    pub def: VariantDef,
    /// Every kind, base kinds first.
    pub kinds: ArrayVec<KindInfo, MAX_KINDS>,
    /// Kinds `0..hand_kinds` are the ones that can be in hand.
    pub hand_kinds: usize,
    /// The royal kind.
    pub king: Kind,
    /// The pawn kind, if any.
    pub pawn: Option<Kind>,
}

/// Why a variant definition was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError(pub String);

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid variant: {}", self.0)
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// Checks a definition and derives the kind table.
    pub fn build(def: VariantDef) -> Result<Variant, VariantError> {
        let err = |m: String| Err(VariantError(format!("{}: {}", def.name, m)));
        let g = def.geometry;
        if g.files == 0 || g.ranks == 0 || g.squares() > MAX_SQUARES || g.files > 9 {
            return err(format!("unsupported board {}x{}", g.files, g.ranks));
        }
        if def.zone_ranks == 0 || def.zone_ranks as usize * 2 > g.ranks as usize {
            return err(format!("zone of {} ranks does not fit", def.zone_ranks));
        }
        if def.repetition < 2 {
            return err("repetition count below 2".into());
        }
        let n = def.pieces.len();
        match def.pieces.iter().position(|p| p.royal) {
            Some(i) if i == n - 1 => {}
            _ => return err("exactly one royal piece, listed last, is required".into()),
        }
        if def.pieces.iter().filter(|p| p.royal).count() != 1 {
            return err("more than one royal piece".into());
        }
        if n - 1 > MAX_HAND_KINDS {
            return err("too many droppable kinds".into());
        }
        if def.pieces.iter().filter(|p| p.pawn).count() > 1 {
            return err("more than one pawn kind".into());
        }
        let mut kinds: ArrayVec<KindInfo, MAX_KINDS> = ArrayVec::new();
        for (i, p) in def.pieces.iter().enumerate() {
            if !p.letter.is_ascii_uppercase() {
                return err(format!(
                    "letter {:?} is not an uppercase ASCII letter",
                    p.letter
                ));
            }
            if def.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return err(format!("letter {} used twice", p.letter));
            }
            if p.movement.leaps.is_empty() && p.movement.slides.is_empty() {
                return err(format!("{} cannot move", p.name));
            }
            if p.royal && p.promotion.is_some() {
                return err("the king cannot promote".into());
            }
            kinds.push(KindInfo {
                letter: p.letter,
                promoted: false,
                name: p.name,
                movement: p.movement,
                base: Kind(i as u8),
                promotes_to: None,
                royal: p.royal,
                pawn: p.pawn,
                points: p.points,
            });
        }
        for (i, p) in def.pieces.iter().enumerate() {
            if let Some(promo) = p.promotion {
                if kinds.is_full() {
                    return err("too many kinds".into());
                }
                let k = Kind(kinds.len() as u8);
                kinds[i].promotes_to = Some(k);
                kinds.push(KindInfo {
                    letter: p.letter,
                    promoted: true,
                    name: promo.name,
                    movement: promo.movement,
                    base: Kind(i as u8),
                    promotes_to: None,
                    royal: false,
                    pawn: false,
                    points: p.points,
                });
            }
        }
        for k in &kinds {
            for &(dx, dy) in k.movement.slides {
                if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
                    return err(format!("{} slides along a non-unit direction", k.name));
                }
            }
            for &(dx, dy) in k.movement.leaps {
                if (dx, dy) == (0, 0) {
                    return err(format!("{} leaps onto itself", k.name));
                }
            }
            if k.promoted && k.movement.leaps.is_empty() && k.movement.slides.is_empty() {
                return err(format!("{} cannot move", k.name));
            }
        }
        // A piece that can be stuck must be able to promote where it gets stuck:
        // only forward movers get stuck, at the far edge, inside the zone.
        for k in &kinds {
            let max_forward = k
                .movement
                .leaps
                .iter()
                .chain(k.movement.slides.iter())
                .map(|&(_, dy)| dy)
                .max()
                .unwrap_or(0);
            let can_go_back_or_side = k
                .movement
                .leaps
                .iter()
                .chain(k.movement.slides.iter())
                .any(|&(dx, dy)| dy <= 0 && (dx, dy) != (0, 0));
            let stuck_ranks = if can_go_back_or_side {
                0
            } else {
                max_forward.max(0) as u8
            };
            if stuck_ranks > 0 && (k.promotes_to.is_none() || stuck_ranks > def.zone_ranks) {
                return err(format!("{} can get stuck but cannot promote there", k.name));
            }
        }
        let pawn = kinds.iter().position(|k| k.pawn).map(|i| Kind(i as u8));
        Ok(Variant {
            def,
            hand_kinds: if def.drops { n - 1 } else { 0 },
            king: Kind((n - 1) as u8),
            pawn,
            kinds,
        })
    }

    /// The built-in variant of that name (`shogi`, `judkins`, ...).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        ALL.iter().find(|v| v.def.name.eq_ignore_ascii_case(name))
    }

    /// The default variant, standard shogi.
    pub fn default_variant() -> &'static Variant {
        &ALL[0]
    }

    /// Every built-in variant.
    pub fn all() -> &'static [Variant] {
        &ALL
    }

    /// The USI_Variant name.
    pub fn name(&self) -> &'static str {
        self.def.name
    }

    /// Board size.
    pub fn geometry(&self) -> Geometry {
        self.def.geometry
    }

    /// Whether the rules look the same in a mirror (files reversed): every
    /// piece's moves are. Zones and drop rules go by rank and file, so they
    /// always are. A mirrored position then has the same value.
    pub fn mirror_symmetric(&self) -> bool {
        let closed = |set: &[movement::Offset]| set.iter().all(|&(x, y)| set.contains(&(-x, y)));
        self.kinds
            .iter()
            .all(|k| closed(k.movement.leaps) && closed(k.movement.slides))
    }

    /// Number of kinds.
    pub fn num_kinds(&self) -> usize {
        self.kinds.len()
    }

    /// Info about a kind.
    #[inline(always)]
    pub fn kind(&self, k: Kind) -> &KindInfo {
        &self.kinds[k.index()]
    }

    /// The kind written as `letter` (promoted when `promoted`), if any.
    pub fn kind_by_letter(&self, letter: char, promoted: bool) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.kinds
            .iter()
            .position(|k| k.letter == up && k.promoted == promoted)
            .map(|i| Kind(i as u8))
    }

    /// SFEN token of a kind for Black (uppercase), e.g. `+R`.
    pub fn kind_token(&self, k: Kind) -> String {
        let info = self.kind(k);
        if info.promoted {
            format!("+{}", info.letter)
        } else {
            info.letter.to_string()
        }
    }
}

static ALL: Lazy<Vec<Variant>> = Lazy::new(|| {
    BUILTIN
        .iter()
        .map(|d| Variant::build(*d).expect("built-in variant definitions are valid"))
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_variants_build() {
        assert_eq!(Variant::all().len(), 7);
        let s = Variant::by_name("shogi").unwrap();
        assert_eq!(s.num_kinds(), 14);
        assert_eq!(s.hand_kinds, 7);
        assert_eq!(s.kind_token(Kind(7)), "K");
        let h = Variant::by_name("heian8x8").unwrap();
        assert_eq!(h.hand_kinds, 0);
        assert_eq!(h.geometry().squares(), 64);
    }

    #[test]
    fn rejects_stuck_piece_without_promotion() {
        let mut def = BUILTIN[0];
        const BAD: &[PieceDef] = &[
            PieceDef {
                letter: 'P',
                name: "pawn",
                movement: Movement::leaper(&[movement::F]),
                promotion: None,
                royal: false,
                pawn: true,
                points: 1,
            },
            PieceDef {
                letter: 'K',
                name: "king",
                movement: movement::KING,
                promotion: None,
                royal: true,
                pawn: false,
                points: 0,
            },
        ];
        def.pieces = BAD;
        let e = Variant::build(def).unwrap_err();
        assert!(e.0.contains("stuck"), "{e}");
    }
}
