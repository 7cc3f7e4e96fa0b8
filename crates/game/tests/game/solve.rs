//! The four-outcome solver against the definition (random games with cycles and every kind
//! of terminal), against `gamegraph_retro::solve` when every terminal is a loss, and its
//! optimal moves.

use gamegraph_game::{Outcome, Solution, Terminal, solve};
use gamegraph_graph::{Graph, Vertex};
use gamegraph_testkit::SplitMix64;
use proptest::prelude::*;

use crate::common;

/// A random game: `succ[v]` (self-loops, repeats and cycles allowed) and the terminal values.
fn random_game(
    rng: &mut SplitMix64,
    n: usize,
    max_degree: u64,
) -> (Vec<Vec<usize>>, Vec<Terminal>) {
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|_| (0..rng.below(max_degree + 1)).map(|_| rng.below(n as u64) as usize).collect())
        .collect();
    let terminal = (0..n)
        .map(|_| [Terminal::Win, Terminal::Loss, Terminal::Tie][rng.below(3) as usize])
        .collect();
    (succ, terminal)
}

fn graph_of(succ: &[Vec<usize>]) -> Graph {
    let arcs: Vec<(Vertex, Vertex)> = succ
        .iter()
        .enumerate()
        .flat_map(|(u, s)| s.iter().map(move |&v| (Vertex::from_index(u), Vertex::from_index(v))))
        .collect();
    Graph::from_arcs(succ.len(), &arcs).unwrap()
}

fn values(s: &Solution) -> Vec<(Outcome, Option<u32>)> {
    (0..s.len())
        .map(|v| (s.outcome(Vertex::from_index(v)), s.remoteness(Vertex::from_index(v))))
        .collect()
}

/// The optimal move of every vertex follows its outcome and remoteness.
fn check_best_moves(g: &Graph, s: &Solution) {
    for v in g.vertices() {
        let m = s.best_move(g, v);
        if g.out_degree(v) == 0 {
            assert_eq!(m, None);
            continue;
        }
        let m = m.expect("a position with moves has an optimal move");
        let want = match s.outcome(v) {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        };
        assert_eq!(s.outcome(m), want);
        if let Some(r) = s.remoteness(v) {
            assert_eq!(s.remoteness(m), Some(r - 1));
        }
    }
}

fn check(succ: &[Vec<usize>], terminal: &[Terminal]) {
    let g = graph_of(succ);
    let s = solve(&g, |v| terminal[v.index()]);
    assert_eq!(values(&s), common::fixpoint(succ, terminal));
    check_best_moves(&g, &s);
    // With every terminal a loss, the outcomes and depths of the win/lose/draw solver.
    let s = solve(&g, |_| Terminal::Loss);
    let r = gamegraph_retro::solve(&g);
    for v in g.vertices() {
        assert_eq!(s.outcome(v), r.outcome(v));
        assert_eq!(s.remoteness(v), r.depth(v));
    }
}

#[test]
fn random_games_match_the_definition() {
    let mut rng = SplitMix64::new(2026);
    for round in 0..600 {
        let n = 1 + rng.below(40) as usize;
        let degree = [1, 2, 3, 5][round % 4];
        let (succ, terminal) = random_game(&mut rng, n, degree);
        check(&succ, &terminal);
    }
}

#[test]
fn all_four_outcomes_occur() {
    // 0 -> 1 (a tie), 0 -> 2 <-> 3 (a cycle), 3 -> 4 (lost for the player there).
    let succ = vec![vec![1, 2], vec![], vec![3], vec![2, 4], vec![], vec![5]];
    let terminal = vec![
        Terminal::Loss,
        Terminal::Tie,
        Terminal::Loss,
        Terminal::Loss,
        Terminal::Loss,
        Terminal::Loss,
    ];
    let g = graph_of(&succ);
    let s = solve(&g, |v| terminal[v.index()]);
    assert_eq!(
        values(&s),
        vec![
            (Outcome::Win, Some(3)),
            (Outcome::Tie, Some(0)),
            (Outcome::Loss, Some(2)),
            (Outcome::Win, Some(1)),
            (Outcome::Loss, Some(0)),
            (Outcome::Draw, None),
        ]
    );
    let c = s.counts();
    assert_eq!((c.win, c.loss, c.tie, c.draw), (2, 2, 1, 1));
    check(&succ, &terminal);
}

#[test]
fn ties_are_reached_fast_and_beat_draws() {
    // 0 can tie in 1 (-> 1) or in 3 (-> 2 -> 3 -> 4), or draw (-> 5 <-> 6).
    let succ = vec![vec![1, 2, 5], vec![], vec![3], vec![4], vec![], vec![6], vec![5]];
    let terminal = vec![Terminal::Tie; 7];
    let g = graph_of(&succ);
    let s = solve(&g, |v| terminal[v.index()]);
    assert_eq!((s.outcome(Vertex(0)), s.remoteness(Vertex(0))), (Outcome::Tie, Some(1)));
    assert_eq!(s.best_move(&g, Vertex(0)), Some(Vertex(1)));
    assert_eq!(s.outcome(Vertex(5)), Outcome::Draw);
    assert_eq!(s.best_move(&g, Vertex(5)), Some(Vertex(6)));
    check(&succ, &terminal);
}

proptest! {
    #[test]
    fn prop_random_games_match_the_definition(
        (succ, codes) in (1usize..24).prop_flat_map(|n| (
            proptest::collection::vec(proptest::collection::vec(0..n, 0..4), n),
            proptest::collection::vec(0u8..3, n),
        ))
    ) {
        let terminal: Vec<Terminal> =
            codes.iter().map(|&c| [Terminal::Win, Terminal::Loss, Terminal::Tie][c as usize]).collect();
        check(&succ, &terminal);
    }
}
