//! The engines that extend a Grundy sequence by one value: the plain quadratic definition,
//! the rare/common ("sparse space") method for octal games, and subtraction games.

use super::Play;
use super::code::{OctalCode, SubtractionSet};
use super::error::SequenceError;

/// Marks values with a generation number, so that no clearing is needed between heaps.
#[derive(Debug, Default)]
struct Marks {
    stamp: Vec<u32>,
    generation: u32,
}

impl Marks {
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    #[inline]
    fn mark(&mut self, v: usize) {
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two().max(64), 0);
        }
        self.stamp[v] = self.generation;
    }

    #[inline]
    fn is_marked(&self, v: usize) -> bool {
        self.stamp.get(v).is_some_and(|&s| s == self.generation)
    }

    /// The smallest unmarked value.
    fn mex(&self) -> usize {
        (0..).find(|&v| !self.is_marked(v)).expect("unbounded range")
    }
}

/// Stores a mex as a compact value, or fails if it does not fit.
fn compact(value: usize, heap: usize) -> Result<u16, SequenceError> {
    u16::try_from(value).map_err(|_| SequenceError::ValueTooLarge { heap })
}

/// The moves of an octal game, grouped by what they leave.
#[derive(Debug, Clone)]
struct Moves {
    to_nothing: Vec<usize>,
    to_one: Vec<usize>,
    to_two: Vec<usize>,
}

impl Moves {
    fn new(code: &OctalCode) -> Moves {
        Moves {
            to_nothing: code.removals_to_nothing(),
            to_one: code.removals_to_one(),
            to_two: code.removals_to_two(),
        }
    }

    /// Marks the values of the moves that leave no heap or one heap.
    #[inline]
    fn mark_simple(&self, g: &[u16], n: usize, marks: &mut Marks) {
        for &j in &self.to_nothing {
            if n == j {
                marks.mark(0);
            }
        }
        for &j in &self.to_one {
            if n > j {
                marks.mark(usize::from(g[n - j]));
            }
        }
    }
}

/// Extends a sequence by one value.
pub(crate) trait Engine {
    /// Computes `g(n)` for `n = g.len()` and appends it.
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError>;
}

/// The plain definition: every option of every heap, O(n) per heap.
#[derive(Debug)]
pub(crate) struct Plain {
    moves: Moves,
    marks: Marks,
}

impl Plain {
    pub(crate) fn new(code: &OctalCode) -> Plain {
        Plain { moves: Moves::new(code), marks: Marks::default() }
    }
}

impl Engine for Plain {
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError> {
        let n = g.len();
        self.marks.next_generation();
        self.moves.mark_simple(g, n, &mut self.marks);
        for &j in &self.moves.to_two {
            if n >= j + 2 {
                let r = n - j;
                for a in 1..=r / 2 {
                    self.marks.mark(usize::from(g[a] ^ g[r - a]));
                }
            }
        }
        g.push(compact(self.marks.mex(), n)?);
        Ok(())
    }
}

/// How heaps are split into the rare ("sparse") and the common class.
///
/// The class bit of a heap `x ≥ 1` is `w(x) = parity(g(x) & mask) ⊕ (λ·x mod 2)`; the
/// heaps with `w(x) = rare` form the sparse set. For a split of `r = a + b`,
/// `parity(g(a) ⊕ g(b) & mask) = w(a) ⊕ w(b) ⊕ λ·r mod 2`, so two common heaps only make
/// values `v` with `parity(v & mask) = λ·r mod 2`; every other value comes from a pair
/// with a sparse heap, which the sparse list enumerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Classes {
    mask: u16,
    lambda: bool,
    rare: bool,
}

impl Classes {
    #[inline]
    fn weight(self, x: usize, value: u16) -> bool {
        ((value & self.mask).count_ones() & 1 == 1) ^ (self.lambda && x & 1 == 1)
    }

    /// `true` if two common heaps summing to `r` can make the value `v`.
    #[inline]
    fn common_pair_makes(self, v: usize, r: usize) -> bool {
        (((v as u16) & self.mask).count_ones() & 1 == 1) == (self.lambda && r & 1 == 1)
    }
}

/// Settings of the sparse-space method. Any setting gives the exact sequence; they only
/// change the speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseConfig {
    /// The heap size at which the class split is first chosen from the values (it is
    /// chosen again each time the sequence doubles). Default 64.
    pub first_reclassify: usize,
    /// The largest mask tried, as a number of low bits. Default 10.
    pub mask_bits: u32,
}

impl Default for SparseConfig {
    fn default() -> Self {
        SparseConfig { first_reclassify: 64, mask_bits: 10 }
    }
}

/// The rare/common ("sparse space") method of Berlekamp, Conway and Guy (Winning Ways,
/// ch. 4, "Sparse Space Spells Speed"; Gangolli and Plambeck; Flammenkamp's notes).
///
/// For heap `n`, every option from a pair with a sparse heap is enumerated from the sparse
/// list (O(|sparse|) per split removal). The smallest unmarked value `c` that no pair of
/// common heaps can make is an upper bound of `g(n)`; the unmarked values below `c` that a
/// pair of common heaps could make are then looked for among all pairs, stopping as soon as
/// all are found. When one is not found (rare: `n` then joins the sparse set) the scan has
/// covered every pair and the result is still exact. The split into classes (mask and
/// position parity) is re-chosen as the sequence grows, to keep the sparse set smallest.
#[derive(Debug)]
pub(crate) struct Sparse {
    moves: Moves,
    marks: Marks,
    /// Bit set of the values still looked for among the pairs of common heaps.
    wanted: Box<[u64; 1024]>,
    classes: Classes,
    sparse: Vec<u32>,
    /// `counts[x mod 2][v]`: how many heaps `1 ≤ x < n` of parity `x mod 2` have value `v`.
    counts: [Vec<u64>; 2],
    next_reclassify: usize,
    config: SparseConfig,
    pending: Vec<usize>,
}

impl Sparse {
    pub(crate) fn new(code: &OctalCode, config: SparseConfig) -> Sparse {
        Sparse {
            moves: Moves::new(code),
            marks: Marks::default(),
            wanted: Box::new([0; 1024]),
            classes: Classes { mask: u16::MAX, lambda: false, rare: false },
            sparse: Vec::new(),
            counts: [Vec::new(), Vec::new()],
            next_reclassify: config.first_reclassify.max(2),
            config,
            pending: Vec::new(),
        }
    }

    /// How many heaps are in the sparse set now.
    #[cfg(test)]
    pub(crate) fn sparse_len(&self) -> usize {
        self.sparse.len()
    }

    /// Picks the mask, λ and rare bit that make the sparse set smallest, and rebuilds it.
    fn reclassify(&mut self, g: &[u16]) {
        let len = self.counts[0].len().max(self.counts[1].len());
        let bits = (usize::BITS - len.leading_zeros()).min(self.config.mask_bits).min(16);
        let mut best = (u64::MAX, self.classes);
        let total: u64 = self.counts.iter().flatten().sum();
        // With λ = 1 and split removals of both parities, two common heaps could make every
        // value: that split is useless.
        let parities = self.moves.to_two.iter().map(|j| j & 1).collect::<Vec<_>>();
        let lambdas: &[bool] =
            if parities.windows(2).all(|w| w[0] == w[1]) { &[false, true] } else { &[false] };
        for mask in 1..(1u32 << bits) {
            let mask = mask as u16;
            for &lambda in lambdas {
                // Heaps of class bit 1.
                let mut ones = 0u64;
                for (parity, counts) in self.counts.iter().enumerate() {
                    for (v, &c) in counts.iter().enumerate() {
                        let w = ((v as u16 & mask).count_ones() & 1 == 1) ^ (lambda && parity == 1);
                        if w {
                            ones += c;
                        }
                    }
                }
                for (rare, size) in [(true, ones), (false, total - ones)] {
                    if size < best.0 {
                        best = (size, Classes { mask, lambda, rare });
                    }
                }
            }
        }
        if best.1 != self.classes {
            self.classes = best.1;
            let classes = self.classes;
            self.sparse.clear();
            self.sparse.extend(
                (1..g.len()).filter(|&x| classes.weight(x, g[x]) == classes.rare).map(|x| x as u32),
            );
        }
    }

    fn record(&mut self, g: &[u16], x: usize) {
        let v = usize::from(g[x]);
        let counts = &mut self.counts[x & 1];
        if v >= counts.len() {
            counts.resize(v + 1, 0);
        }
        counts[v] += 1;
        if self.classes.weight(x, g[x]) == self.classes.rare {
            self.sparse.push(x as u32);
        }
    }
}

impl Engine for Sparse {
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError> {
        let n = g.len();
        if n == self.next_reclassify {
            self.reclassify(g);
            self.next_reclassify = n.saturating_mul(2);
        }
        let classes = self.classes;
        self.marks.next_generation();
        self.moves.mark_simple(g, n, &mut self.marks);
        let mut any_split = false;
        for &j in &self.moves.to_two {
            if n >= j + 2 {
                any_split = true;
                let r = n - j;
                for &a in &self.sparse {
                    let a = a as usize;
                    if a >= r {
                        break;
                    }
                    self.marks.mark(usize::from(g[a] ^ g[r - a]));
                }
            }
        }
        let two = &self.moves.to_two;
        let active = || two.iter().filter(|&&j| n >= j + 2).map(|&j| (n - j) & 1 == 1);
        if classes.lambda && active().any(|odd| odd) && active().any(|odd| !odd) {
            // Every value could come from two common heaps: fall back to all pairs.
            for &j in two {
                if n >= j + 2 {
                    let r = n - j;
                    for a in 1..=r / 2 {
                        self.marks.mark(usize::from(g[a] ^ g[r - a]));
                    }
                }
            }
            g.push(compact(self.marks.mex(), n)?);
            self.record(g, n);
            return Ok(());
        }
        let maybe_common =
            |v: usize| two.iter().any(|&j| n >= j + 2 && classes.common_pair_makes(v, n - j));
        // c: the smallest value that is neither marked nor makeable by two common heaps.
        self.pending.clear();
        let mut c = 0;
        loop {
            if self.marks.is_marked(c) {
            } else if any_split && maybe_common(c) {
                self.pending.push(c);
            } else {
                break;
            }
            c += 1;
        }
        let value = if self.pending.is_empty() {
            c
        } else {
            for &v in &self.pending {
                self.wanted[v >> 6] |= 1 << (v & 63);
            }
            let mut missing = self.pending.len();
            for &j in &self.moves.to_two {
                if n >= j + 2 && scan_pairs(g, n - j, &mut self.wanted, &mut missing) {
                    break;
                }
            }
            let mut value = c;
            for &v in &self.pending {
                if self.wanted[v >> 6] & (1 << (v & 63)) != 0 {
                    value = value.min(v);
                    self.wanted[v >> 6] &= !(1 << (v & 63));
                }
            }
            value
        };
        g.push(compact(value, n)?);
        if n >= 1 {
            self.record(g, n);
        }
        Ok(())
    }
}

/// Visits the splits `a + b = r` (`1 ≤ a ≤ b`), clearing from `wanted` the values they
/// make, until `missing` of them are cleared; returns `true` then.
#[inline]
fn scan_pairs(g: &[u16], r: usize, wanted: &mut [u64; 1024], missing: &mut usize) -> bool {
    let half = r / 2;
    let low = &g[1..=half];
    let high = &g[r - half..r];
    // Pair i: a = half − i, b = r − a = high[i]; from the middle outwards.
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        let v = usize::from(x ^ y);
        let bit = 1u64 << (v & 63);
        let word = &mut wanted[v >> 6];
        if *word & bit != 0 {
            *word &= !bit;
            *missing -= 1;
            if *missing == 0 {
                return true;
            }
        }
    }
    false
}

/// Subtraction games: `g(n) = mex {g(n − s) : s ∈ S, s ≤ n}` in normal play; in misère
/// play a heap with no move has value 1 and the others the same mex.
#[derive(Debug)]
pub(crate) struct Subtraction {
    set: Vec<usize>,
    play: Play,
    marks: Marks,
}

impl Subtraction {
    pub(crate) fn new(set: &SubtractionSet, play: Play) -> Subtraction {
        Subtraction {
            set: set.elements().iter().map(|&s| usize::try_from(s).unwrap_or(usize::MAX)).collect(),
            play,
            marks: Marks::default(),
        }
    }
}

impl Engine for Subtraction {
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError> {
        let n = g.len();
        self.marks.next_generation();
        let mut any = false;
        for &s in &self.set {
            if s > n {
                break;
            }
            any = true;
            self.marks.mark(usize::from(g[n - s]));
        }
        let value = if !any && self.play == Play::Misere { 1 } else { self.marks.mex() };
        g.push(compact(value, n)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &mut impl Engine, n: usize) -> Vec<u16> {
        let mut g = Vec::new();
        while g.len() < n {
            engine.push_next(&mut g).unwrap();
        }
        g
    }

    #[test]
    fn sparse_agrees_with_plain_on_classic_games() {
        for code in ["0.77", "0.07", "0.137", "0.6", "0.106", "4.07", "0.0", "4.0", "0.51"] {
            let code: OctalCode = code.parse().unwrap();
            let plain = run(&mut Plain::new(&code), 1500);
            for first in [2, 5, 64] {
                let config = SparseConfig { first_reclassify: first, ..SparseConfig::default() };
                assert_eq!(run(&mut Sparse::new(&code, config), 1500), plain, "{code} {first}");
            }
        }
    }

    #[test]
    fn the_sparse_set_of_0_6_stays_small() {
        let code: OctalCode = "0.6".parse().unwrap();
        let mut e = Sparse::new(&code, SparseConfig::default());
        let _ = run(&mut e, 20_000);
        assert!(e.sparse_len() < 2_000, "{}", e.sparse_len());
    }
}
