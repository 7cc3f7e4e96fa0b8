//! Splitting the tab.inp format into white-space separated tokens with their positions.

use std::io::BufRead;

use gamegraph_graph::Position;

use crate::error::{InputError, InputErrorKind};

/// A token and where it starts (the column in characters).
pub(crate) struct Token {
    pub(crate) text: String,
    pub(crate) at: Position,
}

/// Splits the input into white-space separated tokens, dropping `#` comments and a byte
/// order mark at the very start. Bytes that are not UTF-8 stay in their token (as U+FFFD),
/// so they are reported as a bad number at their place rather than as a read error.
pub(crate) struct Tokens<R> {
    input: R,
    line: u64,
    pending: std::vec::IntoIter<Token>,
    buf: Vec<u8>,
    /// Where the input ends, once known.
    end: Position,
}

impl<R: BufRead> Tokens<R> {
    pub(crate) fn new(input: R) -> Self {
        Tokens {
            input,
            line: 0,
            pending: Vec::new().into_iter(),
            buf: Vec::new(),
            end: Position::new(1, 1),
        }
    }

    /// The position just after the last character read.
    pub(crate) fn end(&self) -> Position {
        self.end
    }

    pub(crate) fn next(&mut self) -> Result<Option<Token>, InputError> {
        loop {
            if let Some(t) = self.pending.next() {
                return Ok(Some(t));
            }
            self.buf.clear();
            let n = self.input.read_until(b'\n', &mut self.buf).map_err(|e| {
                InputError::new(InputErrorKind::Io(e), Position::new(self.line + 1, 1))
            })?;
            if n == 0 {
                return Ok(None);
            }
            self.line += 1;
            let mut text = String::from_utf8_lossy(&self.buf);
            if self.line == 1
                && let Some(rest) = text.strip_prefix('\u{feff}')
            {
                text = rest.to_owned().into();
            }
            let visible = text.trim_end_matches(['\n', '\r']).chars().count() as u64;
            let text = text.split('#').next().unwrap_or("");
            let mut tokens = Vec::new();
            let mut current: Option<(u64, String)> = None;
            for (i, ch) in text.chars().enumerate() {
                let column = i as u64 + 1;
                if ch.is_whitespace() {
                    if let Some((c, s)) = current.take() {
                        tokens.push(Token { text: s, at: Position::new(self.line, c) });
                    }
                } else {
                    current.get_or_insert_with(|| (column, String::new())).1.push(ch);
                }
            }
            if let Some((c, s)) = current.take() {
                tokens.push(Token { text: s, at: Position::new(self.line, c) });
            }
            self.end = Position::new(self.line, visible + 1);
            self.pending = tokens.into_iter();
        }
    }
}
