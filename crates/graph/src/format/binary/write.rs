//! Writing the binary format.

use std::io::{self, Write};

use super::{
    CHUNK, FLAG_PREDECESSORS, FLAG_START, FLAG_TERMINALS, HEADER_LEN, MAGIC, Sum, VERSION,
};
use crate::format::write::check_terminals;
use crate::format::{GameFile, Terminals};
use crate::{Graph, Vertex};

/// Writes `g` (and `start`, if any) in the binary format, version [`VERSION`].
///
/// # Errors
/// Any error of `w`.
///
/// # Complexity
/// O(n + m) time, O(1) extra space (a 1 MiB staging buffer).
pub fn write_binary(w: impl Write, g: &Graph, start: Option<Vertex>) -> io::Result<()> {
    write_binary_version(w, g, start, VERSION)
}

/// [`write_binary`] in an older format `version` (1 or 2), for tools that must write files
/// older builds read.
///
/// # Errors
/// Any error of `w`; [`io::ErrorKind::InvalidInput`] for an unknown version or a start
/// vertex outside the graph.
///
/// # Complexity
/// O(n + m) time, O(1) extra space (a 1 MiB staging buffer).
pub fn write_binary_version(
    w: impl Write,
    g: &Graph,
    start: Option<Vertex>,
    version: u32,
) -> io::Result<()> {
    write_any(w, g, start, version, false, None)
}

/// [`write_binary`] with the predecessor index (see the [module docs](super)): readers
/// then take the predecessor lists from the file instead of building them, after checking
/// them against the successors.
///
/// # Errors
/// Any error of `w`; [`io::ErrorKind::InvalidInput`] for a start vertex outside the
/// graph.
///
/// # Complexity
/// O(n + m) time, plus building the predecessor lists if `g` has not yet; O(1) extra
/// space besides.
pub fn write_binary_with_predecessors(
    w: impl Write,
    g: &Graph,
    start: Option<Vertex>,
) -> io::Result<()> {
    write_any(w, g, start, VERSION, true, None)
}

/// Writes a whole [`GameFile`] in the binary format, version [`VERSION`]: the graph, its
/// start vertex, its terminal values when it has them (flag bit 2), and the predecessor
/// index when `predecessors` is set.
///
/// # Errors
/// Any error of `w`; [`io::ErrorKind::InvalidInput`] for a start vertex outside the graph
/// or terminal values that do not fit it.
///
/// # Complexity
/// O(n + m) time, O(1) extra space besides the predecessor lists (as
/// [`write_binary_with_predecessors`]).
pub fn write_game_binary(w: impl Write, file: &GameFile, predecessors: bool) -> io::Result<()> {
    write_any(w, &file.graph, file.start, VERSION, predecessors, file.terminal.as_ref())
}

/// [`write_game_binary`] of the parts of a file without the predecessor index.
pub(crate) fn write_parts_binary(
    w: impl Write,
    g: &Graph,
    start: Option<Vertex>,
    terminal: Option<&Terminals>,
) -> io::Result<()> {
    write_any(w, g, start, VERSION, false, terminal)
}

fn write_any(
    mut w: impl Write,
    g: &Graph,
    start: Option<Vertex>,
    version: u32,
    predecessors: bool,
    terminal: Option<&Terminals>,
) -> io::Result<()> {
    if let Some(t) = terminal {
        check_terminals(g, t)?;
    }
    if !(1..=VERSION).contains(&version) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("binary format version {version} does not exist (1 to {VERSION})"),
        ));
    }
    if let Some(s) = start
        && s.index() >= g.num_vertices()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("start vertex {} is outside 1..{}", s.one_based(), g.num_vertices()),
        ));
    }
    let (offsets, targets) = g.successor_csr();
    let mut sum = Sum::new(version);
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&version.to_le_bytes());
    let flags = if start.is_some() { FLAG_START } else { 0 }
        | if predecessors { FLAG_PREDECESSORS } else { 0 }
        | if terminal.is_some() { FLAG_TERMINALS } else { 0 };
    header.extend_from_slice(&flags.to_le_bytes());
    header.extend_from_slice(&(g.num_vertices() as u64).to_le_bytes());
    header.extend_from_slice(&(g.num_arcs() as u64).to_le_bytes());
    header.extend_from_slice(&start.map_or(0, |s| u64::from(s.0)).to_le_bytes());
    sum.update(&header);
    w.write_all(&header)?;
    let mut buf = Vec::with_capacity(CHUNK);
    write_csr(&mut w, &mut sum, &mut buf, offsets, targets)?;
    if predecessors {
        if g.num_arcs() % 2 == 1 {
            let pad = [0u8; 4];
            sum.update(&pad);
            w.write_all(&pad)?;
        }
        let (poff, pred) = g.predecessor_csr();
        write_csr(&mut w, &mut sum, &mut buf, poff, pred)?;
    }
    if let Some(t) = terminal {
        sum.update(t.bits());
        w.write_all(t.bits())?;
    }
    w.write_all(&sum.finish().to_le_bytes())
}

/// Writes CSR arrays little-endian through `buf`, adding them to `sum`.
fn write_csr(
    w: &mut impl Write,
    sum: &mut Sum,
    buf: &mut Vec<u8>,
    offsets: &[u64],
    targets: &[Vertex],
) -> io::Result<()> {
    for part in offsets.chunks(CHUNK / 8) {
        buf.clear();
        buf.extend(part.iter().flat_map(|x| x.to_le_bytes()));
        sum.update(buf);
        w.write_all(buf)?;
    }
    for part in targets.chunks(CHUNK / 4) {
        buf.clear();
        buf.extend(part.iter().flat_map(|t| t.0.to_le_bytes()));
        sum.update(buf);
        w.write_all(buf)?;
    }
    Ok(())
}
