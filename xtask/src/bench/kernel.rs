//! `cargo xtask bench kernel`: counting and finding kernels against clingo, α against
//! python-igraph's `independence_number`, on the same random digraphs, side by side.
//!
//! gamegraph is timed as a whole process (start-up and reading included, best of the
//! repetitions); the peers are timed inside `xtask/bench/kernel/peer.py` around the solving
//! call only (interpreter start-up, imports and parsing excluded), which favours the peers.
//! Answers are compared: counts and α must be equal, and for "find" both must agree on
//! existence and the peer's kernel must pass `gamegraph kernel --check`.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::bench::build_release;
use crate::rng::Rng;

/// Runs `cmd` with a time limit; `None` when it was killed at the limit.
fn timed(cmd: &mut Command, limit: Duration) -> Result<Option<(Duration, String)>> {
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
                return Ok(None); // gamegraph's own --time-limit
            }
            if !status.success() {
                bail!("{cmd:?} failed: {status}");
            }
            return Ok(Some((wall, out)));
        }
        if start.elapsed() > limit {
            child.kill()?;
            child.wait()?;
            let _ = reader.join();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn write_graph(path: &Path, n: usize, avg_out: f64, seed: u64) -> Result<usize> {
    let mut rng = Rng::new(seed);
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
        .args(["-c", "import clingo, igraph"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ready {
        eprintln!("installing clingo and igraph into {}", dir.display());
        let ok = Command::new("python3").arg("-m").arg("venv").arg(&dir).status()?.success()
            && Command::new(dir.join("bin/pip"))
                .args(["install", "--quiet", "clingo", "igraph"])
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
        let Some((wall, out)) = r else { break };
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
        let Some((_, out)) = r else { break };
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

/// Runs the kernel benchmark and prints the Markdown table.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?.join("gamegraph-kernel");
    let python = venv(root)?;
    let script = root.join("xtask/bench/kernel/peer.py");
    let dir = root.join("target/bench-kernel");
    fs::create_dir_all(&dir)?;
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
