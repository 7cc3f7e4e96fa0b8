//! Loopy outcomes against `gamegraph-retro` on the explicit graph of the sum.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_grundy::{Outcome, loopy_grundy, play_sum};
use gamegraph_testkit::graphs;
use proptest::prelude::*;

/// The explicit sum of `t` copies of `g`: state (v₁, …, v_t) in base n.
fn sum_graph(g: &Graph, t: usize) -> Graph {
    let n = g.num_vertices();
    let states = n.pow(t as u32);
    let mut arcs = Vec::new();
    for s in 0..states {
        let mut d = Vec::with_capacity(t);
        let mut x = s;
        for _ in 0..t {
            d.push(x % n);
            x /= n;
        }
        for (i, &di) in d.iter().enumerate() {
            let weight = n.pow(i as u32);
            for &w in g.successors(Vertex(di as u32)) {
                let to = s - di * weight + w.index() * weight;
                arcs.push((Vertex(s as u32), Vertex(to as u32)));
            }
        }
    }
    Graph::from_arcs(states, &arcs).unwrap()
}

fn same(a: Outcome, b: gamegraph_retro::Outcome) -> bool {
    matches!(
        (a, b),
        (Outcome::Win, gamegraph_retro::Outcome::Win)
            | (Outcome::Loss, gamegraph_retro::Outcome::Loss)
            | (Outcome::Draw, gamegraph_retro::Outcome::Draw)
    )
}

/// Every position of the sum of `t` copies of `g`: its outcome and best move against
/// retrograde analysis of the explicit sum.
fn check_sum(g: &Graph, t: usize) -> Result<(), TestCaseError> {
    let n = g.num_vertices();
    let values = loopy_grundy(g);
    let big = sum_graph(g, t);
    let solution = gamegraph_retro::solve(&big);
    for s in 0..big.num_vertices() {
        let tokens: Vec<Vertex> =
            (0..t).map(|i| Vertex(((s / n.pow(i as u32)) % n) as u32)).collect();
        let play = play_sum(g, &values, &tokens).unwrap();
        let truth = solution.outcome(Vertex(s as u32));
        prop_assert!(
            same(play.outcome, truth),
            "tokens {:?}: {} vs {:?}",
            tokens,
            play.value,
            truth
        );
        if let Some(mv) = play.best {
            let i = mv.token;
            let to = s - tokens[i].index() * n.pow(i as u32) + mv.to.index() * n.pow(i as u32);
            let want = if play.outcome == Outcome::Win { Outcome::Loss } else { Outcome::Draw };
            prop_assert!(same(want, solution.outcome(Vertex(to as u32))));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn smith_rules_match_retro_on_the_explicit_sum(g in graphs(1..=6, 2), t in 1usize..=3) {
        check_sum(&g, t)?;
    }
}

/// A case proptest once shrank a failure to: one vertex with a self-loop, one token.
#[test]
fn a_single_self_loop() {
    check_sum(&gamegraph_testkit::graph(1, &[(0, 0)]), 1).unwrap();
}
