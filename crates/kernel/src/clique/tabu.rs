//! A starting clique for the exact clique search by a k-fixed tabu search (Wu and Hao's
//! AMTS, 2012): for a target size k, a set S of k vertices is moved towards a clique by
//! swaps, each taking out a vertex of S with the fewest neighbours in S and bringing in an
//! outside vertex with the most; a vertex taken out may not come back, and one brought in
//! may not leave, for a few iterations (the tabu tenure). When no swap improves, a random
//! swap is made now and then. Once S is a clique the target becomes k + 1.
//!
//! The structured instances hide one large clique among many slightly smaller ones that
//! an exchange search of the clique itself (see `local_search`) does not leave; the
//! k-fixed search moves through sets that are not cliques and finds it. The random choices
//! come from a fixed-seed generator, so the result depends only on the graph and the
//! iteration budget.

use gamegraph_graph::generate::SplitMix64;

use crate::KernelError;
use crate::bits;
use crate::clique::Rows;
use crate::config::Budget;

use super::local_search::pick;

/// Iterations of one start before the search starts again from another set.
const RESTART: usize = 4000;
/// Iterations without a larger clique after which the search ends.
const STALL: usize = 30_000;

/// The set S of the search and the counts kept with it.
struct State<'a> {
    rows: &'a Rows,
    inside: Vec<bool>,
    members: Vec<usize>,
    /// Per vertex: its neighbours in S.
    d: Vec<u32>,
    /// Edges inside S.
    edges: usize,
    /// Per vertex: the iteration up to which it may not move.
    tabu: Vec<usize>,
    /// Per vertex: how often it moved (the restarts start from the vertices that moved
    /// least).
    moved: Vec<u32>,
}

impl State<'_> {
    fn add(&mut self, v: usize) {
        self.inside[v] = true;
        self.members.push(v);
        self.edges += self.d[v] as usize;
        let d = &mut self.d;
        bits::for_each(self.rows.row(v), |x| {
            d[x] += 1;
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }

    fn remove(&mut self, v: usize) {
        self.inside[v] = false;
        let at = self.members.iter().position(|&x| x == v).expect("a member");
        self.members.swap_remove(at);
        self.edges -= self.d[v] as usize;
        let d = &mut self.d;
        bits::for_each(self.rows.row(v), |x| {
            d[x] -= 1;
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }

    fn clear(&mut self) {
        while let Some(&v) = self.members.last() {
            self.remove(v);
        }
    }

    /// Fills S up to `k` vertices, each time with an outside vertex of most neighbours in
    /// S, the one that moved least among those.
    fn fill(&mut self, k: usize) {
        let n = self.rows.n;
        while self.members.len() < k {
            let v = (0..n)
                .filter(|&v| !self.inside[v])
                .max_by_key(|&v| {
                    (self.d[v], std::cmp::Reverse(self.moved[v]), std::cmp::Reverse(v))
                })
                .expect("fewer than n members");
            self.add(v);
        }
    }
}

/// A clique of `rows` at least as large as `start` (a clique), found by a k-fixed tabu
/// search of at most `iterations` swaps in all, which ends sooner after [`STALL`]
/// swaps without a larger clique.
pub(crate) fn tabu_clique(
    rows: &Rows,
    start: &[usize],
    iterations: usize,
    budget: &mut Budget,
) -> Result<Vec<usize>, KernelError> {
    let n = rows.n;
    let mut best = start.to_vec();
    if n <= best.len() + 1 {
        return Ok(best);
    }
    let mut s = State {
        rows,
        inside: vec![false; n],
        members: Vec::new(),
        d: vec![0; n],
        edges: 0,
        tabu: vec![0; n],
        moved: vec![0; n],
    };
    let mut rng = SplitMix64(0x7461_6275_636c_7173);
    let mut left = iterations;
    let mut last = 0;
    let mut k = best.len() + 1;
    let mut from_best = true;
    let mut a: Vec<usize> = Vec::new();
    let mut b: Vec<usize> = Vec::new();
    while left > 0 && k < n && iterations - left < last + STALL {
        // A start: the best clique and the outside vertex of most neighbours in it, else a
        // vertex that moved least and its greedy completion.
        s.clear();
        if from_best {
            for &v in &best {
                s.add(v);
            }
        } else {
            let low = s.moved.iter().copied().min().unwrap_or(0);
            let rare: Vec<usize> = (0..n).filter(|&v| s.moved[v] == low).collect();
            s.add(rare[pick(&mut rng, rare.len())]);
        }
        s.fill(k);
        s.tabu.iter_mut().for_each(|t| *t = 0);
        let full = k * (k - 1) / 2;
        let mut found = false;
        for it in 1..=RESTART.min(left) {
            left -= 1;
            if s.edges == full {
                found = true;
                break;
            }
            budget.spend(4 * n as u64)?;
            // The non-tabu members of fewest neighbours in S, and the non-tabu outside
            // vertices of most.
            a.clear();
            b.clear();
            let (mut low, mut high) = (u32::MAX, 0);
            for v in 0..n {
                if s.tabu[v] > it {
                    continue;
                }
                let d = s.d[v];
                if s.inside[v] {
                    if d < low {
                        low = d;
                        a.clear();
                    }
                    if d == low {
                        a.push(v);
                    }
                } else {
                    if d > high {
                        high = d;
                        b.clear();
                    }
                    if d == high {
                        b.push(v);
                    }
                }
            }
            let missing = full - s.edges;
            let p = ((missing + 2) as f64 / n as f64).min(0.1);
            let chance = (rng.below(1 << 20) as f64) < p * (1u64 << 20) as f64;
            let (u, v) = if a.is_empty() || b.is_empty() {
                random_swap(&s, &mut rng)
            } else {
                // A swap of a non-adjacent pair gains one more edge than an adjacent one.
                let (oa, ob) = (pick(&mut rng, a.len()), pick(&mut rng, b.len()));
                let mut pair = None;
                'scan: for i in 0..a.len().min(32) {
                    let u = a[(oa + i) % a.len()];
                    let ru = rows.row(u);
                    for j in 0..b.len().min(64) {
                        let v = b[(ob + j) % b.len()];
                        if !bits::get(ru, v) {
                            pair = Some((u, v));
                            break 'scan;
                        }
                    }
                }
                let gain = match pair {
                    Some(_) => high as i64 - low as i64,
                    None => high as i64 - low as i64 - 1,
                };
                if gain <= 0 && chance {
                    random_swap(&s, &mut rng)
                } else {
                    pair.unwrap_or((a[oa], b[ob]))
                }
            };
            s.remove(u);
            s.add(v);
            s.moved[u] += 1;
            s.moved[v] += 1;
            let tenure = 10 + pick(&mut rng, b.len() + 1);
            s.tabu[u] = it + tenure;
            s.tabu[v] = it + tenure * 3 / 5;
        }
        if found || s.edges == full {
            best = s.members.clone();
            best.sort_unstable();
            last = iterations - left;
            k += 1;
            from_best = true;
        } else {
            from_best = false;
        }
    }
    Ok(best)
}

/// A random member and a random outside vertex (S is never all the vertices).
fn random_swap(s: &State<'_>, rng: &mut SplitMix64) -> (usize, usize) {
    let u = s.members[pick(rng, s.members.len())];
    let n = s.rows.n;
    let v = loop {
        let v = pick(rng, n);
        if !s.inside[v] {
            break v;
        }
    };
    (u, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clique::tests::clique_in_rows as is_clique;

    #[test]
    fn finds_a_planted_clique_and_returns_cliques() {
        // 60 vertices, a dense random graph with a planted clique on 10..30.
        let n = 60;
        let mut rows = Rows::new(n);
        let mut rng = SplitMix64(11);
        for a in 0..n {
            for b in a + 1..n {
                if (10..30).contains(&a) && (10..30).contains(&b) || rng.below(10) < 6 {
                    rows.join(a, b);
                }
            }
        }
        let mut budget = Budget::new(&Config::default());
        let c = tabu_clique(&rows, &[0], 20_000, &mut budget).unwrap();
        assert!(is_clique(&rows, &c));
        assert!(c.len() >= 20, "found {}", c.len());
        for seed in 0..20 {
            let n = 1 + seed as usize % 12;
            let mut rows = Rows::new(n);
            let mut rng = SplitMix64(seed);
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(2) == 0 {
                        rows.join(a, b);
                    }
                }
            }
            let c = tabu_clique(&rows, &[], 500, &mut budget).unwrap();
            assert!(is_clique(&rows, &c), "seed {seed}");
        }
    }
}
