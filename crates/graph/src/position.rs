//! Where an error sits in a text input (`Position`), and how a bad token is quoted in a message.

use std::fmt;

/// A 1-based line and column in a text input, shown as `LINE:COLUMN`.
///
/// Columns count characters from 1 at the start of the line (a byte-order mark or a
/// multi-byte character counts as one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The 1-based line.
    pub line: u64,
    /// The 1-based column.
    pub column: u64,
}

impl Position {
    /// The position at `line`, `column` (both 1-based).
    #[must_use]
    pub const fn new(line: u64, column: u64) -> Position {
        Position { line, column }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// An error that can say where in a text input it sits: the one way every error of the
/// workspace with a position gives it.
///
/// ```
/// use gamegraph_graph::format::{self, ReadOptions};
/// use gamegraph_graph::{Located, Position};
///
/// let e = format::read("1 2\n2 x\n".as_bytes(), &ReadOptions::default()).unwrap_err();
/// assert_eq!(e.position(), Some(Position::new(2, 3)));
/// ```
pub trait Located {
    /// The 1-based line and column of the problem, when the input is text and the problem
    /// has a place in it (`None` for an I/O error or a binary format).
    fn position(&self) -> Option<Position>;
}

/// The most characters of a bad token that [`quote`] shows.
pub const QUOTED_CHARS: usize = 32;

/// `token` for an error message: in double quotes with Rust's escapes (so that control
/// characters and invisible ones show), cut after its first [`QUOTED_CHARS`] characters and
/// followed by `…` when it is longer.
#[must_use]
pub fn quote(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => format!("{token:?}"),
        Some((cut, _)) => format!("{:?}…", &token[..cut]),
    }
}

/// `token` cut as [`quote`] cuts it, but without quotes or escapes: for a token already
/// known to be harmless to print as it is (a run of digits), or that a message puts in its
/// own quotes.
#[must_use]
pub fn shorten(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => token.to_owned(),
        Some((cut, _)) => format!("{}…", &token[..cut]),
    }
}

/// [`quote`] for bytes that may not be UTF-8: invalid sequences show as `\u{FFFD}`.
#[must_use]
pub fn quote_bytes(token: &[u8]) -> String {
    quote(&String::from_utf8_lossy(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_show_as_line_colon_column() {
        assert_eq!(Position::new(4, 13).to_string(), "4:13");
        assert!(Position::new(2, 9) < Position::new(3, 1));
    }

    #[test]
    fn long_tokens_are_cut_and_escaped() {
        assert_eq!(quote("x1"), "\"x1\"");
        assert_eq!(quote("a\tb"), "\"a\\tb\"");
        let long = "7".repeat(1000);
        assert_eq!(quote(&long), format!("{:?}…", "7".repeat(32)));
        assert_eq!(quote(&"é".repeat(40)), format!("{:?}…", "é".repeat(32)));
        assert_eq!(quote_bytes(b"\xff1"), "\"\u{fffd}1\"");
        assert_eq!(shorten("12"), "12");
        assert_eq!(shorten(&long), format!("{}…", "7".repeat(32)));
    }
}
