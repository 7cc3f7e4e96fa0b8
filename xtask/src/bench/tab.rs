//! `cargo xtask bench tab`: the tab board game, extrapolation by the period of the rows
//! against plain DP (`--no-extrapolate`) in the same run.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

use super::{Measured, best_of, build_release, mib, secs};

struct Case {
    name: String,
    args: Vec<String>,
    /// Whether plain DP is run beside it (it is hopeless on 10^18 rows).
    baseline: bool,
}

fn case(name: &str, args: &[&str], baseline: bool) -> Case {
    Case { name: name.into(), args: args.iter().map(|s| s.to_string()).collect(), baseline }
}

/// Runs the tab benchmark and prints a Markdown table.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?.join("gamegraph");
    let dir = root.join("target/bench-tab");
    std::fs::create_dir_all(&dir)?;
    // Ten boards of 200 x 50, start cells on the bottom rows.
    let mut inp = String::from("10\n");
    for i in 0..10 {
        let _ = writeln!(inp, "200 50 {} {}", 1 + i % 3, 1 + (7 * i) % 50);
    }
    let ten = dir.join("ten-200x50.inp");
    std::fs::write(&ten, inp).context("cannot write the benchmark input")?;
    let ten = ten.to_string_lossy().into_owned();
    let tall = if quick { "1000000" } else { "10000000" };
    let wide = if quick { "200" } else { "1000" };
    let cases = [
        case("10 tests of 200 × 50", &["tab", &ten], true),
        case(
            "one cell of 10^18 × 50",
            &["tab", "--rows", "1000000000000000000", "--cols", "50", "--at", "1,1"],
            false,
        ),
        case(
            &format!("period search for M = {wide} (10^18 × {wide} needs it)"),
            &["tab", "--period", wide],
            false,
        ),
        case(
            &format!("full {tall} × 50 board, cell (1,1)"),
            &["tab", "--rows", tall, "--cols", "50", "--at", "1,1"],
            true,
        ),
    ];
    let reps = if quick { 1 } else { 3 };
    println!(
        "| case | gamegraph tab | plain DP (--no-extrapolate) | plain / ours | peak RSS ours / plain (MiB) | answer |"
    );
    println!("|---|---:|---:|---:|---:|---|");
    for c in &cases {
        // The long period search runs once.
        let reps = if c.args.iter().any(|a| a == "--period") { 1 } else { reps };
        let (ours, out) = best_of(reps, || {
            let mut cmd = Command::new(&bin);
            cmd.args(&c.args);
            cmd
        })?;
        let answer = summarise(&out);
        let plain: Option<(Measured, String)> = if c.baseline {
            Some(best_of(reps, || {
                let mut cmd = Command::new(&bin);
                cmd.args(&c.args).arg("--no-extrapolate");
                cmd
            })?)
        } else {
            None
        };
        if let Some((_, pout)) = &plain {
            anyhow::ensure!(*pout == out, "{}: plain DP disagrees: {pout:?} vs {out:?}", c.name);
        }
        let (pt, ratio, prss) = match &plain {
            Some((p, _)) => (
                secs(p.wall),
                format!("{:.1}", p.wall.as_secs_f64() / ours.wall.as_secs_f64().max(1e-9)),
                mib(p.peak_rss),
            ),
            None => ("not run (10^18 rows)".into(), "–".into(), "–".into()),
        };
        println!(
            "| {} | {} s | {} | {} | {} / {} | {} |",
            c.name,
            secs(ours.wall),
            if plain.is_some() { format!("{pt} s") } else { pt },
            ratio,
            mib(ours.peak_rss),
            prss,
            answer
        );
    }
    Ok(())
}

/// The output on one line, shortened.
fn summarise(out: &str) -> String {
    let s: Vec<&str> =
        out.lines().filter(|l| !l.starts_with("|---") && !l.starts_with("| M ")).collect();
    let s = s.join(" ").replace('|', "/");
    if s.len() > 60 { format!("{}…", &s[..60]) } else { s }
}
