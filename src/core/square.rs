//! Squares and board geometry.

/// The largest board any variant may have (fits a `u128`).
pub const MAX_SQUARES: usize = 128;

/// A square index: `rank * files + file`, where `file` 0 is file 1 (Black's right)
/// and `rank` 0 is rank `a` (the top, White's side).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Wraps an index; the caller guarantees it is on the board.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        Square(i)
    }

    /// The raw index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The size of a board: files across, ranks down.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
}

impl Geometry {
    /// Number of squares.
    #[inline(always)]
    pub const fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The square at file index `f` (0 = file 1) and rank index `r` (0 = rank a),
    /// or None if off the board.
    #[inline]
    pub fn square(self, f: i32, r: i32) -> Option<Square> {
        if f < 0 || r < 0 || f >= self.files as i32 || r >= self.ranks as i32 {
            None
        } else {
            Some(Square((r * self.files as i32 + f) as u8))
        }
    }

    /// File index (0 = file 1).
    #[inline(always)]
    pub fn file_of(self, sq: Square) -> i32 {
        sq.index() as i32 % self.files as i32
    }

    /// Rank index (0 = rank a).
    #[inline(always)]
    pub fn rank_of(self, sq: Square) -> i32 {
        sq.index() as i32 / self.files as i32
    }

    /// All squares in index order.
    pub fn all(self) -> impl Iterator<Item = Square> {
        (0..self.squares() as u8).map(Square)
    }

    /// USI name of a square, e.g. `7g`. Rank letters run past `i` on tall boards.
    pub fn name(self, sq: Square) -> String {
        format!(
            "{}{}",
            self.file_of(sq) + 1,
            (b'a' + self.rank_of(sq) as u8) as char
        )
    }

    /// Parses a USI square name for this board.
    pub fn parse(self, s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 {
            return None;
        }
        let (num, letter) = b.split_at(b.len() - 1);
        let file: i32 = std::str::from_utf8(num).ok()?.parse().ok()?;
        let l = letter[0];
        if !l.is_ascii_lowercase() || num.is_empty() || num[0] == b'0' || num[0] == b'+' {
            return None;
        }
        self.square(file - 1, (l - b'a') as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board shape the variants use, and a tall one whose rank
    /// letters run past `i`.
    const SHAPES: [(u8, u8); 7] = [(9, 9), (6, 6), (7, 9), (9, 8), (8, 9), (8, 8), (11, 11)];

    #[test]
    fn coordinates_and_names_round_trip() {
        for (files, ranks) in SHAPES {
            let g = Geometry { files, ranks };
            let all: Vec<Square> = g.all().collect();
            assert_eq!(all.len(), g.squares());
            for (i, &sq) in all.iter().enumerate() {
                assert_eq!(sq.index(), i);
                let (f, r) = (g.file_of(sq), g.rank_of(sq));
                assert!((0..files as i32).contains(&f) && (0..ranks as i32).contains(&r));
                assert_eq!(g.square(f, r), Some(sq));
                let name = g.name(sq);
                assert_eq!(g.parse(&name), Some(sq), "{name} on {files}x{ranks}");
            }
            // Off the board on every side.
            for (f, r) in [(-1, 0), (0, -1), (files as i32, 0), (0, ranks as i32)] {
                assert_eq!(g.square(f, r), None, "({f}, {r}) on {files}x{ranks}");
            }
        }
    }

    #[test]
    fn names_follow_usi() {
        let g = Geometry { files: 9, ranks: 9 };
        // File 1 is Black's right (file index 0); rank a is the top.
        assert_eq!(g.name(Square::new(0)), "1a");
        assert_eq!(g.name(Square::new(8)), "9a");
        assert_eq!(g.name(Square::new(80)), "9i");
        assert_eq!(g.parse("7g"), g.square(6, 6));
        let tall = Geometry {
            files: 11,
            ranks: 11,
        };
        assert_eq!(tall.name(Square::new(120)), "11k");
        assert_eq!(tall.parse("10j"), tall.square(9, 9));
    }

    #[test]
    fn bad_names_are_refused() {
        let g = Geometry { files: 9, ranks: 9 };
        for bad in [
            "", "1", "a", "a1", "1A", "0a", "01a", "+1a", "-1a", "10a", "1j", "1a ", " 1a", "1ab",
            "é1a", "1é",
        ] {
            assert_eq!(g.parse(bad), None, "{bad:?}");
        }
        let small = Geometry { files: 6, ranks: 6 };
        assert_eq!(small.parse("7a"), None);
        assert_eq!(small.parse("1g"), None);
        assert!(small.parse("6f").is_some());
    }
}
