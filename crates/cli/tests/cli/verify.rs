//! `gamegraph verify`, run as a process: tampered answers are refused with the rule they
//! break, and the solvers' own answers on every fixture pass.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use support::{SEED as EXAMPLE, TempDir, gamegraph, text};

/// The example graph's `retro --all` table.
const EXAMPLE_TABLE: &str = "1 D - 2\n2 D - 3\n3 D - 1\n4 W 1 5\n5 L 0 -\n";

fn fixtures(solver: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(solver);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixture in {}", dir.display());
    files
}

/// Exit code, stdout and stderr.
fn result(o: &Output) -> (i32, String, String) {
    (o.status.code().unwrap(), text(&o.stdout), text(&o.stderr))
}

fn ok(o: &Output) -> String {
    let (code, out, err) = result(o);
    assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
    assert!(out.starts_with("ok: "), "{out}");
    out
}

/// `verify retro` of the example graph with `table` as the table file.
fn retro_table(t: &TempDir, table: &str) -> (i32, String, String) {
    t.file("table.txt", table);
    result(&gamegraph(t, &["verify", "retro", "game.txt", "table.txt"], None))
}

#[test]
fn retro_accepts_the_table_and_names_each_broken_rule() {
    let t = TempDir::new("verify-retro");
    t.file("game.txt", EXAMPLE);
    assert_eq!(
        retro_table(&t, EXAMPLE_TABLE),
        (
            0,
            "ok: 5 vertices, 5 arcs: 1 W, 1 L, 3 D; every outcome, depth and move follows from \
             the successors'\n"
                .into(),
            String::new()
        )
    );
    let tampered = |from: &str, to: &str| retro_table(&t, &EXAMPLE_TABLE.replace(from, to));
    let wrong = |line: &str| (1, format!("wrong: {line}\n"), String::new());
    assert_eq!(
        tampered("5 L 0 -", "5 W 0 -"),
        wrong("vertex 4 is labelled W but has no L successor (rule win-has-loss-successor)")
    );
    assert_eq!(
        tampered("4 W 1 5", "4 W 3 5"),
        wrong("vertex 4 has depth 3 but its successors give 1 (rule depth)")
    );
    assert_eq!(
        tampered("1 D - 2", "1 D - 4"),
        wrong("vertex 1 has move 4 but the optimal move with the smallest id is 2 (rule move)")
    );
    assert_eq!(
        tampered("4 W 1 5", "4 L 1 5"),
        wrong("vertex 1 is labelled D but its successor 4 is L (rule draw-has-no-loss-successor)")
    );
    assert_eq!(
        tampered("1 D - 2", "1 W 2 4"),
        wrong("vertex 1 is labelled W but has no L successor (rule win-has-loss-successor)")
    );
    assert_eq!(
        tampered("5 L 0 -", "5 D - -"),
        wrong("vertex 4 is labelled W but has no L successor (rule win-has-loss-successor)")
    );
    // The 2-cycle's labels "W, L" are locally consistent; the depths refute them.
    let cycle = "2 2\n1\n1 2\n2 1\n";
    t.file("cycle.txt", cycle);
    t.file("wl.txt", "1 W 1 2\n2 L 2 1\n");
    assert_eq!(
        result(&gamegraph(&t, &["verify", "retro", "cycle.txt", "wl.txt"], None)),
        wrong("vertex 1 has depth 1 but its successors give 3 (rule depth)")
    );

    // Malformed tables: exit 2 at the line and column.
    let bad = |line: &str| (2, String::new(), format!("error: table.txt:{line}\n"));
    assert_eq!(
        tampered("5 L 0 -\n", ""),
        bad("5:1: expected vertex 5 (the graph has 5 vertices), found end of input")
    );
    assert_eq!(
        retro_table(&t, &format!("{EXAMPLE_TABLE}6 L 0 -\n")),
        bad("6:1: expected end of input: the graph has 5 vertices, found \"6\"")
    );
    assert_eq!(tampered("3 D - 1", "2 D - 3"), bad("3:1: expected vertex 3, found \"2\""));
    assert_eq!(
        tampered("4 W 1 5", "4 W x 5"),
        bad("4:5: expected a depth below 4294967295 (W and L have one), found \"x\"")
    );
    assert_eq!(
        tampered("4 W 1 5", "4 Q 1 5"),
        bad("4:3: expected an outcome `W`, `L` or `D`, found \"Q\"")
    );
    assert_eq!(
        tampered("4 W 1 5", "4 W 1 6"),
        bad("4:7: expected a move: a vertex in 1..=5 or `-`, found \"6\"")
    );
    assert_eq!(
        tampered("2 D - 3", "2 D 4 3"),
        bad("2:5: expected `-` (a draw has no depth), found \"4\"")
    );
    assert_eq!(tampered("5 L 0 -", "5 L 0 - 7"), bad("5:9: expected end of line, found \"7\""));
}

#[test]
fn retro_reads_its_json_form_and_answers_in_json() {
    let t = TempDir::new("verify-retro-json");
    t.file("game.txt", EXAMPLE);
    let json = text(&gamegraph(&t, &["retro", "--all", "--json", "game.txt"], None).stdout);
    ok(&gamegraph(&t, &["verify", "retro", "game.txt", "-"], Some(json.as_bytes())));
    let tampered = json.replacen("\"depth\": 1", "\"depth\": 4", 1);
    assert_ne!(tampered, json);
    let o =
        gamegraph(&t, &["verify", "retro", "--json", "game.txt", "-"], Some(tampered.as_bytes()));
    let (code, out, _) = result(&o);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["vertex"], 4);
    assert_eq!(v["rule"], "depth");
    assert_eq!(v["message"], "wrong: vertex 4 has depth 4 but its successors give 1 (rule depth)");
    let short = json.replacen("\"vertex\": 5", "\"vertex\": 6", 1);
    let (code, _, err) =
        result(&gamegraph(&t, &["verify", "retro", "game.txt", "-"], Some(short.as_bytes())));
    assert_eq!(
        (code, err.as_str()),
        (2, "error: <stdin>: entry 5 of \"all\": expected vertex 5, found 6\n")
    );
    let o = gamegraph(
        &t,
        &["verify", "retro", "--json", "game.txt", "-"],
        Some(EXAMPLE_TABLE.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!((v["ok"].clone(), v["counts"]["draw"].clone()), (true.into(), 3.into()));
    // The graph and the table cannot both be standard input.
    let (code, _, _) = result(&gamegraph(&t, &["verify", "retro", "-", "-"], Some(b"")));
    assert_eq!(code, 2);
}

/// A random graph text of `n` vertices with a `terminal` section: values at some of its
/// vertices without moves.
fn random_values_graph(rng: &mut gamegraph_testkit::SplitMix64, n: u64) -> String {
    let mut arcs = Vec::new();
    for u in 1..=n {
        for _ in 0..rng.below(3) {
            arcs.push((u, 1 + rng.below(n)));
        }
    }
    let mut text = format!("{n} {}\n1\n", arcs.len());
    for (u, v) in &arcs {
        text += &format!("{u} {v}\n");
    }
    text += "terminal\n";
    for v in (1..=n).filter(|v| !arcs.iter().any(|a| a.0 == *v)) {
        match rng.below(4) {
            0 => text += &format!("{v} W\n"),
            1 => text += &format!("{v} T\n"),
            2 => text += &format!("{v} L\n"),
            _ => {}
        }
    }
    text
}

#[test]
fn retro_checks_four_outcomes_on_graphs_with_terminal_values() {
    let t = TempDir::new("verify-retro-values");
    let mut rng = gamegraph_testkit::SplitMix64::new(11);
    let verify = |table: &str, json: bool| {
        let mut args = vec!["verify", "retro", "g.txt", "-"];
        if json {
            args.push("--json");
        }
        result(&gamegraph(&t, &args, Some(table.as_bytes())))
    };
    for _ in 0..12 {
        let n = 2 + rng.below(7);
        t.file("g.txt", &random_values_graph(&mut rng, n));
        let table = text(&gamegraph(&t, &["retro", "--all", "g.txt"], None).stdout);
        let (code, out, err) = verify(&table, false);
        assert_eq!(code, 0, "{table}{out}{err}");
        assert!(out.contains("T, ") && out.ends_with("and the terminal values\n"), "{out}");
        let json = text(&gamegraph(&t, &["retro", "--all", "--json", "g.txt"], None).stdout);
        let (code, out, _) = verify(&json, true);
        assert_eq!(code, 0, "{json}{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["counts"]["tie"].is_number(), "{out}");
        // Every line changed in its outcome, its remoteness or its move is refused.
        let lines: Vec<&str> = table.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let f: Vec<&str> = line.split(' ').collect();
            let mut changes = Vec::new();
            for o in ["W", "L", "T", "D"].into_iter().filter(|o| *o != f[1]) {
                let r = if o == "D" {
                    "-"
                } else if f[2] == "-" {
                    "0"
                } else {
                    f[2]
                };
                changes.push(format!("{} {o} {r} {}", f[0], f[3]));
            }
            if f[2] != "-" {
                let r: u32 = f[2].parse().unwrap();
                changes.push(format!("{} {} {} {}", f[0], f[1], r + 1, f[3]));
            }
            let other = if f[3] == "1" { "2".to_owned() } else { "1".to_owned() };
            changes.push(format!("{} {} {} {other}", f[0], f[1], f[2]));
            changes.push(format!("{} {} {} -", f[0], f[1], f[2]));
            for change in changes.iter().filter(|c| c.as_str() != *line) {
                let mut tampered = lines.clone();
                tampered[i] = change;
                let tampered = tampered.join("\n") + "\n";
                let (code, out, err) = verify(&tampered, true);
                assert_eq!(code, 1, "{tampered}{out}{err}");
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert!(v["rule"].is_string() && v["vertex"].is_number(), "{out}");
            }
        }
    }
    // The worked example of the retro tests: rule names and messages.
    t.file("g.txt", "3 2\n1\n1 2\n2 3\nterminal\n3 T\n");
    assert_eq!(
        verify("1 T 2 2\n2 T 1 3\n3 T 0 -\n", false),
        (
            0,
            "ok: 3 vertices, 2 arcs: 0 W, 0 L, 3 T, 0 D; every outcome, remoteness and move \
             follows from the successors' and the terminal values\n"
                .into(),
            String::new()
        )
    );
    assert_eq!(
        verify("1 T 2 2\n2 T 1 3\n3 W 0 -\n", false).1,
        "wrong: vertex 2 is labelled T but has no T successor (rule tie-has-tie-successor)\n"
    );
    assert_eq!(
        verify("1 T 3 2\n2 T 1 3\n3 T 0 -\n", false).1,
        "wrong: vertex 1 has remoteness 3 but its successors give 2 (rule remoteness)\n"
    );
    // A tie in a graph without terminal values is not a table of it.
    t.file("plain.txt", "2 1\n1\n1 2\n");
    let o = gamegraph(&t, &["verify", "retro", "plain.txt", "-"], Some(b"1 T 1 2\n2 T 0 -\n"));
    let (code, _, err) = result(&o);
    assert_eq!(code, 2);
    assert_eq!(err, "error: <stdin>:1:3: expected an outcome `W`, `L` or `D`, found \"T\"\n");
}

#[test]
fn retro_passes_the_solver_on_every_fixture() {
    let t = TempDir::new("verify-retro-fixtures");
    for file in fixtures("retro") {
        let f = file.to_str().unwrap();
        for extra in [&[][..], &["--json"]] {
            let mut args = vec!["retro", "--all", "--threads", "2", f];
            args.extend(extra);
            let table = gamegraph(&t, &args, None);
            assert!(table.status.success(), "{f}");
            ok(&gamegraph(&t, &["verify", "retro", f, "-"], Some(&table.stdout)));
        }
    }
}

#[test]
fn grundy_passes_the_solver_on_every_fixture_and_refuses_a_tamper() {
    let t = TempDir::new("verify-grundy");
    let mut tampers = 0;
    for file in fixtures("grundy") {
        let f = file.to_str().unwrap();
        let table = gamegraph(&t, &["grundy", "--all", "--threads", "2", f], None);
        assert!(table.status.success(), "{f}");
        ok(&gamegraph(&t, &["verify", "grundy", f, "-"], Some(&table.stdout)));
        let json = gamegraph(&t, &["grundy", "--all", "--json", "--threads", "2", f], None);
        ok(&gamegraph(&t, &["verify", "grundy", f, "-"], Some(&json.stdout)));
        // The first finite value raised by one is refused.
        let lines: Vec<String> = text(&table.stdout).lines().map(str::to_owned).collect();
        if let Some(i) = lines.iter().position(|l| !l.contains("inf")) {
            let mut changed = lines.clone();
            let (v, x) = changed[i].split_once(' ').unwrap();
            changed[i] = format!("{v} {}", x.parse::<u64>().unwrap() + 1);
            let input = changed.join("\n") + "\n";
            let (code, out, _) =
                result(&gamegraph(&t, &["verify", "grundy", f, "-"], Some(input.as_bytes())));
            assert_eq!(code, 1, "{f}: {out}");
            assert!(out.starts_with("wrong: vertex "), "{out}");
            tampers += 1;
        }
    }
    assert!(tampers > 0);
}

#[test]
fn grundy_names_each_broken_rule() {
    let t = TempDir::new("verify-grundy-rules");
    // 1 <-> 2 and 3 -> 3, 3 -> 4: 1, 2 are inf{}, 3 is inf{0}, 4 is 0.
    t.file("g.txt", "4 4\n1\n1 2\n2 1\n3 3\n3 4\n");
    let check = |table: &str| {
        t.file("v.txt", table);
        result(&gamegraph(&t, &["verify", "grundy", "g.txt", "v.txt"], None))
    };
    let good = "1 inf{}\n2 inf{}\n3 inf{0}\n4 0\n";
    assert_eq!(
        check(good).1,
        "ok: 4 vertices, 4 arcs: 1 finite and 3 infinite values; the mex, set, escape and \
         counter rules hold\n"
    );
    let wrong = |s: &str| (1, format!("wrong: {s}\n"), String::new());
    assert_eq!(
        check("1 1\n2 0\n3 inf{0}\n4 0\n"),
        wrong(
            "vertex 2 has value 0 but the replies of value 0 from its follower 1 of larger value \
             only justify each other round a cycle (no counter function) (rule counter)"
        )
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{}\n4 0\n"),
        wrong(
            "vertex 3 is infinite but its set is not its followers' finite values {0} (rule infinite-set)"
        )
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 1\n4 0\n"),
        wrong("vertex 3 has value 1 but the mex of its followers' finite values is 2 (rule mex)")
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{0}\n4 inf{}\n"),
        wrong(
            "vertex 3 is infinite but its set is not its followers' finite values {} (rule infinite-set)"
        )
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{0}\n4 1\n"),
        wrong(
            "vertex 3 is infinite but its set is not its followers' finite values {1} (rule infinite-set)"
        )
    );
    let bad = |s: &str| (2, String::new(), format!("error: v.txt:{s}\n"));
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{0}\n"),
        bad("4:1: expected vertex 4 (the graph has 4 vertices), found end of input")
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{0\n4 0\n"),
        bad("3:8: expected `}`, found end of the value")
    );
    assert_eq!(
        check("1 inf{}\n2 inf{}\n3 inf{0}\n4 -1\n"),
        bad("4:3: expected a value: a number or `inf{...}`, found \"-1\"")
    );
    let json = r#"[{"vertex": 1, "value": {"infinite": []}}, {"vertex": 2, "value": {"infinite": []}},
        {"vertex": 3, "value": {"infinite": [0]}}, {"vertex": 4, "value": {"infinite": [2, 1]}}]"#;
    assert_eq!(
        result(&gamegraph(&t, &["verify", "grundy", "g.txt", "-"], Some(json.as_bytes()))),
        (
            2,
            String::new(),
            "error: <stdin>: entry 4: the set of an infinite value must increase\n".into()
        )
    );
    let json = r#"[{"vertex": 1, "value": "inf{}"}]"#;
    assert_eq!(
        result(&gamegraph(&t, &["verify", "grundy", "g.txt", "-"], Some(json.as_bytes()))),
        (
            2,
            String::new(),
            "error: <stdin>:1:31: invalid type: string \"inf{}\", expected a Grundy value: a \
             number or {\"infinite\": [numbers]} at line 1 column 31\n"
                .into()
        )
    );
    let o = gamegraph(
        &t,
        &["verify", "grundy", "--json", "g.txt", "-"],
        Some(b"1 0\n2 1\n3 inf{0}\n4 0\n"),
    );
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["vertex"].clone(), v["rule"].clone()),
        (false.into(), 1.into(), "counter".into())
    );
}

#[test]
fn kernel_checks_each_property_and_the_claimed_size() {
    let t = TempDir::new("verify-kernel");
    // The 4-cycle 1 -> 2 -> 3 -> 4 -> 1: kernels {1, 3} and {2, 4}.
    t.file("c4.txt", "4 4\n1\n1 2\n2 3\n3 4\n4 1\n");
    let check = |args: &[&str]| {
        let mut all = vec!["verify", "kernel", "c4.txt"];
        all.extend(args);
        result(&gamegraph(&t, &all, None))
    };
    let yes = |s: &str| (0, format!("ok: {s}\n"), String::new());
    let no = |s: &str| (1, format!("wrong: {s}\n"), String::new());
    assert_eq!(check(&["1 3"]), yes("the set of 2 vertices is a kernel"));
    assert_eq!(check(&["2,4", "--kernel"]), yes("the set of 2 vertices is a kernel"));
    assert_eq!(check(&["1 2"]), no("not internally stable: arc 1 -> 2 (rule internal-stability)"));
    assert_eq!(
        check(&["1"]),
        no("not externally stable: vertex 2 has no arc into the set (rule external-stability)")
    );
    assert_eq!(check(&["1", "--independent"]), yes("the set of 1 vertex is internally stable"));
    assert_eq!(check(&["1 2 3", "--absorbing"]), yes("the set of 3 vertices is externally stable"));
    assert_eq!(
        check(&["1 3", "--alpha", "2"]),
        yes("the set of 2 vertices is internally stable: a witness that alpha >= 2")
    );
    assert_eq!(
        check(&["1 3", "--alpha", "3"]),
        no("the set has 2 vertices, not the 3 claimed for alpha (rule size)")
    );
    assert_eq!(
        check(&["2 4", "--beta", "2"]),
        yes("the set of 2 vertices is externally stable: a witness that beta <= 2")
    );
    assert_eq!(
        check(&["1 2", "--beta", "2", "--kernel"]),
        no("not internally stable: arc 1 -> 2 (rule internal-stability)")
    );
    let (code, _, err) = check(&["1 9"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: SET: "), "{err}");
    let (code, _, _) = check(&["1 3", "--alpha", "2", "--beta", "2"]);
    assert_eq!(code, 2);
    let o = gamegraph(&t, &["verify", "kernel", "c4.txt", "-", "--json"], Some(b"1 2\n"));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!((v["vertex"].clone(), v["arc"].clone()), (1.into(), serde_json::json!([1, 2])));
    assert_eq!(v["rule"], "internal-stability");
}

#[test]
fn kernel_passes_the_solver_on_every_fixture() {
    let t = TempDir::new("verify-kernel-fixtures");
    let mut kernels = 0;
    for file in fixtures("kernel") {
        let f = file.to_str().unwrap();
        let k = text(&gamegraph(&t, &["kernel", f], None).stdout);
        if k.trim() != "none" {
            ok(&gamegraph(&t, &["verify", "kernel", f, "-"], Some(k.as_bytes())));
            kernels += 1;
        }
        for which in ["alpha", "beta"] {
            let out = text(&gamegraph(&t, &["kernel", f, &format!("--{which}")], None).stdout);
            let mut lines = out.lines();
            let size = lines.next().unwrap().to_owned();
            let set = lines.next().unwrap_or("").to_owned();
            ok(&gamegraph(&t, &["verify", "kernel", f, &set, &format!("--{which}"), &size], None));
        }
    }
    assert!(kernels > 0);
}

#[test]
fn periods_are_checked_from_values_computed_directly() {
    let t = TempDir::new("verify-octal");
    let run = |args: &[&str]| result(&gamegraph(&t, args, None));
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "71", "--period", "12"]),
        (
            0,
            "ok: g(n + 12) = g(n) for every n >= 71: checked for 71 <= n < 156 on 168 values \
             computed directly (Guy-Smith theorem, largest removal t = 2); 71 is the least \
             pre-period and 12 the smallest period\n"
                .into(),
            String::new()
        )
    );
    let wrong = |s: &str| (1, format!("wrong: {s}\n"), String::new());
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "70", "--period", "12"]),
        wrong("the period fails at n = 70: g(70) = 6 but g(82) = 2 (rule period)")
    );
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "72", "--period", "12"]),
        wrong(
            "the pre-period 72 is not the least: the period holds from n = 71 (rule least-preperiod)"
        )
    );
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "71", "--period", "24"]),
        wrong("the period 24 is not the smallest: 12 is a period too (rule smallest-period)")
    );
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "80", "--period", "24", "--not-least"]).0,
        0
    );
    assert_eq!(
        run(&["verify", "octal", "0.77", "--preperiod", "0", "--period", "0"]),
        (2, String::new(), "error: the period must be at least 1\n".into())
    );
    assert_eq!(run(&["verify", "octal", "0.8", "--preperiod", "0", "--period", "1"]).0, 2);
    let o = gamegraph(
        &t,
        &["verify", "subtraction", "1,3,4", "--preperiod", "0", "--period", "7", "--json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!((v["ok"].clone(), v["checked_to"].clone()), (true.into(), 4.into()));
    let o = gamegraph(
        &t,
        &["verify", "subtraction", "1,2", "--preperiod", "0", "--period", "2", "--json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["n"].clone(), v["rule"].clone()),
        (false.into(), 0.into(), "period".into())
    );
}

#[test]
fn periods_of_every_octal_fixture_pass() {
    let t = TempDir::new("verify-octal-fixtures");
    let mut checked = 0;
    for file in fixtures("octal") {
        let game = fs::read_to_string(&file).unwrap();
        let line = game.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut args = vec![words[0], words[1]];
        if words.get(2) == Some(&"misere") {
            args.push("--misere");
        }
        let mut solve = args.clone();
        // A game without a period within 5000 values is left out.
        solve.extend(["--period", "--json", "--limit", "5000"]);
        let report: serde_json::Value =
            serde_json::from_slice(&gamegraph(&t, &solve, None).stdout).unwrap();
        let Some(period) = report["period"].as_object() else { continue };
        let (p, q) = (period["preperiod"].to_string(), period["period"].to_string());
        let mut verify = vec!["verify"];
        verify.extend(&args);
        verify.extend(["--preperiod", &p, "--period", &q]);
        ok(&gamegraph(&t, &verify, None));
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn period_checks_stop_at_their_time_limit() {
    let t = TempDir::new("verify-octal-time");
    // 0.6 splits heaps: four million of them take far longer than the limit.
    for args in [
        &["verify", "octal", "0.6", "--preperiod", "4000000", "--period", "1"][..],
        &["verify", "subtraction", "1,2", "--preperiod", "16000000", "--period", "3"],
    ] {
        let out = gamegraph(&t, &[args, &["--not-least", "--time-limit", "0"]].concat(), None);
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with("error: time limit of 0 s reached after computing "), "{err}");
        assert!(err.ends_with(" values; raise it with --time-limit\n"), "{err}");
    }
    let out = gamegraph(
        &t,
        &["verify", "octal", "0.77", "--preperiod", "71", "--period", "12", "--time-limit", "-1"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}
