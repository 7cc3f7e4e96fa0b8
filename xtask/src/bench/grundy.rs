//! `cargo xtask bench grundy [--quick]`: Grundy values of a large acyclic graph against a
//! plain single-threaded C++ implementation (`xtask/baselines/grundy.cpp`, g++ -O2), and
//! sums of 10⁶ heaps, all as processes side by side in one run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use gamegraph_graph::generate::SplitMix64;

use crate::bench::{Measured, best_of, build_release, mib, secs};

fn baseline(root: &Path, dir: &Path) -> Result<PathBuf> {
    let src = root.join("xtask/baselines/grundy.cpp");
    let exe = dir.join("grundy-baseline");
    let status = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .context("cannot run g++ (the C++ baseline needs it)")?;
    if !status.success() {
        bail!("g++ failed on {}", src.display());
    }
    Ok(exe)
}

struct Row {
    case: String,
    tool: String,
    m: Measured,
    base: Option<Measured>,
}

fn table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| case | tool | wall (s) | peak RSS (MiB) | time vs baseline | memory vs baseline |\n\
         |---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let (t, mem) = match r.base {
            Some(b) => (
                format!("{:.2}×", r.m.wall.as_secs_f64() / b.wall.as_secs_f64()),
                format!("{:.2}×", r.m.peak_rss as f64 / b.peak_rss as f64),
            ),
            None => ("1.00×".into(), "1.00×".into()),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {t} | {mem} |",
            r.case,
            r.tool,
            secs(r.m.wall),
            mib(r.m.peak_rss)
        );
    }
    s
}

/// Runs the benchmark and prints a Markdown table.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let gg = bin.join("gamegraph");
    let dir = root.join("target/bench/grundy");
    std::fs::create_dir_all(&dir)?;
    let base = baseline(root, &dir)?;
    let reps = if quick { 3 } else { 1 };
    let mut rows = Vec::new();

    // 1. Grundy values of a random acyclic graph.
    let (n, m) = if quick { (100_000u64, 1_000_000u64) } else { (10_000_000, 100_000_000) };
    let graph = dir.join(format!("dag-{n}-{m}.v2.bin"));
    if !graph.exists() {
        eprintln!("generating {}", graph.display());
        let status = Command::new(&gg)
            .args(["gen", "-n", &n.to_string(), "-m", &m.to_string(), "--acyclic", "--seed", "5"])
            .args(["--to", "binary", "-o"])
            .arg(&graph)
            .status()?;
        if !status.success() {
            bail!("gamegraph gen failed");
        }
    }
    let case = format!("DAG Grundy, n = {n}, m = {m}");
    let (b, b_out) = best_of(reps, || {
        let mut c = Command::new(&base);
        c.arg("dag").arg(&graph);
        c
    })?;
    rows.push(Row {
        case: case.clone(),
        tool: "C++ baseline (1 thread, -O2)".into(),
        m: b,
        base: None,
    });
    for threads in ["1", "2"] {
        let (r, out) = best_of(reps, || {
            let mut c = Command::new(&gg);
            c.args(["grundy", "--threads", threads]).arg(&graph);
            c
        })?;
        if out != b_out {
            bail!("gamegraph grundy says {out:?}, the baseline {b_out:?}");
        }
        rows.push(Row {
            case: case.clone(),
            tool: format!("gamegraph grundy --threads {threads}"),
            m: r,
            base: Some(b),
        });
    }
    if quick {
        // Every value, not only the start's.
        let all_ours = best_of(1, || {
            let mut c = Command::new(&gg);
            c.args(["grundy", "--all", "--threads", "2"]).arg(&graph);
            c
        })?
        .1;
        let all_base = best_of(1, || {
            let mut c = Command::new(&base);
            c.arg("dag").arg(&graph).arg("--all");
            c
        })?
        .1;
        if all_ours != all_base {
            bail!("gamegraph grundy --all differs from the baseline");
        }
    }

    // 2. Sums of 10⁶ heaps with limits up to 10¹⁸.
    let heaps = if quick { 100_000 } else { 1_000_000 };
    let file = dir.join(format!("heaps-{heaps}.txt"));
    let plain = dir.join(format!("heaps-{heaps}-plain.txt"));
    if !file.exists() || !plain.exists() {
        let mut rng = SplitMix64::new(0x6865_6170);
        let (mut a, mut p) = (String::new(), String::new());
        for _ in 0..heaps {
            let n = rng.below(1_000_000_000_000_000_000);
            let lim = rng.below(1_000_000_000_000) + 1;
            let _ = writeln!(a, "{n} {lim}");
            let _ = writeln!(p, "{n}");
        }
        std::fs::write(&file, a)?;
        std::fs::write(&plain, p)?;
    }
    let case = format!("{heaps} heaps up to 10^18");
    let (b, b_out) = best_of(reps, || {
        let mut c = Command::new(&base);
        c.arg("heaps").arg(&file);
        c
    })?;
    rows.push(Row {
        case: case.clone(),
        tool: "C++ baseline (digit sum only)".into(),
        m: b,
        base: None,
    });
    for (label, extra, input) in [
        ("gamegraph nim --file (limits)", &[][..], &file),
        ("gamegraph nim --file (limits) --misere", &["--misere"][..], &file),
        ("gamegraph nim --file (plain) --moore 3", &["--moore", "3"][..], &plain),
    ] {
        let (r, out) = best_of(reps, || {
            let mut c = Command::new(&gg);
            c.args(["nim", "--file"]).arg(input).args(extra);
            c
        })?;
        if extra.is_empty() && out.lines().next() != b_out.lines().next() {
            bail!("gamegraph nim says {out:?}, the baseline {b_out:?}");
        }
        rows.push(Row { case: case.clone(), tool: label.into(), m: r, base: Some(b) });
    }
    println!("{}", table(&rows));
    Ok(())
}
