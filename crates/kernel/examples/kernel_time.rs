//! Kernel existence on one graph file: `kernel_time FILE [LIMIT_SECS] [THREADS]` prints
//! `kernel`, `none` or `timeout` on the first line, then the retrograde label counts, the
//! seconds spent in the solver and the search nodes; exits with status 3 at the time limit.
//! THREADS (default: rayon's, one per core) sizes the thread pool the solver runs in.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gamegraph_kernel::{Config, KernelError, find_kernel};

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        return Err("usage: kernel_time FILE [LIMIT_SECS] [THREADS]".into());
    }
    let file = std::fs::File::open(&args[1])?;
    let options = gamegraph_graph::format::ReadOptions::default();
    let g = gamegraph_graph::format::read(file, &options)?.0.graph;
    let limit: Option<f64> = args.get(2).map(|t| t.parse()).transpose()?;
    let threads: usize = args.get(3).map(|t| t.parse()).transpose()?.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    let cfg =
        Config { deadline: limit.map(|s| start + Duration::from_secs_f64(s)), ..Config::default() };
    let result = pool.install(|| find_kernel(&g, &cfg));
    let secs = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout();
    match result {
        Ok(a) => {
            let e = &a.explanation;
            let what = if a.kernel.is_some() { "kernel" } else { "none" };
            writeln!(out, "{what}\nL {} W {} D {} parts {}", e.loss, e.win, e.draw, e.parts)?;
            writeln!(out, "{secs:.4} s, {} nodes", e.nodes)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(KernelError::Limit { nodes, .. }) => {
            writeln!(out, "timeout\n{secs:.4} s, {nodes} nodes")?;
            Ok(ExitCode::from(3))
        }
        Err(e) => Err(e.into()),
    }
}
