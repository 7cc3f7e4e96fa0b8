//! File formats of game graphs.
//!
//! - **header** ([`Format::Header`]): `N M`, the start vertex (optional), then `M`
//!   lines `u v` (1-based ids), with `#` comments; then, optionally, the keyword
//!   `terminal` and pairs `V X`: the value `X` (`W`, `L` or `T`) of a vertex `V` without
//!   moves for the player to move there ([`GameFile::terminal`]).
//! - **arc list** ([`Format::ArcList`]): one arc `u v` per line (1-based), `#` starts a
//!   comment; the number of vertices is given by the caller or inferred as the largest id.
//! - **binary** ([`Format::Binary`]): the project's own little-endian CSR format with a
//!   checksum and optional terminal values, for fast loading; the layout is in the
//!   [`binary`] module.
//! - **DOT** (written only, [`write_dot`]): Graphviz, with optional labels, colours and
//!   highlighted vertices.
//!
//! [`read`] takes any [`Read`], never a path (see [`open`](crate::open) for files), tells
//! the formats apart by their first bytes unless [`ReadOptions::format`] names one, and
//! either returns a whole valid graph or a [`ReadError`] with the line and column of the
//! first problem (text) or what is wrong and where (binary): input is never half-accepted.
//! [`write`](fn@write) writes any of them.
//!
//! ```
//! use gamegraph_graph::format::{self, Format, ReadOptions};
//!
//! let text = "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n";
//! let (file, format) = format::read(text.as_bytes(), &ReadOptions::default()).unwrap();
//! assert_eq!(format, Format::Header);
//!
//! let mut bin = Vec::new();
//! format::write(&mut bin, &file.graph, file.start, Format::Binary).unwrap();
//! assert_eq!(format::read(&bin[..], &ReadOptions::default()).unwrap(), (file, Format::Binary));
//! ```

pub mod binary;
pub(crate) mod detect;
mod terminal;
pub(crate) mod text;
mod write;

use std::io::{self, Cursor, Read};

use self::detect::{Plan, detect};
use self::text::window::Input;
use crate::{Graph, ReadError, Vertex};

pub use self::binary::write_binary;
pub use self::terminal::{Terminals, TerminalsError};
pub use self::write::{DotStyle, write_arc_list, write_dot, write_header, write_terminals};

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

/// A game graph read from a file, with its start vertex and terminal values when the
/// file has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFile {
    /// The graph.
    pub graph: Graph,
    /// The start position (the header format's start line; optional in every format).
    pub start: Option<Vertex>,
    /// The values of vertices without moves for the player to move there (the header
    /// format's `terminal` section, the binary format's flag bit 2); `None` when the file
    /// has none, and every vertex without moves is then a loss.
    pub terminal: Option<Terminals>,
}

impl GameFile {
    /// A file of `graph` and `start` without terminal values.
    pub fn new(graph: Graph, start: Option<Vertex>) -> GameFile {
        GameFile { graph, start, terminal: None }
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

/// Writes a whole [`GameFile`] in `format`: [`write`](fn@write), and the terminal values
/// when the file has them (the header format's `terminal` section, the binary format's
/// flag bit 2).
///
/// # Errors
/// Those of [`write`](fn@write); [`io::ErrorKind::InvalidInput`] for terminal values in
/// the arc list (it cannot hold them) or values that do not fit the graph.
///
/// # Complexity
/// O(n + m) time, O(1) extra space.
///
/// ```
/// use gamegraph_graph::format::{self, Format, GameFile, ReadOptions, Terminals};
/// use gamegraph_graph::Terminal;
/// use gamegraph_graph::{Graph, Vertex};
///
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(0), Vertex(2))]).unwrap();
/// let terminal = Terminals::new(&g, &[(Vertex(2), Terminal::Tie)]).unwrap();
/// let file = GameFile { graph: g, start: Some(Vertex(0)), terminal: Some(terminal) };
/// let mut out = Vec::new();
/// format::write_game(&mut out, &file, Format::Header).unwrap();
/// assert_eq!(out, b"3 2\n1\n1 2\n1 3\nterminal\n3 T\n");
/// assert_eq!(format::read(&out[..], &ReadOptions::default()).unwrap().0, file);
/// ```
pub fn write_game(w: impl io::Write, file: &GameFile, format: Format) -> io::Result<()> {
    write_parts(w, &file.graph, file.start, file.terminal.as_ref(), format)
}

/// [`write_game`] of a file given by its parts: the graph `g`, its start vertex and its
/// terminal values.
///
/// # Errors
/// Those of [`write_game`].
///
/// # Complexity
/// O(n + m) time, O(1) extra space.
pub fn write_parts(
    mut w: impl io::Write,
    g: &Graph,
    start: Option<Vertex>,
    terminal: Option<&Terminals>,
    format: Format,
) -> io::Result<()> {
    let Some(terminal) = terminal else {
        return write(w, g, start, format);
    };
    match format {
        Format::Header => {
            write_header(&mut w, g, start)?;
            write_terminals(w, g, terminal)
        }
        Format::ArcList => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the arcs format cannot hold terminal values (the header and binary formats can)",
        )),
        Format::Binary => binary::write_parts_binary(w, g, start, Some(terminal)),
    }
}

/// How the readers work. The defaults suit every input; `chunk_bytes` gives the same graph
/// and the same errors at any value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The format; `None` tells it from the first bytes: [`Format::Binary`] when the input
    /// starts with the binary magic number; otherwise the header format when the second
    /// line that is neither blank nor only a `#` comment holds a single number (the start
    /// vertex) or when there is no line at all; when the first line holds two numbers
    /// `N M`, the header format without a start vertex if exactly `M` arcs on `1..=N`
    /// follow, a header with a mistake (refused) if they are one mistake away from that
    /// (`M - 1` or `M + 1` arcs on `1..=N`, or `M` arcs with one id above `N`), an arc list
    /// otherwise; anything else is an arc list.
    pub format: Option<Format>,
    /// The most vertices a text graph may have, `None` for the default: 2²⁴ plus one per
    /// byte of input. A header's `N` or an arc list's largest id above it is refused with
    /// [`ReadErrorKind::TooManyVertices`](crate::ReadErrorKind::TooManyVertices), so a few
    /// bytes can never ask for gigabytes.
    pub max_vertices: Option<u64>,
    /// The number of vertices of an arc list, whose ids must then lie in `1..=vertices`;
    /// `None` infers it as the largest id. Other formats say it themselves.
    pub vertices: Option<usize>,
    /// About how many bytes one parallel task of the text readers tokenizes (cut at a line
    /// break); default 1 MiB.
    pub chunk_bytes: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions { format: None, max_vertices: None, vertices: None, chunk_bytes: 1 << 20 }
    }
}

/// Reads a whole graph from `reader` in the format of `options` (or the one its first bytes
/// tell, see [`ReadOptions::format`]), and returns it with that format.
///
/// Text formats are read on every thread of the current rayon pool; all ids are 1-based
/// and separated by any white space, `#` starts a comment that runs to the end of the line,
/// a UTF-8 byte order mark is skipped. The header format is `N M`, the start vertex
/// (optional: the number after `M` when it stands on the line of `M` or alone on its line),
/// then `M` arcs `u v`, then optionally the keyword `terminal` and pairs `V X` (a vertex
/// without moves and its value `W`, `L` or `T`, each vertex at most once); nothing else
/// may follow the arcs. The arc list is one
/// arc per line. The binary format is checked whole (checksum, CSR invariants) before a
/// graph is returned.
///
/// # Errors
/// A [`ReadError`] naming the first problem and, for text, its line and column: an empty
/// input, a non-number, a number that overflows, a vertex out of range, fewer or more arcs
/// than `M`, an arc-list line with one id or more than two, a terminal value that is not
/// `W`, `L` or `T` or that is given to a vertex with moves or twice, more vertices than
/// [`ReadOptions::max_vertices`] allows, a header with one mistake, a damaged or truncated
/// binary file, a failed read.
///
/// # Complexity
/// O(size of input + N) work. Text: parallel on the current rayon pool; extra space a few
/// MiB of buffers, and 8 bytes per arc while arcs out of order of source are sorted.
/// Binary: on the calling thread, a 1 MiB buffer.
///
/// ```
/// use gamegraph_graph::format::{self, Format, ReadOptions};
/// use gamegraph_graph::{Located, Position, ReadErrorKind};
///
/// let header = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
/// let (file, _) = format::read("3 2\n1\n1 2\n2 3\n".as_bytes(), &header).unwrap();
/// assert_eq!(file.graph.num_arcs(), 2);
/// let e = format::read("3 2\n1\n1 2\n2 4\n".as_bytes(), &header).unwrap_err();
/// assert_eq!(e.to_string(), "vertex 4 is outside 1..3");
/// assert_eq!(e.position(), Some(Position::new(4, 3)));
///
/// // A header without a start line, then exactly M = 3 arcs: no arc 3 -> 3 from the header.
/// let auto = ReadOptions::default();
/// let (file, format) = format::read("3 3\n1 2\n2 3\n3 1\n".as_bytes(), &auto).unwrap();
/// assert_eq!((format, file.graph.num_arcs(), file.start), (Format::Header, 3, None));
/// let (file, format) = format::read("3 3\n1 2\n4 1\n".as_bytes(), &auto).unwrap();
/// assert_eq!((format, file.graph.num_arcs()), (Format::ArcList, 3));
/// // One arc short of a header: refused, never read as the arc list 3 -> 3, 1 -> 2.
/// let e = format::read("3 3\n1 2\n2 3\n".as_bytes(), &auto).unwrap_err();
/// assert_eq!(e.position(), Some(Position::new(4, 1)));
/// assert!(matches!(e.kind, ReadErrorKind::HeaderMistake { .. }));
/// assert_eq!(
///     e.to_string(),
///     "expected the source of arc 3 of 3, found end of input \
///      (read as a header N M without a start vertex)"
/// );
/// ```
pub fn read(reader: impl Read, options: &ReadOptions) -> Result<(GameFile, Format), ReadError> {
    let (input, plan) = start(reader, options)?;
    finish(input, plan)
}

/// How many bytes are read before the format is known, when they tell it.
const HEAD: usize = 1 << 16;

/// Reads the first bytes of `reader` and decides how to read it: the format of `options`,
/// or the one [`detect`] finds.
pub(crate) fn start<'o, R: Read>(
    reader: R,
    options: &'o ReadOptions,
) -> Result<(Input<'o, R>, Plan), ReadError> {
    let mut input = Input::new(reader, options);
    if let Some(format) = options.format {
        return Ok((input, Plan::from(format)));
    }
    input.start(HEAD)?;
    loop {
        match detect(&input.buf, input.eof) {
            Some(plan) => return Ok((input, plan)),
            None => input.more()?,
        }
    }
}

/// Reads the rest of an input started by [`start`] as `plan` says.
pub(crate) fn finish<R: Read>(
    mut input: Input<'_, R>,
    plan: Plan,
) -> Result<(GameFile, Format), ReadError> {
    if plan == Plan::Binary {
        let head = Cursor::new(std::mem::take(&mut input.buf));
        let file = binary::read_binary(head.chain(input.reader))?;
        return Ok((file, Format::Binary));
    }
    input.start(input.window)?;
    input.skip_bom();
    text::read_text(&mut input, plan)
}
