//! A starting clique for the exact clique search by iterated local search with (1,2)-swaps
//! (Andrade, Resende and Werneck's ILS for independent sets, 2012, run on the complement).
//!
//! The search keeps a clique C and, for every vertex outside it, how many members of C it is
//! not adjacent to (its *miss* count). A vertex with miss 0 is added; a member x is replaced
//! by two adjacent vertices whose only miss is x (a (1,2)-swap); when neither applies, a
//! vertex outside C is forced in (its non-neighbours leave) and the search goes on from
//! there. The best clique seen is kept. The random choices come from a fixed-seed
//! generator, so the result depends only on the graph and the step count.

use gamegraph_graph::generate::SplitMix64;

use crate::KernelError;
use crate::bits;
use crate::clique::Rows;
use crate::config::Budget;

/// A number in `0..n` from `rng` (here and in the cover local search).
pub(crate) fn pick(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// The clique C of the search, with the miss count of every vertex (how many members of C
/// it is not adjacent to).
struct Clique<'a> {
    rows: &'a Rows,
    inside: Vec<bool>,
    miss: Vec<u32>,
    size: usize,
}

impl Clique<'_> {
    fn add(&mut self, v: usize) {
        debug_assert!(!self.inside[v] && self.miss[v] == 0);
        self.inside[v] = true;
        self.size += 1;
        let row = self.rows.row(v);
        for x in 0..self.rows.n {
            if x != v && !bits::get(row, x) {
                self.miss[x] += 1;
            }
        }
    }

    fn remove(&mut self, v: usize) {
        self.inside[v] = false;
        self.size -= 1;
        let row = self.rows.row(v);
        for x in 0..self.rows.n {
            if x != v && !bits::get(row, x) {
                self.miss[x] -= 1;
            }
        }
    }

    /// Adds free vertices and applies (1,2)-swaps until neither applies.
    fn improve(&mut self, budget: &mut Budget) -> Result<(), KernelError> {
        let n = self.rows.n;
        loop {
            budget.spend(4 * n as u64)?;
            if let Some(v) = (0..n).find(|&v| !self.inside[v] && self.miss[v] == 0) {
                self.add(v);
                continue;
            }
            if !self.swap(budget)? {
                return Ok(());
            }
        }
    }

    /// One (1,2)-swap, if any: remove a member x, add two adjacent vertices missing only x.
    fn swap(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
        let n = self.rows.n;
        let mut tight: Vec<usize> = Vec::new();
        for x in 0..n {
            if !self.inside[x] {
                continue;
            }
            let row = self.rows.row(x);
            tight.clear();
            tight.extend((0..n).filter(|&y| !self.inside[y] && self.miss[y] == 1 && y != x));
            tight.retain(|&y| !bits::get(row, y));
            budget.spend((n + tight.len() * tight.len()) as u64)?;
            for (i, &y) in tight.iter().enumerate() {
                if let Some(&z) = tight[i + 1..].iter().find(|&&z| bits::get(self.rows.row(y), z)) {
                    self.remove(x);
                    self.add(y);
                    self.add(z);
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Forces `v` into the clique: its non-neighbours in the clique leave.
    fn force(&mut self, v: usize) {
        let row = self.rows.row(v);
        for x in 0..self.rows.n {
            if self.inside[x] && !bits::get(row, x) {
                self.remove(x);
            }
        }
        self.add(v);
    }

    fn members(&self) -> Vec<usize> {
        (0..self.rows.n).filter(|&v| self.inside[v]).collect()
    }
}

/// A clique of `rows` at least as large as `start` (a clique), found by `rounds`
/// perturbations of iterated local search.
pub(crate) fn improve_clique(
    rows: &Rows,
    start: &[usize],
    rounds: usize,
    budget: &mut Budget,
) -> Result<Vec<usize>, KernelError> {
    let n = rows.n;
    if n == 0 {
        return Ok(start.to_vec());
    }
    let mut s = Clique { rows, inside: vec![false; n], miss: vec![0; n], size: 0 };
    for &v in start {
        s.add(v);
    }
    s.improve(budget)?;
    let mut best = s.members();
    let mut rng = SplitMix64(0x6761_6d65_6772_6170);
    for _ in 0..rounds {
        let outside: Vec<usize> = (0..n).filter(|&v| !s.inside[v]).collect();
        if outside.is_empty() {
            break;
        }
        // Prefer a vertex that costs little: the fewer misses of two random picks.
        let a = outside[pick(&mut rng, outside.len())];
        let b = outside[pick(&mut rng, outside.len())];
        let v = if s.miss[b] < s.miss[a] { b } else { a };
        s.force(v);
        s.improve(budget)?;
        if s.size > best.len() {
            best = s.members();
        } else if s.size + 1 < best.len() {
            // Drifted too far: go back to the best clique.
            for x in 0..n {
                if s.inside[x] {
                    s.remove(x);
                }
            }
            for &x in &best {
                s.add(x);
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clique::tests::clique_in_rows as is_clique;

    #[test]
    fn finds_a_planted_clique_and_returns_cliques() {
        // 40 vertices, a sparse random graph with a planted clique on 0..12.
        let n = 40;
        let mut rows = Rows::new(n);
        let mut rng = SplitMix64(7);
        for a in 0..n {
            for b in a + 1..n {
                if (a < 12 && b < 12) || rng.below(10) < 2 {
                    rows.join(a, b);
                }
            }
        }
        let mut budget = Budget::new(&Config::default());
        let c = improve_clique(&rows, &[20], 200, &mut budget).unwrap();
        assert!(is_clique(&rows, &c));
        assert!(c.len() >= 12, "found {}", c.len());
    }
}
