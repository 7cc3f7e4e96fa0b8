//! The tab board equals `gamegraph-retro` on its explicit game graph: every board up to
//! 40 × 10, every cell's outcome, depth and d, both by plain DP and by the period.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_tab::{Board, Config, Outcome, solve};

fn explicit_graph(board: Board) -> Graph {
    let m = board.cols() as usize;
    let id = |x: u64, y: u32| Vertex::from_index((x as usize - 1) * m + (y as usize - 1));
    let mut arcs = Vec::new();
    for x in 1..=board.rows() {
        for y in 1..=board.cols() {
            for s in board.successors(board.cell(x, y).unwrap()) {
                arcs.push((id(x, y), id(s.row, s.col)));
            }
        }
    }
    Graph::from_arcs(board.rows() as usize * m, &arcs).unwrap()
}

#[test]
fn every_board_up_to_40_by_10_matches_retro() {
    let plain = Config::default();
    let periodic = Config { store_rows: 0, ..Config::default() };
    for n in 1..=40u64 {
        for m in 1..=10u32 {
            let board = Board::new(n, m).unwrap();
            let g = explicit_graph(board);
            let truth = gamegraph_retro::solve(&g);
            for cfg in [plain, periodic] {
                let sol = solve(board, &cfg, &mut |_| {}).unwrap();
                for x in 1..=n {
                    for y in 1..=m {
                        let v = sol.value(board.cell(x, y).unwrap()).unwrap();
                        let vid =
                            Vertex::from_index((x as usize - 1) * m as usize + y as usize - 1);
                        let want = truth.outcome(vid);
                        assert_ne!(want, Outcome::Draw, "the board game has no draw");
                        assert_eq!(v.outcome(), want, "{n}x{m} ({x},{y})");
                        let depth = u64::from(truth.depth(vid).unwrap());
                        assert_eq!(v.depth(), depth, "{n}x{m} ({x},{y})");
                        let d = if want == Outcome::Win { depth.div_ceil(2) } else { 0 };
                        assert_eq!(v.answer(), d);
                    }
                }
            }
        }
    }
}
