//! `gamegraph info`: what a game graph file holds.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::Summary;
use gamegraph_graph::Terminal;
use gamegraph_graph::format::Terminals;

use crate::common::{CliError, GraphInput, Output, read_graph, write_json};

/// Arguments of `gamegraph info`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Prints the format (detected unless --format is given), the numbers \
of vertices and arcs, the start vertex (`-` when the file has none), the numbers of \
self-loops and of sinks (vertices without a move) and the largest out-degree; for a file \
with terminal values, how many sinks have one (win, loss, tie).

Examples:
  gamegraph info game.txt
  gamegraph info game.bin --json")]
pub(crate) struct Args {
    /// Input file (standard input when absent or `-`).
    file: Option<PathBuf>,
    #[command(flatten)]
    input: GraphInput,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Info {
    format: &'static str,
    vertices: usize,
    arcs: usize,
    start: Option<u64>,
    self_loops: usize,
    sinks: usize,
    max_out_degree: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    terminal_values: Option<TerminalCounts>,
}

/// How many vertices of a file have each terminal value.
#[derive(serde::Serialize)]
struct TerminalCounts {
    total: usize,
    win: usize,
    loss: usize,
    tie: usize,
}

impl TerminalCounts {
    fn of(t: &Terminals) -> TerminalCounts {
        let count = |want| t.iter().filter(|&(_, x)| x == want).count();
        TerminalCounts {
            total: t.len(),
            win: count(Terminal::Win),
            loss: count(Terminal::Loss),
            tie: count(Terminal::Tie),
        }
    }
}

/// Runs `gamegraph info`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let (file, format) = read_graph(args.file.as_deref(), &args.input)?;
    let summary = Summary::of(&file.graph);
    let terminal = file.terminal.as_ref().map(TerminalCounts::of);
    let mut out = Output::create(None)?;
    if args.json {
        let info = Info {
            format: format.name(),
            vertices: summary.vertices,
            arcs: summary.arcs,
            start: file.start.map(|s| s.one_based()),
            self_loops: summary.self_loops,
            sinks: summary.sinks,
            max_out_degree: summary.max_out_degree,
            terminal_values: terminal,
        };
        write_json(&mut out, &info)?;
    } else {
        writeln!(out, "format: {}", format.name())?;
        match file.start {
            Some(s) => writeln!(out, "start: {}", s.one_based())?,
            None => writeln!(out, "start: -")?,
        }
        write!(out, "{summary}")?;
        if let Some(t) = terminal {
            writeln!(out, "terminal values: {} ({} W, {} L, {} T)", t.total, t.win, t.loss, t.tie)?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
