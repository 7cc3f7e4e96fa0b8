//! The clique search and α's driver against plain branching on random graphs, on any
//! number of threads and under deadlines.

use super::{Rows, max_clique, max_independent};
use crate::Config;
use crate::config::{Budget, Cap};

/// α by plain branching on bitmasks (n ≤ 64).
fn brute(nb: &[u64], p: u64) -> usize {
    if p == 0 {
        return 0;
    }
    let v = p.trailing_zeros() as usize;
    let skip = brute(nb, p & !(1 << v));
    let take = 1 + brute(nb, p & !(1 << v) & !nb[v]);
    skip.max(take)
}

/// Whether the vertices `c` are pairwise adjacent in `rows`.
pub(super) fn clique_in_rows(rows: &Rows, c: &[usize]) -> bool {
    c.iter().all(|&a| c.iter().all(|&b| a == b || crate::bits::get(rows.row(a), b)))
}

/// The pairs of `0..n`, each an edge with probability `per_mille` / 1000.
pub(super) fn random_edges(
    rng: &mut gamegraph_testkit::SplitMix64,
    n: usize,
    per_mille: u64,
) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for a in 0..n as u32 {
        for b in a + 1..n as u32 {
            if rng.chance(per_mille) {
                edges.push((a, b));
            }
        }
    }
    edges
}

/// Symmetric adjacency lists of the undirected `edges` on `n` vertices.
pub(super) fn lists(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a as usize].push(b);
        adj[b as usize].push(a);
    }
    adj
}

/// Calls `f` with every graph on `n` vertices for each `n` up to `max`, as adjacency lists.
pub(super) fn every_graph(max: usize, mut f: impl FnMut(usize, &[Vec<u32>])) {
    for n in 1..=max {
        let pairs: Vec<(u32, u32)> =
            (0..n as u32).flat_map(|a| (a + 1..n as u32).map(move |b| (a, b))).collect();
        for mask in 0u32..1 << pairs.len() {
            let edges: Vec<(u32, u32)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            f(n, &lists(n, &edges));
        }
    }
}

/// α of the vertices of `adj` (at most 64) that are `alive`, by branching: a vertex of
/// degree at most one is taken; else one of largest degree is taken or left out.
pub(super) fn alpha_of(adj: &[Vec<u32>], alive: &[bool]) -> usize {
    let nb: Vec<u64> = adj.iter().map(|a| a.iter().map(|&x| 1u64 << x).sum()).collect();
    fn go(nb: &[u64], p: u64) -> usize {
        let (mut low, mut high) = ((u32::MAX, 0), (0, 0));
        let mut q = p;
        while q != 0 {
            let x = q.trailing_zeros() as usize;
            q &= q - 1;
            let d = (nb[x] & p).count_ones();
            low = low.min((d, x));
            high = high.max((d, x));
        }
        if p == 0 {
            return 0;
        }
        if low.0 <= 1 {
            return 1 + go(nb, p & !(1 << low.1) & !nb[low.1]);
        }
        let v = high.1;
        let rest = p & !(1 << v);
        go(nb, rest).max(1 + go(nb, rest & !nb[v]))
    }
    let p = (0..adj.len()).filter(|&v| alive[v]).fold(0u64, |p, v| p | 1 << v);
    go(&nb, p)
}

fn random(n: usize, per_mille: u64, seed: u64) -> (Vec<Vec<u32>>, Vec<u64>) {
    let (adj, nb) = random_wide(n, per_mille, seed);
    (adj, nb.into_iter().map(|m| m as u64).collect())
}

/// G(n, p) on at most 128 vertices: adjacency lists and 128-bit neighbour masks.
fn random_wide(n: usize, per_mille: u64, seed: u64) -> (Vec<Vec<u32>>, Vec<u128>) {
    let mut rng = gamegraph_testkit::SplitMix64::new(seed);
    let mut adj = vec![Vec::new(); n];
    let mut nb = vec![0u128; n];
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(1000) < per_mille {
                adj[a].push(b as u32);
                adj[b].push(a as u32);
                nb[a] |= 1 << b;
                nb[b] |= 1 << a;
            }
        }
    }
    (adj, nb)
}

/// α by branching on 128-bit masks: a vertex of degree at most one is taken, else a
/// vertex of largest degree is either left out or taken.
fn branch(nb: &[u128], p: u128) -> usize {
    if p == 0 {
        return 0;
    }
    let mut q = p;
    let (mut low, mut high) = ((usize::MAX, 0), (0, 0));
    while q != 0 {
        let x = q.trailing_zeros() as usize;
        q &= q - 1;
        let d = (nb[x] & p).count_ones() as usize;
        low = low.min((d, x));
        high = high.max((d, x));
    }
    if low.0 <= 1 {
        let v = low.1;
        return 1 + branch(nb, p & !(1 << v) & !nb[v]);
    }
    let v = high.1;
    branch(nb, p & !(1 << v)).max(1 + branch(nb, p & !(1 << v) & !nb[v]))
}

#[test]
fn multi_word_graphs_agree_with_plain_branching_on_any_number_of_threads() {
    let sizes = [(70, 150), (90, 120), (100, 200), (128, 300), (65, 60), (80, 100)];
    for (case, &(n, per_mille)) in sizes.iter().cycle().take(18).enumerate() {
        let (adj, nb) = random_wide(n, per_mille, 11 + case as u64);
        let all = if n == 128 { !0 } else { (1u128 << n) - 1 };
        let alpha = branch(&nb, all);
        let excluded = vec![false; n];
        let mut witness = None;
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let f = pool
                .install(|| {
                    max_independent(&adj, &excluded, &mut Budget::new(&Config::default()), None)
                })
                .unwrap();
            assert!(f.exact);
            assert_eq!(f.set.len(), alpha, "n {n}, {per_mille}‰, {threads} threads");
            for (i, &a) in f.set.iter().enumerate() {
                for &b in &f.set[i + 1..] {
                    assert_eq!(nb[a as usize] >> b & 1, 0, "{a} and {b} adjacent");
                }
            }
            let w = witness.get_or_insert_with(|| f.set.clone());
            assert_eq!(*w, f.set, "n {n}: the witness depends on the threads");
            // The clique search alone, from an empty start, on the complement.
            let mut rows = Rows::new(n);
            for (a, row) in nb.iter().enumerate() {
                for b in a + 1..n {
                    if row >> b & 1 == 0 {
                        rows.join(a, b);
                    }
                }
            }
            let found = clique_in(&pool, &rows);
            assert!(found.exact);
            assert_eq!(found.clique.len(), alpha, "n {n}, {per_mille}‰, {threads} threads");
            let c = &found.clique;
            assert!(c.iter().all(|&a| c.iter().all(|&b| a == b || nb[a] >> b & 1 == 0)));
        }
    }
}

/// The clique search alone, from an empty start, without limits, in `pool`.
fn clique_in(pool: &rayon::ThreadPool, rows: &Rows) -> super::CliqueFound {
    pool.install(|| {
        let mut budget = Budget::new(&Config::default());
        max_clique(rows, &[], &mut budget, &mut Cap::new(None))
    })
    .unwrap()
}

/// ω by Carraghan and Pardalos's branching on bitsets of any width: a clique grows by
/// each candidate in turn while the candidates left could still beat the best.
fn plain_clique(nb: &[Vec<u64>], cur: usize, p: Vec<u64>, best: &mut usize) {
    let left: usize = p.iter().map(|w| w.count_ones() as usize).sum();
    if left == 0 {
        *best = (*best).max(cur);
        return;
    }
    let mut p = p;
    let mut left = left;
    while left > 0 && cur + left > *best {
        let wi = p.iter().position(|&w| w != 0).unwrap();
        let v = wi * 64 + p[wi].trailing_zeros() as usize;
        p[wi] &= p[wi] - 1;
        left -= 1;
        let q = p.iter().zip(&nb[v]).map(|(a, b)| a & b).collect();
        plain_clique(nb, cur + 1, q, best);
    }
}

/// A random graph of n vertices, each pair joined with probability per_mille / 1000: its
/// rows, its neighbourhoods as bit vectors, and its clique number by plain branching.
fn random_with_omega(n: usize, per_mille: u64, seed: u64) -> (Rows, Vec<Vec<u64>>, usize) {
    let mut rng = gamegraph_testkit::SplitMix64::new(seed);
    let mut rows = Rows::new(n);
    let mut nb = vec![vec![0u64; n.div_ceil(64)]; n];
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(1000) < per_mille {
                rows.join(a, b);
                nb[a][b / 64] |= 1 << (b % 64);
                nb[b][a / 64] |= 1 << (a % 64);
            }
        }
    }
    let mut omega = 0;
    let mut all = vec![0; n.div_ceil(64)];
    crate::bits::fill(&mut all, n);
    plain_clique(&nb, 0, all, &mut omega);
    (rows, nb, omega)
}

/// Whether every two vertices of `c` are adjacent in `nb`.
fn is_clique(nb: &[Vec<u64>], c: &[usize]) -> bool {
    c.iter().all(|&a| c.iter().all(|&b| a == b || nb[a][b / 64] >> (b % 64) & 1 == 1))
}

#[test]
fn wide_rows_agree_with_plain_branching_on_any_number_of_threads() {
    // Widths 3, 4, 5 (padded to 6), 9 (padded to 16) and 17 (padded to 32).
    let cases = [(150, 700), (200, 600), (300, 450), (520, 250), (1030, 60)];
    for (case, &(n, per_mille)) in cases.iter().enumerate() {
        let (rows, nb, omega) = random_with_omega(n, per_mille, 101 + case as u64);
        let mut witness = None;
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let found = clique_in(&pool, &rows);
            assert!(found.exact);
            assert_eq!(found.clique.len(), omega, "n {n}, {per_mille}‰, {threads} threads");
            let c = &found.clique;
            assert!(is_clique(&nb, c));
            let w = witness.get_or_insert_with(|| c.clone());
            assert_eq!(w, c, "n {n}: the witness depends on the threads");
        }
    }
}

#[test]
fn a_deadline_in_the_tasks_leaves_a_clique_and_a_proven_bound() {
    let mut tight = 0;
    for (case, &(n, per_mille)) in [(90, 800), (110, 800), (150, 700)].iter().enumerate() {
        let (rows, nb, omega) = random_with_omega(n, per_mille, 7 + case as u64);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for every in [1000, 20_000, 30_000, 50_000, 80_000, 120_000, 200_000, 300_000] {
            let f = pool.install(|| {
                let mut budget = Budget::new(&Config::default());
                budget.trip = Some((every, 0));
                max_clique(&rows, &[], &mut budget, &mut Cap::new(None))
            });
            let Ok(f) = f else { continue };
            let c = &f.clique;
            assert!(is_clique(&nb, c));
            assert!(c.len() <= omega && omega <= f.bound, "n {n}, every {every}");
            if !f.exact && f.bound < n {
                tight += 1;
            }
        }
    }
    assert!(tight > 8, "only {tight} searches were cut short with a bound");
}

#[test]
fn a_deadline_anywhere_leaves_a_checked_set_and_a_proven_bound() {
    let mut inexact = 0;
    for seed in 0..6 {
        let (adj, nb) = random(34, 150 + 40 * seed, seed);
        let alpha = brute(&nb, (1u64 << 34) - 1);
        let excluded = vec![false; adj.len()];
        for every in (1..400).step_by(9).chain([1000, 4000]) {
            let mut budget = Budget::new(&Config::default());
            budget.trip = Some((every, 0));
            let Ok(f) = max_independent(&adj, &excluded, &mut budget, None) else {
                continue; // the deadline passed before the search started
            };
            for (i, &a) in f.set.iter().enumerate() {
                for &b in &f.set[i + 1..] {
                    assert_eq!(nb[a as usize] >> b & 1, 0, "seed {seed}: {a} and {b} adjacent");
                }
            }
            assert!(f.set.len() <= alpha && alpha <= f.bound, "seed {seed} every {every}");
            if f.exact {
                assert_eq!(f.set.len(), alpha);
            } else {
                inexact += 1;
            }
        }
    }
    assert!(inexact > 10, "only {inexact} searches were cut short");
}
