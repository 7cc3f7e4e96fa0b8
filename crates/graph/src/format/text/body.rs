//! The arcs of a text, tokenized in parallel chunks of whole lines while the next window
//! is read, and put in file order with absolute positions.

use std::io::Read;

use rayon::prelude::*;

use super::chunk::{self, Chunk, Fault, Layout, Pos, Problem, at_keyword, memchr, number};
use super::window::{Input, fill};
use crate::ReadError;
use crate::map::IdBuf;

/// What the arcs of a text hold once read.
pub(super) struct Arcs {
    /// The ids of every chunk, in file order, each from its start index.
    pub(super) chunks: Vec<(IdBuf, usize)>,
    pub(super) ids: u64,
    pub(super) max_id: u32,
    /// Where the largest id is first seen.
    pub(super) max_at: Pos,
    /// Where the input ends.
    pub(super) end_pos: Pos,
}

/// Why reading the arcs stopped early.
pub(super) enum ArcStop {
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
    /// The keyword `terminal` where an arc could start: the arcs before it, its position,
    /// and the rest of the input from it on.
    Section {
        arcs: Arcs,
        pos: Pos,
        rest: Vec<u8>,
    },
    Error(ReadError),
}

/// Reads the rest of the input from `input.pos` (at `pos`) as arcs in `layout`, ids in
/// `1..=limit`. With `expect`, stops at the first id past that many. With `section`, stops
/// at the keyword `terminal` where an arc could start ([`ArcStop::Section`]).
pub(super) fn read_arcs_body<R: Read>(
    input: &mut Input<'_, R>,
    mut pos: Pos,
    layout: Layout,
    limit: u64,
    expect: Option<u64>,
    section: bool,
) -> Result<Arcs, ArcStop> {
    let chunk_bytes = input.options.chunk_bytes.max(1);
    let mut out = Arcs { chunks: Vec::new(), ids: 0, max_id: 0, max_at: pos, end_pos: pos };
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
        let mut starts = Vec::with_capacity(text.len() / chunk_bytes + 1);
        let mut at = 0;
        while at < text.len() {
            let want = (at + chunk_bytes).min(text.len());
            let end = match memchr(b'\n', &text[want - 1..]) {
                Some(k) => want + k,
                None => text.len(),
            };
            pieces.push(&text[at..end]);
            starts.push(at);
            at = end;
        }
        let first_column = pos.1;
        let mut next = std::mem::take(&mut input.spare);
        next.clear();
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
                next.reserve_total(window.max(input.buf.len() - cut));
                next.extend_from_slice(&input.buf[cut..]);
                read = fill(&mut input.reader, &mut next, window, &mut input.eof, &mut input.total);
            }
        });
        // In file order: the first fault, or the first id past the expected count.
        let mut keyword = None;
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
            // The keyword where an arc could start, also after an arc on its line (`1 2
            // terminal`): numbers are separated by any white space in the header format.
            if let Some(Fault { problem, line, column, token, byte }) = c.fault
                && section
                && matches!(problem, Problem::NotANumber('t') | Problem::ExtraToken('t'))
                && (out.ids + token).is_multiple_of(2)
                && at_keyword(&pieces[k][byte..])
            {
                out.ids += count;
                if c.max_id > out.max_id {
                    out.max_id = c.max_id;
                    out.max_at = (pos.0 + c.max_at.0, c.max_at.1);
                }
                if !c.ids.is_empty() {
                    out.chunks.push((c.ids, 0));
                }
                keyword = Some((starts[k] + byte, (pos.0 + line, column)));
                break;
            }
            if let Some(Fault { problem, line, column, token, .. }) = c.fault {
                return Err(ArcStop::Fault {
                    problem,
                    pos: (pos.0 + line, column),
                    token: out.ids + token,
                });
            }
            out.ids += count;
            if c.max_id > out.max_id {
                out.max_id = c.max_id;
                out.max_at = (pos.0 + c.max_at.0, c.max_at.1);
            }
            pos =
                if c.newlines > 0 { (pos.0 + c.newlines, c.tail + 1) } else { (pos.0, c.tail + 1) };
            if !c.ids.is_empty() {
                out.chunks.push((c.ids, 0));
            }
        }
        if let Some((byte, at)) = keyword {
            // The rest of the input, from the keyword on.
            let from = input.pos + byte;
            let mut rest = input.buf[from..cut].to_vec();
            if !eof {
                read.map_err(ArcStop::Error)?;
                rest.extend_from_slice(&next);
                drop(next);
                let before = rest.len();
                input.reader.read_to_end(&mut rest).map_err(|e| ArcStop::Error(e.into()))?;
                input.total += (rest.len() - before) as u64;
                input.eof = true;
            }
            input.drop_windows();
            out.end_pos = at;
            return Err(ArcStop::Section { arcs: out, pos: at, rest });
        }
        out.end_pos = pos;
        if eof {
            input.drop_windows();
            return Ok(out);
        }
        read.map_err(ArcStop::Error)?;
        input.spare = std::mem::replace(&mut input.buf, next);
        input.pos = 0;
    }
}

/// Pairs ids across chunk boundaries: a chunk that ends with a source gives it the first
/// id of the next chunk that has one, so every chunk holds whole arcs.
pub(super) fn align(mut chunks: Vec<(IdBuf, usize)>) -> Vec<(IdBuf, usize)> {
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
