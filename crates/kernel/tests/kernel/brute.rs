//! Every answer against trying all subsets, on random digraphs of up to 14 vertices.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{
    Config, VertexSet, alpha, beta, count_kernels, externally_stable, find_kernel,
    internally_stable, is_kernel, kernels, maximal_internally_stable, vertex_set,
};
use gamegraph_testkit::{SplitMix64, dense_graphs, random_dense_graph};
use proptest::prelude::*;

struct Truth {
    kernels: Vec<u32>,
    alpha: usize,
    beta: usize,
}

fn brute(g: &Graph) -> Truth {
    let n = g.num_vertices();
    let mut out = vec![0u32; n];
    let mut adj = vec![0u32; n];
    let mut looped = 0u32;
    for (u, v) in g.arcs() {
        out[u.index()] |= 1 << v.index();
        adj[u.index()] |= 1 << v.index();
        adj[v.index()] |= 1 << u.index();
        if u == v {
            looped |= 1 << u.index();
        }
    }
    let mut t = Truth { kernels: Vec::new(), alpha: 0, beta: n };
    for s in 0u32..(1 << n) {
        let size = s.count_ones() as usize;
        let internal = s & looped == 0 && (0..n).all(|v| s >> v & 1 == 0 || adj[v] & s == 0);
        let external = (0..n).all(|v| s >> v & 1 == 1 || out[v] & s != 0);
        if internal {
            t.alpha = t.alpha.max(size);
        }
        if external {
            t.beta = t.beta.min(size);
        }
        if internal && external {
            t.kernels.push(s);
        }
    }
    t
}

fn mask(set: &VertexSet) -> u32 {
    set.iter_ones().map(|i| 1u32 << i).sum()
}

/// Retrograde L set by the naive fixpoint: lost when every move goes to a won position
/// (independent of the crate).
fn naive_loss(g: &Graph) -> u32 {
    let n = g.num_vertices();
    let (mut win, mut loss) = (0u32, 0u32);
    loop {
        let before = (win, loss);
        for v in 0..n {
            let succ: Vec<usize> =
                g.successors(Vertex::from_index(v)).iter().map(|w| w.index()).collect();
            if succ.iter().any(|&w| loss >> w & 1 == 1) {
                win |= 1 << v;
            } else if succ.iter().all(|&w| win >> w & 1 == 1) {
                loss |= 1 << v;
            }
        }
        if (win, loss) == before {
            return loss;
        }
    }
}

fn acyclic(g: &Graph) -> bool {
    // Repeatedly remove sinks.
    let n = g.num_vertices();
    let mut gone = 0u32;
    loop {
        let before = gone;
        for v in 0..n {
            if gone >> v & 1 == 0
                && g.successors(Vertex::from_index(v)).iter().all(|w| gone >> w.index() & 1 == 1)
            {
                gone |= 1 << v;
            }
        }
        if gone == before {
            return gone.count_ones() as usize == n;
        }
    }
}

fn check_all(g: &Graph, probe: u64) {
    let cfg = Config::default();
    let t = brute(g);
    let n = g.num_vertices();
    let count = count_kernels(g, &cfg).unwrap();
    assert_eq!(count.count, t.kernels.len() as u128, "count on {g:?}");
    let listed: Vec<VertexSet> = kernels(g, &cfg).map(Result::unwrap).collect();
    let mut masks: Vec<u32> = listed.iter().map(mask).collect();
    for k in &listed {
        assert_eq!(is_kernel(g, k), Ok(Ok(())));
        assert_eq!(
            maximal_internally_stable(g, k),
            Ok(Ok(())),
            "a kernel is a maximal internally stable set"
        );
    }
    masks.sort_unstable();
    assert_eq!(masks, t.kernels, "all kernels on {g:?}");
    let found = find_kernel(g, &cfg).unwrap();
    match &found.kernel {
        Some(k) => assert!(t.kernels.contains(&mask(k))),
        None => assert!(t.kernels.is_empty(), "missed a kernel on {g:?}: {:?}", found.explanation),
    }
    let a = alpha(g, &cfg).unwrap();
    assert_eq!(a.size, t.alpha, "alpha on {g:?}");
    assert_eq!(a.set.count_ones(), a.size);
    assert_eq!(internally_stable(g, &a.set), Ok(Ok(())));
    let b = beta(g, &cfg).unwrap();
    assert_eq!(b.size, t.beta, "beta on {g:?}");
    assert_eq!(b.set.count_ones(), b.size);
    assert_eq!(externally_stable(g, &b.set), Ok(Ok(())));
    if t.alpha < t.beta {
        assert!(t.kernels.is_empty(), "alpha < beta: no kernel (Berge)");
    }
    if acyclic(g) {
        assert_eq!(t.kernels, vec![naive_loss(g)], "acyclic: unique kernel = L set");
        let retro = gamegraph_retro::solve(g);
        let l: u32 = (0..n)
            .filter(|&v| retro.outcome(Vertex::from_index(v)) == gamegraph_retro::Outcome::Loss)
            .map(|v| 1u32 << v)
            .sum();
        assert_eq!(t.kernels, vec![l], "acyclic: crates/retro's L set is the kernel");
        assert_eq!(found.explanation.decided, gamegraph_kernel::Decided::Acyclic);
    }
    // The checks agree with the definitions on an arbitrary set.
    let s = (probe & ((1u64 << n) - 1)) as u32;
    let set = vertex_set(n, (0..n).filter(|&v| s >> v & 1 == 1));
    let internal = internally_stable(g, &set).unwrap().is_ok();
    let external = externally_stable(g, &set).unwrap().is_ok();
    let t_internal = g.arcs().all(|(u, v)| !(s >> u.index() & 1 == 1 && s >> v.index() & 1 == 1));
    let t_external = (0..n).all(|v| {
        s >> v & 1 == 1
            || g.successors(Vertex::from_index(v)).iter().any(|w| s >> w.index() & 1 == 1)
    });
    assert_eq!((internal, external), (t_internal, t_external));
    assert_eq!(is_kernel(g, &set).unwrap().is_ok(), t.kernels.contains(&s));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn small_graphs_agree_with_all_subsets(g in dense_graphs(0..=9, 0..=1000), probe: u64) {
        check_all(&g, probe);
    }

    #[test]
    fn larger_graphs_agree_with_all_subsets(g in dense_graphs(10..=14, 0..=700), probe: u64) {
        check_all(&g, probe);
    }
}

#[test]
fn many_densities_sweep() {
    // A fixed sweep on top of the random cases: every size and 20 densities, sparse ones
    // (where cycles are long and kernels rare or many) weighted heavily.
    let mut seed = 1;
    for n in 1..=12 {
        for d in [
            30, 60, 90, 120, 150, 180, 210, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900, 950,
            1000, 15,
        ] {
            seed += 1;
            check_all(&random_dense_graph(&mut SplitMix64::new(seed * 7919), n, d), seed);
        }
    }
}

#[test]
fn nothing_is_left_unchecked_on_wrong_lengths() {
    let g = random_dense_graph(&mut SplitMix64::new(1), 3, 500);
    assert!(is_kernel(&g, &vertex_set(2, [0])).is_err());
}
