//! Times exploring and solving Connect Four on one board, on 1 and 2 threads, and gives
//! the memory used and the size of its values file, by rank and by position.
//!
//! ```text
//! cargo run --release -p gamegraph-game --example connect4_timing -- 5 5 3
//! ```
//! Arguments: width, height, runs per thread count (defaults 5, 4, 3).

use std::io::Write;
use std::time::Instant;

use gamegraph_game::games::ConnectFour;
use gamegraph_game::{ExploreConfig, Game, ParseError, SolvedGame, Terminal, explore, solve};

/// Connect Four without its rank: its values file stores the positions.
#[derive(Clone)]
struct Unranked(ConnectFour);

impl Game for Unranked {
    type Position = u64;
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, p: u64, out: &mut Vec<u64>) {
        self.0.moves(p, out);
    }
    fn terminal(&self, p: u64) -> Terminal {
        self.0.terminal(p)
    }
    fn canonical(&self, p: u64) -> u64 {
        self.0.canonical(p)
    }
    fn show(&self, p: u64) -> String {
        self.0.show(p)
    }
    fn parse(&self, s: &str) -> Result<u64, ParseError> {
        self.0.parse(s)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u32| args.get(i).map_or(Ok(default), |s| s.parse());
    let (width, height, runs) = (arg(0, 5)?, arg(1, 4)?, arg(2, 3)?);
    let game = ConnectFour::new(width, height)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "connect four {width} x {height} (mirror images identified)")?;
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
        for _ in 0..runs {
            let t0 = Instant::now();
            let explored = pool.install(|| explore(&game, &ExploreConfig::default()))?;
            let t1 = Instant::now();
            let g = explored.graph();
            let solution = pool.install(|| solve(g, |v| game.terminal(explored.position(v))));
            let t2 = Instant::now();
            let n = explored.len();
            let m = g.num_arcs();
            let secs = (t2 - t0).as_secs_f64();
            // What stays allocated: positions, CSR successors and predecessors, outcome and
            // remoteness.
            let bytes = n * 8 + 2 * (8 * (n + 1) + 4 * m) + 5 * n;
            writeln!(
                out,
                "threads {threads}: {n} positions {m} moves, explore {:.3}s solve {:.3}s, \
                 {:.0} positions/s, {:.1} bytes/position kept, start {:?}",
                (t1 - t0).as_secs_f64(),
                (t2 - t1).as_secs_f64(),
                n as f64 / secs,
                bytes as f64 / n as f64,
                solution.outcome(explored.start()),
            )?;
        }
    }
    // The size of the values file, without and with remoteness, by rank and by position.
    let solved = SolvedGame::new(game.clone(), &ExploreConfig::default())?;
    let positions = solved.len();
    let unranked = SolvedGame::new(Unranked(game.clone()), &ExploreConfig::default())?;
    for remoteness in [false, true] {
        let (mut by_rank, mut by_position) = (Vec::new(), Vec::new());
        solved.save(&mut by_rank, remoteness)?;
        unranked.save(&mut by_position, remoteness)?;
        for (how, bytes) in [("by rank", by_rank), ("by position", by_position)] {
            writeln!(
                out,
                "values file {how}{}: {} bytes, {:.2} bits/position",
                if remoteness { " with remoteness" } else { "" },
                bytes.len(),
                bytes.len() as f64 * 8.0 / solved.len() as f64
            )?;
        }
    }
    // The peak resident set of the process (Linux), over all runs.
    if let Some(kib) = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    }) {
        writeln!(
            out,
            "peak resident memory {:.0} MiB, {:.1} bytes/position",
            kib as f64 / 1024.0,
            (kib * 1024) as f64 / positions as f64
        )?;
    }
    Ok(())
}
