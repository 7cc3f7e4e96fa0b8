//! The text formats, read on every thread of the current rayon pool.
//!
//! The input is read in windows of a few MiB; each window is cut after its last line break
//! and split into chunks of whole lines ([`TextOptions::chunk_bytes`]), which are tokenized
//! in parallel into arrays of vertex ids while the next window is read. The header (`N M`
//! and the start vertex) is read first, on one thread. Positions are kept relative to each
//! chunk (lines, token indices) and made absolute in file order, so the graph and every
//! error — the first problem in file order, with its line and column — are the same for
//! any number of threads and any chunk size. The CSR arrays are then built by a parallel
//! radix sort of the arcs by source (stable: each vertex keeps its arcs in file order).

mod chunk;
#[cfg(test)]
pub(crate) mod reference;

use std::io::Read;

use rayon::prelude::*;

use self::chunk::{Chunk, Fault, Layout, Problem, char_at, is_space, memchr, number};
use super::{Format, GameFile};
use crate::map::IdBuf;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

/// How the text readers work. The defaults suit every input; any value gives the same
/// graph and the same errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextOptions {
    /// The most vertices a graph may have, `None` for the default: 2²⁴ plus one per byte
    /// of input. A header's `N` or an arc list's largest id above it is refused with
    /// [`ReadErrorKind::TooManyVertices`], so a few bytes can never ask for gigabytes.
    pub max_vertices: Option<u64>,
    /// About how many bytes one parallel task tokenizes (cut at a line break); default
    /// 1 MiB.
    pub chunk_bytes: usize,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions { max_vertices: None, chunk_bytes: 1 << 20 }
    }
}

/// Vertices always allowed without [`TextOptions::max_vertices`], besides one per byte.
const FREE_VERTICES: u64 = 1 << 24;

/// Below this many arcs the CSR arrays are built by a plain counting sort: they fit in the
/// cache, and the radix sort's buffers would be most of the memory.
const RADIX_FROM: usize = 1 << 22;

/// The UTF-8 byte order mark, skipped at the start of the input.
const BOM: &[u8] = b"\xef\xbb\xbf";

fn quote(c: char) -> String {
    format!("{c:?}")
}

/// Reads the header format: `N M`, the start vertex (optional), then `M` arcs `u v`, all
/// 1-based and separated by any white space; `#` starts a comment that runs to the end of
/// the line. The start vertex is the number after `M` when it stands on the line of `M` or
/// alone on its line; otherwise there is none. Nothing but white space may follow the arcs.
///
/// # Errors
/// The first problem with its line and column: an empty input, a non-number, a number that
/// overflows, a vertex outside `1..=N`, fewer arcs than `M`, text after the last arc, or
/// more vertices than [`TextOptions::max_vertices`] allows.
///
/// # Complexity
/// O(size of input + N) work, parallel on the current rayon pool. Extra space: 8 bytes
/// per arc while the arcs are sorted by source, a few MiB of buffers.
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
/// // Without a start line.
/// assert_eq!(read_header("3 2\n1 2\n2 3\n".as_bytes()).unwrap().start, None);
/// ```
pub fn read_header(reader: impl Read) -> Result<GameFile, ReadError> {
    read_text(reader, Some(Format::Header), &TextOptions::default()).map(|(file, _)| file)
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
/// As for [`read_header`].
pub fn read_arc_list(reader: impl Read, n: Option<usize>) -> Result<Graph, ReadError> {
    let options = TextOptions::default();
    read_arcs(reader, n, &options).map(|file| file.graph)
}

/// Reads a text graph in `format` ([`Format::Header`] or [`Format::ArcList`]), or, for
/// `None`, in the format the text has: the header format when the second line that is not
/// blank or a comment holds one number (the start vertex) or when there is no line at
/// all; otherwise, when the first line holds two numbers `N M` followed by exactly `M` arcs
/// on vertices `1..=N`, the header format without a start vertex; when they are one mistake
/// away from that (`M - 1` or `M + 1` arcs on `1..=N`, or `M` arcs with one id above `N`),
/// a header with a mistake, refused; otherwise an arc list. Returns the graph and the
/// format it was read in.
///
/// # Errors
/// As for [`read_header`] and [`read_arc_list`]; a header with one mistake is refused with
/// [`ReadErrorKind::HeaderMistake`] (the header reader's error inside), an input that is
/// neither format with [`ReadErrorKind::Ambiguous`].
///
/// # Complexity
/// As for [`read_header`].
///
/// ```
/// use gamegraph_graph::format::{Format, TextOptions, read_text};
///
/// // A header without a start line, then exactly M = 3 arcs: no arc 3 -> 3 from the header.
/// let (file, format) = read_text("3 3\n1 2\n2 3\n3 1\n".as_bytes(), None, &TextOptions::default()).unwrap();
/// assert_eq!((format, file.graph.num_arcs(), file.start), (Format::Header, 3, None));
/// let (file, format) = read_text("3 3\n1 2\n4 1\n".as_bytes(), None, &TextOptions::default()).unwrap();
/// assert_eq!((format, file.graph.num_arcs()), (Format::ArcList, 3));
/// // One arc short of a header: refused, never read as the arc list 3 -> 3, 1 -> 2.
/// let e = read_text("3 3\n1 2\n2 3\n".as_bytes(), None, &TextOptions::default()).unwrap_err();
/// assert_eq!(e.position(), Some((4, 1)));
/// ```
pub fn read_text(
    reader: impl Read,
    format: Option<Format>,
    options: &TextOptions,
) -> Result<(GameFile, Format), ReadError> {
    let mut input = Input::new(reader, options);
    input.start()?;
    let plan = match format {
        Some(Format::ArcList) => Plan::Arcs,
        Some(_) => Plan::Header,
        None => loop {
            match classify(input.rest(), input.eof) {
                Some(plan) => break plan,
                None => input.more()?,
            }
        },
    };
    match plan {
        Plan::Header => header_file(&mut input).map(|f| (f, Format::Header)),
        Plan::Arcs => arcs_file(&mut input, None).map(|f| (f, Format::ArcList)),
        Plan::Ambiguous => ambiguous_file(&mut input),
    }
}

fn read_arcs(
    reader: impl Read,
    n: Option<usize>,
    options: &TextOptions,
) -> Result<GameFile, ReadError> {
    let mut input = Input::new(reader, options);
    input.start()?;
    arcs_file(&mut input, n)
}

/// How to read a text whose format was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    Header,
    Arcs,
    /// `N M` on the first line: decided by what follows.
    Ambiguous,
}

/// The plan for a text from its first two content lines; `None` when `head` ends before
/// they do and more input follows.
pub(super) fn classify(head: &[u8], eof: bool) -> Option<Plan> {
    let mut counts = [0usize; 2];
    let mut lines = 0;
    let mut i = 0;
    let mut tokens = 0;
    while lines < 2 {
        if i == head.len() {
            if !eof {
                return None;
            }
            if tokens > 0 {
                counts[lines] = tokens;
            }
            break;
        }
        match head[i] {
            b'\n' => {
                if tokens > 0 {
                    counts[lines] = tokens;
                    lines += 1;
                    tokens = 0;
                }
                i += 1;
            }
            b'#' => i += memchr(b'\n', &head[i..]).unwrap_or(head.len() - i),
            b if is_space(b) => i += 1,
            _ => {
                tokens += 1;
                while i < head.len() && !is_space(head[i]) && head[i] != b'#' {
                    i += 1;
                }
            }
        }
    }
    Some(match counts {
        [0, _] | [_, 1] => Plan::Header,
        [2, _] => Plan::Ambiguous,
        _ => Plan::Arcs,
    })
}

/// The input, read in windows; `buf[pos..]` is what is not consumed yet.
struct Input<'o, R> {
    reader: R,
    options: &'o TextOptions,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    /// Bytes read so far.
    total: u64,
    /// Bytes per window.
    window: usize,
}

impl<'o, R: Read> Input<'o, R> {
    fn new(reader: R, options: &'o TextOptions) -> Self {
        let chunk = options.chunk_bytes.max(1);
        let window = chunk.saturating_mul(4 * rayon::current_num_threads()).max(16);
        Input { reader, options, buf: Vec::new(), pos: 0, eof: false, total: 0, window }
    }

    /// Reads the first window and skips a byte order mark.
    fn start(&mut self) -> Result<(), ReadError> {
        let want = self.window;
        fill(&mut self.reader, &mut self.buf, want, &mut self.eof, &mut self.total)?;
        while self.buf.len() < BOM.len() && !self.eof {
            self.more()?;
        }
        if self.buf.starts_with(BOM) {
            self.pos = BOM.len();
        }
        Ok(())
    }

    fn rest(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads at least one more window (`buf` grows).
    fn more(&mut self) -> Result<(), ReadError> {
        let want = self.buf.len() + self.window.max(self.buf.len());
        fill(&mut self.reader, &mut self.buf, want, &mut self.eof, &mut self.total)
    }

    /// The vertex limit for everything read.
    fn vertex_limit(&self) -> u64 {
        self.options.max_vertices.unwrap_or(FREE_VERTICES + self.total)
    }
}

/// Appends to `buf` until it holds `want` bytes or the input ends.
fn fill(
    reader: &mut impl Read,
    buf: &mut Vec<u8>,
    want: usize,
    eof: &mut bool,
    total: &mut u64,
) -> Result<(), ReadError> {
    if *eof {
        return Ok(());
    }
    // `read_to_end` reads into the spare capacity without zeroing it first.
    let need = want.saturating_sub(buf.len());
    buf.reserve(need);
    match (&mut *reader).take(need as u64).read_to_end(buf) {
        Ok(k) => {
            *total += k as u64;
            *eof = k < need;
        }
        Err(e) => return Err(ReadError::new(ReadErrorKind::Io(e.to_string()))),
    }
    Ok(())
}

/// A position: 1-based line and column.
type Pos = (u64, u64);

/// The header's tokens, read on one thread from the start of the text.
struct Head {
    n: u64,
    n_pos: Pos,
    m: u64,
    start: Option<u32>,
    /// Where the arcs begin: the index after the header in the text, and its position.
    end: usize,
    end_pos: Pos,
}

/// A cursor over the start of the text, for the header.
struct Cursor<'a> {
    bytes: &'a [u8],
    eof: bool,
    i: usize,
    line: u64,
    line_start: usize,
}

/// Why the header could not be read yet.
enum HeadStop {
    /// The text seen so far ends inside the header: read more.
    More,
    Error(ReadError),
}

impl From<ReadError> for HeadStop {
    fn from(e: ReadError) -> Self {
        HeadStop::Error(e)
    }
}

impl Cursor<'_> {
    fn pos(&self) -> Pos {
        (self.line, (self.i - self.line_start) as u64 + 1)
    }

    fn at_end(&self) -> Result<bool, HeadStop> {
        if self.i < self.bytes.len() {
            Ok(false)
        } else if self.eof {
            Ok(true)
        } else {
            Err(HeadStop::More)
        }
    }

    /// Skips white space (line breaks too when `lines`) and comments; the next byte.
    fn skip(&mut self, lines: bool) -> Result<Option<u8>, HeadStop> {
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
    fn number(&mut self, what: &str) -> Result<(u64, Pos), HeadStop> {
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
    fn char_at(&self, i: usize) -> Result<char, HeadStop> {
        if self.bytes.len() - i < 4 && !self.eof {
            return Err(HeadStop::More);
        }
        Ok(char_at(self.bytes, i))
    }

    /// How many tokens the line at the cursor holds (the cursor does not move).
    fn tokens_on_line(&self) -> Result<usize, HeadStop> {
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

fn expected(pos: Pos, what: &str, found: String) -> ReadError {
    ReadError::at(pos.0, pos.1, ReadErrorKind::Expected { expected: what.into(), found })
}

/// Reads `N M` and the start vertex from the start of `bytes`.
fn head(bytes: &[u8], eof: bool) -> Result<Head, HeadStop> {
    let mut c = Cursor { bytes, eof, i: 0, line: 1, line_start: 0 };
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
        Some(b) if b != b'\n' && b != b'#' => true,
        _ => match c.skip(true)? {
            None => false,
            Some(_) => c.tokens_on_line()? == 1,
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

/// What the arcs of a text hold once read.
struct Arcs {
    /// The ids of every chunk, in file order, each from its start index.
    chunks: Vec<(IdBuf, usize)>,
    ids: u64,
    max_id: u32,
    /// Where the input ends.
    end_pos: Pos,
}

/// Why reading the arcs stopped early.
enum ArcStop {
    /// The first problem, with its absolute position and the index of the id it concerns.
    Fault {
        problem: Problem,
        pos: Pos,
        token: u64,
    },
    /// More ids than expected: the first extra one, at `pos`.
    Extra {
        pos: Pos,
        found: String,
    },
    Error(ReadError),
}

/// Reads the rest of the input from `input.pos` (at `pos`) as arcs in `layout`, ids in
/// `1..=limit`. With `expect`, stops at the first id past that many.
fn read_arcs_body<R: Read>(
    input: &mut Input<'_, R>,
    mut pos: Pos,
    layout: Layout,
    limit: u64,
    expect: Option<u64>,
) -> Result<Arcs, ArcStop> {
    let chunk_bytes = input.options.chunk_bytes.max(1);
    let mut out = Arcs { chunks: Vec::new(), ids: 0, max_id: 0, end_pos: pos };
    loop {
        // The window: up to its last line break, unless the input ends.
        let cut = loop {
            let rest = &input.buf[input.pos..];
            if input.eof {
                break input.buf.len();
            }
            match rest.iter().rposition(|&b| b == b'\n') {
                Some(k) => break input.pos + k + 1,
                None => input.more().map_err(ArcStop::Error)?,
            }
        };
        let text = &input.buf[input.pos..cut];
        let mut pieces = Vec::with_capacity(text.len() / chunk_bytes + 1);
        let mut at = 0;
        while at < text.len() {
            let want = (at + chunk_bytes).min(text.len());
            let end = match memchr(b'\n', &text[want - 1..]) {
                Some(k) => want + k,
                None => text.len(),
            };
            pieces.push(&text[at..end]);
            at = end;
        }
        let first_column = pos.1;
        let mut next = Vec::new();
        let mut parsed: Vec<Chunk> = Vec::new();
        let mut read = Ok(());
        let eof = input.eof;
        let window = input.window;
        rayon::in_place_scope(|s| {
            let parsed = &mut parsed;
            let pieces = &pieces;
            s.spawn(move |_| {
                *parsed = pieces
                    .par_iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let column = if k == 0 { first_column } else { 1 };
                        chunk::parse(p, column, layout, limit)
                    })
                    .collect();
            });
            if !eof {
                next.reserve(window + (input.buf.len() - cut));
                next.extend_from_slice(&input.buf[cut..]);
                read = fill(&mut input.reader, &mut next, window, &mut input.eof, &mut input.total);
            }
        });
        // In file order: the first fault, or the first id past the expected count.
        for (k, c) in parsed.into_iter().enumerate() {
            let column = if k == 0 { first_column } else { 1 };
            let count = c.ids.len() as u64;
            if let Some(e) = expect
                && out.ids + count > e
            {
                let (line, col, i) = chunk::locate(pieces[k], column, e - out.ids);
                let (value, _) = number(pieces[k], i);
                let found = value.map_or_else(|| "a number".into(), |v| v.to_string());
                return Err(ArcStop::Extra { pos: (pos.0 + line, col), found });
            }
            if let Some(Fault { problem, line, column, token }) = c.fault {
                return Err(ArcStop::Fault {
                    problem,
                    pos: (pos.0 + line, column),
                    token: out.ids + token,
                });
            }
            out.ids += count;
            out.max_id = out.max_id.max(c.max_id);
            pos =
                if c.newlines > 0 { (pos.0 + c.newlines, c.tail + 1) } else { (pos.0, c.tail + 1) };
            if !c.ids.is_empty() {
                out.chunks.push((c.ids, 0));
            }
        }
        out.end_pos = pos;
        if eof {
            // Everything is parsed: the window's memory is better spent on the graph.
            input.buf = Vec::new();
            input.pos = 0;
            return Ok(out);
        }
        read.map_err(ArcStop::Error)?;
        input.buf = next;
        input.pos = 0;
    }
}

/// Reads a header-format text.
fn header_file<R: Read>(input: &mut Input<'_, R>) -> Result<GameFile, ReadError> {
    let h = loop {
        match head(input.rest(), input.eof) {
            Ok(h) => break h,
            Err(HeadStop::Error(e)) => return Err(e),
            Err(HeadStop::More) => input.more()?,
        }
    };
    input.pos += h.end;
    let (n, m) = (h.n, h.m);
    let expect = 2 * m;
    let what = |g: u64| {
        let side = if g.is_multiple_of(2) { "source" } else { "target" };
        format!("the {side} of arc {} of {m}", g / 2 + 1)
    };
    let arcs = match read_arcs_body(input, h.end_pos, Layout::Stream, n, Some(expect)) {
        Ok(arcs) => arcs,
        Err(ArcStop::Error(e)) => return Err(e),
        Err(ArcStop::Extra { pos, found }) => return Err(trailing(pos, &found, m)),
        Err(ArcStop::Fault { problem, pos, token }) if token == expect => {
            return Err(match problem {
                Problem::OutOfRange(v) => trailing(pos, &v.to_string(), m),
                Problem::NotANumber(c) => trailing(pos, &quote(c), m),
                p => fault_error(p, pos, "a token", n),
            });
        }
        Err(ArcStop::Fault { problem, pos, token }) => {
            return Err(fault_error(problem, pos, &what(token), n));
        }
    };
    if arcs.ids < expect {
        return Err(expected(arcs.end_pos, &what(arcs.ids), "end of input".into()));
    }
    check_vertices(input, n, Some(h.n_pos))?;
    let graph = assemble(n as usize, align(arcs.chunks), m as usize);
    Ok(GameFile { graph, start: h.start.map(Vertex) })
}

fn trailing(pos: Pos, found: &str, m: u64) -> ReadError {
    ReadError::at(
        pos.0,
        pos.1,
        ReadErrorKind::TrailingInput { found: format!("{found} after the {m} arcs") },
    )
}

/// The error for a chunk's problem with `what` it concerns (ids in `1..=n`).
fn fault_error(problem: Problem, pos: Pos, what: &str, n: u64) -> ReadError {
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
fn arc_list_what(g: u64) -> &'static str {
    if g.is_multiple_of(2) { "the source vertex of an arc" } else { "the target vertex of an arc" }
}

/// Reads an arc-list text from the cursor of `input`.
fn arcs_file<R: Read>(input: &mut Input<'_, R>, n: Option<usize>) -> Result<GameFile, ReadError> {
    let limit =
        n.map_or(Vertex::MAX_VERTICES as u64, |n| (n as u64).min(Vertex::MAX_VERTICES as u64));
    let arcs = match read_arcs_body(input, (1, 1), Layout::Lines, limit, None) {
        Ok(arcs) => arcs,
        Err(ArcStop::Fault { problem, pos, token }) => {
            return Err(fault_error(problem, pos, arc_list_what(token), limit));
        }
        Err(ArcStop::Error(e)) => return Err(e),
        Err(ArcStop::Extra { .. }) => unreachable!("no count is expected of an arc list"),
    };
    let n = match n {
        Some(n) => n as u64,
        None => {
            check_vertices(input, u64::from(arcs.max_id), None)?;
            u64::from(arcs.max_id)
        }
    };
    let m = (arcs.ids / 2) as usize;
    Ok(GameFile { graph: assemble(n as usize, arcs.chunks, m), start: None })
}

/// Reads a text whose first line is `N M`: the header format without a start vertex when
/// exactly `M` arcs on `1..=N` follow, otherwise an arc list whose first arc is that line.
fn ambiguous_file<R: Read>(input: &mut Input<'_, R>) -> Result<(GameFile, Format), ReadError> {
    let first = loop {
        let mut c = Cursor { bytes: input.rest(), eof: input.eof, i: 0, line: 1, line_start: 0 };
        let pair = (|| {
            let a = c.number("the source vertex of an arc")?;
            let b = c.number("the target vertex of an arc")?;
            Ok::<_, HeadStop>((a, b, c.i, c.pos()))
        })();
        match pair {
            Ok(p) => break Some(p),
            Err(HeadStop::More) => input.more()?,
            Err(HeadStop::Error(_)) => break None,
        }
    };
    let Some(((a, a_pos), (b, b_pos), end, end_pos)) = first else {
        // Not two numbers: the arc list's reader names the problem.
        return arcs_file(input, None).map(|f| (f, Format::ArcList));
    };
    // When the input ended in the first windows it is kept (a few MiB at most), so that a
    // header with one mistake can be read again as a header, for that format's error.
    let whole = input.eof.then(|| input.buf.clone());
    input.pos += end;
    let max = Vertex::MAX_VERTICES as u64;
    let arcs = match read_arcs_body(input, end_pos, Layout::Lines, max, None) {
        Ok(arcs) => arcs,
        Err(ArcStop::Fault { problem, pos, token }) => {
            return Err(fault_error(problem, pos, arc_list_what(token), max));
        }
        Err(ArcStop::Error(e)) => return Err(e),
        Err(ArcStop::Extra { .. }) => unreachable!("no count is expected here"),
    };
    let m = arcs.ids / 2;
    if m == b && u64::from(arcs.max_id) <= a && a <= max {
        check_vertices(input, a, Some(a_pos))?;
        let graph = assemble(a as usize, arcs.chunks, m as usize);
        return Ok((GameFile { graph, start: None }, Format::Header));
    }
    if a <= max && near_header(a, b, m, u64::from(arcs.max_id), &arcs.chunks) {
        return Err(header_mistake(input, whole, a_pos, m, b));
    }
    for (v, pos) in [(a, a_pos), (b, b_pos)] {
        if v == 0 || v > max {
            return Err(ReadError::at(
                a_pos.0,
                a_pos.1,
                ReadErrorKind::Ambiguous {
                    first: format!("{a} {b}"),
                    arcs: m,
                    reason: if v == 0 {
                        format!("vertex ids start at 1 (column {})", pos.1)
                    } else {
                        format!("vertex {v} is more than {max}")
                    },
                },
            ));
        }
    }
    let n = u64::from(arcs.max_id).max(a).max(b);
    check_vertices(input, n, None)?;
    let mut first = IdBuf::with_capacity(2);
    first.push((a - 1) as u32);
    first.push((b - 1) as u32);
    let mut chunks = arcs.chunks;
    chunks.insert(0, (first, 0));
    let graph = assemble(n as usize, chunks, m as usize + 1);
    Ok((GameFile { graph, start: None }, Format::ArcList))
}

/// Whether a first line `N M` and the `m` arcs after it are one mistake away from the
/// header format: one arc more or fewer than `M` on `1..=N`, or `M` arcs with exactly one
/// id above `N`. Such a text is a header with a mistake, not an arc list.
fn near_header(n: u64, count: u64, m: u64, max_id: u64, chunks: &[(IdBuf, usize)]) -> bool {
    if max_id <= n {
        return m.abs_diff(count) == 1;
    }
    m == count
        && chunks
            .iter()
            .map(|(ids, skip)| ids[*skip..].iter().filter(|&&id| u64::from(id) >= n).count())
            .sum::<usize>()
            == 1
}

/// The error for a header with one mistake: the header reader's own, read again from the
/// buffer when it holds the whole input; otherwise at the first line, saying what is wrong.
fn header_mistake<R: Read>(
    input: &Input<'_, R>,
    whole: Option<Vec<u8>>,
    first: Pos,
    m: u64,
    count: u64,
) -> ReadError {
    let error = if let Some(bytes) = whole {
        let mut again = Input::new(&bytes[..], input.options);
        match again.start().and_then(|()| header_file(&mut again)) {
            Err(e) => e,
            // Not reached: the text is not a header; the count tells why.
            Ok(_) => ReadError::at(first.0, first.1, count_mismatch(m, count)),
        }
    } else {
        ReadError::at(first.0, first.1, count_mismatch(m, count))
    };
    ReadError { kind: ReadErrorKind::HeaderMistake { error: Box::new(error.kind) }, ..error }
}

/// What is wrong with a header followed by `m` arcs instead of `count` (or by one id out of
/// range when they are equal).
fn count_mismatch(m: u64, count: u64) -> ReadErrorKind {
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
fn check_vertices<R: Read>(
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

/// Pairs ids across chunk boundaries: a chunk that ends with a source gives it the first
/// id of the next chunk that has one, so every chunk holds whole arcs.
fn align(mut chunks: Vec<(IdBuf, usize)>) -> Vec<(IdBuf, usize)> {
    let mut open: Option<usize> = None;
    for j in 0..chunks.len() {
        if let Some(k) = open
            && chunks[j].0.len() > chunks[j].1
        {
            let id = chunks[j].0[chunks[j].1];
            chunks[j].1 += 1;
            chunks[k].0.push(id);
            open = None;
        }
        if (chunks[j].0.len() - chunks[j].1) % 2 == 1 {
            open = Some(j);
        }
    }
    debug_assert!(open.is_none());
    chunks
}

/// The arcs of a run of chunks: a part of the successor CSR, keyed by source. Draining it
/// frees each chunk once walked.
struct ChunkArcs(Vec<(IdBuf, usize)>);

impl crate::transpose::Part for ChunkArcs {
    #[inline]
    fn visit(&self, mut f: impl FnMut(u32, u32)) {
        for (ids, from) in &self.0 {
            for arc in ids[*from..].chunks_exact(2) {
                f(arc[0], arc[1]);
            }
        }
    }

    fn drain(self, mut f: impl FnMut(u32, u32)) {
        for (ids, from) in self.0 {
            for arc in ids[from..].chunks_exact(2) {
                f(arc[0], arc[1]);
            }
        }
    }
}

/// The CSR graph on `n` vertices of the `m` arcs held in `chunks` (ids below `n`).
fn assemble(n: usize, chunks: Vec<(IdBuf, usize)>, m: usize) -> Graph {
    let chunks = match assemble_in_order(n, chunks, m) {
        Ok(graph) => return graph,
        Err(chunks) => chunks,
    };
    assemble_by_sorting(n, chunks, m)
}

/// The source of the first and of the last arc of a chunk, when it holds any.
fn source_span((ids, from): &(IdBuf, usize)) -> Option<(u32, u32)> {
    let arcs = &ids[*from..];
    (arcs.len() >= 2).then(|| (arcs[0], arcs[arcs.len() - arcs.len() % 2 - 2]))
}

/// The CSR graph when the arcs already come in order of source, as in every file written
/// by source: the targets are then the ids in file order, and the offsets are where the
/// source changes, so each chunk is copied once, in parallel, and freed. Gives the chunks
/// back when the arcs are out of order.
fn assemble_in_order(
    n: usize,
    mut chunks: Vec<(IdBuf, usize)>,
    m: usize,
) -> Result<Graph, Vec<(IdBuf, usize)>> {
    let in_order = chunks
        .par_iter()
        .all(|(ids, from)| ids[*from..].chunks_exact(2).map(|arc| arc[0]).is_sorted())
        && chunks.iter().filter_map(source_span).is_sorted_by(|a, b| a.1 <= b.0);
    if !in_order {
        return Err(chunks);
    }
    // Chunk k writes the targets of its arcs, and the offsets of the sources after the
    // previous chunk's last source up to its own last one.
    let mut offsets = vec![0u64; n + 1];
    let mut targets = vec![Vertex(0); m];
    let mut tasks = Vec::with_capacity(chunks.len());
    let (mut offsets_rest, mut targets_rest) = (&mut offsets[..], &mut targets[..]);
    let (mut written_to, mut arc) = (0usize, 0u64);
    let mut previous: Option<u32> = None;
    for chunk in chunks.drain(..) {
        let count = (chunk.0.len() - chunk.1) / 2;
        let span = source_span(&chunk);
        let last = span.map_or(written_to, |(_, last)| last as usize + 1);
        let (here, tail) = offsets_rest.split_at_mut(last - written_to);
        let (out, targets_tail) = targets_rest.split_at_mut(count);
        tasks.push((chunk, here, out, arc, previous));
        (offsets_rest, targets_rest) = (tail, targets_tail);
        previous = span.map_or(previous, |(_, last)| Some(last));
        written_to = last;
        arc += count as u64;
    }
    offsets_rest.fill(m as u64);
    tasks.into_par_iter().for_each(|((ids, from), offsets, targets, first, previous)| {
        // `offsets` starts at the source after `previous`.
        let base = previous.map_or(0, |p| p as usize + 1);
        let mut next = base;
        for (k, (arc, t)) in ids[from..].chunks_exact(2).zip(targets.iter_mut()).enumerate() {
            let s = arc[0] as usize;
            if s >= next {
                offsets[next - base..=s - base].fill(first + k as u64);
                next = s + 1;
            }
            *t = Vertex(arc[1]);
        }
        drop(ids);
    });
    Ok(Graph::from_csr_trusted(offsets, targets))
}

/// The CSR graph of arcs in any order: a radix sort by source on large inputs, a
/// counting sort on small ones.
fn assemble_by_sorting(n: usize, mut chunks: Vec<(IdBuf, usize)>, m: usize) -> Graph {
    if m >= RADIX_FROM && m < u32::MAX as usize {
        // One part per thread, with about the same number of arcs.
        let parts = rayon::current_num_threads().clamp(1, 64);
        let mut split = vec![ChunkArcs(Vec::new())];
        let mut seen = 0;
        for (ids, from) in chunks {
            seen += (ids.len() - from) / 2;
            split.last_mut().expect("never empty").0.push((ids, from));
            if seen * parts >= m * split.len() && split.len() < parts {
                split.push(ChunkArcs(Vec::new()));
            }
        }
        let (offsets, targets) = crate::transpose::group(n, m, split);
        return Graph::from_csr_trusted(offsets, targets);
    }
    // A counting sort. The offsets first hold where each source's run ends; the arcs are
    // then placed from the last one back, each chunk freed once placed, which leaves the
    // offsets at the runs' starts and never holds the ids and the targets whole together.
    let mut offsets = vec![0u64; n + 1];
    for (ids, from) in &chunks {
        for arc in ids[*from..].chunks_exact(2) {
            offsets[arc[0] as usize] += 1;
        }
    }
    let mut end = 0;
    for o in &mut offsets[..n] {
        end += *o;
        *o = end;
    }
    offsets[n] = end;
    let mut targets = vec![Vertex(0); m];
    while let Some((ids, from)) = chunks.pop() {
        for arc in ids[from..].chunks_exact(2).rev() {
            let o = &mut offsets[arc[0] as usize];
            *o -= 1;
            targets[*o as usize] = Vertex(arc[1]);
        }
    }
    Graph::from_csr_trusted(offsets, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (String, Option<(u64, u64)>) {
        let e = read_header(text.as_bytes()).unwrap_err();
        (e.to_string(), e.position())
    }

    #[test]
    fn reads_the_example_graph() {
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
    fn the_start_vertex_is_optional() {
        let with = read_header("3 2 1\n1 2 2 3\n".as_bytes()).unwrap();
        assert_eq!((with.start, with.graph.num_arcs()), (Some(Vertex(0)), 2));
        let without = read_header("3 2\n1 2\n2 3\n".as_bytes()).unwrap();
        assert_eq!((without.start, without.graph.num_arcs()), (None, 2));
        assert_eq!(read_header("3 0\n".as_bytes()).unwrap().graph.num_vertices(), 3);
    }

    #[test]
    fn unsorted_sources_are_sorted_stably() {
        let text = "4 6\n1\n3 1\n1 2\n3 4\n1 3\n2 2\n4 1\n";
        let fast = read_header(text.as_bytes()).unwrap();
        let slow = reference::read_header(text.as_bytes()).unwrap();
        assert_eq!(fast, slow);
        assert_eq!(fast.graph.successors(Vertex(2)), &[Vertex(0), Vertex(3)]);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let f = read_header("\u{feff}3 1\n1\n1 2\n".as_bytes()).unwrap();
        assert_eq!(f.graph.num_arcs(), 1);
        let e = read_header("\u{feff}3 1\n1\n1 x\n".as_bytes()).unwrap_err();
        assert_eq!(e.position(), Some((3, 3)));
    }

    #[test]
    fn the_vertex_count_is_bounded_by_the_input() {
        let e = read_header("1000000000 3\n1\n1 2\n2 3\n3 1\n".as_bytes()).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::TooManyVertices { n: 1_000_000_000, .. }), "{e}");
        assert_eq!(e.position(), Some((1, 1)));
        let e = read_arc_list("1 4294967295\n".as_bytes(), None).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::TooManyVertices { .. }), "{e}");
        let options = TextOptions { max_vertices: Some(1 << 30), ..TextOptions::default() };
        let (f, _) = read_text("1000000 0\n".as_bytes(), None, &options).unwrap();
        assert_eq!(f.graph.num_vertices(), 1_000_000);
    }

    #[test]
    fn detection_of_the_header_without_a_start() {
        let auto = |t: &str| read_text(t.as_bytes(), None, &TextOptions::default());
        let (f, format) = auto("3 3\n1 2\n2 3\n3 1\n").unwrap();
        assert_eq!((format, f.graph.num_vertices(), f.graph.num_arcs()), (Format::Header, 3, 3));
        let (f, format) = auto("3 0\n").unwrap();
        assert_eq!((format, f.graph.num_vertices(), f.graph.num_arcs()), (Format::Header, 3, 0));
        // Not M arcs after the first line, or an id above N: an arc list.
        let (f, format) = auto("1 2\n2 3\n").unwrap();
        assert_eq!((format, f.graph.num_arcs()), (Format::ArcList, 2));
        let (f, format) = auto("2 1\n2 3\n1 3\n").unwrap();
        assert_eq!((format, f.graph.num_arcs()), (Format::ArcList, 3));
        // One arc missing, one too many, or one id above N: a header with a mistake.
        for (text, at, message) in [
            (
                "5 5\n1 2\n2 3\n3 1\n1 4\n",
                (6, 1),
                "expected the source of arc 5 of 5, found end of input",
            ),
            ("3 2\n1 2\n2 5\n", (3, 3), "vertex 5 is outside 1..3"),
            ("2 1\n2 3\n", (2, 3), "vertex 3 is outside 1..2"),
            ("3 1\n1 2\n2 3\n", (3, 1), "expected end of input"),
        ] {
            let e = auto(text).unwrap_err();
            assert!(matches!(e.kind, ReadErrorKind::HeaderMistake { .. }), "{text:?}: {e}");
            assert_eq!(e.position(), Some(at), "{text:?}: {e}");
            assert!(e.to_string().starts_with(message), "{text:?}: {e}");
            assert!(e.to_string().contains("--format arcs"), "{text:?}: {e}");
        }
        let e = auto("3 0\n1 2\n2 3\n").unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Ambiguous { .. }), "{e}");
        assert!(e.to_string().contains("--format"), "{e}");
    }

    /// A reader that hands out at most `step` bytes per call, to exercise every refill.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let k = self.step.min(buf.len()).min(self.data.len());
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
            1 => Just("\u{feff}".to_owned()),
            1 => prop::sample::select(vec!["x", "-", "é", "+1", "3a", "\u{fffd}"]).prop_map(str::to_owned),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    /// A valid header text (with or without its start line), possibly damaged in one place.
    fn headerish_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (
            1u64..8,
            prop::collection::vec((1u64..9, 1u64..9), 0..12),
            0usize..40,
            any::<u8>(),
            any::<bool>(),
        )
            .prop_map(|(n, arcs, cut, byte, start)| {
                let mut s = format!("{n} {}\n", arcs.len());
                if start {
                    s.push_str("1\n");
                }
                for (k, (u, v)) in arcs.iter().enumerate() {
                    let sep = if k % 3 == 2 {
                        "\r\n"
                    } else if k % 5 == 4 {
                        " "
                    } else {
                        "\n"
                    };
                    s.push_str(&format!("{u}\t{v}{sep}"));
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

    /// The parallel reader on pools of 1 to 3 threads and several chunk sizes gives the
    /// reference's graph, or its error at its position.
    fn same_as_reference(text: &str, step: usize) {
        let slow = reference::read_header(text.as_bytes());
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for chunk_bytes in [1, 3, 8, 64, 1 << 20] {
                let options = TextOptions { chunk_bytes, ..TextOptions::default() };
                let data = Trickle { data: text.as_bytes(), step };
                let fast = pool.install(|| read_text(data, Some(Format::Header), &options));
                match (&fast, &slow) {
                    (Ok((a, _)), Ok(b)) => assert_eq!(a, b, "{text:?}"),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "{text:?} chunk {chunk_bytes}");
                        assert_eq!(a.position(), b.position(), "{text:?} chunk {chunk_bytes}");
                    }
                    _ => panic!("{text:?}: parallel {fast:?}, reference {slow:?}"),
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        #[test]
        fn header_reader_matches_the_reference_on_noise(text in noisy_text(), step in 1usize..9) {
            same_as_reference(&text, step);
        }

        #[test]
        fn header_reader_matches_the_reference_on_damaged_headers(text in headerish_text(), step in 1usize..9) {
            same_as_reference(&text, step);
        }

        #[test]
        fn arcs_in_order_of_source_are_read_like_any_others(
            mut arcs in proptest::collection::vec((1u32..30, 1u32..30), 0..60),
            extra in 0u32..4,
            separators in proptest::collection::vec(proptest::sample::select(vec![" ", "\n", " # c\n"]), 60),
            step in 1usize..9,
        ) {
            // Stable: the targets of a source keep their order, which the graph keeps too.
            arcs.sort_by_key(|a| a.0);
            let n = arcs.iter().map(|a| a.0.max(a.1)).max().unwrap_or(1) + extra;
            let mut text = format!("{n} {}\n1\n", arcs.len());
            for ((u, v), sep) in arcs.iter().zip(&separators) {
                text += &format!("{u} {v}{sep}");
            }
            same_as_reference(&text, step);
        }

        #[test]
        fn arc_list_reader_matches_the_reference_on_valid_lists(
            arcs in proptest::collection::vec((1u32..20, 1u32..20), 0..30),
            step in 1usize..9,
            chunk_bytes in 1usize..20,
        ) {
            let text: String = arcs.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
            let options = TextOptions { chunk_bytes, ..TextOptions::default() };
            let slow = reference::read_arc_list(text.as_bytes(), None).unwrap();
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let data = Trickle { data: text.as_bytes(), step };
                let (fast, _) = pool.install(|| read_text(data, Some(Format::ArcList), &options)).unwrap();
                proptest::prop_assert_eq!(&fast.graph, &slow);
            }
        }
    }
}
