//! Opening a graph file by path, or reading one from a stream, in any format: the one
//! entry point every command uses.
//!
//! [`open`] detects the format from the first bytes (unless [`Options::format`] names
//! one), reads a binary file given by path on every thread of the current rayon pool, and
//! reads anything else — text files, pipes, FIFOs, `/dev/stdin` — as a stream, so any
//! readable file works. [`read_stream`] does the same for standard input or any other
//! reader. Both report how many bytes were consumed through [`Options::progress`].
//!
//! ```
//! use gamegraph_graph::format::Format;
//! use gamegraph_graph::open::{Options, read_stream};
//!
//! let text = "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n";
//! let opened = read_stream(text.as_bytes(), "<stdin>", &Options::default()).unwrap();
//! assert_eq!(opened.format, Format::Header);
//! assert_eq!(opened.file.graph.num_arcs(), 5);
//!
//! let e = read_stream("5 1\n1\n1 9\n".as_bytes(), "g.txt", &Options::default()).unwrap_err();
//! assert_eq!(e.to_string(), "g.txt:3:3: vertex 9 is outside 1..5");
//! ```

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::format::binary::BinaryParts;
use crate::format::detect::Plan;
use crate::format::text::window::Input;
use crate::format::{self, Format, GameFile, ReadOptions};
use crate::{Located, Position, ReadError, ReadErrorKind};

/// How to open a graph file.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// The format; `None` tells it from the contents (see [`ReadOptions::format`]).
    pub format: Option<Format>,
    /// The most vertices a text graph may have; `None` for the default of
    /// [`ReadOptions::max_vertices`].
    pub max_vertices: Option<u64>,
    /// Told how many more bytes of the input were consumed, as reading goes on.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
    /// Map a binary file given by path instead of reading it (default `true`): no copy,
    /// the page cache holds the arrays. The file must then stay unchanged while the graph
    /// is used; files that cannot be mapped are read.
    pub mmap: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options { format: None, max_vertices: None, progress: None, mmap: true }
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("format", &self.format)
            .field("max_vertices", &self.max_vertices)
            .field("mmap", &self.mmap)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// A graph read from a file, with the format it was read in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// The graph and its start vertex.
    pub file: GameFile,
    /// The format, given or detected.
    pub format: Format,
}

/// Why a graph file could not be opened or read: the name of the input and what went
/// wrong. Its `Display` is `NAME:LINE:COLUMN: message` when the problem has a position,
/// `NAME: message` otherwise.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// The file could not be opened or read.
    Io {
        /// The path or stream name.
        name: String,
        /// What the system said.
        error: io::Error,
    },
    /// The contents are not a valid graph in the format.
    Read {
        /// The path or stream name.
        name: String,
        /// The format that was read.
        format: Format,
        /// The first problem, with its position for text formats.
        error: ReadError,
    },
}

impl OpenError {
    /// The path or stream name of the input.
    pub fn name(&self) -> &str {
        match self {
            OpenError::Io { name, .. } | OpenError::Read { name, .. } => name,
        }
    }

    /// The message without the name and position.
    pub fn message(&self) -> String {
        match self {
            OpenError::Io { error, .. } => io_message(error),
            OpenError::Read { error, .. } => error.to_string(),
        }
    }
}

impl Located for OpenError {
    /// The 1-based line and column of the problem, for text formats.
    fn position(&self) -> Option<Position> {
        match self {
            OpenError::Io { .. } => None,
            OpenError::Read { error, .. } => error.position(),
        }
    }
}

/// An I/O error in words, as this module's messages put it: without the "(os error N)"
/// suffix the standard library adds, lowercase.
///
/// ```
/// let e = std::io::Error::from(std::io::ErrorKind::NotFound);
/// assert_eq!(gamegraph_graph::open::io_message(&e), "entity not found");
/// ```
pub fn io_message(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.name())?;
        if let Some(position) = self.position() {
            write!(f, "{position}:")?;
        }
        write!(f, " {}", self.message())
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Io { error, .. } => Some(error),
            OpenError::Read { error, .. } => Some(error),
        }
    }
}

/// A reader that reports the bytes it yields.
struct Counted<'a, R> {
    inner: R,
    progress: Option<&'a (dyn Fn(u64) + Sync)>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        if let Some(p) = self.progress {
            p(k as u64);
        }
        Ok(k)
    }
}

/// Opens the graph file at `path` and reads it whole.
///
/// The format is told by the first bytes (unless [`Options::format`] names it), once. A
/// regular file in the binary format is mapped and checked by every thread of the current
/// rayon pool (or, without [`Options::mmap`] or where mapping is refused, read by every
/// thread); everything else is read as a stream, so pipes, FIFOs and character devices
/// work too. A directory is refused.
///
/// # Errors
/// [`OpenError::Io`] when the file cannot be opened or read (the message names the path);
/// [`OpenError::Read`] with the first problem of the contents.
///
/// # Complexity
/// That of the reader of the format.
pub fn open(path: &Path, options: &Options<'_>) -> Result<Opened, OpenError> {
    let name = path.display().to_string();
    let (file, meta) = open_file(path, &name)?;
    let read_options = read_options(options);
    // The head is read without progress: a binary file is then read again from its start.
    let started = format::start(Counted { inner: &file, progress: None }, &read_options);
    let (mut input, plan) = started.map_err(|error| read_error(&name, options, None, error))?;
    if plan == Plan::Binary && meta.is_file() {
        let progress = options.progress.unwrap_or(&|_| {});
        let len = meta.len();
        let mapped =
            if options.mmap { format::binary::map_binary_file(&file, len, progress) } else { None };
        let read = || format::binary::read_binary_file(&file, len, progress);
        return match mapped.unwrap_or_else(read) {
            Ok(file) => Ok(Opened { file, format: Format::Binary }),
            Err(error) => Err(read_error(&name, options, Some(Format::Binary), error)),
        };
    }
    if let Some(p) = options.progress {
        p(input.total);
    }
    input.reader.progress = options.progress;
    finish(input, plan, &name, options)
}

impl BinaryParts {
    /// Opens the graph file at `path` to be read in parts when it is a regular file in the
    /// binary format (told by its first bytes, or named by `format`); `None` for anything
    /// else, which [`open`] reads whole.
    ///
    /// # Errors
    /// [`OpenError::Io`] when the file cannot be opened; [`OpenError::Read`] for a bad
    /// header or a length that does not match it (see [`BinaryParts::open`]).
    pub fn open_path(
        path: &Path,
        format: Option<Format>,
    ) -> Result<Option<BinaryParts>, OpenError> {
        let name = path.display().to_string();
        let (file, meta) = open_file(path, &name)?;
        if !meta.is_file() {
            return Ok(None);
        }
        let options = Options { format, ..Options::default() };
        let read_options = read_options(&options);
        let started = format::start(&file, &read_options);
        let (_, plan) = started.map_err(|error| read_error(&name, &options, None, error))?;
        if plan != Plan::Binary {
            return Ok(None);
        }
        BinaryParts::with_len(file, meta.len())
            .map(Some)
            .map_err(|error| read_error(&name, &options, Some(Format::Binary), error))
    }
}

/// Opens `path` (named `name` in errors) and reads its metadata; a directory is refused.
fn open_file(path: &Path, name: &str) -> Result<(File, std::fs::Metadata), OpenError> {
    let io = |error: io::Error| OpenError::Io { name: name.to_owned(), error };
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(io(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")));
    }
    Ok((file, meta))
}

/// What the format readers are told of `options`.
fn read_options(options: &Options<'_>) -> ReadOptions {
    ReadOptions {
        format: options.format,
        max_vertices: options.max_vertices,
        ..ReadOptions::default()
    }
}

/// Reads a whole graph from `reader` (standard input, a pipe, an in-memory buffer), named
/// `name` in errors, in the format of [`Options::format`] or the one told by its first
/// bytes.
///
/// # Errors
/// [`OpenError::Io`] when reading fails; [`OpenError::Read`] with the first problem of the
/// contents.
///
/// # Complexity
/// That of the reader of the format.
pub fn read_stream(
    reader: impl Read,
    name: &str,
    options: &Options<'_>,
) -> Result<Opened, OpenError> {
    let read_options = read_options(options);
    let reader = Counted { inner: reader, progress: options.progress };
    let (input, plan) = format::start(reader, &read_options)
        .map_err(|error| read_error(name, options, None, error))?;
    finish(input, plan, name, options)
}

/// Reads the rest of a started input as `plan` says.
fn finish<R: Read>(
    input: Input<'_, R>,
    plan: Plan,
    name: &str,
    options: &Options<'_>,
) -> Result<Opened, OpenError> {
    let binary = plan == Plan::Binary;
    match format::finish(input, plan) {
        Ok((file, format)) => Ok(Opened { file, format }),
        Err(error) => {
            let format = if binary { Format::Binary } else { Format::Header };
            Err(read_error(name, options, Some(format), error))
        }
    }
}

/// A reader's error as an [`OpenError`]: a failed read stays an I/O error. The format is
/// the one given, or else the one that was read (the header format before it was told).
fn read_error(
    name: &str,
    options: &Options<'_>,
    format: Option<Format>,
    error: ReadError,
) -> OpenError {
    let name = name.to_owned();
    let format = options.format.or(format).unwrap_or(Format::Header);
    match error.kind {
        ReadErrorKind::Io(error) => OpenError::Io { name, error },
        _ => OpenError::Read { name, format, error },
    }
}
