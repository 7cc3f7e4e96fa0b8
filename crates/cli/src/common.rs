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

pub(crate) use gamegraph_graph::open::io_message;

/// Buffered standard output, or a file for `-o` and side outputs such as `--dot FILE`.
///
/// A file is written to a temporary file beside it and renamed over the destination by
/// [`Output::finish`], so an error, a full disk or a kill never leaves a partial file (nor
/// empties an existing one); an [`Output`] dropped without `finish` removes its temporary
/// file.
pub(crate) struct Output {
    inner: BufWriter<Box<dyn Write>>,
    /// The temporary file and the destination, for a file.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Output {
    /// Standard output for `None` or `-`, otherwise the file at `path`.
    pub(crate) fn create(path: Option<&Path>) -> Result<Output, CliError> {
        match path {
            None => Ok(Output::stdout()),
            Some(p) if p == Path::new("-") => Ok(Output::stdout()),
            Some(p) => Output::file(p),
        }
    }

    fn stdout() -> Output {
        Output {
            inner: BufWriter::with_capacity(1 << 16, Box::new(io::stdout().lock())),
            rename: None,
        }
    }

    fn file(path: &Path) -> Result<Output, CliError> {
        let cannot = |e: io::Error| {
            CliError::Other(
                anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
            )
        };
        if path.is_dir() {
            return Err(CliError::input(&path.display().to_string(), None, "is a directory"));
        }
        let name = path
            .file_name()
            .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let file = File::create(&tmp).map_err(cannot)?;
        Ok(Output {
            inner: BufWriter::with_capacity(1 << 16, Box::new(file)),
            rename: Some((tmp, path.to_path_buf())),
        })
    }

    /// Flushes everything written and, for a file, moves it into place.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        self.inner.flush()?;
        if let Some((tmp, path)) = self.rename.take() {
            std::fs::rename(&tmp, &path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                CliError::Other(
                    anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                )
            })?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.rename.take() {
            let _ = std::fs::remove_file(tmp);
        }
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

/// Creates a file for a side output such as `--dot FILE` or `--svg FILE`: an [`Output`],
/// in place only after [`Output::finish`].
pub(crate) fn create_file(path: &Path) -> Result<Output, CliError> {
    Output::file(path)
}

/// Refuses an output path that names the same file as an input: writing it would destroy
/// the input before it is read.
pub(crate) fn check_distinct(output: Option<&Path>, input: Option<&Path>) -> Result<(), CliError> {
    let (Some(out), Some(inp)) = (output, input) else { return Ok(()) };
    if out == Path::new("-") || inp == Path::new("-") {
        return Ok(());
    }
    if same_file(out, inp) {
        return Err(CliError::Usage(format!(
            "the output {} is the input file: write to another file",
            out.display()
        )));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Writes `value` as pretty JSON followed by a newline.
pub(crate) fn write_json(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(|e| {
        // An I/O error stays one, so that a closed pipe is recognised as such.
        if e.is_io() { CliError::from(io::Error::from(e)) } else { CliError::Other(e.into()) }
    })?;
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

/// The most worker threads `--threads` accepts.
pub(crate) const MAX_THREADS: usize = 1024;

/// Refuses work that needs `bytes` of memory when this machine has less in all (read from
/// `/proc/meminfo`; no check where that is unknown), before anything is allocated.
pub(crate) fn check_memory(bytes: u64, what: &str) -> Result<(), CliError> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    });
    match total {
        Some(total) if bytes > total => Err(CliError::Usage(format!(
            "{what} needs {} of memory, more than this machine has ({})",
            human_bytes(bytes),
            human_bytes(total)
        ))),
        _ => Ok(()),
    }
}

/// `bytes` in GiB or MiB, for messages.
fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
    }
}

/// A rayon pool of `threads` threads (rayon's default when `None`).
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(CliError::Usage("--threads must be at least 1".into()));
        }
        if n > MAX_THREADS {
            return Err(CliError::Usage(format!(
                "--threads {n} is more than the {MAX_THREADS} supported (this machine has {})",
                std::thread::available_parallelism().map_or(1, |p| p.get())
            )));
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
    let opened = result.map_err(|e| {
        let mut message = e.message();
        if let open::OpenError::Read { error, .. } = &e
            && let gamegraph_graph::ReadErrorKind::TooManyVertices { n, .. } = error.kind
        {
            message.push_str(&format!(": pass --max-vertices {n} to read it"));
        }
        CliError::input(e.name(), e.position(), message)
    })?;
    Ok((opened.file, opened.format))
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
