//! α and β against small independent exact searches on random digraphs of up to 40
//! vertices, and the same answers on 1, 2 and 3 threads.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{Config, alpha, beta, externally_stable, internally_stable};
use gamegraph_testkit::{SplitMix64, random_graph};

/// Undirected neighbourhoods as masks (self-loops as a separate mask).
fn masks(g: &Graph) -> (Vec<u64>, u64, Vec<u64>) {
    let n = g.num_vertices();
    let mut adj = vec![0u64; n];
    let mut out = vec![0u64; n];
    let mut looped = 0u64;
    for (u, v) in g.arcs() {
        let (u, v) = (u.index(), v.index());
        if u == v {
            looped |= 1 << u;
        } else {
            adj[u] |= 1 << v;
            adj[v] |= 1 << u;
        }
        out[u] |= 1 << v;
    }
    (adj, looped, out)
}

/// α by plain include/exclude branching on a vertex of largest degree.
fn mis(adj: &[u64], p: u64) -> usize {
    if p == 0 {
        return 0;
    }
    let mut v = p.trailing_zeros() as usize;
    let mut best_deg = 0;
    let mut q = p;
    while q != 0 {
        let x = q.trailing_zeros() as usize;
        q &= q - 1;
        let d = (adj[x] & p).count_ones();
        if d > best_deg {
            best_deg = d;
            v = x;
        }
    }
    if best_deg == 0 {
        return p.count_ones() as usize;
    }
    let without = mis(adj, p & !(1 << v));
    let with = 1 + mis(adj, p & !(1 << v) & !adj[v]);
    without.max(with)
}

/// β by branching on the uncovered vertex with fewest coverers.
fn mds(cover: &[u64], absorbed_by: &[u64], uncovered: u64, taken: usize, best: &mut usize) {
    if uncovered == 0 {
        *best = (*best).min(taken);
        return;
    }
    if taken + 1 >= *best {
        return;
    }
    let mut pick = (u32::MAX, 0);
    let mut q = uncovered;
    while q != 0 {
        let x = q.trailing_zeros() as usize;
        q &= q - 1;
        let k = absorbed_by[x].count_ones();
        if k < pick.0 {
            pick = (k, x);
        }
    }
    let mut c = absorbed_by[pick.1];
    while c != 0 {
        let y = c.trailing_zeros() as usize;
        c &= c - 1;
        mds(cover, absorbed_by, uncovered & !cover[y], taken + 1, best);
    }
}

fn truth(g: &Graph) -> (usize, usize) {
    let n = g.num_vertices();
    let (adj, looped, out) = masks(g);
    let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let a = mis(&adj, all & !looped);
    let absorbed_by: Vec<u64> = (0..n).map(|x| out[x] | 1 << x).collect();
    let mut cover = vec![0u64; n];
    for (x, &by) in absorbed_by.iter().enumerate() {
        for (y, c) in cover.iter_mut().enumerate() {
            if by >> y & 1 == 1 {
                *c |= 1 << x;
            }
        }
    }
    let mut b = n;
    mds(&cover, &absorbed_by, all, 0, &mut b);
    (a, b)
}

fn check(g: &Graph) {
    let (a, b) = truth(g);
    let cfg = Config::default();
    let sa = alpha(g, &cfg).unwrap();
    assert_eq!(sa.size, a, "alpha on {g:?}");
    assert_eq!(sa.set.count_ones(), a);
    assert_eq!(internally_stable(g, &sa.set), Ok(Ok(())));
    let sb = beta(g, &cfg).unwrap();
    assert_eq!(sb.size, b, "beta on {g:?}");
    assert_eq!(sb.set.count_ones(), b);
    assert_eq!(externally_stable(g, &sb.set), Ok(Ok(())));
}

/// A digraph where each unordered pair gets one arc, in a random direction, with
/// probability `per_mille` / 1000.
fn one_arc_per_pair(rng: &mut SplitMix64, n: usize, per_mille: u64) -> Graph {
    let mut arcs = Vec::new();
    for u in 0..n as u32 {
        for v in u + 1..n as u32 {
            if rng.chance(per_mille) {
                arcs.push(if rng.chance(500) {
                    (Vertex(u), Vertex(v))
                } else {
                    (Vertex(v), Vertex(u))
                });
            }
        }
    }
    Graph::from_arcs(n, &arcs).unwrap()
}

#[test]
fn alpha_and_beta_agree_with_plain_searches_up_to_40_vertices() {
    let mut rng = SplitMix64::new(4242);
    for round in 0..300 {
        let n = 15 + round % 26;
        let per_mille = [30, 60, 100, 200, 400, 700, 900][round % 7];
        let g = one_arc_per_pair(&mut rng, n, per_mille);
        if n <= 30 || per_mille >= 200 {
            check(&g);
        } else {
            let (a, _) = truth_alpha_only(&g);
            assert_eq!(alpha(&g, &Config::default()).unwrap().size, a, "alpha on {g:?}");
        }
    }
}

fn truth_alpha_only(g: &Graph) -> (usize, ()) {
    let n = g.num_vertices();
    let (adj, looped, _) = masks(g);
    let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
    (mis(&adj, all & !looped), ())
}

#[test]
fn sparse_digraphs_with_loops_and_repeats_agree_up_to_30_vertices() {
    let mut rng = SplitMix64::new(99);
    for round in 0..400 {
        let n = 10 + round % 21;
        let m = n * (1 + round % 4);
        check(&random_graph(&mut rng, n, m, round % 5 == 0));
    }
}

fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
}

#[test]
fn answers_do_not_depend_on_the_number_of_threads() {
    let mut rng = SplitMix64::new(7);
    for round in 0..12 {
        let n = 40 + 10 * round;
        let g = one_arc_per_pair(&mut rng, n, [100, 300, 600][round % 3]);
        let small = one_arc_per_pair(&mut rng, 30 + round, 150);
        let sparse = random_graph(&mut rng, 20 * n, 30 * n, false);
        let mut sizes = Vec::new();
        for threads in 1..=3 {
            let (a, b, s) = on_threads(threads, || {
                let cfg = Config::default();
                (
                    alpha(&g, &cfg).unwrap(),
                    beta(&small, &cfg).unwrap(),
                    alpha(&sparse, &cfg).unwrap(),
                )
            });
            assert_eq!(internally_stable(&g, &a.set), Ok(Ok(())));
            assert_eq!(externally_stable(&small, &b.set), Ok(Ok(())));
            assert_eq!(internally_stable(&sparse, &s.set), Ok(Ok(())));
            sizes.push((a.size, b.size, s.size, a.set, s.set));
        }
        // Sizes, and also the α witnesses (the search picks one independently of the threads).
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "answers differ on round {round}");
    }
}
