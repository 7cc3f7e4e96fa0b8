//! What every command shares: errors and exit codes, input files, stdout, threads, progress.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A failure, with the exit code it maps to.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad input: exit code 2. `line` and `column` are 1-based when known.
    Input { source: String, line: Option<u64>, column: Option<u64>, message: String },
    /// Arguments that clap accepted but that make no sense together, or a bad value: exit 2.
    Usage(String),
    /// A `--time-limit` was reached: exit code 3.
    TimeLimit(String),
    /// Anything else (an unreadable file, a full disk): exit code 1.
    Other(anyhow::Error),
}

impl CliError {
    /// Bad input at a known place of a named source.
    pub(crate) fn input(
        source: &str,
        position: Option<(u64, u64)>,
        message: impl fmt::Display,
    ) -> CliError {
        CliError::Input {
            source: source.to_owned(),
            line: position.map(|p| p.0),
            column: position.map(|p| p.1),
            message: message.to_string(),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Other(e.into())
    }
}

impl From<anyhow::Error> for CliError {
    fn from(e: anyhow::Error) -> Self {
        CliError::Other(e)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input { source, line, column, message } => {
                write!(f, "{source}:")?;
                if let Some(line) = line {
                    write!(f, "{line}:")?;
                }
                if let Some(column) = column {
                    write!(f, "{column}:")?;
                }
                write!(f, " {message}")
            }
            CliError::Usage(m) | CliError::TimeLimit(m) => f.write_str(m),
            CliError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

fn is_broken_pipe(e: &CliError) -> bool {
    match e {
        CliError::Other(e) => e.chain().any(|c| {
            c.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
        }),
        _ => false,
    }
}

/// Turns a command's result into the process exit code, printing the error on stderr.
/// A closed stdout pipe (`gamegraph … | head`) is not an error.
pub(crate) fn finish(result: Result<ExitCode, CliError>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {e}");
            }
            ExitCode::from(match e {
                CliError::Input { .. } | CliError::Usage(_) => 2,
                CliError::TimeLimit(_) => 3,
                CliError::Other(_) => 1,
            })
        }
    }
}

/// An input file, or standard input for `None` and `-`.
pub(crate) struct Input {
    /// How errors name it: the path, or `<stdin>`.
    pub(crate) name: String,
    /// The buffered contents.
    pub(crate) reader: Box<dyn BufRead>,
    /// The size in bytes, when known (for progress bars).
    pub(crate) len: Option<u64>,
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
        let len = file.metadata().ok().map(|m| m.len());
        Input {
            name: path.display().to_string(),
            reader: Box::new(BufReader::with_capacity(1 << 20, file)),
            len,
        }
    }

    fn stdin() -> Input {
        Input {
            name: "<stdin>".to_owned(),
            reader: Box::new(BufReader::with_capacity(1 << 20, io::stdin())),
            len: None,
        }
    }
}

fn open_file(p: &Path) -> Result<File, CliError> {
    File::open(p).map_err(|e| {
        CliError::Other(anyhow::Error::new(e).context(format!("cannot open {}", p.display())))
    })
}

/// Reads the first bytes of `file` (fewer when it is shorter) without moving its cursor.
fn read_head(file: &File, head: &mut [u8]) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut k = 0;
    while k < head.len() {
        match file.read_at(&mut head[k..], k as u64) {
            Ok(0) => break,
            Ok(r) => k += r,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(k)
}

/// Buffered standard output (or a file for `-o`), flushed by [`Output::finish`].
pub(crate) struct Output {
    inner: BufWriter<Box<dyn Write>>,
}

impl Output {
    /// Standard output, or the file at `path` (created or truncated).
    pub(crate) fn create(path: Option<&Path>) -> Result<Output, CliError> {
        let w: Box<dyn Write> = match path {
            None => Box::new(io::stdout().lock()),
            Some(p) if p == Path::new("-") => Box::new(io::stdout().lock()),
            Some(p) => Box::new(File::create(p).map_err(|e| {
                CliError::Other(
                    anyhow::Error::new(e).context(format!("cannot create {}", p.display())),
                )
            })?),
        };
        Ok(Output { inner: BufWriter::with_capacity(1 << 16, w) })
    }

    /// Flushes everything written.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        self.inner.flush()?;
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Creates a file for a side output such as `--dot FILE` or `--svg FILE`.
pub(crate) fn create_file(path: &PathBuf) -> Result<BufWriter<File>, CliError> {
    let f = File::create(path).map_err(|e| {
        CliError::Other(anyhow::Error::new(e).context(format!("cannot create {}", path.display())))
    })?;
    Ok(BufWriter::new(f))
}

/// Writes `value` as pretty JSON followed by a newline.
pub(crate) fn write_json(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(|e| CliError::Other(e.into()))?;
    writeln!(out)?;
    Ok(())
}

/// Runs `f` on a rayon pool of `threads` threads (rayon's default when `None`).
pub(crate) fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    Ok(thread_pool(threads)?.install(f))
}

/// A rayon pool of `threads` threads (rayon's default when `None`).
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(CliError::Usage("--threads must be at least 1".into()));
        }
        builder = builder.num_threads(n);
    }
    builder.build().map_err(|e| CliError::Other(e.into()))
}

/// A spinner or bar on stderr for long work, only when stderr is a terminal.
pub(crate) fn progress(len: Option<u64>, message: &'static str) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {percent}% {elapsed_precise} eta {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}")
                .expect("valid template"),
        ),
    };
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

/// The `--format` values of the commands that read a game graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// `N M`, the start vertex, then M arcs `u v` (SPEC §1).
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

/// Reads a game graph from `path` (standard input for `None` or `-`) in `format`, or in
/// the format detected from its contents when `None`. Bad input becomes
/// [`CliError::Input`] with the file, line and column.
pub(crate) fn read_game(
    path: Option<&Path>,
    format: Option<FormatArg>,
) -> Result<gamegraph_graph::format::GameFile, CliError> {
    read_game_as(path, format).map(|(file, _)| file)
}

/// [`read_game`], also returning the format that was read (given or detected). A binary
/// file named by its path is read by all threads of the current rayon pool.
pub(crate) fn read_game_as(
    path: Option<&Path>,
    format: Option<FormatArg>,
) -> Result<(gamegraph_graph::format::GameFile, gamegraph_graph::format::Format), CliError> {
    use gamegraph_graph::format;
    let input = match path.filter(|p| *p != Path::new("-")) {
        None => Input::open(path)?,
        Some(p) => {
            let file = open_file(p)?;
            let binary = match format {
                Some(f) => format::Format::from(f) == format::Format::Binary,
                None => {
                    let mut head = [0u8; 8];
                    let k = read_head(&file, &mut head)?;
                    format::detect(&head[..k]) == format::Format::Binary
                }
            };
            let meta = file.metadata().ok();
            if binary && meta.as_ref().is_some_and(|m| m.is_file()) {
                let bar = progress(meta.map(|m| m.len()), "reading graph");
                let result = format::read_binary_file(&file, &|bytes| {
                    if let Some(bar) = &bar {
                        bar.inc(bytes);
                    }
                });
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                let name = p.display().to_string();
                let file = result.map_err(|e| CliError::input(&name, None, &e))?;
                return Ok((file, format::Format::Binary));
            }
            Input::file(p, file)
        }
    };
    let bar = progress(input.len, "reading graph");
    let reader: Box<dyn BufRead> = match &bar {
        Some(bar) => Box::new(bar.wrap_read(input.reader)),
        None => input.reader,
    };
    let (format, result) = match format {
        Some(f) => (f.into(), format::read(reader, f.into())),
        None => {
            let (detected, reader) = format::sniff(reader)?;
            (detected, format::read(reader, detected))
        }
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let file = result.map_err(|e| CliError::input(&input.name, e.position(), &e))?;
    Ok((file, format))
}

/// The Graphviz fill colour of a position in drawings: `palegreen` for a win, `salmon`
/// for a loss, `lightgray` for a draw.
pub(crate) fn outcome_color(o: gamegraph_graph::Outcome) -> &'static str {
    match o {
        gamegraph_graph::Outcome::Win => "palegreen",
        gamegraph_graph::Outcome::Loss => "salmon",
        gamegraph_graph::Outcome::Draw => "lightgray",
    }
}
