//! The tab board against `gamegraph-tab`, heap games (octal `0.33…3`) against
//! `gamegraph-grundy`'s heap solver.

use crate::common::Column;
use gamegraph_game::games::{OctalRows, TabBoard};
use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame};
use gamegraph_grundy::{HeapGame, solve_heaps};
use gamegraph_tab::{Board, Config, solve_cell};

#[test]
fn tab_board_matches_the_tab_solver() {
    for (rows, cols) in [(10, 4), (30, 7), (25, 1), (40, 12)] {
        let board = Board::new(rows, cols).unwrap();
        for x in 1..=rows {
            for y in 1..=cols {
                let solved = SolvedGame::new(
                    TabBoard::new(rows, cols, x, y).unwrap(),
                    &ExploreConfig::default(),
                )
                .unwrap();
                let v =
                    solve_cell(board, board.cell(x, y).unwrap(), &Config::default(), &mut |_| {})
                        .unwrap();
                let want = if v.outcome() == gamegraph_graph::Outcome::Win {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                assert_eq!(solved.start_outcome(), want, "{rows}x{cols} ({x},{y})");
                assert_eq!(
                    solved.start_remoteness(),
                    Some(v.depth() as u32),
                    "{rows}x{cols} ({x},{y})"
                );
            }
        }
    }
    // The example of the rules: on 10 × 4, (5, 3) moves to (6, 1), (7, 2), (9, 4).
    let g = TabBoard::new(10, 4, 5, 3).unwrap();
    let mut moves = Vec::new();
    g.moves(g.start(), &mut moves);
    let shown: Vec<String> = moves.iter().map(|&p| g.show(p)).collect();
    assert_eq!(shown, ["6 1", "7 2", "9 4"]);
    assert_eq!(g.parse("7,2"), Ok(moves[1]));
    assert_eq!(g.parse("11 2").unwrap_err().column(), 1);
    assert_eq!(g.parse("7 5").unwrap_err().column(), 3);
    assert_eq!(g.parse("7 2 1").unwrap_err().column(), 5);
    assert_eq!(g.parse("7x2").unwrap_err().column(), 2);
    assert!(TabBoard::new(10, 4, 11, 1).is_err() && TabBoard::new(10, 0, 1, 1).is_err());
}

#[test]
fn heaps_with_a_take_limit_match_the_heap_solver() {
    for limit in 1..=4usize {
        let code = format!("0.{}", "3".repeat(limit));
        for heaps in [vec![7], vec![3, 5], vec![4, 4, 2], vec![6, 1, 2, 3], vec![9, 8]] {
            let game = OctalRows::new(code.parse().unwrap(), &heaps).unwrap();
            let solved = SolvedGame::new(game, &ExploreConfig::default()).unwrap();
            let answer = solve_heaps(&HeapGame {
                heaps: heaps.iter().map(|&h| u64::from(h)).collect(),
                limits: Some(vec![limit as u64; heaps.len()]),
                ..HeapGame::default()
            })
            .unwrap();
            assert_eq!(solved.start_outcome(), answer.outcome, "{code} {heaps:?}");
        }
    }
}
