//! Snapshot tests over `fixtures/tab/*.inp`: every test's board is first checked against
//! the min-max certificate, then its answer and optimal line (from the library) and its
//! drawings (from `gamegraph tab --board` and `--svg`) are snapshotted.

use crate::support;

use std::fmt::Write as _;

use gamegraph_tab::{Board, Config, Outcome, Solution, parse_tests, solve};
use support::{TempDir, text};

/// Every cell: a won cell has a lost successor one ply shallower and none shallower; a lost
/// cell has only won successors, the deepest one ply shallower (or none, at depth 0).
fn check_certificate(board: Board, sol: &Solution) {
    for x in 1..=board.rows() {
        for y in 1..=board.cols() {
            let c = board.cell(x, y).unwrap();
            let d = sol.value(c).unwrap().depth();
            let succ: Vec<_> = board.successors(c).map(|s| sol.value(s).unwrap()).collect();
            let outcome = sol.value(c).unwrap().outcome();
            assert_ne!(outcome, Outcome::Draw, "cell {c} of {board}: the game always ends");
            if outcome == Outcome::Win {
                let best =
                    succ.iter().filter(|v| v.outcome() == Outcome::Loss).map(|v| v.depth()).min();
                assert_eq!(best, Some(d - 1), "won cell {c} of {board}");
            } else {
                assert!(succ.iter().all(|v| v.outcome() == Outcome::Win), "lost cell {c}");
                let deepest = succ.iter().map(|v| v.depth()).max();
                assert_eq!(deepest.map_or(0, |m| m + 1), d, "lost cell {c} of {board}");
            }
        }
    }
}

/// `gamegraph tab --rows N --cols M EXTRA…` in `dir`, which must succeed.
fn draw(dir: &TempDir, board: Board, extra: &[&str]) -> String {
    let (n, m) = (board.rows().to_string(), board.cols().to_string());
    let args = [&["tab", "--rows", &n, "--cols", &m], extra].concat();
    let out = support::gamegraph(dir, &args, None);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn fixtures() {
    let dir = TempDir::new("tab-fixtures");
    gamegraph_testkit::fixtures("tab", "*.inp", |path, input| {
        let tests = parse_tests(input.as_bytes()).unwrap();
        let mut out = String::new();
        for (i, t) in tests.iter().enumerate() {
            let config = Config::default();
            let sol = solve(t.board, &config, &mut |_| {}).unwrap();
            check_certificate(t.board, &sol);
            let v = sol.value(t.start).unwrap();
            let line = sol.line(t.start, u64::MAX, &config).unwrap();
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
            out.push_str(&draw(&dir, t.board, &["--board"]));
            out.push('\n');
        }
        let mut snapshots = vec![("board", out)];
        if path.file_name().is_some_and(|n| n == "example-10x4.inp") {
            draw(&dir, tests[0].board, &["--svg", "board.svg"]);
            snapshots.push(("svg", std::fs::read_to_string(dir.join("board.svg")).unwrap()));
        }
        snapshots
    });
}
