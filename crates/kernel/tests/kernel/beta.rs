//! β against a second, plain algorithm on random digraphs of 15 to 40 vertices, and β's
//! answer and witness on every thread count.

use gamegraph_graph::Graph;
use gamegraph_kernel::{Config, StableSet, beta, externally_stable};
use gamegraph_testkit::graphs;
use proptest::prelude::*;

/// The closed out-neighbourhood of every vertex as a bit mask.
fn absorbers(g: &Graph) -> Vec<u64> {
    g.vertices()
        .map(|v| g.successors(v).iter().fold(1u64 << v.index(), |m, w| m | 1 << w.index()))
        .collect()
}

/// The smallest absorbing set, by plain branching: the first vertex not yet absorbed is
/// absorbed by itself or by one of its successors; no bound but the best found so far.
fn plain_beta(g: &Graph) -> usize {
    fn go(out: &[u64], chosen: u64, size: usize, best: &mut usize) {
        if size >= *best {
            return;
        }
        let n = out.len();
        let Some(x) = (0..n).find(|&x| out[x] & chosen == 0) else {
            *best = size;
            return;
        };
        if size + 1 >= *best {
            return;
        }
        let mut m = out[x];
        while m != 0 {
            let y = m.trailing_zeros();
            m &= m - 1;
            go(out, chosen | 1 << y, size + 1, best);
        }
    }
    let out = absorbers(g);
    let mut best = out.len();
    go(&out, 0, 0, &mut best);
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn beta_agrees_with_plain_branching(g in graphs(15..=40, 4)) {
        let b = beta(&g, &Config::default()).unwrap();
        prop_assert_eq!(externally_stable(&g, &b.set).unwrap(), Ok(()));
        prop_assert_eq!(b.size, b.set.count_ones());
        prop_assert_eq!(b.size, plain_beta(&g));
    }

    #[test]
    fn beta_is_the_same_on_one_two_and_three_threads(g in graphs(15..=40, 3)) {
        let runs = beta_on_1_2_3_threads(&g);
        prop_assert_eq!(&runs[0], &runs[1]);
        prop_assert_eq!(&runs[0], &runs[2]);
    }
}

/// β of `g` on pools of one, two and three threads.
fn beta_on_1_2_3_threads(g: &Graph) -> Vec<StableSet> {
    [1, 2, 3]
        .into_iter()
        .map(|t| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            pool.install(|| beta(g, &Config::default()).unwrap())
        })
        .collect()
}

/// Random digraphs of a few thousand vertices and twice as many arcs, whose parts are large
/// enough for the root's local search to run alongside the linear program with cuts: the
/// same answer on one, two and three threads.
#[test]
fn large_parts_give_the_same_answer_on_one_two_and_three_threads() {
    let mut rng = gamegraph_testkit::SplitMix64::new(2026);
    for n in [3000, 6000, 10000] {
        let g = gamegraph_testkit::random_graph(&mut rng, n, 2 * n, false);
        let runs = beta_on_1_2_3_threads(&g);
        assert_eq!(externally_stable(&g, &runs[0].set).unwrap(), Ok(()));
        assert_eq!(runs[0], runs[1], "{n} vertices");
        assert_eq!(runs[0], runs[2], "{n} vertices");
    }
}
