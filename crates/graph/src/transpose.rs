//! The predecessor arrays: the transpose of the successor CSR, grouped by target with
//! [`group`] on the current rayon pool.

use crate::Vertex;
use crate::group::{Part, counting_sort, group};

/// The arcs of a range of sources of a successor CSR, keyed by target: a part of their
/// transpose.
struct Transpose<'a> {
    soff: &'a [u64],
    succ: &'a [Vertex],
    sources: std::ops::Range<usize>,
}

impl Part for Transpose<'_> {
    // The sources of a key come in increasing order inside a part, and the parts are
    // ranges of sources in increasing order.
    const ORDERED: bool = true;

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
/// per arc in arc order (random in memory): below [`RADIX_FROM`](crate::group::RADIX_FROM)
/// arcs, for graphs of `u32::MAX` arcs or more, and the reference in tests.
pub(crate) fn sequential_transpose(soff: &[u64], succ: &[Vertex]) -> (Vec<u64>, Vec<Vertex>) {
    let n = soff.len() - 1;
    counting_sort(n, succ.len(), Transpose { soff, succ, sources: 0..n })
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
    let m = succ.len();
    if m >= u32::MAX as usize {
        return None;
    }
    Some(group(soff.len() - 1, m, transpose_parts(soff, succ)))
}

/// The parts of [`par_transpose`], without its checks: one per thread, each a range of
/// sources with about the same number of arcs.
fn transpose_parts<'a>(soff: &'a [u64], succ: &'a [Vertex]) -> Vec<Transpose<'a>> {
    let n = soff.len() - 1;
    let m = succ.len();
    let parts = rayon::current_num_threads().clamp(1, 64);
    let mut starts: Vec<usize> = (0..parts)
        .map(|j| soff.partition_point(|&o| o < (m as u64) * j as u64 / parts as u64))
        .map(|s| s.min(n))
        .collect();
    starts[0] = 0;
    starts.push(n);
    starts.windows(2).map(|w| Transpose { soff, succ, sources: w[0]..w[1] }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenConfig, random};
    use crate::group::{ArcSlice, PIECE, group_by_pieces};
    use gamegraph_testkit::SplitMix64;

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

    /// The successor CSR of `m` arcs on `n` vertices whose targets are drawn by `target`.
    fn csr(
        n: usize,
        m: usize,
        rng: &mut SplitMix64,
        target: impl Fn(&mut SplitMix64) -> u32,
    ) -> (Vec<u64>, Vec<Vertex>) {
        let arcs: Vec<(Vertex, Vertex)> =
            (0..m).map(|_| (Vertex(rng.below(n as u64) as u32), Vertex(target(rng)))).collect();
        counting_sort(n, m, ArcSlice(&arcs))
    }

    /// How a shape draws a target: from the number of vertices and the generator.
    type Draw = dyn Fn(usize, &mut SplitMix64) -> u32;

    /// Every grouping shape against the counting sort: buckets of one key or of many,
    /// buckets larger than the piece (sorted when ordered), empty buckets, one key of huge
    /// degree, packed words and the side array, on 1 to 3 threads.
    #[test]
    fn groups_as_the_counting_sort_on_every_shape() {
        let mut rng = SplitMix64::new(11);
        // (vertices, arcs, how targets are drawn)
        let shapes: Vec<(usize, usize, Box<Draw>)> = vec![
            (3_000, 40_000, Box::new(|n, r| r.below(n as u64) as u32)),
            // One vertex takes two thirds of the arcs.
            (
                3_000,
                40_000,
                Box::new(|n, r| if r.below(3) < 2 { 7 } else { r.below(n as u64) as u32 }),
            ),
            // Only the first and the last keys: the buckets between are empty.
            (
                50_000,
                30_000,
                Box::new(|n, r| {
                    if r.below(2) == 0 {
                        r.below(10) as u32
                    } else {
                        (n - 1 - r.below(10) as usize) as u32
                    }
                }),
            ),
            // Above 2^21 keys: positions in the side array.
            (
                (1 << 21) + 3,
                30_000,
                Box::new(|n, r| if r.below(2) == 0 { 5 } else { r.below(n as u64) as u32 }),
            ),
            (1, 1_000, Box::new(|_, _| 0)),
        ];
        for (n, m, draw) in &shapes {
            let (n, m) = (*n, *m);
            let (soff, succ) = csr(n, m, &mut rng, |r| draw(n, r));
            let (poff, pred) = sequential_transpose(&soff, &succ);
            // The successor CSR again, from arcs in a shuffled order: not ordered by value.
            let mut arcs: Vec<(Vertex, Vertex)> = (0..n)
                .flat_map(|u| {
                    succ[soff[u] as usize..soff[u + 1] as usize]
                        .iter()
                        .map(move |&t| (t, Vertex(u as u32)))
                })
                .collect();
            for i in (1..arcs.len()).rev() {
                arcs.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let expected = counting_sort(n, m, ArcSlice(&arcs));
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                for piece in [1, 7, 1 << 10, PIECE] {
                    let got = pool
                        .install(|| group_by_pieces(n, m, transpose_parts(&soff, &succ), piece));
                    assert_eq!(
                        (&got.0, &got.1),
                        (&poff, &pred),
                        "transpose n {n} m {m} threads {threads} piece {piece}"
                    );
                    let parts: Vec<ArcSlice<'_>> =
                        arcs.chunks(m.div_ceil(threads).max(1)).map(ArcSlice).collect();
                    let got = pool.install(|| group_by_pieces(n, m, parts, piece));
                    assert_eq!(got, expected, "arcs n {n} m {m} threads {threads} piece {piece}");
                }
            }
        }
    }
}
