//! Kernel existence on a large random digraph: the deadline ends the SAT search on time,
//! on one thread and on several.

use std::time::{Duration, Instant};

use gamegraph_graph::Limit;
use gamegraph_kernel::{Config, KernelError, find_kernel};
use gamegraph_testkit::{SplitMix64, graph};

/// n·d distinct arcs u → v (u ≠ v) drawn uniformly (the `kernel` rows of
/// `cargo xtask bench kernel`, with 0-based ids).
fn sparse_arcs(n: usize, d: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = SplitMix64::new(seed);
    let mut seen = std::collections::HashSet::with_capacity(n * d);
    let mut arcs = Vec::with_capacity(n * d);
    while arcs.len() < n * d {
        let u = rng.below(n as u64) as u32;
        let v = rng.below(n as u64) as u32;
        if u != v && seen.insert((u, v)) {
            arcs.push((u, v));
        }
    }
    arcs
}

/// 7·10^4 vertices of out-degree 3: after the retrograde labels a draw part of about 38 000
/// vertices is left, which the SAT solver does not decide within the limit; the search must
/// stop within 10 % of it.
#[test]
fn the_deadline_ends_the_sat_search_within_ten_percent() {
    let g = graph(70_000, &sparse_arcs(70_000, 3, 1));
    let limit = Duration::from_secs(2);
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let start = Instant::now();
        let cfg = Config::with_deadline(start + limit);
        let r = pool.install(|| find_kernel(&g, &cfg));
        let spent = start.elapsed();
        assert!(
            matches!(r, Err(KernelError::Limit { limit: Limit::Time, .. })),
            "{threads} threads: {r:?}"
        );
        assert!(spent >= limit, "{threads} threads: stopped early, after {spent:?}");
        assert!(spent <= limit + limit / 10, "{threads} threads: stopped after {spent:?}");
    }
}
