//! `cargo xtask bench octal [--quick] [--medium] [--games 0.6,0.106]`: Grundy sequences of octal games, side
//! by side with `ogsolve` (a peer, installed here with `cargo install`, only run) and with
//! the plain quadratic definition.
//!
//! For each game and N, every tool computes g(N) (and gamegraph the proven period):
//! - `gamegraph` — the sparse method, stopping as soon as a period is proven;
//! - `gamegraph --full` — the sparse method computing every value up to N;
//! - `ogsolve -m rc2` — ogsolve's fastest rare/common method;
//! - `plain` — `gamegraph --method plain --full`, the O(N²) definition, only up to 10⁵
//!   (at 10⁶ it needs ~10¹² pair visits: hours).
//!
//! The values g(N) of all tools must agree, or the benchmark fails. Ratios are of wall
//! times, and once of CPU times (less disturbed by a shared machine).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::{Measured, best_of, build_release, mib, secs};

const GAMES: [&str; 5] = ["0.77", "0.07", "0.137", "0.6", "0.106"];
const PLAIN_MAX: u64 = 100_000;
/// Seconds after which an ogsolve run is stopped and reported as `> cap`.
const TIME_CAP: u64 = 300;

fn ogsolve(root: &Path) -> Result<PathBuf> {
    let tools = root.join("target/bench-tools");
    let bin = tools.join("bin/ogsolve");
    if !bin.exists() {
        eprintln!("installing ogsolve into {}", tools.display());
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["install", "ogsolve", "--root"])
            .arg(&tools)
            .status()
            .context("cannot run cargo install")?;
        if !status.success() {
            bail!("cargo install ogsolve failed");
        }
    }
    Ok(bin)
}

/// `g(N) = v` from gamegraph's report, and its period line.
fn parse_ours(out: &str, n: u64) -> Result<(u64, String)> {
    let prefix = format!("g({n}) = ");
    let value = out
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .with_context(|| format!("no g({n}) in gamegraph output:\n{out}"))?
        .trim()
        .parse()?;
    let pre = out.lines().find_map(|l| l.strip_prefix("preperiod "));
    let per = out.lines().find_map(|l| l.strip_prefix("period "));
    let period = match (pre, per) {
        (Some(p), Some(q)) => format!("P = {p}, Q = {q}"),
        _ => out
            .lines()
            .find(|l| l.starts_with("no period"))
            .unwrap_or("?")
            .replace("no period proven up to n = ", "none proven to "),
    };
    Ok((value, period))
}

/// `nimber of N: v` from ogsolve's report.
fn parse_ogsolve(out: &str, n: u64) -> Result<u64> {
    let key = format!("nimber of {n}:");
    let rest = out
        .lines()
        .find_map(|l| l.trim().strip_prefix(&key))
        .with_context(|| format!("no {key} in ogsolve output:\n{out}"))?;
    Ok(rest.split_whitespace().next().context("no value")?.parse()?)
}

fn ours(
    bin: &Path,
    code: &str,
    n: u64,
    extra: &[&str],
    reps: usize,
) -> Result<(Measured, u64, String)> {
    let limit = (n + 1).to_string();
    let at = n.to_string();
    let (m, out) = best_of(reps, || {
        let mut c = Command::new(bin.join("gamegraph"));
        c.args(["octal", code, "--period", "--at", &at, "--limit", &limit]).args(extra);
        c
    })?;
    let (v, period) = parse_ours(&out, n)?;
    Ok((m, v, period))
}

/// Runs the benchmark and prints the Markdown table.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let quick = args.iter().any(|a| a == "--quick");
    let medium = args.iter().any(|a| a == "--medium");
    let sizes: &[u64] = if quick {
        &[100_000]
    } else if medium {
        &[100_000, 1_000_000]
    } else {
        &[100_000, 1_000_000, 10_000_000]
    };
    let reps = if quick { 3 } else { 1 };
    // `--games 0.6,0.106`: only these rows.
    let only = args.iter().position(|a| a == "--games").and_then(|i| args.get(i + 1));
    let games: Vec<&str> = match only {
        Some(list) => list.split(',').collect(),
        None => GAMES.to_vec(),
    };
    let og = ogsolve(root)?;
    let bin = build_release(root)?;
    println!(
        "| game | N | gamegraph s | gamegraph --full s | ogsolve rc2 s | plain s | \
         ogsolve / gamegraph | ogsolve / --full | ogsolve / --full (CPU time) | plain / --full | \
         peak MiB (ours / ogsolve) | period |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &n in sizes {
        for &code in &games {
            let (fast, v1, period) = ours(&bin, code, n, &[], reps)?;
            let proven = period.starts_with("P = ");
            // With no period to stop at, `--full` is the same computation: the same run.
            // With a proven period, `--full` only shows the engine on a periodic sequence,
            // where every heap of a value that common pairs cannot make joins the sparse set
            // (the P-positions of 0.07, say), so it is quadratic: only up to PLAIN_MAX.
            let (full, v2) = if !proven {
                (Some(fast), v1)
            } else if n <= PLAIN_MAX {
                let (m, v, _) = ours(&bin, code, n, &["--full"], reps)?;
                (Some(m), v)
            } else {
                (None, v1)
            };
            let at = n.to_string();
            // ogsolve gets a time cap (via coreutils `timeout`): it is far slower on some rows.
            // One run each: the slow rows take minutes.
            let capped = best_of(1, || {
                let mut c = Command::new("timeout");
                c.arg(TIME_CAP.to_string()).arg(&og).args(["-m", "rc2", "-n", &at, code]);
                c
            });
            let (ogm, v3) = match capped {
                Ok((m, out)) => (Some(m), parse_ogsolve(&out, n)?),
                Err(_) => (None, v1),
            };
            let plain = if n <= PLAIN_MAX {
                let (m, v, _) = ours(&bin, code, n, &["--full", "--method", "plain"], 1)?;
                if v != v1 {
                    bail!("{code}: plain says g({n}) = {v}, sparse {v1}");
                }
                Some(m)
            } else {
                None
            };
            if v1 != v2 || v1 != v3 {
                bail!("{code}: g({n}) differs: gamegraph {v1}, --full {v2}, ogsolve {v3}");
            }
            let ratio = |a: Option<&Measured>, b: &Measured| match a {
                Some(a) => format!("{:.1}×", a.wall.as_secs_f64() / b.wall.as_secs_f64().max(1e-6)),
                None => format!("> {:.0}×", TIME_CAP as f64 / b.wall.as_secs_f64().max(1e-6)),
            };
            let cpu_ratio = match (&ogm, &full) {
                (Some(m), Some(f)) => {
                    format!("{:.1}×", m.cpu.as_secs_f64() / f.cpu.as_secs_f64().max(1e-6))
                }
                (None, Some(_)) => "capped".into(),
                (_, None) => "–".into(),
            };
            let og_secs = ogm.as_ref().map_or(format!("> {TIME_CAP} (capped)"), |m| secs(m.wall));
            let og_mib = ogm.as_ref().map_or("–".into(), |m| mib(m.peak_rss));
            let full_secs = match &full {
                Some(m) if !proven => format!("{} (same run)", secs(m.wall)),
                Some(m) => secs(m.wall),
                None => "skipped (periodic: quadratic)".into(),
            };
            let vs_full =
                |a: Option<&Measured>| full.as_ref().map_or("–".into(), |f| ratio(a, f));
            println!(
                "| {code} | {n} | {} | {full_secs} | {og_secs} | {} | {} | {} | {cpu_ratio} | {} | \
                 {} / {og_mib} | {period} |",
                secs(fast.wall),
                plain.map_or("skipped (O(N²): hours)".into(), |m| secs(m.wall)),
                ratio(ogm.as_ref(), &fast),
                vs_full(ogm.as_ref()),
                plain.as_ref().map_or("–".into(), |m| vs_full(Some(m))),
                mib(full.unwrap_or(fast).peak_rss),
            );
        }
    }
    if !quick {
        println!("\nplain skipped above N = {PLAIN_MAX}: the O(N²) definition needs hours there.");
        println!(
            "--full skipped above N = {PLAIN_MAX} for periodic games: the period is proven \
             early, and computing on is quadratic there."
        );
    }
    println!("ogsolve runs stopped after {TIME_CAP} s show `> {TIME_CAP} (capped)`.");
    Ok(())
}
