//! `par_solve` returns exactly `solve`'s solution on pools of 1, 2, 3 and 4 threads, on
//! graphs large enough for its frontiers to be expanded in parallel.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_retro::{Outcome, par_solve, solve, verify};
use proptest::prelude::*;

fn pools() -> Vec<rayon::ThreadPool> {
    (1..=4).map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).collect()
}

/// SplitMix64, so the graphs do not depend on any crate's RNG.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (u128::from(z ^ (z >> 31)) * u128::from(n) >> 64) as u64
    }
}

/// `m` random arcs on `n` vertices; `acyclic` keeps only arcs to larger ids.
fn random(n: usize, m: usize, seed: u64, acyclic: bool) -> Graph {
    let mut rng = Rng(seed);
    let arcs: Vec<(Vertex, Vertex)> = (0..m)
        .map(|_| {
            let (mut u, mut v) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
            if acyclic {
                if u > v {
                    std::mem::swap(&mut u, &mut v);
                }
                if u == v {
                    v = (v + 1).min(n as u32 - 1);
                    u = v.saturating_sub(1);
                }
            }
            (Vertex(u), Vertex(v))
        })
        .collect();
    Graph::from_arcs(n, &arcs).unwrap()
}

/// A long path 0 -> 1 -> ... -> n-1 (one vertex per level) with a few shortcuts.
fn path(n: usize) -> Graph {
    let mut arcs: Vec<(Vertex, Vertex)> =
        (0..n as u32 - 1).map(|i| (Vertex(i), Vertex(i + 1))).collect();
    arcs.extend((0..n as u32 - 7).step_by(97).map(|i| (Vertex(i), Vertex(i + 7))));
    Graph::from_arcs(n, &arcs).unwrap()
}

fn check_all_pools(g: &Graph, pools: &[rayon::ThreadPool]) {
    let reference = solve(g);
    verify(g, &reference).unwrap();
    for pool in pools {
        let s = pool.install(|| par_solve(g));
        assert_eq!(s, reference, "{} threads", pool.current_num_threads());
    }
}

#[test]
fn large_random_graphs() {
    let pools = pools();
    let mut kinds = [0usize; 3];
    for (seed, (n, m, acyclic)) in [
        (60_000, 120_000, false),
        (60_000, 180_000, false),
        (40_000, 240_000, false),
        (50_000, 200_000, true),
        (30_000, 30_000, false),
    ]
    .into_iter()
    .enumerate()
    {
        let g = random(n, m, seed as u64, acyclic);
        check_all_pools(&g, &pools);
        let c = solve(&g).counts();
        for (k, x) in kinds.iter_mut().zip([c.win, c.loss, c.draw]) {
            *k += x;
        }
    }
    // The graphs exercise every outcome, with frontiers far above the parallel threshold.
    assert!(kinds.iter().all(|&k| k > 10_000), "{kinds:?}");
}

#[test]
fn a_long_path_has_one_frontier_per_level() {
    let g = path(20_000);
    check_all_pools(&g, &pools());
    let s = solve(&g);
    assert_eq!(s.outcome(Vertex(19_999)), Outcome::Loss);
    assert!(s.depth(Vertex(0)).unwrap() > 1000);
}

#[test]
fn empty_and_edgeless_graphs() {
    check_all_pools(&Graph::from_arcs(0, &[]).unwrap(), &pools());
    check_all_pools(&Graph::from_arcs(5000, &[]).unwrap(), &pools());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn par_solve_equals_solve_on_small_graphs(
        n in 1usize..40,
        arcs in proptest::collection::vec((0u32..40, 0u32..40), 0..120),
    ) {
        let arcs: Vec<_> = arcs
            .into_iter()
            .map(|(u, v)| (Vertex(u % n as u32), Vertex(v % n as u32)))
            .collect();
        let g = Graph::from_arcs(n, &arcs).unwrap();
        let reference = solve(&g);
        for t in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            prop_assert_eq!(&pool.install(|| par_solve(&g)), &reference);
        }
    }
}
