//! Errors of graph construction and of the file formats.

use std::fmt;
use std::io;

use crate::position::{Located, Position};

/// Why a graph could not be built or read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphError {
    /// An arc names a vertex outside `0..n` (0-based, as the library counts).
    VertexOutOfRange {
        /// The offending 0-based vertex index.
        vertex: u64,
        /// The number of vertices of the graph.
        n: usize,
    },
    /// More vertices than [`Vertex::MAX_VERTICES`](crate::Vertex::MAX_VERTICES).
    TooManyVertices {
        /// The requested number of vertices.
        n: u64,
    },
    /// CSR arrays that do not describe a graph.
    InvalidCsr {
        /// What is wrong with them.
        reason: &'static str,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::VertexOutOfRange { vertex, n } => {
                write!(f, "vertex {} is outside 1..{n}", vertex + 1)
            }
            GraphError::TooManyVertices { n } => {
                write!(f, "{n} vertices is more than the {} supported", u32::MAX)
            }
            GraphError::InvalidCsr { reason } => write!(f, "invalid CSR arrays: {reason}"),
        }
    }
}

impl std::error::Error for GraphError {}

/// Why a graph file could not be read. [`Located::position`] tells where, for text formats.
///
/// Its message names no option of a program: where the remedy is to name the format
/// (see [`ReadErrorKind::HeaderMistake`] and [`ReadErrorKind::Ambiguous`]), the program
/// adds that advice in its own words.
#[derive(Debug)]
pub struct ReadError {
    /// What went wrong.
    pub kind: ReadErrorKind,
    /// The 1-based line and column of the offending token, for text formats.
    pub(crate) position: Option<Position>,
}

impl ReadError {
    /// An error at a 1-based `line` and `column`.
    pub fn at(line: u64, column: u64, kind: ReadErrorKind) -> ReadError {
        ReadError { kind, position: Some(Position::new(line, column)) }
    }

    /// An error without a position (binary formats, I/O).
    pub fn new(kind: ReadErrorKind) -> ReadError {
        ReadError { kind, position: None }
    }
}

impl Located for ReadError {
    /// The 1-based line and column of the error, when the format has lines.
    fn position(&self) -> Option<Position> {
        self.position
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ReadErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::new(ReadErrorKind::Io(e))
    }
}

/// The kinds of [`ReadError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The input has nothing in it.
    Empty,
    /// A token that is not what the format expects here.
    Expected {
        /// What the format expects, e.g. "the number of arcs M".
        expected: String,
        /// What was found, e.g. "'x'" or "end of input".
        found: String,
    },
    /// A number too large for its field.
    Overflow {
        /// What the number is, e.g. "a vertex id".
        what: String,
    },
    /// A vertex id outside `1..=n`.
    VertexOutOfRange {
        /// The 1-based id found.
        vertex: u64,
        /// The number of vertices.
        n: u64,
    },
    /// A vertex id 0 in a file whose number of vertices is not given (ids start at 1).
    ZeroVertex,
    /// More vertices than the reader was allowed to allocate for this input.
    TooManyVertices {
        /// The number of vertices the input asks for.
        n: u64,
        /// The limit in force.
        limit: u64,
        /// The bytes of input read.
        bytes: u64,
    },
    /// More vertices than this process has memory for.
    TooLarge {
        /// The number of vertices the input asks for.
        n: u64,
        /// The bytes the reader needs for them.
        needs: u64,
        /// The most memory this process may use.
        available: u64,
    },
    /// A text read as the header format without a start vertex because it is one mistake
    /// away from it (one arc more or fewer than `M`, or one id above `N`), and that mistake.
    /// Read as an arc list (named as the format), the text may be a graph.
    HeaderMistake {
        /// What the header reader found wrong.
        error: Box<ReadErrorKind>,
    },
    /// A text whose first line `N M` is neither the header of exactly `M` arcs on `1..=N`
    /// nor an arc. Naming the format decides how it is read.
    Ambiguous {
        /// The first line's two numbers.
        first: String,
        /// How many arcs follow it.
        arcs: u64,
        /// Why it is no arc.
        reason: String,
    },
    /// Text after the last item the format describes.
    TrailingInput {
        /// What was found.
        found: String,
    },
    /// A binary file that is cut short.
    Truncated {
        /// What was being read, e.g. "the arc targets".
        what: String,
        /// How many bytes the file has.
        offset: u64,
    },
    /// A binary file whose magic, header, checksum or arrays are wrong.
    Corrupt {
        /// What is wrong.
        reason: String,
    },
    /// A binary file of a format version this build does not read.
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The newest version this build reads (it reads every version from 1 up), and the
        /// one it writes.
        supported: u32,
    },
    /// A terminal value for a vertex with moves, or for a vertex given one before.
    Terminal(crate::format::TerminalsError),
    /// The graph itself is invalid.
    Graph(GraphError),
    /// Reading failed.
    Io(io::Error),
}

impl fmt::Display for ReadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::Empty => f.write_str("the input is empty"),
            ReadErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ReadErrorKind::Overflow { what } => write!(f, "{what} is too large"),
            ReadErrorKind::VertexOutOfRange { vertex, n } => {
                write!(f, "vertex {vertex} is outside 1..{n}")
            }
            ReadErrorKind::ZeroVertex => f.write_str("vertex ids start at 1, found 0"),
            ReadErrorKind::TooManyVertices { n, limit, bytes } => write!(
                f,
                "{n} vertices is more than the limit of {limit} for an input of {bytes} bytes"
            ),
            ReadErrorKind::TooLarge { n, needs, available } => write!(
                f,
                "{n} vertices need at least {} of memory, more than this process may use ({})",
                crate::memory::human_bytes(*needs),
                crate::memory::human_bytes(*available)
            ),
            ReadErrorKind::HeaderMistake { error } => {
                write!(f, "{error} (read as a header N M without a start vertex)")
            }
            ReadErrorKind::Ambiguous { first, arcs, reason } => write!(
                f,
                "the first line '{first}' is neither a header N M (it is followed by {arcs} arcs, \
                 not M on vertices 1..N) nor an arc ({reason})"
            ),
            ReadErrorKind::TrailingInput { found } => {
                write!(f, "expected end of input, found {found}")
            }
            ReadErrorKind::Truncated { what, offset } => {
                write!(f, "the file is truncated: it ends after {offset} bytes, inside {what}")
            }
            ReadErrorKind::UnsupportedVersion { found, supported } => {
                write!(
                    f,
                    "unsupported binary format version {found} (this build reads versions 1 to {supported})"
                )
            }
            ReadErrorKind::Corrupt { reason } => write!(f, "the file is corrupt: {reason}"),
            ReadErrorKind::Terminal(e) => e.fmt(f),
            ReadErrorKind::Graph(e) => e.fmt(f),
            ReadErrorKind::Io(e) => write!(f, "read failed: {e}"),
        }
    }
}

/// Why a [`GenConfig`](crate::generate::GenConfig) describes no graph.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GenError {
    /// More vertices than [`Vertex::MAX_VERTICES`](crate::Vertex::MAX_VERTICES).
    TooManyVertices {
        /// The requested number of vertices.
        vertices: usize,
    },
    /// Arcs were asked for, but the options allow no arc at all (no vertex; a single
    /// vertex without self-loops; an acyclic graph on fewer than two vertices).
    NoArcPossible {
        /// The requested number of vertices.
        vertices: usize,
        /// The requested number of arcs.
        arcs: usize,
    },
    /// More arcs than a graph can hold in memory on this platform.
    TooManyArcs {
        /// The requested number of arcs.
        arcs: usize,
    },
    /// `acyclic` and `self_loops` together: a self-loop is a cycle.
    AcyclicWithSelfLoops,
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::TooManyVertices { vertices } => {
                write!(f, "{vertices} vertices is more than the {} supported", u32::MAX)
            }
            GenError::NoArcPossible { vertices, arcs } => {
                write!(
                    f,
                    "no arc is possible on {vertices} vertices with these options, but {arcs} were asked for"
                )
            }
            GenError::TooManyArcs { arcs } => write!(f, "{arcs} arcs is more than fit in memory"),
            GenError::AcyclicWithSelfLoops => {
                f.write_str("an acyclic graph cannot have self-loops (a self-loop is a cycle)")
            }
        }
    }
}

impl std::error::Error for GenError {}

/// Why a list of vertex ids (see [`parse_vertex_list`](crate::parse_vertex_list)) was
/// refused. `item` is the 1-based number of the item in the list; `token` shows it, cut to
/// [`QUOTED_CHARS`](crate::position::QUOTED_CHARS) characters (and `…`) when longer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VertexListError {
    /// An item that is not a positive integer (an empty item between two commas too).
    NotAVertexId {
        /// The 1-based number of the item.
        item: usize,
        /// The item as [`quote`](crate::quote) shows it: in double quotes, escaped, cut.
        token: String,
    },
    /// An integer that is not the id of a vertex: 0, or more than the number of vertices.
    OutOfRange {
        /// The 1-based number of the item.
        item: usize,
        /// The item, a run of digits, as [`shorten`](crate::position::shorten) cuts it.
        token: String,
        /// The number of vertices of the graph.
        n: usize,
    },
}

impl fmt::Display for VertexListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexListError::NotAVertexId { item, token } => {
                write!(f, "item {item} is {token}, not a vertex id (a positive integer)")
            }
            VertexListError::OutOfRange { item, token, n: 0 } => {
                write!(f, "item {item}: vertex {token} is not in the graph (it has no vertices)")
            }
            VertexListError::OutOfRange { item, token, n } => {
                write!(f, "item {item}: vertex {token} is not in the graph (vertices are 1..{n})")
            }
        }
    }
}

impl std::error::Error for VertexListError {}
