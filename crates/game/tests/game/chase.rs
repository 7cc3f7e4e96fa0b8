//! The chase on a ring: a loopy game with draws, against the definition.

use std::collections::HashMap;

use gamegraph_game::games::Chase;
use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame, Terminal};

use crate::common;
use crate::common::Column;

/// A state of the independent rules: cat, mouse, whether the mouse is to move.
type State = (usize, usize, bool);

/// Independent rules: every state on a ring of `n`, and the moves of each.
fn explicit(n: usize) -> (Vec<State>, Vec<Vec<usize>>) {
    let mut states = Vec::new();
    for cat in 0..n {
        for mouse in 0..n {
            for turn in [false, true] {
                states.push((cat, mouse, turn));
            }
        }
    }
    let id: HashMap<State, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let succ = states
        .iter()
        .map(|&(cat, mouse, mouse_moves)| {
            if cat == mouse {
                return vec![];
            }
            let steps = [(cat + n - 1) % n, (cat + 1) % n];
            if mouse_moves {
                [mouse, (mouse + n - 1) % n, (mouse + 1) % n]
                    .into_iter()
                    .filter(|&m| m != cat)
                    .map(|m| id[&(cat, m, false)])
                    .collect()
            } else {
                steps.into_iter().map(|c| id[&(c, mouse, true)]).collect()
            }
        })
        .collect();
    (states, succ)
}

#[test]
fn matches_the_definition_on_small_rings() {
    for n in 3..=9 {
        let (states, succ) = explicit(n);
        let oracle = common::fixpoint(&succ, &vec![Terminal::Loss; succ.len()]);
        for game in [Chase::new(n as u32).unwrap(), Chase::without_symmetry(n as u32).unwrap()] {
            let solved = SolvedGame::new(game.clone(), &ExploreConfig::default()).unwrap();
            for (i, &(cat, mouse, turn)) in states.iter().enumerate() {
                let p = game.position(cat as u32, mouse as u32, turn);
                if let Some(value) = solved.value(p) {
                    assert_eq!(value, oracle[i], "ring {n}: {}", game.show(p));
                }
            }
        }
    }
}

#[test]
fn draws_occur_from_four_cells() {
    let three = SolvedGame::new(Chase::new(3).unwrap(), &ExploreConfig::default()).unwrap();
    assert_eq!(three.start_outcome(), Outcome::Win);
    assert_eq!(three.solution().counts().draw, 0);
    for n in 4..=40 {
        let solved = SolvedGame::new(Chase::new(n).unwrap(), &ExploreConfig::default()).unwrap();
        assert_eq!(solved.start_outcome(), Outcome::Draw);
        assert_eq!(solved.start_remoteness(), None);
        let c = solved.solution().counts();
        assert!(c.draw > 0 && c.win > 0 && c.loss > 0, "{c:?}");
        let q = solved.query(solved.game().start()).unwrap();
        assert!(q.moves.iter().all(|m| m.outcome == Outcome::Draw));
    }
    // Next to the mouse, the cat to move catches it.
    let g = Chase::new(8).unwrap();
    let solved = SolvedGame::new(g.clone(), &ExploreConfig::default()).unwrap();
    let q = solved.query_str("CM...... c").unwrap();
    assert_eq!((q.outcome, q.remoteness), (Outcome::Win, Some(1)));
    assert_eq!(g.show(q.moves[0].position), ".X...... m");
}

#[test]
fn notation_round_trips_and_reports_columns() {
    let g = Chase::without_symmetry(6).unwrap();
    for cat in 0..6 {
        for mouse in 0..6 {
            for turn in [false, true] {
                let p = g.position(cat, mouse, turn);
                assert_eq!(g.parse(&g.show(p)), Ok(p));
            }
        }
    }
    assert_eq!(g.show(g.start()), "C..M.. c");
    assert_eq!(g.parse("C..Q.. c").unwrap_err().column(), 4);
    assert_eq!(g.parse("C..MM. c").unwrap_err().column(), 5);
    assert_eq!(g.parse("C..M. c").unwrap_err().column(), 6);
    assert_eq!(g.parse("C..M..").unwrap_err().column(), 7);
    assert_eq!(g.parse("......").unwrap_err().column(), 1);
    assert!(Chase::new(2).is_err() && Chase::new(256).is_err());
}

#[test]
fn equals_the_win_loss_draw_solver_on_its_graph() {
    for n in [3, 4, 7, 12] {
        let solved =
            SolvedGame::new(Chase::without_symmetry(n).unwrap(), &ExploreConfig::default())
                .unwrap();
        let retro = gamegraph_retro::solve(solved.graph());
        for v in solved.graph().vertices() {
            assert_eq!(solved.solution().outcome(v), retro.outcome(v));
            assert_eq!(solved.solution().remoteness(v), retro.depth(v));
        }
    }
}
