//! Every clever algorithm of the crate against a naive oracle on small inputs.

use std::collections::HashMap;

use gamegraph_graph::{Graph, Vertex};
use gamegraph_grundy::{
    HeapGame, Method, Nimber, Outcome, Play, Value, grundy, loopy_grundy, loopy_grundy_in_pool,
    par_grundy, par_loopy_grundy, play_sum, single_heap, solve_heaps,
};
use gamegraph_testkit::{acyclic_graphs, graphs};
use proptest::prelude::*;

use crate::common::check_gsg;

/// Naive retrograde labelling by repeated sweeps: W if some follower is L, L if every
/// follower is W (terminal included), D for the rest. `moves(s)` lists the followers.
fn naive_outcomes(
    n: usize,
    moves: impl Fn(usize) -> Vec<usize>,
    terminal_wins: bool,
) -> Vec<Outcome> {
    let adj: Vec<Vec<usize>> = (0..n).map(&moves).collect();
    let mut out: Vec<Option<Outcome>> = vec![None; n];
    loop {
        let mut changed = false;
        for s in 0..n {
            if out[s].is_some() {
                continue;
            }
            let label = if adj[s].is_empty() {
                Some(if terminal_wins { Outcome::Win } else { Outcome::Loss })
            } else if adj[s].iter().any(|&t| out[t] == Some(Outcome::Loss)) {
                Some(Outcome::Win)
            } else if adj[s].iter().all(|&t| out[t] == Some(Outcome::Win)) {
                Some(Outcome::Loss)
            } else {
                None
            };
            if label.is_some() {
                out[s] = label;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out.into_iter().map(|o| o.unwrap_or(Outcome::Draw)).collect()
}

/// The Grundy value by the recursive definition, memoised (test oracle only).
fn recursive_grundy(g: &Graph, v: Vertex, memo: &mut HashMap<Vertex, u64>) -> u64 {
    if let Some(&x) = memo.get(&v) {
        return x;
    }
    let vals: Vec<u64> = g.successors(v).iter().map(|&w| recursive_grundy(g, w, memo)).collect();
    let x = (0..).find(|x| !vals.contains(x)).unwrap();
    memo.insert(v, x);
    x
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn dag_grundy_matches_the_recursive_definition(g in acyclic_graphs(1..=12, 3)) {
        let values = grundy(&g).unwrap();
        let mut memo = HashMap::new();
        for v in g.vertices() {
            prop_assert_eq!(values[v.index()].0, recursive_grundy(&g, v, &mut memo));
        }
        prop_assert_eq!(par_grundy(&g).unwrap(), values.clone());
        // Grundy 0 is exactly the retrograde L label.
        let naive = naive_outcomes(g.num_vertices(), |s| g.successors(Vertex(s as u32)).iter().map(|w| w.index()).collect(), false);
        for v in g.vertices() {
            prop_assert_eq!(values[v.index()].is_zero(), naive[v.index()] == Outcome::Loss);
        }
    }

    #[test]
    fn loopy_values_are_certified_and_decide_single_tokens(g in graphs(1..=9, 3)) {
        let values = loopy_grundy(&g);
        check_gsg(&g, &values);
        prop_assert_eq!(&par_loopy_grundy(&g), &values);
        // The pool's choice gives the same values for every thread count.
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            prop_assert_eq!(&pool.install(|| loopy_grundy_in_pool(&g)), &values);
        }
        let naive = naive_outcomes(g.num_vertices(), |s| g.successors(Vertex(s as u32)).iter().map(|w| w.index()).collect(), false);
        for v in g.vertices() {
            let play = play_sum(&g, &values, &[v]).unwrap();
            prop_assert_eq!(play.outcome, naive[v.index()], "vertex {:?} value {}", v, values.value(v));
        }
    }

    #[test]
    fn sums_of_tokens_match_retrograde_analysis_of_the_explicit_sum(
        g in graphs(1..=6, 3),
        picks in prop::collection::vec(0usize..6, 1..=3),
    ) {
        let n = g.num_vertices();
        let tokens: Vec<Vertex> = picks.iter().map(|&p| Vertex((p % n) as u32)).collect();
        let t = tokens.len();
        let values = loopy_grundy(&g);
        // The explicit sum: states are t-tuples encoded in base n.
        let states = n.pow(t as u32);
        let decode = |mut s: usize| -> Vec<usize> { (0..t).map(|_| { let d = s % n; s /= n; d }).collect() };
        let encode = |d: &[usize]| -> usize { d.iter().rev().fold(0, |a, &x| a * n + x) };
        let naive = naive_outcomes(states, |s| {
            let d = decode(s);
            let mut out = Vec::new();
            for i in 0..t {
                for &w in g.successors(Vertex(d[i] as u32)) {
                    let mut e = d.clone();
                    e[i] = w.index();
                    out.push(encode(&e));
                }
            }
            out
        }, false);
        let start: Vec<usize> = tokens.iter().map(|v| v.index()).collect();
        let play = play_sum(&g, &values, &tokens).unwrap();
        prop_assert_eq!(play.outcome, naive[encode(&start)], "value {}", play.value);
        match play.best {
            None => prop_assert_eq!(play.outcome, Outcome::Loss),
            Some(mv) => {
                prop_assert_eq!(tokens[mv.token], mv.from);
                prop_assert!(g.successors(mv.from).contains(&mv.to));
                let mut after = start.clone();
                after[mv.token] = mv.to.index();
                let want = if play.outcome == Outcome::Win { Outcome::Loss } else { Outcome::Draw };
                prop_assert_eq!(naive[encode(&after)], want);
            }
        }
        // The sum's value: finite exactly when every token is finite.
        prop_assert_eq!(matches!(play.value, Value::Finite(_)), tokens.iter().all(|&v| values.finite(v).is_some()));
    }

    #[test]
    fn heap_sums_match_exhaustive_search(
        heaps in prop::collection::vec((0u64..9, 1u64..5), 1..=4),
        limited in any::<bool>(),
        misere in any::<bool>(),
        moore in 1u64..4,
    ) {
        let sizes: Vec<u64> = heaps.iter().map(|h| h.0).collect();
        let limits: Vec<u64> = heaps.iter().map(|h| h.1).collect();
        let play = if misere { Play::Misere } else { Play::Normal };
        let game = HeapGame {
            heaps: sizes.clone(),
            limits: limited.then(|| limits.clone()),
            play,
            moore: Some(moore),
        };
        let cap = |i: usize| if limited { limits[i] } else { u64::MAX };
        // Brute force over every position below `sizes`.
        let p = sizes.len();
        let radix: Vec<usize> = sizes.iter().map(|&n| n as usize + 1).collect();
        let states: usize = radix.iter().product();
        let decode = |mut s: usize| -> Vec<u64> { (0..p).map(|i| { let d = s % radix[i]; s /= radix[i]; d as u64 }).collect() };
        let encode = |d: &[u64]| -> usize { (0..p).rev().fold(0, |a, i| a * radix[i] + d[i] as usize) };
        let naive = naive_outcomes(states, |s| {
            let d = decode(s);
            let mut out = Vec::new();
            // Every vector of takes with 1..=moore heaps touched.
            let mut take = vec![0u64; p];
            loop {
                let mut i = 0;
                while i < p && take[i] == cap(i).min(d[i]) { take[i] = 0; i += 1; }
                if i == p { break; }
                take[i] += 1;
                let used = take.iter().filter(|&&x| x > 0).count() as u64;
                if used >= 1 && used <= moore {
                    let e: Vec<u64> = (0..p).map(|j| d[j] - take[j]).collect();
                    out.push(encode(&e));
                }
            }
            out
        }, misere);
        let answer = solve_heaps(&game).unwrap();
        prop_assert_eq!(answer.outcome, naive[encode(&sizes)]);
        if answer.outcome == Outcome::Win && sizes.iter().any(|&n| n > 0) {
            prop_assert!(!answer.moves.is_empty());
        }
        if !answer.moves.is_empty() {
            prop_assert!(answer.moves.len() as u64 <= moore);
            let mut after = sizes.clone();
            for mv in &answer.moves {
                prop_assert!(mv.take >= 1 && mv.take <= cap(mv.heap).min(sizes[mv.heap]));
                after[mv.heap] -= mv.take;
            }
            prop_assert_eq!(naive[encode(&after)], Outcome::Loss);
        }
        let binding = limited && moore >= 2 && (0..p).any(|i| limits[i] < sizes[i]);
        prop_assert_eq!(answer.method == Method::Search, binding);
    }
}

#[test]
fn single_heap_congruence_equals_the_kernel_answer() {
    for play in [Play::Normal, Play::Misere] {
        for k in 1..=6u32 {
            for n in 0..=30u32 {
                let g = heap_graph(n, k, play);
                // The kernel search engine of crates/kernel, independent of the Grundy code;
                // an acyclic graph has exactly one kernel, its set of Grundy-0 vertices.
                let cfg = gamegraph_kernel::Config::default();
                assert_eq!(gamegraph_kernel::count_kernels(&g, &cfg).unwrap().count, 1);
                let kernel = gamegraph_kernel::find_kernel(&g, &cfg).unwrap().kernel.unwrap();
                let values = grundy(&g).unwrap();
                for (v, value) in values.iter().enumerate() {
                    assert_eq!(kernel[v], value.is_zero(), "{play:?} n={n} k={k} vertex {v}");
                }
                let from_kernel =
                    single_heap_from_kernel(u64::from(n), u64::from(k), |x| kernel[x as usize]);
                assert_eq!(
                    single_heap(u64::from(n), u64::from(k), play),
                    from_kernel,
                    "{play:?} n={n} k={k}"
                );
            }
        }
    }
}

#[test]
fn heap_games_worked_by_hand() {
    // k = 4, n = 15: the kernel is {15, 10, 5, 0}, and 15 is lost.
    let g = heap_graph(15, 4, Play::Normal);
    let values = grundy(&g).unwrap();
    let kernel: Vec<usize> = (0..=15).filter(|&x| values[x].is_zero()).collect();
    assert_eq!(kernel, [0, 5, 10, 15]);
    assert_eq!(single_heap(15, 4, Play::Normal), (Outcome::Loss, None));
    // 17 objects, take 1..4: take 2, leaving 15.
    assert_eq!(single_heap(17, 4, Play::Normal), (Outcome::Win, Some(2)));
    // 9 objects, take 1..2: lost (9 ≡ 0 mod 3).
    assert_eq!(single_heap(9, 2, Play::Normal), (Outcome::Loss, None));
    // Misère, 23 objects, take 1..5: take 4, leaving 19 ≡ 1 (mod 6).
    assert_eq!(single_heap(23, 5, Play::Misere), (Outcome::Win, Some(4)));
    // A compound game: limits 2, 3, 4 …
    let game =
        HeapGame { heaps: vec![5, 7, 9], limits: Some(vec![2, 3, 4]), ..HeapGame::default() };
    let a = solve_heaps(&game).unwrap();
    assert_eq!(a.values, [2, 3, 4].map(Nimber));
    assert_eq!(a.digit_sum, Nimber(5));
}

#[test]
fn huge_heaps_and_many_heaps() {
    let n = 1_000_000_000_000_000_000u64;
    let game = HeapGame {
        heaps: vec![n, n - 1, u64::MAX],
        limits: Some(vec![u64::MAX, 6, u64::MAX - 1]),
        play: Play::Misere,
        moore: None,
    };
    let a = solve_heaps(&game).unwrap();
    assert_eq!(a.values[0], Nimber(n));
    assert_eq!(a.values[2], Nimber(0));
    let game = HeapGame { heaps: vec![u64::MAX; 3], moore: Some(2), ..HeapGame::default() };
    assert_eq!(solve_heaps(&game).unwrap().outcome, Outcome::Loss);
    let game = HeapGame { heaps: (0..100_000).collect(), ..HeapGame::default() };
    // 0 ⊕ 1 ⊕ … ⊕ 99999 = 0 (the count is a multiple of 4).
    assert_eq!(solve_heaps(&game).unwrap().outcome, Outcome::Loss);
}

/// The game graph of one heap of `n` with moves of 1..=`k`, for reading the answer off its
/// kernel: vertex x is the heap of x objects, with arcs x → x − t for 1 ≤ t ≤ min(k, x).
/// In misère play one more vertex n + 1 ("the game is over, the player to move has won")
/// gets an arc from 0, so that the kernel is again the set of lost positions.
///
fn heap_graph(n: u32, k: u32, play: Play) -> gamegraph_graph::Graph {
    use gamegraph_graph::{Graph, Vertex};
    let mut arcs = Vec::new();
    for x in 0..=n {
        for t in 1..=k.min(x) {
            arcs.push((Vertex(x), Vertex(x - t)));
        }
    }
    let mut vertices = n as usize + 1;
    if play == Play::Misere {
        arcs.push((Vertex(0), Vertex(n + 1)));
        vertices += 1;
    }
    Graph::from_arcs(vertices, &arcs).expect("arcs within 0..=n+1")
}

/// The winning take from a heap of `n`, read off the kernel of [`heap_graph`]: the player
/// to move loses iff `n` is in the kernel, and otherwise moves into it.
fn single_heap_from_kernel(
    n: u64,
    k: u64,
    in_kernel: impl Fn(u64) -> bool,
) -> (Outcome, Option<u64>) {
    if in_kernel(n) {
        return (Outcome::Loss, None);
    }
    match (1..=k.min(n)).find(|&t| in_kernel(n - t)) {
        Some(t) => (Outcome::Win, Some(t)),
        // Only the misère terminal position: out of the kernel, but it has no move.
        None => (Outcome::Win, None),
    }
}
