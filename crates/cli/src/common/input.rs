//! Input files and the options every graph-reading command shares.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use super::{CliError, progress};

/// An input file, or standard input for `None` and `-`.
pub(crate) struct Input {
    /// How errors name it: the path, or `<stdin>`.
    pub(crate) name: String,
    /// The buffered contents.
    pub(crate) reader: Box<dyn BufRead>,
}

impl Input {
    /// Opens `path` for reading; `None` or `-` is standard input.
    pub(crate) fn open(path: Option<&Path>) -> Result<Input, CliError> {
        match path {
            None => Ok(Self::stdin()),
            Some(p) if p == Path::new("-") => Ok(Self::stdin()),
            Some(p) => Ok(Self::file(p, open_file(p)?)),
        }
    }

    /// The open `file` at `path`, read from its start.
    fn file(path: &Path, file: File) -> Input {
        Input {
            name: path.display().to_string(),
            reader: Box::new(BufReader::with_capacity(1 << 20, file)),
        }
    }

    fn stdin() -> Input {
        Input {
            name: "<stdin>".to_owned(),
            reader: Box::new(BufReader::with_capacity(1 << 20, io::stdin())),
        }
    }
}

/// Opens an input file; a missing, unreadable or directory path is bad input (exit 2)
/// with the path in the message.
fn open_file(p: &Path) -> Result<File, CliError> {
    let bad = |e: io::Error| CliError::input(&p.display().to_string(), None, io_message(&e));
    let file = File::open(p).map_err(bad)?;
    if file.metadata().map_err(bad)?.is_dir() {
        return Err(CliError::input(&p.display().to_string(), None, "is a directory"));
    }
    Ok(file)
}

use gamegraph_graph::Located;
use gamegraph_graph::open::io_message;

/// The `--format` values of the commands that read a game graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// `N M`, an optional start vertex, then M arcs `u v` (the header text format).
    Header,
    /// One arc `u v` per line, `#` comments.
    Arcs,
    /// gamegraph's binary CSR format (see `gamegraph convert --to binary`).
    Binary,
}

impl From<FormatArg> for gamegraph_graph::format::Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Header => gamegraph_graph::format::Format::Header,
            FormatArg::Arcs => gamegraph_graph::format::Format::ArcList,
            FormatArg::Binary => gamegraph_graph::format::Format::Binary,
        }
    }
}

/// How a command reads its game graph: the options every graph-reading command shares.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct GraphInput {
    /// The input format (detected from the contents when absent).
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatArg>,
    /// Read graphs of up to N vertices from a text file (default: 16777216 plus one per byte
    /// of input, so that a few bytes cannot ask for gigabytes).
    #[arg(long, value_name = "N")]
    pub(crate) max_vertices: Option<u64>,
    /// Read a binary file instead of mapping it into memory. A mapped file must not be
    /// truncated or changed while the command runs.
    #[arg(long)]
    pub(crate) no_mmap: bool,
}

/// The CLI's error for a graph file that could not be opened or read: the library's
/// message, and the option that reads the file when there is one.
pub(crate) fn open_error(e: gamegraph_graph::open::OpenError) -> CliError {
    use gamegraph_graph::ReadErrorKind;
    let mut message = e.message();
    if let gamegraph_graph::open::OpenError::Read { error, .. } = &e {
        match error.kind {
            ReadErrorKind::TooManyVertices { n, .. } => {
                message.push_str(&format!(": pass --max-vertices {n} to read it"));
            }
            ReadErrorKind::HeaderMistake { .. } => {
                message.push_str(": --format arcs reads the file as an arc list");
            }
            ReadErrorKind::Ambiguous { .. } => {
                message.push_str(": give the format with --format header or --format arcs");
            }
            // Not bad input but a machine too small for it: exit 3, as for any shortage of
            // memory, with the place in the file all the same.
            ReadErrorKind::TooLarge { .. } => {
                let located = CliError::at(e.name(), e.position(), message);
                return CliError::bound(located);
            }
            _ => {}
        }
    }
    CliError::at(e.name(), e.position(), message)
}

/// Reads a game graph from `path` (standard input for `None` or `-`) as `input` says, and
/// returns it with the format that was read (given or detected). A binary file named by
/// its path is read by all threads of the current rayon pool.
pub(crate) fn read_graph(
    path: Option<&Path>,
    input: &GraphInput,
) -> Result<(gamegraph_graph::format::GameFile, gamegraph_graph::format::Format), CliError> {
    use gamegraph_graph::open;
    let path = path.filter(|p| *p != Path::new("-"));
    let len = path.and_then(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len());
    let bar = progress(len, "reading graph");
    let tick = |bytes: u64| {
        if let Some(bar) = &bar {
            bar.inc(bytes);
        }
    };
    let options = open::Options {
        format: input.format.map(Into::into),
        progress: Some(&tick),
        max_vertices: input.max_vertices,
        mmap: !input.no_mmap,
    };
    let result = match path {
        Some(p) => open::open(p, &options),
        None => open::read_stream(io::stdin().lock(), "<stdin>", &options),
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let opened = result.map_err(open_error)?;
    Ok((opened.file, opened.format))
}

/// The error for a file with terminal values given to `command`, which solves only the
/// game where the player without a move loses (its answer would be another game's).
pub(crate) fn terminal_values_refused(command: &str) -> CliError {
    CliError::Usage(format!(
        "the file has terminal values (win, loss or tie at vertices without moves), which \
         {command} does not solve: use gamegraph retro"
    ))
}

/// The graph of `file`, refused by `command` when the file has terminal values.
pub(crate) fn without_terminal_values(
    file: gamegraph_graph::format::GameFile,
    command: &str,
) -> Result<gamegraph_graph::format::GameFile, CliError> {
    match file.terminal {
        Some(_) => Err(terminal_values_refused(command)),
        None => Ok(file),
    }
}
