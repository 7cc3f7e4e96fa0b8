//! The rare/common ("sparse space") method for octal games: the engine that extends a
//! Grundy sequence by one value using the class split of the heaps.

use super::code::OctalCode;
use super::error::SequenceError;
use super::sequence::{Engine, Moves, compact};

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
    /// The values are searched in byte lanes (half the memory traffic, twice the SIMD
    /// width) while every value is below this, in 16-bit lanes afterwards. Default 256,
    /// the most a byte holds (larger settings act as 256); smaller settings only move the
    /// switch earlier (the tests use them).
    pub byte_lanes_below: u16,
}

impl Default for SparseConfig {
    fn default() -> Self {
        SparseConfig { first_reclassify: 64, mask_bits: 10, byte_lanes_below: 256 }
    }
}

/// The number of values in a lane (`u16` values: 65536).
const LANE_VALUES: usize = 1 << 16;

/// One stored value of a [`Mirror`]: `u8` while every value is below 256 (half the memory
/// traffic and twice the SIMD lanes), `u16` afterwards.
trait Lane: Copy + Eq + Default + std::ops::BitXor<Output = Self> + Into<usize> {
    /// The value `v` in this lane (the caller knows it fits).
    fn of(v: u16) -> Self;
}

impl Lane for u8 {
    #[inline]
    fn of(v: u16) -> u8 {
        v as u8
    }
}

impl Lane for u16 {
    #[inline]
    fn of(v: u16) -> u16 {
        v
    }
}

/// The sequence stored twice, forwards (`fwd[x] = g(x)`) and backwards
/// (`rev[cap − 1 − x] = g(x)`, `cap = rev.len()`), so that the splits `(a, r − a)` of a heap
/// are two forward contiguous runs that the compiler vectorises.
#[derive(Debug, Default)]
struct Mirror<T> {
    fwd: Vec<T>,
    rev: Vec<T>,
}

impl<T: Lane> Mirror<T> {
    fn push(&mut self, v: u16) {
        let x = self.fwd.len();
        if x == self.rev.len() {
            let cap = (2 * x).max(4096);
            let mut rev = vec![T::default(); cap];
            rev[cap - x..].copy_from_slice(&self.rev);
            self.rev = rev;
        }
        let cap = self.rev.len();
        self.fwd.push(T::of(v));
        self.rev[cap - 1 - x] = T::of(v);
    }

    /// The splits `a + b = r`, `1 ≤ a ≤ b`, as two runs: `(g(a), g(r − a))` for
    /// `a = 1, 2, …, ⌊r/2⌋` (from the ends inwards: on 0.6 the values wanted turn up
    /// sooner than from the middle outwards). Needs `r ≤ fwd.len()`.
    #[inline]
    fn splits(&self, r: usize) -> (&[T], &[T]) {
        let half = r / 2;
        let cap = self.rev.len();
        // g(r − a) = rev[cap − 1 − r + a].
        (&self.fwd[1..=half], &self.rev[cap - r..cap - r + half])
    }
}

/// The sequence in the narrowest lane that holds it (see [`SparseConfig::byte_lanes_below`]).
#[derive(Debug)]
enum Store {
    Narrow(Mirror<u8>),
    Wide(Mirror<u16>),
}

/// The rare/common ("sparse space") method of Berlekamp, Conway and Guy (Winning Ways,
/// ch. 4, "Sparse Space Spells Speed"; Gangolli and Plambeck; Flammenkamp's notes).
///
/// For heap `n`, every option from a pair with a sparse heap is enumerated from the sparse
/// list (O(|sparse|) per split removal; see [`Block`] for how heaps share that pass). The smallest unmarked value `c` that no pair of
/// common heaps can make is an upper bound of `g(n)`; the unmarked values below `c` that a
/// pair of common heaps could make are then looked for among all pairs, stopping as soon as
/// all are found. When one is not found (rare: `n` then joins the sparse set) the scan has
/// covered every pair and the result is still exact. The split into classes (mask and
/// position parity) is re-chosen as the sequence grows, to keep the sparse set smallest.
///
/// The search for the values still wanted runs on a mirrored copy of the sequence in `u8`
/// lanes while the values fit (see [`Mirror`]): while many values are wanted, each chunk
/// of splits is checked off a table; once at most [`FEW`] are left, chunks of splits are
/// compared with them all at once, branch-free (see [`find`]).
#[derive(Debug)]
pub(crate) struct Sparse {
    moves: Moves,
    classes: Classes,
    /// The sparse heaps, increasing, and their values.
    sparse: Vec<u32>,
    sparse_values: Vec<u16>,
    /// `counts[x mod 2][v]`: how many heaps `1 ≤ x < n` of parity `x mod 2` have value `v`.
    counts: [Vec<u64>; 2],
    next_reclassify: usize,
    config: SparseConfig,
    store: Store,
    scratch: Scratch,
    block: Block,
}

/// How many consecutive heaps share one pass over the sparse list.
const BLOCK: usize = 32;

/// The options from sparse pairs of a block of consecutive heaps `start … start + len − 1`,
/// marked in one pass over the sparse list: the value `g(a)` of a sparse heap is combined
/// with the `len` adjacent values `g(start + k − j − a)`, `k < len` (one or two cache
/// lines), instead of one scattered read per heap and sparse heap. Only the pairs whose
/// both heaps precede the block and whose sparse heap `a` lies in `ranges[i]` (for the
/// split removal `to_two[i]`) are marked here; the others (a small `a` whose partner is
/// not computed yet, or a sparse heap found during the block) are marked heap by heap.
#[derive(Debug)]
struct Block {
    start: usize,
    len: usize,
    /// `tables[k · stride + v] = 1` when `v` is an option of heap `start + k` found so far.
    tables: Vec<u8>,
    /// The length of a table: above the bound, and not a multiple of 4 KiB (tables a
    /// multiple apart would compete for the same cache sets).
    stride: usize,
    /// The bound when the block started (a larger bound starts a new block).
    bound: usize,
    /// Per split removal, the sparse heaps `lo ≤ a ≤ hi` marked for the whole block.
    ranges: Vec<(usize, usize)>,
}

impl Block {
    /// Starts the block of heaps `n … n + len − 1` (`g` known below `n`, the mirror synced):
    /// clears its tables and marks the options from the sparse pairs of every heap of it
    /// whose both heaps lie below `n`, except those with a small sparse heap.
    fn start<T: Lane>(
        &mut self,
        m: &Mirror<T>,
        to_two: &[usize],
        (sparse, sparse_values): (&[u32], &[u16]),
        bound: usize,
        n: usize,
        len: usize,
    ) {
        let block = self;
        block.start = n;
        block.len = len;
        block.bound = bound;
        block.stride = (bound + 1).next_multiple_of(64) + 64;
        let stride = block.stride;
        block.tables.clear();
        block.tables.resize(len * stride, 0);
        block.ranges.clear();
        for &j in to_two {
            // Heap n + k splits r = n + k − j = a + b; b ≤ n − 1 for all k < len needs
            // a ≥ len − j, and b ≥ 1 for all k needs a ≤ n − j − 1.
            let lo = len.saturating_sub(j).max(1);
            let Some(hi) = n.checked_sub(j + 1).filter(|&hi| hi >= lo) else {
                block.ranges.push((1, 0));
                continue;
            };
            block.ranges.push((lo, hi));
            let from = sparse.partition_point(|&a| (a as usize) < lo);
            let to = sparse.partition_point(|&a| (a as usize) <= hi);
            for (&a, &va) in sparse[from..to].iter().zip(&sparse_values[from..to]) {
                let base = n - j - a as usize;
                let va = usize::from(va);
                let tables = block.tables.chunks_exact_mut(stride);
                for (t, &y) in tables.zip(&m.fwd[base..base + len]) {
                    t[va ^ y.into()] = 1;
                }
            }
        }
    }
}

/// The tables one heap's computation works in.
#[derive(Debug)]
struct Scratch {
    /// A power of two above every value so far: every option is below it.
    bound: usize,
    /// `want[v] = 1` while `v` is looked for among the splits (zero between heaps).
    want: Box<[u8; LANE_VALUES]>,
    /// The values looked for.
    pending: Vec<u16>,
}

/// How many wanted values the branch-free comparison handles at once.
const FEW: usize = 8;

impl Sparse {
    pub(crate) fn new(code: &OctalCode, config: SparseConfig) -> Sparse {
        Sparse {
            moves: Moves::new(code),
            classes: Classes { mask: u16::MAX, lambda: false, rare: false },
            sparse: Vec::new(),
            sparse_values: Vec::new(),
            counts: [Vec::new(), Vec::new()],
            next_reclassify: config.first_reclassify.max(2),
            config,
            store: Store::Narrow(Mirror::default()),
            scratch: Scratch { bound: 1, want: Box::new([0; LANE_VALUES]), pending: Vec::new() },
            block: Block {
                start: 0,
                len: 0,
                tables: Vec::new(),
                stride: 0,
                bound: 0,
                ranges: Vec::new(),
            },
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
            self.sparse_values.clear();
            for (x, &v) in g.iter().enumerate().skip(1) {
                if classes.weight(x, v) == classes.rare {
                    self.sparse.push(x as u32);
                    self.sparse_values.push(v);
                }
            }
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
            self.sparse_values.push(g[x]);
        }
    }

    /// Brings the mirror up to `g`, widening it when a value no longer fits in a byte.
    fn sync(&mut self, g: &[u16]) {
        let below = self.config.byte_lanes_below.min(256);
        let fits = |v: u16| v < below;
        if let Store::Narrow(m) = &mut self.store {
            let from = m.fwd.len();
            if g[from..].iter().all(|&v| fits(v)) {
                g[from..].iter().for_each(|&v| m.push(v));
                return;
            }
            let mut wide = Mirror::default();
            g.iter().for_each(|&v| wide.push(v));
            self.store = Store::Wide(wide);
            return;
        }
        if let Store::Wide(m) = &mut self.store {
            let from = m.fwd.len();
            g[from..].iter().for_each(|&v| m.push(v));
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
        self.sync(g);
        if n >= self.block.start + self.block.len || self.scratch.bound > self.block.bound {
            let len = BLOCK.min(self.next_reclassify.saturating_sub(n)).max(1);
            let (two, bound) = (&self.moves.to_two, self.scratch.bound);
            let sparse = (&self.sparse[..], &self.sparse_values[..]);
            match &self.store {
                Store::Narrow(m) => self.block.start(m, two, sparse, bound, n, len),
                Store::Wide(m) => self.block.start(m, two, sparse, bound, n, len),
            }
        }
        let block = &mut self.block;
        let k = n - block.start;
        let seen = &mut block.tables[k * block.stride..(k + 1) * block.stride];
        let heap = Heap {
            moves: &self.moves,
            classes: self.classes,
            sparse: &self.sparse,
            sparse_values: &self.sparse_values,
            g,
            n,
            ranges: &block.ranges,
        };
        let value = match &self.store {
            Store::Narrow(m) => heap.value(m, seen, &mut self.scratch),
            Store::Wide(m) => heap.value(m, seen, &mut self.scratch),
        };
        g.push(compact(value, n)?);
        self.scratch.bound = self.scratch.bound.max((value + 1).next_power_of_two());
        if n >= 1 {
            self.record(g, n);
        }
        Ok(())
    }

    fn work(&self, n: usize) -> u64 {
        self.moves.work(n)
    }
}

/// What the computation of `g(n)` reads.
struct Heap<'a> {
    moves: &'a Moves,
    classes: Classes,
    sparse: &'a [u32],
    sparse_values: &'a [u16],
    g: &'a [u16],
    n: usize,
    /// Per split removal, the sparse heaps already marked by the block.
    ranges: &'a [(usize, usize)],
}

impl Heap<'_> {
    /// `g(n)`, from the mirror `m` of `g(0) … g(n − 1)`.
    ///
    /// `seen` holds the options already marked by the block, and is clear elsewhere up to
    /// the bound.
    fn value<T: Lane>(&self, m: &Mirror<T>, seen: &mut [u8], s: &mut Scratch) -> usize {
        let (n, classes, bound) = (self.n, self.classes, s.bound);
        for &j in &self.moves.to_nothing {
            if n == j {
                seen[0] = 1;
            }
        }
        for &j in &self.moves.to_one {
            if n > j {
                seen[usize::from(self.g[n - j])] = 1;
            }
        }
        let two = &self.moves.to_two;
        let active = || two.iter().filter(|&&j| n >= j + 2).map(|&j| n - j);
        for (&j, &(lo, hi)) in two.iter().zip(self.ranges) {
            if n < j + 2 {
                continue;
            }
            let r = n - j;
            let end = self.sparse.partition_point(|&a| (a as usize) < r);
            let below = self.sparse.partition_point(|&a| (a as usize) < lo).min(end);
            let above = self.sparse.partition_point(|&a| (a as usize) <= hi).max(below).min(end);
            for range in [0..below, above..end] {
                let (heaps, values) = (&self.sparse[range.clone()], &self.sparse_values[range]);
                for (&a, &va) in heaps.iter().zip(values) {
                    seen[usize::from(va) ^ m.fwd[r - a as usize].into()] = 1;
                }
            }
        }
        if classes.lambda && active().any(|r| r & 1 == 1) && active().any(|r| r & 1 == 0) {
            // Every value could come from two common heaps: all pairs.
            for r in active() {
                let (low, high) = m.splits(r);
                for (&x, &y) in low.iter().zip(high) {
                    seen[(x ^ y).into()] = 1;
                }
            }
            return (0..bound).find(|&v| seen[v] == 0).unwrap_or(bound);
        }
        // c: the smallest value that is neither seen nor makeable by two common heaps (all
        // active splits give common pairs the same parity here). No option reaches `bound`.
        let pending = &mut s.pending;
        pending.clear();
        let first = active().next();
        let mut c = 0;
        while c < bound {
            if seen[c] == 0 {
                match first {
                    Some(r) if classes.common_pair_makes(c, r) => pending.push(c as u16),
                    _ => break,
                }
            }
            c += 1;
        }
        if pending.is_empty() {
            return c;
        }
        let want = &mut s.want;
        for &v in pending.iter() {
            want[usize::from(v)] = 1;
        }
        let mut missing = pending.len();
        for r in active() {
            let (low, high) = m.splits(r);
            missing = find(low, high, want, pending, missing);
            if missing == 0 {
                break;
            }
        }
        let mut value = c;
        for &v in pending.iter() {
            let v = usize::from(v);
            if want[v] != 0 {
                value = value.min(v);
                want[v] = 0;
            }
        }
        value
    }
}

/// Visits the splits `(low[i], high[i])`, clearing from `want` the values `low[i] ⊕ high[i]`
/// they make, until none of the `missing` wanted values is left (`pending` lists them, and
/// maybe some found ones). Returns how many are still missing.
///
/// While many are wanted, chunks of splits are checked off the table; once at most [`FEW`]
/// are left, chunks are compared with all of them at once, branch-free (vectorised), and
/// only a chunk with a hit is checked off the table.
fn find<T: Lane>(
    low: &[T],
    high: &[T],
    want: &mut [u8; LANE_VALUES],
    pending: &mut Vec<u16>,
    mut missing: usize,
) -> usize {
    const CHUNK: usize = 64;
    const WIDE: usize = 256;
    let len = low.len().min(high.len());
    let (low, high) = (&low[..len], &high[..len]);
    let check_off = |from: usize, to: usize, want: &mut [u8; LANE_VALUES]| {
        let mut found = 0;
        let mut made = [T::default(); CHUNK];
        for (lo, hi) in low[from..to].chunks(CHUNK).zip(high[from..to].chunks(CHUNK)) {
            let made = &mut made[..lo.len()];
            for ((m, &x), &y) in made.iter_mut().zip(lo).zip(hi) {
                *m = x ^ y;
            }
            for &v in made.iter() {
                let v = v.into();
                found += usize::from(want[v]);
                want[v] = 0;
            }
        }
        found
    };
    // Chunks grow from 8 splits to CHUNK, and the first CHUNK splits are always checked
    // off: most wanted values turn up in the first few.
    let (mut i, mut chunk) = (0, 8);
    while missing > 0 && (missing > FEW || i < CHUNK) && i < len {
        let end = (i + chunk).min(len);
        missing -= check_off(i, end, want);
        i = end;
        chunk = (2 * chunk).min(CHUNK);
    }
    while missing > 0 && i < len {
        pending.retain(|&v| want[usize::from(v)] != 0);
        let keys: [T; FEW] = std::array::from_fn(|k| T::of(pending[k.min(pending.len() - 1)]));
        let Some(start) = (i..len).step_by(WIDE).find(|&from| {
            let to = (from + WIDE).min(len);
            any_of(&low[from..to], &high[from..to], keys)
        }) else {
            return missing;
        };
        let end = (start + WIDE).min(len);
        missing -= check_off(start, end, want);
        i = end;
    }
    missing
}

/// `true` if some `low[i] ⊕ high[i]` is one of the keys.
#[inline]
fn any_of<T: Lane>(low: &[T], high: &[T], keys: [T; FEW]) -> bool {
    let mut hit = false;
    for (&x, &y) in low.iter().zip(high) {
        let v = x ^ y;
        hit |= keys.iter().fold(false, |h, &k| h | (v == k));
    }
    hit
}
