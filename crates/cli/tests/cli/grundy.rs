//! `gamegraph grundy` end to end.

use crate::support;

use std::path::Path;
use std::process::Output;

use support::TempDir;

/// A cycle 1 -> 2 -> 3 -> 1 with an exit 1 -> 4 -> 5, starting at 1 (a draw).
const CYCLE_WITH_EXIT: &str = "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n";

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, &[&["grundy"], args].concat(), None)
}

fn stdout(o: &Output) -> String {
    support::text(&o.stdout)
}

#[test]
fn start_value_all_values_and_tokens() {
    let dir = TempDir::new("basic");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    let o = run(&dir, &["g.txt", "--threads", "2"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "inf{1}\n");
    let o = run(&dir, &["--all", "g.txt", "--threads", "2"]);
    assert_eq!(stdout(&o), "1 inf{1}\n2 inf{}\n3 inf{}\n4 1\n5 0\n");
    // ∞{1} plus a token of value 1: ∞{0}, a win by moving the first token to 4.
    let o = run(&dir, &["--tokens", "1,4", "g.txt", "--threads", "1"]);
    assert_eq!(stdout(&o), "1\nmove token 1 from 1 to 4\n");
    // Two infinite tokens: a draw, kept by moving along the cycle.
    let o = run(&dir, &["--tokens", "1,2", "g.txt", "--threads", "1"]);
    assert_eq!(stdout(&o), "0\nmove token 1 from 1 to 2\n");
    // Values 1 and 1: lost.
    let o = run(&dir, &["--tokens", "4,4", "g.txt", "--threads", "1"]);
    assert_eq!(stdout(&o), "2\n");
    let o = run(&dir, &["--tokens", "4,5", "--json", "g.txt", "--threads", "1"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["outcome"], &v["answer"]), (&"win".into(), &1.into()));
    assert_eq!(v["move"]["to"], 5);
}

#[test]
fn same_output_for_every_thread_count() {
    let dir = TempDir::new("threads");
    // A layered DAG big enough for the parallel levels.
    let n = 20_000u32;
    let mut arcs = Vec::new();
    for v in 2..=n {
        for d in [1, 7, 100] {
            if v > d {
                arcs.push(format!("{} {}", v, v - d));
            }
        }
    }
    let text = format!("{n} {}\n{n}\n{}\n", arcs.len(), arcs.join("\n"));
    std::fs::write(dir.join("g.txt"), text).unwrap();
    let one = stdout(&run(&dir, &["--all", "g.txt", "--threads", "1"]));
    let four = stdout(&run(&dir, &["--all", "g.txt", "--threads", "4"]));
    assert_eq!(one.lines().count(), n as usize);
    assert_eq!(one, four);
}

#[test]
fn bad_input_is_an_error_with_exit_code_2() {
    let dir = TempDir::new("errors");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    std::fs::write(dir.join("bad.txt"), "3 1\n1\n1 x\n").unwrap();
    std::fs::write(dir.join("arcs.txt"), "1 2\n2 3\n").unwrap();
    for (args, needle) in [
        (
            &["--tokens", "1,9", "g.txt"][..],
            "item 2: vertex 9 is not in the graph (vertices are 1..5)",
        ),
        (&["--tokens", "1,x", "g.txt"][..], "item 2 is \"x\", not a vertex id"),
        (&["--tokens", "0", "g.txt"][..], "item 1: vertex 0 is not in the graph"),
        (&["bad.txt"][..], "bad.txt:3:"),
        (&["--format", "arcs", "arcs.txt"][..], "no start vertex"),
    ] {
        let o = run(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn sums_of_tokens_and_heaps() {
    let dir = TempDir::new("mixed");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    // Token values 1 (vertex 4), heaps 5, 7, 9 with limits 2, 3, 4: values 2, 3, 4.
    // 1 ⊕ 2 ⊕ 3 ⊕ 4 = 4: take 4 from the third heap (value 4 -> 0).
    let o = run(&dir, &["g.txt", "--tokens", "4", "--heaps", "5,7,9", "--max", "2,3,4"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1\ntake 4 from heap 3\n");
    // Heaps alone: plain Nim, 3 ⊕ 5 ⊕ 6 = 0.
    assert_eq!(stdout(&run(&dir, &["g.txt", "--heaps", "3,5,6"])), "2\n");
    // ∞{1} plus a heap of value 3: ∞{2}, a draw, kept on the cycle.
    let o = run(&dir, &["g.txt", "--tokens", "1", "--heaps", "3", "--threads", "1"]);
    assert_eq!(stdout(&o), "0\nmove token 1 from 1 to 2\n");
    let o = run(&dir, &["g.txt", "--tokens", "4,1", "--heaps", "2", "--json", "--threads", "1"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["outcome"], &v["answer"]), (&"draw".into(), &0.into()));
    assert_eq!(v["play"], "normal");
    assert_eq!(v["value"], serde_json::json!({"infinite": [2]}));
    assert_eq!(v["token_values"], serde_json::json!([1, {"infinite": [1]}]));
    assert_eq!(v["heap_values"], serde_json::json!([2]));
    assert_eq!(v["digit_sum"], 3);
    assert_eq!(v["move"], serde_json::json!({"token": 1, "from": 4, "to": 5}));
    let o = run(&dir, &["g.txt", "--heaps", "5,7,9", "--max", "2,3,4", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["move"], serde_json::json!({"heap": 3, "take": 3}));
}

#[test]
fn misere_sums() {
    let dir = TempDir::new("misere");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    // Vertex 4 has one move, the heap one: two moves in all, the opponent makes the last
    // one and the player to move, left without a move, wins whatever is played.
    let o = run(&dir, &["g.txt", "--tokens", "4", "--heaps", "1", "--misere"]);
    assert_eq!(stdout(&o), "1\nmove token 1 from 4 to 5\n");
    // The token at 5 cannot move: the misère-Nim rule (1 ⊕ 1 = 0, every heap ≤ 1: a win).
    let o = run(&dir, &["g.txt", "--tokens", "5", "--heaps", "1,1", "--misere", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "win");
    assert_eq!((&v["play"], &v["method"]), (&"misere".into(), &"theory".into()));
    assert_eq!(v["move"], serde_json::json!({"heap": 1, "take": 1}));
    assert!(v.get("digit_sum").is_none());
    // Vertex 3 must move to 1, from where the opponent wins by moving to 4.
    let o = run(&dir, &["g.txt", "--tokens", "3", "--misere", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&v["outcome"], &v["method"], &v["move"]),
        (&"loss".into(), &"search".into(), &None::<u8>.into())
    );
    // The cycle 1 <-> 2 with an exit 2 -> 3: whoever leaves the cycle loses; a draw.
    std::fs::write(dir.join("c.txt"), "3 3\n2\n1 2\n2 1\n2 3\n").unwrap();
    let o = run(&dir, &["c.txt", "--tokens", "2", "--misere"]);
    assert_eq!(stdout(&o), "0\nmove token 1 from 2 to 1\n");
    // Normal play of the same: vertices 1 and 3 have value 0 and 2 has value 1; moving to
    // 1 wins too (the opponent must come back to 2, and then 2 -> 3 ends the game).
    assert_eq!(stdout(&run(&dir, &["c.txt", "--tokens", "2"])), "1\nmove token 1 from 2 to 1\n");
}

#[test]
fn bad_sums_are_errors_with_exit_code_2() {
    let dir = TempDir::new("sum-errors");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    for (args, needle) in [
        (&["--heaps", "1,x"][..], "--heaps: item 2 is \"x\""),
        (&["--heaps=-1"][..], "not a heap size"),
        (&["--heaps", "18446744073709551616"][..], "not a heap size"),
        (&["--heaps", "1,2", "--max", "1"][..], "--max: 2 heaps but 1 move limits"),
        (&["--heaps", "1,2", "--max", "1,0"][..], "--max: the move limit of heap 2 is 0"),
        (&["--heaps", "1", "--max", "y"][..], "not a move limit"),
        (&["--max", "1"][..], "--heaps"),
        (&["--misere"][..], "--misere plays a sum"),
        (&["--all", "--heaps", "1"][..], "cannot be used with"),
        (&["--tokens", "4", "--heaps", "100000000", "--misere"][..], "exhaustive search"),
    ] {
        let o = run(&dir, &[&["g.txt"], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    }
    // A huge heap is fine in normal play, and in misère play beside frozen tokens.
    let o = run(&dir, &["g.txt", "--tokens", "5", "--heaps", "18446744073709551615", "--misere"]);
    assert_eq!(stdout(&o), "1\ntake 18446744073709551614 from heap 1\n");
    // Normal play: the token's value 1 is cancelled by leaving a heap of 1.
    let o = run(&dir, &["g.txt", "--tokens", "4", "--heaps", "18446744073709551615"]);
    assert_eq!(stdout(&o), "1\ntake 18446744073709551614 from heap 1\n");
}

/// `--start V` prints the value of V; the lists take commas, spaces or both.
#[test]
fn start_and_lists_with_spaces() {
    let dir = TempDir::new("start-lists");
    std::fs::write(dir.join("g.txt"), CYCLE_WITH_EXIT).unwrap();
    assert_eq!(stdout(&run(&dir, &["g.txt", "--start", "4"])), "1\n");
    assert_eq!(stdout(&run(&dir, &["g.txt", "--start", "2"])), "inf{}\n");
    let arcs = "1 2\n2 3\n";
    std::fs::write(dir.join("arcs.txt"), arcs).unwrap();
    let o = run(&dir, &["arcs.txt", "--format", "arcs", "--start", "1"]);
    assert_eq!(stdout(&o), "0\n");
    let o = run(&dir, &["arcs.txt", "--format", "arcs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(support::text(&o.stderr).contains("--start V"));
    let o = run(&dir, &["g.txt", "--start", "6"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(support::text(&o.stderr).contains("--start 6 is outside 1..5"));
    let comma = run(&dir, &["g.txt", "--tokens", "4", "--heaps", "5,7,9", "--max", "2,3,4"]);
    for args in [
        &["g.txt", "--tokens", "4", "--heaps", "5 7 9", "--max", "2 3 4"][..],
        &["g.txt", "--tokens", "4", "--heaps", "5, 7, 9", "--max", "2 3,4"][..],
    ] {
        let o = run(&dir, args);
        assert!(o.status.success(), "{args:?}: {}", support::text(&o.stderr));
        assert_eq!(stdout(&o), stdout(&comma), "{args:?}");
    }
    let o = run(&dir, &["g.txt", "--heaps", "1,,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(support::text(&o.stderr).contains("--heaps: item 2 is missing between commas"));
}
