//! The terminal values of the header format, after the arcs: the keyword `terminal`, then
//! pairs `V X` (a vertex without moves and its value `W`, `L` or `T`), read on one thread.

use super::chunk::{KEYWORD, Pos, char_at, is_space, memchr, number, quote};
use crate::Terminal;
use crate::format::Terminals;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

/// A cursor over the section, with absolute positions.
struct Scan<'a> {
    bytes: &'a [u8],
    i: usize,
    line: u64,
    /// The index of the start of the current line (negative on the first line, whose
    /// column 1 lies before the section).
    line_start: i64,
}

impl Scan<'_> {
    fn pos(&self) -> Pos {
        (self.line, (self.i as i64 - self.line_start + 1) as u64)
    }

    /// Skips white space and comments; the next byte.
    fn skip(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.i) {
            match b {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i as i64;
                }
                b'#' => {
                    self.i +=
                        memchr(b'\n', &self.bytes[self.i..]).unwrap_or(self.bytes.len() - self.i)
                }
                _ if is_space(b) => self.i += 1,
                _ => return Some(b),
            }
        }
        None
    }

    /// Whether a token ends at `i`.
    fn ends_at(&self, i: usize) -> bool {
        self.bytes.get(i).is_none_or(|&b| is_space(b) || b == b'#')
    }

    fn error(&self, kind: ReadErrorKind) -> ReadError {
        let (line, column) = self.pos();
        ReadError::at(line, column, kind)
    }

    fn expected(&self, expected: String, found: String) -> ReadError {
        self.error(ReadErrorKind::Expected { expected, found })
    }
}

/// Reads the terminal values of `g` from `bytes`, which starts with the keyword at `pos`
/// and runs to the end of the input.
///
/// # Errors
/// The first problem, at its line and column: a token that is not a vertex, a vertex out
/// of range, a value that is not `W`, `L` or `T`, a vertex with moves, a vertex given
/// twice.
///
/// # Complexity
/// O(size of the section + n).
pub(super) fn read_section(bytes: &[u8], pos: Pos, g: &Graph) -> Result<Terminals, ReadError> {
    let n = g.num_vertices() as u64;
    let mut terminals = Terminals::empty(g.num_vertices());
    let mut s = Scan { bytes, i: KEYWORD.len(), line: pos.0, line_start: 1 - pos.1 as i64 };
    while let Some(b) = s.skip() {
        let at = s.pos();
        let what = "a vertex without moves and its terminal value, or end of input";
        if !b.is_ascii_digit() {
            return Err(s.expected(what.into(), quote(char_at(bytes, s.i))));
        }
        let (value, end) = number(bytes, s.i);
        if !s.ends_at(end) {
            s.i = end;
            return Err(
                s.expected("white space after the vertex".into(), quote(char_at(bytes, end)))
            );
        }
        let Some(v) = value else {
            return Err(s.error(ReadErrorKind::Overflow { what: "the vertex".into() }));
        };
        if v == 0 || v > n {
            return Err(s.error(ReadErrorKind::VertexOutOfRange { vertex: v, n }));
        }
        s.i = end;
        let what = format!("the terminal value of vertex {v} (W, L or T)");
        let Some(b) = s.skip() else {
            return Err(s.expected(what, "end of input".into()));
        };
        let Some(t) = Terminal::from_letter(b) else {
            return Err(s.expected(what, quote(char_at(bytes, s.i))));
        };
        if !s.ends_at(s.i + 1) {
            s.i += 1;
            return Err(s.expected(
                "white space after the terminal value".into(),
                quote(char_at(bytes, s.i)),
            ));
        }
        s.i += 1;
        terminals
            .insert(g, Vertex((v - 1) as u32), t)
            .map_err(|e| ReadError::at(at.0, at.1, ReadErrorKind::Terminal(e)))?;
    }
    Ok(terminals)
}
