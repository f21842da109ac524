//! The evaluation's terms and how they are summed: each side's score is an
//! `Acc`, and every term added is also handed to a `Trace` (`NoTrace` in the
//! search, compiled away; `TermSums` for the `eval` command).

/// The terms of the evaluation, as reported by `trace`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Piece values on the board and in hand.
    Material,
    /// Piece-square terms and defenders next to the king.
    Placement,
    /// Reachable squares.
    Mobility,
    /// King danger.
    KingSafety,
    /// Attacks on the enemy camp.
    ZoneControl,
    /// Undefended and pawn-attacked enemy pieces.
    Threats,
    /// Few pieces left (bare-king danger) and the endgame drive.
    Endgame,
}

impl Term {
    /// Every term, in report order.
    pub const ALL: [Term; 7] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::KingSafety,
        Term::ZoneControl,
        Term::Threats,
        Term::Endgame,
    ];

    /// Lower-case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Placement => "placement",
            Term::Mobility => "mobility",
            Term::KingSafety => "king safety",
            Term::ZoneControl => "zone control",
            Term::Threats => "threats",
            Term::Endgame => "endgame",
        }
    }
}

/// Receives each term as it is added (`NoTrace` in the search: compiled away).
pub trait Trace {
    /// `v` centipawns for colour index `c` under `term`.
    fn add(&mut self, term: Term, c: usize, v: i32);
}

/// The tracer of the search: does nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Term, _: usize, _: i32) {}
}

/// Per-term sums, indexed like `Term::ALL`, for Black and White.
#[derive(Default, Debug)]
pub struct TermSums(pub [[i32; 2]; 7]);

impl Trace for TermSums {
    fn add(&mut self, term: Term, c: usize, v: i32) {
        // `Term::ALL` lists the variants in declaration order.
        self.0[term as usize][c] += v;
    }
}

/// Both sides' scores, each term also handed to a tracer.
pub(super) struct Acc<'a, T: Trace> {
    /// Black's and White's sums.
    pub(super) score: [i32; 2],
    /// Where each term goes as well.
    pub(super) tr: &'a mut T,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    pub(super) fn add(&mut self, term: Term, c: usize, v: i32) {
        self.score[c] += v;
        self.tr.add(term, c, v);
    }
}
