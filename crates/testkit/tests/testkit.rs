//! The shared test support keeps its promises: the generator's reference values, graphs of
//! the asked sizes and kinds, and a fixture pattern that matches nothing fails.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_testkit::{
    SplitMix64, acyclic_graphs, dense_graphs, graphs, random_dense_graph, random_graph,
};
use proptest::prelude::*;

/// Whether `g` has no cycle (sinks removed until nothing changes).
fn is_acyclic(g: &Graph) -> bool {
    let mut left: Vec<usize> = g.vertices().map(|v| g.out_degree(v)).collect();
    let mut queue: Vec<Vertex> = g.vertices().filter(|&v| left[v.index()] == 0).collect();
    let mut removed = 0;
    while let Some(v) = queue.pop() {
        removed += 1;
        for &u in g.predecessors(v) {
            left[u.index()] -= 1;
            if left[u.index()] == 0 {
                queue.push(u);
            }
        }
    }
    removed == g.num_vertices()
}

#[test]
fn split_mix_64_gives_the_reference_values() {
    // The first outputs of SplitMix64 for seed 0 (Steele, Lea and Flood 2014).
    let mut rng = SplitMix64::new(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    let mut rng = SplitMix64::new(5);
    assert!((0..1000).all(|_| rng.below(7) < 7));
}

#[test]
fn the_builders_draw_what_they_say() {
    let mut rng = SplitMix64::new(3);
    let g = random_graph(&mut rng, 50, 400, false);
    assert_eq!((g.num_vertices(), g.num_arcs()), (50, 400));
    assert!(g.arcs().any(|(u, v)| u == v), "self-loops are drawn");
    let dag = random_graph(&mut rng, 50, 400, true);
    assert!(dag.arcs().all(|(u, v)| u < v));
    let full = random_dense_graph(&mut rng, 6, 1000);
    assert!(
        full.vertices().all(|u| full.vertices().all(|v| u == v || full.successors(u).contains(&v)))
    );
    assert_eq!(random_dense_graph(&mut rng, 6, 0).num_arcs(), 0);
}

#[test]
fn a_pattern_that_matches_nothing_fails() {
    let run = || gamegraph_testkit::fixtures("graph", "*.nothing", |_, _| [("x", String::new())]);
    assert!(std::panic::catch_unwind(run).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn graphs_have_the_asked_size(g in graphs(0..=20, 3)) {
        prop_assert!(g.num_vertices() <= 20);
        prop_assert!(g.num_arcs() <= 3 * g.num_vertices());
    }

    #[test]
    fn acyclic_graphs_have_no_cycle(g in acyclic_graphs(1..=20, 3)) {
        prop_assert!(g.num_vertices() >= 1 && g.num_vertices() <= 20);
        prop_assert!(is_acyclic(&g));
    }

    #[test]
    fn dense_graphs_have_the_asked_size(g in dense_graphs(2..=9, 0..=1000)) {
        prop_assert!((2..=9).contains(&g.num_vertices()));
    }
}
