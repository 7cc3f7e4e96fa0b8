//! `gamegraph tab` end to end: the binary in a temporary directory.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::Output;

use support::{TempDir, text};

fn run(dir: &Path, args: &[&str], stdin: &str) -> Output {
    support::gamegraph(dir, &[&["tab"], args].concat(), Some(stdin.as_bytes()))
}

#[test]
fn answers_file_to_file() {
    let dir = TempDir::new("answers");
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

/// Runs `gamegraph tab ARGS` and checks its exit code and the start of its error message.
fn fails(dir: &Path, args: &[&str], stdin: &str, code: i32, want: &str) -> String {
    let out = run(dir, args, stdin);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?} {stdin:?}: {err}");
    assert!(err.starts_with("error: ") && err.contains(want), "{args:?} {stdin:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing is half-written");
    err
}

#[test]
fn plain_dp_that_cannot_finish_is_refused_at_once() {
    let dir = TempDir::new("hopeless");
    fs::write(dir.join("tab.inp"), "1\n1000000000000000000 1000 1 1\n").unwrap();
    let hint = "raise --search-rows";
    fails(&dir, &["tab.inp", "--search-rows", "100", "-o", "tab.out"], "", 2, hint);
    assert!(!dir.join("tab.out").exists(), "no output file is created");
    let tall = ["--rows", "1000000000000000000", "--cols", "50", "--at", "1,1"];
    fails(&dir, &[&tall[..], &["--search-rows", "0"]].concat(), "", 2, "cannot finish");
    let err = fails(&dir, &[&tall[..], &["--no-extrapolate"]].concat(), "", 2, "cannot finish");
    assert!(err.contains("without --no-extrapolate"), "{err}");
}

#[test]
fn the_work_limit_ends_a_run_with_exit_3_naming_the_option() {
    let dir = TempDir::new("limit");
    // Known in advance: refused before it starts.
    let plain = ["--rows", "100000000", "--cols", "1000", "--at", "1,1", "--no-extrapolate"];
    fails(&dir, &plain, "", 3, "raise the limit with --max-cells");
    // Reached while searching.
    fails(&dir, &["--period", "1000", "--max-cells", "1000000"], "", 3, "--max-cells");
    fails(&dir, &["--period", "1..50", "--max-cells", "100000"], "", 3, "--max-cells");
    fs::write(dir.join("tab.inp"), "2\n10 4 5 3\n1000000000 1000 1 1\n").unwrap();
    fails(&dir, &["tab.inp", "--max-cells", "1000000"], "", 3, "--max-cells");
    // A line on a board with no period found: the search bound is the limit.
    let line = ["--rows", "1000000000000", "--cols", "300", "--at", "1,1", "--line"];
    fails(&dir, &[&line[..], &["--search-rows", "10"]].concat(), "", 3, "raise --search-rows");
    // Raised, the same work runs.
    let out = run(&dir, &["--period", "1..50", "--max-cells", "100000000000"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn the_time_limit_ends_every_entry_point_with_exit_3() {
    let dir = TempDir::new("time");
    fs::write(dir.join("tab.inp"), "2\n10 4 5 3\n1000000000 100000 1 1\n").unwrap();
    let huge = ["--max-cells", "1000000000000000"];
    let cases: [&[&str]; 5] = [
        &["--period", "100000"],
        &["--period", "99990..100000"],
        &["--rows", "1000000000000000000", "--cols", "100000", "--at", "1,1"],
        &["--rows", "1000000000", "--cols", "100000", "--at", "1,1", "--no-extrapolate"],
        &["tab.inp"],
    ];
    for args in cases {
        let args = [args, &huge[..], &["--time-limit", "0.2"]].concat();
        let err = fails(&dir, &args, "", 3, "time limit");
        assert!(err.contains("--time-limit"), "{args:?}: {err}");
    }
    // The same small work under a limit and with none.
    for limit in ["60", "none"] {
        let out =
            run(&dir, &["--rows", "10", "--cols", "4", "--at", "4,3", "--time-limit", limit], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "2\n");
    }
    fails(&dir, &["--period", "4", "--time-limit", "-1"], "", 2, "seconds");
}

#[test]
fn drawings_and_memory_beyond_reach_are_refused_before_any_file_is_created() {
    let dir = TempDir::new("huge");
    let big = ["--rows", "10000", "--cols", "100000"];
    fails(&dir, &[&big[..], &["--board"]].concat(), "", 2, "draw at most 1000000 cells");
    fails(&dir, &[&big[..], &["--svg", "b.svg", "-o", "o.txt"]].concat(), "", 2, "--at");
    fails(&dir, &["--rows", "2000", "--cols", "501", "--board", "--json"], "", 2, "1000000");
    assert!(!dir.join("b.svg").exists() && !dir.join("o.txt").exists());
    let search = ["--rows", "10000000000", "--cols", "5", "--at", "1,1"];
    let err = fails(&dir, &[&search[..], &["--search-rows", "100000000000"]].concat(), "", 2, "");
    assert!(err.contains("in memory") && err.contains("--search-rows"), "{err}");
    let line = ["--rows", "10", "--cols", "4", "--at", "4,3", "--line"];
    fails(&dir, &[&line[..], &["--max-plies", "18446744073709551615"]].concat(), "", 2, "10000000");
    // The largest drawing allowed works, and so does --max-plies at its bound.
    let out = run(&dir, &["--rows", "1000", "--cols", "1000", "--svg", "b.svg"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&dir, &[&line[..], &["--max-plies", "10000000"]].concat(), "");
    assert_eq!(text(&out.stdout).lines().count(), 4);
}

/// The hostile-input sweep: each case ends in exit code 2 and a message, or is accepted.
#[test]
fn hostile_input_never_panics() {
    let dir = TempDir::new("hostile");
    let file_cases = [
        ("1\n10 4 5 3 7\n", "<stdin>:2:10: unexpected \"7\" after the last test"),
        ("18446744073709551615\n10 4 5 3\n", "test 2: the input ends where N (rows)"),
        ("100000000000000000000\n", "<stdin>:1:1: the number of tests s is 1000000000000000"),
        ("1\n0 4 1 1\n", "<stdin>:2:1: test 1: N (rows) must be at least 1"),
        ("1\n10 0 1 1\n", "<stdin>:2:4: test 1: M (columns) must be at least 1"),
        ("1\n10 4 1 0\n", "<stdin>:2:8: test 1: y (start column) must be at least 1"),
        ("1\n100000000000000000000 4 1 1\n", "<stdin>:2:1: test 1: N (rows) is 1000000000"),
        ("1\n10 4 -5 3\n", "<stdin>:2:6: test 1: x (start row) must not be negative"),
        ("1\n10 4 5 3.0\n", "<stdin>:2:8: test 1: y (start column) must be a natural number"),
        ("1\n10 4 5 \u{ff}\n", "<stdin>:2:8: test 1: y (start column) must be a natural"),
        ("\u{feff}\u{feff}1\n10 4 5 3\n", "<stdin>:1:1: the number of tests s must be"),
    ];
    for (input, want) in file_cases {
        fails(&dir, &[], input, 2, want);
    }
    let long = format!("1\n10 4 5 {}\n", "9".repeat(1_000_000));
    let err = fails(&dir, &[], &long, 2, "y (start column) is 9999");
    assert!(err.len() < 300, "a long token is quoted in part: {} bytes", err.len());
    // Accepted: a byte order mark, CRLF, tabs, comments, 10^19 rows (it fits in 64 bits).
    for input in
        ["\u{feff}1\r\n10 4 4 3\r\n", "1 # one\n\t10\t4\n4 3", "1\n10000000000000000000 4 1 1\n"]
    {
        let out = run(&dir, &[], input);
        assert!(out.status.success(), "{input:?}: {}", text(&out.stderr));
    }
    // A directory, a missing file.
    fs::create_dir(dir.join("sub")).unwrap();
    fails(&dir, &["sub"], "", 2, "sub: is a directory");
    let out = run(&dir, &["missing.inp"], "");
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("missing.inp"));
    // Arguments.
    let arg_cases: &[(&[&str], &str)] = &[
        (&["--threads", "0"], "--threads"),
        (&["--rows", "abc", "--cols", "4", "--at", "1,1"], "abc"),
        (&["--rows", "100000000000000000000", "--cols", "4", "--at", "1,1"], "--rows"),
        (&["--rows", "-1", "--cols", "4", "--at", "1,1"], "error"),
        (&["--rows", "10", "--cols", "0", "--at", "1,1"], "at least one column"),
        (&["--rows", "10", "--cols", "100001", "--at", "1,1"], "100000 supported"),
        (&["--rows", "10", "--cols", "4", "--at", "4"], "expected X,Y"),
        (&["--rows", "10", "--cols", "4", "--at", "4,x"], "bad column"),
        (&["--rows", "10", "--cols", "4", "--at", "4,3,2"], "bad column"),
        (&["--rows", "10", "--cols", "4", "--at", "0,0"], "outside the 10 × 4 board"),
        (&["--rows", "10", "--cols", "4", "--at", "1,5"], "outside"),
        (&["--rows", "10", "--cols", "4", "--at", "1,99999999999"], "bad column"),
        (&["--rows", "10", "--cols", "4"], "say what to compute"),
        (&["--rows", "10", "--cols", "4", "--at", "1,1", "--max-cells", "x"], "--max-cells"),
        (&["--period", "0"], "expected M >= 1"),
        (&["--period", "5..3"], "expected M >= 1"),
        (&["--period", "1..100001"], "at most 100000 columns"),
        (&["--period", "1..x"], "bad column count"),
        (&["--board"], "--rows"),
    ];
    for (args, want) in arg_cases {
        fails(&dir, args, "", 2, want);
    }
    let at = format!("{},1", "7".repeat(5000));
    let err = fails(&dir, &["--rows", "10", "--cols", "4", "--at", &at], "", 2, "--at: bad row");
    assert!(err.len() < 1000, "{} bytes", err.len());
}

/// `gamegraph tab` with no file on a terminal (a pseudo-terminal from `script`) says where it
/// reads the tests from: ./tab.inp when it exists, otherwise standard input.
#[test]
fn tab_without_a_file_on_a_terminal_says_what_it_reads() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        return; // util-linux's `script` is not installed: no pseudo-terminal to test with
    }
    let t = TempDir::new("tab-tty");
    let run = |dir: &Path| {
        std::process::Command::new("script")
            .args(["-qec", &format!("{} tab", support::GAMEGRAPH), "/dev/null"])
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let o = run(&t);
    assert!(
        text(&o.stdout).contains("reading the tests from standard input"),
        "{}",
        text(&o.stdout)
    );
    t.file("tab.inp", "1\n10 4 5 3\n");
    let o = run(&t);
    let out = text(&o.stdout);
    assert!(out.contains("reading the tests from tab.inp in this folder"), "{out}");
    assert!(out.trim_end().ends_with('0') || out.contains("\n0"), "{out}");
}
