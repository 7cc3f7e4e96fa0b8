//! The errors of the text readers: a chunk's problem, a header with one mistake, too many
//! vertices, each at its position.

use std::io::Read;

use super::chunk::{Pos, Problem, quote};
use super::window::Input;
use crate::{ReadError, ReadErrorKind, Vertex};

pub(super) fn trailing(pos: Pos, found: &str, m: u64) -> ReadError {
    ReadError::at(
        pos.0,
        pos.1,
        ReadErrorKind::TrailingInput { found: format!("{found} after the {m} arcs") },
    )
}

/// The error for a chunk's problem with `what` it concerns (ids in `1..=n`).
pub(super) fn fault_error(problem: Problem, pos: Pos, what: &str, n: u64) -> ReadError {
    let kind = match problem {
        Problem::NotANumber(c) => {
            ReadErrorKind::Expected { expected: what.into(), found: quote(c) }
        }
        Problem::Glued(c) => ReadErrorKind::Expected {
            expected: format!("white space after {what}"),
            found: quote(c),
        },
        Problem::Overflow => ReadErrorKind::Overflow { what: what.into() },
        Problem::OutOfRange(0) if n == Vertex::MAX_VERTICES as u64 => ReadErrorKind::ZeroVertex,
        Problem::OutOfRange(vertex) => ReadErrorKind::VertexOutOfRange { vertex, n },
        Problem::OneId { end } => ReadErrorKind::Expected {
            expected: "the target vertex of an arc on the same line".into(),
            found: if end { "end of input" } else { "the end of the line" }.into(),
        },
        Problem::ExtraToken(c) => ReadErrorKind::Expected {
            expected: "the end of the line after an arc".into(),
            found: quote(c),
        },
    };
    ReadError::at(pos.0, pos.1, kind)
}

/// What an arc list names the id with index `g`.
pub(super) fn arc_list_what(g: u64) -> &'static str {
    if g.is_multiple_of(2) { "the source vertex of an arc" } else { "the target vertex of an arc" }
}

/// What is wrong with a header followed by `m` arcs instead of `count` (or by one id out of
/// range when they are equal).
pub(super) fn count_mismatch(m: u64, count: u64) -> ReadErrorKind {
    ReadErrorKind::Expected {
        expected: format!("{count} arcs after the header"),
        found: if m == count {
            format!("{m} arcs, one with an id above N")
        } else {
            format!("{m}")
        },
    }
}

/// Refuses more vertices than the input may ask for.
pub(super) fn check_vertices<R: Read>(
    input: &Input<'_, R>,
    n: u64,
    pos: Option<Pos>,
) -> Result<(), ReadError> {
    let limit = input.vertex_limit();
    let needs = n.saturating_add(1).saturating_mul(crate::memory::BYTES_PER_VERTEX);
    let kind = if n > limit {
        ReadErrorKind::TooManyVertices { n, limit, bytes: input.total }
    } else {
        match crate::memory::limit() {
            Some(available) if needs > available => ReadErrorKind::TooLarge { n, needs, available },
            _ => return Ok(()),
        }
    };
    Err(match pos {
        Some((line, column)) => ReadError::at(line, column, kind),
        None => ReadError::new(kind),
    })
}
