//! Every evaluation weight, per variant, in one place (for a later tuning pass).
//!
//! Pieces are keyed by their SFEN letter and whether they are promoted, so a
//! table reads like the rules. Units are centipawns. The evaluator turns these
//! into per-kind arrays once per variant (`EvalTables`).

/// Weights of one piece kind.
#[derive(Copy, Clone, Debug)]
pub struct PieceWeights {
    /// SFEN letter of the unpromoted form.
    pub letter: char,
    /// Whether this is the promoted form.
    pub promoted: bool,
    /// Value on the board.
    pub board: i32,
    /// Value in hand (unpromoted kinds of drop variants; usually above `board`).
    pub hand: i32,
    /// Bonus per square the piece reaches that is neither its own side's nor
    /// attacked by an enemy pawn.
    pub mobility: i32,
    /// Bonus per rank advanced from its own back rank, up to `advance_cap` ranks.
    pub advance: i32,
    /// Ranks over which `advance` counts.
    pub advance_cap: i32,
    /// Bonus for standing in the enemy camp (promotion-zone pressure).
    pub in_zone: i32,
    /// King danger units per square of the enemy king's neighbourhood attacked.
    pub king_attack: i32,
    /// King danger units while held in hand by the attacker (drop threat).
    pub hand_threat: i32,
    /// Bonus for standing next to its own king (a defender).
    pub defend: i32,
    /// Bonus by rank counted from its own back rank (a piece-square table in
    /// two factors, with `file`; zeros where not fitted).
    pub rank: [i32; RANK_TERMS],
    /// Bonus by distance in files from the centre file.
    pub file: [i32; FILE_TERMS],
}

/// Entries of `PieceWeights::rank` (the largest board has 9 ranks).
pub const RANK_TERMS: usize = 9;
/// Entries of `PieceWeights::file` (files from the centre of a 9-file board).
pub const FILE_TERMS: usize = 5;

/// Defaults for a piece; tables override what matters.
const fn w(letter: char, promoted: bool, board: i32, hand: i32) -> PieceWeights {
    PieceWeights {
        letter,
        promoted,
        board,
        hand,
        mobility: 0,
        advance: 0,
        advance_cap: 0,
        in_zone: 0,
        king_attack: 2,
        hand_threat: 0,
        defend: 0,
        rank: [0; RANK_TERMS],
        file: [0; FILE_TERMS],
    }
}

/// King safety weights. Danger units are summed per king and turned into a
/// penalty `linear * u + quadratic * u * u / 256`, capped at `cap`.
#[derive(Copy, Clone, Debug)]
pub struct KingWeights {
    /// Units per square next to the king attacked and defended by no other piece.
    pub weak_square: i32,
    /// Units per empty weak square next to the king while the attacker holds a piece
    /// (a drop square).
    pub drop_square: i32,
    /// Units per empty square on the lines out of the king, when the attacker has
    /// a slider on the board or in hand.
    pub open_line: i32,
    /// Units removed per defender next to the king (scaled by `PieceWeights::defend`).
    pub defender: i32,
    /// Linear coefficient of the penalty.
    pub linear: i32,
    /// Quadratic coefficient of the penalty (per 256).
    pub quadratic: i32,
    /// Largest penalty.
    pub cap: i32,
    /// Bonus per rank the king stays behind (on its own side of) the board's middle.
    pub home_rank: i32,
    /// Bonus per file (up to three) the king stands away from the centre file.
    pub side_file: i32,
    /// Attacks on squares two steps from the king, in quarters of an attack on
    /// a neighbouring square (0 = the ring is ignored).
    pub outer_ring: i32,
    /// Units per square from which an enemy piece could give check, reachable
    /// by it and not covered by the king's side (0 = not computed).
    pub safe_check: i32,
}

/// All weights of one variant (`'static` for the built-in tables; a tuner may
/// lend its own).
#[derive(Copy, Clone, Debug)]
pub struct VariantWeights<'a> {
    /// The variant's USI name.
    pub variant: &'a str,
    /// One entry per piece kind of the variant (the king may be omitted).
    pub pieces: &'a [PieceWeights],
    /// King safety.
    pub king: KingWeights,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Bonus per square of the enemy camp attacked.
    pub zone_control: i32,
    /// Penalty per missing piece when a side has fewer than three pieces besides
    /// the king (Heian's bare-king rule makes that dangerous).
    pub few_pieces: i32,
    /// Endgame drive: once the opponent has at most three pieces besides the
    /// king and we are ahead in material, bonus per piece per step closer to
    /// the enemy king (Heian: the bare-king win needs the attackers up there).
    pub mop_up: i32,
    /// Bonus per enemy piece we attack that its side does not defend.
    pub hanging: i32,
    /// Bonus per enemy piece (not a pawn) attacked by one of our pawns.
    pub pawn_threat: i32,
}

const SHOGI_KING: KingWeights = KingWeights {
    weak_square: 4,
    drop_square: 6,
    open_line: 1,
    defender: 3,
    linear: 6,
    quadratic: 14,
    cap: 1600,
    home_rank: 8,
    side_file: 0,
    outer_ring: 0,
    safe_check: 0,
};

/// Judkins shogi's own copy, so a fit can move it apart from shogi's.
const JUDKINS_KING: KingWeights = KingWeights {
    weak_square: 0,
    drop_square: 6,
    open_line: 1,
    defender: 1,
    linear: 6,
    quadratic: 0,
    cap: 1600,
    home_rank: 69,
    side_file: 52,
    outer_ring: 0,
    safe_check: 0,
};

/// Yari shogi's own copy, so a fit can move it apart from shogi's.
const YARI_KING: KingWeights = KingWeights {
    weak_square: 0,
    drop_square: 0,
    open_line: 1,
    defender: 5,
    linear: 8,
    quadratic: 2,
    cap: 771,
    home_rank: 42,
    side_file: 8,
    outer_ring: 0,
    safe_check: 8,
};

const HEIAN_KING: KingWeights = KingWeights {
    weak_square: 1,
    drop_square: 0,
    open_line: 1,
    defender: 0,
    linear: 1,
    quadratic: 6,
    cap: 600,
    home_rank: -16,
    side_file: 0,
    outer_ring: 1,
    safe_check: 1,
};

/// Standard shogi.
const SHOGI: &[PieceWeights] = &[
    PieceWeights {
        mobility: 4,
        king_attack: 4,
        hand_threat: 6,
        ..w('R', false, 950, 1050)
    },
    PieceWeights {
        mobility: 4,
        king_attack: 3,
        hand_threat: 5,
        ..w('B', false, 800, 880)
    },
    PieceWeights {
        king_attack: 4,
        hand_threat: 5,
        defend: 6,
        ..w('G', false, 560, 620)
    },
    PieceWeights {
        advance: 6,
        advance_cap: 5,
        king_attack: 3,
        hand_threat: 4,
        defend: 4,
        ..w('S', false, 500, 550)
    },
    PieceWeights {
        advance: 6,
        advance_cap: 5,
        in_zone: 10,
        king_attack: 3,
        hand_threat: 3,
        ..w('N', false, 360, 420)
    },
    PieceWeights {
        mobility: 2,
        king_attack: 2,
        hand_threat: 2,
        ..w('L', false, 310, 360)
    },
    PieceWeights {
        advance: 2,
        advance_cap: 6,
        king_attack: 1,
        hand_threat: 1,
        ..w('P', false, 90, 105)
    },
    PieceWeights {
        king_attack: 0,
        ..w('K', false, 0, 0)
    },
    PieceWeights {
        mobility: 3,
        king_attack: 5,
        ..w('R', true, 1300, 0)
    },
    PieceWeights {
        mobility: 3,
        king_attack: 4,
        defend: 6,
        ..w('B', true, 1050, 0)
    },
    PieceWeights {
        king_attack: 4,
        defend: 3,
        ..w('S', true, 540, 0)
    },
    PieceWeights {
        king_attack: 4,
        defend: 3,
        ..w('N', true, 540, 0)
    },
    PieceWeights {
        king_attack: 4,
        defend: 3,
        ..w('L', true, 540, 0)
    },
    PieceWeights {
        king_attack: 4,
        defend: 3,
        advance: 4,
        advance_cap: 9,
        ..w('P', true, 520, 0)
    },
];

/// Judkins shogi (6x6): shogi without the lance, majors a little weaker.
/// Fitted (`tune --labels`) to Fairy-Stockfish depth-8 scores of 7k quiet
/// positions from 1,060 judkins games.
const JUDKINS: &[PieceWeights] = &[
    PieceWeights {
        mobility: 16,
        king_attack: 2,
        in_zone: 176,
        rank: [-187, -182, -216, -194, -174, -143, 0, 0, 0],
        file: [-30, -40, -66, 0, 0],
        ..w('R', false, 748, 725)
    },
    PieceWeights {
        mobility: 18,
        king_attack: 1,
        hand_threat: 1,
        in_zone: -85,
        defend: 11,
        rank: [-165, -57, -60, -57, 33, 45, 0, 0, 0],
        file: [-15, 0, -109, 0, 0],
        ..w('B', false, 616, 597)
    },
    PieceWeights {
        king_attack: 20,
        hand_threat: 1,
        mobility: 24,
        in_zone: -146,
        defend: 69,
        rank: [-188, -164, -123, -165, -60, -222, 0, 0, 0],
        file: [55, 9, -97, 0, 0],
        ..w('G', false, 525, 474)
    },
    PieceWeights {
        advance: 2,
        advance_cap: 3,
        king_attack: 9,
        defend: 69,
        mobility: 14,
        in_zone: -8,
        rank: [-122, -77, -63, -41, -106, -228, 0, 0, 0],
        file: [35, -39, -168, 0, 0],
        ..w('S', false, 469, 453)
    },
    PieceWeights {
        advance: 12,
        advance_cap: 3,
        king_attack: 7,
        hand_threat: 1,
        mobility: 16,
        defend: 39,
        rank: [-112, -141, -106, -204, 0, 0, 0, 0, 0],
        file: [-26, -72, -120, 0, 0],
        ..w('N', false, 357, 251)
    },
    PieceWeights {
        advance_cap: 4,
        king_attack: 19,
        hand_threat: 3,
        mobility: 21,
        in_zone: -29,
        defend: 36,
        rank: [146, -14, 5, 48, 63, 0, 0, 0, 0],
        file: [-45, -15, 2, 0, 0],
        ..w('P', false, 84, 165)
    },
    PieceWeights {
        king_attack: 0,
        rank: [8, 6, 30, -40, -80, 31, 0, 0, 0],
        file: [5, 38, -8, 0, 0],
        ..w('K', false, 0, 0)
    },
    PieceWeights {
        mobility: 7,
        king_attack: 5,
        in_zone: -36,
        rank: [-344, -308, -232, -315, -310, -249, 0, 0, 0],
        file: [-29, -95, -96, 0, 0],
        ..w('R', true, 1150, 0)
    },
    PieceWeights {
        mobility: 5,
        king_attack: 6,
        defend: 75,
        in_zone: -20,
        rank: [-311, -206, -105, -121, -147, -224, 0, 0, 0],
        file: [-5, -26, -66, 0, 0],
        ..w('B', true, 950, 0)
    },
    PieceWeights {
        king_attack: 2,
        defend: 826,
        mobility: 48,
        in_zone: -277,
        rank: [0, 0, -200, -116, -313, 182, 0, 0, 0],
        file: [-32, 194, -260, 0, 0],
        ..w('S', true, 493, 0)
    },
    PieceWeights {
        king_attack: 26,
        defend: 1,
        mobility: 16,
        in_zone: -68,
        rank: [0, 0, 148, -183, -195, -295, 0, 0, 0],
        file: [120, -11, -231, 0, 0],
        ..w('N', true, 525, 0)
    },
    PieceWeights {
        king_attack: 0,
        defend: 244,
        in_zone: 36,
        rank: [0, 0, 0, -232, -193, -275, 0, 0, 0],
        file: [18, -83, -70, 0, 0],
        ..w('P', true, 560, 0)
    },
];

/// Yari shogi (7x9): forward-sliding pieces. Fitted (`tune --labels`) to
/// Fairy-Stockfish depth-8 scores of 15k quiet positions from 860 yari games
/// (Kawari vs Fairy-Stockfish at 6000 nodes, self-play); the rank/file terms
/// carry part of each piece's value.
const YARISHOGI: &[PieceWeights] = &[
    PieceWeights {
        mobility: 6,
        king_attack: 6,
        hand_threat: 5,
        in_zone: 392,
        defend: 2,
        rank: [0, 5, -8, -26, -46, -75, -457, -395, -389],
        file: [-47, -42, -54, -49, 0],
        ..w('R', false, 301, 285)
    },
    PieceWeights {
        mobility: 11,
        advance: 45,
        advance_cap: 5,
        king_attack: 7,
        in_zone: 48,
        defend: 8,
        rank: [-103, -126, -172, -197, -262, -289, -247, -283, 0],
        file: [-105, -106, -112, -114, 0],
        ..w('B', false, 283, 281)
    },
    PieceWeights {
        mobility: 9,
        advance: 29,
        advance_cap: 5,
        king_attack: 7,
        hand_threat: 8,
        in_zone: 132,
        defend: 8,
        rank: [0, -30, -44, -71, -112, -124, -258, -304, 0],
        file: [-67, -62, -68, -91, 0],
        ..w('N', false, 198, 187)
    },
    PieceWeights {
        advance: 5,
        advance_cap: 6,
        king_attack: 11,
        hand_threat: 1,
        mobility: 10,
        in_zone: 129,
        defend: 6,
        rank: [81, 82, -8, -18, -18, -8, -133, -125, 0],
        file: [-108, -107, -115, -132, 0],
        ..w('P', false, 94, 94)
    },
    PieceWeights {
        king_attack: 0,
        rank: [-18, 8, 32, -60, -122, -158, -292, 130, -140],
        file: [-25, -10, 8, -72, 0],
        ..w('K', false, 0, 0)
    },
    PieceWeights {
        mobility: 6,
        king_attack: 7,
        in_zone: -12,
        defend: 4,
        rank: [-344, -360, -367, -297, -420, -397, -473, -411, -452],
        file: [-149, -180, -192, -222, 0],
        ..w('R', true, 938, 0)
    },
    PieceWeights {
        mobility: 7,
        king_attack: 6,
        defend: 1,
        in_zone: -28,
        rank: [-897, -420, -426, -304, -405, -397, -350, -322, -311],
        file: [-6, 13, -46, -43, 0],
        ..w('B', true, 560, 0)
    },
    PieceWeights {
        mobility: 5,
        king_attack: 8,
        defend: 156,
        in_zone: -22,
        rank: [-316, -42, -416, -420, -280, -289, -274, -260, -282],
        file: [23, -52, -42, -86, 0],
        ..w('N', true, 560, 0)
    },
    PieceWeights {
        mobility: 11,
        king_attack: 15,
        defend: 1,
        in_zone: -38,
        rank: [-221, -192, -274, -319, -328, -354, -267, -304, -321],
        file: [-26, -10, -10, -86, 0],
        ..w('P', true, 430, 0)
    },
];

/// Heian shogi (every size): no drops, captures are permanent, promotion to gold
/// is a large gain. Fitted (`tune --labels`, 26 passes) to Fairy-Stockfish
/// depth-8 scores of 68k positions from 2,400 Heian games (mostly 8x8 and 9x9);
/// `few_pieces` and `mop_up` are hand-set.
const HEIAN: &[PieceWeights] = &[
    PieceWeights {
        mobility: 2,
        king_attack: 4,
        in_zone: 18,
        rank: [-70, -51, -24, -6, -18, -54, -66, -91, -116],
        file: [-14, -24, -40, -60, -82],
        ..w('G', false, 520, 0)
    },
    PieceWeights {
        mobility: 4,
        advance: 8,
        advance_cap: 5,
        in_zone: 13,
        king_attack: 3,
        rank: [-60, -54, -36, -24, -22, -34, -58, -81, -112],
        file: [-4, -14, -36, -63, -86],
        ..w('S', false, 422, 0)
    },
    PieceWeights {
        mobility: 2,
        advance: 8,
        advance_cap: 6,
        in_zone: 30,
        king_attack: 1,
        defend: 10,
        rank: [6, 0, -30, 0, -24, 0, 0, 0, 0],
        file: [-10, 4, -26, -30, -49],
        ..w('N', false, 201, 0)
    },
    PieceWeights {
        mobility: 11,
        advance: 6,
        advance_cap: 6,
        in_zone: 3,
        king_attack: 0,
        defend: 14,
        rank: [10, -4, -6, -2, -2, -19, 0, -204, 0],
        file: [0, 0, 0, -149, -138],
        ..w('L', false, 318, 0)
    },
    PieceWeights {
        advance: 8,
        advance_cap: 6,
        in_zone: -163,
        king_attack: 1,
        mobility: 32,
        defend: 4,
        rank: [0, 0, 8, 0, -2, 18, 64, 0, 0],
        file: [-28, -28, -46, -38, -57],
        ..w('P', false, 89, 0)
    },
    PieceWeights {
        king_attack: 0,
        rank: [-24, -34, -4, 15, 20, 22, 26, 12, -14],
        file: [-2, 4, 2, -10, -22],
        ..w('K', false, 0, 0)
    },
    PieceWeights {
        mobility: 8,
        king_attack: 2,
        in_zone: -6,
        rank: [-137, -120, -81, -80, -64, -58, -76, -109, -108],
        file: [-10, -16, -30, -56, -38],
        ..w('S', true, 510, 0)
    },
    PieceWeights {
        mobility: 8,
        king_attack: 0,
        defend: 8,
        in_zone: -4,
        rank: [-150, -139, -105, -73, -63, -63, -80, -102, -131],
        file: [-12, -20, -34, -51, -30],
        ..w('N', true, 510, 0)
    },
    PieceWeights {
        mobility: 8,
        king_attack: 0,
        in_zone: 8,
        rank: [-173, -230, -137, -110, -87, -95, -103, -136, -234],
        file: [-4, -8, -30, -42, -54],
        ..w('L', true, 510, 0)
    },
    PieceWeights {
        mobility: 6,
        king_attack: 0,
        in_zone: 12,
        rank: [-216, -204, -123, -86, -60, -68, -78, -95, -85],
        file: [-8, -12, -26, -59, -66],
        ..w('P', true, 500, 0)
    },
];

const fn heian(variant: &'static str) -> VariantWeights<'static> {
    VariantWeights {
        variant,
        pieces: HEIAN,
        king: HEIAN_KING,
        tempo: 22,
        zone_control: 0,
        few_pieces: 150,
        mop_up: 8,
        hanging: 30,
        pawn_threat: 72,
    }
}

/// The weights of every built-in variant.
pub const VARIANTS: &[VariantWeights<'static>] = &[
    VariantWeights {
        variant: "shogi",
        pieces: SHOGI,
        king: SHOGI_KING,
        tempo: 30,
        zone_control: 2,
        few_pieces: 0,
        mop_up: 0,
        hanging: 0,
        pawn_threat: 0,
    },
    VariantWeights {
        variant: "judkins",
        pieces: JUDKINS,
        king: JUDKINS_KING,
        tempo: 109,
        zone_control: 1,
        few_pieces: 0,
        mop_up: 0,
        hanging: 110,
        pawn_threat: 195,
    },
    VariantWeights {
        variant: "yarishogi",
        pieces: YARISHOGI,
        king: YARI_KING,
        tempo: 31,
        zone_control: 0,
        few_pieces: 0,
        mop_up: 0,
        hanging: 26,
        pawn_threat: 123,
    },
    heian("heian"),
    heian("heian9x8"),
    heian("heian8x9"),
    heian("heian8x8"),
];

/// Weights used for a variant without its own table.
pub const FALLBACK: VariantWeights<'static> = VariantWeights {
    variant: "",
    pieces: &[],
    king: SHOGI_KING,
    tempo: 20,
    zone_control: 2,
    few_pieces: 0,
    mop_up: 0,
    hanging: 0,
    pawn_threat: 0,
};

/// Material lead (board values) from which `VariantWeights::mop_up` applies.
pub const MOP_UP_LEAD: i32 = 200;

/// The bare-king hunt (variants with `mop_up` and the bare-king rule, see
/// `eval::hunt`): once a side leads by `MOP_UP_LEAD` and the opponent has one
/// or two pieces besides the king, each of those pieces is worth this much to
/// its side per square it could move to that the leader does not hold.
pub const HUNT_FLIGHT: i32 = 40;

/// The same hunt: bonus per leader's piece per step closer to the nearest of
/// those pieces (`DRIVE_RANGE - distance`, as `mop_up`).
pub const HUNT_NEAR: i32 = 16;

/// Value of a kind without a table entry: 100 per impasse point.
pub const POINT_VALUE: i32 = 100;

/// The weights for a variant name.
pub fn for_variant(name: &str) -> &'static VariantWeights<'static> {
    VARIANTS
        .iter()
        .find(|v| v.variant.eq_ignore_ascii_case(name))
        .unwrap_or(&FALLBACK)
}

/// Pieces (besides the king) below which a side pays `few_pieces` per piece
/// missing (the bare-king danger).
pub const FEW_PIECES: i32 = 3;

/// `mop_up` applies while the losing side has at most this many pieces, its
/// king included.
pub const MOP_UP_MAX_PIECES: u32 = 4;

/// The hunt applies while the prey has at most this many pieces besides its
/// king.
pub const HUNT_MAX_PREY: u32 = 2;

/// `mop_up` and the hunt give their bonus per step closer than this
/// (king-step distance); farther counts as this.
pub const DRIVE_RANGE: i32 = 8;

/// King attacks on the outer ring count this fraction (`outer_ring / this`)
/// of those next to the king.
pub const OUTER_RING_DIVISOR: i32 = 4;

/// King danger's quadratic term is `quadratic * u * u / QUADRATIC_DIVISOR`.
pub const QUADRATIC_DIVISOR: i32 = 256;

/// The king's `side_file` bonus counts files from the centre up to this.
pub const KING_SIDE_FILES: i32 = 3;

/// Kinds worth at most `PAWN_RATIO.0 / PAWN_RATIO.1` times the cheapest piece
/// count as pawns for threats and the mobility area.
pub const PAWN_RATIO: (i32, i32) = (3, 2);
