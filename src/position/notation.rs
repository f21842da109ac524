//! The two text notations of positions and moves, as views of the same
//! `Position` and `Move`:
//!
//! - USI: SFEN, moves `7g7f`, `2b3c+`, `P*5e` (files numbered from the right
//!   of the side that moves first, ranks lettered from the top).
//! - UCI as Fairy-Stockfish writes shogi variants: FEN with the hand in
//!   brackets (`...[Pp] w - - 0 1`, uppercase is White and moves first), moves
//!   `c3c4`, `h8b2+`, `P@e5` (files lettered from the left of the side that
//!   moves first, ranks numbered from its bottom).
//!
//! The board rows read the same in both (the first row is the top, the side
//! that moves second); only the fields around them, the squares' names and
//! the colour words differ. So FEN is read and written by translation to and
//! from SFEN, and the rules stay in one place.

use super::{Move, MoveError, Position, SfenError};
use crate::core::{BitWord, Geometry, Square};
use crate::variant::Variant;

/// A notation of positions and moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// USI: SFEN and `7g7f`.
    Usi,
    /// UCI in Fairy-Stockfish's dialect: FEN with a bracketed hand and `c3c4`.
    Uci,
}

impl Notation {
    /// The name of `sq`: `7g` in USI, `c3` in UCI.
    pub fn square(self, g: Geometry, sq: Square) -> String {
        match self {
            Notation::Usi => g.name(sq),
            Notation::Uci => format!(
                "{}{}",
                (b'a' + (g.files as i32 - 1 - g.file_of(sq)) as u8) as char,
                g.ranks as i32 - g.rank_of(sq)
            ),
        }
    }

    /// Reads a square name of this notation.
    pub fn parse_square(self, g: Geometry, s: &str) -> Option<Square> {
        match self {
            Notation::Usi => g.parse(s),
            Notation::Uci => {
                let b = s.as_bytes();
                let (&letter, digits) = b.split_first()?;
                if !letter.is_ascii_lowercase()
                    || digits.is_empty()
                    || digits[0] == b'0'
                    || !digits.iter().all(u8::is_ascii_digit)
                    || digits.len() > 2
                {
                    return None;
                }
                let rank: i32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
                let file = g.files as i32 - 1 - (letter - b'a') as i32;
                g.square(file, g.ranks as i32 - rank)
            }
        }
    }

    /// The text of `m` in `v`: `7g7f`/`c3c4`, `2b3c+`/`h8g7+`, `P*5e`/`P@e5`.
    pub fn move_text(self, m: Move, v: &Variant) -> String {
        if self == Notation::Usi || m.is_none() {
            return m.to_usi(v);
        }
        let g = v.geometry();
        if m.is_drop() {
            format!(
                "{}@{}",
                v.kind(m.drop_kind()).letter,
                self.square(g, m.to())
            )
        } else {
            format!(
                "{}{}{}",
                self.square(g, m.from()),
                self.square(g, m.to()),
                if m.is_promotion() { "+" } else { "" }
            )
        }
    }

    /// Reads a move of this notation for `v`'s board. Only the syntax is
    /// checked (and that a dropped letter names a piece of `v`); see
    /// `Position::parse_move_in` for legality.
    pub fn parse_move(self, v: &Variant, s: &str) -> Result<Move, MoveError> {
        if self == Notation::Usi {
            return Move::from_usi(v, s);
        }
        let g = v.geometry();
        // `@` as Fairy-Stockfish writes drops; `*` accepted too.
        if let Some((piece, sq)) = s.split_once(['@', '*']) {
            let mut letters = piece.chars();
            let (Some(letter), None) = (letters.next(), letters.next()) else {
                return Err(MoveError::Malformed);
            };
            if !letter.is_ascii_alphabetic() {
                return Err(MoveError::Malformed);
            }
            let to = self.parse_square(g, sq).ok_or(MoveError::Malformed)?;
            let kind = v
                .kind_by_letter(letter.to_ascii_uppercase(), false)
                .ok_or(MoveError::Illegal)?;
            return Ok(Move::drop(kind, to));
        }
        let (body, promote) = match s.strip_suffix('+') {
            Some(b) => (b, true),
            None => (s, false),
        };
        // The destination starts at the second letter.
        let split = body
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i)
            .ok_or(MoveError::Malformed)?;
        let from = self
            .parse_square(g, &body[..split])
            .ok_or(MoveError::Malformed)?;
        let to = self
            .parse_square(g, &body[split..])
            .ok_or(MoveError::Malformed)?;
        Ok(Move::normal(from, to, promote))
    }

    /// The text of `pos`: SFEN or FEN.
    pub fn position_text<W: BitWord>(self, pos: &Position<W>) -> String {
        match self {
            Notation::Usi => pos.to_sfen(),
            Notation::Uci => sfen_to_fen(pos.variant(), &pos.to_sfen(), pos.halfmove_clock()),
        }
    }

    /// Reads a position of `v` in this notation.
    pub fn parse_position<W: BitWord>(
        self,
        v: &'static Variant,
        text: &str,
    ) -> Result<Position<W>, SfenError> {
        match self {
            Notation::Usi => Position::from_sfen(v, text),
            Notation::Uci => {
                let (sfen, clock) = fen_to_sfen(text)?;
                let mut pos = Position::from_sfen(v, &sfen)?;
                pos.start_clock = clock;
                Ok(pos)
            }
        }
    }
}

impl<W: BitWord> Position<W> {
    /// Reads a move in `notation` and checks that it is legal here.
    pub fn parse_move_in(&self, notation: Notation, s: &str) -> Result<Move, MoveError> {
        let m = notation.parse_move(self.variant(), s)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal)
        }
    }

    /// The position as Fairy-Stockfish's FEN.
    pub fn to_fen(&self) -> String {
        Notation::Uci.position_text(self)
    }
}

/// The largest halfmove clock a FEN may give (as the move number's bound).
const MAX_CLOCK: u32 = 100_000;

/// SFEN to FEN as Fairy-Stockfish writes it: the same board; the hand in
/// brackets, one letter per piece, the first mover's (uppercase) first and
/// each side's in Fairy-Stockfish's order (`[]` for none); the side as `w`
/// (first mover) or `b`; no castling or en passant; `clock`, the halfmove
/// clock; the move number.
fn sfen_to_fen(v: &Variant, sfen: &str, clock: u32) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let (board, side, hand, ply) = (fields[0], fields[1], fields[2], fields[3]);
    let mut pieces = String::new();
    let mut count = 0u32;
    for ch in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = ch.to_digit(10) {
            count = count * 10 + d;
        } else {
            for _ in 0..count.max(1) {
                pieces.push(ch);
            }
            count = 0;
        }
    }
    let order = v.def.fen_hand_order;
    let rank = |c: char| {
        let i = order.find(c.to_ascii_uppercase()).unwrap_or(order.len());
        (c.is_ascii_lowercase(), i)
    };
    let mut pieces: Vec<char> = pieces.chars().collect();
    pieces.sort_by_key(|&c| rank(c));
    let pieces: String = pieces.into_iter().collect();
    let ply: u32 = ply.parse().unwrap_or(1).max(1);
    let side = if side == "b" { 'w' } else { 'b' };
    // The hand of a drop variant (`[]` when empty); variants without drops
    // have none.
    let hand = if v.hand_kinds > 0 {
        format!("[{pieces}]")
    } else {
        String::new()
    };
    format!("{board}{hand} {side} - - {clock} {}", ply.div_ceil(2))
}

/// FEN to SFEN (see `sfen_to_fen`), as leniently as Fairy-Stockfish reads
/// it: after the board and its optional `[hand]` (one letter per piece, or
/// with counts; `-` or nothing for none), an optional side (`w`), optional
/// `-` fields for castling and en passant, then no number, the move number
/// alone (cutechess writes `... w - 1`), or the halfmove clock and the move
/// number.
/// Returns the SFEN and the FEN's halfmove clock (0 if it has none).
fn fen_to_sfen(fen: &str) -> Result<(String, u32), SfenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() || fields.len() > 6 {
        return Err(SfenError::BadFen(format!(
            "expected 1 to 6 fields (board[hand] side castling ep halfmove move), found {}",
            fields.len()
        )));
    }
    let (board, hand) = match fields[0].split_once('[') {
        Some((b, rest)) => {
            let h = rest
                .strip_suffix(']')
                .ok_or_else(|| SfenError::BadHand(format!("'[{rest}' has no ']'")))?;
            (b, h)
        }
        None => (fields[0], ""),
    };
    let side = match fields.get(1).copied().unwrap_or("w") {
        "w" => "b",
        "b" => "w",
        s => return Err(SfenError::BadSide(s.into())),
    };
    let rest = fields.get(2..).unwrap_or(&[]);
    let dashes = rest.iter().take(2).take_while(|&&f| f == "-").count();
    let numbers = &rest[dashes..];
    if let Some(f) = numbers.iter().find(|f| f.parse::<u32>().is_err()) {
        return Err(SfenError::BadFen(format!(
            "'{f}' where '-' or a number belongs"
        )));
    }
    let fullmove = match numbers {
        [] => 1,
        [n] | [_, n] => n
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=100_000).contains(n))
            .ok_or_else(|| SfenError::BadFen(format!("move number '{n}'")))?,
        _ => return Err(SfenError::BadFen("too many numbers".into())),
    };
    let clock = match numbers {
        [h, _] => h
            .parse::<u32>()
            .ok()
            .filter(|h| *h <= MAX_CLOCK)
            .ok_or_else(|| SfenError::BadFen(format!("halfmove clock '{h}'")))?,
        _ => 0,
    };
    let ply = 2 * (fullmove - 1) + if side == "b" { 1 } else { 2 };
    // SFEN wants each letter once, with a count.
    let mut counts: Vec<(char, u32)> = Vec::new();
    let mut count: Option<u32> = None;
    for ch in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = ch.to_digit(10) {
            count = Some(count.unwrap_or(0) * 10 + d).filter(|&n| n <= 99);
            if count.is_none_or(|n| n == 0) {
                return Err(SfenError::BadHand(format!("bad count in '[{hand}]'")));
            }
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            return Err(SfenError::BadHand(format!("'{ch}' in the hand")));
        }
        let n = count.take().unwrap_or(1);
        match counts.iter_mut().find(|(c, _)| *c == ch) {
            Some((_, m)) => *m += n,
            None => counts.push((ch, n)),
        }
    }
    if count.is_some() || counts.iter().any(|&(_, n)| n > 99) {
        return Err(SfenError::BadHand(format!("bad count in '[{hand}]'")));
    }
    let mut sfen_hand = String::new();
    for (ch, n) in counts {
        if n > 1 {
            sfen_hand.push_str(&n.to_string());
        }
        sfen_hand.push(ch);
    }
    if sfen_hand.is_empty() {
        sfen_hand.push('-');
    }
    Ok((format!("{board} {side} {sfen_hand} {ply}"), clock))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(v: &str, sfen: &str) -> Position<u128> {
        Position::from_sfen(Variant::by_name(v).unwrap(), sfen).unwrap()
    }

    #[test]
    fn squares_of_every_board_size() {
        for v in Variant::all() {
            let g = v.geometry();
            for sq in g.all() {
                for n in [Notation::Usi, Notation::Uci] {
                    assert_eq!(
                        n.parse_square(g, &n.square(g, sq)),
                        Some(sq),
                        "{}",
                        v.name()
                    );
                }
            }
            // The first mover's leftmost back square is a1 in UCI.
            let corner = g.square(g.files as i32 - 1, g.ranks as i32 - 1).unwrap();
            assert_eq!(Notation::Uci.square(g, corner), "a1");
        }
        let g = Variant::by_name("shogi").unwrap().geometry();
        assert_eq!(Notation::Uci.square(g, g.parse("7g").unwrap()), "c3");
        assert_eq!(Notation::Uci.square(g, g.parse("1a").unwrap()), "i9");
        assert_eq!(Notation::Uci.parse_square(g, "j1"), None);
        assert_eq!(Notation::Uci.parse_square(g, "a10"), None);
        assert_eq!(Notation::Uci.parse_square(g, "a0"), None);
    }

    #[test]
    fn moves_in_both_notations() {
        let v = Variant::by_name("shogi").unwrap();
        let p = pos(
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        );
        for (usi, uci) in [("3c3d", "g7g6"), ("8b7b", "b8c8")] {
            let m = p.parse_move(usi).unwrap();
            assert_eq!(Notation::Uci.move_text(m, v), uci);
            assert_eq!(p.parse_move_in(Notation::Uci, uci), Ok(m));
        }
        let q = pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 b P 1");
        let drop = q.parse_move("P*5e").unwrap();
        assert_eq!(Notation::Uci.move_text(drop, v), "P@e5");
        assert_eq!(q.parse_move_in(Notation::Uci, "P@e5"), Ok(drop));
        let r = pos("shogi", "4k4/9/4P4/9/9/9/9/9/4K4 b - 1");
        let promo = r.parse_move("5c5b+").unwrap();
        assert_eq!(Notation::Uci.move_text(promo, v), "e7e8+");
        assert_eq!(r.parse_move_in(Notation::Uci, "e7e8+"), Ok(promo));
        for bad in [
            "", "e7", "e7e", "P@", "@e5", "e7e8++", "E7e8", "z1a1", "e7e10",
        ] {
            assert!(r.parse_move_in(Notation::Uci, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fen_round_trips() {
        let cases = [
            (
                "shogi",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
            ),
            (
                "shogi",
                "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
                "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L[Sgnpppb] b - - 0 62",
            ),
            // Every kind in hand, in the order pyffish 0.0.90's get_fen
            // writes them.
            (
                "shogi",
                "4k4/9/9/4P4/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
                "4k4/9/9/4P4/9/9/9/9/4K4[GNLPSRBgnlpsrb] w - - 0 1",
            ),
            (
                "judkins",
                "5k/6/6/6/6/K5 b RBGSNPrbgsnp 1",
                "5k/6/6/6/6/K5[GNPSRBgnpsrb] w - - 0 1",
            ),
            (
                "yarishogi",
                "3k3/7/7/7/7/7/7/7/3K3 b RBNPrbnp 1",
                "3k3/7/7/7/7/7/7/7/3K3[RBNPrbnp] w - - 0 1",
            ),
            (
                "judkins",
                "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
                "rbnsgk/5p/6/6/P5/KGSNBR[] w - - 0 1",
            ),
            (
                "heian8x8",
                "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
                "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL w - - 0 1",
            ),
        ];
        for (v, sfen, fen) in cases {
            let p = pos(v, sfen);
            assert_eq!(p.to_fen(), fen, "{v}");
            let back: Position<u128> = Notation::Uci
                .parse_position(Variant::by_name(v).unwrap(), fen)
                .unwrap();
            assert_eq!(back.to_sfen(), sfen, "{v}");
        }
    }

    #[test]
    fn bad_fens_are_rejected() {
        let v = Variant::by_name("shogi").unwrap();
        let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
        for bad in [
            String::new(),
            format!("{board}[- w"),
            format!("{board}[-] x"),
            format!("{board}[-] w KQkq - 0 1"),
            format!("{board}[-] w - e3 0 1"),
            format!("{board}[-] w - - x 1"),
            format!("{board}[-] w KQkq 1"),
            format!("{board}[-] w - - 0 0"),
            format!("{board}[1] w - - 0 1"),
            format!("{board}[K] w - - 0 1"),
            format!("{board}[-] w - - 0 1 2"),
            format!("{board}[-] w - - - 1"),
            format!("{board}[2] w 1"),
            format!("{board}[P2] w 1"),
        ] {
            assert!(
                Notation::Uci.parse_position::<u128>(v, &bad).is_err(),
                "{bad}"
            );
        }
        // Fields may be left out as Fairy-Stockfish and cutechess do.
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        for ok in [
            board.to_string(),
            format!("{board}[] w"),
            format!("{board}[-] w - 1"),
            format!("{board}[-] w 0 1"),
            format!("{board} w - - 0 1"),
        ] {
            let p: Position<u128> = Notation::Uci.parse_position(v, &ok).unwrap();
            assert_eq!(p.to_sfen(), start, "{ok}");
        }
        let p: Position<u128> = Notation::Uci
            .parse_position(v, "4k4/9/9/9/9/9/9/9/4K4[PPp2B] b - 7")
            .unwrap();
        assert_eq!(p.to_sfen().split(' ').nth(2), Some("2B2Pp"));
        assert_eq!(p.to_sfen().split(' ').nth(3), Some("14"));
    }
}
