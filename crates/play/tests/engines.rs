//! The engines over other solvers against independent answers: the tab board from the tab
//! solver against the same game explored and solved position by position; a graph with
//! only losing finishes from the retrograde solver against the four-outcome game solver.

use gamegraph_game::games::TabBoard;
use gamegraph_game::{ExploreConfig, Terminal};
use gamegraph_graph::format::Terminals;
use gamegraph_graph::{Graph, Vertex};
use gamegraph_play::{End, Engine, Session, engine};
use gamegraph_testkit::graphs;
use proptest::prelude::*;

/// Every position reachable from `a`'s start has the same value and moves in `b`.
fn same_values(a: &dyn Engine, b: &dyn Engine) {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![a.start()];
    assert_eq!(a.start(), b.start());
    while let Some(p) = todo.pop() {
        if !seen.insert(p) {
            continue;
        }
        assert_eq!(a.query(p).unwrap(), b.query(p).unwrap(), "at {}", a.show(p));
        todo.extend(a.moves(p));
    }
}

#[test]
fn the_tab_solver_engine_agrees_with_the_explored_game() {
    for rows in 1..=14 {
        for cols in 1..=6 {
            for (x, y) in [(1, 1), (1, cols), (rows / 2 + 1, cols / 2 + 1)] {
                let game = TabBoard::new(rows, cols, x, y).unwrap();
                let by_rows = engine::tab(game.clone()).unwrap();
                let explored = engine::solve(game, &ExploreConfig::default()).unwrap();
                same_values(by_rows.as_ref(), explored.as_ref());
                assert_eq!(by_rows.identity(), explored.identity());
            }
        }
    }
}

#[test]
fn a_tab_board_too_tall_to_play_is_refused() {
    let game = TabBoard::new(1 << 32, 4, 1, 1).unwrap();
    let e = engine::tab(game).err().unwrap().to_string();
    assert!(e.starts_with("a board of 4294967296 rows is too tall to play"), "{e}");
}

/// The graph with every vertex without arcs given the value loss, explicitly.
fn all_losses(g: &Graph) -> Terminals {
    let sinks: Vec<(Vertex, Terminal)> = (0..g.num_vertices())
        .map(Vertex::from_index)
        .filter(|&v| g.successors(v).is_empty())
        .map(|v| (v, Terminal::Loss))
        .collect();
    Terminals::new(g, &sinks).unwrap()
}

proptest! {
    #[test]
    fn a_graph_plays_the_same_from_either_solver(g in graphs(1..=12, 3)) {
        for v in 0..g.num_vertices() {
            let start = Vertex::from_index(v);
            let three = engine::graph(g.clone(), None, start);
            let four = engine::graph(g.clone(), Some(all_losses(&g)), start);
            same_values(three.as_ref(), four.as_ref());
        }
    }
}

#[test]
fn a_position_repeats_only_with_the_same_player_to_move() {
    // 1 <-> 2 and 3 -> 1: back at 1 after two plies with the same player to move.
    let arcs = [(0, 1), (1, 0), (2, 0)].map(|(u, v)| (Vertex(u), Vertex(v)));
    let g = Graph::from_arcs(3, &arcs).unwrap();
    let mut s = Session::new(engine::graph(g.clone(), None, Vertex(0))).unwrap();
    s.play("2").unwrap();
    assert_eq!(s.over(), None);
    s.play("1").unwrap();
    assert_eq!(s.over(), Some(End::Repeated));
    // From 3: 3 -> 1 -> 2 -> 1 repeats 1 after two plies, not 3's line at odd distance.
    let mut s = Session::new(engine::graph(g, None, Vertex(2))).unwrap();
    for m in ["1", "2"] {
        s.play(m).unwrap();
        assert_eq!(s.over(), None);
    }
    s.play("1").unwrap();
    assert_eq!(s.over(), Some(End::Repeated));
}
