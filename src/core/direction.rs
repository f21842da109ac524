//! The eight absolute line directions a slider can move along.

/// An absolute direction on the board. "North" points towards rank `a` (White's
/// side); "east" towards file 1 (Black's right).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Direction {
    /// Towards rank a.
    N = 0,
    /// Towards rank a and file 1.
    NE,
    /// Towards file 1.
    E,
    /// Away from rank a, towards file 1.
    SE,
    /// Away from rank a.
    S,
    /// Away from rank a and file 1.
    SW,
    /// Away from file 1.
    W,
    /// Towards rank a, away from file 1.
    NW,
}

impl Direction {
    /// All eight, in index order.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// Index 0..8.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction pointing the other way.
    #[inline(always)]
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) & 7]
    }

    /// (file delta, rank delta) in square coordinates: file index grows away from
    /// file 1, rank index grows away from rank a.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (0, -1),
            Direction::NE => (-1, -1),
            Direction::E => (-1, 0),
            Direction::SE => (-1, 1),
            Direction::S => (0, 1),
            Direction::SW => (1, 1),
            Direction::W => (1, 0),
            Direction::NW => (1, -1),
        }
    }

    /// Whether stepping this way increases the square index (so the nearest
    /// blocker on a ray is its lowest bit).
    #[inline(always)]
    pub fn is_increasing(self) -> bool {
        matches!(
            self,
            Direction::W | Direction::SW | Direction::S | Direction::SE
        )
    }

    /// The direction with this delta, if it is one of the eight.
    pub fn from_delta(df: i32, dr: i32) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.delta() == (df, dr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_the_eight_unit_steps() {
        let mut deltas = Vec::new();
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
            let (df, dr) = d.delta();
            assert!(
                (df, dr) != (0, 0) && df.abs() <= 1 && dr.abs() <= 1,
                "{d:?}"
            );
            assert_eq!(Direction::from_delta(df, dr), Some(d));
            assert_eq!(d.opposite().delta(), (-df, -dr), "{d:?}");
            assert_eq!(d.opposite().opposite(), d);
            deltas.push((df, dr));
        }
        deltas.sort();
        deltas.dedup();
        assert_eq!(deltas.len(), 8);
        assert_eq!(Direction::from_delta(0, 0), None);
        assert_eq!(Direction::from_delta(2, 1), None);
        assert_eq!(Direction::from_delta(0, -2), None);
        // North is towards rank a, east towards file 1.
        assert_eq!(Direction::N.delta(), (0, -1));
        assert_eq!(Direction::E.delta(), (-1, 0));
    }

    /// `is_increasing` says whether a step grows the square index
    /// (`rank * files + file`), on any board at least two files wide.
    #[test]
    fn increasing_means_a_higher_index() {
        for files in [2, 6, 7, 8, 9, 12] {
            for d in Direction::ALL {
                let (df, dr) = d.delta();
                let index_step = dr * files + df;
                assert_eq!(d.is_increasing(), index_step > 0, "{d:?} on {files} files");
            }
        }
    }
}
