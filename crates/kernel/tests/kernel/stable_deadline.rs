//! α and β on instances no solver finishes within seconds: the deadline ends the search
//! within 10 % of the limit, on one thread and on several, with a checked set and a proven
//! bound.

use std::time::{Duration, Instant};

use gamegraph_graph::{Graph, Limit};
use gamegraph_kernel::{
    Config, KernelError, StableSet, alpha, beta, externally_stable, internally_stable,
};
use gamegraph_testkit::{SplitMix64, graph};

/// Runs `f` with a deadline `limit` from now on a pool of 1, 2 and 3 threads; checks that each
/// run stops after the deadline and within 10 % of it, and returns each run's error.
fn on_deadline(
    g: &Graph,
    limit: Duration,
    f: fn(&Graph, &Config) -> Result<StableSet, KernelError>,
) -> Vec<KernelError> {
    [1, 2, 3]
        .into_iter()
        .map(|threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let start = Instant::now();
            let cfg = Config::with_deadline(start + limit);
            let r = pool.install(|| f(g, &cfg));
            let spent = start.elapsed();
            assert!(spent >= limit, "{threads} threads: stopped early, after {spent:?}");
            assert!(spent <= limit + limit / 10, "{threads} threads: stopped after {spent:?}");
            r.expect_err("the search finished before the deadline")
        })
        .collect()
}

/// G(300, 0.1) with one arc per edge in a random direction: α is about 50 and the search
/// takes minutes.
#[test]
fn the_deadline_ends_the_alpha_search_within_ten_percent() {
    let n = 300;
    let mut rng = SplitMix64::new(1);
    let mut arcs = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(1000) < 100 {
                arcs.push(if rng.below(2) == 0 { (u, v) } else { (v, u) });
            }
        }
    }
    let g = graph(n, &arcs);
    for e in on_deadline(&g, Duration::from_secs(2), alpha) {
        let KernelError::AlphaLimit { limit: Limit::Time, best, bound } = e else {
            panic!("{e:?}")
        };
        assert_eq!(internally_stable(&g, &best.set).unwrap(), Ok(()));
        assert!(best.size >= 40 && best.size < bound && bound <= n, "{} {bound}", best.size);
    }
}

/// 2000 vertices of average out-degree 3: β is about 570, and the LP bound is several
/// short of it.
#[test]
fn the_deadline_ends_the_beta_search_within_ten_percent() {
    let n = 2000u64;
    let mut rng = SplitMix64::new(1);
    let mut arcs = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v && rng.below(n - 1) < 3 {
                arcs.push((u as usize, v as usize));
            }
        }
    }
    let g = graph(n as usize, &arcs);
    for e in on_deadline(&g, Duration::from_secs(3), beta) {
        let KernelError::BetaLimit { limit: Limit::Time, best, bound } = e else { panic!("{e:?}") };
        assert_eq!(externally_stable(&g, &best.set).unwrap(), Ok(()));
        assert!(bound < best.size && best.size <= 700, "{bound} {}", best.size);
    }
}
