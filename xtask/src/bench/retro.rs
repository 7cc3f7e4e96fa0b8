//! `cargo xtask bench retro [--quick]`: load and solve random game graphs of 10^6, 10^7
//! and 10^8 arcs (quick: 10^6) with `gamegraph retro`, from binary and from seed text, on
//! two threads and on one, and the same work by the textbook C++ baseline
//! (`xtask/baselines/retro.cpp`, single-threaded, seed text, built here with `g++ -O2`),
//! side by side in one run. Prints a Markdown table.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use super::{Measured, best_of, build_release, mib, secs};

/// Average out-degree of the benchmark graphs: n = m / 3 gives a mix of W, L and D
/// (about 33 %, 13 % and 54 %).
const DEGREE: u64 = 3;

/// Peak-memory target: bytes per arc and per vertex.
const BYTES_PER_ARC: u64 = 10;
const BYTES_PER_VERTEX: u64 = 40;

/// Wall-time target for 10^8 arcs from binary on two threads, in seconds.
const TARGET_SECS: f64 = 3.0;

fn run_ok(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().with_context(|| format!("cannot run {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}

/// The binary and seed-text files of the graph with `m` arcs, generated once.
fn data(root: &Path, bin: &Path, m: u64) -> Result<(PathBuf, PathBuf)> {
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir)?;
    let n = m / DEGREE;
    // The name carries the binary format version, so a new version is generated afresh.
    let binary = dir.join(format!("retro-m{m}-n{n}.v2.bin"));
    let text = dir.join(format!("retro-m{m}-n{n}.txt"));
    if !binary.exists() {
        println!("generating {}", binary.display());
        let tmp = binary.with_extension("bin.tmp");
        run_ok(Command::new(bin.join("gamegraph")).args([
            "gen",
            "--vertices",
            &n.to_string(),
            "--arcs",
            &m.to_string(),
            "--seed",
            "1",
            "--to",
            "binary",
            "-o",
            tmp.to_str().context("utf-8 path")?,
        ]))?;
        std::fs::rename(&tmp, &binary)?;
    }
    if !text.exists() {
        println!("converting to {}", text.display());
        let tmp = text.with_extension("txt.tmp");
        run_ok(Command::new(bin.join("gamegraph")).args([
            "convert",
            binary.to_str().context("utf-8 path")?,
            "--to",
            "seed",
            "-o",
            tmp.to_str().context("utf-8 path")?,
        ]))?;
        std::fs::rename(&tmp, &text)?;
    }
    Ok((binary, text))
}

/// Builds the C++ baseline with `g++ -O2` into `target/bench-tools/`.
fn build_baseline(root: &Path) -> Result<PathBuf> {
    let dir = root.join("target/bench-tools");
    std::fs::create_dir_all(&dir)?;
    let exe = dir.join("retro-baseline");
    run_ok(Command::new("g++").args([
        "-O2",
        "-o",
        exe.to_str().context("utf-8 path")?,
        root.join("xtask/baselines/retro.cpp").to_str().context("utf-8 path")?,
    ]))
    .context("building the C++ baseline needs g++")?;
    Ok(exe)
}

struct Row {
    arcs: u64,
    input: &'static str,
    solver: String,
    measured: Measured,
    ratio: Option<f64>,
}

/// Runs the retro benchmark.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let baseline = build_baseline(root)?;
    let sizes: &[u64] = if quick { &[1_000_000] } else { &[1_000_000, 10_000_000, 100_000_000] };
    let mut rows = Vec::new();
    let mut verdicts = Vec::new();
    for &m in sizes {
        let (binary, text) = data(root, &bin, m)?;
        let reps = if m >= 100_000_000 { 1 } else { 3 };
        let (base, base_out) = best_of(reps, || {
            let mut c = Command::new(&baseline);
            c.arg(&text).stderr(Stdio::null());
            c
        })?;
        let mut ours = Vec::new();
        for (input, file) in [("binary", &binary), ("seed text", &text)] {
            for threads in ["2", "1"] {
                let (measured, out) = best_of(reps, || {
                    let mut c = Command::new(bin.join("gamegraph"));
                    c.args(["retro", "--threads", threads]).arg(file);
                    c
                })?;
                if out != base_out {
                    bail!("answers differ on {m} arcs: ours {out:?}, baseline {base_out:?}");
                }
                ours.push((input, threads, measured));
            }
        }
        for (input, threads, measured) in ours {
            let ratio = base.wall.as_secs_f64() / measured.wall.as_secs_f64();
            rows.push(Row {
                arcs: m,
                input,
                solver: format!("gamegraph retro --threads {threads}"),
                measured,
                ratio: Some(ratio),
            });
            if input == "binary" && threads == "2" {
                let n = m / DEGREE;
                let budget = BYTES_PER_ARC * m + BYTES_PER_VERTEX * n;
                let fast = m < 100_000_000 || measured.wall.as_secs_f64() <= TARGET_SECS;
                verdicts.push(format!(
                    "- {m} arcs, binary, 2 threads: {} s{}, peak {} MiB of a {} MiB budget \
                     ({BYTES_PER_ARC} B/arc + {BYTES_PER_VERTEX} B/vertex): {}; {:.2}x the baseline",
                    secs(measured.wall),
                    if m >= 100_000_000 { format!(" (target {TARGET_SECS} s)") } else { String::new() },
                    mib(measured.peak_rss),
                    mib(budget),
                    match (fast, measured.peak_rss <= budget) {
                        (true, true) => "both targets met",
                        (false, true) => "memory target met, time target MISSED",
                        (true, false) => "time target met, memory target MISSED",
                        (false, false) => "time and memory targets MISSED",
                    },
                    ratio,
                ));
            }
        }
        rows.push(Row {
            arcs: m,
            input: "seed text",
            solver: "C++ baseline (g++ -O2, 1 thread)".into(),
            measured: base,
            ratio: None,
        });
    }

    println!();
    println!(
        "| arcs | vertices | input | solver | time (s) | arcs/s | peak RSS (MiB) | bytes/arc | baseline/ours |"
    );
    println!("|---:|---:|---|---|---:|---:|---:|---:|---:|");
    for r in &rows {
        let t = r.measured.wall.as_secs_f64();
        println!(
            "| {} | {} | {} | {} | {} | {:.1}M | {} | {:.1} | {} |",
            r.arcs,
            r.arcs / DEGREE,
            r.input,
            r.solver,
            secs(r.measured.wall),
            r.arcs as f64 / t / 1e6,
            mib(r.measured.peak_rss),
            r.measured.peak_rss as f64 / r.arcs as f64,
            r.ratio.map_or_else(|| "1.00".to_owned(), |x| format!("{x:.2}")),
        );
    }
    println!();
    println!("Targets:");
    for v in verdicts {
        println!("{v}");
    }
    Ok(())
}
