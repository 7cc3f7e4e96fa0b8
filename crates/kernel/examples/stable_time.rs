//! α or β of one graph file, as `cargo xtask bench kernel` times it:
//! `stable_time alpha|beta FILE [THREADS] [LIMIT_SECS]` prints the size on the first line,
//! then the seconds spent in the solver and the search nodes; exits with status 3 when the
//! time limit is reached.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gamegraph_kernel::{Config, KernelError, alpha, beta, externally_stable, internally_stable};

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 || !["alpha", "beta"].contains(&args[1].as_str()) {
        return Err("usage: stable_time alpha|beta FILE [THREADS] [LIMIT_SECS]".into());
    }
    let file = std::fs::File::open(&args[2])?;
    let options = gamegraph_graph::format::ReadOptions::default();
    let g = gamegraph_graph::format::read(file, &options)?.0.graph;
    let threads = args.get(3).map_or(Ok(1), |t| t.parse())?;
    let limit: Option<f64> = args.get(4).map(|t| t.parse()).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    let cfg =
        Config { deadline: limit.map(|s| start + Duration::from_secs_f64(s)), ..Config::default() };
    let result = pool.install(|| match args[1].as_str() {
        "alpha" => alpha(&g, &cfg),
        _ => beta(&g, &cfg),
    });
    let secs = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout();
    let s = match result {
        Ok(s) => s,
        Err(KernelError::AlphaLimit { best, bound, .. }) => {
            writeln!(
                out,
                "timeout\n{secs:.4} s, {} nodes, {} <= alpha <= {bound}",
                best.nodes, best.size
            )?;
            return Ok(ExitCode::from(3));
        }
        Err(KernelError::BetaLimit { best, bound, .. }) => {
            writeln!(
                out,
                "timeout\n{secs:.4} s, {} nodes, {bound} <= beta <= {}",
                best.nodes, best.size
            )?;
            return Ok(ExitCode::from(3));
        }
        Err(KernelError::Limit { nodes, .. }) => {
            writeln!(out, "timeout\n{secs:.4} s, {nodes} nodes")?;
            return Ok(ExitCode::from(3));
        }
        Err(e) => return Err(e.into()),
    };
    let ok = match args[1].as_str() {
        "alpha" => internally_stable(&g, &s.set)?.is_ok(),
        _ => externally_stable(&g, &s.set)?.is_ok(),
    };
    if !ok {
        return Err("the set fails its check".into());
    }
    writeln!(out, "{}\n{secs:.4} s, {} nodes", s.size, s.nodes)?;
    Ok(ExitCode::SUCCESS)
}
