//! Solves Connect Four on one board the way `gamegraph game connect-four solve` does
//! (`SolvedGame::new`), and gives the time, the peak memory per position and per move.
//!
//! ```text
//! cargo run --release -p gamegraph-game --example connect4_solve -- 6 4 2
//! ```
//! Arguments: width, height, threads (defaults 5, 4, 2). Run it once per process: the
//! peak resident memory is the process's.

use std::io::Write;
use std::time::Instant;

use gamegraph_game::games::ConnectFour;
use gamegraph_game::{ExploreConfig, SolvedGame};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u32| args.get(i).map_or(Ok(default), |s| s.parse());
    let (width, height, threads) = (arg(0, 5)?, arg(1, 4)?, arg(2, 2)?);
    let game = ConnectFour::new(width, height)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads as usize).build()?;
    let t0 = Instant::now();
    let solved = pool.install(|| SolvedGame::new(game, &ExploreConfig::default()))?;
    let secs = t0.elapsed().as_secs_f64();
    let (n, m) = (solved.len(), solved.num_moves());
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "connect four {width} x {height}, {threads} threads: {n} positions {m} moves, \
         solved in {secs:.3}s, start {} in {:?}",
        solved.start_outcome(),
        solved.start_remoteness()
    )?;
    // The peak resident set of the process (Linux).
    if let Some(kib) = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    }) {
        let bytes = (kib * 1024) as f64;
        writeln!(
            out,
            "peak resident memory {:.1} MiB: {:.1} bytes/position, or 16 per position + {:.1} per move",
            bytes / 1048576.0,
            bytes / n as f64,
            (bytes - 16.0 * n as f64) / m as f64
        )?;
    }
    Ok(())
}
