//! Covers without search: the Lagrangian greedy incumbent of β's branch-and-bound with its
//! improvement by swaps, a plain greedy cover and a packing lower bound.

use crate::KernelError;
use crate::config::Budget;

use super::assignment::{FREE, IN, Selection};
use super::{CoverInstance, Ordered};

/// The incumbent and the buffers of the greedy heuristic.
pub(super) struct GreedyIncumbent {
    pub(super) best: Vec<u32>,
    pub(super) gain: Vec<u32>,
    pub(super) mark: Vec<bool>,
}

impl GreedyIncumbent {
    /// A cover from the current node: the IN sets, then greedily the free set covering
    /// most uncovered elements (ties: lowest reduced cost, then lowest id), then redundant
    /// sets dropped (highest reduced cost first). Returns it when smaller than the best.
    pub(super) fn run(
        &mut self,
        st: &Selection<'_>,
        cost: &[f64],
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let p = st.p;
        let mut chosen: Vec<u32> =
            (0..p.sets.len() as u32).filter(|&t| st.st[t as usize] == IN).collect();
        self.mark.clear();
        self.mark.resize(p.elems.len(), false);
        let mut left = 0usize;
        for e in 0..p.elems.len() {
            if st.covered[e] > 0 {
                self.mark[e] = true;
            } else {
                left += 1;
            }
        }
        self.gain.clear();
        self.gain.resize(p.sets.len(), 0);
        // First the sets of the relaxed solution (negative reduced cost).
        for (t, &c) in cost.iter().enumerate() {
            if st.st[t] == FREE && c < 0.0 {
                chosen.push(t as u32);
                for &e in &p.sets[t] {
                    if !self.mark[e as usize] {
                        self.mark[e as usize] = true;
                        left -= 1;
                    }
                }
            }
        }
        let mut heap = std::collections::BinaryHeap::new();
        for (t, &c) in cost.iter().enumerate() {
            if st.st[t] != FREE || c < 0.0 {
                continue;
            }
            let g = p.sets[t].iter().filter(|&&e| !self.mark[e as usize]).count() as u32;
            self.gain[t] = g;
            if g > 0 {
                heap.push((g, Ordered(-cost[t]), std::cmp::Reverse(t as u32)));
            }
        }
        budget.spend((p.sets.len() + p.elems.len()) as u64)?;
        while left > 0 {
            let Some((g, _, std::cmp::Reverse(t))) = heap.pop() else { return Ok(()) };
            let t = t as usize;
            if g != self.gain[t] {
                if self.gain[t] > 0 {
                    heap.push((self.gain[t], Ordered(-cost[t]), std::cmp::Reverse(t as u32)));
                }
                continue;
            }
            chosen.push(t as u32);
            budget.spend(p.sets[t].len() as u64)?;
            for &e in &p.sets[t] {
                if !self.mark[e as usize] {
                    self.mark[e as usize] = true;
                    left -= 1;
                    for &u in &p.elems[e as usize] {
                        // Sets outside the heap keep a gain of 0.
                        self.gain[u as usize] = self.gain[u as usize].saturating_sub(1);
                    }
                }
            }
            self.gain[t] = 0;
        }
        self.offer(p, chosen, cost, budget)
    }

    /// Drops redundant sets from the cover `chosen` (highest reduced cost first), improves
    /// it by local search and keeps it when smaller than the best.
    pub(super) fn offer(
        &mut self,
        p: &CoverInstance,
        mut chosen: Vec<u32>,
        cost: &[f64],
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let mut count = vec![0u32; p.elems.len()];
        for &t in &chosen {
            for &e in &p.sets[t as usize] {
                count[e as usize] += 1;
            }
        }
        chosen.sort_by(|&a, &b| cost[b as usize].total_cmp(&cost[a as usize]).then(b.cmp(&a)));
        let mut kept = Vec::with_capacity(chosen.len());
        for t in chosen {
            if p.sets[t as usize].iter().all(|&e| count[e as usize] > 1) {
                for &e in &p.sets[t as usize] {
                    count[e as usize] -= 1;
                }
            } else {
                kept.push(t);
            }
        }
        budget.spend(p.elems.len() as u64)?;
        improve(p, &mut kept, &mut count, budget)?;
        if kept.len() < self.best.len() {
            kept.sort_unstable();
            self.best = kept;
        }
        Ok(())
    }
}

/// Local search on the cover `kept` (`count[e]`: its sets containing `e`): adds a set when
/// that makes two or more others redundant, until no such set is left.
pub(super) fn improve(
    p: &CoverInstance,
    kept: &mut Vec<u32>,
    count: &mut [u32],
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let mut in_cover = vec![false; p.sets.len()];
    for &t in kept.iter() {
        in_cover[t as usize] = true;
    }
    let mut removed = Vec::new();
    loop {
        let mut improved = false;
        for t in 0..p.sets.len() {
            if in_cover[t] {
                continue;
            }
            budget.spend(1 + 4 * p.sets[t].len() as u64)?;
            for &e in &p.sets[t] {
                count[e as usize] += 1;
            }
            removed.clear();
            for &e in &p.sets[t] {
                for &u in &p.elems[e as usize] {
                    let u = u as usize;
                    if in_cover[u] && p.sets[u].iter().all(|&x| count[x as usize] >= 2) {
                        in_cover[u] = false;
                        removed.push(u);
                        for &x in &p.sets[u] {
                            count[x as usize] -= 1;
                        }
                    }
                }
            }
            if removed.len() >= 2 {
                in_cover[t] = true;
                improved = true;
            } else {
                for &u in &removed {
                    in_cover[u] = true;
                    for &x in &p.sets[u] {
                        count[x as usize] += 1;
                    }
                }
                for &e in &p.sets[t] {
                    count[e as usize] -= 1;
                }
            }
        }
        if !improved {
            break;
        }
    }
    kept.clear();
    kept.extend((0..p.sets.len() as u32).filter(|&t| in_cover[t as usize]));
    Ok(())
}

/// A lower bound without search: elements taken greedily (fewest sets first) so that no set
/// holds two of them; each needs a set of its own.
pub(crate) fn packing_bound(p: &CoverInstance) -> usize {
    let mut order: Vec<u32> = (0..p.elems.len() as u32).collect();
    order.sort_by_key(|&e| (p.elems[e as usize].len(), e));
    let mut used = vec![false; p.sets.len()];
    let mut count = 0;
    for e in order {
        let sets = &p.elems[e as usize];
        if sets.iter().all(|&t| !used[t as usize]) {
            count += 1;
            for &t in sets {
                used[t as usize] = true;
            }
        }
    }
    count
}

/// A cover without search: every element not yet covered takes its set covering most
/// elements not yet covered (ties: lowest id).
pub(crate) fn greedy_cover(p: &CoverInstance) -> Vec<u32> {
    let mut covered = vec![false; p.elems.len()];
    let mut chosen = Vec::new();
    for e in 0..p.elems.len() {
        if covered[e] {
            continue;
        }
        let gain = |t: u32| p.sets[t as usize].iter().filter(|&&x| !covered[x as usize]).count();
        let t = p.elems[e]
            .iter()
            .copied()
            .max_by_key(|&t| (gain(t), std::cmp::Reverse(t)))
            .expect("every element is in some set");
        chosen.push(t);
        for &x in &p.sets[t as usize] {
            covered[x as usize] = true;
        }
    }
    chosen.sort_unstable();
    chosen
}
