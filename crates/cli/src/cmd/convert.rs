//! `gamegraph convert`: between the graph file formats.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::format;

use crate::cmd::generate::{ToFormat, binary_output, write_graph};
use crate::common::{CliError, GraphInput, Output, check_distinct, read_graph};

/// Arguments of `gamegraph convert`.
#[derive(Debug, clap::Args)]
#[command(after_help = "The input format is detected from the contents unless --format is \
given. Converting to the header format keeps the start vertex (no start line when the input \
has none); an arc list records neither the start vertex nor isolated vertices after the largest \
id that has an arc. Terminal values (win, loss or tie at vertices without moves) are kept by \
the header and binary formats; an arc list cannot hold them, so converting such a file to one \
is refused. Binary output goes to a file or a pipe, never to a terminal.

Examples:
  gamegraph convert game.txt --to binary -o game.bin   # fast to load again
  gamegraph convert game.bin --to header > game.txt      # and back
  gamegraph convert game.txt --to binary --with-predecessors -o game.bin  # loads faster still
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
    /// With --to binary: also store the predecessor lists, so that solvers load them
    /// (checked against the arcs) instead of building them; the file grows by 4 bytes per
    /// arc and 8 per vertex.
    #[arg(long)]
    with_predecessors: bool,
}

/// Runs `gamegraph convert`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    check_distinct(args.output.as_deref(), args.file.as_deref())?;
    if args.with_predecessors && args.to != ToFormat::Binary {
        return Err(CliError::Usage("--with-predecessors needs --to binary".into()));
    }
    let (file, _) = read_graph(args.file.as_deref(), &args.input)?;
    if let Some(t) = &file.terminal
        && args.to == ToFormat::Arcs
    {
        return Err(CliError::Usage(format!(
            "the input has terminal values ({}), which an arc list cannot hold: \
             convert to header or binary",
            t.len()
        )));
    }
    if args.with_predecessors || (file.terminal.is_some() && args.to == ToFormat::Binary) {
        let mut out = binary_output(args.output.as_deref())?;
        format::binary::write_game_binary(&mut out, &file, args.with_predecessors)?;
        return out.finish().map(|()| ExitCode::SUCCESS);
    }
    if file.terminal.is_some() && args.to == ToFormat::Header {
        let mut out = Output::create(args.output.as_deref())?;
        format::write_game(&mut out, &file, format::Format::Header)?;
        out.flush()?;
        return out.finish().map(|()| ExitCode::SUCCESS);
    }
    if let Some(t) = &file.terminal
        && args.to == ToFormat::Dot
    {
        // The drawing keeps the values: a vertex with one is labelled `V` and its letter.
        let labels: Vec<String> = file
            .graph
            .vertices()
            .map(|v| match t.get(v) {
                Some(value) => format!("{}\n{}", v.one_based(), value.letter()),
                None => v.one_based().to_string(),
            })
            .collect();
        let highlight: Vec<_> = file.start.into_iter().collect();
        let style = format::DotStyle {
            name: "gamegraph",
            labels: Some(&labels),
            highlight: Some(&highlight),
            ..format::DotStyle::default()
        };
        let mut out = Output::create(args.output.as_deref())?;
        format::write_dot(&mut out, &file.graph, &style)?;
        out.flush()?;
        return out.finish().map(|()| ExitCode::SUCCESS);
    }
    write_graph(args.output.as_deref(), args.to, &file.graph, file.start)?;
    Ok(ExitCode::SUCCESS)
}
