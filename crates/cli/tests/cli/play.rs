//! `gamegraph play`: whole games piped into standard input, checked against the solvers'
//! own optimal lines.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::{TempDir, gamegraph, text};

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel).display().to_string()
}

/// Runs `gamegraph play ARGS` with `moves` on standard input; returns stdout (exit 0 checked).
fn play(args: &[&str], moves: &str) -> String {
    let dir = TempDir::new("play");
    let out = gamegraph(&dir, &[&["play"], args].concat(), Some(moves.as_bytes()));
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

fn json(args: &[&str]) -> Value {
    let dir = TempDir::new("play-json");
    let out = gamegraph(&dir, args, None);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn engine_lines(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter_map(|l| l.split("engine: ").nth(1))
        .filter(|l| !l.starts_with("wins") && !l.contains("cannot"))
        .map(str::to_owned)
        .collect()
}

/// The vertices of `retro --line` from the file's start.
fn principal_variation(file: &str) -> Vec<u64> {
    let v = json(&["retro", "--json", "--line", file]);
    v["line"]["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["vertex"].as_u64().unwrap())
        .collect()
}

#[test]
fn won_graph_game_follows_the_principal_variation() {
    let file = fixture("retro/long-path.txt");
    let pv = principal_variation(&file);
    assert_eq!(pv.len() % 2, 0, "an odd number of plies: the first player wins");
    let mine: String = pv.iter().skip(1).step_by(2).map(|v| format!("{v}\n")).collect();
    let out = play(&[&file], &mine);
    let engine: Vec<String> = pv.iter().skip(2).step_by(2).map(u64::to_string).collect();
    assert_eq!(engine_lines(&out), engine);
    assert_eq!(out.lines().last(), Some("you win: the engine cannot move"));
    assert!(!out.contains("illegal"));
}

#[test]
fn lost_graph_game_when_the_engine_moves_first() {
    let file = fixture("retro/long-path.txt");
    let pv = principal_variation(&file);
    let mine: String = pv.iter().skip(2).step_by(2).map(|v| format!("{v}\n")).collect();
    let out = play(&[&file, "--first", "engine"], &mine);
    let engine: Vec<String> = pv.iter().skip(1).step_by(2).map(u64::to_string).collect();
    assert_eq!(engine_lines(&out), engine);
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
}

#[test]
fn illegal_moves_are_refused_and_asked_again() {
    let file = fixture("retro/seed.txt");
    let out = play(&[&file], "7\nabc\nhint\n4\n");
    let legal = "the moves are 2, 4; try again";
    assert!(out.contains(&format!("illegal move: '7' is not a move here; {legal}")), "{out}");
    assert!(out.contains(&format!("illegal move: 'abc' is not a move here; {legal}")), "{out}");
    assert!(out.contains("hint: 2 keeps the draw (type 2)"), "{out}");
    assert!(out.contains("engine: 5\n"), "{out}");
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
}

#[test]
fn a_line_that_is_not_utf8_is_asked_again() {
    let file = fixture("retro/seed.txt");
    let dir = TempDir::new("play-bytes");
    let out = gamegraph(&dir, &["play", &file], Some(b"\xff\xfe\n4\n"));
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let out = text(&out.stdout);
    assert!(out.contains("illegal move: the line is not UTF-8 text; try again"), "{out}");
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
}

#[test]
fn a_repeated_position_ends_the_game_as_a_draw() {
    let file = fixture("retro/seed.txt");
    let out = play(&[&file], "2\n1\n3\n");
    assert_eq!(engine_lines(&out), ["3", "2", "1"]);
    assert_eq!(out.lines().last(), Some("draw: the position repeats with you to move"));
}

#[test]
fn input_that_ends_early_leaves_the_game_unfinished() {
    let file = fixture("retro/seed.txt");
    let out = play(&[&file, "--start", "4"], "");
    assert_eq!(out.lines().last(), Some("game left unfinished"));
}

/// The cells (x, y) of `tab --line` from cell `at` of an n x m board.
fn tab_line(n: &str, m: &str, at: &str) -> Vec<(u64, u64)> {
    let v = json(&["tab", "--json", "--rows", n, "--cols", m, "--at", at, "--line"]);
    let cell = |c: &Value| (c["x"].as_u64().unwrap(), c["y"].as_u64().unwrap());
    v["line"].as_array().unwrap().iter().map(cell).collect()
}

#[test]
fn won_tab_game_follows_the_optimal_line() {
    let line = tab_line("10", "4", "4,3");
    assert_eq!(line.len(), 4, "d = 2: three plies");
    let mine: String = line.iter().skip(1).step_by(2).map(|c| format!("{}\n", c.1)).collect();
    let out = play(&["--tab", "10,4,4,3"], &mine);
    let (x, y) = line[2];
    assert_eq!(engine_lines(&out), [format!("column {y}")]);
    assert!(out.contains(&format!("{x}  . @ . .\n")), "the piece at ({x},{y}): {out}");
    assert_eq!(out.lines().last(), Some("you win: the engine cannot move"));
}

#[test]
fn lost_tab_game_and_a_refused_column() {
    let line = tab_line("10", "4", "5,3");
    assert_eq!(line.len(), 3, "d = 0 with depth 2: two plies");
    let out = play(&["--tab", "10,4,5,3"], &format!("3\ncolumn {}\n", line[1].1));
    let legal = "the moves are column 1, column 2, column 4; try again";
    assert!(out.contains(&format!("illegal move: '3' is not a move here; {legal}")), "{out}");
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
}

#[test]
fn won_heap_game_with_the_engine_delaying() {
    // 3 xor 1 = 2: take 2 from heap 1 wins; the engine then takes one from the largest heap.
    let out = play(&["--heaps", "3,1"], "take 2 from heap 1\n1 2\n");
    assert_eq!(engine_lines(&out), ["take 1 from heap 1"]);
    assert_eq!(out.lines().last(), Some("you win: the engine cannot move"));
}

#[test]
fn lost_heap_game_and_refused_moves() {
    // 2 xor 2 = 0: every move loses; the engine answers each move by copying it.
    let out = play(&["--heaps", "2,2", "--max", "1,2"], "2 1\n1 3\n0 1\n1 1\n1 1\n");
    assert!(out.contains("illegal move: at most 1 may be taken from heap 1; try again"), "{out}");
    assert!(out.contains("illegal move: there is no heap 3 (heaps 1..2); try again"), "{out}");
    assert!(out.contains("illegal move: a move takes at least one object; try again"), "{out}");
    assert_eq!(engine_lines(&out), ["take 1 from heap 2", "take 1 from heap 2"]);
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
}

#[test]
fn misere_heaps_whoever_takes_the_last_object_loses() {
    let out = play(&["--heaps", "1", "--misere"], "1 1\n");
    assert_eq!(out.lines().last(), Some("the engine wins: you took the last object"));
    let out = play(&["--heaps", "1", "--misere", "--first", "engine"], "");
    assert_eq!(engine_lines(&out), ["take 1 from heap 1"]);
    assert_eq!(out.lines().last(), Some("you win: the engine took the last object"));
    // From 2 the engine leaves the last object to the player.
    let out = play(&["--heaps", "2", "--misere", "--first", "engine"], "1 1\n");
    assert_eq!(engine_lines(&out), ["take 1 from heap 1"]);
    assert_eq!(out.lines().last(), Some("the engine wins: you took the last object"));
}

#[test]
fn bad_games_are_refused_with_exit_code_2() {
    let dir = TempDir::new("play-bad");
    for args in [
        &["play", "--tab", "10,4,11,1"][..],
        &["play", "--tab", "10,4,1"],
        &["play", "--tab", "5000000000,4,1,1"],
        &["play", "--tab", "10,300,1,1"],
        &["play", "--tab", "10,4,1,1", "--misere"],
        &["play", &fixture("retro/seed.txt"), "--max", "1"],
        &["play", "--heaps", "3,4", "--max", "1"],
        &["play"],
        &["play", &fixture("retro/seed.txt"), "--start", "9"],
        &["play", "-"],
        &["play", "--game", "tic-tac-toe", "--json", "--move", "d4"],
        &["play", "--move", "b2", "--game", "tic-tac-toe"],
        &["play", &fixture("retro/seed.txt"), "--json", "--move", "9"],
    ] {
        let out = gamegraph(&dir, args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).starts_with("error: "), "{args:?}");
    }
}

#[test]
fn a_game_given_by_its_rules_is_played_to_its_end() {
    // Tic-tac-toe against perfect play: moves by their names, by position, and undone.
    let out = play(&["--game", "tic-tac-toe"], "b2\nhint\nO../.X./X..\nundo\nb3\na2\nc3\nc1\n");
    assert!(out.contains("3  . . .\n2  . X .\n1  . . .\n   a b c\n"), "{out}");
    assert!(out.contains("engine: a3\n"), "{out}");
    assert!(out.contains("hint: b3 ties in 7 plies (type b3)"), "{out}");
    assert!(out.contains("took back your move and the engine's reply"), "{out}");
    assert_eq!(out.lines().last(), Some("a tie: the game is over and nobody wins"), "{out}");
    // Kayles on a row of 3: taking one end pin loses to the engine.
    let out = play(&["--game", "kayles", "3"], "take 1 from 3 leaving 2\n");
    assert_eq!(out.lines().last(), Some("the engine wins"), "{out}");
    let out = play(&["--game", "kayles", "3", "--first", "engine"], "");
    assert!(out.contains("engine: take 1 from 3 leaving 1 1\n"), "{out}");
    // Connect Four takes a column by its number; a win names its line.
    let out = play(&["--game", "connect-four", "--cols", "4", "--rows", "4"], "1\n1\n1\n1\n1\n");
    assert!(out.contains("you to move: column 1, column 2, column 3, column 4\n"), "{out}");
    // A name that is no move here, and text that is neither, are asked again.
    let out = play(&["--game", "tic-tac-toe"], "d4\n.../.../...\nb2\nb2\n");
    let legal = "the moves are a3, b3, c3, a2, b2, c2, a1, b1, c1; try again";
    assert!(out.contains(&format!("illegal move: 'd4' is not a move here; {legal}")), "{out}");
    assert!(out.contains("illegal move: '.../.../...' is not a move here"), "{out}");
    assert!(out.contains("illegal move: 'b2' is not a move here; the moves are b3, c3"), "{out}");
}

#[test]
fn a_game_is_played_from_the_results_of_a_solve() {
    let dir = TempDir::new("play-results");
    let solve = ["game", "connect-four", "--cols", "4", "--rows", "4", "solve", "-o", "c4"];
    assert_eq!(gamegraph(&dir, &solve, None).status.code(), Some(0));
    // --results before or after the game's arguments.
    for args in [
        &["play", "--results", "c4", "--game", "connect-four", "--cols", "4", "--rows", "4"][..],
        &["play", "--game", "connect-four", "--cols", "4", "--rows", "4", "--results", "c4"],
    ] {
        let out = gamegraph(&dir, args, Some(b"hint\n"));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("hint: column 1 ties in 16 plies"),
            "{}",
            text(&out.stdout)
        );
    }
    let other = ["play", "--results", "c4", "--game", "connect-four", "--cols", "5", "--rows", "4"];
    let out = gamegraph(&dir, &other, Some(b""));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: c4: "), "{}", text(&out.stderr));
}

#[test]
fn the_heaps_game_shows_its_move_syntax_and_answers_help() {
    // `help` is answered with the syntax and is not an illegal move; the game goes on.
    let out = play(&["--heaps", "3,1"], "help\ntake 2 from heap 1\n1 2\n");
    let syntax = "a move: `take T from heap I` (or `T I`) takes T objects from heap I";
    assert!(out.lines().next().unwrap().starts_with(syntax), "{out}");
    assert_eq!(out.matches(syntax).count(), 2, "once at the start, once for help: {out}");
    assert!(!out.contains("illegal"), "{out}");
    assert_eq!(out.lines().last(), Some("you win: the engine cannot move"));
    // Moore's Nim_2 says that a move may take from two heaps, and takes such moves.
    let out =
        play(&["--heaps", "1,1,1", "--moore", "2"], "take 1 from heap 1, take 1 from heap 2\n");
    assert!(out.contains("up to 2 heaps at once, separated by commas"), "{out}");
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"), "{out}");
}

#[test]
fn the_tab_game_shows_the_board() {
    let out = play(&["--tab", "5,3,2,1"], "help\n");
    // Row 5 at the top; the piece at (2,1) marked @, its moves (4,2) and (5,3) marked +.
    let board = "5  . . +\n4  . + .\n3  . . .\n2  @ . .\n1  . . .\n   1 2 3\n";
    assert!(out.contains(board), "{out}");
    assert!(out.contains("a move: a column K"), "{out}");
    assert!(!out.contains("illegal"), "{out}");
}

#[test]
fn json_describes_a_position_and_checks_a_move() {
    // The page's rules come from here: legal takes, the engine's move and the position after.
    let v = json(&["play", "--heaps", "5,7,9", "--max", "2,3,4", "--json"]);
    assert_eq!(v["max_take"], serde_json::json!([2, 3, 4]));
    assert_eq!(v["engine"]["said"], "take 3 from heap 3");
    assert_eq!(v["engine"]["after"], serde_json::json!([5, 7, 6]));
    assert_eq!(v["over"], false);
    // Exact above 2^53: 2^60 + 1 against 5, the engine leaves 5 and 5.
    let v = json(&["play", "--heaps", "1152921504606846977,5", "--json"]);
    assert_eq!(v["engine"]["moves"][0]["take"].as_u64(), Some(1_152_921_504_606_846_972));
    let v = json(&["play", "--heaps", "2,2", "--json", "--move", "take 2 from heap 1"]);
    assert_eq!(v["heaps"], serde_json::json!([0, 2]));
    let v = json(&["play", "--tab", "10,4,4,3", "--json"]);
    let names: Vec<&str> =
        v["moves"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["column 1", "column 2", "column 4"]);
    let line = tab_line("10", "4", "4,3");
    assert_eq!(v["best"], format!("column {}", line[1].1));
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["remoteness"], line.len() - 1);
    // A graph too: the value of every move from the start, after a move.
    let v = json(&["play", &fixture("retro/seed.txt"), "--json", "--move", "2"]);
    assert_eq!(v["position"], "2");
    assert_eq!(v["history"].as_array().unwrap().len(), 2);
    // An illegal move is refused with exit code 2 and the reason.
    let dir = TempDir::new("play-json-bad");
    let out = gamegraph(
        &dir,
        &["play", "--heaps", "2,2", "--max", "1,2", "--json", "--move", "2 1"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("illegal move: at most 1 may be taken from heap 1"));
}

/// The lists of --heaps, --max and --tab take commas, spaces or both, in one value.
#[test]
fn lists_take_commas_or_spaces() {
    let moves = "take 2 from heap 1\n1 2\n";
    let comma = play(&["--heaps", "3,1"], moves);
    assert_eq!(play(&["--heaps", "3 1"], moves), comma);
    assert_eq!(play(&["--heaps", "3, 1"], moves), comma);
    let limited = play(&["--heaps", "2,2", "--max", "1,2"], "1 2\n1 1\n");
    assert_eq!(play(&["--heaps", "2 2", "--max", "1 2"], "1 2\n1 1\n"), limited);
    let tab = play(&["--tab", "10,4,4,3"], "1\n");
    assert_eq!(play(&["--tab", "10 4 4 3"], "1\n"), tab);
    let dir = TempDir::new("play-lists");
    let out = gamegraph(&dir, &["play", "--heaps", "3,,1"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("item 2 is missing between commas"),
        "{}",
        text(&out.stderr)
    );
}

/// The example of docs/formats.md: 1 -> 2 -> {4 W, 5 T}, 1 -> 3 -> {6 L, 7}, 8 -> 8, 8 -> 4.
const VALUED: &str = "8 8\n1\n1 2\n1 3\n2 4\n2 5\n3 6\n3 7\n8 8\n8 4\nterminal\n4 W\n5 T\n6 L\n";

#[test]
fn a_file_with_terminal_values_plays_its_four_outcome_game() {
    let dir = TempDir::new("play-values");
    let file = dir.file("valued.txt", VALUED);
    let file = file.to_str().unwrap();
    // From 2 the engine ties at 5: moving to 4 would give the player to move there the win.
    let out = play(&[file], "2\n");
    assert_eq!(engine_lines(&out), ["5"]);
    assert_eq!(out.lines().last(), Some("a tie: the game is over and nobody wins"));
    // From 3 the engine moves to 6, a loss for the player to move there.
    let out = play(&[file], "3\n");
    assert_eq!(engine_lines(&out), ["6"]);
    assert_eq!(out.lines().last(), Some("the engine wins: you cannot move"));
    // Moved to 4, the engine is to move there and has won.
    let out = play(&[file, "--start", "2"], "hint\n4\n");
    assert!(out.contains("hint: 5 ties in 1 ply"), "{out}");
    assert_eq!(out.lines().last(), Some("the engine wins"));
}

#[test]
fn game_arguments_a_game_does_not_take_are_refused() {
    let dir = TempDir::new("play-game-args");
    for (spec, why) in [
        ("tic-tac-toe foo", "unexpected 'foo': tic-tac-toe takes [--no-symmetry]"),
        ("connect-four", "--cols is missing"),
        ("connect-four --cols 5", "--rows is missing"),
        ("connect-four --cols 5X4 --rows 4", "--cols: expected a number, found '5X4'"),
        ("kayles", "ROWS is missing"),
        (
            "connect-four:5x4",
            "'connect-four:5x4' is not a game; the games are tic-tac-toe, connect-four, kayles, \
             dawsons-kayles, octal, quixo, chase, tab (a game and its arguments are written as \
             for `gamegraph game`: --game connect-four --cols 5 --rows 4)",
        ),
    ] {
        let mut args = vec!["play", "--game"];
        args.extend(spec.split(' '));
        let out = gamegraph(&dir, &args, Some(b""));
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert_eq!(text(&out.stderr), format!("error: --game {spec}: {why}\n"));
    }
}

#[test]
fn every_registered_game_is_played_in_the_terminal_by_move_names() {
    // A small instance of each game of `gamegraph game list`.
    let games = [
        "tic-tac-toe",
        "connect-four --cols 4 --rows 4",
        "kayles 4,7",
        "dawsons-kayles 10",
        "octal 0.137 9",
        "quixo 3",
        "chase 8",
        "tab 9 4 1,1",
    ];
    let listed = json(&["game", "list", "--json"]);
    let names: Vec<&str> =
        listed.as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    let mut covered: Vec<&str> = games.iter().map(|g| g.split(' ').next().unwrap()).collect();
    covered.dedup();
    assert_eq!(covered, names, "an instance per registered game");
    for game in games {
        let words: Vec<&str> = game.split(' ').collect();
        let start = json(&[&["play", "--json", "--game"], &words[..]].concat());
        // Both sides play the best move, named as the game names it: the player types the
        // name `play --json` gives as best after the moves so far.
        let mut typed = Vec::new();
        let mut view = start.clone();
        while view["over"].is_null() && typed.len() < 80 {
            typed.push(view["best"].as_str().unwrap().to_owned());
            let mut args = vec!["play", "--json"];
            for m in &typed {
                args.extend(["--move", m.as_str()]);
            }
            args.push("--game");
            args.extend(&words);
            view = json(&args);
        }
        // In the terminal the engine answers every other move; the player types the rest.
        let mine: String = typed.iter().step_by(2).map(|m| format!("{m}\n")).collect();
        let out = play(&[&["--game"], &words[..]].concat(), &mine);
        assert!(!out.contains("illegal move"), "{game}: {out}");
        for (i, m) in typed.iter().enumerate().skip(1).step_by(2) {
            assert!(out.contains(&format!("engine: {m}\n")), "{game}: move {i} {m}: {out}");
        }
        let last = out.lines().last().unwrap();
        let expected = match (view["over"].as_str().unwrap(), view["result"].as_str().unwrap()) {
            ("repeated", _) => "draw: the position repeats",
            (_, "tie") => "a tie: the game is over and nobody wins",
            // The result is for the player to move at the end: even plies, the player.
            (_, result) if (result == "loss") == typed.len().is_multiple_of(2) => "the engine wins",
            _ => "you win",
        };
        assert!(last.starts_with(expected), "{game}: {last}");
        assert!(start["board"].is_object(), "{game}: no board");
    }
}
