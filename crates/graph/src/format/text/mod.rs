//! The text formats, read on every thread of the current rayon pool.
//!
//! The input is read in windows of a few MiB ([`window`]); each window is cut after its
//! last line break and split into chunks of whole lines ([`ReadOptions::chunk_bytes`](super::ReadOptions::chunk_bytes)),
//! which are tokenized in parallel into arrays of vertex ids while the next window is read
//! ([`body`], [`chunk`]). The header (`N M` and the start vertex) is read first, on one
//! thread ([`header`]). Positions are kept relative to each chunk (lines, token indices) and
//! made absolute in file order, so the graph and every error ([`errors`]) — the first
//! problem in file order, with its line and column — are the same for any number of threads
//! and any chunk size. The CSR arrays are then built by [`from_chunks`].

mod body;
pub(crate) mod chunk;
mod errors;
mod header;
#[cfg(test)]
pub(crate) mod reference;
mod section;
#[cfg(test)]
mod tests;
pub(crate) mod window;

use std::io::Read;

use self::body::{ArcStop, align, read_arcs_body};
use self::chunk::{Layout, Pos, Problem, quote};
use self::errors::{arc_list_what, check_vertices, count_mismatch, fault_error, trailing};
use self::header::{Cursor, HeadStop, expected, head};
use self::section::read_section;
use self::window::Input;
use super::detect::Plan;
use super::{Format, GameFile};
use crate::assemble::from_chunks;
use crate::map::IdBuf;
use crate::{ReadError, ReadErrorKind, Vertex};

/// Reads the text of `input` (its first window read, a byte order mark skipped) as `plan`
/// says: [`Plan::Header`], [`Plan::Arcs`] (with [`ReadOptions::vertices`](super::ReadOptions::vertices) when given), or
/// [`Plan::Ambiguous`]: the header format without a start vertex when exactly `M` arcs on
/// `1..=N` follow the first line `N M`; when they are one mistake away from that (`M - 1`
/// or `M + 1` arcs on `1..=N`, or `M` arcs with one id above `N`), a header with a mistake,
/// refused; otherwise an arc list. Returns the graph and the format it was read in.
pub(crate) fn read_text<R: Read>(
    input: &mut Input<'_, R>,
    plan: Plan,
) -> Result<(GameFile, Format), ReadError> {
    match plan {
        Plan::Header | Plan::Binary => header_file(input).map(|f| (f, Format::Header)),
        Plan::Arcs => {
            let n = input.options.vertices;
            arcs_file(input, n).map(|f| (f, Format::ArcList))
        }
        Plan::Ambiguous => ambiguous_file(input),
    }
}

/// Reads a header-format text.
pub(super) fn header_file<R: Read>(input: &mut Input<'_, R>) -> Result<GameFile, ReadError> {
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
    let mut section = None;
    let arcs = match read_arcs_body(input, h.end_pos, Layout::Stream, n, Some(expect), true) {
        Ok(arcs) => arcs,
        Err(ArcStop::Section { arcs, pos, rest }) => {
            if arcs.ids < expect {
                return Err(expected(pos, &what(arcs.ids), "the terminal values".into()));
            }
            section = Some((pos, rest));
            arcs
        }
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
    let graph = from_chunks(n as usize, align(arcs.chunks), m as usize);
    finish_file(graph, h.start.map(Vertex), section)
}

/// The file of a header-format graph, with its terminal values read from `section` (the
/// keyword's position and the rest of the input from it on) when there is one.
fn finish_file(
    graph: crate::Graph,
    start: Option<Vertex>,
    section: Option<(Pos, Vec<u8>)>,
) -> Result<GameFile, ReadError> {
    let terminal = match section {
        Some((pos, rest)) => Some(read_section(&rest, pos, &graph)?),
        None => None,
    };
    Ok(GameFile { graph, start, terminal })
}

/// Reads an arc-list text from the cursor of `input`.
fn arcs_file<R: Read>(input: &mut Input<'_, R>, n: Option<usize>) -> Result<GameFile, ReadError> {
    let limit =
        n.map_or(Vertex::MAX_VERTICES as u64, |n| (n as u64).min(Vertex::MAX_VERTICES as u64));
    let arcs = match read_arcs_body(input, (1, 1), Layout::Lines, limit, None, false) {
        Ok(arcs) => arcs,
        Err(ArcStop::Fault { problem, pos, token }) => {
            return Err(fault_error(problem, pos, arc_list_what(token), limit));
        }
        Err(ArcStop::Error(e)) => return Err(e),
        Err(ArcStop::Extra { .. }) => unreachable!("no count is expected of an arc list"),
        Err(ArcStop::Section { .. }) => unreachable!("an arc list has no terminal values"),
    };
    let n = match n {
        Some(n) => n as u64,
        None => {
            check_vertices(input, u64::from(arcs.max_id), Some(arcs.max_at))?;
            u64::from(arcs.max_id)
        }
    };
    let m = (arcs.ids / 2) as usize;
    Ok(GameFile { graph: from_chunks(n as usize, arcs.chunks, m), start: None, terminal: None })
}

/// Reads a text whose first line is `N M`: the header format without a start vertex when
/// exactly `M` arcs on `1..=N` follow, otherwise an arc list whose first arc is that line.
fn ambiguous_file<R: Read>(input: &mut Input<'_, R>) -> Result<(GameFile, Format), ReadError> {
    let first = loop {
        let mut c = Cursor::new(input.rest(), input.eof);
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
    let whole = input.eof.then(|| input.buf.to_vec());
    input.pos += end;
    let max = Vertex::MAX_VERTICES as u64;
    let arcs = match read_arcs_body(input, end_pos, Layout::Lines, max, None, true) {
        Ok(arcs) => arcs,
        Err(ArcStop::Section { arcs, pos, rest }) => {
            // Only the header format has terminal values: the first line is `N M`.
            if a > max {
                let kind = ReadErrorKind::Overflow { what: "N".into() };
                return Err(ReadError::at(a_pos.0, a_pos.1, kind));
            }
            let m = arcs.ids / 2;
            if m != b {
                return Err(ReadError::at(
                    pos.0,
                    pos.1,
                    ReadErrorKind::Expected {
                        expected: format!("the terminal values after the {b} arcs of the header"),
                        found: format!("them after {m} arc{}", if m == 1 { "" } else { "s" }),
                    },
                ));
            }
            if u64::from(arcs.max_id) > a {
                let (line, column) = arcs.max_at;
                let vertex = u64::from(arcs.max_id);
                return Err(ReadError::at(
                    line,
                    column,
                    ReadErrorKind::VertexOutOfRange { vertex, n: a },
                ));
            }
            check_vertices(input, a, Some(a_pos))?;
            let graph = from_chunks(a as usize, arcs.chunks, m as usize);
            return finish_file(graph, None, Some((pos, rest))).map(|f| (f, Format::Header));
        }
        Err(ArcStop::Fault { problem, pos, token }) => {
            return Err(fault_error(problem, pos, arc_list_what(token), max));
        }
        Err(ArcStop::Error(e)) => return Err(e),
        Err(ArcStop::Extra { .. }) => unreachable!("no count is expected here"),
    };
    let m = arcs.ids / 2;
    if m == b && u64::from(arcs.max_id) <= a && a <= max {
        check_vertices(input, a, Some(a_pos))?;
        let graph = from_chunks(a as usize, arcs.chunks, m as usize);
        return Ok((GameFile { graph, start: None, terminal: None }, Format::Header));
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
    // The largest id, at its first place in the file.
    let (n, at) = [(a, a_pos), (b, b_pos), (u64::from(arcs.max_id), arcs.max_at)]
        .into_iter()
        .fold((0, a_pos), |best, (v, pos)| if v > best.0 { (v, pos) } else { best });
    check_vertices(input, n, Some(at))?;
    let mut first = IdBuf::with_capacity(2);
    first.push((a - 1) as u32);
    first.push((b - 1) as u32);
    let mut chunks = arcs.chunks;
    chunks.insert(0, (first, 0));
    let graph = from_chunks(n as usize, chunks, m as usize + 1);
    Ok((GameFile { graph, start: None, terminal: None }, Format::ArcList))
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
        let read = again.start(again.window).and_then(|()| {
            again.skip_bom();
            header_file(&mut again)
        });
        match read {
            Err(e) => e,
            // Not reached: the text is not a header; the count tells why.
            Ok(_) => ReadError::at(first.0, first.1, count_mismatch(m, count)),
        }
    } else {
        ReadError::at(first.0, first.1, count_mismatch(m, count))
    };
    ReadError { kind: ReadErrorKind::HeaderMistake { error: Box::new(error.kind) }, ..error }
}
