//! The LP relaxation of vertex cover, for the branch-and-reduce search of sparse parts.
//!
//! Minimise Σ x_v subject to x_u + x_w ≥ 1 on every edge, 0 ≤ x ≤ 1. Its optimum is half
//! the size of a maximum matching of the bipartite double cover (a left copy l_v and a right
//! copy r_v of each vertex, l_u joined to r_w for each edge uw, both ways), and a minimum
//! vertex cover C of that bipartite graph (König) gives an optimal half-integral solution,
//! x_v = (|C ∩ {l_v, r_v}|) / 2. Hence α ≤ n − ⌈M / 2⌉ for a maximum matching of M edges.
//!
//! The matching is found by Hopcroft and Karp's augmenting paths from any matching, so that
//! a search keeps it from node to node and only repairs it (a vertex removed unmatches its
//! two copies). The cover taken is the one of the vertices reachable from the unmatched
//! left copies by alternating paths (the smallest source side of a minimum cut): l_v
//! reached and r_v not gives x_v = 0, r_v reached and l_v not gives x_v = 1, and every other
//! vertex is at 1/2. Nemhauser and Trotter: some maximum independent set contains every
//! vertex at 0 and none at 1, so those are decided, and the graph left has the all-1/2
//! solution optimal: its α is at most half its vertices, part by part.

use crate::KernelError;
use crate::config::Budget;

/// No partner.
pub(super) const NONE: u32 = u32::MAX;

/// A matching of the bipartite double cover: `left[u] = w` when l_u is matched to r_w, and
/// then `right[w] = u`.
#[derive(Clone, Default)]
pub(super) struct Matching {
    pub(super) left: Vec<u32>,
    pub(super) right: Vec<u32>,
}

impl Matching {
    /// No pair among `n` vertices.
    pub(super) fn new(n: usize) -> Matching {
        Matching { left: vec![NONE; n], right: vec![NONE; n] }
    }

    /// Appends an unmatched vertex.
    pub(super) fn push(&mut self) {
        self.left.push(NONE);
        self.right.push(NONE);
    }

    /// Unmatches both copies of `v` (before `v` is removed).
    pub(super) fn unmatch(&mut self, v: usize) {
        let w = std::mem::replace(&mut self.left[v], NONE);
        if w != NONE {
            self.right[w as usize] = NONE;
        }
        let u = std::mem::replace(&mut self.right[v], NONE);
        if u != NONE {
            self.left[u as usize] = NONE;
        }
    }

    /// The pairs among `verts`, numbered by their positions there (`pos[v]` for `v` in
    /// `verts`); every partner of a vertex of `verts` must be in `verts`.
    pub(super) fn induced(&self, verts: &[u32], pos: &[u32]) -> Matching {
        let mut m = Matching::new(verts.len());
        for (i, &v) in verts.iter().enumerate() {
            let w = self.left[v as usize];
            if w != NONE {
                let j = pos[w as usize];
                m.left[i] = j;
                m.right[j as usize] = i as u32;
            }
        }
        m
    }
}

/// Grows `m` to a maximum matching of the double cover of the graph `adj` restricted to the
/// vertices with `alive[v]` (lists may name dead vertices, which are skipped); returns its
/// size. Hopcroft and Karp: shortest augmenting paths, a maximal set of disjoint ones per
/// phase.
pub(super) fn max_matching(
    adj: &[Vec<u32>],
    alive: &[bool],
    m: &mut Matching,
    budget: &mut Budget,
) -> Result<usize, KernelError> {
    let n = adj.len();
    const INF: u32 = u32::MAX;
    let mut dist = vec![INF; n];
    let mut it = vec![0usize; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut stack: Vec<u32> = Vec::new();
    let mut via: Vec<u32> = Vec::new();
    loop {
        // Layers of left copies from the free ones.
        queue.clear();
        for u in 0..n {
            if alive[u] && m.left[u] == NONE {
                dist[u] = 0;
                queue.push(u as u32);
            } else {
                dist[u] = INF;
            }
        }
        budget.spend(n as u64)?;
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head] as usize;
            head += 1;
            budget.spend(1 + adj[u].len() as u64)?;
            for &w in &adj[u] {
                if !alive[w as usize] {
                    continue;
                }
                let u2 = m.right[w as usize];
                if u2 == NONE {
                    found = true;
                } else if dist[u2 as usize] == INF {
                    dist[u2 as usize] = dist[u] + 1;
                    queue.push(u2);
                }
            }
        }
        if !found {
            break;
        }
        // Disjoint shortest augmenting paths, by depth-first search along the layers.
        it.iter_mut().for_each(|i| *i = 0);
        for u0 in 0..n {
            if !alive[u0] || m.left[u0] != NONE || dist[u0] != 0 {
                continue;
            }
            stack.clear();
            via.clear();
            stack.push(u0 as u32);
            while let Some(&u) = stack.last() {
                let u = u as usize;
                if it[u] == adj[u].len() {
                    dist[u] = INF;
                    stack.pop();
                    via.pop();
                    continue;
                }
                let w = adj[u][it[u]] as usize;
                it[u] += 1;
                budget.spend(1)?;
                if !alive[w] {
                    continue;
                }
                let u2 = m.right[w];
                if u2 == NONE {
                    // Augment: each left copy on the stack takes the right copy that led on.
                    let mut w = w as u32;
                    for k in (0..stack.len()).rev() {
                        let uk = stack[k];
                        m.left[uk as usize] = w;
                        m.right[w as usize] = uk;
                        if k > 0 {
                            w = via[k - 1];
                        }
                    }
                    for &uk in &stack {
                        dist[uk as usize] = INF;
                    }
                    break;
                } else if dist[u2 as usize] != INF && dist[u2 as usize] == dist[u] + 1 {
                    stack.push(u2);
                    via.push(w as u32);
                }
            }
        }
    }
    Ok(m.left.iter().zip(alive).filter(|&(&w, &a)| a && w != NONE).count())
}

/// The optimal half-integral solution read from a maximum matching `m` (see the module
/// overview): per vertex 0, 1 or 2 for x_v = 0, 1/2, 1 (dead vertices get 1).
pub(super) fn half_integral(
    adj: &[Vec<u32>],
    alive: &[bool],
    m: &Matching,
    budget: &mut Budget,
) -> Result<Vec<u8>, KernelError> {
    let n = adj.len();
    let mut seen_l = vec![false; n];
    let mut seen_r = vec![false; n];
    let mut queue: Vec<u32> = Vec::new();
    for u in 0..n {
        if alive[u] && m.left[u] == NONE {
            seen_l[u] = true;
            queue.push(u as u32);
        }
    }
    while let Some(u) = queue.pop() {
        let u = u as usize;
        budget.spend(1 + adj[u].len() as u64)?;
        for &w in &adj[u] {
            let w = w as usize;
            if !alive[w] || seen_r[w] {
                continue;
            }
            seen_r[w] = true;
            let u2 = m.right[w];
            debug_assert!(u2 != NONE, "the matching is maximum");
            if u2 != NONE && !seen_l[u2 as usize] {
                seen_l[u2 as usize] = true;
                queue.push(u2);
            }
        }
    }
    Ok((0..n)
        .map(|v| match (alive[v], seen_l[v], seen_r[v]) {
            (false, _, _) => 1,
            (true, true, false) => 0,
            (true, false, true) => 2,
            _ => 1,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clique::tests::{alpha_of, every_graph, lists, random_edges};
    use gamegraph_testkit::SplitMix64;

    /// The LP optimum (twice it) by brute force over half-integral points.
    fn lp_twice(adj: &[Vec<u32>], alive: &[bool]) -> usize {
        let n = adj.len();
        let live: Vec<usize> = (0..n).filter(|&v| alive[v]).collect();
        let mut best = usize::MAX;
        let mut x = vec![0u8; n];
        let total = 3usize.pow(live.len() as u32);
        for code in 0..total {
            let mut c = code;
            for &v in &live {
                x[v] = (c % 3) as u8;
                c /= 3;
            }
            let ok = live
                .iter()
                .all(|&u| adj[u].iter().all(|&w| !alive[w as usize] || x[u] + x[w as usize] >= 2));
            if ok {
                best = best.min(live.iter().map(|&v| x[v] as usize).sum());
            }
        }
        best
    }

    fn check(adj: &[Vec<u32>], alive: &[bool], exhaustive_lp: bool) {
        let n = adj.len();
        let mut b = Budget::new(&Config::default());
        let mut m = Matching::new(n);
        let size = max_matching(adj, alive, &mut m, &mut b).unwrap();
        // A matching of the double cover along edges between live vertices.
        for u in 0..n {
            let w = m.left[u];
            if w != NONE {
                assert!(alive[u] && alive[w as usize] && adj[u].contains(&w));
                assert_eq!(m.right[w as usize], u as u32);
            }
        }
        let x = half_integral(adj, alive, &m, &mut b).unwrap();
        let live = (0..n).filter(|&v| alive[v]);
        // Feasible, and of value M / 2 (optimal by duality).
        for u in live.clone() {
            for &w in &adj[u] {
                assert!(!alive[w as usize] || x[u] + x[w as usize] >= 2);
            }
        }
        assert_eq!(live.clone().map(|v| x[v] as usize).sum::<usize>(), size);
        if exhaustive_lp {
            assert_eq!(lp_twice(adj, alive), size);
        }
        // α ≤ n − ⌈M/2⌉, and Nemhauser–Trotter keeps α.
        let a = alpha_of(adj, alive);
        let count = live.clone().count();
        assert!(a <= count - size.div_ceil(2));
        let zeros = live.clone().filter(|&v| x[v] == 0).count();
        let rest: Vec<bool> = (0..n).map(|v| alive[v] && x[v] == 1).collect();
        assert_eq!(a, zeros + alpha_of(adj, &rest));
        // The vertices left have the all-1/2 solution optimal.
        let mut m2 = Matching::new(n);
        let s2 = max_matching(adj, &rest, &mut m2, &mut b).unwrap();
        assert_eq!(s2, rest.iter().filter(|&&r| r).count());
    }

    #[test]
    fn every_graph_up_to_six_vertices() {
        every_graph(6, |n, adj| check(adj, &vec![true; n], n <= 5));
    }

    #[test]
    fn random_graphs_from_partial_matchings() {
        let mut rng = SplitMix64::new(5);
        for round in 0..500 {
            let n = 1 + round % 40;
            let per_mille = [30, 60, 100, 200, 400][round % 5];
            let edges = random_edges(&mut rng, n, per_mille);
            let adj = lists(n, &edges);
            let alive: Vec<bool> = (0..n).map(|_| !rng.chance(100)).collect();
            check(&adj, &alive, false);
            // A warm start from a maximum matching of a subgraph reaches the same size.
            let mut b = Budget::new(&Config::default());
            let mut m = Matching::new(n);
            let some: Vec<bool> = alive.iter().map(|&a| a && !rng.chance(300)).collect();
            max_matching(&adj, &some, &mut m, &mut b).unwrap();
            let warm = max_matching(&adj, &alive, &mut m, &mut b).unwrap();
            let cold = max_matching(&adj, &alive, &mut Matching::new(n), &mut b).unwrap();
            assert_eq!(warm, cold, "round {round}");
        }
    }
}
