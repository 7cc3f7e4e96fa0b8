//! Snapshot tests over `fixtures/tab/*.inp`: every test's board is first checked against
//! the min-max certificate, then its drawing, answer and optimal line are snapshotted.

use std::fmt::Write as _;

use gamegraph_tab::{
    Board, Config, Outcome, Solution, parse_tests, render_grid, render_svg, solve,
};

/// Every cell: a won cell has a lost successor one ply shallower and none shallower; a lost
/// cell has only won successors, the deepest one ply shallower (or none, at depth 0).
fn check_certificate(board: Board, sol: &Solution) {
    for x in 1..=board.rows() {
        for y in 1..=board.cols() {
            let c = board.cell(x, y).unwrap();
            let d = sol.value(c).unwrap().depth();
            let succ: Vec<_> = board.successors(c).map(|s| sol.value(s).unwrap()).collect();
            match sol.value(c).unwrap().outcome() {
                Outcome::Win => {
                    let best = succ
                        .iter()
                        .filter(|v| v.outcome() == Outcome::Loss)
                        .map(|v| v.depth())
                        .min();
                    assert_eq!(best, Some(d - 1), "won cell {c} of {board}");
                }
                Outcome::Loss => {
                    assert!(succ.iter().all(|v| v.outcome() == Outcome::Win), "lost cell {c}");
                    let deepest = succ.iter().map(|v| v.depth()).max();
                    assert_eq!(deepest.map_or(0, |m| m + 1), d, "lost cell {c} of {board}");
                }
                Outcome::Draw => panic!("cell {c} of {board} is a draw: the game always ends"),
            }
        }
    }
}

#[test]
fn fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../fixtures/tab");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../../fixtures/tab", "*.inp", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let tests = parse_tests(text.as_bytes()).unwrap();
            let mut out = String::new();
            for (i, t) in tests.iter().enumerate() {
                let sol = solve(t.board, &Config::default(), &mut |_| {}).unwrap();
                check_certificate(t.board, &sol);
                let v = sol.value(t.start).unwrap();
                let line = sol.line(t.start, u64::MAX).unwrap();
                assert_eq!(line.len() as u64, v.depth() + 1);
                let _ = writeln!(
                    out,
                    "test {}: {} board, start {}: d = {} ({:?} in {} plies)",
                    i + 1,
                    t.board,
                    t.start,
                    v.answer(),
                    v.outcome(),
                    v.depth()
                );
                let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
                let _ = writeln!(out, "line: {}", moves.join(" "));
                out.push_str(&render_grid(&sol, false).unwrap());
                out.push('\n');
            }
            insta::assert_snapshot!("board", out);
            if path.file_name().is_some_and(|n| n == "seed.inp") {
                let sol = solve(tests[0].board, &Config::default(), &mut |_| {}).unwrap();
                insta::assert_snapshot!("svg", render_svg(&sol).unwrap());
            }
        });
    });
}
