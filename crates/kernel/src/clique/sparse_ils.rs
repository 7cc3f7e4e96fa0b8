//! A starting independent set for the branch-and-reduce search of sparse parts: iterated
//! local search with (1,2)-swaps (Andrade, Resende and Werneck 2012) on adjacency lists.
//!
//! The search keeps an independent set S and, for every vertex, how many neighbours it has
//! in S (its *tightness*). A vertex of tightness 0 outside S is added; a member x is
//! replaced by two non-adjacent neighbours whose only neighbour in S is x (a (1,2)-swap),
//! the members to try being those whose neighbourhood changed. At a local optimum a random
//! vertex outside S is forced in (its neighbours in S leave) and the search goes on; the
//! best set seen is kept, and the search goes back to it when it has drifted two below.
//! The random choices come from a fixed-seed generator, so the result depends only on the
//! graph, the start and the number of rounds.

use gamegraph_graph::generate::SplitMix64;

use crate::KernelError;
use crate::config::Budget;

use super::local_search::pick;

/// The set S of the search.
struct State<'a> {
    adj: &'a [Vec<u32>],
    inside: Vec<bool>,
    tight: Vec<u32>,
    size: usize,
    /// Vertices that may be free (outside S, tightness 0).
    free: Vec<u32>,
    /// Members of S to try a (1,2)-swap on, each once.
    swaps: Vec<u32>,
    queued: Vec<bool>,
    /// Marks for the neighbours of one vertex.
    mark: Vec<bool>,
}

impl State<'_> {
    fn add(&mut self, v: usize) {
        debug_assert!(!self.inside[v] && self.tight[v] == 0);
        self.inside[v] = true;
        self.size += 1;
        for &u in &self.adj[v] {
            self.tight[u as usize] += 1;
        }
        self.queue_swap(v);
    }

    fn remove(&mut self, x: usize) {
        self.inside[x] = false;
        self.size -= 1;
        self.free.push(x as u32);
        for k in 0..self.adj[x].len() {
            let u = self.adj[x][k] as usize;
            self.tight[u] -= 1;
            match self.tight[u] {
                0 => self.free.push(u as u32),
                1 => {
                    let y = self.adj[u].iter().map(|&y| y as usize).find(|&y| self.inside[y]);
                    self.queue_swap(y.expect("one neighbour in the set"));
                }
                _ => {}
            }
        }
    }

    fn queue_swap(&mut self, x: usize) {
        if !self.queued[x] {
            self.queued[x] = true;
            self.swaps.push(x as u32);
        }
    }

    /// Adds free vertices and applies (1,2)-swaps until neither applies.
    fn improve(&mut self, budget: &mut Budget) -> Result<(), KernelError> {
        loop {
            if let Some(v) = self.free.pop() {
                let v = v as usize;
                if !self.inside[v] && self.tight[v] == 0 {
                    self.add(v);
                }
                continue;
            }
            let Some(x) = self.swaps.pop() else { return Ok(()) };
            let x = x as usize;
            self.queued[x] = false;
            if self.inside[x] {
                self.swap(x, budget)?;
            }
        }
    }

    /// A (1,2)-swap on the member `x`, if one applies.
    fn swap(&mut self, x: usize, budget: &mut Budget) -> Result<(), KernelError> {
        let adj = self.adj;
        budget.spend(1 + adj[x].len() as u64)?;
        let one: Vec<usize> = adj[x]
            .iter()
            .map(|&u| u as usize)
            .filter(|&u| self.tight[u] == 1 && !self.inside[u])
            .collect();
        if one.len() < 2 {
            return Ok(());
        }
        for (i, &u) in one.iter().enumerate() {
            budget.spend(1 + adj[u].len() as u64 + one.len() as u64)?;
            for &y in &adj[u] {
                self.mark[y as usize] = true;
            }
            let w = one[i + 1..].iter().copied().find(|&w| !self.mark[w]);
            for &y in &adj[u] {
                self.mark[y as usize] = false;
            }
            if let Some(w) = w {
                self.remove(x);
                self.add(u);
                self.add(w);
                return Ok(());
            }
        }
        Ok(())
    }

    /// Forces `v` into S: its neighbours in S leave.
    fn force(&mut self, v: usize) {
        for k in 0..self.adj[v].len() {
            let x = self.adj[v][k] as usize;
            if self.inside[x] {
                self.remove(x);
            }
        }
        self.add(v);
    }

    /// Makes S the set `set`.
    fn reset(&mut self, set: &[u32]) {
        for v in 0..self.adj.len() {
            if self.inside[v] {
                self.remove(v);
            }
        }
        self.free.clear();
        for &v in set {
            self.add(v as usize);
        }
    }

    fn members(&self) -> Vec<u32> {
        (0..self.adj.len() as u32).filter(|&v| self.inside[v as usize]).collect()
    }
}

/// An independent set of the graph `adj` (symmetric lists, no loops) at least as large as
/// `start` (an independent set), found by `rounds` perturbations of iterated local search.
pub(super) fn improve_independent(
    adj: &[Vec<u32>],
    start: &[u32],
    rounds: usize,
    budget: &mut Budget,
) -> Result<Vec<u32>, KernelError> {
    let n = adj.len();
    if n == 0 {
        return Ok(start.to_vec());
    }
    let mut s = State {
        adj,
        inside: vec![false; n],
        tight: vec![0; n],
        size: 0,
        free: Vec::new(),
        swaps: Vec::new(),
        queued: vec![false; n],
        mark: vec![false; n],
    };
    for &v in start {
        s.add(v as usize);
    }
    s.free.extend(0..n as u32);
    s.improve(budget)?;
    let mut best = s.members();
    let mut rng = SplitMix64(0x6761_6d65_6772_6170);
    for _ in 0..rounds {
        // A vertex outside S, the less tight of two random picks.
        let mut v = pick(&mut rng, n);
        for _ in 0..8 {
            if !s.inside[v] {
                break;
            }
            v = pick(&mut rng, n);
        }
        if s.inside[v] {
            continue;
        }
        let b = pick(&mut rng, n);
        if !s.inside[b] && s.tight[b] < s.tight[v] {
            v = b;
        }
        budget.spend(1 + adj[v].len() as u64)?;
        s.force(v);
        s.improve(budget)?;
        if s.size > best.len() {
            best = s.members();
        } else if s.size + 2 < best.len() {
            budget.spend(n as u64)?;
            s.reset(&best);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn returns_independent_sets_no_smaller_than_the_start() {
        let mut rng = SplitMix64(3);
        for round in 0..200 {
            let n = 1 + round % 40;
            let mut adj = vec![Vec::new(); n];
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(1000) < [50, 100, 200, 400][round % 4] {
                        adj[a].push(b as u32);
                        adj[b].push(a as u32);
                    }
                }
            }
            // Start from the empty set or from a greedy one.
            let mut start = Vec::new();
            if round % 2 == 1 {
                let mut blocked = vec![false; n];
                for v in 0..n {
                    if !blocked[v] {
                        start.push(v as u32);
                        adj[v].iter().for_each(|&u| blocked[u as usize] = true);
                    }
                }
            }
            let mut b = Budget::new(&Config::default());
            let set = improve_independent(&adj, &start, 50, &mut b).unwrap();
            assert!(set.len() >= start.len());
            assert!(set.iter().all(|&v| adj[v as usize].iter().all(|u| !set.contains(u))));
            let mut sorted = set.clone();
            sorted.dedup();
            assert_eq!(sorted.len(), set.len());
        }
    }
}
