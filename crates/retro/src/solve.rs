//! The sequential retrograde solver (the reference).

use std::collections::HashMap;

use gamegraph_graph::Graph;

use crate::{Outcome, Solution};
use gamegraph_graph::Label;
use gamegraph_graph::outcome::{NONE, best_move};

/// Labels every position of `g` win / lose / draw, with its depth and optimal move, by
/// retrograde analysis (backward induction from the positions without moves). This is the
/// sequential reference; [`par_solve`](crate::par_solve) returns the same solution.
///
/// Semantics: a vertex without moves is L with depth 0; a vertex with an L
/// successor is W, with depth 1 + the least depth of its L successors; a vertex all of
/// whose successors are W is L, with depth 1 + the greatest depth of its successors; every
/// other vertex is D. The optimal move goes from W to an L successor of least depth, from
/// L to a successor of greatest depth, from D to a D successor, the smallest id on ties.
///
/// # Arguments
/// * `g`: the game graph; self-loops and repeated arcs are allowed. Its predecessor
///   arrays are built if they were not yet.
///
/// # Returns
/// The [`Solution`]: outcome, depth and optimal move of every vertex.
///
/// # Complexity
/// O(V + E) time. Extra space: the predecessor arrays of `g` if not yet built, and
/// 13 bytes per vertex (a `u32` counter reused for the depth, a `u8` label, a `u32` queue
/// slot, freed before the `u32` moves are computed).
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_retro::{Outcome, solve};
///
/// // 0 -> 1 -> 2: 2 has no move (L), 1 moves there (W), 0 must move to 1 (L).
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2))]).unwrap();
/// let s = solve(&g);
/// assert_eq!(s.outcome(Vertex(0)), Outcome::Loss);
/// assert_eq!(s.depth(Vertex(0)), Some(2));
/// assert_eq!(s.best_move(Vertex(0)), Some(Vertex(1)));
/// ```
///
/// # Reference
/// The classic retrograde analysis with successor counters (Thompson, "Retrograde
/// analysis of certain endgames", ICCA Journal 9(3), 1986); the queue processes
/// positions in order of depth, as a breadth-first search of the reversed graph does.
pub fn solve(g: &Graph) -> Solution {
    let n = g.num_vertices();
    let (soff, _) = g.successor_csr();
    let (poff, pred) = g.predecessor_csr();

    // counter[v]: successors of v not yet known to be W; once v is labelled, its depth.
    // A vertex with more than u32::MAX - 1 moves keeps the excess in `extra`.
    let mut extra: HashMap<u32, u64> = HashMap::new();
    let mut counter: Vec<u32> = Vec::with_capacity(n);
    let mut label: Vec<Label> = vec![Label::UNKNOWN; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    for v in 0..n {
        let deg = soff[v + 1] - soff[v];
        if deg == 0 {
            label[v] = Label::LOSS;
            queue.push(v as u32);
            counter.push(0);
        } else if deg < u64::from(NONE) {
            counter.push(deg as u32);
        } else {
            let first = NONE - 1;
            extra.insert(v as u32, deg - u64::from(first));
            counter.push(first);
        }
    }

    let mut head = 0;
    while head < queue.len() {
        let v = queue[head] as usize;
        head += 1;
        let next = counter[v] + 1;
        let preds = &pred[poff[v] as usize..poff[v + 1] as usize];
        if label[v] == Label::LOSS {
            for &u in preds {
                let u = u.index();
                if label[u] == Label::UNKNOWN {
                    label[u] = Label::WIN;
                    counter[u] = next;
                    queue.push(u as u32);
                }
            }
        } else {
            for &u in preds {
                let u = u.index();
                if label[u] == Label::UNKNOWN {
                    counter[u] -= 1;
                    if counter[u] == 0 && !refill(&mut extra, u, &mut counter[u]) {
                        label[u] = Label::LOSS;
                        counter[u] = next;
                        queue.push(u as u32);
                    }
                }
            }
        }
    }
    drop(queue);

    let outcomes: Vec<Outcome> = label.into_iter().map(Label::outcome).collect();
    let mut depths = counter;
    for (d, o) in depths.iter_mut().zip(&outcomes) {
        if *o == Outcome::Draw {
            *d = NONE;
        }
    }
    let moves: Vec<u32> = g
        .vertices()
        .map(|v| {
            best_move(
                outcomes[v.index()],
                depths[v.index()],
                g.successors(v).iter().map(|s| (s.0, s.index())),
                |s| outcomes[s],
                |s| depths[s],
            )
        })
        .collect();
    Solution::from_parts_unchecked(outcomes, depths, moves)
}

/// When the counter of a vertex with more than `u32::MAX - 1` moves runs out, moves the
/// next part of its excess into it; returns whether there was any.
#[inline]
fn refill(extra: &mut HashMap<u32, u64>, u: usize, counter: &mut u32) -> bool {
    if extra.is_empty() {
        return false;
    }
    match extra.get_mut(&(u as u32)) {
        Some(rest) if *rest > 0 => {
            let take = (*rest).min(u64::from(NONE - 1));
            *rest -= take;
            *counter = take as u32;
            true
        }
        _ => false,
    }
}
