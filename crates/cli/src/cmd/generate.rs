//! `gamegraph gen`: random game graphs, deterministic per seed.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gamegraph_graph::format::{self, DotStyle, Format};
use gamegraph_graph::generate::{GenConfig, random};
use gamegraph_graph::{Graph, Vertex};

use crate::common::{CliError, Output, check_memory, progress, with_threads};

/// The formats a graph can be written in (`--to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ToFormat {
    /// `N M`, the start vertex when there is one, then M arcs `u v` (the header format).
    Header,
    /// One arc `u v` per line (loses the start vertex and trailing isolated vertices).
    Arcs,
    /// gamegraph's binary CSR format with a checksum (fast to load).
    Binary,
    /// Graphviz DOT (the start vertex is drawn bold).
    Dot,
}

/// Writes `g` to `-o FILE` or standard output in `to`, with its start vertex when it has
/// one. Binary output is refused on a terminal.
pub(crate) fn write_graph(
    o: Option<&Path>,
    to: ToFormat,
    g: &Graph,
    start: Option<Vertex>,
) -> Result<(), CliError> {
    let mut out = if to == ToFormat::Binary { binary_output(o)? } else { Output::create(o)? };
    match to {
        ToFormat::Header => format::write(&mut out, g, start, Format::Header)?,
        ToFormat::Arcs => format::write(&mut out, g, start, Format::ArcList)?,
        ToFormat::Binary => format::write(&mut out, g, start, Format::Binary)?,
        ToFormat::Dot => {
            let highlight: Vec<Vertex> = start.into_iter().collect();
            let style =
                DotStyle { name: "gamegraph", highlight: Some(&highlight), ..DotStyle::default() };
            format::write_dot(&mut out, g, &style)?;
        }
    }
    out.flush()?;
    out.finish()
}

/// The output for a binary graph: `-o FILE` or standard output, refused on a terminal.
pub(crate) fn binary_output(o: Option<&Path>) -> Result<Output, CliError> {
    let to_stdout = o.is_none_or(|p| p == Path::new("-"));
    if to_stdout && std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "refusing to write a binary graph to a terminal: use -o FILE or a pipe".into(),
        ));
    }
    Output::create(o)
}

/// Arguments of `gamegraph gen`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Every arc has a uniform random source and target (drawn again while they \
are equal, unless --self-loops); repeated arcs are kept. With --acyclic every arc goes from a \
lower to a higher vertex id. The same options always give the same graph. The start vertex of \
the header and binary output is vertex 1.

Examples:
  gamegraph gen --vertices 10 --arcs 20 --seed 1             # a small graph in the header format
  gamegraph gen -n 1000000 -m 10000000 --to binary -o g.bin  # 10^7 arcs, binary
  gamegraph gen -n 8 -m 12 --acyclic --to dot | dot -Tsvg > g.svg")]
pub(crate) struct Args {
    /// Number of vertices N.
    #[arg(short = 'n', long)]
    vertices: usize,
    /// Number of arcs M.
    #[arg(short = 'm', long)]
    arcs: usize,
    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Every arc goes from a lower to a higher id: no cycle.
    #[arg(long)]
    acyclic: bool,
    /// Allow self-loops v -> v.
    #[arg(long, conflicts_with = "acyclic")]
    self_loops: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "header")]
    to: ToFormat,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads for generating (the graph is the same for every count).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// Runs `gamegraph gen`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let cfg = GenConfig {
        vertices: args.vertices,
        arcs: args.arcs,
        seed: args.seed,
        acyclic: args.acyclic,
        self_loops: args.self_loops,
    };
    cfg.check().map_err(|e| CliError::Usage(e.to_string()))?;
    check_memory(cfg.memory_needed(), "a graph of this size")?;
    let bar = progress(None, "generating graph");
    let g = with_threads(args.threads, || random(&cfg))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let start = (g.num_vertices() > 0).then_some(Vertex(0));
    write_graph(args.output.as_deref(), args.to, &g, start)?;
    Ok(ExitCode::SUCCESS)
}
