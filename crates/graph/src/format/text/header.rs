//! The header of the header format (`N M` and the start vertex), read on one thread from
//! the start of the text, and the cursor that also reads the first line of a text whose
//! format is decided by what follows.

use super::chunk::{KEYWORD, Pos, at_keyword, char_at, is_space, memchr, number, quote};
use crate::{ReadError, ReadErrorKind, Vertex};

/// The header's tokens, read on one thread from the start of the text.
pub(super) struct Head {
    pub(super) n: u64,
    pub(super) n_pos: Pos,
    pub(super) m: u64,
    pub(super) start: Option<u32>,
    /// Where the arcs begin: the index after the header in the text, and its position.
    pub(super) end: usize,
    pub(super) end_pos: Pos,
}

/// A cursor over the start of the text, for the header.
pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) eof: bool,
    pub(super) i: usize,
    pub(super) line: u64,
    pub(super) line_start: usize,
}

/// Why the header could not be read yet.
pub(super) enum HeadStop {
    /// The text seen so far ends inside the header: read more.
    More,
    Error(ReadError),
}

impl From<ReadError> for HeadStop {
    fn from(e: ReadError) -> Self {
        HeadStop::Error(e)
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `bytes` (the whole input when `eof`).
    pub(super) fn new(bytes: &'a [u8], eof: bool) -> Cursor<'a> {
        Cursor { bytes, eof, i: 0, line: 1, line_start: 0 }
    }

    pub(super) fn pos(&self) -> Pos {
        (self.line, (self.i - self.line_start) as u64 + 1)
    }

    pub(super) fn at_end(&self) -> Result<bool, HeadStop> {
        if self.i < self.bytes.len() {
            Ok(false)
        } else if self.eof {
            Ok(true)
        } else {
            Err(HeadStop::More)
        }
    }

    /// Skips white space (line breaks too when `lines`) and comments; the next byte.
    pub(super) fn skip(&mut self, lines: bool) -> Result<Option<u8>, HeadStop> {
        loop {
            if self.at_end()? {
                return Ok(None);
            }
            let b = self.bytes[self.i];
            match b {
                b'\n' if lines => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b'#' if lines => {
                    match memchr(b'\n', &self.bytes[self.i..]) {
                        Some(k) => self.i += k,
                        None if self.eof => self.i = self.bytes.len(),
                        None => return Err(HeadStop::More),
                    };
                }
                b'\n' | b'#' => return Ok(Some(b)),
                _ if is_space(b) => self.i += 1,
                _ => return Ok(Some(b)),
            }
        }
    }

    /// The number at the cursor, named `what` in errors.
    pub(super) fn number(&mut self, what: &str) -> Result<(u64, Pos), HeadStop> {
        let first = self.skip(true)?;
        let pos = self.pos();
        match first {
            None => Err(expected(self.pos(), what, "end of input".into()).into()),
            Some(b) if !b.is_ascii_digit() => {
                Err(expected(self.pos(), what, quote(self.char_at(self.i)?)).into())
            }
            Some(_) => {
                let (value, end) = number(self.bytes, self.i);
                if end == self.bytes.len() && !self.eof {
                    return Err(HeadStop::More);
                }
                if end < self.bytes.len() && !is_space(self.bytes[end]) && self.bytes[end] != b'#' {
                    let found = quote(self.char_at(end)?);
                    self.i = end;
                    return Err(
                        expected(self.pos(), &format!("white space after {what}"), found).into()
                    );
                }
                self.i = end;
                let value = value.ok_or_else(|| {
                    ReadError::at(pos.0, pos.1, ReadErrorKind::Overflow { what: what.into() })
                })?;
                Ok((value, pos))
            }
        }
    }

    /// The character at `i`, once all of its bytes are there.
    pub(super) fn char_at(&self, i: usize) -> Result<char, HeadStop> {
        if self.bytes.len() - i < 4 && !self.eof {
            return Err(HeadStop::More);
        }
        Ok(char_at(self.bytes, i))
    }

    /// Whether the keyword of the terminal values is at the cursor.
    pub(super) fn at_keyword(&self) -> Result<bool, HeadStop> {
        let rest = &self.bytes[self.i..];
        if rest.len() <= KEYWORD.len() && !self.eof {
            return Err(HeadStop::More);
        }
        Ok(at_keyword(rest))
    }

    /// How many tokens the line at the cursor holds (the cursor does not move).
    pub(super) fn tokens_on_line(&self) -> Result<usize, HeadStop> {
        let mut i = self.i;
        let mut count = 0;
        loop {
            if i == self.bytes.len() {
                return if self.eof { Ok(count) } else { Err(HeadStop::More) };
            }
            match self.bytes[i] {
                b'\n' | b'#' => return Ok(count),
                b if is_space(b) => i += 1,
                _ => {
                    count += 1;
                    while i < self.bytes.len() && !is_space(self.bytes[i]) && self.bytes[i] != b'#'
                    {
                        i += 1;
                    }
                }
            }
        }
    }
}

pub(super) fn expected(pos: Pos, what: &str, found: String) -> ReadError {
    ReadError::at(pos.0, pos.1, ReadErrorKind::Expected { expected: what.into(), found })
}

/// Reads `N M` and the start vertex from the start of `bytes`.
pub(super) fn head(bytes: &[u8], eof: bool) -> Result<Head, HeadStop> {
    let mut c = Cursor::new(bytes, eof);
    if c.skip(true)?.is_none() {
        return Err(ReadError::at(1, 1, ReadErrorKind::Empty).into());
    }
    let (n, n_pos) = c.number("the number of vertices N")?;
    if n > Vertex::MAX_VERTICES as u64 {
        return Err(
            ReadError::at(n_pos.0, n_pos.1, ReadErrorKind::Overflow { what: "N".into() }).into()
        );
    }
    let (m, m_pos) = c.number("the number of arcs M")?;
    if m > (isize::MAX as u64) / 8 {
        return Err(
            ReadError::at(m_pos.0, m_pos.1, ReadErrorKind::Overflow { what: "M".into() }).into()
        );
    }
    // The start vertex: on the line of M, or alone on the next line that has content.
    let (end, end_pos) = (c.i, c.pos());
    let has_start = match c.skip(false)? {
        Some(b) if b != b'\n' && b != b'#' => !c.at_keyword()?,
        _ => match c.skip(true)? {
            None => false,
            Some(_) => c.tokens_on_line()? == 1 && !c.at_keyword()?,
        },
    };
    if !has_start {
        return Ok(Head { n, n_pos, m, start: None, end, end_pos });
    }
    let (s, pos) = c.number("the start vertex")?;
    if s == 0 || s > n {
        return Err(
            ReadError::at(pos.0, pos.1, ReadErrorKind::VertexOutOfRange { vertex: s, n }).into()
        );
    }
    Ok(Head { n, n_pos, m, start: Some((s - 1) as u32), end: c.i, end_pos: c.pos() })
}
