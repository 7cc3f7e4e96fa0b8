//! Reading back the `--all` table of a solution, for an independent check.

use std::fmt;
use std::io::{self, BufRead};

use crate::labels::NONE;
use crate::{Outcome, Solution};

/// Why a text is not the `--all` table of a solution for a graph of the expected size.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadTableError {
    /// The text could not be read.
    Io(io::Error),
    /// A token that does not fit the format, at a 1-based line and column (the column
    /// counts bytes; at the end of a line it is one past its last byte).
    Syntax {
        /// The 1-based line.
        line: u64,
        /// The 1-based column.
        column: u64,
        /// What the format wants there.
        expected: String,
        /// What is there instead, quoted, or `end of line` / `end of input`.
        found: String,
    },
}

impl fmt::Display for ReadTableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadTableError::Io(e) => write!(f, "{e}"),
            ReadTableError::Syntax { expected, found, .. } => {
                write!(f, "expected {expected}, found {found}")
            }
        }
    }
}

impl std::error::Error for ReadTableError {}

impl ReadTableError {
    /// The 1-based line and column of a syntax error.
    pub fn position(&self) -> Option<(u64, u64)> {
        match self {
            ReadTableError::Io(_) => None,
            ReadTableError::Syntax { line, column, .. } => Some((*line, *column)),
        }
    }
}

/// The longest token quoted in an error message.
const QUOTE: usize = 24;

fn quote(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(&token[..token.len().min(QUOTE)]);
    let more = if token.len() > QUOTE { "..." } else { "" };
    format!("`{text}{more}`")
}

/// Reads the table [`Solution::table`] prints (what `gamegraph retro --all` prints) for a
/// graph of `n` vertices: one line `V OUTCOME DEPTH MOVE` per vertex, the vertices
/// `1, 2, …, n` in this order, OUTCOME `W`, `L` or `D`, DEPTH a number for W and L and
/// `-` for D, MOVE a vertex id or `-`. Tokens are separated by spaces or tabs; blank
/// lines are skipped; a line may end with `\r`.
///
/// Only the shape is checked here: a missing, repeated or extra vertex is an error at
/// its line, as is a move outside `1..=n`; whether the labels, depths and moves are
/// right is for [`verify`](crate::verify).
///
/// # Errors
/// The first token that does not fit, with its line and column, or a read error.
///
/// # Complexity
/// O(length of the text) time, O(n) extra space (the solution).
///
/// # Example
/// ```
/// use gamegraph_retro::read_table;
/// let s = read_table("1 W 1 2\n2 L 0 -\n".as_bytes(), 2).unwrap();
/// assert_eq!(s.table().to_string(), "1 W 1 2\n2 L 0 -\n");
/// let e = read_table("1 W 1 2\n3 L 0 -\n".as_bytes(), 2).unwrap_err();
/// assert_eq!(e.to_string(), "expected vertex 2, found `3`");
/// assert_eq!(e.position(), Some((2, 1)));
/// ```
pub fn read_table(mut reader: impl BufRead, n: usize) -> Result<Solution, ReadTableError> {
    let mut outcomes = Vec::with_capacity(n);
    let mut depths = Vec::with_capacity(n);
    let mut moves = Vec::with_capacity(n);
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).map_err(ReadTableError::Io)? == 0 {
            break;
        }
        line_no += 1;
        while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            buf.pop();
        }
        let mut line = Line { text: &buf, pos: 0, line: line_no };
        if buf.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let v = outcomes.len();
        if v == n {
            let (column, token) = line.next_token();
            return Err(line.error(
                column,
                format!("end of input: the graph has {n} vertices"),
                quote(token.unwrap_or_default()),
            ));
        }
        let (column, token) = line.next_token();
        let expected_id = format!("vertex {}", v + 1);
        match token {
            Some(t) if parse_u64(t) == Some(v as u64 + 1) => {}
            t => return Err(line.error(column, expected_id, line.found(t))),
        }
        let (column, token) = line.next_token();
        let outcome = match token {
            Some(b"W") => Outcome::Win,
            Some(b"L") => Outcome::Loss,
            Some(b"D") => Outcome::Draw,
            t => {
                return Err(line.error(column, "an outcome `W`, `L` or `D`".into(), line.found(t)));
            }
        };
        let (column, token) = line.next_token();
        let depth = match (outcome, token) {
            (Outcome::Draw, Some(b"-")) => NONE,
            (Outcome::Draw, t) => {
                return Err(line.error(column, "`-` (a draw has no depth)".into(), line.found(t)));
            }
            (_, Some(t)) if parse_u64(t).is_some_and(|d| d < u64::from(NONE)) => {
                parse_u64(t).map_or(NONE, |d| d as u32)
            }
            (_, t) => {
                return Err(line.error(
                    column,
                    format!("a depth below {NONE} (W and L have one)"),
                    line.found(t),
                ));
            }
        };
        let (column, token) = line.next_token();
        let mv = match token {
            Some(b"-") => NONE,
            Some(t) if parse_u64(t).is_some_and(|m| m >= 1 && m <= n as u64) => {
                parse_u64(t).map_or(NONE, |m| (m - 1) as u32)
            }
            t => {
                return Err(line.error(
                    column,
                    format!("a move: a vertex in 1..={n} or `-`"),
                    line.found(t),
                ));
            }
        };
        let (column, token) = line.next_token();
        if let Some(t) = token {
            return Err(line.error(column, "end of line".into(), quote(t)));
        }
        outcomes.push(outcome);
        depths.push(depth);
        moves.push(mv);
    }
    if outcomes.len() < n {
        return Err(ReadTableError::Syntax {
            line: line_no + 1,
            column: 1,
            expected: format!("vertex {} (the graph has {n} vertices)", outcomes.len() + 1),
            found: "end of input".into(),
        });
    }
    Solution::from_parts(outcomes, depths, moves).map_err(|e| ReadTableError::Syntax {
        line: 1,
        column: 1,
        expected: "a table".into(),
        found: e,
    })
}

/// A decimal number without sign, or `None` (also on overflow).
fn parse_u64(t: &[u8]) -> Option<u64> {
    if t.is_empty() || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(t).ok()?.parse().ok()
}

/// One line being split into tokens.
struct Line<'a> {
    text: &'a [u8],
    pos: usize,
    line: u64,
}

impl<'a> Line<'a> {
    /// The next token separated by spaces or tabs, with its 1-based column (one past the
    /// end of the line when there is none).
    fn next_token(&mut self) -> (u64, Option<&'a [u8]>) {
        let t = self.text;
        while self.pos < t.len() && (t[self.pos] == b' ' || t[self.pos] == b'\t') {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < t.len() && t[self.pos] != b' ' && t[self.pos] != b'\t' {
            self.pos += 1;
        }
        (start as u64 + 1, (start < self.pos).then(|| &t[start..self.pos]))
    }

    fn found(&self, token: Option<&[u8]>) -> String {
        token.map_or_else(|| "end of line".to_owned(), quote)
    }

    fn error(&self, column: u64, expected: String, found: String) -> ReadTableError {
        ReadTableError::Syntax { line: self.line, column, expected, found }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, verify};
    use gamegraph_testkit::{SplitMix64, random_graph};

    fn err(text: &str, n: usize) -> (Option<(u64, u64)>, String) {
        let e = read_table(text.as_bytes(), n).unwrap_err();
        (e.position(), e.to_string())
    }

    #[test]
    fn reads_back_what_the_solver_prints() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            let n = 1 + rng.below(30) as usize;
            let m = rng.below(80) as usize;
            let g = random_graph(&mut rng, n, m, false);
            let s = solve(&g);
            let text = s.table().to_string();
            let back = read_table(text.as_bytes(), n).unwrap();
            assert_eq!(back, s);
            assert_eq!(verify(&g, &back), Ok(()));
        }
    }

    #[test]
    fn names_the_first_token_that_does_not_fit() {
        let ok = "1 W 1 2\n2 L 0 -\n";
        assert!(read_table(ok.as_bytes(), 2).is_ok());
        assert!(read_table("1 W 1 2\r\n\n  2\tL 0 -  \n\n".as_bytes(), 2).is_ok());
        assert_eq!(
            err("1 W 1 2\n", 2),
            (
                Some((2, 1)),
                "expected vertex 2 (the graph has 2 vertices), found end of input".into()
            )
        );
        assert_eq!(
            err("1 W 1 2\n2 L 0 -\n3 L 0 -\n", 2),
            (Some((3, 1)), "expected end of input: the graph has 2 vertices, found `3`".into())
        );
        assert_eq!(
            err("1 W 1 2\n1 L 0 -\n", 2),
            (Some((2, 1)), "expected vertex 2, found `1`".into())
        );
        assert_eq!(
            err("1 X 1 2\n", 2),
            (Some((1, 3)), "expected an outcome `W`, `L` or `D`, found `X`".into())
        );
        assert_eq!(
            err("1 D 1 2\n", 2),
            (Some((1, 5)), "expected `-` (a draw has no depth), found `1`".into())
        );
        assert_eq!(
            err("1 W - 2\n", 2),
            (
                Some((1, 5)),
                "expected a depth below 4294967295 (W and L have one), found `-`".into()
            )
        );
        assert_eq!(
            err("1 W 1 3\n", 2),
            (Some((1, 7)), "expected a move: a vertex in 1..=2 or `-`, found `3`".into())
        );
        assert_eq!(
            err("1 W 1\n", 2).1,
            "expected a move: a vertex in 1..=2 or `-`, found end of line"
        );
        assert_eq!(err("1 W 1 2 x\n", 2), (Some((1, 9)), "expected end of line, found `x`".into()));
    }
}
