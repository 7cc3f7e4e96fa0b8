//! Reading text tables of one row per line, fields separated by spaces or tabs, with
//! errors at a line and column ([`TableError`]): the reader that the solvers' own tables
//! (outcomes, Grundy values) are checked with.

use std::fmt;
use std::io::{self, BufRead};

use crate::position::{Located, Position, quote_bytes};

/// What a field should have been, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// What the format wants there (`vertex 3`, `a depth below 10`).
    pub expected: String,
    /// What is there instead: a token quoted with [`quote`](crate::quote), or a phrase
    /// such as `end of line` or `end of input`.
    pub found: String,
}

impl FieldError {
    /// `expected` where [`found`] describes `token`.
    pub fn new(expected: impl Into<String>, token: Option<&[u8]>) -> FieldError {
        FieldError { expected: expected.into(), found: found(token) }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for FieldError {}

/// Why a text is not the table that was expected.
#[derive(Debug)]
#[non_exhaustive]
pub enum TableError {
    /// The text could not be read.
    Io(io::Error),
    /// A field that does not fit, at its line and column (at the end of a line, the
    /// column just after its last character; after the last line, line + 1 and column 1).
    Field {
        /// Where.
        position: Position,
        /// What is wrong.
        error: FieldError,
    },
}

impl Located for TableError {
    /// The place of a field error; `None` for a read error.
    fn position(&self) -> Option<Position> {
        match self {
            TableError::Io(_) => None,
            TableError::Field { position, .. } => Some(*position),
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io(e) => write!(f, "{e}"),
            TableError::Field { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io(e) => Some(e),
            TableError::Field { .. } => None,
        }
    }
}

impl From<io::Error> for TableError {
    fn from(e: io::Error) -> Self {
        TableError::Io(e)
    }
}

/// `token` for the `found` of a [`FieldError`]: quoted and shortened, or `end of line`
/// when there is none.
pub fn found(token: Option<&[u8]>) -> String {
    token.map_or_else(|| "end of line".to_owned(), quote_bytes)
}

/// A decimal number without sign, or `None` (also on overflow): a vertex id, a depth or
/// a remoteness in a table.
///
/// ```
/// use gamegraph_graph::table::number;
/// assert_eq!((number(b"42"), number(b"-1"), number(b""), number(b"99999999999999999999")), (Some(42), None, None, None));
/// ```
pub fn number(t: &[u8]) -> Option<u64> {
    if t.is_empty() || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(t).ok()?.parse().ok()
}

/// The rows of a table: its lines that are not blank, each without its line break (`\n`
/// or `\r\n`), split into [`Fields`].
///
/// ```
/// use gamegraph_graph::Position;
/// use gamegraph_graph::table::Rows;
///
/// let mut rows = Rows::new("1 W\n\n2\tL x\r\n".as_bytes());
/// let mut row = rows.next_row()?.unwrap();
/// assert_eq!(row.next_field(), (Position::new(1, 1), Some(&b"1"[..])));
/// assert_eq!(row.next_field(), (Position::new(1, 3), Some(&b"W"[..])));
/// assert_eq!(row.next_field(), (Position::new(1, 4), None));
/// let mut row = rows.next_row()?.unwrap();
/// row.next_field();
/// row.next_field();
/// let (at, x) = row.next_field();
/// assert_eq!(row.error(at, "end of line", x).to_string(), "expected end of line, found \"x\"");
/// assert_eq!(at, Position::new(3, 5));
/// assert!(rows.next_row()?.is_none());
/// assert_eq!(rows.end(), Position::new(4, 1));
/// # Ok::<(), gamegraph_graph::TableError>(())
/// ```
#[derive(Debug)]
pub struct Rows<R> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
}

impl<R: BufRead> Rows<R> {
    /// The rows of `reader`'s text.
    pub fn new(reader: R) -> Rows<R> {
        Rows { reader, buf: Vec::new(), line: 0 }
    }

    /// The next line that is not blank, or `None` at the end of the text.
    ///
    /// # Errors
    /// [`TableError::Io`] when the text cannot be read.
    pub fn next_row(&mut self) -> Result<Option<Fields<'_>>, TableError> {
        loop {
            self.buf.clear();
            if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
                return Ok(None);
            }
            self.line += 1;
            while self.buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                self.buf.pop();
            }
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                return Ok(Some(Fields { text: &self.buf, pos: 0, line: self.line, column: 1 }));
            }
        }
    }

    /// The place just after the last line read: where `end of input` is found.
    pub fn end(&self) -> Position {
        Position::new(self.line + 1, 1)
    }
}

/// The fields of one row, separated by spaces or tabs.
#[derive(Debug)]
pub struct Fields<'a> {
    text: &'a [u8],
    pos: usize,
    line: u64,
    /// The column (in characters) of `text[pos]`.
    column: u64,
}

impl<'a> Fields<'a> {
    /// The next field and its position; at the end of the line, `None` and the position
    /// just after the last character.
    pub fn next_field(&mut self) -> (Position, Option<&'a [u8]>) {
        let blank = |b: u8| b == b' ' || b == b'\t';
        while self.pos < self.text.len() && blank(self.text[self.pos]) {
            self.advance();
        }
        let (start, at) = (self.pos, Position::new(self.line, self.column));
        while self.pos < self.text.len() && !blank(self.text[self.pos]) {
            self.advance();
        }
        (at, (start < self.pos).then(|| &self.text[start..self.pos]))
    }

    /// Steps over one byte; a byte that continues a UTF-8 character is in its column.
    fn advance(&mut self) {
        if self.text[self.pos] & 0xc0 != 0x80 {
            self.column += 1;
        }
        self.pos += 1;
    }

    /// Reads the first field of row `v` (0-based) of a table of `n` rows: the number
    /// `v + 1`; past the `n`-th row, an error saying the input should have ended.
    ///
    /// # Errors
    /// [`TableError::Field`] when the field is not `v + 1`, or `v` is `n`.
    pub fn vertex(&mut self, v: usize, n: usize) -> Result<(), TableError> {
        let (at, token) = self.next_field();
        if v == n {
            let expected = format!("end of input: the graph has {n} vertices");
            return Err(self.error(at, expected, token));
        }
        if token.and_then(number) != Some(v as u64 + 1) {
            return Err(self.error(at, format!("vertex {}", v + 1), token));
        }
        Ok(())
    }

    /// The error for a field at `at` that is not `expected`.
    pub fn error(
        &self,
        at: Position,
        expected: impl Into<String>,
        token: Option<&[u8]>,
    ) -> TableError {
        TableError::Field { position: at, error: FieldError::new(expected, token) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_and_long_tokens_are_cut() {
        let mut rows = Rows::new("é\t x".as_bytes());
        let mut row = rows.next_row().unwrap().unwrap();
        assert_eq!(row.next_field(), (Position::new(1, 1), Some("é".as_bytes())));
        assert_eq!(row.next_field(), (Position::new(1, 4), Some(&b"x"[..])));
        assert_eq!(row.next_field(), (Position::new(1, 5), None));
        assert_eq!(found(Some(&[b'7'; 100])), format!("{:?}…", "7".repeat(32)));
        assert_eq!(found(None), "end of line");
    }

    #[test]
    fn a_read_error_is_the_source() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = Rows::new(io::BufReader::new(Failing)).next_row().unwrap_err();
        assert_eq!(e.position(), None);
        assert!(std::error::Error::source(&e).is_some_and(|s| s.to_string() == "disk on fire"));
    }
}
