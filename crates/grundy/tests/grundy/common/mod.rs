//! Certificates shared by the integration tests.

use gamegraph_graph::{Graph, Vertex};

/// Checks the three defining conditions of the generalised Sprague–Grundy function
/// (A mex, B reversal with a smaller counter, C infinite vertices) — a certificate.
pub(crate) fn check_gsg(g: &Graph, values: &gamegraph_grundy::LoopyValues) {
    const INF: u64 = u64::MAX;
    let gamma = |v: Vertex| values.finite(v).map_or(INF, |x| x.0);
    for u in g.vertices() {
        let finite: Vec<u64> =
            g.successors(u).iter().map(|&w| gamma(w)).filter(|&x| x != INF).collect();
        let mex = (0..).find(|x| !finite.contains(x)).unwrap();
        match values.finite(u) {
            Some(a) => {
                assert_eq!(a.0, mex, "A at {u:?}");
                if values.all_finite() {
                    continue;
                }
                let cu = values.counter(u).expect("finite vertices have a counter");
                for &v in g.successors(u) {
                    if gamma(v) > a.0 {
                        assert!(
                            g.successors(v)
                                .iter()
                                .any(|&w| gamma(w) == a.0 && values.counter(w).unwrap() < cu),
                            "B at {u:?} -> {v:?}"
                        );
                    }
                }
            }
            None => {
                assert!(
                    g.successors(u)
                        .iter()
                        .any(|&v| { gamma(v) == INF && !values.infinite_set(v).contains(&mex) }),
                    "C at {u:?}"
                );
                let mut k = finite.clone();
                k.sort_unstable();
                k.dedup();
                assert_eq!(values.infinite_set(u), &k[..]);
            }
        }
    }
}
