//! Transposition table (placeholder: sized, cleared, not yet probed).

/// The shared hash table, sized in MB by `USI_Hash`.
pub struct TranspositionTable {
    entries: Vec<u64>,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable {
            entries: vec![0; mb.max(1) * 1024 * 1024 / 8],
        }
    }

    /// Empties the table (`usinewgame`, `Clear_Hash`).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = 0);
    }

    /// Permille of entries in use.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        self.entries[..n].iter().filter(|&&e| e != 0).count() as u32
    }
}
