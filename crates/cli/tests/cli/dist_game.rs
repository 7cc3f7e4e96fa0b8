//! `gamegraph dist game`: games solved tier by tier by processes on loopback, against
//! `gamegraph game NAME solve -o DIR` (the same files byte for byte, the same summary);
//! refusals, a killed process, and the resume after it.

use crate::dist::hostfile;
use crate::support;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{GAMEGRAPH, TempDir, gamegraph, text};

/// Process `process` solving `game` into `dir/p<process>` with `options`.
fn spawn(dir: &Path, game: &[&str], options: &[&str], process: usize) -> Child {
    let (p, out) = (process.to_string(), format!("p{process}"));
    Command::new(GAMEGRAPH)
        .args(["dist", "game"])
        .args(game)
        .args(["solve", "-o", &out, "--hostfile", "hosts", "--process", &p])
        .args(["--connect-timeout", "20"])
        .args(options)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Every process of a cluster of `processes` on loopback; their outputs. A run whose port
/// another test took first is made again on new ports (three tries).
fn cluster(
    dir: &Path,
    processes: usize,
    game: &[&str],
    options: impl Fn(usize) -> Vec<String>,
) -> Vec<Output> {
    for _ in 0..3 {
        hostfile(dir, processes);
        let children: Vec<Child> = (0..processes)
            .map(|p| {
                let o = options(p);
                let o: Vec<&str> = o.iter().map(String::as_str).collect();
                spawn(dir, game, &o, p)
            })
            .collect();
        let outs: Vec<Output> =
            children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
        if !outs.iter().any(|o| text(&o.stderr).contains("Address already in use")) {
            return outs;
        }
    }
    panic!("no free ports in three tries");
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap())
        })
        .filter(|(name, _)| name != "part")
        .collect()
}

/// The summary without its time line.
fn summary(stdout: &[u8], dir: &str) -> String {
    text(stdout)
        .lines()
        .filter(|l| !l.starts_with("time:"))
        .map(|l| l.replace(dir, "DIR") + "\n")
        .collect()
}

/// `game` on `processes` × `workers` gives the files and the summary of the one-machine
/// solve, on process 0; the others print nothing.
fn check_same(t: &Path, game: &[&str], processes: usize, workers: usize) {
    let mut args = vec!["game"];
    args.extend(game);
    args.extend(["solve", "-o", "one"]);
    let one = gamegraph(t, &args, None);
    assert!(one.status.success(), "{}", text(&one.stderr));
    let w = workers.to_string();
    let outs = cluster(t, processes, game, |_| vec!["--workers".into(), w.clone()]);
    for (p, o) in outs.iter().enumerate() {
        assert_eq!(o.status.code(), Some(0), "{game:?} process {p}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "");
        if p > 0 {
            assert!(o.stdout.is_empty());
        }
    }
    assert_eq!(summary(&outs[0].stdout, "p0"), summary(&one.stdout, "one"), "{game:?}");
    assert!(files(&t.join("p0")) == files(&t.join("one")), "{game:?}: the files differ");
    fs::remove_dir_all(t.join("one")).unwrap();
    for p in 0..processes {
        fs::remove_dir_all(t.join(format!("p{p}"))).unwrap();
    }
}

#[test]
fn every_shipped_game_with_tiers_gives_the_one_machine_files() {
    let t = TempDir::new("dist-game");
    check_same(&t, &["connect-four", "--cols", "4", "--rows", "4"], 3, 2);
    check_same(&t, &["connect-four", "--cols", "4", "--rows", "4"], 1, 2);
    check_same(&t, &["tic-tac-toe"], 2, 1);
    check_same(&t, &["chase", "8"], 3, 1);
    check_same(&t, &["kayles", "5,3"], 2, 2);
    check_same(&t, &["octal", "0.137", "6,2"], 2, 1);
    check_same(&t, &["quixo", "3"], 2, 1);
    check_same(&t, &["tab", "30", "4", "1,2"], 2, 1);
}

#[test]
fn processes_given_other_games_parameters_or_settings_exit_2_on_every_process() {
    let t = TempDir::new("dist-game-differ");
    let four = ["connect-four", "--cols", "4", "--rows", "4"];
    let five = ["connect-four", "--cols", "4", "--rows", "5"];
    // (process 0's game and options, process 1's)
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: [Case<'_>; 3] = [
        (&four, &[], &five, &[]),
        (&four, &[], &four, &["--no-remoteness"]),
        (&four, &[], &["tic-tac-toe"], &[]),
    ];
    for (g0, o0, g1, o1) in cases {
        hostfile(&t, 2);
        let children = [spawn(&t, g0, o0, 0), spawn(&t, g1, o1, 1)];
        for c in children {
            let o = c.wait_with_output().unwrap();
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{g1:?} {o1:?}: {err}");
            assert!(err.contains("were given different queries"), "{err}");
        }
    }
    assert!(!t.join("p0").exists());
    // Another game than the one a directory holds: exit 2.
    let outs = cluster(&t, 1, &["tic-tac-toe"], |_| vec![]);
    assert_eq!(outs[0].status.code(), Some(0));
    let outs = cluster(&t, 1, &four, |_| vec![]);
    assert_eq!(outs[0].status.code(), Some(2), "{}", text(&outs[0].stderr));
    assert!(text(&outs[0].stderr).contains("the directory holds"), "{}", text(&outs[0].stderr));
}

#[test]
fn bad_words_exit_2_with_what_was_expected() {
    let t = TempDir::new("dist-game-usage");
    for (args, says) in [
        (vec!["dist", "game", "connect-four", "--cols", "4", "--rows", "4"], "expected `solve`"),
        (
            vec![
                "dist",
                "game",
                "connect-four",
                "--cols",
                "4",
                "solve",
                "-o",
                "x",
                "--hostfile",
                "h",
                "--process",
                "0",
            ],
            "--rows is missing",
        ),
        (vec!["dist", "game", "tic-tac-toe", "solve", "-o", "x"], "--hostfile"),
        (
            vec!["dist", "game", "nim", "solve", "-o", "x", "--hostfile", "h", "--process", "0"],
            "is not a game",
        ),
    ] {
        let o = gamegraph(&t, &args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains(says), "{args:?}: {}", text(&o.stderr));
    }
    let o = gamegraph(&t, &["dist", "game", "tic-tac-toe", "solve", "--help"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("--hostfile <H>"));
}

#[test]
fn a_process_killed_mid_run_ends_the_other_and_the_run_resumes_to_the_same_files() {
    let t = TempDir::new("dist-game-kill");
    let game = ["connect-four", "--cols", "5", "--rows", "4"];
    hostfile(&t, 2);
    let zero = spawn(&t, &game, &[], 0);
    let mut one = spawn(&t, &game, &[], 1);
    // Killed once it has recorded a few steps.
    let manifest = t.join("p1").join("manifest");
    let recorded = || fs::read_to_string(&manifest).is_ok_and(|m| m.matches("reach").count() >= 8);
    let since = Instant::now();
    while !recorded() && since.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    one.kill().unwrap();
    one.wait().unwrap();
    let o = zero.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert!(text(&o.stderr).contains("process 1 ended"), "{}", text(&o.stderr));
    // The same commands again: they resume from the steps both recorded.
    let outs = cluster(&t, 2, &game, |_| vec![]);
    for o in &outs {
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    }
    assert!(text(&outs[0].stdout).contains("resumed:"), "{}", text(&outs[0].stdout));
    let mut args = vec!["game"];
    args.extend(game);
    args.extend(["solve", "-o", "one"]);
    assert!(gamegraph(&t, &args, None).status.success());
    assert!(files(&t.join("p0")) == files(&t.join("one")), "the files differ");
    assert_eq!(files(&t.join("p1")).into_keys().collect::<Vec<_>>(), ["manifest"]);
}
