//! SFEN parsing and formatting, with errors that name what is wrong.

use super::{Hand, Piece, Position};
use crate::core::{BitWord, Color, Square};
use crate::variant::{Kind, Variant};
use std::fmt;

/// Why an SFEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Not 3 or 4 space-separated fields.
    FieldCount(usize),
    /// Wrong number of ranks for the board.
    RankCount {
        /// Ranks of the board.
        expected: usize,
        /// Ranks in the SFEN.
        found: usize,
    },
    /// A rank does not add up to the board width.
    RankLength {
        /// The rank's letter.
        rank: char,
        /// Files of the board.
        expected: usize,
        /// Squares the rank describes.
        found: usize,
    },
    /// A letter that is no piece of this variant (or a bad `+`).
    UnknownPiece(String),
    /// Side to move is neither `b` nor `w`.
    BadSide(String),
    /// Malformed hand field, or pieces in hand in a variant without drops.
    BadHand(String),
    /// Move number is not a positive integer.
    BadMoveNumber(String),
    /// A side has no king or more than one.
    KingCount {
        /// The side.
        color: Color,
        /// Its kings.
        found: usize,
    },
    /// More pieces of a kind than the game has.
    PieceCount {
        /// The kind's letter.
        piece: char,
        /// How many the game has.
        max: usize,
        /// How many the SFEN has.
        found: usize,
    },
    /// A piece stands where it could never move (e.g. a pawn on the last rank).
    DeadPiece {
        /// The piece as written.
        piece: String,
        /// Its square.
        square: String,
    },
    /// Two unpromoted pawns of one side on a file.
    TwoPawns {
        /// The side.
        color: Color,
        /// The file (1-based).
        file: usize,
    },
    /// The side that just moved is in check.
    OpponentInCheck,
    /// A FEN field around the board is wrong (FEN is read through SFEN).
    BadFen(String),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SfenError::*;
        match self {
            FieldCount(n) => write!(f, "expected 4 fields (board side hand move), found {n}"),
            BadFen(what) => write!(f, "{what}"),
            RankCount { expected, found } => {
                write!(f, "expected {expected} ranks, found {found}")
            }
            RankLength {
                rank,
                expected,
                found,
            } => write!(f, "rank {rank} has {found} squares, expected {expected}"),
            UnknownPiece(s) => write!(f, "unknown piece '{s}'"),
            BadSide(s) => write!(f, "bad side to move '{s}' (expected b or w)"),
            BadHand(s) => write!(f, "bad hand: {s}"),
            BadMoveNumber(s) => write!(f, "bad move number '{s}'"),
            KingCount { color, found } => {
                write!(
                    f,
                    "{color:?} has {found} kings, expected 1 (0 only for one side)"
                )
            }
            PieceCount { piece, max, found } => {
                write!(f, "too many pieces of kind {piece}: {found}, at most {max}")
            }
            DeadPiece { piece, square } => {
                write!(f, "{piece} on {square} could never move")
            }
            TwoPawns { color, file } => {
                write!(f, "{color:?} has two unpromoted pawns on file {file}")
            }
            OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SfenError {}

/// Counts of each base kind in the variant's start position (both sides): the
/// most of a kind a legal position can hold.
fn supply(v: &Variant) -> Vec<usize> {
    let mut n = vec![0; v.num_kinds()];
    for ch in v.def.start_sfen.split(' ').next().unwrap_or("").chars() {
        if let Some(k) = v.kind_by_letter(ch, false) {
            n[k.index()] += 1;
        }
    }
    n
}

impl<W: BitWord> Position<W> {
    /// Parses an SFEN for variant `v`. The move number may be omitted.
    pub fn from_sfen(v: &'static Variant, sfen: &str) -> Result<Position<W>, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 3 {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let g = v.geometry();
        let mut pos = Position::<W>::empty(v);

        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != g.ranks as usize {
            return Err(SfenError::RankCount {
                expected: g.ranks as usize,
                found: ranks.len(),
            });
        }
        let mut kings = [0usize; 2];
        for (r, row) in ranks.iter().enumerate() {
            let rank_char = (b'a' + r as u8) as char;
            let mut file = g.files as i32; // file number of the next square, counting down
            let mut promoted = false;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    if promoted {
                        return Err(SfenError::UnknownPiece(format!("+{ch}")));
                    }
                    let mut n = ch.to_digit(10).unwrap_or(0) as i32;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + d as i32;
                        chars.next();
                        if n > 100 {
                            break;
                        }
                    }
                    if n == 0 {
                        return Err(SfenError::UnknownPiece("0".into()));
                    }
                    file -= n;
                } else if ch == '+' {
                    if promoted {
                        return Err(SfenError::UnknownPiece("++".into()));
                    }
                    promoted = true;
                    continue;
                } else {
                    let token = if promoted {
                        format!("+{ch}")
                    } else {
                        ch.to_string()
                    };
                    let k = if ch.is_ascii_alphabetic() {
                        v.kind_by_letter(ch, promoted)
                    } else {
                        None
                    }
                    .ok_or(SfenError::UnknownPiece(token))?;
                    let c = if ch.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if file < 1 {
                        file -= 1;
                    } else {
                        let sq = g
                            .square(file - 1, r as i32)
                            .expect("file and rank are on the board");
                        pos.put(sq, Piece::new(c, k));
                        if k == v.king {
                            kings[c.index()] += 1;
                            pos.king[c.index()] = sq;
                        }
                        file -= 1;
                    }
                }
                promoted = false;
            }
            if promoted {
                return Err(SfenError::UnknownPiece("+".into()));
            }
            let found = (g.files as i32 - file).max(0) as usize;
            if file != 0 {
                return Err(SfenError::RankLength {
                    rank: rank_char,
                    expected: g.files as usize,
                    found,
                });
            }
        }
        // One king each, except that a tsume problem's attacker may have none.
        for c in Color::ALL {
            let found = kings[c.index()];
            if found > 1 || (found == 0 && kings[c.opp().index()] != 1) {
                return Err(SfenError::KingCount { color: c, found });
            }
            if found == 0 {
                pos.kingless = Some(c);
            }
        }

        pos.side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            s => return Err(SfenError::BadSide(s.into())),
        };

        pos.hands = parse_hand(v, fields[2])?;

        pos.start_ply = match fields.get(3) {
            None => 0,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if (1..1_000_000).contains(&n) => n - 1,
                _ => return Err(SfenError::BadMoveNumber((*s).into())),
            },
        };

        pos.validate()?;
        pos.hash = pos.compute_hash();
        let us = pos.side;
        if pos.has_king(us) {
            pos.checkers = pos.attackers_to(pos.king[us.index()], us.opp(), pos.occupied());
        }
        if pos.has_king(us.opp()) && pos.is_attacked(pos.king[us.opp().index()], us, pos.occupied())
        {
            return Err(SfenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Checks piece counts, dead pieces and nifu.
    fn validate(&self) -> Result<(), SfenError> {
        let t = self.t;
        let v = t.variant;
        let g = t.geo;
        let max = supply(v);
        let mut count = vec![0usize; v.num_kinds()];
        for sq in self.occupied() {
            let p = self.board[sq.index()];
            count[v.kind(p.kind()).base.index()] += 1;
            if t.dead(p.color(), p.kind()).has(sq) {
                let token = v.kind_token(p.kind());
                return Err(SfenError::DeadPiece {
                    piece: if p.color() == Color::Black {
                        token
                    } else {
                        token.to_ascii_lowercase()
                    },
                    square: g.name(sq),
                });
            }
        }
        for c in Color::ALL {
            for (k, n) in count.iter_mut().enumerate().take(v.hand_kinds) {
                *n += self.hands[c.index()].count(Kind(k as u8));
            }
        }
        for (k, &n) in count.iter().enumerate() {
            if n > max[k] {
                return Err(SfenError::PieceCount {
                    piece: v.kinds[k].letter,
                    max: max[k],
                    found: n,
                });
            }
        }
        if let Some(pawn) = v.pawn {
            for c in Color::ALL {
                let pawns = self.by_kind[pawn.index()] & self.by_color[c.index()];
                for f in 0..g.files as usize {
                    if (pawns & t.file(f)).more_than_one() {
                        return Err(SfenError::TwoPawns {
                            color: c,
                            file: f + 1,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The position as SFEN (hand in R B G S N L P order, Black first).
    pub fn to_sfen(&self) -> String {
        let v = self.t.variant;
        let g = self.t.geo;
        let mut s = String::new();
        for r in 0..g.ranks as i32 {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in (0..g.files as i32).rev() {
                let sq: Square = g.square(f, r).expect("on board");
                let p = self.board[sq.index()];
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                let token = v.kind_token(p.kind());
                if p.color() == Color::Black {
                    s.push_str(&token);
                } else {
                    s.push_str(&token.to_ascii_lowercase());
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push(' ');
        s.push(self.side.sfen_char());
        s.push(' ');
        let mut hand = String::new();
        for c in Color::ALL {
            for k in 0..v.hand_kinds {
                let n = self.hands[c.index()].count(Kind(k as u8));
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let l = v.kinds[k].letter;
                hand.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s.push(' ');
        s.push_str(&(self.game_ply() + 1).to_string());
        s
    }
}

fn parse_hand(v: &Variant, field: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::default(); 2];
    if field == "-" {
        return Ok(hands);
    }
    if v.hand_kinds == 0 {
        return Err(SfenError::BadHand(format!(
            "'{field}': {} has no pieces in hand",
            v.name()
        )));
    }
    let mut n: Option<u32> = None;
    let mut seen = [[false; 16]; 2];
    for ch in field.chars() {
        if let Some(d) = ch.to_digit(10) {
            let m = n.unwrap_or(0) * 10 + d;
            if m > 99 || (n.is_none() && d == 0) {
                return Err(SfenError::BadHand(format!("bad count in '{field}'")));
            }
            n = Some(m);
            continue;
        }
        let k = v
            .kind_by_letter(ch, false)
            .filter(|k| k.index() < v.hand_kinds && ch.is_ascii_alphabetic())
            .ok_or_else(|| SfenError::BadHand(format!("'{ch}' cannot be in hand")))?;
        let c = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        if seen[c.index()][k.index()] {
            return Err(SfenError::BadHand(format!("'{ch}' listed twice")));
        }
        seen[c.index()][k.index()] = true;
        let count = n.take().unwrap_or(1);
        if count < 1 {
            return Err(SfenError::BadHand(format!("zero count in '{field}'")));
        }
        hands[c.index()].set(k, count as u8);
    }
    if n.is_some() {
        return Err(SfenError::BadHand(format!(
            "count without a piece in '{field}'"
        )));
    }
    Ok(hands)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(variant: &str, sfen: &str) -> Result<Position<u128>, SfenError> {
        Position::<u128>::from_sfen(Variant::by_name(variant).unwrap(), sfen)
    }

    #[test]
    fn round_trips_start_positions() {
        for v in Variant::all() {
            let p = Position::<u128>::startpos(v);
            assert_eq!(p.to_sfen(), v.def.start_sfen);
        }
    }

    #[test]
    fn errors_name_what_is_wrong() {
        use SfenError::*;
        let k = "4k4/9/9/9/9/9/9/9/4K4";
        let cases: Vec<(&str, String, SfenError)> = vec![
            ("shogi", format!("{k} b"), FieldCount(2)),
            (
                "shogi",
                "4k4/9/9 b - 1".into(),
                RankCount {
                    expected: 9,
                    found: 3,
                },
            ),
            (
                "shogi",
                "4k5/9/9/9/9/9/9/9/4K4 b - 1".into(),
                RankLength {
                    rank: 'a',
                    expected: 9,
                    found: 10,
                },
            ),
            (
                "shogi",
                "4k3/9/9/9/9/9/9/9/4K4 b - 1".into(),
                RankLength {
                    rank: 'a',
                    expected: 9,
                    found: 8,
                },
            ),
            (
                "shogi",
                "4k3X/9/9/9/9/9/9/9/4K4 b - 1".into(),
                UnknownPiece("X".into()),
            ),
            (
                "shogi",
                "4k2+G1/9/9/9/9/9/9/9/4K4 b - 1".into(),
                UnknownPiece("+G".into()),
            ),
            ("shogi", format!("{k} x - 1"), BadSide("x".into())),
            (
                "shogi",
                format!("{k} b Q 1"),
                BadHand("'Q' cannot be in hand".into()),
            ),
            ("shogi", format!("{k} b - 0"), BadMoveNumber("0".into())),
            ("shogi", format!("{k} b - z"), BadMoveNumber("z".into())),
            // One side may lack a king (a tsume problem's attacker), not both.
            (
                "shogi",
                "9/9/9/9/9/9/9/9/9 b - 1".into(),
                KingCount {
                    color: Color::Black,
                    found: 0,
                },
            ),
            (
                "shogi",
                "9/9/9/9/9/9/9/9/3KK4 w - 1".into(),
                KingCount {
                    color: Color::Black,
                    found: 2,
                },
            ),
            (
                "shogi",
                format!("{k} b 19P 1"),
                PieceCount {
                    piece: 'P',
                    max: 18,
                    found: 19,
                },
            ),
            (
                "shogi",
                "P3k4/9/9/9/9/9/9/9/4K4 b - 1".into(),
                DeadPiece {
                    piece: "P".into(),
                    square: "9a".into(),
                },
            ),
            (
                "shogi",
                "4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1".into(),
                TwoPawns {
                    color: Color::Black,
                    file: 5,
                },
            ),
            (
                "shogi",
                "4k4/4R4/9/9/9/9/9/9/4K4 b - 1".into(),
                OpponentInCheck,
            ),
            (
                "heian",
                "4k4/9/9/9/9/9/9/9/4K4 b P 1".into(),
                BadHand("'P': heian has no pieces in hand".into()),
            ),
            (
                "judkins",
                format!("{k} b - 1"),
                RankCount {
                    expected: 6,
                    found: 9,
                },
            ),
        ];
        for (variant, sfen, want) in cases {
            match parse(variant, &sfen) {
                Err(e) => assert_eq!(e, want, "{sfen}"),
                Ok(_) => panic!("{sfen} accepted"),
            }
        }
    }

    /// Each message names the field, rank, piece, square or rule at fault.
    #[test]
    fn messages_say_what_is_wrong() {
        use SfenError::*;
        for (e, want) in [
            (
                FieldCount(2),
                "expected 4 fields (board side hand move), found 2",
            ),
            (
                RankCount {
                    expected: 9,
                    found: 3,
                },
                "expected 9 ranks, found 3",
            ),
            (
                RankLength {
                    rank: 'c',
                    expected: 9,
                    found: 10,
                },
                "rank c has 10 squares, expected 9",
            ),
            (UnknownPiece("+G".into()), "unknown piece '+G'"),
            (
                BadSide("x".into()),
                "bad side to move 'x' (expected b or w)",
            ),
            (
                BadHand("'Q' cannot be in hand".into()),
                "bad hand: 'Q' cannot be in hand",
            ),
            (BadMoveNumber("0".into()), "bad move number '0'"),
            (
                KingCount {
                    color: Color::White,
                    found: 2,
                },
                "White has 2 kings, expected 1 (0 only for one side)",
            ),
            (
                PieceCount {
                    piece: 'P',
                    max: 18,
                    found: 19,
                },
                "too many pieces of kind P: 19, at most 18",
            ),
            (
                DeadPiece {
                    piece: "N".into(),
                    square: "3b".into(),
                },
                "N on 3b could never move",
            ),
            (
                TwoPawns {
                    color: Color::Black,
                    file: 5,
                },
                "Black has two unpromoted pawns on file 5",
            ),
            (OpponentInCheck, "the side not to move is in check"),
            (BadFen("move number '0'".into()), "move number '0'"),
        ] {
            assert_eq!(e.to_string(), want, "{e:?}");
        }
        // And the parser fills them in from the SFEN it was given.
        let e = parse("shogi", "N3k4/9/9/9/9/9/9/9/4K4 b - 1")
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "N on 9a could never move");
        let e = parse("judkins", "5k/6/6/6/6/6K w - 1").err().unwrap();
        assert_eq!(e.to_string(), "rank f has 7 squares, expected 6");
    }

    #[test]
    fn accepts_missing_move_number_and_any_hand_order() {
        let p = parse("shogi", "4k4/9/9/9/9/9/9/9/4K4 w pP").unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 w Pp 1");
    }
}
