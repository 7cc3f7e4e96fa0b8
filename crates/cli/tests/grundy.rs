//! `gamegraph grundy` end to end.

mod support;

use std::path::Path;
use std::process::Output;

use support::{SEED, TempDir};

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, &[&["grundy"], args].concat(), None)
}

fn stdout(o: &Output) -> String {
    support::text(&o.stdout)
}

#[test]
fn start_value_all_values_and_tokens() {
    let dir = TempDir::new("basic");
    std::fs::write(dir.join("g.txt"), SEED).unwrap();
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
    assert_eq!(v["outcome"], 1);
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
    std::fs::write(dir.join("g.txt"), SEED).unwrap();
    std::fs::write(dir.join("bad.txt"), "3 1\n1\n1 x\n").unwrap();
    std::fs::write(dir.join("arcs.txt"), "1 2\n2 3\n").unwrap();
    for (args, needle) in [
        (&["--tokens", "1,9", "g.txt"][..], "vertex 9 is not in the graph"),
        (&["--tokens", "1,,2", "g.txt"][..], "not a vertex id"),
        (&["--tokens", "0", "g.txt"][..], "vertex 0 is not in the graph"),
        (&["bad.txt"][..], "bad.txt:3:"),
        (&["--format", "arcs", "arcs.txt"][..], "no start vertex"),
    ] {
        let o = run(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    }
}
