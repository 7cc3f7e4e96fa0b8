//! Times α or β on one graph file inside the process (reading excluded):
//! `stable_time alpha|beta FILE [THREADS]` prints the size, the seconds and the nodes.

use std::io::{BufReader, Write};
use std::time::Instant;

use gamegraph_kernel::{Config, alpha, beta, externally_stable, internally_stable};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: stable_time alpha|beta FILE [THREADS]".into());
    }
    let file = std::fs::File::open(&args[2])?;
    let g = gamegraph_graph::format::read_auto(BufReader::new(file))?.graph;
    let threads = args.get(3).map_or(Ok(1), |t| t.parse())?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    let s = pool.install(|| match args[1].as_str() {
        "alpha" => alpha(&g, &Config::default()),
        _ => beta(&g, &Config::default()),
    })?;
    let secs = start.elapsed().as_secs_f64();
    let ok = match args[1].as_str() {
        "alpha" => internally_stable(&g, &s.set)?.is_ok(),
        _ => externally_stable(&g, &s.set)?.is_ok(),
    };
    writeln!(std::io::stdout(), "{} {secs:.4} s {} nodes, checked {ok}", s.size, s.nodes)?;
    Ok(())
}
