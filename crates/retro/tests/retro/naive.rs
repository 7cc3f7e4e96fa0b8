//! `solve` against a deliberately naive fixpoint: the definition of win, loss and draw
//! (docs/games.md) applied round by round until nothing changes, on thousands of small
//! random graphs with cycles, self-loops, repeated arcs and isolated vertices.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_retro::{Outcome, par_solve, solve, verify};
use gamegraph_testkit::{graph, graphs};
use proptest::prelude::*;

/// Outcome, depth and optimal move of every vertex, computed the slow way.
type Naive = (Vec<Outcome>, Vec<Option<u32>>, Vec<Option<Vertex>>);

/// Round k labels L every unlabelled vertex all of whose successors were W after round
/// k - 1, and W every unlabelled vertex with a successor that was L; both get depth k.
/// Whatever is unlabelled when a round changes nothing is D. Moves come straight from
/// their definition.
fn naive(g: &Graph) -> Naive {
    let n = g.num_vertices();
    let succ: Vec<Vec<usize>> =
        g.vertices().map(|v| g.successors(v).iter().map(|w| w.index()).collect()).collect();
    let mut label: Vec<Option<(Outcome, u32)>> = vec![None; n];
    for k in 0.. {
        let prev = label.clone();
        for v in 0..n {
            if prev[v].is_some() {
                continue;
            }
            let is = |s: usize, o: Outcome| matches!(prev[s], Some((x, _)) if x == o);
            if succ[v].iter().any(|&s| is(s, Outcome::Loss)) {
                label[v] = Some((Outcome::Win, k));
            } else if succ[v].iter().all(|&s| is(s, Outcome::Win)) {
                label[v] = Some((Outcome::Loss, k));
            }
        }
        if label == prev {
            break;
        }
    }
    let outcome: Vec<Outcome> = label.iter().map(|l| l.map_or(Outcome::Draw, |(o, _)| o)).collect();
    let depth: Vec<Option<u32>> = label.iter().map(|l| l.map(|(_, d)| d)).collect();
    let moves = (0..n)
        .map(|v| {
            let candidates: Vec<usize> = match outcome[v] {
                Outcome::Win => {
                    let ls: Vec<usize> =
                        succ[v].iter().copied().filter(|&s| outcome[s] == Outcome::Loss).collect();
                    let best = ls.iter().map(|&s| depth[s].unwrap()).min().unwrap();
                    ls.into_iter().filter(|&s| depth[s] == Some(best)).collect()
                }
                Outcome::Loss => {
                    let best = succ[v].iter().map(|&s| depth[s].unwrap()).max();
                    succ[v].iter().copied().filter(|&s| depth[s] == best).collect()
                }
                Outcome::Draw => {
                    succ[v].iter().copied().filter(|&s| outcome[s] == Outcome::Draw).collect()
                }
                Outcome::Tie => unreachable!("this oracle labels only W, L and D"),
            };
            candidates.into_iter().min().map(|s| Vertex(s as u32))
        })
        .collect();
    (outcome, depth, moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// Up to 24 vertices (many isolated) and 3 arcs per vertex.
    #[test]
    fn solve_matches_the_naive_fixpoint(g in graphs(1..=24, 3)) {
        let s = solve(&g);
        prop_assert_eq!(verify(&g, &s), Ok(()));
        let (outcome, depth, moves) = naive(&g);
        for v in g.vertices() {
            prop_assert_eq!(s.outcome(v), outcome[v.index()], "outcome of {:?}", v);
            prop_assert_eq!(s.depth(v), depth[v.index()], "depth of {:?}", v);
            prop_assert_eq!(s.best_move(v), moves[v.index()], "move of {:?}", v);
        }
        prop_assert_eq!(par_solve(&g), s);
    }
}

#[test]
fn a_three_cycle_with_a_tail() {
    // 1->2, 2->3, 3->1, 1->4, 4->5 give 1, 2, 3 = D, 4 = W, 5 = L; start 1 draws.
    let g = graph(5, &[(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)]);
    let s = solve(&g);
    assert_eq!(
        s.outcomes(),
        &[Outcome::Draw, Outcome::Draw, Outcome::Draw, Outcome::Win, Outcome::Loss]
    );
    assert_eq!(s.outcome(Vertex(0)).code(), 0);
    assert_eq!(s.outcome(Vertex(3)).code(), 1);
    assert_eq!(s.outcome(Vertex(4)).code(), 2);
    let (outcome, depth, moves) = naive(&g);
    assert_eq!(s.outcomes(), &outcome[..]);
    assert_eq!(g.vertices().map(|v| s.depth(v)).collect::<Vec<_>>(), depth);
    assert_eq!(g.vertices().map(|v| s.best_move(v)).collect::<Vec<_>>(), moves);
}

#[test]
fn depths_hurry_and_delay() {
    // 0 -> 1 -> 2 -> 3 (3 terminal) and 0 -> 3: W at 0 takes the short win (depth 1);
    // 5 -> 6 -> 7 makes 7 L0, 6 W1, 5 L2; 4 -> {0 (W1), 5 (L2)} makes 4 W3, moving to 5.
    let g = graph(8, &[(0, 1), (1, 2), (2, 3), (0, 3), (4, 0), (4, 5), (5, 6), (6, 7)]);
    let s = solve(&g);
    assert_eq!(s.depth(Vertex(0)), Some(1));
    assert_eq!(s.best_move(Vertex(0)), Some(Vertex(3)));
    assert_eq!(s.outcome(Vertex(4)), Outcome::Win);
    assert_eq!(s.depth(Vertex(4)), Some(3));
    // 0 -> 3 and 1 -> 3 are W1; 2 -> {0, 1} is L2 and delays to the smallest id, 0.
    let g2 = graph(4, &[(0, 3), (1, 3), (2, 0), (2, 1)]);
    let s2 = solve(&g2);
    assert_eq!(s2.outcome(Vertex(2)), Outcome::Loss);
    assert_eq!(s2.depth(Vertex(2)), Some(2));
    assert_eq!(s2.best_move(Vertex(2)), Some(Vertex(0)));
    let line = s2.principal_variation(Vertex(2));
    assert_eq!(line.positions(), &[Vertex(2), Vertex(0), Vertex(3)]);
    assert_eq!(line.end(), gamegraph_retro::LineEnd::Terminal);
    assert_eq!(
        line.display(&s2).to_string(),
        "3 L\n1 W\n4 L\n# 4 has no move: the player to move there loses after 2 moves\n"
    );
    assert_eq!(s2.vertex_labels(), ["1\nW 1", "2\nW 1", "3\nL 2", "4\nL 0"]);
    assert_eq!(solve(&graph(1, &[(0, 0)])).vertex_labels(), ["1\nD"]);
    assert_eq!(s2.counts(), gamegraph_retro::Counts { win: 2, loss: 2, draw: 0 });
}
