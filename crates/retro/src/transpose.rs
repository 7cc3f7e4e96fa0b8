//! The predecessor arrays, built in parallel (the graph builds them sequentially).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use gamegraph_graph::Vertex;
use rayon::prelude::*;

/// Vertices per task of the prefix sums.
const BLOCK: usize = 1 << 16;

/// The transpose of the successor CSR `(soff, succ)`: predecessor offsets and lists, each
/// list sorted by source, exactly as [`Graph::predecessor_csr`] builds them.
///
/// The sources are split into one range per thread with about the same number of arcs;
/// each thread counts the in-degrees its arcs contribute, prefix sums turn the counts into
/// one write cursor per thread and target, and each thread scatters its arcs. Writes go
/// to disjoint slots, so they are plain relaxed stores, not read-modify-write atomics.
///
/// Returns `None` when the graph has `u32::MAX` arcs or more (the per-thread cursors are
/// `u32`); the caller then uses the graph's own predecessor arrays.
///
/// # Complexity
/// O(V · p + E) work for p threads, O((V · p + E) / p) time; 4 · p bytes per vertex of
/// extra space besides the result.
///
/// [`Graph::predecessor_csr`]: gamegraph_graph::Graph::predecessor_csr
pub(crate) fn par_transpose(soff: &[u64], succ: &[Vertex]) -> Option<(Vec<u64>, Vec<Vertex>)> {
    let n = soff.len() - 1;
    let m = succ.len();
    if m >= u32::MAX as usize {
        return None;
    }
    let parts = rayon::current_num_threads().clamp(1, 64);
    // Source range of part j: starts[j]..starts[j + 1], about m / parts arcs each.
    let mut starts: Vec<usize> = (0..parts)
        .map(|j| soff.partition_point(|&o| o < (m as u64) * j as u64 / parts as u64))
        .map(|s| s.min(n))
        .collect();
    starts[0] = 0;
    starts.push(n);
    let arcs_of = |j: usize| &succ[soff[starts[j]] as usize..soff[starts[j + 1]] as usize];

    // Per-part in-degree counts.
    let mut counts: Vec<Vec<u32>> = (0..parts)
        .into_par_iter()
        .map(|j| {
            let mut c = vec![0u32; n];
            for t in arcs_of(j) {
                c[t.index()] += 1;
            }
            c
        })
        .collect();

    // Offsets: prefix sums of the total in-degree, block by block in parallel. Then
    // counts[j][t] becomes the cursor of part j for target t.
    let block_sums: Vec<u64> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let r = b * BLOCK..((b + 1) * BLOCK).min(n);
            r.map(|t| counts.iter().map(|c| u64::from(c[t])).sum::<u64>()).sum()
        })
        .collect();
    let mut block_start = Vec::with_capacity(block_sums.len());
    let mut acc = 0u64;
    for s in &block_sums {
        block_start.push(acc);
        acc += s;
    }
    let mut offsets = vec![0u64; n + 1];
    offsets[n] = acc;
    {
        let mut cursor_blocks: Vec<Vec<&mut [u32]>> =
            (0..block_start.len()).map(|_| Vec::with_capacity(parts)).collect();
        for c in &mut counts {
            for (b, chunk) in c.chunks_mut(BLOCK).enumerate() {
                cursor_blocks[b].push(chunk);
            }
        }
        offsets[..n]
            .par_chunks_mut(BLOCK)
            .zip(cursor_blocks.into_par_iter())
            .zip(block_start.par_iter())
            .for_each(|((off, mut cursors), &start)| {
                let mut acc = start;
                for (i, o) in off.iter_mut().enumerate() {
                    *o = acc;
                    for c in cursors.iter_mut() {
                        let k = c[i];
                        c[i] = acc as u32;
                        acc += u64::from(k);
                    }
                }
            });
    }

    // Scatter: part j writes its sources through its own cursors.
    let pred: Vec<AtomicU32> = (0..m).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    counts.par_iter_mut().enumerate().for_each(|(j, cursor)| {
        for u in starts[j]..starts[j + 1] {
            for t in &succ[soff[u] as usize..soff[u + 1] as usize] {
                let slot = &mut cursor[t.index()];
                pred[*slot as usize].store(u as u32, Relaxed);
                *slot += 1;
            }
        }
    });
    drop(counts);
    let pred: Vec<Vertex> = pred.into_iter().map(|a| Vertex(a.into_inner())).collect();
    Some((offsets, pred))
}

#[cfg(test)]
mod tests {
    use gamegraph_graph::{Graph, Vertex};

    use super::par_transpose;

    #[test]
    fn equals_the_graph_transpose_on_every_pool() {
        let mut x = 12345u64;
        let mut next = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k) as u32
        };
        for (n, m) in [(1, 0), (7, 0), (5, 20), (200_000, 500_000), (100_000, 60_000)] {
            let arcs: Vec<_> =
                (0..m).map(|_| (Vertex(next(n as u64)), Vertex(next(n as u64)))).collect();
            let g = Graph::from_arcs(n, &arcs).unwrap();
            let (soff, succ) = g.successor_csr();
            let (poff, pred) = g.predecessor_csr();
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let (o, p) = pool.install(|| par_transpose(soff, succ)).unwrap();
                assert_eq!((&o[..], &p[..]), (poff, pred), "n {n} m {m} threads {threads}");
            }
        }
    }
}
