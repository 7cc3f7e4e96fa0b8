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
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::format::binary::BinaryParts;
use crate::format::{self, Format, GameFile, TextOptions};
use crate::{ReadError, ReadErrorKind};

/// The buffer size of streamed reads.
const BUF: usize = 1 << 20;

/// How to open a graph file.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// The format; `None` detects it from the contents ([`format::read_text`] tells the
    /// text formats apart).
    pub format: Option<Format>,
    /// The most vertices a text graph may have; `None` for the default of
    /// [`TextOptions::max_vertices`].
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

    /// The 1-based `(line, column)` of the problem, for text formats.
    pub fn position(&self) -> Option<(u64, u64)> {
        match self {
            OpenError::Io { .. } => None,
            OpenError::Read { error, .. } => error.position(),
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
        if let Some((line, column)) = self.position() {
            write!(f, "{line}:{column}:")?;
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
/// A regular file in the binary format (detected from its first bytes, or named by
/// [`Options::format`]) is mapped and checked by every thread of the current rayon pool
/// (or, without [`Options::mmap`] or where mapping is refused, read by every thread:
/// [`format::read_binary_file`]); everything else is read as a stream, so pipes, FIFOs
/// and character devices work too. A directory is refused.
///
/// # Errors
/// [`OpenError::Io`] when the file cannot be opened or read (the message names the path);
/// [`OpenError::Read`] with the first problem of the contents.
///
/// # Complexity
/// That of the reader of the format.
pub fn open(path: &Path, options: &Options<'_>) -> Result<Opened, OpenError> {
    let name = path.display().to_string();
    let io = |error: io::Error| OpenError::Io { name: name.clone(), error };
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(io(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")));
    }
    if meta.is_file() && is_binary_file(&file, options.format).map_err(io)? {
        let progress = options.progress.unwrap_or(&|_| {});
        let mapped =
            if options.mmap { format::binary::map_binary_file(&file, progress) } else { None };
        let read = || format::read_binary_file(&file, progress);
        return match mapped.unwrap_or_else(read) {
            Ok(file) => Ok(Opened { file, format: Format::Binary }),
            Err(error) => Err(read_error(name, Format::Binary, error)),
        };
    }
    read_stream(file, &name, options)
}

/// Opens the graph file at `path` to be read in parts ([`BinaryParts`]) when it is a
/// regular file in the binary format (detected from its first bytes, or named by
/// `format`); `None` for anything else, which [`open`] reads whole.
///
/// # Errors
/// [`OpenError::Io`] when the file cannot be opened; [`OpenError::Read`] for a bad header
/// or a length that does not match it (see [`BinaryParts::open`]).
pub fn open_parts(path: &Path, format: Option<Format>) -> Result<Option<BinaryParts>, OpenError> {
    let name = path.display().to_string();
    let io = |error: io::Error| OpenError::Io { name: name.clone(), error };
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() || !is_binary_file(&file, format).map_err(io)? {
        return Ok(None);
    }
    BinaryParts::open(file).map(Some).map_err(|error| read_error(name, Format::Binary, error))
}

/// Whether a regular file is to be read as binary: the format given, or detected from its
/// first bytes (read by position, so the file is read from its start afterwards).
fn is_binary_file(file: &File, format: Option<Format>) -> io::Result<bool> {
    if let Some(f) = format {
        return Ok(f == Format::Binary);
    }
    let mut head = [0u8; 8];
    let mut k = 0;
    while k < head.len() {
        match read_at(file, &mut head[k..], k as u64) {
            Ok(0) => break,
            Ok(r) => k += r,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(format::detect(&head[..k]) == Format::Binary)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Reads a whole graph from `reader` (standard input, a pipe, an in-memory buffer), named
/// `name` in errors, in the format of [`Options::format`] or the one detected from its
/// first bytes.
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
    let mut reader =
        BufReader::with_capacity(BUF, Counted { inner: reader, progress: options.progress });
    let io = |error: io::Error| OpenError::Io { name: name.to_owned(), error };
    let binary = match options.format {
        Some(f) => f == Format::Binary,
        None => format::detect(peek(&mut reader).map_err(io)?) == Format::Binary,
    };
    let result = if binary {
        format::read_binary(reader).map(|file| (file, Format::Binary))
    } else {
        let text = TextOptions { max_vertices: options.max_vertices, ..TextOptions::default() };
        format::read_text(reader, options.format, &text)
    };
    match result {
        Ok((file, format)) => Ok(Opened { file, format }),
        Err(error) => {
            let format =
                options.format.unwrap_or(if binary { Format::Binary } else { Format::Header });
            Err(read_error(name.to_owned(), format, error))
        }
    }
}

/// The first bytes of a buffered reader (enough to tell binary from text), not consumed.
fn peek(reader: &mut impl BufRead) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    reader.fill_buf()
}

/// A reader's error as an [`OpenError`]: a failed read stays an I/O error.
fn read_error(name: String, format: Format, error: ReadError) -> OpenError {
    match error.kind {
        ReadErrorKind::Io(message) => OpenError::Io { name, error: io::Error::other(message) },
        _ => OpenError::Read { name, format, error },
    }
}
