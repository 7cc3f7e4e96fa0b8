//! `gamegraph retro` and `gamegraph-retro`, run as processes in a temporary directory.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::Output;

use support::{SEED, TempDir, run_bin};

/// `gamegraph retro ARGS` with two threads unless the test says otherwise.
fn retro(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["retro"];
    if !args.iter().any(|a| a.starts_with("--threads")) {
        all.extend(["--threads", "2"]);
    }
    all.extend(args);
    run_bin(env!("CARGO_BIN_EXE_gamegraph"), dir, &all, None)
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn failure(o: &Output) -> (i32, String) {
    assert!(o.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&o.stdout));
    (o.status.code().unwrap(), String::from_utf8(o.stderr.clone()).unwrap())
}

#[test]
fn the_answer_for_the_start_vertex_by_default() {
    let t = TempDir::new("default");
    t.file("seed.txt", SEED);
    assert_eq!(stdout(&retro(&t, &["seed.txt"])), "0\n");
    // --start overrides the file's start: 4 is W, 5 is L.
    assert_eq!(stdout(&retro(&t, &["--start", "4", "seed.txt"])), "1\n");
    assert_eq!(stdout(&retro(&t, &["--start", "5", "seed.txt"])), "2\n");
    // Standard input, with and without `-`.
    let b = env!("CARGO_BIN_EXE_gamegraph");
    assert_eq!(stdout(&run_bin(b, &t, &["retro"], Some(SEED.as_bytes()))), "0\n");
    assert_eq!(
        stdout(&run_bin(b, &t, &["retro", "-", "--start", "4"], Some(SEED.as_bytes()))),
        "1\n"
    );
}

#[test]
fn the_single_binary_behaves_the_same() {
    let t = TempDir::new("single");
    t.file("seed.txt", SEED);
    let single = env!("CARGO_BIN_EXE_gamegraph-retro");
    for args in [&["seed.txt"][..], &["--all", "seed.txt"], &["--line", "--start", "4", "seed.txt"]]
    {
        let a = stdout(&run_bin(single, &t, args, None));
        let b = stdout(&retro(&t, args));
        assert_eq!(a, b, "{args:?}");
    }
}

#[test]
fn all_prints_every_vertex() {
    let t = TempDir::new("all");
    t.file("seed.txt", SEED);
    let expected = "1 D - 2\n2 D - 3\n3 D - 1\n4 W 1 5\n5 L 0 -\n";
    assert_eq!(stdout(&retro(&t, &["--all", "seed.txt"])), expected);
    // The same on one thread and on three.
    assert_eq!(stdout(&retro(&t, &["--all", "--threads", "1", "seed.txt"])), expected);
    assert_eq!(stdout(&retro(&t, &["--all", "--threads=3", "seed.txt"])), expected);
}

#[test]
fn thread_counts_agree_on_a_generated_fixture() {
    let t = TempDir::new("threads");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/retro/gen-larger.txt");
    let fixture = fixture.to_str().unwrap();
    let one = stdout(&retro(&t, &["--all", "--threads", "1", fixture]));
    assert_eq!(one.lines().count(), 200);
    for threads in ["2", "3", "4"] {
        assert_eq!(stdout(&retro(&t, &["--all", "--threads", threads, fixture])), one);
    }
}

#[test]
fn line_follows_the_optimal_moves() {
    let t = TempDir::new("line");
    t.file("seed.txt", SEED);
    assert_eq!(
        stdout(&retro(&t, &["--line", "seed.txt"])),
        "1 D\n2 D\n3 D\n# draw: the optimal move from 3 goes back to 1, and play repeats for ever\n"
    );
    // 1 -> 2 -> 3 -> 4: 4 is terminal (L), so 3 is W, 2 is L and 1 is W.
    t.file("path.txt", "4 3\n1\n1 2\n2 3\n3 4\n");
    assert_eq!(
        stdout(&retro(&t, &["--line", "path.txt"])),
        "1 W\n2 L\n3 W\n4 L\n# 4 has no move: the player to move there loses after 3 moves\n"
    );
}

#[test]
fn json_output() {
    let t = TempDir::new("json");
    t.file("seed.txt", SEED);
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&retro(&t, &["--json", "seed.txt"]))).unwrap();
    assert_eq!(v["answer"], 0);
    assert_eq!(v["vertices"], 5);
    assert_eq!(v["arcs"], 5);
    assert_eq!(v["counts"], serde_json::json!({"win": 1, "loss": 1, "tie": 0, "draw": 3}));
    assert_eq!(
        v["start"],
        serde_json::json!({"vertex": 1, "outcome": "draw", "depth": null, "move": 2})
    );
    assert!(v.get("all").is_none() && v.get("line").is_none());

    let v: serde_json::Value =
        serde_json::from_str(&stdout(&retro(&t, &["--json", "--all", "seed.txt"]))).unwrap();
    assert_eq!(v["all"].as_array().unwrap().len(), 5);
    assert_eq!(
        v["all"][3],
        serde_json::json!({"vertex": 4, "outcome": "win", "depth": 1, "move": 5})
    );
    assert_eq!(
        v["all"][4],
        serde_json::json!({"vertex": 5, "outcome": "loss", "depth": 0, "move": null})
    );

    let v: serde_json::Value =
        serde_json::from_str(&stdout(&retro(&t, &["--json", "--line", "seed.txt"]))).unwrap();
    assert_eq!(v["line"]["end"], "repeats");
    assert_eq!(v["line"]["repeats"], 1);
    assert_eq!(v["line"]["positions"].as_array().unwrap().len(), 3);
}

#[test]
fn dot_draws_the_graph_coloured_by_outcome() {
    let t = TempDir::new("dot");
    t.file("seed.txt", SEED);
    // The answer still goes to stdout.
    assert_eq!(stdout(&retro(&t, &["--dot", "g.dot", "--start", "4", "seed.txt"])), "1\n");
    let dot = fs::read_to_string(t.join("g.dot")).unwrap();
    assert!(dot.starts_with("digraph \"retro\" {"), "{dot}");
    for arc in ["1 -> 2;", "2 -> 3;", "3 -> 1;", "1 -> 4;", "4 -> 5;"] {
        assert!(dot.contains(arc), "{arc} in {dot}");
    }
    let node =
        |v: &str| dot.lines().find(|l| l.trim_start().starts_with(&format!("{v} ["))).unwrap();
    assert!(node("1").contains("lightgray") && node("1").contains("D"), "{dot}");
    assert!(node("4").contains("palegreen") && node("4").contains("W 1"), "{dot}");
    assert!(node("5").contains("salmon") && node("5").contains("L 0"), "{dot}");
    // The line from 4 (4, 5) is highlighted, 1 is not.
    let bold = |v: &str| node(v).contains("peripheries=2");
    assert!(bold("4") && bold("5") && !bold("1"), "{dot}");
}

#[test]
fn binary_input_is_detected() {
    let t = TempDir::new("binary");
    t.file("seed.txt", SEED);
    let b = env!("CARGO_BIN_EXE_gamegraph");
    stdout(&run_bin(b, &t, &["convert", "seed.txt", "--to", "binary", "-o", "g.bin"], None));
    assert_eq!(stdout(&retro(&t, &["g.bin"])), "0\n");
    assert_eq!(
        stdout(&retro(&t, &["--all", "--format", "binary", "g.bin"])),
        stdout(&retro(&t, &["--all", "seed.txt"]))
    );
    // A truncated binary file is bad input.
    let bytes = fs::read(t.join("g.bin")).unwrap();
    fs::write(t.join("cut.bin"), &bytes[..bytes.len() - 3]).unwrap();
    let (code, err) = failure(&retro(&t, &["cut.bin"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: cut.bin: "), "{err}");
    // A flipped bit in a file read block by block is caught by the checksum.
    let mut flipped = bytes.clone();
    flipped[60] ^= 8;
    fs::write(t.join("flipped.bin"), &flipped).unwrap();
    let (code, err) = failure(&retro(&t, &["flipped.bin", "--threads", "1"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: flipped.bin: the file is corrupt: checksum mismatch"), "{err}");
    // Standard input is read as a stream, with the same answer.
    let piped = run_bin(b, &t, &["retro", "--all", "-"], Some(&bytes));
    assert_eq!(stdout(&piped), stdout(&retro(&t, &["--all", "seed.txt"])));
}

#[test]
fn arc_lists_need_a_start() {
    let t = TempDir::new("arcs");
    t.file("g.arcs", "# a 2-cycle with an exit\n1 2\n2 1\n2 3\n");
    assert_eq!(stdout(&retro(&t, &["--format", "arcs", "--start", "1", "g.arcs"])), "2\n");
    assert_eq!(
        stdout(&retro(&t, &["--format", "arcs", "--all", "g.arcs"])),
        "1 L 2 2\n2 W 1 3\n3 L 0 -\n"
    );
    let (code, err) = failure(&retro(&t, &["--format", "arcs", "g.arcs"]));
    assert_eq!(code, 2);
    assert!(err.starts_with("error: the input has no start vertex"), "{err}");
}

#[test]
fn bad_input_exits_2_with_file_line_and_column() {
    let t = TempDir::new("bad");
    for (name, contents, expected) in [
        ("range.txt", "2 1\n1\n1 3\n", "error: range.txt:3:3: "),
        ("start.txt", "2 1\n7\n1 2\n", "error: start.txt:2:1: "),
        ("few.txt", "3 2\n1\n1 2\n", "error: few.txt:"),
        ("many.txt", "3 1\n1\n1 2\n2 3\n", "error: many.txt:4:1: "),
        ("word.txt", "3 1\n1\n1 x\n", "error: word.txt:3:3: "),
        ("empty.txt", "", "error: empty.txt:"),
        ("overflow.txt", "3 1\n1\n1 99999999999999999999999\n", "error: overflow.txt:3:3: "),
    ] {
        t.file(name, contents);
        let (code, err) = failure(&retro(&t, &[name]));
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.starts_with(expected), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
    }
}

#[test]
fn bad_arguments_exit_2() {
    let t = TempDir::new("args");
    t.file("seed.txt", SEED);
    let (code, err) = failure(&retro(&t, &["--start", "6", "seed.txt"]));
    assert_eq!((code, err.as_str()), (2, "error: --start 6 is outside 1..5\n"));
    let (code, err) = failure(&retro(&t, &["--start", "0", "seed.txt"]));
    assert_eq!((code, err.as_str()), (2, "error: --start 0 is outside 1..5\n"));
    let (code, err) = failure(&retro(&t, &["--threads", "0", "seed.txt"]));
    assert_eq!((code, err.as_str()), (2, "error: --threads must be at least 1\n"));
    let (code, _) = failure(&retro(&t, &["--all", "--line", "seed.txt"]));
    assert_eq!(code, 2);
    let (code, err) = failure(&retro(&t, &["missing.txt"]));
    assert_eq!(code, 2);
    assert!(err.starts_with("error: missing.txt: no such file or directory"), "{err}");
}

#[test]
fn help_has_examples() {
    let t = TempDir::new("help");
    let help = stdout(&run_bin(env!("CARGO_BIN_EXE_gamegraph"), &t, &["retro", "--help"], None));
    assert!(help.contains("Examples:") && help.contains("--all") && help.contains("--line"));
}

#[test]
fn the_answer_goes_to_a_file_with_dash_o() {
    let t = TempDir::new("retro-o");
    t.file("g.txt", SEED);
    let o = run_bin(support::GAMEGRAPH, &t, &["retro", "--all", "-o", "table.txt", "g.txt"], None);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    assert_eq!(
        fs::read_to_string(t.join("table.txt")).unwrap(),
        "1 D - 2\n2 D - 3\n3 D - 1\n4 W 1 5\n5 L 0 -\n"
    );
    let o = run_bin(
        support::GAMEGRAPH,
        &t,
        &["retro", "--all", "-o", "x.txt", "--dot", "x.txt", "g.txt"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
}

/// Sinks 4 (W), 5 (T), 6 (L) and 7 (no value: L); 8 loops on itself and may go to 4.
const VALUES: &str = "8 8\n1\n1 2\n1 3\n2 4\n2 5\n3 6\n3 7\n8 8\n8 4\nterminal\n4 W\n5 T\n6 L\n";

#[test]
fn terminal_values_give_four_outcomes_worked_out_by_hand() {
    let t = TempDir::new("values");
    t.file("v.txt", VALUES);
    // 3 moves to losses only: W in 1. 2 cannot win (4 is a win for the opponent) nor lose
    // (5 is a tie): T in 1 through 5. 1 likes the tie of 2 better than the win of 3 for
    // the opponent: T in 2. 8 has no loss or tie to move to and can loop: D.
    let table = "1 T 2 2\n2 T 1 5\n3 W 1 6\n4 W 0 -\n5 T 0 -\n6 L 0 -\n7 L 0 -\n8 D - 8\n";
    assert_eq!(stdout(&retro(&t, &["--all", "v.txt"])), table);
    assert_eq!(stdout(&retro(&t, &["v.txt"])), "3\n");
    assert_eq!(stdout(&retro(&t, &["--start", "3", "v.txt"])), "1\n");
    assert_eq!(stdout(&retro(&t, &["--start", "7", "v.txt"])), "2\n");
    assert_eq!(stdout(&retro(&t, &["--start", "8", "v.txt"])), "0\n");
    assert_eq!(
        stdout(&retro(&t, &["--line", "v.txt"])),
        "1 T\n2 T\n5 T\n# 5 has no move: the game ends in a tie after 2 moves\n"
    );
    assert_eq!(
        stdout(&retro(&t, &["--line", "--start", "3", "v.txt"])),
        "3 W\n6 L\n# 6 has no move: the player to move there loses after 1 move\n"
    );
    assert_eq!(
        stdout(&retro(&t, &["--line", "--start", "8", "v.txt"])),
        "8 D\n# draw: the optimal move from 8 goes back to 8, and play repeats for ever\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&retro(&t, &["--json", "--all", "v.txt"]))).unwrap();
    assert_eq!(json["counts"], serde_json::json!({"win": 2, "loss": 2, "tie": 3, "draw": 1}));
    assert_eq!(json["answer"], 3);
    assert_eq!(
        json["start"],
        serde_json::json!({"vertex": 1, "outcome": "tie", "depth": 2, "move": 2})
    );
    assert_eq!(
        json["all"][7],
        serde_json::json!({"vertex": 8, "outcome": "draw", "depth": null, "move": 8})
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&retro(&t, &["--json", "--line", "v.txt"]))).unwrap();
    let steps = [(1, "tie"), (2, "tie"), (5, "tie")]
        .map(|(v, o)| serde_json::json!({"vertex": v, "outcome": o}));
    assert_eq!(json["line"], serde_json::json!({"positions": steps, "end": "terminal"}));
    // The same from the binary format, mapped and read.
    let o = support::gamegraph(&t, &["convert", "v.txt", "--to", "binary", "-o", "v.bin"], None);
    assert!(o.status.success());
    assert_eq!(stdout(&retro(&t, &["--all", "v.bin"])), table);
    assert_eq!(stdout(&retro(&t, &["--all", "--no-mmap", "v.bin"])), table);
    // The drawing labels with remoteness and colours a tie.
    stdout(&retro(&t, &["--dot", "v.dot", "v.txt"]));
    let dot = fs::read_to_string(t.join("v.dot")).unwrap();
    assert!(dot.contains("1 [label=\"1\\nT 2\", style=filled, fillcolor=\"khaki\""), "{dot}");
}

#[test]
fn terminal_values_in_info_convert_and_errors() {
    let t = TempDir::new("values-io");
    t.file("v.txt", VALUES);
    let info = support::gamegraph(&t, &["info", "v.txt"], None);
    assert!(
        support::text(&info.stdout)
            .ends_with("sinks: 4\nmax out-degree: 2\nterminal values: 3 (1 W, 1 L, 1 T)\n")
    );
    let plain = support::gamegraph(&t, &["info", "--json", "v.txt"], None);
    let json: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(
        json["terminal_values"],
        serde_json::json!({"total": 3, "win": 1, "loss": 1, "tie": 1})
    );
    // Text -> binary (with and without the predecessor index) -> text gives the text back.
    for extra in [&[][..], &["--with-predecessors"]] {
        let mut args = vec!["convert", "v.txt", "--to", "binary", "-o", "v.bin"];
        args.extend(extra);
        assert!(support::gamegraph(&t, &args, None).status.success());
        let back = support::gamegraph(&t, &["convert", "v.bin", "--to", "header"], None);
        assert_eq!(support::text(&back.stdout), VALUES, "{extra:?}");
    }
    // A drawing keeps the values in the labels of their vertices.
    let dot = support::gamegraph(&t, &["convert", "v.txt", "--to", "dot"], None);
    let dot = support::text(&dot.stdout);
    assert!(dot.contains("5 [label=\"5\\nT\"]"), "{dot}");
    assert!(dot.contains("4 [label=\"4\\nW\"]"), "{dot}");
    let arcs = support::gamegraph(&t, &["convert", "v.txt", "--to", "arcs"], None);
    assert_eq!(
        failure(&arcs),
        (
            2,
            "error: the input has terminal values (3), which an arc list cannot hold: \
             convert to header or binary\n"
                .into()
        )
    );
    // A reader error in the section: the file, line and column, exit 2.
    t.file("bad.txt", "3 1\n1\n1 2\nterminal\n3 W\n1 T\n");
    assert_eq!(
        failure(&retro(&t, &["bad.txt"])),
        (
            2,
            "error: bad.txt:6:1: vertex 1 has moves: only a vertex without moves has a \
             terminal value\n"
                .into()
        )
    );
    // A file without values: info says nothing of them.
    t.file("seed.txt", SEED);
    let info = support::gamegraph(&t, &["info", "seed.txt"], None);
    assert!(!support::text(&info.stdout).contains("terminal"));
}

#[test]
fn terminal_values_agree_with_the_game_solver_on_random_graphs() {
    use gamegraph_game::{Terminal, solve};
    use gamegraph_graph::{Graph, Vertex};
    let t = TempDir::new("values-random");
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k
    };
    for round in 0..30 {
        let n = 1 + next(14) as u32;
        let m = next(2 * u64::from(n) + 1);
        let arcs: Vec<(Vertex, Vertex)> = (0..m)
            .map(|_| (Vertex(next(u64::from(n)) as u32), Vertex(next(u64::from(n)) as u32)))
            .collect();
        let g = Graph::from_arcs(n as usize, &arcs).unwrap();
        let values: Vec<Option<Terminal>> = (0..n)
            .map(|v| {
                let sink = g.out_degree(Vertex(v)) == 0;
                [None, Some(Terminal::Win), Some(Terminal::Loss), Some(Terminal::Tie)]
                    [next(4) as usize]
                    .filter(|_| sink)
            })
            .collect();
        let mut text = format!("{n} {m}\n1\n");
        for (u, v) in &arcs {
            text += &format!("{} {}\n", u.one_based(), v.one_based());
        }
        text += "terminal\n";
        for (v, value) in values.iter().enumerate() {
            let letter = match value {
                Some(Terminal::Win) => "W",
                Some(Terminal::Loss) => "L",
                Some(Terminal::Tie) => "T",
                None => continue,
            };
            text += &format!("{} {letter}\n", v + 1);
        }
        t.file("r.txt", &text);
        let s = solve(&g, |v| values[v.index()].unwrap_or(Terminal::Loss));
        let mut want = String::new();
        for v in g.vertices() {
            want += &format!(
                "{} {} {} {}\n",
                v.one_based(),
                s.outcome(v).letter(),
                s.remoteness(v).map_or("-".into(), |r| r.to_string()),
                s.best_move(&g, v).map_or("-".into(), |w| w.one_based().to_string())
            );
        }
        assert_eq!(stdout(&retro(&t, &["--all", "r.txt"])), want, "round {round}:\n{text}");
    }
}

#[test]
fn commands_of_the_game_without_values_refuse_terminal_values() {
    let t = TempDir::new("values-refused");
    t.file("v.txt", VALUES);
    t.file("table.txt", "1 0\n");
    let refused = |command: &str| {
        format!(
            "error: the file has terminal values (win, loss or tie at vertices without \
             moves), which {command} does not solve: use gamegraph retro\n"
        )
    };
    for (args, command) in [
        (&["grundy", "v.txt"][..], "grundy"),
        (&["kernel", "v.txt"], "kernel"),
        (&["verify", "grundy", "v.txt", "table.txt"], "verify grundy"),
        (&["verify", "kernel", "v.txt", "1"], "verify kernel"),
    ] {
        let out = support::gamegraph(&t, args, None);
        assert_eq!(failure(&out), (2, refused(command)), "{args:?}");
    }
}
