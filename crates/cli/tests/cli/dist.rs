//! `gamegraph dist retro`: clusters of processes on loopback, compared byte for byte with
//! `gamegraph retro`, and their failures.

use crate::support;

use std::fs;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{GAMEGRAPH, SEED, TempDir, gamegraph, text};

/// A hostfile `hosts` in `dir` with `k` loopback ports free now.
pub(crate) fn hostfile(dir: &Path, k: usize) {
    let listeners: Vec<TcpListener> =
        (0..k).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let lines: String =
        listeners.iter().map(|l| format!("{}\n", l.local_addr().unwrap())).collect();
    fs::write(dir.join("hosts"), lines).unwrap();
}

fn spawn(dir: &Path, args: &[&str], process: usize) -> Child {
    let mut all = vec!["--connect-timeout", "20"];
    all.extend(args);
    spawn_with(dir, &all, process)
}

/// Process `process` of the cluster of `dir/hosts` on `args` alone.
fn spawn_with(dir: &Path, args: &[&str], process: usize) -> Child {
    let p = process.to_string();
    Command::new(GAMEGRAPH)
        .args(["dist", "retro", "--hostfile", "hosts", "--process", &p])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs a cluster of `processes` × `workers` on `args`; returns every process's output.
/// The ports are free when the hostfile is written, but another test may take one before
/// the cluster binds it: a run that says so is made again on new ports (three tries).
fn cluster(dir: &Path, processes: usize, workers: usize, args: &[&str]) -> Vec<Output> {
    let w = workers.to_string();
    let mut all = vec!["--workers", &w];
    all.extend(args);
    let mut tries = 0;
    loop {
        hostfile(dir, processes);
        let children: Vec<Child> = (0..processes).map(|p| spawn(dir, &all, p)).collect();
        let outs: Vec<Output> =
            children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
        tries += 1;
        let taken = outs.iter().any(|o| text(&o.stderr).contains("Address already in use"));
        if !taken || tries == 3 {
            return outs;
        }
    }
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
        format!("error: out/shard-0.txt:2:1: expected vertex 2, found \"{found}\"\n")
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
    // A path of 200000 positions takes 200000 rounds: long enough to kill a process.
    long_path(&t, 200_000);
    hostfile(&t, 2);
    let zero = spawn(&t, &["path.txt"], 0);
    let mut one = spawn(&t, &["path.txt"], 1);
    std::thread::sleep(Duration::from_millis(2500));
    one.kill().unwrap();
    one.wait().unwrap();
    let o = wait_bounded(zero, Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert_eq!(
        text(&o.stderr),
        "error: lost the connection to a peer process: process 1 ended before the solve \
         finished\n"
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
    assert_eq!(text(&o.stderr), "error: hosts:2:11: expected a port 1..65535, found \"http\"\n");
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
            assert_eq!(o.status.code(), Some(2), "process {p}: {}", text(&o.stderr));
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

/// Waits for `child` at most `limit`; kills it and fails the test past that.
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a process still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The address of process `p` in the hostfile of `dir`.
fn address(dir: &Path, p: usize) -> String {
    fs::read_to_string(dir.join("hosts")).unwrap().lines().nth(p).unwrap().to_owned()
}

/// Two binary files of 4 vertices and 4 arcs with the same offsets and other targets.
fn same_shape_graphs(t: &TempDir) {
    t.file("a.txt", "4 4\n1\n1 2\n2 3\n3 4\n4 1\n");
    t.file("b.txt", "4 4\n1\n1 3\n2 4\n3 1\n4 2\n");
    for f in ["a", "b"] {
        let (from, to) = (format!("{f}.txt"), format!("{f}.bin"));
        let c = gamegraph(t, &["convert", &from, "--to", "binary", "-o", &to], None);
        assert!(c.status.success(), "{}", text(&c.stderr));
    }
}

#[test]
fn same_shape_different_binaries_exit_2_on_every_process() {
    let t = TempDir::new("dist-differ");
    same_shape_graphs(&t);
    for workers in ["1", "2"] {
        hostfile(&t, 2);
        let args = ["--all", "--workers", workers, "--connect-timeout", "5"];
        let zero = spawn_with(&t, &[&args[..], &["a.bin"]].concat(), 0);
        let one = spawn_with(&t, &[&args[..], &["b.bin"]].concat(), 1);
        for o in [zero, one].map(|c| wait_bounded(c, Duration::from_secs(20))) {
            assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
            assert!(o.stdout.is_empty());
            assert_eq!(
                text(&o.stderr),
                "error: the processes do not read the same graph: process 0 and process 1 each \
                 read a binary file of 4 vertices and 4 arcs, with different contents\n"
            );
        }
    }
}

#[test]
fn a_stray_client_is_turned_away_and_the_cluster_still_forms() {
    let t = TempDir::new("dist-stray");
    t.file("seed.txt", SEED);
    let want = gamegraph(&t, &["retro", "--all", "seed.txt"], None);
    hostfile(&t, 2);
    let zero = spawn_with(&t, &["--all", "seed.txt", "--connect-timeout", "10"], 0);
    let started = Instant::now();
    let mut stray = loop {
        match TcpStream::connect(address(&t, 0)) {
            Ok(s) => break s,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("process 0 does not listen: {e}"),
        }
    };
    stray.write_all(&[0xfd; 100]).unwrap();
    let one = spawn_with(&t, &["--all", "seed.txt", "--connect-timeout", "10"], 1);
    let (zero, one) =
        (wait_bounded(zero, Duration::from_secs(30)), wait_bounded(one, Duration::from_secs(30)));
    assert!(zero.status.success(), "{}", text(&zero.stderr));
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(text(&zero.stdout), text(&want.stdout));
    // Alone with the stray, process 0 says what it turned away when its time is up.
    hostfile(&t, 2);
    let zero = spawn_with(&t, &["seed.txt", "--connect-timeout", "2"], 0);
    let started = Instant::now();
    let mut stray = loop {
        match TcpStream::connect(address(&t, 0)) {
            Ok(s) => break s,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("process 0 does not listen: {e}"),
        }
    };
    stray.write_all(&[b'G'; 64]).unwrap();
    let local = stray.local_addr().unwrap();
    drop(stray);
    let o = wait_bounded(zero, Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: the other processes did not all connect within 2 s: closed a connection \
             from {local} that is not from a gamegraph cluster process (raise it with \
             --connect-timeout SECS)\n"
        )
    );
}

#[test]
fn a_listener_that_is_no_peer_is_found_within_the_connect_timeout() {
    let t = TempDir::new("dist-silent-listener");
    t.file("seed.txt", SEED);
    hostfile(&t, 2);
    let zero_address = address(&t, 0);
    let listener = TcpListener::bind(&zero_address).unwrap();
    // Accepts and says nothing.
    let quiet = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(4));
        drop(stream);
        listener
    });
    let started = Instant::now();
    let o = wait_bounded(
        spawn_with(&t, &["seed.txt", "--connect-timeout", "2"], 1),
        Duration::from_secs(20),
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: the other processes did not all connect within 2 s: {zero_address} \
             (process 0) accepted but sent no hello (raise it with --connect-timeout SECS)\n"
        )
    );
    // Accepts and sends garbage.
    let listener = quiet.join().unwrap();
    let noisy = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let _ = stream.write_all(&[7; 200]);
        std::thread::sleep(Duration::from_secs(2));
    });
    let o = wait_bounded(
        spawn_with(&t, &["seed.txt", "--connect-timeout", "5"], 1),
        Duration::from_secs(20),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: {zero_address} (process 0 in the hostfile) answered with bytes that are not \
             a gamegraph cluster hello\n"
        )
    );
    noisy.join().unwrap();
}

/// A path of `n` positions, which takes `n` rounds.
fn long_path(t: &TempDir, n: usize) {
    let mut path = format!("{n} {}\n1\n", n - 1);
    for i in 1..n {
        path.push_str(&format!("{i} {}\n", i + 1));
    }
    t.file("path.txt", &path);
}

#[test]
fn a_frozen_peer_ends_the_others_within_the_liveness_timeout() {
    let t = TempDir::new("dist-frozen");
    long_path(&t, 400_000);
    hostfile(&t, 3);
    let args = ["path.txt", "--liveness-timeout", "2"];
    let zero = spawn_with(&t, &args, 0);
    let mut one = spawn_with(&t, &args, 1);
    let two = spawn_with(&t, &args, 2);
    std::thread::sleep(Duration::from_millis(2500));
    let pid = one.id().to_string();
    assert!(Command::new("kill").args(["-STOP", &pid]).status().unwrap().success());
    let stopped = Instant::now();
    for o in [zero, two].map(|c| wait_bounded(c, Duration::from_secs(20))) {
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        assert!(o.stdout.is_empty());
        assert_eq!(
            text(&o.stderr),
            "error: lost the connection to a peer process: process 1 has sent nothing for 2 s \
             (raise it with --liveness-timeout SECS)\n"
        );
    }
    assert!(stopped.elapsed() < Duration::from_secs(15));
    let _ = Command::new("kill").args(["-CONT", &pid]).status();
    one.kill().unwrap();
    one.wait().unwrap();
}

#[test]
fn processes_set_up_differently_exit_2_on_both() {
    let t = TempDir::new("dist-shape");
    t.file("seed.txt", SEED);
    hostfile(&t, 2);
    let zero = spawn_with(&t, &["seed.txt", "--workers", "1", "--connect-timeout", "5"], 0);
    let one = spawn_with(&t, &["seed.txt", "--workers", "2", "--connect-timeout", "5"], 1);
    let (zero, one) =
        (wait_bounded(zero, Duration::from_secs(20)), wait_bounded(one, Duration::from_secs(20)));
    for (o, want) in [
        (
            zero,
            "error: processes 1 and 0 have different numbers of workers (2 and 1): every process must have the same\n",
        ),
        (
            one,
            "error: processes 0 and 1 have different numbers of workers (1 and 2): every process must have the same\n",
        ),
    ] {
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert_eq!(text(&o.stderr), want);
    }
    // --shards on one process only.
    hostfile(&t, 2);
    let zero =
        spawn_with(&t, &["--all", "--shards", "out", "seed.txt", "--connect-timeout", "5"], 0);
    let one = spawn_with(&t, &["--all", "seed.txt", "--connect-timeout", "5"], 1);
    for o in [zero, one].map(|c| wait_bounded(c, Duration::from_secs(20))) {
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(o.stdout.is_empty());
        assert_eq!(
            text(&o.stderr),
            "error: process 0 writes shards and process 1 does not: every process must be given \
             the same query\n"
        );
    }
    assert!(!t.join("out/shard-0.txt").exists());
    // Another start vertex, --all or --line on one process only: another query.
    for other in [&["--start", "2"][..], &["--all"], &["--line"]] {
        hostfile(&t, 2);
        let zero = spawn_with(&t, &["seed.txt", "--connect-timeout", "5"], 0);
        let one = spawn_with(&t, &[&["seed.txt", "--connect-timeout", "5"], other].concat(), 1);
        for (p, o) in
            [zero, one].map(|c| wait_bounded(c, Duration::from_secs(20))).iter().enumerate()
        {
            assert_eq!(o.status.code(), Some(2), "{other:?} {p}: {}", text(&o.stderr));
            assert!(o.stdout.is_empty(), "{other:?} {p}");
            assert!(
                text(&o.stderr).ends_with(
                    "were given different queries (the game, its parameters and settings; or the \
                     start vertex, all vertices, line of play): every process must be given the \
                     same\n"
                ),
                "{other:?} {p}: {}",
                text(&o.stderr)
            );
        }
    }
}

#[test]
fn hostfile_errors_say_where_and_exit_2() {
    let t = TempDir::new("dist-hostfile");
    t.file("seed.txt", SEED);
    let run = |hosts: &str| {
        gamegraph(&t, &["dist", "retro", "seed.txt", "--hostfile", hosts, "--process", "0"], None)
    };
    let cases = [
        (
            "\u{feff}127.0.0.1:7000\n",
            "1:1: expected host:port, found a byte order mark (save the file without one)",
        ),
        (
            "127.0.0.1:7000\n127.0\0.0.1:7001\n",
            "2:6: expected host:port, found the control character '\\0'",
        ),
        (
            "127.0.0.1:7000\n 127.0.0.1:7000\n",
            "2:2: expected a new host:port, found \"127.0.0.1:7000\" again (line 1): each process \
             needs its own",
        ),
        (
            "127.0.0.1:7000\nlocal_host:7001\n",
            "2:6: expected a host name or an IP address, found '_'",
        ),
        ("::1:7000\n", "1:1: expected an IPv6 address in brackets, found \"::1\""),
        (
            "127.0.0.1:7000\n# a name for the same address\n  localhost:7000\n",
            "3:3: expected a new host:port, found \"localhost:7000\", the address 127.0.0.1:7000 \
             of \"127.0.0.1:7000\" again (line 1): each process needs its own",
        ),
    ];
    for (hosts, want) in cases {
        t.file("hosts", hosts);
        let o = run("hosts");
        assert_eq!(o.status.code(), Some(2), "{hosts:?}");
        assert_eq!(text(&o.stderr), format!("error: hosts:{want}\n"));
    }
    fs::write(t.join("bytes"), b"127.0.0.1:7000\n\xff\n").unwrap();
    let o = run("bytes");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: bytes:2:1: expected UTF-8 text\n");
    let o = run("missing");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).starts_with("error: missing: "), "{}", text(&o.stderr));
    fs::write(t.join("huge"), "#\n".repeat(600_000)).unwrap();
    let o = run("huge");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: huge: larger than 1048576 bytes: not a hostfile\n");
    let o = run("/dev/zero");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: /dev/zero: not a regular file\n");
    assert!(Command::new("mkfifo").arg(t.join("fifo")).status().unwrap().success());
    let o = run("fifo");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "error: fifo: not a regular file\n");
}

#[test]
fn a_file_with_terminal_values_is_refused_by_every_process() {
    let t = TempDir::new("dist-values");
    t.file("v.txt", "3 1\n1\n1 2\nterminal\n2 T\n");
    let o = gamegraph(&t, &["convert", "v.txt", "--to", "binary", "-o", "v.bin"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let message = "the file has terminal values (win, loss or tie at vertices without moves), \
                   which dist retro does not solve: use gamegraph retro\n";
    for file in ["v.txt", "v.bin"] {
        for (p, o) in cluster(&t, 2, 1, &[file]).iter().enumerate() {
            assert_eq!(o.status.code(), Some(2), "{file}, process {p}: {}", text(&o.stderr));
            assert!(text(&o.stderr).ends_with(message), "{file}, process {p}: {}", text(&o.stderr));
        }
    }
}
