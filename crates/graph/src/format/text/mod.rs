//! The text formats: a buffered scanner of unsigned decimal numbers that knows the line
//! and column of every byte.
//!
//! Speed comes from scanning a large buffer of our own (256 KiB) with plain index loops:
//! the scanner keeps at least 64 bytes ahead of every token (or reaches the end of input),
//! so a number of up to 19 digits is parsed without bounds juggling or overflow checks,
//! and the column is derived from the offset of the current line's first byte instead of
//! being counted byte by byte. Longer digit runs take a slow, checked path. Every message
//! and position equals that of the byte-at-a-time reference tokenizer (kept in the tests).

#[cfg(test)]
pub(crate) mod reference;

use std::fmt;
use std::io::{self, Read};

use super::GameFile;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

const BUF: usize = 1 << 18;
/// Bytes kept available ahead of a token's first byte (unless the input ends first).
const LOOKAHEAD: usize = 64;

/// What a token is, for messages; formatted only when an error is reported.
#[derive(Debug, Clone, Copy)]
enum What {
    N,
    M,
    Start,
    Source { i: u64, m: u64 },
    Target { i: u64, m: u64 },
    ArcSource,
    ArcTarget,
    Token,
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::N => f.write_str("the number of vertices N"),
            What::M => f.write_str("the number of arcs M"),
            What::Start => f.write_str("the start vertex"),
            What::Source { i, m } => write!(f, "the source of arc {i} of {m}"),
            What::Target { i, m } => write!(f, "the target of arc {i} of {m}"),
            What::ArcSource => f.write_str("the source vertex of an arc"),
            What::ArcTarget => f.write_str("the target vertex of an arc"),
            What::Token => f.write_str("a token"),
        }
    }
}

/// The leading decimal digits of eight bytes read little-endian (the first byte lowest):
/// their value and how many there are (8 when all eight bytes are digits; the value is
/// then that of the eight).
///
/// Subtracting `'0'` from every byte leaves 0..=9 exactly in the digit bytes; a byte is
/// not a digit when that result has its high bit set or reaches it once 0x76 is added. A
/// borrow or carry between bytes only ever moves towards later bytes, past the first
/// non-digit, so it cannot hide it. The digits are then shifted to the top (the bytes
/// below become leading zeros) and combined pairwise: 8 → 4 → 2 → 1.
#[inline]
fn swar_digits(word: u64) -> (u64, usize) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word.wrapping_sub(ONES * u64::from(b'0'));
    let bad = (x.wrapping_add(ONES * 0x76) | x) & (ONES * 0x80);
    let len = (bad.trailing_zeros() / 8) as usize;
    if len == 0 {
        return (0, 0);
    }
    let x = x << (8 * (8 - len));
    let x = (x.wrapping_mul(10) + (x >> 8)) & 0x00ff_00ff_00ff_00ff;
    let x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_ffff_0000_ffff;
    let x = (x.wrapping_mul(10_000) + (x >> 32)) & 0xffff_ffff;
    (x, len)
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn quote(c: char) -> String {
    format!("{c:?}")
}

/// The buffered scanner.
struct Scanner<R> {
    reader: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    /// The absolute offset of `buf[0]` in the input.
    base: u64,
    /// The current 1-based line.
    line: u64,
    /// The absolute offset of the current line's first byte.
    line_start: u64,
}

impl<R: Read> Scanner<R> {
    fn new(reader: R) -> Self {
        Scanner {
            reader,
            buf: vec![0u8; BUF].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The 1-based column of `buf[i]` on the current line.
    #[inline]
    fn column(&self, i: usize) -> u64 {
        self.base + i as u64 - self.line_start + 1
    }

    /// Moves the unread bytes to the front and reads more after them (one `read` call).
    #[cold]
    fn refill(&mut self) -> Result<(), ReadError> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(k) => {
                    self.end += k;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::new(ReadErrorKind::Io(e.to_string()))),
            }
        }
    }

    /// Makes at least `k` bytes available from `pos`, unless the input ends first.
    #[inline]
    fn ensure(&mut self, k: usize) -> Result<(), ReadError> {
        while self.end - self.pos < k && !self.eof {
            self.refill()?;
        }
        Ok(())
    }

    /// Skips white space and `#` comments; returns the next byte, not consumed, with at
    /// least [`LOOKAHEAD`] bytes available from it (or all that is left).
    #[inline]
    fn skip(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            while self.pos < self.end {
                let b = self.buf[self.pos];
                match b {
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                    b'\n' => {
                        self.pos += 1;
                        self.line += 1;
                        self.line_start = self.base + self.pos as u64;
                    }
                    b'#' => self.skip_comment()?,
                    _ => {
                        if self.end - self.pos < LOOKAHEAD {
                            self.ensure(LOOKAHEAD)?;
                        }
                        return Ok(Some(b));
                    }
                }
            }
            if self.eof {
                return Ok(None);
            }
            self.refill()?;
        }
    }

    /// Skips horizontal white space only (the arc list's rule); returns the next byte.
    #[inline]
    fn skip_in_line(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            while self.pos < self.end {
                let b = self.buf[self.pos];
                if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                    self.pos += 1;
                } else {
                    if self.end - self.pos < LOOKAHEAD {
                        self.ensure(LOOKAHEAD)?;
                    }
                    return Ok(Some(b));
                }
            }
            if self.eof {
                return Ok(None);
            }
            self.refill()?;
        }
    }

    /// Skips from a `#` up to (not including) the end of its line.
    #[cold]
    fn skip_comment(&mut self) -> Result<(), ReadError> {
        loop {
            match self.buf[self.pos..self.end].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.pos += i;
                    return Ok(());
                }
                None => {
                    self.pos = self.end;
                    if self.eof {
                        return Ok(());
                    }
                    self.refill()?;
                }
            }
        }
    }

    /// The character at `pos`, for messages (`pos` has [`LOOKAHEAD`] bytes after it).
    fn char_at(&self, pos: usize) -> char {
        let take = (self.end - pos).min(4);
        let s = String::from_utf8_lossy(&self.buf[pos..pos + take]);
        s.chars().next().unwrap_or('\u{fffd}')
    }

    fn error_here(&self, pos: usize, kind: ReadErrorKind) -> ReadError {
        ReadError::at(self.line, self.column(pos), kind)
    }

    /// The number starting at `pos` (a digit, with [`LOOKAHEAD`] bytes available), and the
    /// position of its first byte. Fails on a number followed by anything but white
    /// space, `#` or the end, and on overflow.
    #[inline]
    fn digits(&mut self, what: What) -> Result<(u64, u64, u64), ReadError> {
        let start = self.pos;
        // Up to eight digits at once when eight bytes are there (the common case).
        if let Some(word) = self.buf[start..self.end].first_chunk::<8>() {
            let (v, len) = swar_digits(u64::from_le_bytes(*word));
            if len < 8 {
                let b = self.buf[start + len];
                if is_space(b) || b == b'#' {
                    self.pos = start + len;
                    return Ok((v, self.line, self.column(start)));
                }
            }
        }
        let lim = self.end.min(start + 19);
        let mut i = start;
        let mut v: u64 = 0;
        while i < lim {
            let d = self.buf[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + u64::from(d);
            i += 1;
        }
        if i < self.end {
            let b = self.buf[i];
            if is_space(b) || b == b'#' {
                self.pos = i;
                return Ok((v, self.line, self.column(start)));
            }
        } else if self.eof {
            self.pos = i;
            return Ok((v, self.line, self.column(start)));
        }
        self.digits_slow(what, start, i, v)
    }

    /// The rest of [`Scanner::digits`]: a long digit run, or a bad byte after the digits.
    #[cold]
    fn digits_slow(
        &mut self,
        what: What,
        start: usize,
        mut i: usize,
        mut v: u64,
    ) -> Result<(u64, u64, u64), ReadError> {
        let (line, column) = (self.line, self.column(start));
        let mut overflow = false;
        loop {
            while i < self.end && self.buf[i].is_ascii_digit() {
                let d = u64::from(self.buf[i] - b'0');
                match v.checked_mul(10).and_then(|x| x.checked_add(d)) {
                    Some(x) => v = x,
                    None => overflow = true,
                }
                i += 1;
            }
            if i < self.end || self.eof {
                break;
            }
            self.pos = i;
            self.refill()?;
            i = self.pos;
        }
        self.pos = i;
        if i < self.end {
            let b = self.buf[i];
            if !(is_space(b) || b == b'#') {
                self.ensure(4)?;
                let ch = self.char_at(self.pos);
                return Err(self.error_here(
                    self.pos,
                    ReadErrorKind::Expected {
                        expected: format!("white space after {what}"),
                        found: quote(ch),
                    },
                ));
            }
        }
        if overflow {
            return Err(ReadError::at(
                line,
                column,
                ReadErrorKind::Overflow { what: what.to_string() },
            ));
        }
        Ok((v, line, column))
    }

    /// The next token, which must be a number: `(value, line, column)`.
    #[inline]
    fn number(&mut self, what: What) -> Result<(u64, u64, u64), ReadError> {
        match self.skip()? {
            Some(b) if b.is_ascii_digit() => self.digits(what),
            other => Err(self.not_a_number(what, other.is_some())),
        }
    }

    /// The error for a token that is not a number (or the end of input) at `pos`.
    #[cold]
    fn not_a_number(&self, what: What, present: bool) -> ReadError {
        let found = if present { quote(self.char_at(self.pos)) } else { "end of input".into() };
        self.error_here(self.pos, ReadErrorKind::Expected { expected: what.to_string(), found })
    }

    /// A 1-based vertex id in `1..=n`, returned 0-based.
    #[inline]
    fn vertex(&mut self, what: What, n: u64) -> Result<u32, ReadError> {
        let (id, line, column) = self.number(what)?;
        if id.wrapping_sub(1) >= n {
            return Err(ReadError::at(
                line,
                column,
                ReadErrorKind::VertexOutOfRange { vertex: id, n },
            ));
        }
        Ok((id - 1) as u32)
    }
}

/// Collects arcs into CSR arrays. While the sources arrive in non-decreasing order (as
/// every writer of this crate produces them) only the out-degrees and the targets are
/// kept, so the targets become the final array; the first source out of order turns the
/// degrees back into a source list and a counting sort finishes the job.
struct ArcSink {
    /// `degrees[u + 1]` counts the arcs from `u`; becomes the offsets.
    degrees: Vec<u64>,
    targets: Vec<Vertex>,
    /// The sources, once they were found out of order.
    sources: Option<Vec<u32>>,
    last: u32,
    /// The number of arcs announced (for the capacity), if any.
    announced: Option<usize>,
}

impl ArcSink {
    fn new(n: usize, announced: Option<usize>) -> ArcSink {
        let mut targets = Vec::new();
        targets.reserve_exact(announced.unwrap_or(0).min(1 << 20));
        ArcSink { degrees: vec![0; n + 1], targets, sources: None, last: 0, announced }
    }

    #[inline]
    fn push(&mut self, u: u32, v: u32) {
        if self.targets.len() == self.targets.capacity() {
            self.grow();
        }
        if u as usize + 1 >= self.degrees.len() {
            self.degrees.resize(u as usize + 2, 0);
        }
        self.degrees[u as usize + 1] += 1;
        if let Some(s) = &mut self.sources {
            s.push(u);
        } else if u < self.last {
            self.unsorted(u);
        } else {
            self.last = u;
        }
        self.targets.push(Vertex(v));
    }

    /// Grows the targets by doubling, capped at the announced number of arcs (a header
    /// that lies costs at most twice what the input really holds).
    #[cold]
    fn grow(&mut self) {
        let len = self.targets.len();
        let more = match self.announced {
            Some(m) if m > len => (m - len).min(len.max(1 << 20)),
            _ => len.max(1 << 20),
        };
        self.targets.reserve_exact(more);
    }

    /// The sources so far, rebuilt from the degrees (they were sorted), then `u`.
    #[cold]
    fn unsorted(&mut self, u: u32) {
        let mut s = Vec::with_capacity(self.targets.capacity());
        for (x, w) in self.degrees.iter().skip(1).enumerate() {
            let times = if x == u as usize { *w - 1 } else { *w };
            s.extend(std::iter::repeat_n(x as u32, times as usize));
        }
        s.push(u);
        self.sources = Some(s);
    }

    /// The graph on `n` vertices (`n` covers every id pushed).
    fn finish(self, n: usize) -> Graph {
        let ArcSink { mut degrees, targets, sources, .. } = self;
        degrees.resize(n + 1, 0);
        let mut offsets = degrees;
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let targets = match sources {
            None => targets,
            Some(sources) => {
                // Counting sort, using `offsets[u]` as the cursor of `u`, then shift back.
                let mut sorted = vec![Vertex(0); targets.len()];
                for (&u, &v) in sources.iter().zip(&targets) {
                    let slot = &mut offsets[u as usize];
                    sorted[*slot as usize] = v;
                    *slot += 1;
                }
                for i in (1..=n).rev() {
                    offsets[i] = offsets[i - 1];
                }
                offsets[0] = 0;
                sorted
            }
        };
        Graph::from_csr_trusted(offsets, targets)
    }
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
/// O(size of input + N) time. Extra space: a 256 KiB buffer; when the arcs come sorted by
/// source (as this crate writes them) nothing else, otherwise 8 bytes per arc for the
/// counting sort.
///
/// # Example
/// ```
/// use gamegraph_graph::format::read_header;
///
/// let file = read_header("3 2\n1\n1 2\n2 3\n".as_bytes()).unwrap();
/// assert_eq!(file.graph.num_arcs(), 2);
/// let e = read_header("3 2\n1\n1 2\n2 4\n".as_bytes()).unwrap_err();
/// assert_eq!(e.to_string(), "vertex 4 is outside 1..3");
/// assert_eq!(e.position(), Some((4, 3)));
/// ```
pub fn read_header(reader: impl Read) -> Result<GameFile, ReadError> {
    let mut t = Scanner::new(reader);
    if t.skip()?.is_none() {
        return Err(ReadError::at(1, 1, ReadErrorKind::Empty));
    }
    let (n, line, column) = t.number(What::N)?;
    if n > Vertex::MAX_VERTICES as u64 {
        return Err(ReadError::at(line, column, ReadErrorKind::Overflow { what: "N".into() }));
    }
    let (m, line, column) = t.number(What::M)?;
    let m_usize = usize::try_from(m)
        .ok()
        .filter(|&m| m <= isize::MAX as usize / 8)
        .ok_or_else(|| ReadError::at(line, column, ReadErrorKind::Overflow { what: "M".into() }))?;
    let start = t.vertex(What::Start, n)?;
    let mut sink = ArcSink::new(n as usize, Some(m_usize));
    for i in 1..=m {
        let u = t.vertex(What::Source { i, m }, n)?;
        let v = t.vertex(What::Target { i, m }, n)?;
        sink.push(u, v);
    }
    if t.skip()?.is_some() {
        return Err(trailing(&mut t, &format!("the {m} arcs")));
    }
    Ok(GameFile { graph: sink.finish(n as usize), start: Some(Vertex(start)) })
}

/// The error for a token after the end of the format.
#[cold]
fn trailing<R: Read>(t: &mut Scanner<R>, after: &str) -> ReadError {
    let (line, column) = (t.line, t.column(t.pos));
    let b = t.buf[t.pos];
    let found = if b.is_ascii_digit() {
        match t.digits(What::Token) {
            Ok((n, ..)) => n.to_string(),
            Err(e) => return e,
        }
    } else {
        quote(t.char_at(t.pos))
    };
    ReadError::at(
        line,
        column,
        ReadErrorKind::TrailingInput { found: format!("{found} after {after}") },
    )
}

/// Reads an arc list: one arc `u v` per line (1-based ids), `#` starts a comment, blank
/// lines are allowed. With `n` given, ids must lie in `1..=n`; otherwise the number of
/// vertices is the largest id seen.
///
/// # Errors
/// The first problem with its line and column: a non-number, a number that overflows, an
/// id out of range, a line with one id (at the end of that line), a line with more than two
/// (at the third token).
///
/// # Complexity
/// O(size of input + n) time; extra space as for [`read_header`].
pub fn read_arc_list(reader: impl Read, n: Option<usize>) -> Result<Graph, ReadError> {
    let mut t = Scanner::new(reader);
    let limit =
        n.map_or(Vertex::MAX_VERTICES as u64, |n| (n as u64).min(Vertex::MAX_VERTICES as u64));
    let mut sink = ArcSink::new(n.unwrap_or(0).min(Vertex::MAX_VERTICES), None);
    let mut max_id = 0u32;
    while t.skip()?.is_some() {
        let u = t.vertex(What::ArcSource, limit)?;
        match t.skip_in_line()? {
            Some(b) if b != b'\n' && b != b'#' => {}
            other => {
                let found = if other.is_some() { "the end of the line" } else { "end of input" };
                return Err(t.error_here(
                    t.pos,
                    ReadErrorKind::Expected {
                        expected: What::ArcTarget.to_string() + " on the same line",
                        found: found.into(),
                    },
                ));
            }
        }
        let v = t.vertex(What::ArcTarget, limit)?;
        match t.skip_in_line()? {
            None | Some(b'\n' | b'#') => {}
            Some(_) => {
                return Err(t.error_here(
                    t.pos,
                    ReadErrorKind::Expected {
                        expected: "the end of the line after an arc".into(),
                        found: quote(t.char_at(t.pos)),
                    },
                ));
            }
        }
        max_id = max_id.max(u + 1).max(v + 1);
        sink.push(u, v);
    }
    let n = n.unwrap_or(max_id as usize);
    if n > Vertex::MAX_VERTICES {
        return Err(ReadError::new(ReadErrorKind::Graph(crate::GraphError::TooManyVertices {
            n: n as u64,
        })));
    }
    Ok(sink.finish(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swar_digits_equals_a_loop_over_the_bytes() {
        let alphabet = b"0123456789 \t\n#x/:\x00\xff\x2f\x3a\xb0\xb9";
        let mut x = 7u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 9) as usize;
            let mut bytes = [0u8; 8];
            for (i, b) in bytes.iter_mut().enumerate() {
                let r = (x >> (8 + 5 * i)) as usize;
                *b = if i < digits { b'0' + (r % 10) as u8 } else { alphabet[r % alphabet.len()] };
            }
            let len = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let value = bytes[..len].iter().fold(0, |v, &b| v * 10 + u64::from(b - b'0'));
            assert_eq!(swar_digits(u64::from_le_bytes(bytes)), (value, len), "{bytes:?}");
        }
    }

    fn err(text: &str) -> (String, Option<(u64, u64)>) {
        let e = read_header(text.as_bytes()).unwrap_err();
        (e.to_string(), e.position())
    }

    #[test]
    fn reads_seed_example() {
        let f = read_header("5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n".as_bytes()).unwrap();
        assert_eq!(f.start, Some(Vertex(0)));
        assert_eq!(f.graph.num_arcs(), 5);
        assert_eq!(f.graph.successors(Vertex(0)), &[Vertex(1), Vertex(3)]);
        assert_eq!(f.graph.successors(Vertex(2)), &[Vertex(0)]);
    }

    #[test]
    fn header_errors_have_positions() {
        assert_eq!(err(""), ("the input is empty".into(), Some((1, 1))));
        assert_eq!(err("2 1\n1\n1 3\n").1, Some((3, 3)));
        assert!(err("2 1\n1\n1 3\n").0.contains("vertex 3 is outside 1..2"));
        assert_eq!(err("2 2\n1\n1 2\n").0, "expected the source of arc 2 of 2, found end of input");
        assert_eq!(err("2 1\n1\n1 2\n2 1\n").1, Some((4, 1)));
        assert_eq!(err("2 1\nx\n").0, "expected the start vertex, found 'x'");
        assert_eq!(err("2 1\n1\n1 2x\n").1, Some((3, 4)));
        assert!(err("99999999999999999999999 1\n").0.contains("too large"));
        assert!(err("2 1\n0\n").0.contains("vertex 0 is outside"));
    }

    #[test]
    fn reads_arc_list() {
        let g = read_arc_list("# a comment\n1 2\n\n2 3 # trailing\n".as_bytes(), None).unwrap();
        assert_eq!(g.num_vertices(), 3);
        assert_eq!(g.num_arcs(), 2);
        assert!(read_arc_list("1 2 3\n".as_bytes(), None).is_err());
        assert!(read_arc_list("1\n2\n".as_bytes(), None).is_err());
        assert!(read_arc_list("1 5\n".as_bytes(), Some(4)).is_err());
    }

    #[test]
    fn unsorted_sources_are_counting_sorted() {
        let text = "4 6\n1\n3 1\n1 2\n3 4\n1 3\n2 2\n4 1\n";
        let fast = read_header(text.as_bytes()).unwrap();
        let slow = reference::read_header(text.as_bytes()).unwrap();
        assert_eq!(fast, slow);
        assert_eq!(fast.graph.successors(Vertex(2)), &[Vertex(0), Vertex(3)]);
    }

    /// A reader that hands out at most `chunk` bytes per call, to exercise every refill.
    struct Trickle<'a> {
        data: &'a [u8],
        chunk: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let k = self.chunk.min(buf.len()).min(self.data.len());
            buf[..k].copy_from_slice(&self.data[..k]);
            self.data = &self.data[k..];
            Ok(k)
        }
    }

    /// Text made of pieces that stress the tokenizer: numbers of every length (and
    /// overflowing ones), white space of every kind, comments, stray characters.
    fn noisy_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => (0u64..12).prop_map(|x| x.to_string()),
            1 => any::<u64>().prop_map(|x| x.to_string()),
            1 => "[0-9]{18,25}",
            4 => Just(" ".to_owned()),
            3 => Just("\n".to_owned()),
            1 => prop::sample::select(vec!["\t", "\r\n", "  ", "\x0b", "\x0c"]).prop_map(str::to_owned),
            1 => Just("# note 12\n".to_owned()),
            1 => Just("#x".to_owned()),
            1 => prop::sample::select(vec!["x", "-", "é", "+1", "3a", "\u{fffd}"]).prop_map(str::to_owned),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    /// A valid seed text, possibly with one piece of it damaged.
    fn seedish_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (1u64..8, prop::collection::vec((1u64..9, 1u64..9), 0..12), 0usize..40, any::<u8>())
            .prop_map(|(n, arcs, cut, byte)| {
                let mut s = format!("{n} {}\n1\n", arcs.len());
                for (u, v) in &arcs {
                    s.push_str(&format!("{u} {v}\n"));
                }
                // Sometimes damage the text: overwrite or cut it.
                let mut b = s.into_bytes();
                match byte % 4 {
                    0 if cut < b.len() => b[cut] = b"x 9\n#0"[usize::from(byte) % 6],
                    1 if cut < b.len() => b.truncate(cut),
                    _ => {}
                }
                String::from_utf8_lossy(&b).into_owned()
            })
    }

    fn ends_in_comment(text: &str) -> bool {
        text.rsplit('\n').next().is_some_and(|last| last.contains('#'))
    }

    fn same_as_reference(text: &str, chunk: usize) {
        let fast = read_header(Trickle { data: text.as_bytes(), chunk });
        let slow = reference::read_header(text.as_bytes());
        match (&fast, &slow) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{text:?}");
                if !ends_in_comment(text) {
                    assert_eq!(a.position(), b.position(), "{text:?}");
                }
            }
            _ => panic!("{text:?}: fast {fast:?}, reference {slow:?}"),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]

        #[test]
        fn seed_reader_matches_the_reference_on_noise(text in noisy_text(), chunk in 1usize..9) {
            same_as_reference(&text, chunk);
            same_as_reference(&text, BUF);
        }

        #[test]
        fn seed_reader_matches_the_reference_on_damaged_seeds(text in seedish_text(), chunk in 1usize..9) {
            same_as_reference(&text, chunk);
        }

        #[test]
        fn arc_list_reader_matches_the_reference_on_valid_lists(
            arcs in proptest::collection::vec((1u32..20, 1u32..20), 0..30),
            chunk in 1usize..9,
        ) {
            let text: String = arcs.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
            let fast = read_arc_list(Trickle { data: text.as_bytes(), chunk }, None).unwrap();
            let slow = reference::read_arc_list(text.as_bytes(), None).unwrap();
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}
