//! `nim`, `octal`, `subtraction` and `grundy` on hostile input: huge numbers, malformed
//! files and codes, and computations that cannot end soon. Each ends with a clear message
//! and exit code 2 (bad or impossible input) or 3 (a limit reached), never a panic.

use crate::support;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use support::TempDir;

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, args, None)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit code `code` and a one-line `error: …` containing `part`.
fn fails(o: &Output, code: i32, part: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(err.starts_with("error: ") && err.contains(part), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(o.stdout.is_empty());
}

const MAX: &str = "18446744073709551615";

#[test]
fn moore_search_of_the_largest_heaps_is_refused() {
    let dir = TempDir::new("moore-max");
    let o = run(&dir, &["nim", MAX, "--moore", "2", "--max", "3"]);
    fails(&o, 2, "exhaustive search would need 18446744073709551615 steps");
    let o = run(&dir, &["nim", MAX, MAX, "--moore", "2", "--max", "3,3"]);
    fails(&o, 2, "exhaustive search would need");
    // Without binding limits the theory answers at once.
    let o = run(&dir, &["nim", MAX, "--moore", MAX]);
    assert_eq!(support::text(&o.stdout), format!("1\ntake {MAX} from heap 1\n"));
}

#[test]
fn heap_files_with_a_bom_crlf_or_bad_tokens() {
    let dir = TempDir::new("heap-files");
    dir.file("bom.txt", "\u{feff}3\r\n5\r\n6\r\n");
    dir.file("crlf.txt", "3 1\r\n5 2\r\n");
    dir.file("empty.txt", "");
    dir.file("long.txt", &format!("3\n{}\n", "7".repeat(100_000)));
    std::fs::write(dir.join("binary.txt"), b"3\n\xff\xfe\n").unwrap();
    std::fs::create_dir(dir.join("folder")).unwrap();
    let nim = |file: &str| run(&dir, &["nim", "--file", file]);
    assert_eq!(support::text(&nim("bom.txt").stdout), "2\n");
    assert_eq!(support::text(&nim("crlf.txt").stdout), "1\ntake 1 from heap 2\n");
    // No heap at all: the player to move cannot move and loses.
    assert_eq!(support::text(&nim("empty.txt").stdout), "2\n");
    let o = nim("long.txt");
    fails(&o, 2, "long.txt:2:1: expected a heap size");
    assert!(stderr(&o).len() < 200, "{}", stderr(&o));
    fails(&nim("binary.txt"), 2, "binary.txt:2:1: not valid UTF-8");
    // An endless line is refused after a megabyte, not read into memory.
    if Path::new("/dev/zero").exists() {
        fails(&run(&dir, &["nim", "--file", "/dev/zero"]), 2, "/dev/zero:1:1: the line is longer");
    }
    fails(&nim("folder"), 2, "folder");
    let o = run(&dir, &["nim", "--file", "missing.txt"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("missing.txt"), "{}", stderr(&o));
}

#[test]
fn a_slow_octal_game_ends_at_the_time_limit() {
    let dir = TempDir::new("slow-octal");
    let code = "4.7777777777777777777777777777777";
    let start = Instant::now();
    let o = run(&dir, &["octal", code, "--period", "--time-limit", "1"]);
    fails(&o, 3, "time limit of 1 s reached after computing");
    assert!(stderr(&o).contains("--time-limit"));
    assert!(start.elapsed() < Duration::from_secs(60));
    let o = run(&dir, &["octal", "0.77", "--upto", "10", "--time-limit", "0"]);
    fails(&o, 3, "raise it with --time-limit");
    let o = run(&dir, &["subtraction", "1,2", "--period", "--time-limit", "0"]);
    fails(&o, 3, "raise it with --time-limit");
    for bad in ["nan", "x", ""] {
        let o = run(&dir, &["octal", "0.77", "--upto", "3", "--time-limit", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
    }
    // A practically infinite limit is no limit.
    let o = run(&dir, &["octal", "0.77", "--upto", "3", "--time-limit", "inf"]);
    assert_eq!(support::text(&o.stdout), "0 1 2 3\n");
}

/// A proven period gives every value of `--upto`, but writing four billion of them takes
/// longer than the time limit (and JSON streams them rather than collecting them).
#[test]
fn writing_billions_of_values_ends_at_the_time_limit() {
    let dir = TempDir::new("huge-write");
    for json in [false, true] {
        let mut args = vec!["octal", "0.77", "--upto", "4294967294", "--time-limit", "1"];
        args.extend(["-o", "out.txt"]);
        if json {
            args.push("--json");
        }
        let start = Instant::now();
        let o = run(&dir, &args);
        fails(&o, 3, "time limit of 1 s reached while writing the values");
        assert!(start.elapsed() < Duration::from_secs(60));
    }
}

#[test]
fn sequences_too_long_for_any_machine_are_refused_at_once() {
    let dir = TempDir::new("huge-upto");
    for args in [
        &["octal", "0.77", "--upto", "1000000000000000"][..],
        &["octal", "0.77", "--upto", MAX][..],
        &["subtraction", "1,3,4", "--upto", "1000000000000000"][..],
        &["octal", "0.77", "--period", "--limit", MAX][..],
    ] {
        let start = Instant::now();
        let o = run(&dir, args);
        fails(&o, 2, "values (at most 4294967295)");
        assert!(start.elapsed() < Duration::from_secs(30), "{args:?}");
    }
}

#[test]
fn a_value_past_the_size_limit_names_the_option() {
    let dir = TempDir::new("past-limit");
    let o = run(&dir, &["octal", "0.6", "--at", "100000", "--limit", "1000"]);
    fails(&o, 3, "g(100000) is unknown: no period was proven within the 1000 values");
    assert!(stderr(&o).contains("--limit"));
    let o = run(&dir, &["subtraction", "4294967295", "--at", MAX, "--limit", "10"]);
    fails(&o, 3, "raise --limit");
}

#[test]
fn malformed_codes_and_sets_quote_a_short_excerpt() {
    let dir = TempDir::new("codes");
    let long = format!("0.{}", "7".repeat(100_000));
    let o = run(&dir, &["octal", &long, "--upto", "3"]);
    fails(&o, 2, "invalid octal code \"0.777");
    assert!(stderr(&o).len() < 300, "{}", stderr(&o));
    let long = format!("1,{}", "x".repeat(100_000));
    let o = run(&dir, &["subtraction", &long, "--upto", "3"]);
    fails(&o, 2, "invalid subtraction set \"1,xxx");
    assert!(stderr(&o).len() < 300, "{}", stderr(&o));
    for (args, part) in [
        (&["octal", ".", "--upto", "3"][..], "no digit after the point"),
        (&["octal", "0.", "--upto", "3"][..], "no digit after the point"),
        (&["octal", "44.7", "--upto", "3"][..], "only one digit"),
        (&["octal", "0.7.7", "--upto", "3"][..], "not an octal digit"),
        (&["octal", " 0.77", "--upto", "3"][..], "not an octal digit"),
        (&["subtraction", "1,,2", "--upto", "3"][..], "element 2"),
        (&["subtraction", MAX, "--upto", "3"][..], "larger than 4294967295"),
        (&["subtraction", "99999999999999999999999", "--upto", "3"][..], "larger than"),
    ] {
        fails(&run(&dir, args), 2, part);
    }
}

#[test]
fn grundy_lists_quote_a_short_excerpt_and_check_lengths() {
    let dir = TempDir::new("grundy-lists");
    // A cycle 1 -> 2 -> 3 -> 1 with an exit 1 -> 4 -> 5.
    dir.file("g.txt", "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n");
    let long = "9".repeat(50_000);
    for flag in ["--tokens", "--heaps"] {
        let o = run(&dir, &["grundy", "g.txt", flag, &long]);
        fails(&o, 2, &format!("{flag}: item 1"));
        assert!(stderr(&o).contains("999"), "{}", stderr(&o));
        assert!(stderr(&o).len() < 300, "{}", stderr(&o));
    }
    for (args, part) in [
        (&["grundy", "g.txt", "--heaps", "3,4", "--max", "1"][..], "--max: 2 heaps but 1"),
        (&["grundy", "g.txt", "--heaps", "3", "--max", "0"][..], "--max: the move limit"),
        (&["grundy", "g.txt", "--tokens", "0"][..], "vertex 0 is not in the graph"),
        (&["grundy", "g.txt", "--tokens", "6"][..], "vertex 6 is not in the graph"),
        (&["grundy", "g.txt", "--tokens", "1,x"][..], "item 2 is \"x\""),
        (&["grundy", "g.txt", "--threads", "0"][..], "--threads"),
        (&["grundy", "g.txt", "--tokens", "1", "--heaps", MAX, "--misere"][..], "search"),
    ] {
        fails(&run(&dir, args), 2, part);
    }
    // Misère heaps beside tokens that cannot move: the rule answers for any sizes.
    let o = run(&dir, &["grundy", "g.txt", "--heaps", &format!("{MAX},{MAX}"), "--misere"]);
    assert_eq!(support::text(&o.stdout), "2\n");
}
