//! Tic-tac-toe: counts, an independent minimax, symmetry on and off, notation.

use std::collections::HashMap;

use gamegraph_game::games::TicTacToe;
use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame};

use crate::common;
use crate::common::Column;

/// Independent rules: cells 0..9 row by row, 0 empty, 1 X, 2 O.
fn winner(b: &[u8; 9]) -> bool {
    const L: [[usize; 3]; 8] =
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    L.iter().any(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
}

fn minimax(b: [u8; 9], memo: &mut HashMap<[u8; 9], (Outcome, u32)>) -> (Outcome, u32) {
    if let Some(&v) = memo.get(&b) {
        return v;
    }
    let marks = b.iter().filter(|&&c| c != 0).count();
    let v = if winner(&b) {
        (Outcome::Loss, 0)
    } else if marks == 9 {
        (Outcome::Tie, 0)
    } else {
        let me = if marks.is_multiple_of(2) { 1 } else { 2 };
        let children: Vec<(Outcome, u32)> = (0..9)
            .filter(|&c| b[c] == 0)
            .map(|c| {
                let mut n = b;
                n[c] = me;
                minimax(n, memo)
            })
            .collect();
        common::minimax_step(&children)
    };
    memo.insert(b, v);
    v
}

fn board(s: &str) -> [u8; 9] {
    let cells: Vec<u8> = s
        .chars()
        .filter(|&c| c != '/')
        .map(|c| match c {
            'X' => 1,
            'O' => 2,
            _ => 0,
        })
        .collect();
    cells.try_into().unwrap()
}

#[test]
fn counts_with_and_without_symmetry() {
    let sym = SolvedGame::new(TicTacToe::new(), &ExploreConfig::default()).unwrap();
    let plain = SolvedGame::new(TicTacToe::without_symmetry(), &ExploreConfig::default()).unwrap();
    assert_eq!(sym.len(), 765);
    assert_eq!(plain.len(), 5478);
    assert_eq!(sym.start_outcome(), Outcome::Tie);
    assert_eq!(sym.start_remoteness(), Some(9));
}

#[test]
fn every_position_matches_minimax() {
    let plain = SolvedGame::new(TicTacToe::without_symmetry(), &ExploreConfig::default()).unwrap();
    let mut memo = HashMap::new();
    for &p in plain.positions() {
        let (o, r) = minimax(board(&plain.game().show(p)), &mut memo);
        assert_eq!(plain.value(p), Some((o, Some(r))), "{}", plain.game().show(p));
    }
    assert_eq!(memo.len(), 5478);
}

#[test]
fn symmetry_on_and_off_agree() {
    let sym = SolvedGame::new(TicTacToe::new(), &ExploreConfig::default()).unwrap();
    let plain = SolvedGame::new(TicTacToe::without_symmetry(), &ExploreConfig::default()).unwrap();
    for &p in plain.positions() {
        assert_eq!(sym.value(p), plain.value(p));
        let (a, b) = (sym.query(p).unwrap(), plain.query(p).unwrap());
        assert_eq!(a, b);
    }
    let counts = sym.solution().counts();
    assert_eq!(counts.win + counts.loss + counts.tie, 765);
    assert_eq!(counts.draw, 0);
}

#[test]
fn query_lists_moves_best_first() {
    let sym = SolvedGame::new(TicTacToe::new(), &ExploreConfig::default()).unwrap();
    let q = sym.query_str("X../.O./...").unwrap();
    assert_eq!(q.outcome, Outcome::Tie);
    assert_eq!(q.moves.len(), 7);
    assert!(q.moves.iter().all(|m| m.outcome == Outcome::Tie));
    let q = sym.query_str("XO./.../...").unwrap();
    assert_eq!((q.outcome, q.remoteness), (Outcome::Win, Some(5)));
    assert_eq!(q.moves[0].outcome, Outcome::Win);
    assert_eq!(q.moves[0].remoteness, Some(4));
    let last = q.moves.last().unwrap();
    assert_eq!(last.outcome, Outcome::Tie);
    // A finished position has no moves.
    let q = sym.query_str("XXX/OO./...").unwrap();
    assert_eq!((q.outcome, q.remoteness, q.moves.len()), (Outcome::Loss, Some(0), 0));
    // Reachable boards only.
    let err = sym.query_str("XXX/OOO/...").unwrap_err();
    assert!(err.to_string().contains("cannot be reached"), "{err}");
}

#[test]
fn notation_round_trips_and_reports_columns() {
    let g = TicTacToe::new();
    let plain = SolvedGame::new(TicTacToe::without_symmetry(), &ExploreConfig::default()).unwrap();
    for &p in plain.positions() {
        assert_eq!(g.parse(&g.show(p)), Ok(p));
    }
    assert_eq!(g.parse("x-o-x-o--").map(|p| g.show(p)), Ok("X.O/.X./O..".to_string()));
    let e = g.parse("XO./.Z./...").unwrap_err();
    assert_eq!(e.column(), 6);
    assert!(e.message().contains("'Z'"), "{e}");
    assert_eq!(g.parse("XO./...").unwrap_err().column(), 8);
    assert_eq!(g.parse("XX./.../...").unwrap_err().column(), 1);
    assert_eq!(g.parse("XO./.../..../").unwrap_err().column(), 12);
}

#[test]
fn the_first_move_listed_is_optimal() {
    for game in [TicTacToe::new(), TicTacToe::without_symmetry()] {
        let solved = SolvedGame::new(game, &ExploreConfig::default()).unwrap();
        for &p in solved.positions() {
            let q = solved.query(p).unwrap();
            let Some(best) = q.moves.first() else {
                assert_eq!(q.remoteness, Some(0));
                continue;
            };
            assert_eq!(best.outcome, q.outcome);
            assert_eq!(best.remoteness.map(|r| r + 1), q.remoteness);
            let v = solved.vertex(p).unwrap();
            let m = solved.solution().best_move(solved.graph(), v).unwrap();
            assert_eq!(solved.value(solved.explored().position(m)), solved.value(best.position));
        }
    }
}
