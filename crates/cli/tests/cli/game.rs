//! `gamegraph game`: games given by their rules, solved and queried by position, from the
//! solver and from a results file.

use crate::support;

use std::fs;

use serde_json::Value;
use support::{TempDir, gamegraph, text};

fn run(t: &TempDir, args: &[&str]) -> (i32, String, String) {
    let o = gamegraph(t, &[&["game"], args].concat(), None);
    (o.status.code().expect("exited"), text(&o.stdout), text(&o.stderr))
}

/// Everything but the last line (the time).
fn untimed(out: &str) -> String {
    let mut lines: Vec<&str> = out.lines().collect();
    assert!(lines.pop().is_some_and(|l| l.starts_with("time: ")), "{out}");
    lines.join("\n")
}

#[test]
fn tic_tac_toe_solves_to_a_tie_in_nine_over_765_positions() {
    let t = TempDir::new("ttt");
    let (code, out, err) = run(&t, &["tic-tac-toe", "solve"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        untimed(&out),
        "positions: 765 (2096 moves)\nstart: .../.../...: tie in 9\nwins: 390, losses: 224, ties: 151, draws: 0"
    );
    let (code, out, _) = run(&t, &["tic-tac-toe", "--no-symmetry", "solve", "--json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["positions"].as_u64(), v["outcome"].as_str(), v["remoteness"].as_u64()),
        (Some(5478), Some("tie"), Some(9))
    );
}

#[test]
fn a_query_gives_the_value_and_every_move_and_the_results_file_gives_the_same() {
    let t = TempDir::new("query");
    let (code, direct, err) = run(&t, &["tic-tac-toe", "query", "XX./OO./..."]);
    assert_eq!(code, 0, "{err}");
    assert!(direct.starts_with("XX./OO./...: win in 1\n"), "{direct}");
    assert!(direct.contains("  XXX/OO./...: win 0\n"), "{direct}");
    assert!(direct.contains("  XX./OO./X..: loss 1\n"), "{direct}");
    for extra in [&[][..], &["--no-remoteness"]] {
        let (code, _, err) =
            run(&t, &[&["tic-tac-toe", "solve", "--explicit", "-o", "ttt.values"], extra].concat());
        assert_eq!(code, 0, "{err}");
        let (code, from_file, err) =
            run(&t, &["tic-tac-toe", "query", "--results", "ttt.values", "XX./OO./..."]);
        assert_eq!(code, 0, "{err}");
        if extra.is_empty() {
            assert_eq!(from_file, direct);
        } else {
            assert!(from_file.starts_with("XX./OO./...: win\n"), "{from_file}");
        }
    }
    // JSON: the mover's outcome of each move.
    let (_, out, _) = run(&t, &["kayles", "4,7", "query", "--json", "4 3"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["outcome"].as_str(), v["remoteness"].as_u64()), (Some("win"), Some(5)));
    assert_eq!(
        (v["moves"][0]["position"].as_str(), v["moves"][0]["outcome"].as_str()),
        (Some("4 1"), Some("win"))
    );
}

#[test]
fn loopy_and_board_games_answer_from_the_command_line() {
    let t = TempDir::new("games");
    let (code, out, err) = run(&t, &["connect-four", "--cols", "4", "--rows", "4", "solve"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("start: ..../..../..../....: tie in 16"), "{out}");
    let (code, out, _) = run(&t, &["chase", "12", "query", "C.....M..... c"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("C.....M..... c: draw\n"), "{out}");
    let (code, out, _) = run(&t, &["dawsons-kayles", "10", "solve", "--json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"game\": \"dawsons-kayles\""), "{out}");
}

#[test]
fn bad_positions_results_files_and_limits_have_clear_errors() {
    let t = TempDir::new("bad");
    let (code, _, err) = run(&t, &["tic-tac-toe", "query", "XX./OO/..."]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: <position>:1:7: "), "{err}");
    let (code, _, err) = run(&t, &["tic-tac-toe", "query", "XXX/XXX/XXX"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(
        &t,
        &["connect-four", "--cols", "4", "--rows", "4", "solve", "--max-positions", "1000"],
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--max-positions"), "{err}");
    let (code, _, err) = run(&t, &["kayles", "4,x", "solve"]);
    assert_eq!(code, 2, "{err}");

    // A results file: damaged, cut short, of another game, missing.
    run(&t, &["tic-tac-toe", "solve", "--explicit", "-o", "ttt.values"]);
    let good = fs::read(t.join("ttt.values")).unwrap();
    let mut flipped = good.clone();
    // In the header, which every query reads (a block's damage shows when it is read).
    flipped[12] ^= 0x10;
    fs::write(t.join("flipped.values"), flipped).unwrap();
    fs::write(t.join("cut.values"), &good[..good.len() / 2]).unwrap();
    for (file, game) in
        [("flipped.values", "tic-tac-toe"), ("cut.values", "tic-tac-toe"), ("ttt.values", "chase")]
    {
        let position = if game == "chase" { "C.....M..... c" } else { "X../.../..." };
        let args: Vec<&str> = if game == "chase" {
            vec!["chase", "12", "query", "--results", file, position]
        } else {
            vec![game, "query", "--results", file, position]
        };
        let (code, out, err) = run(&t, &args);
        assert_eq!(code, 2, "{file} {game}: {out} {err}");
        assert!(err.starts_with(&format!("error: {file}: ")), "{err}");
    }
    let (code, _, err) =
        run(&t, &["tic-tac-toe", "query", "--results", "missing.values", "X../.../..."]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: missing.values: "), "{err}");
}

#[test]
fn a_results_file_is_refused_by_another_game_or_other_parameters() {
    let t = TempDir::new("other-game");
    let cases: [(&[&str], &[&str], &str, &str); 4] = [
        (
            &["kayles", "4,7"],
            &["dawsons-kayles", "4,7"],
            "4 7",
            "kayles 4,7, not dawsons-kayles 4,7",
        ),
        (
            &["tab", "20", "6", "1,1"],
            &["tab", "30", "6", "1,1"],
            "1 1",
            "tab 20x6 from 1,1, not tab 30x6 from 1,1",
        ),
        (
            &["chase", "12"],
            &["chase", "13"],
            "C.....M...... c",
            "chase 12 with symmetry, not chase 13 with symmetry",
        ),
        (
            &["tic-tac-toe"],
            &["tic-tac-toe", "--no-symmetry"],
            "X../.../...",
            "tic-tac-toe with symmetry, not tic-tac-toe without symmetry",
        ),
    ];
    for (writer, reader, position, names) in cases {
        let (code, _, err) =
            run(&t, &[writer, &["solve", "--explicit", "-o", "w.values"]].concat());
        assert_eq!(code, 0, "{err}");
        let query = ["query", "--results", "w.values", position];
        let (code, out, err) = run(&t, &[reader, &query[..]].concat());
        assert_eq!(
            (code, out.as_str(), err),
            (2, "", format!("error: w.values: values file written for {names}\n"))
        );
    }
}

#[test]
fn game_list_names_every_game_with_an_example() {
    let t = TempDir::new("list");
    let (code, out, _) = run(&t, &["list", "--json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> =
        v.as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "tic-tac-toe",
            "connect-four",
            "kayles",
            "dawsons-kayles",
            "octal",
            "quixo",
            "chase",
            "tab"
        ]
    );
}

#[test]
fn a_results_path_that_is_no_regular_file_is_refused_before_it_is_opened() {
    let t = TempDir::new("game-results-kind");
    fs::create_dir(t.join("dir")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(t.join("fifo")).status().unwrap();
    assert!(made.success());
    // A directory is the results of a tiered solve, or refused as bad input.
    let (code, _, err) = run(&t, &["kayles", "3", "query", "--results", "dir", "3"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: dir: a directory, not the results of `solve -o DIR`"), "{err}");
    for (path, why) in [
        ("fifo", "a FIFO"),
        ("/proc/self/status", "a file without a size (as those of /proc and /sys)"),
    ] {
        let (code, out, err) = run(&t, &["kayles", "3", "query", "--results", path, "3"]);
        assert_eq!((code, out.as_str()), (2, ""), "{path}");
        assert_eq!(err, format!("error: {path}: {why}, not a values file\n"));
    }
}

#[test]
fn a_bad_position_is_refused_before_the_game_is_explored() {
    let t = TempDir::new("game-query-first");
    // The standard 7 x 6 board: exploring it first would take the whole limit.
    let (code, out, err) = run(
        &t,
        &[
            "connect-four",
            "--cols",
            "7",
            "--rows",
            "6",
            "query",
            "--max-positions",
            "1000000",
            "X?garbage",
        ],
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: <position>:1:"), "{err}");
}
