//! `gamegraph kernel` as a process.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::TempDir;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernel").join(name)
}

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, &[&["kernel"], args].concat(), None)
}

fn stdout(o: &Output) -> String {
    support::text(&o.stdout)
}

#[test]
fn one_kernel_or_none() {
    let dir = TempDir::new("one");
    let take = fixture("take-one-to-four.txt");
    let o = run(&dir, &[take.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1 6 11 16\n");
    let o = run(&dir, &[fixture("triangle.txt").to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "none\n");
    // The single-solver binary behaves the same, and reads standard input.
    let input = std::fs::read(&take).unwrap();
    let o = support::run_bin(env!("CARGO_BIN_EXE_gamegraph-kernel"), &dir, &[], Some(&input));
    assert_eq!(stdout(&o), "1 6 11 16\n");
}

#[test]
fn count_all_alpha_beta() {
    let dir = TempDir::new("count");
    let grid = fixture("bipartite-grid.txt");
    let grid = grid.to_str().unwrap();
    assert_eq!(stdout(&run(&dir, &[grid, "--count"])), "5\n");
    let all = stdout(&run(&dir, &[grid, "--all"]));
    assert_eq!(all.lines().count(), 5);
    let two = stdout(&run(&dir, &[grid, "--all", "--limit", "2"]));
    assert_eq!(two.lines().collect::<Vec<_>>(), all.lines().take(2).collect::<Vec<_>>());
    let c5 = fixture("five-cycle.txt");
    let c5 = c5.to_str().unwrap();
    assert_eq!(stdout(&run(&dir, &[c5, "--alpha"])), "2\n1 3\n");
    let beta = stdout(&run(&dir, &[c5, "--beta"]));
    assert_eq!(beta.lines().next(), Some("3"));
    assert_eq!(stdout(&run(&dir, &[c5, "--count"])), "0\n");
}

#[test]
fn check_prints_the_reason_and_exits_1() {
    let dir = TempDir::new("check");
    let c6 = fixture("six-cycle.txt");
    let c6 = c6.to_str().unwrap();
    let o = run(&dir, &[c6, "--check", "1 3 5"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "kernel\n");
    let o = run(&dir, &[c6, "--check", "1 2"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "not internally stable: arc 1 -> 2\n");
    let o = run(&dir, &[c6, "--check", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "not externally stable: vertex 2 has no arc into the set\n");
    let o = run(&dir, &[c6, "--check", "0 7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: --check"));
}

#[test]
fn explain_json_and_dot() {
    let dir = TempDir::new("json");
    let take = fixture("take-one-to-four.txt");
    let take = take.to_str().unwrap();
    let text = stdout(&run(&dir, &[take, "--explain"]));
    assert!(text.contains("acyclic"), "{text}");
    let o = run(&dir, &[take, "--json", "--explain"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kernel"], serde_json::json!([1, 6, 11, 16]));
    assert_eq!(v["explanation"]["loss"], 4);
    let tri = fixture("triangle.txt");
    let text = stdout(&run(&dir, &[tri.to_str().unwrap(), "--explain"]));
    assert!(text.starts_with("none\nalpha < beta"), "{text}");
    let o = run(&dir, &[take, "--dot", "k.dot"]);
    assert!(o.status.success());
    let dot = std::fs::read_to_string(dir.join("k.dot")).unwrap();
    assert!(dot.contains("palegreen"));
    let o = run(&dir, &[take, "--count", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["count"], 1);
}

#[test]
fn bad_input_and_time_limit() {
    let dir = TempDir::new("bad");
    std::fs::write(dir.join("bad.txt"), "3 1\n1\n1 9\n").unwrap();
    let o = run(&dir, &["bad.txt"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: bad.txt:3:"), "{err}");
    let c5 = fixture("five-cycle.txt");
    let o = run(&dir, &[c5.to_str().unwrap(), "--time-limit", "0"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("time limit of 0 s"));
    let o = run(&dir, &[c5.to_str().unwrap(), "--count", "--alpha"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A random graph of 30000 vertices and 90000 arcs, where every mode searches long.
fn hard_graph(dir: &Path) -> &'static str {
    let o = support::gamegraph(
        dir,
        &["gen", "-n", "30000", "-m", "90000", "--seed", "1", "-o", "hard.txt"],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    "hard.txt"
}

#[test]
fn a_time_limit_ends_every_mode_with_exit_3() {
    let dir = TempDir::new("limit");
    let hard = hard_graph(&dir);
    for mode in [&[][..], &["--count"], &["--all"], &["--alpha"], &["--beta"], &["--explain"]] {
        let start = std::time::Instant::now();
        let o = run(&dir, &[&[hard, "--time-limit", "0.5"], mode].concat());
        let took = start.elapsed();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{mode:?}: {err}");
        assert!(err.contains("time limit of 0.5 s") && err.contains("--time-limit"), "{err}");
        // A deadline that passes before the search starts (a loaded machine) gives no
        // bounds, as documented; otherwise α and β give both.
        let bounds = !err.contains("after 0 search nodes (");
        if mode == ["--alpha"] && bounds {
            // A lower bound from a checked set and a proven upper bound, in that order.
            let num = |key: &str| -> usize {
                let at = err.find(key).unwrap_or_else(|| panic!("no {key:?} in {err}"));
                let digits: String =
                    err[at + key.len()..].chars().take_while(char::is_ascii_digit).collect();
                digits.parse().unwrap()
            };
            assert!(num("alpha >= ") <= num("alpha <= "), "{err}");
        }
        if mode == ["--beta"] && bounds {
            // An upper bound from a checked set and a proven lower bound, in that order.
            let num = |key: &str| -> usize {
                let at = err.find(key).unwrap_or_else(|| panic!("no {key:?} in {err}"));
                let digits: String =
                    err[at + key.len()..].chars().take_while(char::is_ascii_digit).collect();
                digits.parse().unwrap()
            };
            assert!(num("beta >= ") <= num("beta <= "), "{err}");
        }
        // Generous: the limit holds within 10 % on a quiet machine.
        assert!(took.as_secs() < 30, "{mode:?} took {took:?}");
    }
}

#[test]
fn help_gives_the_default_time_limit_and_the_format() {
    let dir = TempDir::new("help");
    let help = stdout(&run(&dir, &["--help"]));
    assert!(help.contains("default: 60"), "{help}");
    assert!(help.contains("header format"), "{help}");
    assert!(help.contains("detected from the contents when absent"), "{help}");
}

/// `k` disjoint 2-cycles: 2^k kernels of k vertices each.
fn two_cycles(dir: &TempDir, k: u32) -> PathBuf {
    let mut s = String::new();
    for i in 0..k {
        s.push_str(&format!("{} {}\n{} {}\n", 2 * i + 1, 2 * i + 2, 2 * i + 2, 2 * i + 1));
    }
    dir.file("pairs.txt", &s)
}

#[test]
fn all_stopped_by_the_limit_keeps_every_kernel_found() {
    let dir = TempDir::new("all-limit");
    let pairs = two_cycles(&dir, 60);
    let pairs = pairs.to_str().unwrap();
    let o = run(&dir, &[pairs, "--all", "--time-limit", "0.5"]);
    assert_eq!(o.status.code(), Some(3));
    let text = stdout(&o);
    assert!(text.ends_with('\n'));
    assert!(text.lines().count() > 10, "{} lines", text.lines().count());
    for line in text.lines() {
        assert_eq!(line.split(' ').count(), 60, "{line}");
    }
    // The same into a file, and as a complete JSON document.
    let o = run(&dir, &[pairs, "--all", "--time-limit", "0.5", "-o", "k.txt"]);
    assert_eq!(o.status.code(), Some(3));
    let file = std::fs::read_to_string(dir.join("k.txt")).unwrap();
    assert!(file.lines().count() > 10 && file.ends_with('\n'));
    let o = run(&dir, &[pairs, "--all", "--time-limit", "0.5", "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["kernels"].as_array().unwrap().len() > 10);
}

#[test]
fn answers_that_cannot_be_given_exit_2_at_once() {
    let dir = TempDir::new("refuse");
    // A directed cycle of 40000 vertices: one part above the size of α's bitset search.
    // β's search works on sparse lists and answers (every other vertex).
    let n = 40_000;
    let mut s = String::new();
    for i in 1..=n {
        s.push_str(&format!("{i} {}\n", i % n + 1));
    }
    let cycle = dir.file("cycle.txt", &s);
    let o = run(&dir, &[cycle.to_str().unwrap(), "--alpha"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cycle.txt") && err.contains("40000 vertices"), "{err}");
    let o = run(&dir, &[cycle.to_str().unwrap(), "--beta"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("20000"));
    // 2^130 kernels do not fit the count.
    let pairs = two_cycles(&dir, 130);
    let o = run(&dir, &[pairs.to_str().unwrap(), "--count"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("2^128"));
}

#[test]
fn hostile_arguments_get_a_message_and_exit_2() {
    let dir = TempDir::new("hostile");
    let c6 = fixture("six-cycle.txt");
    let c6 = c6.to_str().unwrap();
    let long = "x".repeat(200);
    for bad in ["abc", "0", "7", "-1", "10000000000000000000", "4294967296", "1;3", &long] {
        let o = run(&dir, &[c6, "--check", bad]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--check {bad:?}: {err}");
        assert!(err.starts_with("error: --check") && err.len() < 120, "{err}");
    }
    for bad in ["-1", "NaN", "-inf", "", "soon"] {
        let o = run(&dir, &[c6, "--time-limit", bad]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--time-limit {bad:?}: {err}");
        assert!(err.contains("--time-limit"), "{err}");
    }
    let o = run(&dir, &[c6, "--all", "--limit", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    // Limits that are no limit.
    for none in ["none", "inf", "1e300", "18446744073709551616"] {
        let o = run(&dir, &[c6, "--time-limit", none]);
        assert_eq!(stdout(&o), "1 3 5\n", "--time-limit {none}");
    }
    // Empty, repeated and comma-separated --check lists are sets like any other.
    let o = run(&dir, &[c6, "--check", ""]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "not externally stable: vertex 1 has no arc into the set\n");
    let o = run(&dir, &[c6, "--check", "1,1 3,,5 5"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "kernel\n".to_owned()));
    // --check does not search: no time limit applies.
    let o = run(&dir, &[c6, "--check", "2 4 6", "--time-limit", "0"]);
    assert_eq!(o.status.code(), Some(0));
    // --limit 0 lists nothing.
    let o = run(&dir, &[c6, "--all", "--limit", "0", "--explain"]);
    assert_eq!(stdout(&o), "0 kernel(s) (limit reached), search: 0 nodes\n");
}

#[test]
fn self_loops_are_never_in_a_stable_set() {
    let dir = TempDir::new("loops");
    let looped = dir.file("loop.txt", "1 1\n1\n1 1\n");
    let looped = looped.to_str().unwrap();
    assert_eq!(stdout(&run(&dir, &[looped])), "none\n");
    assert_eq!(stdout(&run(&dir, &[looped, "--count"])), "0\n");
    assert_eq!(stdout(&run(&dir, &[looped, "--alpha"])), "0\n\n");
    assert_eq!(stdout(&run(&dir, &[looped, "--beta"])), "1\n1\n");
    assert_eq!(stdout(&run(&dir, &[looped, "--all"])), "");
}

#[test]
fn an_answer_stopped_by_the_limit_leaves_the_output_file_alone() {
    let dir = TempDir::new("keep");
    let before = dir.file("answer.txt", "1 3 5\n");
    let c5 = fixture("five-cycle.txt");
    for mode in ["--count", "--alpha", "--explain"] {
        let o = run(&dir, &[c5.to_str().unwrap(), mode, "--time-limit", "0", "-o", "answer.txt"]);
        assert_eq!(o.status.code(), Some(3), "{mode}");
        assert_eq!(std::fs::read_to_string(&before).unwrap(), "1 3 5\n", "{mode}");
    }
}
