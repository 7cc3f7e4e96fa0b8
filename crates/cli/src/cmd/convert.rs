//! `gamegraph convert`: between the graph file formats.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cmd::generate::{ToFormat, write_graph};
use crate::common::{CliError, GraphInput, check_distinct, read_graph};

/// Arguments of `gamegraph convert`.
#[derive(Debug, clap::Args)]
#[command(after_help = "The input format is detected from the contents unless --format is \
given. Converting to the header format keeps the start vertex (no start line when the input \
has none); an arc list records neither the start vertex nor isolated vertices after the largest \
id that has an arc. Binary output goes to a file or a pipe, never to a terminal.

Examples:
  gamegraph convert game.txt --to binary -o game.bin   # fast to load again
  gamegraph convert game.bin --to header > game.txt      # and back
  gamegraph convert arcs.txt --format arcs --to dot -o game.dot")]
pub(crate) struct Args {
    /// Input file (standard input when absent or `-`).
    file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    to: ToFormat,
    #[command(flatten)]
    input: GraphInput,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `gamegraph convert`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    check_distinct(args.output.as_deref(), args.file.as_deref())?;
    let (file, _) = read_graph(args.file.as_deref(), &args.input)?;
    write_graph(args.output.as_deref(), args.to, &file.graph, file.start)?;
    Ok(ExitCode::SUCCESS)
}
