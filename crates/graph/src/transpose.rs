//! Arcs grouped by key in parallel and cache-friendly — the predecessor arrays (by target)
//! and the successor arrays of a text file (by source): a radix sort instead of one random
//! write per arc.

use rayon::prelude::*;

use crate::Vertex;

/// Targets per bucket, as a power of two: the cursors of one bucket stay in the L2 cache,
/// and a target's position inside its bucket fits in a `u16`.
const BUCKET_BITS: u32 = 16;

/// Arcs staged per bucket before they are written out together: 16 sources fill a cache
/// line.
const STAGE: usize = 16;

/// The bits of a target inside its bucket.
const LOW: u32 = (1 << BUCKET_BITS) - 1;

/// One part of the arcs to be grouped by key: a sequence of `(key, value)` pairs in order,
/// walked by one task. The key is the source for the successor CSR, the target for the
/// predecessor CSR.
pub(crate) trait Part: Send + Sync {
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
    /// goes (the walk of the counting sort, [`counting_sort`](crate::assemble::counting_sort)).
    fn drain_back(self, f: impl FnMut(u32, u32))
    where
        Self: Sized;
}

/// The arcs of a range of sources of a successor CSR, keyed by target: a part of their
/// transpose.
struct Transpose<'a> {
    soff: &'a [u64],
    succ: &'a [Vertex],
    sources: std::ops::Range<usize>,
}

impl Part for Transpose<'_> {
    #[inline]
    fn visit(&self, mut f: impl FnMut(u32, u32)) {
        for u in self.sources.clone() {
            for t in &self.succ[self.soff[u] as usize..self.soff[u + 1] as usize] {
                f(t.0, u as u32);
            }
        }
    }

    fn drain_back(self, mut f: impl FnMut(u32, u32)) {
        for u in self.sources.rev() {
            for t in self.succ[self.soff[u] as usize..self.soff[u + 1] as usize].iter().rev() {
                f(t.0, u as u32);
            }
        }
    }
}

/// The transpose of the successor CSR `(soff, succ)` by the counting sort, with one write
/// per arc in arc order (random in memory): below [`RADIX_FROM`](crate::assemble::RADIX_FROM)
/// arcs, for graphs of `u32::MAX` arcs or more, and the reference in tests.
pub(crate) fn sequential_transpose(soff: &[u64], succ: &[Vertex]) -> (Vec<u64>, Vec<Vertex>) {
    let n = soff.len() - 1;
    crate::assemble::counting_sort(n, succ.len(), Transpose { soff, succ, sources: 0..n })
}

/// The transpose of the successor CSR `(soff, succ)`: predecessor offsets and lists, each
/// list sorted by source, on the current rayon pool ([`group`] of the arcs by target; the
/// sources are split into one part per thread with about the same number of arcs).
///
/// Returns `None` when the graph has `u32::MAX` arcs or more (the in-bucket cursors are
/// `u32`); the caller then transposes sequentially.
///
/// # Complexity
/// That of [`group`].
pub(crate) fn par_transpose(soff: &[u64], succ: &[Vertex]) -> Option<(Vec<u64>, Vec<Vertex>)> {
    let n = soff.len() - 1;
    let m = succ.len();
    if m >= u32::MAX as usize {
        return None;
    }
    let parts = rayon::current_num_threads().clamp(1, 64);
    let mut starts: Vec<usize> = (0..parts)
        .map(|j| soff.partition_point(|&o| o < (m as u64) * j as u64 / parts as u64))
        .map(|s| s.min(n))
        .collect();
    starts[0] = 0;
    starts.push(n);
    let parts = starts.windows(2).map(|w| Transpose { soff, succ, sources: w[0]..w[1] });
    Some(group(n, m, parts.collect()))
}

/// The `m` pairs of `parts`, grouped by key in `0..n`: CSR offsets and the values, each
/// key's values in the order of the parts and of the pairs inside them. `m` must be below
/// `u32::MAX`. The parts are drained by the second of their two walks.
///
/// A two-pass radix sort, in place in the result. Each part counts its pairs per bucket
/// of 2¹⁶ keys, which gives every (bucket, part) pair its stretch of the result. Pass 1:
/// each part writes the values of its pairs to their buckets' stretches, and the keys' low
/// 16 bits to the same places of a side array, staging 16 pairs per bucket so that the
/// few hundred write streams move whole cache lines. Pass 2: each bucket, in parallel,
/// counts its keys (which gives their offsets), copies its values aside and places them
/// back by key; all of this stays in the cache.
///
/// # Complexity
/// O(n + m) work, O((n + m) / p) time on p threads; 2 bytes per pair of extra space, and
/// one bucket's values per thread.
pub(crate) fn group<P: Part>(n: usize, m: usize, parts: Vec<P>) -> (Vec<u64>, Vec<Vertex>) {
    debug_assert!(m < u32::MAX as usize);
    let buckets = n.div_ceil(1 << BUCKET_BITS);

    // Arcs per (part, bucket); the result holds bucket 0's arcs of part 0, of part 1, ...,
    // then bucket 1's, and so on.
    let counts: Vec<Vec<usize>> = parts
        .par_iter()
        .map(|part| {
            let mut count = vec![0usize; buckets];
            part.visit(|key, _| count[(key >> BUCKET_BITS) as usize] += 1);
            count
        })
        .collect();

    // Zeroed in parallel: the page faults of a fresh array are spread over the threads.
    let mut pred: Vec<Vertex> = Vec::with_capacity(m);
    pred.par_extend(rayon::iter::repeat_n(Vertex(0), m));
    let mut low = vec![0u16; m];
    // Each part's stretch of every bucket, in both arrays.
    let mut bucket_start = Vec::with_capacity(buckets + 1);
    let mut stretches: Vec<Vec<(&mut [Vertex], &mut [u16])>> =
        (0..parts.len()).map(|_| Vec::with_capacity(buckets)).collect();
    let (mut rest, mut low_rest) = (&mut pred[..], &mut low[..]);
    let mut at = 0;
    for b in 0..buckets {
        bucket_start.push(at);
        for (j, count) in counts.iter().enumerate() {
            let (here, tail) = rest.split_at_mut(count[b]);
            let (low_here, low_tail) = low_rest.split_at_mut(count[b]);
            stretches[j].push((here, low_here));
            (rest, low_rest) = (tail, low_tail);
            at += count[b];
        }
    }
    bucket_start.push(m);

    // Pass 1: every part's sources and low target bits to its stretches, 16 at a time.
    stretches.into_par_iter().zip(parts).for_each(|(mut out, part)| {
        let mut stage = vec![([Vertex(0); STAGE], [0u16; STAGE]); buckets];
        let mut staged = vec![0usize; buckets];
        let mut written = vec![0usize; buckets];
        part.drain(|key, value| {
            let b = (key >> BUCKET_BITS) as usize;
            let k = staged[b];
            let stage = &mut stage[b];
            stage.0[k] = Vertex(value);
            stage.1[k] = (key & LOW) as u16;
            if k + 1 == STAGE {
                let (values, lows) = &mut out[b];
                let w = written[b];
                values[w..w + STAGE].copy_from_slice(&stage.0);
                lows[w..w + STAGE].copy_from_slice(&stage.1);
                written[b] = w + STAGE;
                staged[b] = 0;
            } else {
                staged[b] = k + 1;
            }
        });
        for (b, (sources, lows)) in out.iter_mut().enumerate() {
            let (k, w) = (staged[b], written[b]);
            sources[w..w + k].copy_from_slice(&stage[b].0[..k]);
            lows[w..w + k].copy_from_slice(&stage[b].1[..k]);
        }
    });

    // Pass 2: each bucket counts its in-degrees, writes its offsets and places its sources.
    let mut regions: Vec<(&mut [Vertex], &[u16])> = Vec::with_capacity(buckets);
    let (mut rest, mut low_rest) = (&mut pred[..], &low[..]);
    for b in 0..buckets {
        let len = bucket_start[b + 1] - bucket_start[b];
        let (region, tail) = rest.split_at_mut(len);
        let (lows, low_tail) = low_rest.split_at(len);
        regions.push((region, lows));
        (rest, low_rest) = (tail, low_tail);
    }
    let mut poff = vec![0u64; n + 1];
    poff[n] = m as u64;
    poff[..n].par_chunks_mut(1 << BUCKET_BITS).zip(regions).enumerate().for_each_init(
        || (Vec::new(), Vec::new()),
        |(cursor, sources): &mut (Vec<u32>, Vec<Vertex>), (b, (off, (region, lows)))| {
            cursor.clear();
            cursor.resize(off.len(), 0);
            for &l in lows {
                cursor[usize::from(l)] += 1;
            }
            let start = bucket_start[b] as u64;
            let mut acc = 0;
            for (o, c) in off.iter_mut().zip(cursor.iter_mut()) {
                *o = start + u64::from(acc);
                let k = *c;
                *c = acc;
                acc += k;
            }
            sources.clear();
            sources.extend_from_slice(region);
            for (&s, &l) in sources.iter().zip(lows) {
                let c = &mut cursor[usize::from(l)];
                region[*c as usize] = s;
                *c += 1;
            }
        },
    );
    (poff, pred)
}

#[cfg(test)]
mod tests {
    use super::par_transpose;
    use super::sequential_transpose;
    use crate::generate::{GenConfig, random};

    #[test]
    fn equals_the_graph_transpose_on_every_pool() {
        for (n, m) in [(1, 0), (7, 0), (5, 20), (200_000, 500_000), (100_000, 60_000), (65_536, 9)]
        {
            let cfg = GenConfig {
                vertices: n,
                arcs: m,
                seed: n as u64,
                self_loops: true,
                ..GenConfig::default()
            };
            let g = random(&cfg);
            let (soff, succ) = g.successor_csr();
            let (poff, pred) = sequential_transpose(soff, succ);
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let (o, p) = pool.install(|| par_transpose(soff, succ)).unwrap();
                assert_eq!((&o, &p), (&poff, &pred), "n {n} m {m} threads {threads}");
            }
        }
    }
}
