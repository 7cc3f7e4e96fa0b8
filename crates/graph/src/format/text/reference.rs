//! The original byte-at-a-time tokenizer, kept as the reference that the fast reader is
//! tested against (same graphs, same error messages and positions).

use std::io::BufRead;

use crate::format::GameFile;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

/// One token: a number, or the first character of something that is not one.
enum Token {
    Number(u64),
    Other(char),
    Eof,
}

/// A streaming tokenizer over a `BufRead`: unsigned decimal numbers separated by white
/// space, optional `#` comments to the end of the line.
struct Tokens<R> {
    reader: R,
    comments: bool,
    line: u64,
    column: u64,
    /// Whether the last token ended a line (for the arc list's one-arc-per-line rule).
    newline_before: bool,
}

impl<R: BufRead> Tokens<R> {
    fn new(reader: R, comments: bool) -> Self {
        Tokens { reader, comments, line: 1, column: 1, newline_before: true }
    }

    fn io(e: std::io::Error) -> ReadError {
        ReadError::new(ReadErrorKind::Io(e.to_string()))
    }

    /// Skips white space and comments; returns the next byte without consuming it.
    fn peek_token_start(&mut self) -> Result<Option<u8>, ReadError> {
        let mut in_comment = false;
        loop {
            let buf = self.reader.fill_buf().map_err(Self::io)?;
            if buf.is_empty() {
                return Ok(None);
            }
            let mut used = 0;
            let mut found = None;
            for &b in buf {
                if in_comment {
                    used += 1;
                    if b == b'\n' {
                        in_comment = false;
                        self.line += 1;
                        self.column = 1;
                        self.newline_before = true;
                    }
                    continue;
                }
                match b {
                    b'\n' => {
                        self.line += 1;
                        self.column = 1;
                        self.newline_before = true;
                    }
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.column += 1,
                    b'#' if self.comments => in_comment = true,
                    _ => {
                        found = Some(b);
                        break;
                    }
                }
                used += 1;
            }
            self.reader.consume(used);
            if found.is_some() {
                return Ok(found);
            }
        }
    }

    /// The next token, with its 1-based line and column.
    fn next(&mut self, what: &str) -> Result<(Token, u64, u64), ReadError> {
        let first = self.peek_token_start()?;
        let (line, column) = (self.line, self.column);
        let Some(first) = first else {
            return Ok((Token::Eof, line, column));
        };
        if !first.is_ascii_digit() {
            let ch = self.other_char()?;
            return Ok((Token::Other(ch), line, column));
        }
        let mut value: u64 = 0;
        let mut overflow = false;
        loop {
            let buf = self.reader.fill_buf().map_err(Self::io)?;
            if buf.is_empty() {
                break;
            }
            let digits = buf.iter().take_while(|b| b.is_ascii_digit()).count();
            for &b in &buf[..digits] {
                match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(b - b'0'))) {
                    Some(v) => value = v,
                    None => overflow = true,
                }
            }
            let end = digits < buf.len();
            self.reader.consume(digits);
            self.column += digits as u64;
            if end {
                let next = self.reader.fill_buf().map_err(Self::io)?[0];
                let separator = matches!(next, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
                    || (self.comments && next == b'#');
                if !separator {
                    let ch = self.other_char()?;
                    return Err(ReadError::at(
                        self.line,
                        self.column,
                        ReadErrorKind::Expected {
                            expected: format!("white space after {what}"),
                            found: quote(ch),
                        },
                    ));
                }
                break;
            }
        }
        if overflow {
            return Err(ReadError::at(
                line,
                column,
                ReadErrorKind::Overflow { what: what.to_owned() },
            ));
        }
        self.newline_before = false;
        Ok((Token::Number(value), line, column))
    }

    /// Decodes the (possibly multi-byte) character at the current position, for messages.
    fn other_char(&mut self) -> Result<char, ReadError> {
        let buf = self.reader.fill_buf().map_err(Self::io)?;
        let take = buf.len().min(4);
        let s = String::from_utf8_lossy(&buf[..take]);
        Ok(s.chars().next().unwrap_or('\u{fffd}'))
    }

    /// The next token, which must be a number.
    fn number(&mut self, what: &str) -> Result<(u64, u64, u64), ReadError> {
        match self.next(what)? {
            (Token::Number(n), line, column) => Ok((n, line, column)),
            (Token::Other(c), line, column) => Err(ReadError::at(
                line,
                column,
                ReadErrorKind::Expected { expected: what.to_owned(), found: quote(c) },
            )),
            (Token::Eof, line, column) => Err(ReadError::at(
                line,
                column,
                ReadErrorKind::Expected { expected: what.to_owned(), found: "end of input".into() },
            )),
        }
    }

    /// A 1-based vertex id in `1..=n`, returned 0-based.
    fn vertex(&mut self, what: &str, n: u64) -> Result<Vertex, ReadError> {
        let (id, line, column) = self.number(what)?;
        if id == 0 || id > n {
            return Err(ReadError::at(
                line,
                column,
                ReadErrorKind::VertexOutOfRange { vertex: id, n },
            ));
        }
        Ok(Vertex((id - 1) as u32))
    }

    /// Fails unless only white space (and comments) remain.
    fn end(&mut self, after: &str) -> Result<(), ReadError> {
        match self.peek_token_start()? {
            None => Ok(()),
            Some(_) => {
                let (line, column) = (self.line, self.column);
                let found = match self.next("a token")? {
                    (Token::Number(n), ..) => format!("{n}"),
                    (Token::Other(c), ..) => quote(c),
                    (Token::Eof, ..) => "end of input".into(),
                };
                Err(ReadError::at(
                    line,
                    column,
                    ReadErrorKind::TrailingInput { found: format!("{found} after {after}") },
                ))
            }
        }
    }
}

fn quote(c: char) -> String {
    format!("{c:?}")
}

/// Reads the seed format of SPEC §1: `N M`, the start vertex, then `M` arcs `u v`, all
/// 1-based and separated by any white space. `#` starts a comment that runs to the end of
/// the line (an extension: the seed has none). Nothing but white space may follow the arcs.
///
/// # Errors
/// The first problem with its line and column: an empty input, a non-number, a number that
/// overflows, a vertex outside `1..=N`, fewer arcs than `M` or text after the last arc.
///
/// # Complexity
/// O(size of input) time; the arcs are held once as pairs before the CSR is built.
pub(crate) fn read_header(reader: impl BufRead) -> Result<GameFile, ReadError> {
    let mut t = Tokens::new(reader, true);
    if t.peek_token_start()?.is_none() {
        return Err(ReadError::at(1, 1, ReadErrorKind::Empty));
    }
    let (n, line, column) = t.number("the number of vertices N")?;
    if n > Vertex::MAX_VERTICES as u64 {
        return Err(ReadError::at(line, column, ReadErrorKind::Overflow { what: "N".into() }));
    }
    let (m, line, column) = t.number("the number of arcs M")?;
    let m_usize = usize::try_from(m)
        .ok()
        .filter(|&m| m <= isize::MAX as usize / 8)
        .ok_or_else(|| ReadError::at(line, column, ReadErrorKind::Overflow { what: "M".into() }))?;
    let start = t.vertex("the start vertex", n)?;
    let mut arcs = Vec::with_capacity(m_usize.min(1 << 24));
    for i in 1..=m {
        let u = t.vertex(&format!("the source of arc {i} of {m}"), n)?;
        let v = t.vertex(&format!("the target of arc {i} of {m}"), n)?;
        arcs.push((u, v));
    }
    t.end(&format!("the {m} arcs"))?;
    let graph =
        Graph::from_arcs(n as usize, &arcs).map_err(|e| ReadError::new(ReadErrorKind::Graph(e)))?;
    Ok(GameFile { graph, start: Some(start) })
}

/// Reads an arc list: one arc `u v` per line (1-based ids), `#` starts a comment, blank
/// lines are allowed. With `n` given, ids must lie in `1..=n`; otherwise the number of
/// vertices is the largest id seen.
///
/// # Errors
/// The first problem with its line and column.
///
/// # Complexity
/// O(size of input) time.
pub(crate) fn read_arc_list(reader: impl BufRead, n: Option<usize>) -> Result<Graph, ReadError> {
    let mut t = Tokens::new(reader, true);
    let limit = n.map_or(Vertex::MAX_VERTICES as u64, |n| n as u64);
    let mut arcs = Vec::new();
    let mut max_id = 0u64;
    loop {
        if t.peek_token_start()?.is_none() {
            break;
        }
        let line = t.line;
        let u = t.vertex("the source vertex of an arc", limit)?;
        let before = t.peek_token_start()?;
        if before.is_some() && t.line != line {
            return Err(ReadError::at(
                line,
                t.column,
                ReadErrorKind::Expected {
                    expected: "the target vertex on the same line".into(),
                    found: "a new line".into(),
                },
            ));
        }
        let v = t.vertex("the target vertex of an arc", limit)?;
        if t.peek_token_start()?.is_some() && t.line == line {
            let (l, c) = (t.line, t.column);
            return Err(ReadError::at(
                l,
                c,
                ReadErrorKind::Expected {
                    expected: "the end of the line after an arc".into(),
                    found: "more text".into(),
                },
            ));
        }
        max_id = max_id.max(u.one_based()).max(v.one_based());
        arcs.push((u, v));
    }
    let n = n.unwrap_or(max_id as usize);
    Graph::from_arcs(n, &arcs).map_err(|e| ReadError::new(ReadErrorKind::Graph(e)))
}
