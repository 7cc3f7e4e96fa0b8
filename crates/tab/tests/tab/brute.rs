//! Independent oracles: a generic retrograde analysis of the board's explicit game graph
//! and the plain min-max table, against the crate's O(M) rows and extrapolation.

use std::collections::VecDeque;

use gamegraph_tab::{Board, Config, Outcome, solve, solve_cell};
use proptest::prelude::*;

/// Retrograde analysis on the explicit graph (vertices = cells, arcs = moves), knowing
/// nothing of rows: returns (outcome is win, depth) per cell, indexed `(x-1)*M + (y-1)`.
fn retrograde(board: Board) -> Vec<(bool, u64)> {
    let (n, m) = (board.rows() as usize, board.cols() as usize);
    let id = |x: u64, y: u32| (x as usize - 1) * m + (y as usize - 1);
    let mut succ = vec![Vec::new(); n * m];
    let mut pred = vec![Vec::new(); n * m];
    for x in 1..=board.rows() {
        for y in 1..=board.cols() {
            let c = board.cell(x, y).unwrap();
            for s in board.successors(c) {
                succ[id(x, y)].push(id(s.row, s.col));
                pred[id(s.row, s.col)].push(id(x, y));
            }
        }
    }
    let mut label: Vec<Option<(bool, u64)>> = vec![None; n * m];
    let mut left: Vec<usize> = succ.iter().map(Vec::len).collect();
    let mut maxd = vec![0u64; n * m];
    let mut queue = VecDeque::new();
    for v in 0..n * m {
        if left[v] == 0 {
            label[v] = Some((false, 0));
            queue.push_back(v);
        }
    }
    // BFS by depth order: labels are final when popped (depths are non-decreasing).
    while let Some(v) = queue.pop_front() {
        let (win, d) = label[v].unwrap();
        for &u in &pred[v] {
            if label[u].is_some() {
                continue;
            }
            if !win {
                label[u] = Some((true, d + 1));
                queue.push_back(u);
            } else {
                left[u] -= 1;
                maxd[u] = maxd[u].max(d + 1);
                if left[u] == 0 {
                    label[u] = Some((false, maxd[u]));
                    queue.push_back(u);
                }
            }
        }
    }
    label.into_iter().map(|l| l.expect("the board game always ends")).collect()
}

/// The min-max table cell by cell, every successor enumerated (the definition, no rows).
fn minmax_table(board: Board) -> Vec<Vec<u64>> {
    let (n, m) = (board.rows(), board.cols());
    // depth[x][y], x from the top down.
    let mut depth = vec![vec![0u64; m as usize + 1]; n as usize + 1];
    for x in (1..=n).rev() {
        for y in 1..=m {
            let c = board.cell(x, y).unwrap();
            let mut best_l: Option<u64> = None;
            let mut max_w: Option<u64> = None;
            for s in board.successors(c) {
                let d = depth[s.row as usize][s.col as usize];
                if d.is_multiple_of(2) {
                    best_l = Some(best_l.map_or(d, |b| b.min(d)));
                } else {
                    max_w = Some(max_w.map_or(d, |b| b.max(d)));
                }
            }
            depth[x as usize][y as usize] = match (best_l, max_w) {
                (Some(l), _) => l + 1,
                (None, Some(w)) => w + 1,
                (None, None) => 0,
            };
        }
    }
    depth
}

#[test]
fn the_10x4_examples() {
    let board = Board::new(10, 4).unwrap();
    let succ: Vec<_> = board.successors(board.cell(5, 3).unwrap()).collect();
    let want: Vec<_> = [(6, 1), (7, 2), (9, 4)].map(|(x, y)| board.cell(x, y).unwrap()).into();
    assert_eq!(succ, want);
    let cfg = Config::default();
    let v = solve_cell(board, board.cell(5, 3).unwrap(), &cfg, &mut |_| {}).unwrap();
    assert_eq!((v.outcome(), v.answer()), (Outcome::Loss, 0));
    let v = solve_cell(board, board.cell(4, 3).unwrap(), &cfg, &mut |_| {}).unwrap();
    assert_eq!((v.outcome(), v.depth(), v.answer()), (Outcome::Win, 3, 2));
    let sol = solve(board, &cfg, &mut |_| {}).unwrap();
    assert_eq!(sol.best_move(board.cell(4, 3).unwrap()).unwrap(), Some(board.cell(5, 1).unwrap()));
    assert_eq!(sol.line(board.cell(4, 3).unwrap(), 100, &cfg).unwrap().len(), 4);
}

/// Every board up to 40 × 10, every cell: outcome, depth and d against retrograde analysis
/// of the explicit graph, both by plain DP and by the period.
#[test]
fn every_small_board_matches_retrograde() {
    let plain = Config::default();
    let periodic = Config { store_rows: 0, ..Config::default() };
    for n in 1..=40 {
        for m in 1..=10 {
            let board = Board::new(n, m).unwrap();
            let truth = retrograde(board);
            for cfg in [plain, periodic] {
                let sol = solve(board, &cfg, &mut |_| {}).unwrap();
                for x in 1..=n {
                    for y in 1..=m {
                        let v = sol.value(board.cell(x, y).unwrap()).unwrap();
                        let (win, depth) = truth[(x as usize - 1) * m as usize + y as usize - 1];
                        assert_eq!(v.depth(), depth, "{n}x{m} ({x},{y})");
                        assert_eq!(v.outcome() == Outcome::Win, win, "{n}x{m} ({x},{y})");
                        let d = if win { depth.div_ceil(2) } else { 0 };
                        assert_eq!(v.answer(), d);
                    }
                }
            }
        }
    }
}

/// Extrapolation against plain DP: boards of 10^5 rows, every cell, M = 1..=50.
#[test]
fn extrapolation_matches_plain_dp() {
    let periodic = Config { store_rows: 0, ..Config::default() };
    for m in 1..=50 {
        let board = Board::new(100_000, m).unwrap();
        let plain = solve(board, &Config::default(), &mut |_| {}).unwrap();
        let ext = solve(board, &periodic, &mut |_| {}).unwrap();
        assert!(plain.period().is_none());
        let p = ext.period().expect("every M up to 50 has a period");
        assert!(p.start < 1_000 && p.length < 20_000, "{p:?}");
        for x in 1..=board.rows() {
            assert_eq!(plain.row_values(x).unwrap(), ext.row_values(x).unwrap(), "M={m} row {x}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any cell of a random board: the min-max table, plain DP, extrapolation and streaming
    /// DP agree.
    #[test]
    fn random_cells_agree(n in 1u64..400, m in 1u32..40, fx in 0.0f64..1.0, fy in 0.0f64..1.0) {
        let board = Board::new(n, m).unwrap();
        let x = 1 + ((n - 1) as f64 * fx) as u64;
        let y = 1 + ((m - 1) as f64 * fy) as u32;
        let cell = board.cell(x, y).unwrap();
        let table = minmax_table(board);
        let want = table[x as usize][y as usize];
        let plain = Config::default();
        let periodic = Config { store_rows: 0, ..Config::default() };
        let streaming = Config { extrapolate: false, store_rows: 0, ..Config::default() };
        for cfg in [plain, periodic, streaming] {
            prop_assert_eq!(solve_cell(board, cell, &cfg, &mut |_| {}).unwrap().depth(), want);
        }
    }
}
