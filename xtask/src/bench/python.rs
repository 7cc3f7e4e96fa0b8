//! `cargo xtask bench python [--quick]`: `gg.retro` of the Python package on a random game
//! graph of 10^7 arcs (quick: 10^6) built from NumPy arrays, against `gamegraph retro` on
//! the same graph read from its binary file, both on two threads, side by side in one run.
//!
//! The package is built in release mode into a virtual environment under `target/` (pip
//! and maturin, as a user installs it). The Python side times, on a fresh graph each
//! time (the predecessor arrays are built inside the solve, as in the command):
//! - `gg.retro(g)` alone, on a graph built by `gg.Graph(n, sources, targets)` from int64
//!   arrays: the solve and its three result arrays, which is what the target is about;
//! - `gg.Graph(n, sources, targets)`, the construction from the arrays;
//! - `gg.read_graph(file)` then `gg.retro`, the same work as the command's.
//!
//! The command's time is its whole process (reading the file included), so the ratio
//! `gg.retro / command` is the package's overhead and more: target at most 1.2. The
//! answers must agree, or the benchmark fails.
//!
//! Then `gg.explore` on two games given by Python functions, timed whole (exploration with
//! the callbacks, then the solve): positions per second, target at least 10^5.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::{best_of, build_release, measure, mib, secs};

/// Average out-degree (as in the retro benchmark, whose files this one shares).
const DEGREE: u64 = 3;

/// Repetitions of every timing (the best is kept).
const REPS: usize = 3;

/// The timing script, run by the virtual environment's Python with the file, the number
/// of repetitions and the thread count as arguments. Prints `key value` lines.
const SCRIPT: &str = r#"
import sys, time
import numpy as np
import gamegraph as gg

path, reps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g0 = gg.read_graph(path, threads=threads)
n, start = g0.num_vertices, g0.start
sources, targets = g0.arcs()
del g0
assert sources.dtype == np.int64 and targets.dtype == np.int64
build, solve, whole, answer = [], [], [], None
for _ in range(reps):
    t0 = time.perf_counter()
    g = gg.Graph(n, sources, targets, start=start)
    t1 = time.perf_counter()
    s = gg.retro(g, threads=threads)
    t2 = time.perf_counter()
    build.append(t1 - t0)
    solve.append(t2 - t1)
    answer = s.answer
    del g, s
for _ in range(reps):
    t0 = time.perf_counter()
    s = gg.retro(gg.read_graph(path, threads=threads), threads=threads)
    whole.append(time.perf_counter() - t0)
    assert s.answer == answer
    del s
print("answer", answer)
print("build", min(build))
print("solve", min(solve))
print("whole", min(whole))
"#;

/// The script timing `gg.explore`, run with the number of repetitions. Prints
/// `NAME positions seconds` lines, the best time of each game.
const EXPLORE_SCRIPT: &str = r#"
import sys, time
import gamegraph as gg

reps = int(sys.argv[1])

def subtraction(n):
    # One heap of n objects; take 1, 3 or 4.
    return [n - k for k in (1, 3, 4) if k <= n]

def two_heaps(p):
    # Two heaps; take 1 or 2 objects from either.
    a, b = p
    return [(a - k, b) for k in (1, 2) if k <= a] + [(a, b - k) for k in (1, 2) if k <= b]

for name, start, moves in [
    ("subtraction-1000000", 1_000_000, subtraction),
    ("two-heaps-500x500", (500, 500), two_heaps),
]:
    best, count = None, 0
    for _ in range(reps):
        t0 = time.perf_counter()
        s = gg.explore(start, moves)
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
        count = len(s)
        del s
    print(name, count, best)
"#;

fn run_ok(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().with_context(|| format!("cannot run {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}

/// The virtual environment with numpy and the package built in release mode; returns its
/// Python.
fn install(root: &Path) -> Result<PathBuf> {
    let venv = root.join("target/bench-python-venv");
    let bin = venv.join("bin");
    if !bin.join("python").exists() {
        run_ok(Command::new("python3").arg("-m").arg("venv").arg(&venv))
            .context("the Python benchmark needs python3 with venv")?;
    }
    let python = bin.join("python");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let pip = |args: &[&str]| {
        let mut c = Command::new(&python);
        c.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"])
            .args(args)
            .env("PATH", &path)
            .current_dir(root);
        c
    };
    run_ok(&mut pip(&["maturin", "numpy"]))?;
    println!("building the Python package (release)");
    run_ok(&mut pip(&[
        "--no-build-isolation",
        "--force-reinstall",
        "--no-deps",
        "./crates/python",
    ]))?;
    Ok(python)
}

/// The binary file of the random graph with `m` arcs (the retro benchmark's file, made
/// here when it is missing).
fn data(root: &Path, bin: &Path, m: u64) -> Result<PathBuf> {
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir)?;
    let n = m / DEGREE;
    let binary = dir.join(format!("retro-m{m}-n{n}.v2.bin"));
    if !binary.exists() {
        println!("generating {}", binary.display());
        let tmp = binary.with_extension("bin.tmp");
        let (n, m) = (n.to_string(), m.to_string());
        let mut generate = Command::new(bin.join("gamegraph"));
        generate.args([
            "gen",
            "--vertices",
            &n,
            "--arcs",
            &m,
            "--seed",
            "1",
            "--to",
            "binary",
            "-o",
        ]);
        run_ok(generate.arg(&tmp))?;
        std::fs::rename(&tmp, &binary)?;
    }
    Ok(binary)
}

/// The value of the `key value` line of the script's output.
fn field<'a>(out: &'a str, key: &str) -> Result<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
        .with_context(|| format!("no {key} in the script's output:\n{out}"))
}

/// Runs the Python benchmark.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let python = install(root)?;
    let script = root.join("target/bench-tools/retro_bench.py");
    std::fs::create_dir_all(script.parent().context("a parent")?)?;
    std::fs::write(&script, SCRIPT)?;
    let m: u64 = if quick { 1_000_000 } else { 10_000_000 };
    let file = data(root, &bin, m)?;
    let threads = "2";

    let (cli, cli_out) = best_of(REPS, || {
        let mut c = Command::new(bin.join("gamegraph"));
        c.args(["retro", "--threads", threads]).arg(&file);
        c
    })?;
    let (py, out) =
        measure(Command::new(&python).arg(&script).arg(&file).arg(REPS.to_string()).arg(threads))?;
    let answer = field(&out, "answer")?;
    if answer != cli_out.trim() {
        bail!("answers differ: gg.retro {answer}, gamegraph retro {}", cli_out.trim());
    }
    let seconds = |key: &str| -> Result<f64> { Ok(field(&out, key)?.trim().parse()?) };
    let (build, solve, whole) = (seconds("build")?, seconds("solve")?, seconds("whole")?);
    let base = cli.wall.as_secs_f64();

    println!();
    println!("{m} arcs, {} vertices, {threads} threads, best of {REPS}:", m / DEGREE);
    println!();
    println!("| what | time (s) | / command |");
    println!("|---|---:|---:|");
    println!(
        "| `gamegraph retro --threads {threads} FILE` (whole process) | {} | 1.00 |",
        secs(cli.wall)
    );
    println!("| `gg.retro(g)` on a graph from NumPy arrays | {solve:.3} | {:.2} |", solve / base);
    println!(
        "| `gg.Graph(n, sources, targets)` from int64 arrays | {build:.3} | {:.2} |",
        build / base
    );
    println!("| `gg.retro(gg.read_graph(FILE))` | {whole:.3} | {:.2} |", whole / base);
    println!();
    println!(
        "Peak RSS: command {} MiB, Python script {} MiB (it holds the arrays and a graph).",
        mib(cli.peak_rss),
        mib(py.peak_rss)
    );
    let ratio = solve / base;
    println!("gg.retro / the command's time: {ratio:.2}x");

    let script = root.join("target/bench-tools/explore_bench.py");
    std::fs::write(&script, EXPLORE_SCRIPT)?;
    let (_, out) = measure(Command::new(&python).arg(&script).arg(REPS.to_string()))?;
    println!();
    println!("`gg.explore(start, moves)`, whole call (explore and solve), best of {REPS}:");
    println!();
    println!("| game | positions | time (s) | positions/s |");
    println!("|---|---:|---:|---:|");
    for line in out.lines() {
        let [name, count, seconds] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            bail!("unexpected line from the explore script: {line}");
        };
        let (count, seconds): (f64, f64) = (count.parse()?, seconds.parse()?);
        println!("| {name} | {count} | {seconds:.3} | {:.0} |", count / seconds);
    }
    Ok(())
}
