//! Pairs `(key, value)` grouped by key into CSR arrays, the one place the crate sorts
//! arcs: a counting sort (small inputs, and the fallback) and, from [`RADIX_FROM`] pairs, a
//! parallel radix sort that writes whole cache lines instead of one random write per pair.
//! The successor arrays (arcs keyed by source) and the predecessor arrays (keyed by target)
//! are both built with it.

use rayon::prelude::*;

use crate::Vertex;

/// Arcs from which the CSR arrays are built by the parallel radix sort: below it they fit
/// in the cache, and the radix sort's buffers would be most of the memory.
pub(crate) const RADIX_FROM: usize = 1 << 22;

/// The `m` pairs of `part` grouped by key in `0..n`: CSR offsets and the values, each
/// key's values in the order of the pairs. A counting sort: the offsets first hold where
/// each key's run ends, then the pairs are placed from the last one back (and may be freed
/// as they go, see [`Part::drain_back`]), which leaves the offsets at the runs' starts.
///
/// # Complexity
/// O(n + m) time; no extra space besides the result.
pub(crate) fn counting_sort<P: Part>(n: usize, m: usize, part: P) -> (Vec<u64>, Vec<Vertex>) {
    let mut offsets = vec![0u64; n + 1];
    part.visit(|key, _| offsets[key as usize] += 1);
    let mut end = 0;
    for o in &mut offsets[..n] {
        end += *o;
        *o = end;
    }
    offsets[n] = end;
    debug_assert_eq!(end, m as u64);
    let mut values = vec![Vertex(0); m];
    part.drain_back(|key, value| {
        let o = &mut offsets[key as usize];
        *o -= 1;
        values[*o as usize] = Vertex(value);
    });
    (offsets, values)
}

/// The `m` pairs of `parts` grouped by key in `0..n`, as [`counting_sort`] does: by the
/// parallel radix sort ([`group`]) from [`RADIX_FROM`] pairs (and below `u32::MAX`), by
/// the counting sort otherwise.
pub(crate) fn by_key<P: Part>(n: usize, m: usize, parts: Vec<P>) -> (Vec<u64>, Vec<Vertex>) {
    if m >= RADIX_FROM && m < u32::MAX as usize {
        group(n, m, parts)
    } else {
        counting_sort(n, m, Parts(parts))
    }
}

/// A sequence of parts walked as one.
struct Parts<P>(Vec<P>);

impl<P: Part> Part for Parts<P> {
    fn visit(&self, mut f: impl FnMut(u32, u32)) {
        for p in &self.0 {
            p.visit(&mut f);
        }
    }

    fn drain_back(mut self, mut f: impl FnMut(u32, u32)) {
        while let Some(p) = self.0.pop() {
            p.drain_back(&mut f);
        }
    }
}

/// Arcs `(source, target)` in a slice, keyed by source.
pub(crate) struct ArcSlice<'a>(pub(crate) &'a [(Vertex, Vertex)]);

impl Part for ArcSlice<'_> {
    fn visit(&self, mut f: impl FnMut(u32, u32)) {
        for &(u, v) in self.0 {
            f(u.0, v.0);
        }
    }

    fn drain_back(self, mut f: impl FnMut(u32, u32)) {
        for &(u, v) in self.0.iter().rev() {
            f(u.0, v.0);
        }
    }
}

/// Keys per bucket at most, as a power of two: the cursors of one bucket stay in the L2
/// cache, and a key's position inside its bucket fits in a `u16`.
const MAX_BUCKET_BITS: u32 = 16;

/// Pairs a bucket holds on average, at most, when the keys are spread evenly: the bucket
/// size is chosen from the density `m / n` so that the values one thread copies aside in
/// pass 2 (4 bytes each) stay a few MiB.
pub(crate) const PIECE: usize = 1 << 20;

/// Bits a 32-bit word must have spare beside a value for the key's position inside its
/// bucket to be packed with it; fewer, and the positions go to a side array of `u16`.
const MIN_PACKED_BITS: u32 = 11;

/// Arcs staged per bucket before they are written out together: 16 sources fill a cache
/// line.
const STAGE: usize = 16;

/// One bucket's staged values, on a cache line of their own.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Staged([Vertex; STAGE]);

/// One part of the arcs to be grouped by key: a sequence of `(key, value)` pairs in order,
/// walked by one task. The key is the source for the successor CSR, the target for the
/// predecessor CSR.
pub(crate) trait Part: Send + Sync {
    /// Whether every key's values come in increasing order, over the parts in order: then
    /// sorting a bucket's (key, value) pairs gives the same grouping as keeping their order.
    const ORDERED: bool = false;

    /// Calls `f(key, value)` for every pair, in order.
    fn visit(&self, f: impl FnMut(u32, u32));

    /// The last walk: as [`visit`](Part::visit), and may free the pairs as it goes, so
    /// that they and the result are never whole in memory at once.
    fn drain(self, f: impl FnMut(u32, u32))
    where
        Self: Sized,
    {
        self.visit(f);
    }

    /// Calls `f(key, value)` for every pair in reverse order, and may free the pairs as it
    /// goes (the walk of the counting sort, [`counting_sort`]).
    fn drain_back(self, f: impl FnMut(u32, u32))
    where
        Self: Sized;
}

/// How [`group`] splits the keys into buckets and where it keeps a key's position inside
/// its bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    /// Keys per bucket, as a power of two.
    bucket_bits: u32,
    /// Bits of a value: the position of its key inside its bucket is packed above them,
    /// in the same 32-bit word. `None` when it does not fit there: the positions then go
    /// to a side array.
    value_bits: Option<u32>,
}

/// The [`Layout`] for `m` pairs with keys and values in `0..n`: buckets of at most 2¹⁶
/// keys, packed words when a value leaves at least [`MIN_PACKED_BITS`] spare, and buckets
/// of `piece` pairs on average, at most.
fn layout(n: usize, m: usize, piece: usize) -> Layout {
    let value_bits = usize::BITS - (n.max(2) - 1).leading_zeros();
    let spare = 32u32.saturating_sub(value_bits);
    let (mut bucket_bits, value_bits) = if spare >= MIN_PACKED_BITS {
        (spare.min(MAX_BUCKET_BITS), Some(value_bits))
    } else {
        (MAX_BUCKET_BITS, None)
    };
    while bucket_bits > 0 && (m as u128) << bucket_bits > piece as u128 * n as u128 {
        bucket_bits -= 1;
    }
    Layout { bucket_bits, value_bits }
}

/// The `m` pairs of `parts`, grouped by key in `0..n`: CSR offsets and the values, each
/// key's values in the order of the parts and of the pairs inside them. Keys and values
/// are below `n`, and `m` below `u32::MAX`. The parts are drained by the second of their
/// two walks.
///
/// A two-pass radix sort, in place in the result. The keys are split into buckets of 2^b
/// consecutive keys, b at most 16 and chosen so that a bucket holds about [`PIECE`] pairs
/// or fewer when the keys are even. Each part counts its pairs per bucket, which gives
/// every (bucket, part) pair its stretch of the result. Pass 1: each part writes its pairs
/// to their buckets' stretches, staging 16 pairs per bucket so that the write streams move
/// whole cache lines; a pair is one 32-bit word, the value with the key's position inside
/// its bucket above it, when both fit in 32 bits (up to 2²¹ keys), and otherwise the value
/// with the position in a side array of `u16`. Pass 2: each bucket, in parallel, counts its
/// keys (which gives their offsets), copies its words aside and places the values back by
/// key; all of this stays in the cache. A bucket above 4 [`PIECE`] pairs whose values come in
/// increasing order ([`Part::ORDERED`], the transpose) is sorted in place instead: one
/// key of huge degree makes such a bucket, whatever the bucket size.
///
/// # Complexity
/// O(n + m) work (and O(k log k) for a sorted bucket of k pairs), O((n + m) / p) time on p
/// threads. Extra space: one bucket's words per thread (about [`PIECE`] words when the keys
/// are even), O(p · n / 2^b) counters, and above 2²¹ keys 2 bytes per pair.
pub(crate) fn group<P: Part>(n: usize, m: usize, parts: Vec<P>) -> (Vec<u64>, Vec<Vertex>) {
    group_by_pieces(n, m, parts, PIECE)
}

/// [`group`] with buckets of `piece` pairs on average, at most, and sorted from 4 `piece`.
pub(crate) fn group_by_pieces<P: Part>(
    n: usize,
    m: usize,
    parts: Vec<P>,
    piece: usize,
) -> (Vec<u64>, Vec<Vertex>) {
    debug_assert!(m < u32::MAX as usize);
    let layout = layout(n, m, piece);
    let large = piece.saturating_mul(4);
    match layout.value_bits {
        Some(value_bits) => radix::<P, true>(n, m, parts, layout.bucket_bits, value_bits, large),
        None => radix::<P, false>(n, m, parts, layout.bucket_bits, 32, large),
    }
}

/// [`group`] with buckets of 2^`bits` keys; `PACKED`: each key's position inside its
/// bucket is kept above the `value_bits` bits of its value, in the same word (otherwise
/// in a side array). A bucket of more than `large` pairs of a [`Part::ORDERED`] part is
/// sorted in place.
fn radix<P: Part, const PACKED: bool>(
    n: usize,
    m: usize,
    parts: Vec<P>,
    bits: u32,
    value_bits: u32,
    large: usize,
) -> (Vec<u64>, Vec<Vertex>) {
    let buckets = n.div_ceil(1 << bits);
    let low_mask = (1u32 << bits) - 1;
    let value_mask = if PACKED { (1u32 << value_bits) - 1 } else { u32::MAX };
    let side = |count: usize| if PACKED { 0 } else { count };

    // Pairs per (part, bucket); the result holds bucket 0's pairs of part 0, of part 1,
    // ..., then bucket 1's, and so on.
    let counts: Vec<Vec<usize>> = parts
        .par_iter()
        .map(|part| {
            let mut count = vec![0usize; buckets];
            part.visit(|key, _| count[(key >> bits) as usize] += 1);
            count
        })
        .collect();

    // Zeroed in parallel: the page faults of a fresh array are spread over the threads.
    let mut pred: Vec<Vertex> = Vec::with_capacity(m);
    pred.par_extend(rayon::iter::repeat_n(Vertex(0), m));
    let mut low = vec![0u16; side(m)];
    // Each part's stretch of every bucket, in both arrays (the side one empty when packed).
    let mut bucket_start = Vec::with_capacity(buckets + 1);
    let mut stretches: Vec<Vec<(&mut [Vertex], &mut [u16])>> =
        (0..parts.len()).map(|_| Vec::with_capacity(buckets)).collect();
    let (mut rest, mut low_rest) = (&mut pred[..], &mut low[..]);
    let mut at = 0;
    for b in 0..buckets {
        bucket_start.push(at);
        for (j, count) in counts.iter().enumerate() {
            let (here, tail) = rest.split_at_mut(count[b]);
            let (low_here, low_tail) = low_rest.split_at_mut(side(count[b]));
            stretches[j].push((here, low_here));
            (rest, low_rest) = (tail, low_tail);
            at += count[b];
        }
    }
    bucket_start.push(m);
    drop(counts);

    // Pass 1: every part's pairs to its stretches, 16 at a time.
    stretches.into_par_iter().zip(parts).for_each(|(mut out, part)| {
        let mut stage = vec![Staged([Vertex(0); STAGE]); buckets];
        let mut stage_low = vec![[0u16; STAGE]; side(buckets)];
        let mut staged = vec![0usize; buckets];
        let mut written = vec![0usize; buckets];
        part.drain(|key, value| {
            let b = (key >> bits) as usize;
            let k = staged[b];
            let position = key & low_mask;
            if PACKED {
                debug_assert!(value <= value_mask);
                stage[b].0[k] = Vertex(position << value_bits | value);
            } else {
                stage[b].0[k] = Vertex(value);
                stage_low[b][k] = position as u16;
            }
            if k + 1 == STAGE {
                let (values, lows) = &mut out[b];
                let w = written[b];
                values[w..w + STAGE].copy_from_slice(&stage[b].0);
                if !PACKED {
                    lows[w..w + STAGE].copy_from_slice(&stage_low[b]);
                }
                written[b] = w + STAGE;
                staged[b] = 0;
            } else {
                staged[b] = k + 1;
            }
        });
        for (b, (values, lows)) in out.iter_mut().enumerate() {
            let (k, w) = (staged[b], written[b]);
            values[w..w + k].copy_from_slice(&stage[b].0[..k]);
            if !PACKED {
                lows[w..w + k].copy_from_slice(&stage_low[b][..k]);
            }
        }
    });

    // Pass 2: each bucket counts its keys, writes their offsets and places its values.
    let mut regions: Vec<(&mut [Vertex], &[u16])> = Vec::with_capacity(buckets);
    let (mut rest, mut low_rest) = (&mut pred[..], &low[..]);
    for b in 0..buckets {
        let len = bucket_start[b + 1] - bucket_start[b];
        let (region, tail) = rest.split_at_mut(len);
        let (lows, low_tail) = low_rest.split_at(side(len));
        regions.push((region, lows));
        (rest, low_rest) = (tail, low_tail);
    }
    let position = |lows: &[u16], i: usize, word: Vertex| {
        if PACKED { (word.0 >> value_bits) as usize } else { usize::from(lows[i]) }
    };
    let mut poff = vec![0u64; n + 1];
    poff[n] = m as u64;
    poff[..n].par_chunks_mut(1 << bits).zip(regions).enumerate().for_each_init(
        || (Vec::new(), Vec::new()),
        |(cursor, aside): &mut (Vec<u32>, Vec<Vertex>), (b, (off, (region, lows)))| {
            cursor.clear();
            cursor.resize(off.len(), 0);
            for (i, &w) in region.iter().enumerate() {
                cursor[position(lows, i, w)] += 1;
            }
            let start = bucket_start[b] as u64;
            let mut acc = 0;
            for (o, c) in off.iter_mut().zip(cursor.iter_mut()) {
                *o = start + u64::from(acc);
                let k = *c;
                *c = acc;
                acc += k;
            }
            if PACKED && P::ORDERED && region.len() > large {
                // (position, value) in increasing order is the grouping itself.
                region.sort_unstable_by_key(|w| w.0);
                for w in region.iter_mut() {
                    w.0 &= value_mask;
                }
                return;
            }
            aside.clear();
            aside.extend_from_slice(region);
            for (i, &w) in aside.iter().enumerate() {
                let c = &mut cursor[position(lows, i, w)];
                region[*c as usize] = Vertex(w.0 & value_mask);
                *c += 1;
            }
        },
    );
    (poff, pred)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_packs_up_to_two_to_the_21_keys_and_bounds_the_buckets() {
        // 100 pairs per key: 2^13 keys per bucket keep a bucket under 2^20 pairs.
        assert_eq!(
            layout(100_000, 10_000_000, PIECE),
            Layout { bucket_bits: 13, value_bits: Some(17) }
        );
        assert_eq!(
            layout(1_000_000, 10_000_000, PIECE),
            Layout { bucket_bits: 12, value_bits: Some(20) }
        );
        assert_eq!(
            layout(1 << 21, 1 << 22, PIECE),
            Layout { bucket_bits: 11, value_bits: Some(21) }
        );
        assert_eq!(
            layout((1 << 21) + 1, 1 << 22, PIECE),
            Layout { bucket_bits: 16, value_bits: None }
        );
        assert_eq!(
            layout(10_000_000, 10_000_000, PIECE),
            Layout { bucket_bits: 16, value_bits: None }
        );
        assert_eq!(layout(1, 5, 1), Layout { bucket_bits: 0, value_bits: Some(1) });
        assert_eq!(layout(4, 1000, 1), Layout { bucket_bits: 0, value_bits: Some(2) });
    }
}
