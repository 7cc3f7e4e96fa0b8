//! File formats of game graphs.
//!
//! - **header** ([`Format::Header`]): `N M`, the start vertex (optional), then `M`
//!   lines `u v` (1-based ids), with `#` comments.
//! - **arc list** ([`Format::ArcList`]): one arc `u v` per line (1-based), `#` starts a
//!   comment; the number of vertices is given by the caller or inferred as the largest id.
//! - **binary** ([`Format::Binary`]): the project's own little-endian CSR format with a
//!   checksum, for fast loading; the layout is in [`read_binary`]'s module
//!   ([`binary`]).
//! - **DOT** (written only, [`write_dot`]): Graphviz, with optional labels, colours and
//!   highlighted vertices.
//!
//! Readers take any [`BufRead`] (or [`Read`]), never a path, and either return a whole valid
//! graph or a [`ReadError`] with the line and column of the first problem (text) or what is
//! wrong and where (binary): input is never half-accepted. [`detect`] and [`read_auto`] tell
//! the formats apart by their first bytes.
//!
//! ```
//! use gamegraph_graph::format::{self, Format};
//!
//! let text = "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n";
//! assert_eq!(format::detect(text.as_bytes()), Format::Header);
//! let file = format::read_auto(text.as_bytes()).unwrap();
//!
//! let mut bin = Vec::new();
//! format::write_binary(&mut bin, &file.graph, file.start).unwrap();
//! assert_eq!(format::detect(&bin), Format::Binary);
//! assert_eq!(format::read_auto(&bin[..]).unwrap(), file);
//! ```

pub mod binary;
mod text;
mod write;

use std::io::{self, BufRead, Cursor, Read};

use crate::{Graph, ReadError, ReadErrorKind, Vertex};

pub use self::binary::{read_binary, read_binary_file, write_binary};
pub use self::text::{TextOptions, read_arc_list, read_header, read_text};
pub use self::write::{DotStyle, write_arc_list, write_dot, write_header};

/// The file formats the readers know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `N M`, the start vertex (optional), `M` arcs `u v`.
    Header,
    /// One `u v` arc per line, `#` comments.
    ArcList,
    /// The project's binary CSR format (see [`binary`]).
    Binary,
}

impl Format {
    /// The short name used by the CLI: `header`, `arcs` or `binary`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Header => "header",
            Format::ArcList => "arcs",
            Format::Binary => "binary",
        }
    }
}

/// A game graph read from a file, with its start vertex when the format has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFile {
    /// The graph.
    pub graph: Graph,
    /// The start position (the header format's start line; optional in every format).
    pub start: Option<Vertex>,
}

/// Reads a graph in `format`.
///
/// # Errors
/// A [`ReadError`] naming the first problem and where it is.
pub fn read(reader: impl BufRead, format: Format) -> Result<GameFile, ReadError> {
    match format {
        Format::Header => read_header(reader),
        Format::ArcList => read_arc_list(reader, None).map(|graph| GameFile { graph, start: None }),
        Format::Binary => read_binary(reader),
    }
}

/// Writes `g` (with its start vertex, where the format records one) in `format`.
///
/// # Errors
/// Those of [`write_header`], [`write_arc_list`] and [`write_binary`].
///
/// # Complexity
/// O(n + m) time, O(1) extra space.
///
/// ```
/// use gamegraph_graph::format::{self, Format};
/// use gamegraph_graph::{Graph, Vertex};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1))]).unwrap();
/// let mut out = Vec::new();
/// format::write(&mut out, &g, Some(Vertex(0)), Format::Header).unwrap();
/// assert_eq!(out, b"2 1\n1\n1 2\n");
/// ```
pub fn write(
    w: impl io::Write,
    g: &Graph,
    start: Option<Vertex>,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Header => write_header(w, g, start),
        Format::ArcList => write_arc_list(w, g),
        Format::Binary => write_binary(w, g, start),
    }
}

/// How many bytes [`sniff`] looks at, at most.
const HEAD: usize = 1 << 16;

/// The format and whether the bytes seen so far settle it.
fn classify(head: &[u8]) -> (Format, bool) {
    let k = head.len().min(binary::MAGIC.len());
    if k > 0 && head[..k] == binary::MAGIC[..k] {
        return (Format::Binary, k == binary::MAGIC.len());
    }
    // The text reader's own rule, on the bytes seen so far: settled once the second
    // content line is complete. An empty input reads as the (empty, hence invalid) header
    // format, so that the user is told the input is empty.
    let settled = text::classify(head, false).is_some();
    let format = match text::classify(head, true) {
        Some(text::Plan::Header) => Format::Header,
        _ => Format::ArcList,
    };
    (format, settled)
}

/// The format of a file as far as its first bytes tell: [`Format::Binary`] when it starts
/// with the binary magic number (or a prefix of it); otherwise [`Format::Header`] when the
/// second line that is neither blank nor only a `#` comment holds a single number (the
/// start vertex) or when there is nothing at all; otherwise [`Format::ArcList`].
///
/// A text whose first line is `N M` may still be a header without a start line; only the
/// whole text tells ([`read_text`] decides: exactly `M` arcs on `1..=N` after it make it
/// one), so `detect` can say [`Format::ArcList`] for a text [`read_auto`] reads as a header.
///
/// # Complexity
/// O(`head.len()`) time, no allocation.
pub fn detect(head: &[u8]) -> Format {
    classify(head).0
}

/// Detects the format of `reader` from its first bytes (up to 64 KiB, fewer when the
/// first two lines settle it) and returns it with a reader that yields the whole input,
/// those bytes included.
///
/// # Errors
/// Any error of `reader` while reading the head.
pub fn sniff<R: BufRead>(mut reader: R) -> io::Result<(Format, impl BufRead)> {
    let mut head = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let take = buf.len().min(HEAD - head.len());
        head.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if head.len() >= HEAD || classify(&head).1 {
            break;
        }
    }
    Ok((classify(&head).0, Cursor::new(head).chain(reader)))
}

/// Reads a graph in the format [`detect`] finds in its first bytes.
///
/// # Errors
/// A [`ReadError`] naming the first problem and where it is.
///
/// # Complexity
/// That of the reader of the detected format.
pub fn read_auto(reader: impl BufRead) -> Result<GameFile, ReadError> {
    let (format, reader) =
        sniff(reader).map_err(|e| ReadError::new(ReadErrorKind::Io(e.to_string())))?;
    match format {
        Format::Binary => read_binary(reader),
        _ => read_text(reader, None, &TextOptions::default()).map(|(file, _)| file),
    }
}
