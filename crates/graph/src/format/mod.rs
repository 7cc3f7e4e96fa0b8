//! File formats of game graphs.
//!
//! - **seed**: the format of SPEC §1: `N M`, the start vertex, then `M` lines `u v`
//!   (1-based ids), with `#` comments as an extension.
//! - **arc list**: one arc `u v` per line (1-based), `#` starts a comment; the number of
//!   vertices is given by the caller or inferred as the largest id.
//!
//! Readers take any [`BufRead`], never a path, and either return a whole valid graph or a
//! [`ReadError`] with the line and column of the first problem: input is never half-accepted.

mod text;

use std::io::BufRead;

use crate::{Graph, ReadError, Vertex};

pub use self::text::{read_arc_list, read_seed};

/// The file formats the readers know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `N M`, start vertex, `M` arcs (SPEC §1).
    Seed,
    /// One `u v` arc per line, `#` comments.
    ArcList,
}

/// A game graph read from a file, with its start vertex when the format has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFile {
    /// The graph.
    pub graph: Graph,
    /// The start position (the seed format's second line).
    pub start: Option<Vertex>,
}

/// Reads a graph in `format`.
///
/// # Errors
/// A [`ReadError`] naming the first problem and where it is.
pub fn read(reader: impl BufRead, format: Format) -> Result<GameFile, ReadError> {
    match format {
        Format::Seed => read_seed(reader),
        Format::ArcList => read_arc_list(reader, None).map(|graph| GameFile { graph, start: None }),
    }
}
