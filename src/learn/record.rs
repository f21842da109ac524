//! One training position in 128 bytes: the board, the hands, the side to
//! move, the search's score and move, and the game's result.
//!
//! Layout (little endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0 | format version (1) |
//! | 1 | variant: index in `Variant::all()` |
//! | 2 | side to move: 0 the first mover (Black), 1 the second |
//! | 3 | game result for the side to move: 1 win, 0 draw, -1 loss (i8) |
//! | 4..6 | search score in centipawns for the side to move (i16) |
//! | 6..8 | the search's move (`Move::raw`) |
//! | 8..10 | game ply of the position (u16) |
//! | 10..14 | index of the game in the run (u32; resuming starts after the last) |
//! | 14..16 | reserved, 0 |
//! | 16..32 | pieces in hand: 8 counts for the first mover, then 8 for the second |
//! | 32..128 | the board, one byte per square in `Square` index order (rank by rank from the top, file 1 first): 0 empty, else `1 + kind`, plus 128 for the second mover |

use crate::core::{BitWord, Color};
use crate::position::{Move, Position};
use crate::variant::{Kind, Variant};

/// Size of one record in bytes.
pub const RECORD_BYTES: usize = 128;
const VERSION: u8 = 1;
const HAND_KINDS: usize = 8;
const BOARD_AT: usize = 32;

/// One training position.
#[derive(Clone, Debug)]
pub struct Record {
    /// The position's variant.
    pub variant: &'static Variant,
    /// The position as SFEN.
    pub sfen: String,
    /// Search score, centipawns, side to move's view.
    pub score: i16,
    /// The search's move.
    pub mv: Move,
    /// Game result for the side to move: 1, 0 or -1.
    pub result: i8,
    /// Index of the game in its run.
    pub game: u32,
}

/// Packs `pos` with its score, move, result and game index.
pub fn encode<W: BitWord>(
    pos: &Position<W>,
    score: i16,
    mv: Move,
    result: i8,
    game: u32,
) -> [u8; RECORD_BYTES] {
    let v = pos.variant();
    let mut b = [0u8; RECORD_BYTES];
    b[0] = VERSION;
    b[1] = variant_index(v);
    b[2] = pos.side_to_move().index() as u8;
    b[3] = result as u8;
    b[4..6].copy_from_slice(&score.to_le_bytes());
    b[6..8].copy_from_slice(&mv.raw().to_le_bytes());
    b[8..10].copy_from_slice(&(pos.game_ply().min(u16::MAX as u32) as u16).to_le_bytes());
    b[10..14].copy_from_slice(&game.to_le_bytes());
    for c in Color::ALL {
        for k in 0..v.hand_kinds.min(HAND_KINDS) {
            b[16 + c.index() * HAND_KINDS + k] = pos.hand(c).count(Kind(k as u8)) as u8;
        }
    }
    for sq in v.geometry().all() {
        let p = pos.piece_at(sq);
        if p.is_some() {
            let colour = if p.color() == Color::White { 128 } else { 0 };
            b[BOARD_AT + sq.index()] = 1 + p.kind().0 + colour;
        }
    }
    b
}

/// The index of `v` in `Variant::all()`.
fn variant_index(v: &Variant) -> u8 {
    Variant::all()
        .iter()
        .position(|w| w.name() == v.name())
        .expect("a built-in variant") as u8
}

/// Unpacks a record; `None` if it is not one (wrong version or variant).
pub fn decode(b: &[u8; RECORD_BYTES]) -> Option<Record> {
    if b[0] != VERSION {
        return None;
    }
    let v = Variant::all().get(b[1] as usize)?;
    let g = v.geometry();
    let mut sfen = String::new();
    for r in 0..g.ranks as i32 {
        if r > 0 {
            sfen.push('/');
        }
        let mut empty = 0;
        for f in (0..g.files as i32).rev() {
            let sq = g.square(f, r)?;
            let code = b[BOARD_AT + sq.index()];
            if code == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                sfen.push_str(&empty.to_string());
                empty = 0;
            }
            let kind = Kind((code & 127) - 1);
            if kind.index() >= v.num_kinds() {
                return None;
            }
            let token = v.kind_token(kind);
            if code & 128 != 0 {
                sfen.push_str(&token.to_ascii_lowercase());
            } else {
                sfen.push_str(&token);
            }
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
    }
    sfen.push_str(if b[2] == 0 { " b " } else { " w " });
    let mut hand = String::new();
    for c in 0..2 {
        for k in 0..v.hand_kinds.min(HAND_KINDS) {
            let n = b[16 + c * HAND_KINDS + k];
            if n == 0 {
                continue;
            }
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            let l = v.kinds[k].letter;
            hand.push(if c == 0 { l } else { l.to_ascii_lowercase() });
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    sfen.push_str(&hand);
    let ply = u16::from_le_bytes([b[8], b[9]]) as u32;
    sfen.push_str(&format!(" {}", ply + 1));
    Some(Record {
        variant: v,
        sfen,
        score: i16::from_le_bytes([b[4], b[5]]),
        mv: Move::from_raw(u16::from_le_bytes([b[6], b[7]])),
        result: b[3] as i8,
        game: u32::from_le_bytes([b[10], b[11], b[12], b[13]]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_in_every_variant() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let mv = pos.legal_moves()[0];
            let b = encode(&pos, -123, mv, -1, 77);
            let r = decode(&b).unwrap();
            assert_eq!(r.sfen, sfen, "{name}");
            assert_eq!(
                (r.variant.name(), r.score, r.mv, r.result, r.game),
                (name, -123, mv, -1, 77)
            );
        }
        assert!(decode(&[0u8; RECORD_BYTES]).is_none());
    }
}
