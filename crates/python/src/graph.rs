//! `Graph` and `read_graph`.

use std::path::{Path, PathBuf};

use gamegraph_graph::Terminal;
use gamegraph_graph::format::{Format, GameFile, Terminals};
use gamegraph_graph::open;
use gamegraph_graph::{Graph, ReadErrorKind, Vertex};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays::{int64_array, ranged};
use crate::error::{os_error, value_error};
use crate::pool;

/// A game graph: vertices 1..n, an arc u -> v per move, an optional start vertex and
/// optional terminal values.
///
/// Graph(n, sources, targets, start=None, terminal=None) has the arcs sources[i] ->
/// targets[i] (lists or NumPy arrays of integers, 1-based ids); self-loops and repeated
/// arcs are kept, and the successors of a vertex keep the order of the arcs.
/// read_graph() reads one from a file.
///
/// terminal gives values to vertices without moves, as the `terminal` section of a graph
/// file does: a dict {vertex: "W", "L" or "T"} (the player to move there has won, has lost,
/// or nobody won); a vertex without moves and without a value is a loss. A graph with
/// terminal values (even an empty dict) is solved by retro() with four outcomes; the
/// solvers of the game where the player without a move loses (grundy, kernel, ...) refuse
/// it.
///
/// Raises ValueError for an id outside 1..n, arrays of different lengths or a terminal
/// value at a vertex with moves, TypeError for arrays that do not hold integers,
/// MemoryError for a graph this process cannot hold.
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1)
/// >>> g
/// Graph(num_vertices=5, num_arcs=5, start=1)
/// >>> g.successors(1), g.predecessors(1)
/// ([2, 4], [3])
/// >>> sources, targets = g.arcs()
/// >>> sources.tolist(), targets.tolist()
/// ([1, 1, 2, 3, 4], [2, 4, 3, 1, 5])
/// >>> gg.Graph(3, [1], [4])
/// Traceback (most recent call last):
///     ...
/// ValueError: arc 1: vertex 4 is outside 1..3
/// >>> gg.Graph(3, [1, 1], [2, 3], start=1, terminal={3: "T"}).terminal
/// {3: 'T'}
#[pyclass(frozen, eq, name = "Graph", module = "gamegraph")]
#[derive(Debug, PartialEq)]
pub(crate) struct PyGraph {
    pub(crate) graph: Graph,
    pub(crate) start: Option<Vertex>,
    /// The values of vertices without moves, when the graph has them.
    pub(crate) terminal: Option<Terminals>,
}

impl PyGraph {
    /// The graph, for a solver of the game where the player without a move loses
    /// (`what` names it): `ValueError` when the graph has terminal values.
    pub(crate) fn plain(&self, what: &str) -> PyResult<&Graph> {
        match self.terminal {
            Some(_) => Err(value_error(format!(
                "the graph has terminal values (win, loss or tie at vertices without moves), \
                 which {what} does not solve: retro() solves it"
            ))),
            None => Ok(&self.graph),
        }
    }

    /// The vertex with 1-based id `id`, or `ValueError("{what} {id} is outside 1..n")`.
    pub(crate) fn vertex(&self, id: i128, what: &str) -> PyResult<Vertex> {
        vertex(id, self.graph.num_vertices(), what)
    }
}

/// The vertex with 1-based id `id` of a graph on `n` vertices.
pub(crate) fn vertex(id: i128, n: usize, what: &str) -> PyResult<Vertex> {
    u64::try_from(id)
        .ok()
        .and_then(Vertex::from_one_based)
        .filter(|v| v.index() < n)
        .ok_or_else(|| value_error(format!("{what} {id} is outside 1..{n}")))
}

/// The terminal values of a game's graph `g` whose finished positions are worth `value`
/// to the player to move: `None` when they are all losses (the graph is then the game).
pub(crate) fn game_terminals(
    g: &Graph,
    value: impl Fn(Vertex) -> gamegraph_game::Terminal,
) -> Option<Terminals> {
    let entries: Vec<(Vertex, Terminal)> = g
        .vertices()
        .filter(|&v| g.out_degree(v) == 0)
        .map(|v| (v, value(v)))
        .filter(|&(_, t)| t != Terminal::Loss)
        .collect();
    if entries.is_empty() {
        return None;
    }
    Some(Terminals::new(g, &entries).expect("values only at vertices without moves, once each"))
}

/// The terminal values of `g` given as a dict {vertex: "W", "L" or "T"}.
fn terminals(g: &Graph, values: &Bound<'_, PyDict>) -> PyResult<Terminals> {
    let n = g.num_vertices();
    let mut entries = Vec::with_capacity(values.len());
    for (key, value) in values.iter() {
        let Ok(id) = key.extract::<i128>() else {
            let key = key.repr()?;
            return Err(crate::error::type_error(format!("terminal: {key} is not a vertex id")));
        };
        let v = vertex(id, n, "terminal: vertex")?;
        let letter: String = value.extract().unwrap_or_default();
        let value = match letter.as_bytes() {
            [c] => Terminal::from_letter(*c),
            _ => None,
        }
        .ok_or_else(|| {
            let found = value.repr().map(|r| r.to_string()).unwrap_or_default();
            value_error(format!(
                "terminal: expected the value of vertex {id} (\"W\", \"L\" or \"T\"), found {found}"
            ))
        })?;
        entries.push((v, value));
    }
    Terminals::new(g, &entries).map_err(|e| value_error(format!("terminal: {e}")))
}

/// The successor CSR arrays of the arcs `sources[i] -> targets[i]` (1-based ids) on `n`
/// vertices, by a counting sort that keeps the order of the arcs.
///
/// # Errors
/// `ValueError` for the first arc with an id outside `1..=n`; `MemoryError` when the
/// arrays do not fit in memory.
///
/// # Complexity
/// O(n + m) time; the two arrays and the fill positions (8 n bytes) are the only
/// allocations.
fn csr(n: usize, sources: &[i64], targets: &[i64]) -> PyResult<(Vec<u64>, Vec<Vertex>)> {
    let check = |i: usize, id: i64| -> PyResult<usize> {
        match u64::try_from(id) {
            Ok(x) if x >= 1 && x <= n as u64 => Ok((x - 1) as usize),
            _ => Err(value_error(format!("arc {}: vertex {id} is outside 1..{n}", i + 1))),
        }
    };
    let m = sources.len() as u64;
    crate::memory::room("the graph", (n as u64 + 1) * 16 + 4 * m)?;
    let mut offsets = crate::memory::filled("the graph's offsets", n + 1, 0u64)?;
    for (i, (&u, &v)) in sources.iter().zip(targets).enumerate() {
        let u = check(i, u)?;
        check(i, v)?;
        offsets[u + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = crate::memory::filled("the graph's fill positions", n, 0u64)?;
    fill.copy_from_slice(&offsets[..n]);
    let mut out = crate::memory::filled("the graph's arcs", sources.len(), Vertex(0))?;
    for (&u, &v) in sources.iter().zip(targets) {
        // Both ids were checked above: 1 <= id <= n <= u32::MAX.
        let slot = &mut fill[(u - 1) as usize];
        out[*slot as usize] = Vertex((v - 1) as u32);
        *slot += 1;
    }
    Ok((offsets, out))
}

#[pymethods]
impl PyGraph {
    #[new]
    #[pyo3(signature = (n, sources, targets, start = None, terminal = None))]
    fn new(
        py: Python<'_>,
        n: i128,
        sources: &Bound<'_, PyAny>,
        targets: &Bound<'_, PyAny>,
        start: Option<i128>,
        terminal: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyGraph> {
        let n: usize = ranged(n, "n", 0, Vertex::MAX_VERTICES as i128)?;
        let sources = int64_array(sources, "sources")?;
        let targets = int64_array(targets, "targets")?;
        let (s, t) = (sources.as_slice()?, targets.as_slice()?);
        if s.len() != t.len() {
            return Err(value_error(format!(
                "sources has {} ids but targets has {}",
                s.len(),
                t.len()
            )));
        }
        let start = start.map(|id| vertex(id, n, "start")).transpose()?;
        let graph = py.detach(|| {
            let (offsets, targets) = csr(n, s, t)?;
            Graph::from_csr(offsets, targets).map_err(value_error)
        })?;
        let terminal = terminal.map(|t| terminals(&graph, t)).transpose()?;
        Ok(PyGraph { graph, start, terminal })
    }

    /// The terminal values as a dict {vertex: "W", "L" or "T"} (vertices without moves),
    /// or None when the graph has none.
    #[getter]
    fn terminal<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(t) = &self.terminal else { return Ok(None) };
        let d = PyDict::new(py);
        for (v, value) in t.iter() {
            d.set_item(v.one_based(), value.letter())?;
        }
        Ok(Some(d))
    }

    /// The number of vertices n.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.graph.num_vertices()
    }

    /// The number of arcs (self-loops and repeated arcs included).
    #[getter]
    fn num_arcs(&self) -> usize {
        self.graph.num_arcs()
    }

    /// The start vertex (1-based), or None.
    #[getter]
    fn start(&self) -> Option<u64> {
        self.start.map(Vertex::one_based)
    }

    /// The arcs as two int64 arrays (sources, targets) of 1-based ids, by source and then in
    /// successor order.
    fn arcs<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>) {
        let (sources, targets): (Vec<i64>, Vec<i64>) = py.detach(|| {
            let m = self.graph.num_arcs();
            let mut sources = Vec::with_capacity(m);
            let mut targets = Vec::with_capacity(m);
            for (u, v) in self.graph.arcs() {
                sources.push(u.one_based() as i64);
                targets.push(v.one_based() as i64);
            }
            (sources, targets)
        });
        (PyArray1::from_vec(py, sources), PyArray1::from_vec(py, targets))
    }

    /// The successors of vertex v (the moves from v), in the order of the arcs.
    fn successors(&self, v: i128) -> PyResult<Vec<u64>> {
        let v = self.vertex(v, "vertex")?;
        Ok(self.graph.successors(v).iter().map(|w| w.one_based()).collect())
    }

    /// The predecessors of vertex v, sorted (a repeated arc appears repeatedly).
    fn predecessors(&self, py: Python<'_>, v: i128) -> PyResult<Vec<u64>> {
        let v = self.vertex(v, "vertex")?;
        let graph = &self.graph;
        Ok(py.detach(|| graph.predecessors(v).iter().map(|w| w.one_based()).collect()))
    }

    /// The number of moves from vertex v.
    fn out_degree(&self, v: i128) -> PyResult<usize> {
        let v = self.vertex(v, "vertex")?;
        Ok(self.graph.out_degree(v))
    }

    /// Pickling: the class and the arguments that rebuild the graph, arcs in order.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let g = slf.get();
        let (sources, targets) = g.arcs(py);
        let n = g.graph.num_vertices();
        let terminal = g.terminal(py)?;
        Ok((
            slf.get_type().into_any(),
            (n, sources.into_any(), targets.into_any(), g.start(), terminal),
        ))
    }

    /// The graph as a networkx DiGraph on the nodes 1..n (graph attribute "start"); a
    /// graph with repeated arcs needs multigraph=True (a MultiDiGraph). Terminal values
    /// are the node attribute "terminal" ("W", "L" or "T"), and a graph that has them (even
    /// none at all) has the graph attribute "terminal" True.
    ///
    /// Raises ImportError when networkx is not installed.
    #[pyo3(signature = (*, multigraph = false))]
    fn to_networkx<'py>(slf: &Bound<'py, Self>, multigraph: bool) -> PyResult<Bound<'py, PyAny>> {
        let helpers = slf.py().import("gamegraph._networkx")?;
        helpers.call_method1("to_networkx", (slf, multigraph))
    }

    /// A graph from a networkx graph G (directed; an undirected edge is an arc each
    /// way): vertex i + 1 is the node list(G)[i], an arc per edge (each edge of a
    /// multigraph). start is a node of G, by default G.graph.get("start"). The node
    /// attribute "terminal" gives terminal values; the graph has terminal values when a
    /// node has one or G.graph.get("terminal") is true.
    ///
    /// Raises ImportError when networkx is not installed, ValueError for a start that is
    /// no node of G.
    #[staticmethod]
    #[pyo3(signature = (G, start = None))]
    #[allow(non_snake_case)]
    fn from_networkx<'py>(
        py: Python<'py>,
        G: &Bound<'py, PyAny>,
        start: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helpers = py.import("gamegraph._networkx")?;
        helpers.call_method1("from_networkx", (G, start))
    }

    /// A drawing of a small graph (Jupyter); None beyond 60 vertices.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<Option<String>> {
        slf.py().import("gamegraph._display")?.call_method1("graph_svg", (slf,))?.extract()
    }

    fn __repr__(&self) -> String {
        let start = self.start().map_or_else(|| "None".to_owned(), |s| s.to_string());
        let terminal = match &self.terminal {
            Some(t) => format!(", terminal_values={}", t.len()),
            None => String::new(),
        };
        format!(
            "Graph(num_vertices={}, num_arcs={}, start={start}{terminal})",
            self.graph.num_vertices(),
            self.graph.num_arcs()
        )
    }
}

/// What `Graph.__reduce__` gives pickle: the class and `(n, sources, targets, start,
/// terminal)`.
type Reduced<'py> = (Bound<'py, PyAny>, (usize, Arcs<'py>, Arcs<'py>, Option<u64>, Values<'py>));
/// An array of arc ends.
type Arcs<'py> = Bound<'py, PyAny>;
/// The terminal values as a dict, or `None`.
type Values<'py> = Option<Bound<'py, PyDict>>;

/// The format named by a `format=` argument.
fn parse_format(name: &str) -> PyResult<Format> {
    match name {
        "header" => Ok(Format::Header),
        "arcs" => Ok(Format::ArcList),
        "binary" => Ok(Format::Binary),
        _ => {
            Err(value_error(format!("format must be 'header', 'arcs' or 'binary', found {name:?}")))
        }
    }
}

/// Reads the game graph at `path` in `format` (detected from its contents when `None`),
/// as the CLI does: a binary file on every thread of the current rayon pool, text through
/// one buffered reader.
///
/// # Errors
/// `OSError` when the file cannot be opened; `ValueError` with `FILE:LINE:COL: message`
/// (text) or `FILE: message` (binary) for bad contents, and the `format=` argument that
/// reads the file when naming the format would.
fn open_graph(path: &Path, format: Option<Format>) -> PyResult<GameFile> {
    let options = open::Options { format, ..open::Options::default() };
    match open::open(path, &options) {
        Ok(opened) => Ok(opened.file),
        Err(open::OpenError::Io { error, .. }) => Err(os_error(&error, path)),
        Err(e) => Err(value_error(format!("{e}{}", format_advice(&e)))),
    }
}

/// The advice that ends the message of a text whose format was told wrong or could not be
/// told: the `format=` argument of `read_graph` that settles it; empty for other errors.
fn format_advice(e: &open::OpenError) -> &'static str {
    match e {
        open::OpenError::Read { error, .. } => match error.kind {
            ReadErrorKind::HeaderMistake { .. } => ": format='arcs' reads the file as an arc list",
            ReadErrorKind::Ambiguous { .. } => {
                ": give the format with format='header' or format='arcs'"
            }
            _ => "",
        },
        _ => "",
    }
}

/// Reads a game graph from a file in any format the CLI reads, with its start vertex and
/// terminal values when it has them.
///
/// format is 'header' (N M, the start vertex, then M arcs u v), 'arcs' (one arc u v per
/// line; no start vertex) or 'binary'; None detects it from the contents. A binary file
/// is mapped and checked by threads threads (default: all cores).
///
/// Raises OSError (FileNotFoundError, ...) when the file cannot be opened, and ValueError
/// with the CLI's message, FILE:LINE:COL: message, for bad contents. A text that is one
/// mistake away from a header, or whose first line fits neither format, is refused when
/// format is None; the message says which format= reads it.
///
/// >>> import gamegraph as gg
/// >>> g = gg.read_graph("fixtures/retro/seed.txt")
/// >>> g.num_vertices, g.num_arcs, g.start
/// (5, 5, 1)
#[pyfunction]
#[pyo3(signature = (path, format = None, *, threads = None))]
pub(crate) fn read_graph(
    py: Python<'_>,
    path: PathBuf,
    format: Option<&str>,
    threads: Option<i64>,
) -> PyResult<PyGraph> {
    let format = format.map(parse_format).transpose()?;
    let file = pool::run(py, threads, || open_graph(&path, format))??;
    Ok(PyGraph { graph: file.graph, start: file.start, terminal: file.terminal })
}

/// Writes a game graph to a file in a format the CLI reads: 'header' (the default: N M,
/// the start vertex when there is one, then an arc u v per line, then the terminal values
/// when the graph has them), 'arcs' (an arc per line, no start vertex) or 'binary' (with
/// the terminal values too). Arcs come by source, in successor order.
///
/// Raises OSError when the file cannot be written, ValueError for 'arcs' and a graph with
/// terminal values (the format cannot hold them).
///
/// >>> import gamegraph as gg, os, tempfile
/// >>> g = gg.Graph(3, [1, 2], [2, 3], start=1)
/// >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
/// >>> gg.write_graph(g, path)
/// >>> open(path).read()
/// '3 2\n1\n1 2\n2 3\n'
/// >>> gg.read_graph(path) == g
/// True
#[pyfunction]
#[pyo3(signature = (g, path, format = "header"))]
pub(crate) fn write_graph(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    path: PathBuf,
    format: &str,
) -> PyResult<()> {
    let format = parse_format(format)?;
    let g = g.get();
    if g.terminal.is_some() && format == Format::ArcList {
        return Err(value_error(
            "the arcs format cannot hold terminal values: write the graph as 'header' or 'binary'",
        ));
    }
    let result = py.detach(|| -> std::io::Result<()> {
        let file = std::fs::File::create(&path)?;
        let mut out = std::io::BufWriter::new(file);
        let terminal = g.terminal.as_ref();
        gamegraph_graph::format::write_parts(&mut out, &g.graph, g.start, terminal, format)?;
        std::io::Write::flush(&mut out)
    });
    result.map_err(|e| os_error(&e, &path))
}
