//! `gamegraph nim` end to end.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamegraph"))
        .arg("nim")
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn compound_heaps_normal_and_misere() {
    assert_eq!(stdout(&run(&["3", "5", "6"])), "2\n");
    assert_eq!(stdout(&run(&["5", "7", "9", "--max", "2,3,4"])), "1\ntake 3 from heap 3\n");
    assert_eq!(stdout(&run(&["1", "1", "4", "--misere"])), "1\ntake 3 from heap 3\n");
    assert_eq!(stdout(&run(&["1", "1", "1", "--misere"])), "2\n");
    assert_eq!(stdout(&run(&["15", "--max", "4"])), "2\n");
    assert_eq!(stdout(&run(&["23", "--max", "5", "--misere"])), "1\ntake 4 from heap 1\n");
    let big = "1000000000000000000";
    assert_eq!(stdout(&run(&[big, big])), "2\n");
}

#[test]
fn moore_and_search() {
    // 3 5 6 9, k = 2: taking 2 from heap 4 makes every column 0 mod 3.
    assert_eq!(stdout(&run(&["3", "5", "6", "9", "--moore", "2"])), "1\ntake 2 from heap 4\n");
    let o = run(&["4", "4", "4", "--moore", "2", "--max", "2,2,2", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["method"], "search");
    let o = run(&["1000000", "1000000", "--moore", "2", "--max", "3 3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("no proven theory"));
}

#[test]
fn explain_shows_the_digit_sum() {
    let out = stdout(&run(&["5", "7", "9", "--max", "2,3,4", "--explain"]));
    assert!(out.contains("heap 3: 9 objects, take 1..4: g = 9 mod 5 = 4 = 100"), "{out}");
    assert!(out.contains("digit sum: 101 = 5"), "{out}");
}

#[test]
fn malformed_heaps_and_limits_exit_2() {
    for args in [
        &["5", "x"][..],
        &["5", "-3"][..],
        &["5", "7", "--max", "2"][..],
        &["5", "--max", "0"][..],
        &["5", "--moore", "0"][..],
        &["99999999999999999999"][..],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8(o.stderr).unwrap().starts_with("error:"), "{args:?}");
    }
}

#[test]
fn heaps_from_a_file() {
    let dir = std::env::temp_dir().join(format!("gamegraph-test-nim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("h.txt"), "# heaps and limits\n5 2\n7 3\n9 4\n").unwrap();
    std::fs::write(dir.join("bad.txt"), "5 2\n7 x\n").unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    assert_eq!(stdout(&run(&["--file", &file("h.txt")])), "1\ntake 3 from heap 3\n");
    let o = run(&["--file", &file("bad.txt")]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("bad.txt:2:3: expected a move limit"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One list syntax: commas, spaces or both in one value, for the heaps and for --max;
/// --max takes one value and leaves the heaps after it alone.
#[test]
fn lists_take_commas_or_spaces_in_one_value() {
    let expected = "1\ntake 3 from heap 3\n";
    for args in [
        &["5", "7", "9", "--max", "2,3,4"][..],
        &["5", "7", "9", "--max", "2 3 4"][..],
        &["5,7,9", "--max", "2, 3, 4"][..],
        &["5 7 9", "--max=2,3,4"][..],
        &["--max", "2,3,4", "5", "7", "9"][..],
        &["5,7", "9", "--max", "2 3,4"][..],
        &["5", "7", "9", "--max=2", "--max=3", "--max=4"][..],
    ] {
        assert_eq!(stdout(&run(args)), expected, "{args:?}");
    }
    // --max followed by the heaps: the heaps stay heaps.
    assert_eq!(stdout(&run(&["--max", "2,3,4", "5", "7", "9"])), expected);
    // The old spelling `--max 2 3 4` after three heaps is refused with the way to write it.
    let o = run(&["5", "7", "9", "--max", "2", "3", "4"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("--max 2,3,4 or --max \"2 3 4\""), "{err}");
    for (args, needle) in [
        (&["5,,7"][..], "item 2 is missing between commas"),
        (&["5", "--max", ""][..], "the list is empty"),
        (&["5 x"][..], "item 2 is \"x\", not an integer"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
