//! Plain readers kept as the reference that the parallel readers are tested against (same
//! graphs, same error messages and positions): the header format lists every token first,
//! the arc list reads a byte at a time.

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
        ReadError::from(e)
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
}

fn quote(c: char) -> String {
    format!("{c:?}")
}

/// One token of the whole text, for the header format.
enum Tok {
    Number(u64),
    Other(char),
    /// Digits followed by `char` at the given position.
    Glued(char, u64, u64),
    Overflow,
}

/// Every token of the text with its position, the position of the end and the length.
type Listed = (Vec<(Tok, u64, u64)>, (u64, u64), u64);

/// Lists every token of the text.
fn all_tokens(mut reader: impl BufRead) -> Result<Listed, ReadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(Tokens::<&[u8]>::io)?;
    let total = bytes.len() as u64;
    let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let (mut line, mut column) = (1u64, 1u64);
    let mut out = Vec::new();
    let mut i = 0;
    let sep = |b: u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | b'#');
    while i < text.len() {
        let b = text[i];
        if b == b'\n' {
            line += 1;
            column = 1;
            i += 1;
        } else if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            column += 1;
            i += 1;
        } else if b == b'#' {
            while i < text.len() && text[i] != b'\n' {
                i += 1;
                column += 1;
            }
        } else {
            let (l, c) = (line, column);
            let start = i;
            while i < text.len() && !sep(text[i]) {
                i += 1;
            }
            let run = &text[start..i];
            column += run.len() as u64;
            let digits = run.iter().take_while(|b| b.is_ascii_digit()).count();
            let tok = if digits == 0 {
                let ch = String::from_utf8_lossy(&run[..run.len().min(4)]).chars().next().unwrap();
                Tok::Other(ch)
            } else if digits < run.len() {
                let rest = &run[digits..];
                let ch =
                    String::from_utf8_lossy(&rest[..rest.len().min(4)]).chars().next().unwrap();
                Tok::Glued(ch, l, c + digits as u64)
            } else {
                run.iter()
                    .try_fold(0u64, |v, &d| v.checked_mul(10)?.checked_add(u64::from(d - b'0')))
                    .map_or(Tok::Overflow, Tok::Number)
            };
            out.push((tok, l, c));
        }
    }
    Ok((out, (line, column), total))
}

/// Reads the header format: `N M`, the start vertex when it stands on the line of `M` or
/// alone on its line, then `M` arcs `u v`, all 1-based and separated by any white space;
/// `#` comments. Every token is listed first, then read in order.
pub(crate) fn read_header(reader: impl BufRead) -> Result<GameFile, ReadError> {
    let (toks, end, total) = all_tokens(reader)?;
    if toks.is_empty() {
        return Err(ReadError::at(1, 1, ReadErrorKind::Empty));
    }
    let get = |k: usize, what: &str| -> Result<(u64, u64, u64), ReadError> {
        let Some((tok, line, column)) = toks.get(k) else {
            return Err(ReadError::at(
                end.0,
                end.1,
                ReadErrorKind::Expected { expected: what.to_owned(), found: "end of input".into() },
            ));
        };
        match *tok {
            Tok::Number(v) => Ok((v, *line, *column)),
            Tok::Other(c) => Err(ReadError::at(
                *line,
                *column,
                ReadErrorKind::Expected { expected: what.to_owned(), found: quote(c) },
            )),
            Tok::Glued(c, l, col) => Err(ReadError::at(
                l,
                col,
                ReadErrorKind::Expected {
                    expected: format!("white space after {what}"),
                    found: quote(c),
                },
            )),
            Tok::Overflow => Err(ReadError::at(
                *line,
                *column,
                ReadErrorKind::Overflow { what: what.to_owned() },
            )),
        }
    };
    let vertex = |k: usize, what: &str, n: u64| -> Result<Vertex, ReadError> {
        let (id, line, column) = get(k, what)?;
        if id == 0 || id > n {
            return Err(ReadError::at(
                line,
                column,
                ReadErrorKind::VertexOutOfRange { vertex: id, n },
            ));
        }
        Ok(Vertex((id - 1) as u32))
    };
    let (n, n_line, n_column) = get(0, "the number of vertices N")?;
    if n > Vertex::MAX_VERTICES as u64 {
        return Err(ReadError::at(n_line, n_column, ReadErrorKind::Overflow { what: "N".into() }));
    }
    let (m, line, column) = get(1, "the number of arcs M")?;
    if m > isize::MAX as u64 / 8 {
        return Err(ReadError::at(line, column, ReadErrorKind::Overflow { what: "M".into() }));
    }
    let m_line = toks[1].1;
    let has_start = match (toks.get(2), toks.get(3)) {
        (None, _) => false,
        (Some(t2), _) if t2.1 == m_line => true,
        (Some(t2), Some(t3)) => t3.1 != t2.1,
        (Some(_), None) => true,
    };
    let start = if has_start { Some(vertex(2, "the start vertex", n)?) } else { None };
    let first = if has_start { 3 } else { 2 };
    let mut arcs = Vec::new();
    for i in 1..=m {
        let k = first + 2 * (i - 1) as usize;
        let u = vertex(k, &format!("the source of arc {i} of {m}"), n)?;
        let v = vertex(k + 1, &format!("the target of arc {i} of {m}"), n)?;
        arcs.push((u, v));
    }
    let k = first + 2 * m as usize;
    if let Some((tok, line, column)) = toks.get(k) {
        let found = match *tok {
            Tok::Number(v) => v.to_string(),
            Tok::Other(c) => quote(c),
            _ => return Err(get(k, "a token").unwrap_err()),
        };
        return Err(ReadError::at(
            *line,
            *column,
            ReadErrorKind::TrailingInput { found: format!("{found} after the {m} arcs") },
        ));
    }
    let limit = (1u64 << 24) + total;
    if n > limit {
        return Err(ReadError::at(
            n_line,
            n_column,
            ReadErrorKind::TooManyVertices { n, limit, bytes: total },
        ));
    }
    let graph =
        Graph::from_arcs(n as usize, &arcs).map_err(|e| ReadError::new(ReadErrorKind::Graph(e)))?;
    Ok(GameFile { graph, start, terminal: None })
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
