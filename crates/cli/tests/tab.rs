//! `gamegraph tab` end to end: the binary in a temporary directory.

mod support;

use std::fs;
use std::path::Path;
use std::process::Output;

use support::{TempDir, text};

fn run(dir: &Path, args: &[&str], stdin: &str) -> Output {
    support::gamegraph(dir, &[&["tab"], args].concat(), Some(stdin.as_bytes()))
}

#[test]
fn seed_file_to_file() {
    let dir = TempDir::new("seed");
    fs::write(dir.join("tab.inp"), "2\n10 4 5 3\n10   4\t4 3\n").unwrap();
    let out = run(&dir, &["tab.inp", "-o", "tab.out"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_to_string(dir.join("tab.out")).unwrap(), "0\n2\n");
    // Standard input, and the single binary.
    let out = run(&dir, &["-"], "2\n10 4 5 3\n10 4 4 3\n");
    assert_eq!(text(&out.stdout), "0\n2\n");
    let single = support::run_bin(env!("CARGO_BIN_EXE_gamegraph-tab"), &dir, &["tab.inp"], None);
    assert_eq!(text(&single.stdout), "0\n2\n");
}

#[test]
fn one_cell_line_and_json() {
    let dir = TempDir::new("cell");
    let out = run(&dir, &["--rows", "10", "--cols", "4", "--at", "4,3"], "");
    assert_eq!(text(&out.stdout), "2\n");
    let out = run(&dir, &["--rows", "10", "--cols", "4", "--at", "4,3", "--line"], "");
    let lines: Vec<_> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[1].contains("(5,1)"), "{lines:?}");
    let out = run(&dir, &["--rows", "10", "--cols", "4", "--at", "5,3", "--json"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cell"]["d"], 0);
    assert_eq!(v["cell"]["outcome"], "loss");
    assert_eq!(v["cell"]["depth"], 2);
}

#[test]
fn tall_board_by_period_equals_plain_dp() {
    let dir = TempDir::new("tall");
    let args = ["--rows", "2000000", "--cols", "13", "--at", "7,5"];
    let mut fast_args = args.to_vec();
    fast_args.extend(["--search-rows", "1000"]);
    let fast = run(&dir, &fast_args, "");
    let mut plain_args = args.to_vec();
    plain_args.push("--no-extrapolate");
    let plain = run(&dir, &plain_args, "");
    assert!(fast.status.success() && plain.status.success());
    assert_eq!(text(&fast.stdout), text(&plain.stdout));
    let huge = run(&dir, &["--rows", "1000000000000000000", "--cols", "50", "--at", "1,1"], "");
    assert!(huge.status.success(), "{}", text(&huge.stderr));
    assert!(text(&huge.stdout).trim().parse::<u64>().unwrap() > 0);
}

#[test]
fn board_and_svg() {
    let dir = TempDir::new("board");
    let out = run(&dir, &["--rows", "10", "--cols", "4", "--board", "--svg", "b.svg"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let grid = text(&out.stdout);
    assert!(!grid.contains('\x1b'), "no colours when stdout is not a terminal");
    assert_eq!(grid.lines().nth(1), Some("10  0 0 0 0  10"));
    let svg = fs::read_to_string(dir.join("b.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect x=").count(), 40);
}

#[test]
fn periods_table() {
    let dir = TempDir::new("period");
    let out = run(&dir, &["--period", "1..6"], "");
    let t = text(&out.stdout);
    assert_eq!(t.lines().count(), 8);
    assert!(t.contains("| 6 | 9 | 28 | 8..12 |"), "{t}");
}

#[test]
fn bad_input_exits_2_with_position() {
    let dir = TempDir::new("bad");
    let cases = [
        ("2\n10 4 5 3\n10 4 11 3\n", "<stdin>:3:6: test 2: x (start row) = 11 is outside"),
        ("2\n10 4 5 3\n10 4 4 5\n", "<stdin>:3:8: test 2: y (start column) = 5 is outside"),
        ("3\n10 4 5 3\n", "<stdin>:2:9: test 2: the input ends where N (rows)"),
        ("1\n10 4 5 3 9\n", "<stdin>:2:10: unexpected \"9\" after the last test"),
        ("1\n10 -4 5 3\n", "<stdin>:2:4: test 1: M (columns) must not be negative"),
        ("1\n10 4 0 3\n", "<stdin>:2:6: test 1: x (start row) must be at least 1"),
        ("1\n10 four 5 3\n", "<stdin>:2:4: test 1: M (columns) must be a natural number"),
        ("0\n", "<stdin>:1:1: the number of tests s must be at least 1"),
        ("", "<stdin>:1:1: the input ends where the number of tests s was expected"),
    ];
    for (input, want) in cases {
        let out = run(&dir, &[], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with(&format!("error: {want}")), "{input:?}: {err}");
        assert!(out.stdout.is_empty(), "nothing is half-written");
    }
    let out = run(&dir, &["--rows", "10", "--cols", "4", "--at", "11,1"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&dir, &["--rows", "0", "--cols", "4", "--at", "1,1"], "");
    assert_eq!(out.status.code(), Some(2));
}
