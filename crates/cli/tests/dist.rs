//! `gamegraph dist retro`: clusters of processes on loopback, compared byte for byte with
//! `gamegraph retro`, and their failures.

mod support;

use std::fs;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{GAMEGRAPH, SEED, TempDir, gamegraph, text};

/// A hostfile `hosts` in `dir` with `k` loopback ports free now.
fn hostfile(dir: &Path, k: usize) {
    let listeners: Vec<TcpListener> =
        (0..k).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let lines: String =
        listeners.iter().map(|l| format!("{}\n", l.local_addr().unwrap())).collect();
    fs::write(dir.join("hosts"), lines).unwrap();
}

fn spawn(dir: &Path, args: &[&str], process: usize) -> Child {
    let p = process.to_string();
    Command::new(GAMEGRAPH)
        .args(["dist", "retro", "--hostfile", "hosts", "--process", &p, "--connect-timeout", "20"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs a cluster of `processes` × `workers` on `args`; returns every process's output.
fn cluster(dir: &Path, processes: usize, workers: usize, args: &[&str]) -> Vec<Output> {
    hostfile(dir, processes);
    let w = workers.to_string();
    let mut all = vec!["--workers", &w];
    all.extend(args);
    let children: Vec<Child> = (0..processes).map(|p| spawn(dir, &all, p)).collect();
    children.into_iter().map(|c| c.wait_with_output().unwrap()).collect()
}

/// The cluster prints on process 0 exactly what `gamegraph retro` prints, and nothing else.
fn check_same(dir: &Path, processes: usize, workers: usize, args: &[&str]) {
    let mut retro = vec!["retro", "--threads", "1"];
    retro.extend(args);
    let want = gamegraph(dir, &retro, None);
    assert!(want.status.success(), "{}", text(&want.stderr));
    let outs = cluster(dir, processes, workers, args);
    for (p, o) in outs.iter().enumerate() {
        assert!(
            o.status.success(),
            "{processes}x{workers} {args:?} process {p}: {}",
            text(&o.stderr)
        );
        if p == 0 {
            assert_eq!(text(&o.stdout), text(&want.stdout), "{processes}x{workers} {args:?}");
        } else {
            assert!(o.stdout.is_empty());
        }
    }
}

/// A random graph with cycles, self-loops, sinks and isolated vertices, in text and binary.
fn random_graphs(t: &TempDir) {
    let g = gamegraph(
        t,
        &["gen", "--vertices", "300", "--arcs", "420", "--seed", "11", "-o", "g.txt"],
        None,
    );
    assert!(g.status.success(), "{}", text(&g.stderr));
    let c = gamegraph(t, &["convert", "g.txt", "--to", "binary", "-o", "g.bin"], None);
    assert!(c.status.success(), "{}", text(&c.stderr));
}

#[test]
fn one_process_equals_retro_on_every_fixture_and_random_graphs() {
    let t = TempDir::new("dist-one");
    random_graphs(&t);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/retro");
    let mut fixtures: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 10);
    for (i, f) in fixtures.iter().enumerate() {
        let name = f.file_name().unwrap().to_str().unwrap();
        fs::copy(f, t.join(name)).unwrap();
        check_same(&t, 1, 1 + i % 2, &["--all", name]);
    }
    for workers in [1, 2] {
        for file in ["g.txt", "g.bin"] {
            check_same(&t, 1, workers, &["--all", file]);
            check_same(&t, 1, workers, &["--start", "7", file]);
            check_same(&t, 1, workers, &["--json", "--start", "3", file]);
        }
    }
    t.file("seed.txt", SEED);
    check_same(&t, 1, 2, &["seed.txt"]);
    check_same(&t, 1, 2, &["--line", "seed.txt"]);
}

#[test]
fn several_processes_equal_retro() {
    let t = TempDir::new("dist-many");
    random_graphs(&t);
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/retro/repeated-arcs.txt");
    fs::copy(fixture, t.join("r.txt")).unwrap();
    for (processes, workers) in [(2, 1), (2, 2), (3, 1)] {
        check_same(&t, processes, workers, &["--all", "g.bin"]);
        check_same(&t, processes, workers, &["--start", "5", "g.txt"]);
        check_same(&t, processes, workers, &["--all", "r.txt"]);
    }
}

#[test]
fn shards_merge_into_the_table_of_retro() {
    let t = TempDir::new("dist-shards");
    random_graphs(&t);
    for (processes, workers, file) in [(2, 2, "g.bin"), (3, 1, "g.txt"), (1, 1, "g.txt")] {
        let want = gamegraph(&t, &["retro", "--all", file], None);
        let _ = fs::remove_dir_all(t.join("out"));
        for (p, o) in
            cluster(&t, processes, workers, &["--all", "--shards", "out", file]).iter().enumerate()
        {
            assert!(o.status.success(), "process {p}: {}", text(&o.stderr));
            assert!(o.stdout.is_empty());
        }
        assert!(t.join(format!("out/shard-{}.txt", processes - 1)).exists());
        let merged = gamegraph(&t, &["dist", "merge", "out"], None);
        assert!(merged.status.success(), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), text(&want.stdout), "{processes}x{workers} {file}");
    }
    // A shard that lost a line, and a missing shard.
    let shard = t.join("out/shard-0.txt");
    let lines = fs::read_to_string(&shard).unwrap();
    let (_, rest) = lines.split_once('\n').unwrap();
    let (second, _) = rest.split_once('\n').unwrap();
    let second: String = second.to_owned();
    fs::write(&shard, lines.replacen(&format!("{second}\n"), "", 1)).unwrap();
    let o = gamegraph(&t, &["dist", "merge", "out"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let found = second.split(' ').next().unwrap().parse::<u64>().unwrap() + 1;
    assert_eq!(
        text(&o.stderr),
        format!("error: out/shard-0.txt:2:1: expected vertex 2, found `{found}`\n")
    );
    fs::remove_file(&shard).unwrap();
    let o = gamegraph(&t, &["dist", "merge", "out"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).starts_with("error: out/shard-0.txt: "), "{}", text(&o.stderr));
}

#[test]
fn a_peer_that_never_comes_ends_every_process_with_exit_1() {
    let t = TempDir::new("dist-timeout");
    t.file("seed.txt", SEED);
    hostfile(&t, 2);
    let started = Instant::now();
    for p in ["0", "1"] {
        let o = gamegraph(
            &t,
            &[
                "dist",
                "retro",
                "seed.txt",
                "--hostfile",
                "hosts",
                "--process",
                p,
                "--connect-timeout",
                "2",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert_eq!(
            text(&o.stderr),
            "error: the other processes did not all connect within 2 s (raise it with --connect-timeout SECS)\n"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_peer_killed_mid_run_ends_the_others_with_exit_1() {
    let t = TempDir::new("dist-kill");
    // A path of 20000 positions takes 20000 rounds: long enough to kill a process.
    let mut path = String::from("20000 19999\n1\n");
    for i in 1..20000 {
        path.push_str(&format!("{i} {}\n", i + 1));
    }
    t.file("path.txt", &path);
    hostfile(&t, 2);
    let zero = spawn(&t, &["path.txt"], 0);
    let mut one = spawn(&t, &["path.txt"], 1);
    std::thread::sleep(Duration::from_millis(2500));
    one.kill().unwrap();
    one.wait().unwrap();
    let o = zero.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert!(
        text(&o.stderr).starts_with("error: lost the connection to a peer process"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn bad_hostfiles_and_process_numbers_exit_2() {
    let t = TempDir::new("dist-hosts");
    t.file("seed.txt", SEED);
    let run = |args: &[&str]| {
        let mut all = vec!["dist", "retro", "seed.txt", "--hostfile", "hosts"];
        all.extend(args);
        gamegraph(&t, &all, None)
    };
    t.file("hosts", "127.0.0.1:7000\n127.0.0.1:http\n");
    let o = run(&["--process", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: hosts:2:11: expected a port 1..65535, found `http`\n");
    t.file("hosts", "127.0.0.1:7000\n");
    let o = run(&["--process", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: --process 1 is outside 0..0 (hosts has 1 line)\n");
    let o = run(&["--process", "0", "--workers", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_graphs_give_retros_errors_on_every_process() {
    let t = TempDir::new("dist-bad");
    // A text file is read by process 0, which tells the others.
    t.file("bad.txt", "3 1\n1\n1 9\n");
    let want = gamegraph(&t, &["retro", "bad.txt"], None);
    assert_eq!(want.status.code(), Some(2));
    let message = text(&want.stderr);
    for (p, o) in cluster(&t, 2, 1, &["bad.txt"]).iter().enumerate() {
        assert_eq!(o.status.code(), Some(2), "process {p}");
        if p == 0 {
            assert_eq!(text(&o.stderr), message);
        } else {
            let told = message.replacen("error: ", "error: process 0: ", 1);
            assert_eq!(text(&o.stderr), told);
        }
    }
    // A binary file is judged by every process together: damage anywhere is reported by
    // all of them as `retro` reports it.
    random_graphs(&t);
    let good = fs::read(t.join("g.bin")).unwrap();
    for at in [60, good.len() / 2, good.len() - 20] {
        let mut bad = good.clone();
        bad[at] ^= 8;
        fs::write(t.join("bad.bin"), &bad).unwrap();
        let want = gamegraph(&t, &["retro", "bad.bin"], None);
        assert_eq!(want.status.code(), Some(2));
        for (p, o) in cluster(&t, 2, 1, &["--all", "bad.bin"]).iter().enumerate() {
            assert_eq!(o.status.code(), Some(2), "process {p}");
            assert_eq!(text(&o.stderr), text(&want.stderr), "byte {at}, process {p}");
        }
    }
}

#[test]
fn a_text_file_needs_to_be_readable_by_process_0_only() {
    let t = TempDir::new("dist-slow");
    random_graphs(&t);
    let want = gamegraph(&t, &["retro", "--all", "g.txt"], None);
    hostfile(&t, 2);
    let zero = spawn(&t, &["--all", "g.txt"], 0);
    let one = spawn(&t, &["--all", "not-here.txt"], 1);
    let (zero, one) = (zero.wait_with_output().unwrap(), one.wait_with_output().unwrap());
    assert!(zero.status.success() && one.status.success(), "{}", text(&one.stderr));
    assert_eq!(text(&zero.stdout), text(&want.stdout));
    assert!(one.stdout.is_empty());
}

#[test]
fn processes_given_different_graphs_exit_2() {
    let t = TempDir::new("dist-mismatch");
    random_graphs(&t);
    let g = gamegraph(
        &t,
        &[
            "gen",
            "--vertices",
            "30",
            "--arcs",
            "40",
            "--seed",
            "2",
            "--to",
            "binary",
            "-o",
            "h.bin",
        ],
        None,
    );
    assert!(g.status.success(), "{}", text(&g.stderr));
    hostfile(&t, 2);
    let zero = spawn(&t, &["g.bin"], 0);
    let one = spawn(&t, &["h.bin"], 1);
    for o in [zero.wait_with_output().unwrap(), one.wait_with_output().unwrap()] {
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            text(&o.stderr),
            "error: the processes do not read the same graph: process 0 reads a binary file of \
             300 vertices and 420 arcs, process 1 reads a binary file of 30 vertices and 40 arcs\n"
        );
    }
}
