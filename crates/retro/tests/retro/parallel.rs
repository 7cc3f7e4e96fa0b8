//! `par_solve` returns exactly `solve`'s solution on pools of 1, 2, 3 and 4 threads, on
//! graphs large enough for its frontiers to be expanded in parallel.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_retro::{Outcome, par_solve, solve, verify};
use gamegraph_testkit::{SplitMix64, graphs, random_graph};
use proptest::prelude::*;

fn pools() -> Vec<rayon::ThreadPool> {
    (1..=4).map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).collect()
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
        let g = random_graph(&mut SplitMix64::new(seed as u64), n, m, acyclic);
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
    fn par_solve_equals_solve_on_small_graphs(g in graphs(1..=39, 6)) {
        let reference = solve(&g);
        for t in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            prop_assert_eq!(&pool.install(|| par_solve(&g)), &reference);
        }
    }
}
