//! An upper bound on α from a clique cover: the vertices split into k cliques hold no
//! independent set of more than k vertices. The cover is greedy, each clique a largest one
//! among the vertices left, as far as a capped clique search finds; this is the colouring
//! of the complement by maximum independent sets that CliSAT orders its vertices by.
//!
//! On the instances built around a hidden clique whose size is also their chromatic number
//! (the `gen` family), such a cover of the α graph is as small as the clique the local
//! searches found, which ends the search before it starts.

use crate::KernelError;
use crate::bits;
use crate::config::{Budget, Cap};

use super::{Rows, degeneracy_order, max_clique};

/// Search nodes of the clique search for one clique of the cover, at most.
const COVER_NODES: u64 = 2000;

/// Whether the vertices of `g` are covered by at most `k` cliques of `g` found greedily
/// (each a largest clique of the vertices left, as far as a search of [`COVER_NODES`] nodes
/// finds): then no independent set of `g` has more than `k` vertices. Gives up, with
/// `false`, once more than `k` cliques are needed, or as soon as `k` cliques of the size of
/// the last one found would not cover the vertices left.
pub(crate) fn covered(g: &Rows, k: usize, budget: &mut Budget) -> Result<bool, KernelError> {
    let mut left: Vec<usize> = (0..g.n).collect();
    for used in 0..k {
        if left.is_empty() {
            return Ok(true);
        }
        let r = left.len();
        budget.spend((r * r) as u64)?;
        // The subgraph on the vertices left, in its degeneracy order (as the search wants).
        let mut sub = Rows::new(r);
        for (i, &a) in left.iter().enumerate() {
            for (j, &b) in left.iter().enumerate().skip(i + 1) {
                if bits::get(g.row(a), b) {
                    sub.join(i, j);
                }
            }
        }
        let order = degeneracy_order(&sub);
        let mut ordered = Rows::new(r);
        let mut pos = vec![0; r];
        for (p, &i) in order.iter().enumerate() {
            pos[i] = p;
        }
        for i in 0..r {
            bits::for_each(sub.row(i), |j| {
                if i < j {
                    ordered.join(pos[i], pos[j]);
                }
                Ok::<(), ()>(())
            })
            .expect("infallible");
        }
        let f = max_clique(&ordered, &[], budget, &mut Cap::new(Some(COVER_NODES)))?;
        let mut taken = vec![false; r];
        for &p in &f.clique {
            taken[order[p]] = true;
        }
        // A vertex is always a clique: the cover goes on even from an empty search.
        if f.clique.is_empty() {
            taken[0] = true;
        }
        // The cliques found next are no larger, as a rule: when even cliques of this size
        // could not cover what is left, the cover gives up at once.
        if f.clique.len().max(1) * (k - used) < r {
            return Ok(false);
        }
        left = left.iter().zip(&taken).filter(|(_, t)| !**t).map(|(&v, _)| v).collect();
    }
    Ok(left.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_graph::generate::SplitMix64;

    /// α by plain branching on bitmasks (n ≤ 64).
    fn alpha(nb: &[u64], p: u64) -> usize {
        if p == 0 {
            return 0;
        }
        let v = p.trailing_zeros() as usize;
        alpha(nb, p & !(1 << v)).max(1 + alpha(nb, p & !(1 << v) & !nb[v]))
    }

    fn check(n: usize, nb: &[u64]) {
        let mut rows = Rows::new(n);
        for (a, row) in nb.iter().enumerate() {
            for b in a + 1..n {
                if row >> b & 1 == 1 {
                    rows.join(a, b);
                }
            }
        }
        let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
        let a = alpha(nb, all);
        let mut budget = Budget::new(&Config::default());
        // Never a cover smaller than α; with n cliques, always one.
        for k in 0..a {
            assert!(!covered(&rows, k, &mut budget).unwrap(), "n {n}: {k} < α = {a}");
        }
        assert!(covered(&rows, n, &mut budget).unwrap());
    }

    #[test]
    fn a_cover_is_never_below_alpha() {
        // Every graph on up to 6 vertices, then random ones up to 40.
        for n in 0..=6usize {
            let pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
            for mask in 0u64..1 << pairs.len() {
                let mut nb = vec![0u64; n];
                for (i, &(a, b)) in pairs.iter().enumerate() {
                    if mask >> i & 1 == 1 {
                        nb[a] |= 1 << b;
                        nb[b] |= 1 << a;
                    }
                }
                check(n, &nb);
            }
        }
        let mut rng = SplitMix64(5);
        for case in 0..60 {
            let n = 6 + case % 35;
            let p = 1 + rng.below(9);
            let mut nb = vec![0u64; n];
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(10) < p {
                        nb[a] |= 1 << b;
                        nb[b] |= 1 << a;
                    }
                }
            }
            check(n, &nb);
        }
    }
}
