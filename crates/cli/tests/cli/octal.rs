//! `gamegraph octal` and `gamegraph subtraction`, run as a process.

use crate::support;

use std::path::Path;
use std::process::Output;

use support::TempDir;

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, args, None)
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    support::text(&o.stdout)
}

#[test]
fn kayles_values_and_period() {
    let dir = TempDir::new("kayles");
    let o = run(&dir, &["octal", "0.77", "--upto", "12"]);
    assert_eq!(stdout(&o), "0 1 2 3 1 4 3 2 1 4 2 6 4\n");
    let o = run(&dir, &["octal", "0.77", "--upto", "3", "--period"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..3], ["0 1 2 3", "preperiod 71", "period 12"]);
    assert!(lines[3].starts_with("certificate g(n + 12) = g(n) for 71 <= n < 156"), "{text}");
    // The plain method gives the same report.
    let plain = run(&dir, &["octal", "0.77", "--upto", "3", "--period", "--method", "plain"]);
    assert_eq!(stdout(&plain), text);
}

#[test]
fn huge_heaps_need_a_period() {
    let dir = TempDir::new("huge");
    let o = run(&dir, &["octal", ".07", "--at", "1000000000000000000", "--at", "5"]);
    // 0.07 begins 0 0 1 1 2 0 3 1 1 0.
    let text = stdout(&o);
    assert!(text.ends_with("g(5) = 0\n"), "{text}");
    assert!(text.starts_with("g(1000000000000000000) = "), "{text}");
    let o = run(&dir, &["octal", "0.6", "--at", "100000", "--limit", "1000"]);
    assert_eq!(o.status.code(), Some(3));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: g(100000) is unknown"), "{err}");
    let o = run(&dir, &["octal", "0.6", "--upto", "5", "--period", "--limit", "1000"]);
    assert_eq!(stdout(&o), "0 0 1 2 0 1\nno period proven up to n = 999\n");
}

#[test]
fn subtraction_games() {
    let dir = TempDir::new("subtraction");
    let o = run(&dir, &["subtraction", "1,3,4", "--upto", "9", "--period"]);
    let text = stdout(&o);
    assert!(text.starts_with("0 1 0 1 2 3 2 0 1 0\npreperiod 0\nperiod 7\n"), "{text}");
    let o = run(&dir, &["subtraction", "1,3,4", "--upto", "9", "--misere"]);
    assert_eq!(stdout(&o), "1 0 1 0 2 3 2 1 0 1\n");
}

#[test]
fn json_and_output_file() {
    let dir = TempDir::new("json");
    let o =
        run(&dir, &["subtraction", "1,2", "--upto", "4", "--period", "--json", "-o", "out.json"]);
    assert!(stdout(&o).is_empty());
    let text = std::fs::read_to_string(dir.join("out.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["game"], "1,2");
    assert_eq!(v["values"], serde_json::json!([0, 1, 2, 0, 1]));
    assert_eq!(v["period"]["period"], 3);
    assert_eq!(v["period"]["preperiod"], 0);
    assert_eq!(v["period"]["theorem"], "subtraction-window");
    let o = run(&dir, &["octal", "0.6", "--period", "--limit", "50", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["period"], serde_json::Value::Null);
    assert_eq!(v["computed"], 50);
}

#[test]
fn bad_input_exits_2() {
    let dir = TempDir::new("errors");
    for (args, message) in [
        (&["octal", "0.8", "--upto", "3"][..], "error: invalid octal code \"0.8\": column 3"),
        (&["octal", "abc", "--upto", "3"][..], "error: invalid octal code \"abc\""),
        (&["octal", "", "--upto", "3"][..], "error: invalid octal code \"\": empty"),
        (&["octal", "1.07", "--upto", "3"][..], "error: invalid octal code \"1.07\""),
        (&["octal", "0.77"][..], "error: nothing to do"),
        (&["subtraction", "1,0", "--upto", "3"][..], "error: invalid subtraction set \"1,0\""),
        (&["subtraction", "2,x", "--upto", "3"][..], "error: invalid subtraction set \"2,x\""),
        (&["subtraction", "3,3", "--upto", "3"][..], "error: invalid subtraction set \"3,3\""),
    ] {
        let o = run(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn help_has_examples() {
    let dir = TempDir::new("help");
    for cmd in ["octal", "subtraction"] {
        let text = stdout(&run(&dir, &[cmd, "--help"]));
        assert!(text.contains("Examples:"), "{text}");
        assert!(text.contains("--period"), "{text}");
    }
}
