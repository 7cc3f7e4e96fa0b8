//! Solves Connect Four or Quixo tier by tier into a directory (`solve_tiers`), and gives the
//! time, the positions, the start's value and the peak memory.
//!
//! ```text
//! cargo run --release -p gamegraph-game --example tier_solve -- 6 4 2 /tmp/c4-6x4 [--no-symmetry] [--no-remoteness]
//! cargo run --release -p gamegraph-game --example tier_solve -- quixo 4 2 /tmp/quixo-4
//! ```
//! Arguments: width and height (or `quixo` and the side), threads, directory (a fresh one,
//! or one to resume). Run it once per process: the peak resident memory is the process's.

use std::io::Write;
use std::time::Instant;

use gamegraph_game::games::{ConnectFour, Quixo};
use gamegraph_game::tier::{TierConfig, Tiered, solve_tiers};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let symmetry = !flag("--no-symmetry");
    if args.first().map(String::as_str) == Some("quixo") {
        let side = args.get(1).map_or(Ok(4), |s| s.parse())?;
        let game = if symmetry { Quixo::new(side)? } else { Quixo::without_symmetry(side)? };
        return run(&game, &format!("quixo {side} x {side}"), &args[2..], flag("--no-remoteness"));
    }
    let plain: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let (width, height) =
        (plain.first().map_or(Ok(5), |s| s.parse())?, plain.get(1).map_or(Ok(4), |s| s.parse())?);
    let game = if symmetry {
        ConnectFour::new(width, height)?
    } else {
        ConnectFour::without_symmetry(width, height)?
    };
    run(&game, &format!("connect four {width} x {height}"), &args[2..], flag("--no-remoteness"))
}

/// Solves `game` with the threads and the directory of `rest`, and prints the summary.
fn run<G: Tiered>(
    game: &G,
    name: &str,
    rest: &[String],
    no_remoteness: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let plain: Vec<&String> = rest.iter().filter(|a| !a.starts_with("--")).collect();
    let threads: usize = plain.first().map_or(Ok(2), |s| s.parse())?;
    let dir = plain.get(1).map_or("tier-solve", |s| s.as_str());
    // A line on stderr every 10 s: the pass, the tier and how far it is.
    let begun = Instant::now();
    let last = std::sync::atomic::AtomicU64::new(0);
    let progress = move |p: gamegraph_game::tier::TierProgress| {
        let now = begun.elapsed().as_secs();
        let seen = last.load(std::sync::atomic::Ordering::Relaxed);
        if now >= seen + 10
            && last
                .compare_exchange(
                    seen,
                    now,
                    std::sync::atomic::Ordering::Relaxed,
                    std::sync::atomic::Ordering::Relaxed,
                )
                .is_ok()
        {
            let _ = writeln!(
                std::io::stderr(),
                "{now:>6} s  {:?} tier {} ({}/{} steps): {:.1} %",
                p.phase,
                p.tier,
                p.steps_done,
                p.steps,
                100.0 * p.done as f64 / p.total.max(1) as f64
            );
        }
    };
    let config = TierConfig {
        no_remoteness,
        progress: Some(std::sync::Arc::new(progress)),
        ..TierConfig::default()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let t0 = Instant::now();
    let summary = pool.install(|| solve_tiers(game, dir.as_ref(), &config))?;
    let secs = t0.elapsed().as_secs_f64();
    let c = summary.counts;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{name}, {threads} threads: {} positions ({} W, {} L, {} T, {} D), \
         solved in {secs:.3} s, start {} in {:?}, {} steps resumed, values files {} bytes \
         ({:.3} bits a position)",
        summary.positions(),
        c.win,
        c.loss,
        c.tie,
        c.draw,
        summary.start_outcome,
        summary.start_remoteness,
        summary.resumed,
        summary.file_bytes,
        summary.file_bytes as f64 * 8.0 / summary.positions() as f64
    )?;
    if let Some(kib) = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    }) {
        writeln!(out, "peak resident memory {:.1} MiB", kib as f64 / 1024.0)?;
    }
    Ok(())
}
