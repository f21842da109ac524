//! The built-in variants, written as data (see `docs/rules.md`).

use super::movement::*;
use super::{DeclarationRule, PieceDef, Promotion, VariantDef};
use crate::core::Geometry;

/// Promotion to a piece that moves as a gold general.
const TO_GOLD: Option<Promotion> = Some(Promotion {
    name: "promoted to gold",
    movement: GOLD,
});

const fn piece(
    letter: char,
    name: &'static str,
    movement: Movement,
    promotion: Option<Promotion>,
    points: u8,
) -> PieceDef {
    PieceDef {
        letter,
        name,
        movement,
        promotion,
        royal: false,
        pawn: false,
        points,
    }
}

const KING_PIECE: PieceDef = PieceDef {
    letter: 'K',
    name: "king",
    movement: KING,
    promotion: None,
    royal: true,
    pawn: false,
    points: 0,
};

const PAWN: PieceDef = PieceDef {
    letter: 'P',
    name: "pawn",
    movement: Movement::leaper(&[F]),
    promotion: TO_GOLD,
    royal: false,
    pawn: true,
    points: 1,
};

const ROOK: PieceDef = piece(
    'R',
    "rook",
    Movement::slider(ORTHOGONAL),
    Some(Promotion {
        name: "dragon",
        movement: Movement::new(DIAGONAL, ORTHOGONAL),
    }),
    5,
);
const BISHOP: PieceDef = piece(
    'B',
    "bishop",
    Movement::slider(DIAGONAL),
    Some(Promotion {
        name: "horse",
        movement: Movement::new(ORTHOGONAL, DIAGONAL),
    }),
    5,
);
const GOLD_PIECE: PieceDef = piece('G', "gold", GOLD, None, 1);
const SILVER: PieceDef = piece('S', "silver", Movement::leaper(SILVER_STEPS), TO_GOLD, 1);
const KNIGHT: PieceDef = piece('N', "knight", Movement::leaper(KNIGHT_JUMPS), TO_GOLD, 1);
const LANCE: PieceDef = piece('L', "lance", Movement::slider(&[F]), TO_GOLD, 1);

/// Standard shogi pieces, in SFEN hand order, king last.
const SHOGI_PIECES: &[PieceDef] = &[
    ROOK, BISHOP, GOLD_PIECE, SILVER, KNIGHT, LANCE, PAWN, KING_PIECE,
];

/// Judkins shogi: standard shogi without the lance.
const JUDKINS_PIECES: &[PieceDef] = &[ROOK, BISHOP, GOLD_PIECE, SILVER, KNIGHT, PAWN, KING_PIECE];

/// Heian shogi: no rook, no bishop.
const HEIAN_PIECES: &[PieceDef] = &[GOLD_PIECE, SILVER, KNIGHT, LANCE, PAWN, KING_PIECE];

/// Yari gold: steps forward, sideways, diagonally forward; slides straight back.
const YARI_GOLD: Movement = Movement::new(&[F, L, R, FL, FR], &[B]);
/// Yari silver: steps forward and diagonally forward; slides straight back.
const YARI_SILVER: Movement = Movement::new(&[F, FL, FR], &[B]);

/// Yari shogi pieces, in SFEN hand order, king last.
const YARI_PIECES: &[PieceDef] = &[
    piece(
        'R',
        "yari rook",
        Movement::slider(&[F, L, R]),
        Some(Promotion {
            name: "rook",
            movement: Movement::slider(ORTHOGONAL),
        }),
        5,
    ),
    piece(
        'B',
        "yari bishop",
        Movement::new(&[FL, FR], &[F]),
        Some(Promotion {
            name: "yari gold",
            movement: YARI_GOLD,
        }),
        5,
    ),
    piece(
        'N',
        "yari knight",
        Movement::new(KNIGHT_JUMPS, &[F]),
        Some(Promotion {
            name: "yari gold",
            movement: YARI_GOLD,
        }),
        1,
    ),
    PieceDef {
        promotion: Some(Promotion {
            name: "yari silver",
            movement: YARI_SILVER,
        }),
        ..PAWN
    },
    KING_PIECE,
];

const fn heian(
    name: &'static str,
    files: u8,
    ranks: u8,
    start: &'static str,
    game_moves: u64,
) -> VariantDef {
    VariantDef {
        name,
        geometry: Geometry { files, ranks },
        pieces: HEIAN_PIECES,
        start_sfen: start,
        game_moves,
        fen_hand_order: "",
        zone_ranks: 3,
        drops: false,
        pawn_drop_mate_illegal: false,
        repetition: 4,
        bare_king_loses: true,
        declaration: None,
        impasse_points: None,
    }
}

/// Every built-in variant, the default (`shogi`) first.
pub const BUILTIN: &[VariantDef] = &[
    VariantDef {
        name: "shogi",
        geometry: Geometry { files: 9, ranks: 9 },
        pieces: SHOGI_PIECES,
        start_sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        game_moves: 60,
        fen_hand_order: "GNLPSRB",
        zone_ranks: 3,
        drops: true,
        pawn_drop_mate_illegal: true,
        repetition: 4,
        bare_king_loses: false,
        declaration: Some(DeclarationRule {
            black_points: 28,
            white_points: 27,
            pieces_in_zone: 10,
        }),
        impasse_points: Some(24),
    },
    VariantDef {
        name: "judkins",
        geometry: Geometry { files: 6, ranks: 6 },
        pieces: JUDKINS_PIECES,
        start_sfen: "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
        game_moves: 27,
        fen_hand_order: "GNPSRB",
        zone_ranks: 2,
        drops: true,
        pawn_drop_mate_illegal: true,
        repetition: 4,
        bare_king_loses: false,
        declaration: None,
        impasse_points: Some(12),
    },
    VariantDef {
        name: "yarishogi",
        geometry: Geometry { files: 7, ranks: 9 },
        pieces: YARI_PIECES,
        start_sfen: "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        // Its self-play median is 36 moves a side; 50 (the usual curve)
        // until an SPRT measures the shorter one as Judkins' was.
        game_moves: 50,
        fen_hand_order: "RBNP",
        zone_ranks: 3,
        drops: true,
        pawn_drop_mate_illegal: false,
        repetition: 3,
        bare_king_loses: false,
        declaration: None,
        impasse_points: Some(26),
    },
    heian(
        "heian",
        9,
        9,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        100,
    ),
    heian(
        "heian9x8",
        9,
        8,
        "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        96,
    ),
    heian(
        "heian8x9",
        8,
        9,
        "lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        84,
    ),
    heian(
        "heian8x8",
        8,
        8,
        "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        72,
    ),
];
