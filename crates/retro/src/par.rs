//! The parallel retrograde solver: level-synchronous frontiers with atomic counters.

use std::sync::atomic::{AtomicU8, AtomicU32, AtomicUsize, Ordering::Relaxed};

use gamegraph_graph::{Graph, Vertex};
use rayon::prelude::*;

use crate::solve::{LOSS, NONE, UNKNOWN, WIN, best_move_of, finish_label};
use crate::{Outcome, Solution, solve};

/// Frontiers smaller than this are expanded on the calling thread: long thin games (a
/// path of a million positions has a million levels) would otherwise pay rayon's
/// fork-join cost on every level.
const SEQUENTIAL_FRONTIER: usize = 2048;

/// Vertices per parallel task when a frontier is expanded.
const CHUNK: usize = 512;

/// The parallel version of [`solve`]: the same [`Solution`], for every number of threads.
///
/// The positions of depth `d` (the frontier) are expanded together on the current rayon
/// pool: every L position labels its unlabelled predecessors W (an atomic compare-and-swap
/// decides who labels), every W position decrements the atomic counter of its unlabelled
/// predecessors, and the one that reaches zero labels it L. The new frontier is exactly
/// the positions of depth `d + 1`, so depths do not depend on the schedule; optimal moves
/// are then chosen by a parallel pass over the successor lists, with the same
/// smallest-id rule as the sequential solver.
///
/// # Arguments
/// * `g`: the game graph. Its predecessor arrays are built if they were not yet.
///
/// # Returns
/// The [`Solution`]; equal to `solve(g)`.
///
/// # Complexity
/// O(V + E) work and O(V + E) / p + O(D) time on p threads, D the largest depth.
/// Extra space: the predecessor arrays of `g` if not yet built, and 13 bytes per vertex
/// as in [`solve`]. A graph with a vertex of more than `u32::MAX - 1` moves is handed to
/// [`solve`].
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_retro::{par_solve, solve};
///
/// let arcs = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(5, &arcs).unwrap();
/// assert_eq!(par_solve(&g), solve(&g));
/// ```
///
/// # Reference
/// Level-synchronous parallel breadth-first search (as in the Graph500 reference codes),
/// applied to the reversed game graph with the counters of retrograde analysis.
pub fn par_solve(g: &Graph) -> Solution {
    let n = g.num_vertices();
    let (soff, _) = g.successor_csr();
    let degree = |v: usize| soff[v + 1] - soff[v];
    if (0..n).into_par_iter().any(|v| degree(v) >= u64::from(NONE)) {
        return solve(g);
    }
    let (soff, succ) = g.successor_csr();
    let own = crate::transpose::par_transpose(soff, succ);
    let (poff, pred): (&[u64], &[Vertex]) = match &own {
        Some((o, p)) => (o, p),
        None => g.predecessor_csr(),
    };

    // counter[v]: successors not yet known to be W; the depth once v is labelled.
    let counter: Vec<AtomicU32> =
        (0..n).into_par_iter().map(|v| AtomicU32::new(degree(v) as u32)).collect();
    let label: Vec<AtomicU8> = (0..n)
        .into_par_iter()
        .map(|v| AtomicU8::new(if degree(v) == 0 { LOSS } else { UNKNOWN }))
        .collect();
    // The frontiers, one after the other: every vertex enters at most once.
    let terminals: Vec<u32> =
        (0..n).into_par_iter().filter(|&v| degree(v) == 0).map(|v| v as u32).collect();
    let mut order: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    for (slot, &v) in order.iter_mut().zip(&terminals) {
        *slot.get_mut() = v;
    }
    let tail = AtomicUsize::new(terminals.len());
    drop(terminals);

    let expand = |v: u32, out: &mut Vec<u32>| {
        let v = v as usize;
        let preds = &pred[poff[v] as usize..poff[v + 1] as usize];
        if label[v].load(Relaxed) == LOSS {
            for &u in preds {
                let l = &label[u.index()];
                if l.load(Relaxed) == UNKNOWN
                    && l.compare_exchange(UNKNOWN, WIN, Relaxed, Relaxed).is_ok()
                {
                    out.push(u.0);
                }
            }
        } else {
            for &u in preds {
                let l = &label[u.index()];
                // A vertex labelled W during this level may still be decremented here; its
                // counter never reaches zero (it has an L successor) and is overwritten
                // with its depth once the level is over.
                if l.load(Relaxed) == UNKNOWN && counter[u.index()].fetch_sub(1, Relaxed) == 1 {
                    l.store(LOSS, Relaxed);
                    out.push(u.0);
                }
            }
        }
    };
    let append = |local: &[u32]| {
        let at = tail.fetch_add(local.len(), Relaxed);
        for (slot, &u) in order[at..at + local.len()].iter().zip(local) {
            slot.store(u, Relaxed);
        }
    };

    let mut lo = 0;
    let mut hi = tail.load(Relaxed);
    let mut depth: u32 = 0;
    let mut local = Vec::new();
    while lo < hi {
        let frontier = &order[lo..hi];
        if frontier.len() < SEQUENTIAL_FRONTIER {
            local.clear();
            for v in frontier {
                expand(v.load(Relaxed), &mut local);
            }
            append(&local);
        } else {
            frontier.par_chunks(CHUNK).for_each_init(Vec::new, |local, chunk| {
                local.clear();
                for v in chunk {
                    expand(v.load(Relaxed), local);
                }
                append(local);
            });
        }
        let new_hi = tail.load(Relaxed);
        depth += 1;
        let next = &order[hi..new_hi];
        let set_depth = |v: &AtomicU32| counter[v.load(Relaxed) as usize].store(depth, Relaxed);
        if next.len() < SEQUENTIAL_FRONTIER {
            next.iter().for_each(set_depth);
        } else {
            next.par_iter().for_each(set_depth);
        }
        lo = hi;
        hi = new_hi;
    }
    drop(order);
    drop(own);

    let outcomes: Vec<Outcome> = label.into_iter().map(|l| finish_label(l.into_inner())).collect();
    let mut depths: Vec<u32> = counter.into_iter().map(AtomicU32::into_inner).collect();
    depths.par_iter_mut().zip(&outcomes).for_each(|(d, o)| {
        if *o == Outcome::Draw {
            *d = NONE;
        }
    });
    let moves: Vec<u32> = (0..n)
        .into_par_iter()
        .with_min_len(1024)
        .map(|v| {
            let s: &[Vertex] = &succ[soff[v] as usize..soff[v + 1] as usize];
            best_move_of(s, outcomes[v], depths[v], &outcomes, &depths)
        })
        .collect();
    Solution::from_parts(outcomes, depths, moves)
}
