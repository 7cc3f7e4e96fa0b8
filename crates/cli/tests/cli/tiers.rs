//! `gamegraph game … solve -o DIR`: games solved a tier at a time into a directory,
//! against the explicit solve, resumed, queried, and refused where they should be.

use crate::support;

use serde_json::Value;
use support::{TempDir, gamegraph, text};

fn run(t: &TempDir, args: &[&str]) -> (i32, String, String) {
    let o = gamegraph(t, &[&["game"], args].concat(), None);
    (o.status.code().expect("exited"), text(&o.stdout), text(&o.stderr))
}

fn json(t: &TempDir, args: &[&str]) -> Value {
    let (code, out, err) = run(t, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_solve_by_tiers_counts_and_answers_as_the_explicit_solve_and_resumes() {
    let t = TempDir::new("tiers");
    for game in [
        &["connect-four", "--cols", "4", "--rows", "4"][..],
        &["tic-tac-toe"],
        &["chase", "9"],
        &["quixo", "3"],
        &["kayles", "4,7"],
        &["octal", "0.137", "9,3"],
        &["tab", "20", "6", "1,1"],
    ] {
        let explicit = json(&t, &[game, &["solve", "--json"]].concat());
        let tiers = json(&t, &[game, &["solve", "-o", "dir", "--json"]].concat());
        for key in ["positions", "start", "outcome", "remoteness", "counts"] {
            assert_eq!(tiers[key], explicit[key], "{game:?} {key}");
        }
        assert_eq!(tiers["resumed"], 0);
        let again = json(&t, &[game, &["solve", "-o", "dir", "--json"]].concat());
        assert_eq!(again["resumed"].as_u64(), Some(2 * again["tiers"].as_u64().unwrap()));
        assert_eq!(again["positions"], explicit["positions"]);
        let start = explicit["start"].as_str().unwrap();
        let direct = json(&t, &[game, &["query", "--json", start]].concat());
        let stored = json(&t, &[game, &["query", "--json", "--results", "dir", start]].concat());
        assert_eq!(stored, direct, "{game:?}");
        std::fs::remove_dir_all(t.join("dir")).unwrap();
    }
}

#[test]
fn tiers_are_refused_for_other_games_and_past_the_memory() {
    let t = TempDir::new("tiers-refused");
    let (code, _, err) = run(
        &t,
        &[
            "connect-four",
            "--cols",
            "6",
            "--rows",
            "5",
            "solve",
            "-o",
            "big",
            "--max-memory",
            "100M",
        ],
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("more than the 100.0 MiB allowed"), "{err}");
    assert!(!t.join("big").exists());
    let (code, _, err) =
        run(&t, &["connect-four", "--cols", "4", "--rows", "4", "solve", "-o", "c4"]);
    assert_eq!(code, 0, "{err}");
    for other in [
        &["connect-four", "--cols", "5", "--rows", "4"][..],
        &["connect-four", "--cols", "4", "--rows", "4", "--no-symmetry"],
    ] {
        let (code, _, err) =
            run(&t, &[other, &["query", "--results", "c4", "..../..../..../...."]].concat());
        assert_eq!(code, 2, "{other:?}: {err}");
        assert!(err.contains("the directory holds"), "{err}");
        let (code, _, err) = run(&t, &[other, &["solve", "-o", "c4"]].concat());
        assert_eq!(code, 2, "{other:?}: {err}");
    }
    let (code, _, err) = run(
        &t,
        &["connect-four", "--cols", "4", "--rows", "4", "solve", "-o", "c4", "--max-memory", "4Q"],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn explicit_writes_one_values_file_and_refuses_a_directory_before_any_work() {
    let t = TempDir::new("tiers-explicit");
    let game = ["connect-four", "--cols", "4", "--rows", "4"];
    let (code, out, err) = run(&t, &[&game[..], &["solve", "-o", "dir"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("values files: ") && out.contains("bits a position"), "{out}");
    let (code, _, err) =
        run(&t, &[&game[..], &["solve", "--explicit", "-o", "c4.values"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(t.join("c4.values").is_file());
    let start = "..../..../..../....";
    let from_file =
        json(&t, &[&game[..], &["query", "--json", "--results", "c4.values", start]].concat());
    let from_dir = json(&t, &[&game[..], &["query", "--json", "--results", "dir", start]].concat());
    assert_eq!(from_file, from_dir);
    // Into a directory: refused at once, whatever the size of the game.
    let big = ["connect-four", "--cols", "7", "--rows", "6"];
    let (code, _, err) = run(&t, &[&big[..], &["solve", "--explicit", "-o", "dir"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a directory"), "{err}");
    for wrong in
        [&["solve", "--explicit", "-o", "x", "--max-memory", "1G"][..], &["solve", "--explicit"]]
    {
        let (code, _, err) = run(&t, &[&game[..], wrong].concat());
        assert_eq!(code, 2, "{wrong:?}: {err}");
    }
}
