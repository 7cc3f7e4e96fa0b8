//! `gamegraph kernel` as a process.

mod support;

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
    assert!(String::from_utf8_lossy(&o.stderr).contains("time limit"));
    let o = run(&dir, &[c5.to_str().unwrap(), "--count", "--alpha"]);
    assert_eq!(o.status.code(), Some(2));
}
