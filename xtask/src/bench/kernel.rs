//! `cargo xtask bench kernel`: α and β on hard instances against igraph and HiGHS (first
//! table), then
//! counting and finding kernels against clingo and α against python-igraph's
//! `independence_number`, on the same random digraphs, side by side.
//!
//! The α and β table times the kernel crate's `stable_time` example (built with
//! `cargo build --release -p gamegraph-kernel --example stable_time`, which is much lighter
//! than the CLI) as a whole process on 2 threads, three runs each, all shown; the peer solves
//! the same file once, timed around its solve call only: python-igraph's
//! `independence_number` for α on the dense instances (the edge formulation is hopeless for
//! a MIP there), HiGHS on the 0-1 program otherwise (one thread). Its `kernel` rows time
//! the `kernel_time` example (kernel existence, 2 threads) against clingo's `find` on the
//! same file, killed at the same limit, on random digraphs of out-degree 3 from 10^4 to
//! 7·10^4 vertices. `--tasks alpha,beta,kernel,small` runs only the rows of the tasks listed
//! (`small`: the second table).
//!
//! gamegraph is timed as a whole process (start-up and reading included, best of the
//! repetitions); the peers are timed inside `xtask/bench/kernel/peer.py` around the solving
//! call only (interpreter start-up, imports and parsing excluded), which favours the peers.
//! Answers are compared: counts and α must be equal, and for "find" both must agree on
//! existence and the peer's kernel must pass `gamegraph kernel --check`.
//!
//! With `--dimacs DIR` it runs the DIMACS clique table instead (see `dimacs`), and with
//! `--pace DIR` the PACE 2025 dominating-set table (see `pace`).

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gamegraph_graph::generate::SplitMix64;

use crate::bench::build_release;

/// One side's runs: the wall times of the runs that finished, and the answer.
#[derive(Default)]
pub(crate) struct Runs {
    pub(crate) secs: Vec<f64>,
    pub(crate) answer: Option<usize>,
    /// What a run stopped at the limit reported (gamegraph's bounds).
    pub(crate) timeout: Option<String>,
}

impl Runs {
    pub(crate) fn cell(&self, limit: Duration, reps: usize) -> String {
        let mut c: Vec<String> = self.secs.iter().map(|t| format!("{t:.3}")).collect();
        if self.secs.len() < reps {
            match &self.timeout {
                Some(t) if t.contains('≤') => c.push(format!("> {} ({t})", limit.as_secs())),
                _ => c.push(format!("> {}", limit.as_secs())),
            }
        }
        c.join(", ")
    }

    /// One run of `stable_time TASK FILE 1 LIMIT` (one thread), unless a run before stopped
    /// at the limit; a run stopped there records its bounds, as `bounds` writes them.
    pub(crate) fn stable_time(
        &mut self,
        bin: &Path,
        task: &str,
        file: &Path,
        limit: Duration,
        bounds: impl Fn(&str) -> String,
    ) -> Result<()> {
        if self.timeout.is_some() {
            return Ok(());
        }
        let mut cmd = Command::new(bin);
        cmd.arg(task).arg(file).args(["1", &limit.as_secs().to_string()]);
        match timed(&mut cmd, limit + Duration::from_secs(5))? {
            Ok((wall, out)) => {
                self.answer = out.lines().next().and_then(|l| l.trim().parse().ok());
                self.secs.push(wall.as_secs_f64());
            }
            Err(out) => {
                // `stable_time` prints its bounds after the node count.
                let found = out.lines().nth(1).and_then(|l| l.split_once("nodes, "));
                self.timeout = Some(found.map_or("timeout".to_owned(), |(_, b)| bounds(b)));
            }
        }
        Ok(())
    }

    pub(crate) fn median(&self, reps: usize) -> Option<f64> {
        if self.secs.len() < reps {
            return None;
        }
        let mut s = self.secs.clone();
        s.sort_by(f64::total_cmp);
        Some(s[s.len() / 2])
    }
}

/// Builds the kernel crate's `stable_time` example in release; returns its path.
pub(crate) fn stable_time_example(root: &Path) -> Result<PathBuf> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-p", "gamegraph-kernel", "--example", "stable_time"])
        .current_dir(root)
        .status()?;
    if !status.success() {
        bail!("cargo build of the stable_time example failed");
    }
    Ok(root.join("target/release/examples/stable_time"))
}

/// The files of `dir` whose extension is `ext`, sorted.
pub(crate) fn instances(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    Ok(files)
}

/// Runs `cmd` with a time limit: its wall time and output, or `Err` with what it printed
/// when it stopped at gamegraph's own time limit (exit status 3) or was killed at `limit`.
pub(crate) fn timed(
    cmd: &mut Command,
    limit: Duration,
) -> Result<Result<(Duration, String), String>> {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {cmd:?}"))?;
    let mut stdout = child.stdout.take().context("no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    loop {
        if let Some(status) = child.try_wait()? {
            let wall = start.elapsed();
            let out = reader.join().expect("reader thread")?;
            if status.code() == Some(3) {
                return Ok(Err(out)); // gamegraph's own --time-limit
            }
            if !status.success() {
                bail!("{cmd:?} failed: {status}");
            }
            return Ok(Ok((wall, out)));
        }
        if start.elapsed() > limit {
            child.kill()?;
            child.wait()?;
            let out = reader.join().ok().and_then(Result::ok).unwrap_or_default();
            return Ok(Err(out));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn write_graph(path: &Path, n: usize, avg_out: f64, seed: u64) -> Result<usize> {
    let mut rng = SplitMix64::new(seed);
    let p = (avg_out / (n - 1) as f64 * 1e6) as u64;
    let mut arcs = Vec::new();
    for u in 1..=n {
        for v in 1..=n {
            if u != v && rng.below(1_000_000) < p {
                arcs.push((u, v));
            }
        }
    }
    let mut s = format!("# bench graph: {n} vertices, average out-degree {avg_out}\n");
    let _ = writeln!(s, "{n} {}\n1", arcs.len());
    for (u, v) in &arcs {
        let _ = writeln!(s, "{u} {v}");
    }
    fs::write(path, s)?;
    Ok(arcs.len())
}

fn venv(root: &Path) -> Result<PathBuf> {
    let dir = root.join("target/bench-venv");
    let python = dir.join("bin/python");
    let ready = Command::new(&python)
        .args(["-c", "import clingo, igraph, highspy"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ready {
        eprintln!("installing clingo, igraph and highspy into {}", dir.display());
        let ok = Command::new("python3").arg("-m").arg("venv").arg(&dir).status()?.success()
            && Command::new(dir.join("bin/pip"))
                .args(["install", "--quiet", "clingo", "igraph", "highspy", "numpy"])
                .status()?
                .success();
        if !ok {
            bail!("cannot set up the benchmark venv in {}", dir.display());
        }
    }
    Ok(python)
}

struct Side {
    secs: Option<f64>,
    answer: String,
}

fn ours(bin: &Path, args: &[&str], file: &Path, reps: usize, limit: Duration) -> Result<Side> {
    let mut best: Option<f64> = None;
    let mut answer = String::from("timeout");
    for _ in 0..reps {
        let r = timed(Command::new(bin).args(args).arg(file), limit)?;
        let Ok((wall, out)) = r else { break };
        answer = out.lines().next().unwrap_or_default().to_owned();
        let s = wall.as_secs_f64();
        best = Some(best.map_or(s, |b: f64| b.min(s)));
    }
    Ok(Side { secs: best, answer })
}

fn peer(
    python: &Path,
    script: &Path,
    mode: &str,
    file: &Path,
    reps: usize,
    limit: Duration,
) -> Result<Side> {
    let mut best: Option<f64> = None;
    let mut answer = String::from("timeout");
    for _ in 0..reps {
        let r = timed(Command::new(python).arg(script).arg(mode).arg(file), limit)?;
        let Ok((_, out)) = r else { break };
        let mut lines = out.lines();
        answer = lines.next().unwrap_or_default().to_owned();
        let t: f64 = out
            .lines()
            .find_map(|l| l.strip_prefix("time "))
            .context("peer printed no time")?
            .trim()
            .parse()?;
        best = Some(best.map_or(t, |b: f64| b.min(t)));
    }
    Ok(Side { secs: best, answer })
}

fn cell(s: Option<f64>, limit: Duration) -> String {
    s.map_or_else(|| format!("> {}", limit.as_secs()), |t| format!("{t:.4}"))
}

/// The row groups `--tasks` chooses from: the hard α, β and kernel-existence rows, and the
/// table of small random digraphs.
const TASKS: [&str; 4] = ["alpha", "beta", "kernel", "small"];

/// Runs the kernel benchmark and prints the Markdown tables. `args` are `bench`'s: `--quick`,
/// and `--tasks alpha,beta` runs only the rows of the tasks listed.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--dimacs") {
        return super::dimacs::run(root, args);
    }
    if args.iter().any(|a| a == "--pace") {
        return super::pace::run(root, args);
    }
    let quick = args.iter().any(|a| a == "--quick");
    let tasks: Vec<&str> = match args.iter().position(|a| a == "--tasks") {
        Some(i) => args.get(i + 1).map_or("", String::as_str).split(',').collect(),
        None => TASKS.to_vec(),
    };
    if let Some(t) = tasks.iter().find(|t| !TASKS.contains(t)) {
        bail!("unknown task {t:?} in --tasks: the tasks are {}", TASKS.join(", "));
    }
    let python = venv(root)?;
    let script = root.join("xtask/bench/kernel/peer.py");
    let dir = root.join("target/bench-kernel");
    fs::create_dir_all(&dir)?;
    if tasks.iter().any(|t| *t != "small") {
        stable_numbers(root, &dir, &python, &script, quick, &tasks)?;
    }
    if !tasks.contains(&"small") {
        return Ok(());
    }
    let bin = build_release(root)?.join("gamegraph-kernel");
    let sizes: &[usize] = if quick { &[50, 100] } else { &[50, 100, 200, 300] };
    let degrees: &[f64] = if quick { &[3.0, 8.0] } else { &[2.0, 3.0, 5.0, 8.0, 16.0] };
    let reps = if quick { 1 } else { 3 };
    let limit = Duration::from_secs(if quick { 10 } else { 20 });
    let mut table = String::new();
    table.push_str("| task | n | avg out-degree | arcs | answer | gamegraph (s, process) | peer | peer (s, solve only) | peer / gamegraph |\n");
    table.push_str("|---|---:|---:|---:|---|---:|---|---:|---:|\n");
    let mut slower = Vec::new();
    let mut seed = 0x6b65_726e;
    for &n in sizes {
        for &d in degrees {
            seed += 1;
            let file = dir.join(format!("g-{n}-{d}.txt"));
            let arcs = write_graph(&file, n, d, seed)?;
            for (task, our_args, mode, peer_name) in [
                ("count", &["--count"][..], "count", "clingo"),
                ("find", &[][..], "find", "clingo"),
                ("alpha", &["--alpha"][..], "alpha", "igraph"),
            ] {
                let mut a: Vec<&str> = our_args.to_vec();
                let tl = limit.as_secs().to_string();
                a.extend(["--time-limit", &tl]);
                let us = ours(&bin, &a, &file, reps, limit + Duration::from_secs(5))?;
                let them = peer(&python, &script, mode, &file, reps, limit)?;
                // Compare answers.
                let agree = match (task, us.secs.is_some(), them.secs.is_some()) {
                    (_, false, _) | (_, _, false) => true,
                    ("find", ..) => {
                        if (us.answer == "none") != (them.answer == "none") {
                            false
                        } else if them.answer != "none" {
                            Command::new(&bin)
                                .arg(&file)
                                .args(["--check", &them.answer])
                                .stdout(Stdio::null())
                                .status()?
                                .success()
                        } else {
                            true
                        }
                    }
                    _ => us.answer == them.answer,
                };
                if !agree {
                    bail!(
                        "answers differ on {} ({task}): gamegraph {:?}, {peer_name} {:?}",
                        file.display(),
                        us.answer,
                        them.answer
                    );
                }
                let shown = match task {
                    "find" if us.answer == "none" => "none".to_owned(),
                    "find" if us.secs.is_some() => {
                        format!("kernel of {}", us.answer.split_whitespace().count())
                    }
                    _ => us.answer.clone(),
                };
                let ratio = match (us.secs, them.secs) {
                    (Some(u), Some(t)) => format!("{:.1}x", t / u),
                    (Some(_), None) => "peer timed out".to_owned(),
                    (None, Some(_)) => "gamegraph timed out".to_owned(),
                    (None, None) => "both timed out".to_owned(),
                };
                if match (us.secs, them.secs) {
                    (Some(u), Some(t)) => t < u,
                    (None, Some(_)) => true,
                    _ => false,
                } {
                    slower.push(format!("{task} n={n} d={d}"));
                }
                let row = format!(
                    "| {task} | {n} | {d} | {arcs} | {shown} | {} | {peer_name} | {} | {ratio} |",
                    cell(us.secs, limit),
                    cell(them.secs, limit)
                );
                eprintln!("{row}");
                let _ = writeln!(table, "{row}");
            }
        }
    }
    println!("{table}");
    if slower.is_empty() {
        println!("gamegraph was faster on every row.");
    } else {
        println!("rows where the peer was faster: {}", slower.join(", "));
    }
    Ok(())
}

/// Writes arcs in the header format.
fn write_arcs(path: &Path, n: usize, what: &str, arcs: &[(usize, usize)]) -> Result<usize> {
    let mut s = format!("# bench graph: {what}\n{n} {}\n1\n", arcs.len());
    for (u, v) in arcs {
        let _ = writeln!(s, "{u} {v}");
    }
    fs::write(path, s)?;
    Ok(arcs.len())
}

/// G(n, p) with one arc per edge: each unordered pair is joined with probability p, by one
/// arc in a random direction.
fn one_arc_per_pair(n: usize, p: f64, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = SplitMix64::new(seed);
    let t = (p * 1e6) as u64;
    let mut arcs = Vec::new();
    for u in 1..=n {
        for v in u + 1..=n {
            if rng.below(1_000_000) < t {
                arcs.push(if rng.below(2) == 0 { (u, v) } else { (v, u) });
            }
        }
    }
    arcs
}

/// n vertices and n·d/2 distinct edges (average degree d), each one arc in a random direction.
fn sparse_edges(n: usize, d: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = SplitMix64::new(seed);
    let m = n * d / 2;
    let mut seen = std::collections::HashSet::with_capacity(m);
    let mut arcs = Vec::with_capacity(m);
    while arcs.len() < m {
        let u = 1 + rng.below(n as u64) as usize;
        let v = 1 + rng.below(n as u64) as usize;
        if u != v && seen.insert((u.min(v), u.max(v))) {
            arcs.push((u, v));
        }
    }
    arcs
}

/// Every ordered pair of distinct vertices is an arc with probability d / (n - 1): average
/// out-degree d (the digraphs of the kernel table below).
fn out_degree(n: usize, d: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = SplitMix64::new(seed);
    let p = (d as f64 / (n - 1) as f64 * 1e9) as u64;
    let mut arcs = Vec::with_capacity(n * d);
    for u in 1..=n {
        for v in 1..=n {
            if u != v && rng.below(1_000_000_000) < p {
                arcs.push((u, v));
            }
        }
    }
    arcs
}

/// n·d distinct arcs u -> v (u != v) drawn uniformly: average out-degree d, in time linear
/// in the arcs (the kernel rows' 7·10^4 vertices are too many for [`out_degree`]).
fn sparse_arcs(n: usize, d: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = SplitMix64::new(seed);
    let m = n * d;
    let mut seen = std::collections::HashSet::with_capacity(m);
    let mut arcs = Vec::with_capacity(m);
    while arcs.len() < m {
        let u = 1 + rng.below(n as u64) as usize;
        let v = 1 + rng.below(n as u64) as usize;
        if u != v && seen.insert((u, v)) {
            arcs.push((u, v));
        }
    }
    arcs
}

/// The α and β table: the kernel crate's `stable_time` example against HiGHS, and its
/// `kernel_time` example against clingo.
fn stable_numbers(
    root: &Path,
    dir: &Path,
    python: &Path,
    script: &Path,
    quick: bool,
    tasks: &[&str],
) -> Result<()> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-p", "gamegraph-kernel"])
        .args(["--example", "stable_time", "--example", "kernel_time"])
        .current_dir(root)
        .status()?;
    if !status.success() {
        bail!("cargo build of the stable_time and kernel_time examples failed");
    }
    let bin = root.join("target/release/examples/stable_time");
    let kernel_bin = root.join("target/release/examples/kernel_time");
    let seeds: &[u64] = if quick { &[1] } else { &[1, 2, 3] };
    let limit = Duration::from_secs(if quick { 10 } else { 60 });
    type Gen = Box<dyn Fn(u64) -> Vec<(usize, usize)>>;
    let mut instances: Vec<(&str, &str, usize, Gen, &[u64])> = vec![
        ("alpha", "G(200, 0.1)", 200, Box::new(|s| one_arc_per_pair(200, 0.1, s)), seeds),
        ("alpha", "G(250, 0.1)", 250, Box::new(|s| one_arc_per_pair(250, 0.1, s)), &[1]),
        ("alpha", "G(300, 0.1)", 300, Box::new(|s| one_arc_per_pair(300, 0.1, s)), &[1]),
        ("alpha", "G(200, 0.05)", 200, Box::new(|s| one_arc_per_pair(200, 0.05, s)), seeds),
        (
            "alpha",
            "3000 vertices, avg degree 3",
            3000,
            Box::new(|s| sparse_edges(3000, 3, s)),
            seeds,
        ),
        (
            "beta",
            "2000 vertices, avg out-degree 2",
            2000,
            Box::new(|s| out_degree(2000, 2, s)),
            seeds,
        ),
        (
            "beta",
            "10^4 vertices, avg out-degree 2",
            10_000,
            Box::new(|s| out_degree(10_000, 2, s)),
            seeds,
        ),
        (
            "beta",
            "2000 vertices, avg out-degree 3",
            2000,
            Box::new(|s| out_degree(2000, 3, s)),
            seeds,
        ),
    ];
    for (n, what) in [
        (10_000, "10^4 vertices, out-degree 3"),
        (20_000, "2·10^4 vertices, out-degree 3"),
        (30_000, "3·10^4 vertices, out-degree 3"),
        (40_000, "4·10^4 vertices, out-degree 3"),
        (70_000, "7·10^4 vertices, out-degree 3"),
    ] {
        instances.push(("kernel", what, n, Box::new(move |s| sparse_arcs(n, 3, s)), seeds));
    }
    let mut table = String::new();
    table.push_str("| task | instance | seed | answer | gamegraph runs (s, process, 2 threads) | peer (s, solve only) | peer / gamegraph (median) |\n");
    table.push_str("|---|---|---:|---:|---|---:|---:|\n");
    let tl = format!("{}", limit.as_secs());
    for (task, what, n, generate, seeds) in instances {
        if !tasks.contains(&task) {
            continue;
        }
        for &seed in seeds {
            let file = dir
                .join(format!("{task}-{}-{seed}.txt", what.replace([' ', ',', '(', ')', '^'], "")));
            write_arcs(&file, n, what, &generate(seed))?;
            let mut runs = Vec::new();
            let mut answer = String::from("timeout");
            for _ in 0..3 {
                let mut cmd = if task == "kernel" {
                    let mut c = Command::new(&kernel_bin);
                    c.arg(&file).args([&tl, "2"]);
                    c
                } else {
                    let mut c = Command::new(&bin);
                    c.arg(task).arg(&file).args(["2", &tl]);
                    c
                };
                let (wall, out) = match timed(&mut cmd, limit + Duration::from_secs(5))? {
                    Ok(done) => done,
                    Err(out) => {
                        // `stable_time` prints its bounds after the node count.
                        if let Some((_, bounds)) =
                            out.lines().nth(1).and_then(|l| l.split_once("nodes, "))
                        {
                            answer = format!("timeout: {bounds}");
                        }
                        break;
                    }
                };
                answer = out.lines().next().unwrap_or_default().to_owned();
                runs.push(wall.as_secs_f64());
            }
            // α of the dense instances goes to igraph (Cliquer inside): the edge formulation
            // is hopeless for HiGHS there.
            let (mode, peer_name) = match task {
                "kernel" => ("find", "clingo"),
                "alpha" if n < 1000 => ("alpha", "igraph"),
                "alpha" => ("alpha-mip", "HiGHS"),
                _ => ("beta-mip", "HiGHS"),
            };
            let peer = timed(
                Command::new(python).arg(script).arg(mode).arg(&file).arg(&tl),
                limit + Duration::from_secs(if matches!(mode, "alpha" | "find") { 0 } else { 30 }),
            )?;
            let tagged = |out: &str| {
                if mode == "alpha" {
                    return out.lines().next().unwrap_or("timeout").trim().to_owned();
                }
                if mode == "find" {
                    // clingo prints the kernel's vertices, or `none`.
                    let first = out.lines().next().unwrap_or("none").trim();
                    return if first == "none" { "none" } else { "kernel" }.to_owned();
                }
                out.lines().find_map(|l| l.strip_prefix("answer ")).unwrap_or("timeout").to_owned()
            };
            let (peer_secs, peer_answer) = match peer {
                Ok((_, out)) if tagged(&out) != "timeout" => {
                    let t: f64 = out
                        .lines()
                        .find_map(|l| l.strip_prefix("time "))
                        .context("peer printed no time")?
                        .trim()
                        .parse()?;
                    (Some(t), tagged(&out))
                }
                _ => (None, "timeout".to_owned()),
            };
            if runs.len() == 3 && peer_secs.is_some() && peer_answer != answer {
                bail!(
                    "answers differ on {}: gamegraph {answer}, {peer_name} {peer_answer}",
                    file.display()
                );
            }
            let shown = if runs.is_empty() {
                format!("> {tl}")
            } else {
                runs.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", ")
            };
            let mut sorted = runs.clone();
            sorted.sort_by(f64::total_cmp);
            let ratio = match (sorted.get(sorted.len() / 2), peer_secs) {
                (Some(u), Some(t)) if runs.len() == 3 => format!("{:.2}x", t / u),
                _ => "-".to_owned(),
            };
            let peer_cell = format!("{peer_name} {}", cell(peer_secs, limit));
            let row = format!(
                "| {task} | {what} | {seed} | {answer} | {shown} | {peer_cell} | {ratio} |"
            );
            eprintln!("{row}");
            let _ = writeln!(table, "{row}");
        }
    }
    println!("{table}");
    Ok(())
}
