//! Writers of the text formats and of Graphviz DOT.

use std::io::{self, Write};

use super::Terminals;
use crate::{Graph, Vertex};

/// Appends the decimal digits of `x` to `out`.
#[inline]
fn push_u64(out: &mut Vec<u8>, mut x: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&tmp[i..]);
}

/// Writes the arcs as `u v` lines (1-based) through a 64 KiB buffer.
fn write_arc_lines(w: &mut impl Write, g: &Graph, mut buf: Vec<u8>) -> io::Result<()> {
    const FLUSH: usize = 1 << 16;
    let (offsets, targets) = g.successor_csr();
    for u in 0..g.num_vertices() {
        let lo = offsets[u] as usize;
        let hi = offsets[u + 1] as usize;
        for t in &targets[lo..hi] {
            push_u64(&mut buf, u as u64 + 1);
            buf.push(b' ');
            push_u64(&mut buf, t.one_based());
            buf.push(b'\n');
        }
        if buf.len() >= FLUSH {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// Writes `g` in the header format: `N M`, the start vertex on a line of its own when
/// there is one, then one `u v` line per arc (1-based), by source and in successor-list
/// order.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] if `start` is not a vertex of `g`; any error of `w`.
///
/// # Complexity
/// O(n + m) time, O(1) extra space (a 64 KiB buffer).
pub fn write_header(mut w: impl Write, g: &Graph, start: Option<Vertex>) -> io::Result<()> {
    if let Some(start) = start
        && start.index() >= g.num_vertices()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the start vertex {} is not a vertex of the graph (1..{})",
                start.one_based(),
                g.num_vertices()
            ),
        ));
    }
    let mut buf = Vec::with_capacity(1 << 17);
    push_u64(&mut buf, g.num_vertices() as u64);
    buf.push(b' ');
    push_u64(&mut buf, g.num_arcs() as u64);
    buf.push(b'\n');
    if let Some(start) = start {
        push_u64(&mut buf, start.one_based());
        buf.push(b'\n');
    }
    write_arc_lines(&mut w, g, buf)
}

/// Writes `g` as an arc list: one `u v` line per arc (1-based), by source and in
/// successor-list order. The format does not record the number of vertices, so reading
/// the list back without `n` gives the vertices up to the largest id that has an arc.
///
/// # Errors
/// Any error of `w`.
///
/// # Complexity
/// O(n + m) time, O(1) extra space.
pub fn write_arc_list(mut w: impl Write, g: &Graph) -> io::Result<()> {
    write_arc_lines(&mut w, g, Vec::with_capacity(1 << 17))
}

/// Writes the terminal section of the header format: a line `terminal`, then one line
/// `V X` per vertex with a value (1-based, in increasing order; `X` is `W`, `L` or `T`).
/// Written after [`write_header`], it makes a file that reads back with these values.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] if `terminal` is not for a graph of as many vertices
/// as `g` or gives a value to a vertex with moves; any error of `w`.
///
/// # Complexity
/// O(n) time, O(1) extra space (a 64 KiB buffer).
pub fn write_terminals(mut w: impl Write, g: &Graph, terminal: &Terminals) -> io::Result<()> {
    check_terminals(g, terminal)?;
    let mut buf = Vec::with_capacity(1 << 17);
    buf.extend_from_slice(b"terminal\n");
    for (v, value) in terminal.iter() {
        push_u64(&mut buf, v.one_based());
        buf.push(b' ');
        buf.push(value.letter() as u8);
        buf.push(b'\n');
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// Refuses terminal values that do not fit `g`.
pub(crate) fn check_terminals(g: &Graph, terminal: &Terminals) -> io::Result<()> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    if terminal.num_vertices() != g.num_vertices() {
        return Err(invalid(format!(
            "terminal values for {} vertices given with a graph of {}",
            terminal.num_vertices(),
            g.num_vertices()
        )));
    }
    if let Some((v, _)) = terminal.iter().find(|&(v, _)| g.out_degree(v) > 0) {
        return Err(invalid(format!(
            "vertex {} has moves: only a vertex without moves has a terminal value",
            v.one_based()
        )));
    }
    Ok(())
}

/// How [`write_dot`] draws a graph. Per-vertex slices are indexed by the 0-based vertex;
/// a vertex beyond a slice's end gets the default.
#[derive(Debug, Clone, Copy)]
pub struct DotStyle<'a> {
    /// The name of the digraph (quoted as needed).
    pub name: &'a str,
    /// A label per vertex; by default a vertex is labelled with its 1-based id.
    pub labels: Option<&'a [String]>,
    /// A fill colour per vertex (any Graphviz colour, e.g. `"palegreen"` or `"#ff8080"`);
    /// an empty string leaves the vertex unfilled.
    pub colors: Option<&'a [&'a str]>,
    /// Vertices drawn bold with a double outline (e.g. the start vertex, or a line of play).
    pub highlight: Option<&'a [Vertex]>,
}

impl Default for DotStyle<'_> {
    /// Named `G`, no labels, no colours, nothing highlighted.
    fn default() -> Self {
        DotStyle { name: "G", labels: None, colors: None, highlight: None }
    }
}

/// A DOT string literal: `"` and `\` escaped, line breaks as `\n`.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `g` as a Graphviz digraph. Vertices are named by their 1-based ids; every vertex
/// is written (isolated ones too), then every arc, in successor-list order, so the output is
/// deterministic.
///
/// # Errors
/// Any error of `w`.
///
/// # Complexity
/// O(n + m + h log h) time for `h` highlighted vertices; O(n) extra space when
/// highlighting.
///
/// # Example
/// ```
/// use gamegraph_graph::format::{DotStyle, write_dot};
/// use gamegraph_graph::{Graph, Vertex};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1))]).unwrap();
/// let mut out = Vec::new();
/// write_dot(&mut out, &g, &DotStyle { colors: Some(&["palegreen", "salmon"]), ..DotStyle::default() })
///     .unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("1 -> 2;"));
/// assert!(text.contains("fillcolor=\"salmon\""));
/// ```
pub fn write_dot(mut w: impl Write, g: &Graph, style: &DotStyle<'_>) -> io::Result<()> {
    let n = g.num_vertices();
    let mut bold = vec![false; if style.highlight.is_some() { n } else { 0 }];
    for v in style.highlight.unwrap_or(&[]) {
        if let Some(b) = bold.get_mut(v.index()) {
            *b = true;
        }
    }
    let mut out = Vec::with_capacity(1 << 17);
    writeln!(out, "digraph {} {{", quoted(style.name))?;
    writeln!(out, "  node [shape=circle];")?;
    for v in 0..n {
        let label = style.labels.and_then(|l| l.get(v));
        let color = style.colors.and_then(|c| c.get(v)).filter(|c| !c.is_empty());
        let hi = bold.get(v).copied().unwrap_or(false);
        write!(out, "  {}", v + 1)?;
        if label.is_some() || color.is_some() || hi {
            let mut attrs = Vec::new();
            if let Some(l) = label {
                attrs.push(format!("label={}", quoted(l)));
            }
            if let Some(c) = color {
                attrs.push(format!("style=filled, fillcolor={}", quoted(c)));
            }
            if hi {
                attrs.push("penwidth=2.5, peripheries=2".to_owned());
            }
            write!(out, " [{}]", attrs.join(", "))?;
        }
        out.extend_from_slice(b";\n");
        if out.len() >= 1 << 16 {
            w.write_all(&out)?;
            out.clear();
        }
    }
    for (u, v) in g.arcs() {
        out.extend_from_slice(b"  ");
        push_u64(&mut out, u.one_based());
        out.extend_from_slice(b" -> ");
        push_u64(&mut out, v.one_based());
        out.extend_from_slice(b";\n");
        if out.len() >= 1 << 16 {
            w.write_all(&out)?;
            out.clear();
        }
    }
    out.extend_from_slice(b"}\n");
    w.write_all(&out)
}
