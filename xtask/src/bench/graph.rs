//! `cargo xtask bench graph`: loading random graphs of 10^6, 10^7 and 10^8 arcs (quick:
//! 10^6) with `gamegraph info` on two threads, from header text and from the binary
//! format, side by side; the speed is the file's size over the whole process's wall time.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::{best_of, build_release, mib, secs};

/// Threads of every load.
const THREADS: &str = "2";

/// One input of the benchmark.
struct Case {
    arcs: u64,
    vertices: u64,
}

fn generate(
    bin: &Path,
    data: &Path,
    case: &Case,
    to: &str,
    ext: &str,
) -> Result<std::path::PathBuf> {
    let path = data.join(format!("graph-{}-{}.{ext}", case.vertices, case.arcs));
    if path.exists() {
        return Ok(path);
    }
    let tmp = path.with_extension(format!("{ext}.part"));
    let status = Command::new(bin.join("gamegraph"))
        .args(["gen", "--vertices", &case.vertices.to_string(), "--arcs", &case.arcs.to_string()])
        .args(["--seed", "1", "--to", to, "-o"])
        .arg(&tmp)
        .status()
        .context("cannot run gamegraph gen")?;
    if !status.success() {
        bail!("gamegraph gen failed for {}", path.display());
    }
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Runs the benchmark and prints a Markdown table.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let data = root.join("target/bench-data");
    std::fs::create_dir_all(&data)?;
    let sizes: &[u64] = if quick { &[1_000_000] } else { &[1_000_000, 10_000_000, 100_000_000] };
    // Two threads through rayon's own setting, and through the option once `info` has one.
    let help = Command::new(bin.join("gamegraph")).args(["info", "--help"]).output()?;
    let has_threads = String::from_utf8_lossy(&help.stdout).contains("--threads");
    let mut verdicts = Vec::new();
    println!(
        "| arcs | vertices | format | file MB | load s | CPU s | MB/s | MB per CPU s | M arcs/s | peak RSS MiB | bytes/arc | graph bytes/arc | text / binary |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &arcs in sizes {
        let case = Case { arcs, vertices: arcs / 10 };
        let files = [
            ("header", generate(&bin, &data, &case, "header", "txt")?),
            ("binary", generate(&bin, &data, &case, "binary", "v2.bin")?),
        ];
        let reps = if arcs >= 100_000_000 { 2 } else { 3 };
        let mut text_time = None;
        for (format, path) in files {
            let size = std::fs::metadata(&path)?.len();
            let (m, out) = best_of(reps, || {
                let mut c = Command::new(bin.join("gamegraph"));
                c.env("RAYON_NUM_THREADS", THREADS).arg("info");
                if has_threads {
                    c.args(["--threads", THREADS]);
                }
                c.arg(&path);
                c
            })?;
            if !out.contains(&format!("arcs: {arcs}"))
                || !out.contains(&format!("format: {format}"))
            {
                bail!("unexpected output of gamegraph info {}:\n{out}", path.display());
            }
            let t = m.wall.as_secs_f64();
            let cpu = m.cpu.as_secs_f64();
            let speed = size as f64 / 1e6 / t;
            if format == "header" && arcs >= 10_000_000 {
                verdicts.push(format!(
                    "- header text, {arcs} arcs, {THREADS} threads: {speed:.0} MB/s whole process"
                ));
            }
            // The graph itself: offsets (8 bytes per vertex + 8) and targets (4 per arc).
            let graph_bytes = 8 * (case.vertices + 1) + 4 * arcs;
            let ratio = match text_time {
                None => {
                    text_time = Some(t);
                    "1.00".to_owned()
                }
                Some(tt) => format!("{:.1}x faster", tt / t),
            };
            println!(
                "| {arcs} | {} | {format} | {:.1} | {} | {cpu:.3} | {:.0} | {:.0} | {:.1} | {} | {:.2} | {:.2} | {ratio} |",
                case.vertices,
                size as f64 / 1e6,
                secs(m.wall),
                speed,
                size as f64 / 1e6 / cpu,
                arcs as f64 / 1e6 / t,
                mib(m.peak_rss),
                m.peak_rss as f64 / arcs as f64,
                graph_bytes as f64 / arcs as f64,
            );
        }
    }
    println!();
    println!(
        "Each load is the best (by wall time) of several runs of `gamegraph info FILE` (a whole \
         process: reading, building the CSR graph, counting sinks and self-loops); CPU s is \
         that run's user + system time, which a busy machine does not inflate as much as \
         the wall time. bytes/arc is the peak RSS over the arcs; graph bytes/arc is what \
         the final CSR arrays take. MB/s is the file's size over the wall time, on \
         {THREADS} threads."
    );
    if !verdicts.is_empty() {
        println!();
        println!("Targets:");
        for v in verdicts {
            println!("{v}");
        }
    }
    Ok(())
}
