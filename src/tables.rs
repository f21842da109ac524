//! Lookup tables built once per (variant, bit width): leap attacks, slide
//! directions, rays, between/line masks, zones, dead squares and Zobrist keys.
//! Slides use plain rays and the nearest blocker (no magics), which works for any
//! board size and any direction.

use crate::core::Rng;
use crate::core::{BitWord, Bitboard, Color, Direction, Geometry, Square};
use crate::variant::{Kind, Variant, MAX_HAND_KINDS, MAX_KINDS};
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;

/// Largest count of one kind in one hand that the hash keys cover.
pub const MAX_HAND_COUNT: usize = 40;

/// Zobrist keys: board pieces, hand counts and side to move.
pub struct Zobrist {
    psq: Vec<u64>,
    hand: Vec<u64>,
    /// XORed in when White is to move.
    pub side: u64,
}

impl Zobrist {
    fn new(nsq: usize) -> Zobrist {
        // A fixed seed and a generator fixed by its definition keep the keys (and
        // so search behaviour and the bench) reproducible.
        let mut rng = Rng::seed_from_u64(0x4b61_7761_7269_2121);
        let psq = (0..2 * MAX_KINDS * nsq).map(|_| rng.next_u64()).collect();
        let hand = (0..2 * MAX_HAND_KINDS * (MAX_HAND_COUNT + 1))
            .map(|_| rng.next_u64())
            .collect();
        Zobrist {
            psq,
            hand,
            side: rng.next_u64(),
        }
    }
}

/// A piece whose only move is one leap (such as the pawn), moved set-wise.
#[derive(Copy, Clone, Debug)]
pub struct SingleStep<W: BitWord> {
    /// Square-index delta of the leap.
    pub delta: i32,
    /// Squares from which the leap stays on the board.
    pub from: Bitboard<W>,
    /// Destinations whose origin lies in the promotion zone.
    pub to_from_zone: Bitboard<W>,
}

/// Marks two squares that are not on one line in the direction table.
pub const NO_DIRECTION: u8 = u8::MAX;

/// Marks a kind without leaps in the leap-class table.
pub const NO_CLASS: u8 = u8::MAX;

/// Per-variant tables for bit width `W`.
pub struct Tables<W: BitWord> {
    /// The variant these tables describe.
    pub variant: &'static Variant,
    /// Board size.
    pub geo: Geometry,
    nsq: usize,
    leaps: Vec<Bitboard<W>>,
    slides: [[u8; MAX_KINDS]; 2],
    /// For each colour and absolute direction, the kinds (bit mask) that slide that way.
    sliders_toward: [[u16; 8]; 2],
    /// For kinds whose only move is one leap (the pawn), the square-index delta
    /// of that leap per colour, so all such pieces move in one shift.
    single_step: [[Option<SingleStep<W>>; MAX_KINDS]; 2],
    /// Leap class of each kind (kinds with the same leaps share one), or NO_CLASS.
    leap_class: [u8; MAX_KINDS],
    /// A representative kind of each leap class.
    class_rep: ArrayVec<Kind, MAX_KINDS>,
    rays: Vec<Bitboard<W>>,
    between: Vec<Bitboard<W>>,
    line: Vec<Bitboard<W>>,
    /// Direction from one square to another when aligned, else NO_DIRECTION.
    direction: Vec<u8>,
    zone: [Bitboard<W>; 2],
    dead: Vec<Bitboard<W>>,
    files: Vec<Bitboard<W>>,
    /// Every square of the board.
    pub all: Bitboard<W>,
    /// Hash keys.
    pub zobrist: Zobrist,
}

/// Absolute (file, rank) delta of an owner-relative offset.
fn absolute(c: Color, (dx, dy): (i8, i8)) -> (i32, i32) {
    match c {
        Color::Black => (-(dx as i32), -(dy as i32)),
        Color::White => (dx as i32, dy as i32),
    }
}

impl<W: BitWord> Tables<W> {
    /// Builds the tables; `Tables::get` caches them.
    pub fn build(variant: &'static Variant) -> Tables<W> {
        let geo = variant.geometry();
        let nsq = geo.squares();
        assert!(nsq <= W::BITS as usize, "board does not fit the bit word");
        let nk = variant.num_kinds();
        let bb = |sq: Square| Bitboard::<W>::from_square(sq);

        let mut rays = vec![Bitboard::EMPTY; 8 * nsq];
        for d in Direction::ALL {
            let (df, dr) = d.delta();
            for sq in geo.all() {
                let mut r = Bitboard::EMPTY;
                let (mut f, mut k) = (geo.file_of(sq), geo.rank_of(sq));
                while let Some(t) = geo.square(f + df, k + dr) {
                    r.set(t);
                    f += df;
                    k += dr;
                }
                rays[d.index() * nsq + sq.index()] = r;
            }
        }
        let mut between = vec![Bitboard::EMPTY; nsq * nsq];
        let mut direction = vec![NO_DIRECTION; nsq * nsq];
        let mut line = vec![Bitboard::EMPTY; nsq * nsq];
        for a in geo.all() {
            for d in Direction::ALL {
                let ray = rays[d.index() * nsq + a.index()];
                for b in ray.squares() {
                    let beyond = rays[d.index() * nsq + b.index()];
                    between[a.index() * nsq + b.index()] = ray & !beyond & !bb(b);
                    direction[a.index() * nsq + b.index()] = d as u8;
                    let back = rays[d.opposite().index() * nsq + a.index()];
                    line[a.index() * nsq + b.index()] = ray | back | bb(a);
                }
            }
        }

        let mut leaps = vec![Bitboard::EMPTY; 2 * MAX_KINDS * nsq];
        let mut slides = [[0u8; MAX_KINDS]; 2];
        let mut sliders_toward = [[0u16; 8]; 2];
        let mut single_step = [[None; MAX_KINDS]; 2];
        let mut dead = vec![Bitboard::EMPTY; 2 * MAX_KINDS];
        for c in Color::ALL {
            for k in 0..nk {
                let m = variant.kinds[k].movement;
                for &s in m.slides {
                    let (df, dr) = absolute(c, s);
                    let d = Direction::from_delta(df, dr).expect("validated unit slide");
                    slides[c.index()][k] |= 1 << d.index();
                    sliders_toward[c.index()][d.index()] |= 1 << k;
                }
                for sq in geo.all() {
                    let (f, r) = (geo.file_of(sq), geo.rank_of(sq));
                    let mut a = Bitboard::EMPTY;
                    for &l in m.leaps {
                        let (df, dr) = absolute(c, l);
                        if let Some(t) = geo.square(f + df, r + dr) {
                            a.set(t);
                        }
                    }
                    leaps[(c.index() * MAX_KINDS + k) * nsq + sq.index()] = a;
                    let mut reach = a;
                    for &s in m.slides {
                        let (df, dr) = absolute(c, s);
                        if let Some(t) = geo.square(f + df, r + dr) {
                            reach.set(t);
                        }
                    }
                    if reach.is_empty() {
                        dead[c.index() * MAX_KINDS + k].set(sq);
                    }
                }
            }
        }
        // Kinds that leap alike (gold and the promoted minor pieces) share a class,
        // so attack detection does one lookup per class instead of per kind.
        let mut leap_class = [NO_CLASS; MAX_KINDS];
        let mut class_rep: ArrayVec<Kind, MAX_KINDS> = ArrayVec::new();
        for (k, info) in variant.kinds.iter().enumerate() {
            let leaps = info.movement.leaps;
            if leaps.is_empty() {
                continue;
            }
            let same = |r: &Kind| {
                let other = variant.kinds[r.index()].movement.leaps;
                other.len() == leaps.len() && leaps.iter().all(|l| other.contains(l))
            };
            leap_class[k] = match class_rep.iter().position(same) {
                Some(c) => c as u8,
                None => {
                    class_rep.push(Kind(k as u8));
                    (class_rep.len() - 1) as u8
                }
            };
        }
        let mut zone = [Bitboard::EMPTY; 2];
        for sq in geo.all() {
            let r = geo.rank_of(sq);
            if r < variant.def.zone_ranks as i32 {
                zone[Color::Black.index()].set(sq);
            }
            if r >= geo.ranks as i32 - variant.def.zone_ranks as i32 {
                zone[Color::White.index()].set(sq);
            }
        }
        for c in Color::ALL {
            for (k, info) in variant.kinds.iter().enumerate() {
                let m = info.movement;
                if m.leaps.len() != 1 || !m.slides.is_empty() {
                    continue;
                }
                let (df, dr) = absolute(c, m.leaps[0]);
                let delta = dr * geo.files as i32 + df;
                let mut from = Bitboard::EMPTY;
                let mut promo_from_zone = Bitboard::EMPTY;
                for sq in geo.all() {
                    if let Some(to) = geo.square(geo.file_of(sq) + df, geo.rank_of(sq) + dr) {
                        from.set(sq);
                        if zone[c.index()].has(sq) {
                            promo_from_zone.set(to);
                        }
                    }
                }
                single_step[c.index()][k] = Some(SingleStep {
                    delta,
                    from,
                    to_from_zone: promo_from_zone,
                });
            }
        }
        let mut files = vec![Bitboard::EMPTY; geo.files as usize];
        for sq in geo.all() {
            files[geo.file_of(sq) as usize].set(sq);
        }
        Tables {
            variant,
            geo,
            nsq,
            leaps,
            slides,
            sliders_toward,
            single_step,
            leap_class,
            class_rep,
            rays,
            between,
            line,
            direction,
            zone,
            dead,
            files,
            all: Bitboard::first_n(nsq),
            zobrist: Zobrist::new(nsq),
        }
    }

    /// The cached tables for a variant, built on first use.
    pub fn get(variant: &'static Variant) -> &'static Tables<W> {
        type Cache =
            Mutex<HashMap<(std::any::TypeId, &'static str), &'static (dyn Any + Sync + Send)>>;
        static CACHE: Lazy<Cache> = Lazy::new(|| Mutex::new(HashMap::new()));
        let key = (std::any::TypeId::of::<W>(), variant.name());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let entry = *cache
            .entry(key)
            .or_insert_with(|| Box::leak(Box::new(Tables::<W>::build(variant))));
        entry
            .downcast_ref::<Tables<W>>()
            .expect("cache entry has the requested width")
    }

    /// Number of squares.
    #[inline(always)]
    pub fn num_squares(&self) -> usize {
        self.nsq
    }

    /// Squares a piece of kind `k` and colour `c` on `sq` attacks, given occupancy.
    #[inline(always)]
    pub fn attacks(&self, c: Color, k: Kind, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut a = self.leap(c, k, sq);
        let mut m = self.slides[c.index()][k.index()];
        while m != 0 {
            let d = Direction::ALL[m.trailing_zeros() as usize];
            m &= m - 1;
            a |= self.slide(d, sq, occ);
        }
        a
    }

    /// Whether kind `k` of colour `c` on `sq` attacks `target` with occupancy
    /// `occ`: `attacks(c, k, sq, occ).has(target)` without building the set
    /// (one leap lookup, then the one line that joins the squares).
    #[inline(always)]
    pub fn attacks_square(
        &self,
        c: Color,
        k: Kind,
        sq: Square,
        target: Square,
        occ: Bitboard<W>,
    ) -> bool {
        if self.leap(c, k, sq).has(target) {
            return true;
        }
        let d = self.direction[sq.index() * self.nsq + target.index()];
        d != NO_DIRECTION
            && self.slides[c.index()][k.index()] & (1 << d) != 0
            && (self.between(sq, target) & occ).is_empty()
    }

    /// Leap targets of kind `k`, colour `c`, from `sq`.
    #[inline(always)]
    pub fn leap(&self, c: Color, k: Kind, sq: Square) -> Bitboard<W> {
        self.leaps[(c.index() * MAX_KINDS + k.index()) * self.nsq + sq.index()]
    }

    /// Bit mask of absolute directions kind `k` of colour `c` slides in.
    #[inline(always)]
    pub fn slide_dirs(&self, c: Color, k: Kind) -> u8 {
        self.slides[c.index()][k.index()]
    }

    /// Kinds (bit mask) of colour `c` sliding in direction `d`.
    #[inline(always)]
    pub fn sliders_toward(&self, c: Color, d: Direction) -> u16 {
        self.sliders_toward[c.index()][d.index()]
    }

    /// The one-leap description of kind `k` for colour `c`, if it has one move.
    #[inline(always)]
    pub fn single_step(&self, c: Color, k: Kind) -> Option<&SingleStep<W>> {
        self.single_step[c.index()][k.index()].as_ref()
    }

    /// Leap class of kind `k` (`NO_CLASS` if it does not leap).
    #[inline(always)]
    pub fn leap_class(&self, k: Kind) -> u8 {
        self.leap_class[k.index()]
    }

    /// Number of leap classes.
    #[inline(always)]
    pub fn num_leap_classes(&self) -> usize {
        self.class_rep.len()
    }

    /// Leap targets of leap class `class` for colour `c` from `sq`.
    #[inline(always)]
    pub fn class_leap(&self, c: Color, class: usize, sq: Square) -> Bitboard<W> {
        self.leap(c, self.class_rep[class], sq)
    }

    /// Squares a slider on `sq` reaches along `d`, up to and including the first blocker.
    #[inline(always)]
    pub fn slide(&self, d: Direction, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let ray = self.ray(d, sq);
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let b = if d.is_increasing() {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        ray ^ self.ray(d, b)
    }

    /// The squares from `sq` to the edge along `d`, `sq` excluded.
    #[inline(always)]
    pub fn ray(&self, d: Direction, sq: Square) -> Bitboard<W> {
        self.rays[d.index() * self.nsq + sq.index()]
    }

    /// Squares strictly between two aligned squares (empty if not aligned).
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard<W> {
        self.between[a.index() * self.nsq + b.index()]
    }

    /// The direction from `a` to `b` if they are on one line.
    #[inline(always)]
    pub fn direction(&self, a: Square, b: Square) -> Option<Direction> {
        let d = self.direction[a.index() * self.nsq + b.index()];
        if d == NO_DIRECTION {
            None
        } else {
            Some(Direction::ALL[d as usize])
        }
    }

    /// The whole line through two aligned squares (empty if not aligned).
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard<W> {
        self.line[a.index() * self.nsq + b.index()]
    }

    /// Promotion zone of colour `c`.
    #[inline(always)]
    pub fn zone(&self, c: Color) -> Bitboard<W> {
        self.zone[c.index()]
    }

    /// Squares where kind `k` of colour `c` would have no move: it must promote
    /// on arriving there and may not be dropped there.
    #[inline(always)]
    pub fn dead(&self, c: Color, k: Kind) -> Bitboard<W> {
        self.dead[c.index() * MAX_KINDS + k.index()]
    }

    /// The squares of file index `f`.
    #[inline(always)]
    pub fn file(&self, f: usize) -> Bitboard<W> {
        self.files[f]
    }

    /// Hash key of a piece on a square.
    #[inline(always)]
    pub fn psq_key(&self, c: Color, k: Kind, sq: Square) -> u64 {
        self.zobrist.psq[(c.index() * MAX_KINDS + k.index()) * self.nsq + sq.index()]
    }

    /// Hash key for holding the `n`-th piece of kind `k` (n >= 1).
    #[inline(always)]
    pub fn hand_key(&self, c: Color, k: Kind, n: usize) -> u64 {
        self.zobrist.hand[(c.index() * MAX_HAND_KINDS + k.index()) * (MAX_HAND_COUNT + 1) + n]
    }
}
