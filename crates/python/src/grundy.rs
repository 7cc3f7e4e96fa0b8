//! Grundy values (also on graphs with cycles), sums of tokens and heaps, heap games.

use gamegraph_graph::Vertex;
use gamegraph_grundy::{
    HeapGame, LoopyValues, Play, SUM_SEARCH_LIMIT, SumError, SumGame, SumMove, par_loopy_grundy,
    play_misere_sum, play_mixed_sum, solve_heaps,
};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList};

use crate::arrays::u64_items;
use crate::error::value_error;
use crate::graph::PyGraph;
use crate::outcome::PyOutcome;
use crate::pool;

/// An infinite value ∞(K) of the generalised Sprague-Grundy function: K (the attribute
/// k, a frozenset) holds the finite values among the position's followers. On its own
/// such a position is a draw unless 0 is in K.
///
/// >>> import gamegraph as gg
/// >>> x = gg.Infinite({2, 0})
/// >>> x, str(x), x.k == {0, 2}
/// (Infinite(frozenset({0, 2})), 'inf{0,2}', True)
#[pyclass(frozen, eq, hash, name = "Infinite", module = "gamegraph")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Infinite {
    /// K, sorted, without repeats.
    pub(crate) k: Vec<u64>,
}

#[pymethods]
impl Infinite {
    #[new]
    #[pyo3(signature = (k = None))]
    fn new(k: Option<&Bound<'_, PyAny>>) -> PyResult<Infinite> {
        let mut k = match k {
            Some(k) => u64_items(k, "k", "a Grundy value (an integer from 0 to 2^64 - 1)")?,
            None => Vec::new(),
        };
        k.sort_unstable();
        k.dedup();
        Ok(Infinite { k })
    }

    /// K, the finite values among the followers.
    #[getter]
    fn k<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        PyFrozenSet::new(py, &self.k)
    }

    fn __repr__(&self) -> String {
        if self.k.is_empty() {
            return "Infinite(frozenset())".to_owned();
        }
        let items: Vec<String> = self.k.iter().map(u64::to_string).collect();
        format!("Infinite(frozenset({{{}}}))", items.join(", "))
    }

    /// As the CLI prints it: inf{0,2}.
    fn __str__(&self) -> String {
        let items: Vec<String> = self.k.iter().map(u64::to_string).collect();
        format!("inf{{{}}}", items.join(","))
    }
}

/// A move of a token along an arc: token (1-based position in the list of tokens) goes
/// from vertex source to vertex target. str() gives the CLI's line.
///
/// >>> import gamegraph as gg
/// >>> str(gg.TokenMove(1, 4, 5))
/// 'move token 1 from 4 to 5'
#[pyclass(frozen, eq, hash, get_all, name = "TokenMove", module = "gamegraph")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TokenMove {
    /// The token, 1-based.
    token: u64,
    /// Where it stands.
    source: u64,
    /// Where it goes.
    target: u64,
}

#[pymethods]
impl TokenMove {
    #[new]
    fn new(token: u64, source: u64, target: u64) -> TokenMove {
        TokenMove { token, source, target }
    }

    fn __repr__(&self) -> String {
        format!("TokenMove(token={}, source={}, target={})", self.token, self.source, self.target)
    }

    fn __str__(&self) -> String {
        format!("move token {} from {} to {}", self.token, self.source, self.target)
    }
}

/// Taking take objects from heap heap (1-based). str() gives the CLI's line.
///
/// >>> import gamegraph as gg
/// >>> str(gg.HeapMove(3, 4))
/// 'take 4 from heap 3'
#[pyclass(frozen, eq, hash, get_all, name = "HeapMove", module = "gamegraph")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct HeapMove {
    /// The heap, 1-based.
    heap: u64,
    /// How many objects are taken.
    take: u64,
}

#[pymethods]
impl HeapMove {
    #[new]
    fn new(heap: u64, take: u64) -> HeapMove {
        HeapMove { heap, take }
    }

    fn __repr__(&self) -> String {
        format!("HeapMove(heap={}, take={})", self.heap, self.take)
    }

    fn __str__(&self) -> String {
        format!("take {} from heap {}", self.take, self.heap)
    }
}

impl From<gamegraph_grundy::HeapMove> for HeapMove {
    fn from(m: gamegraph_grundy::HeapMove) -> Self {
        HeapMove { heap: m.heap as u64 + 1, take: m.take }
    }
}

/// A library move as a Python object.
fn move_object(py: Python<'_>, m: SumMove) -> PyResult<Py<PyAny>> {
    Ok(match m {
        SumMove::Token(t) => Py::new(
            py,
            TokenMove {
                token: t.token as u64 + 1,
                source: t.from.one_based(),
                target: t.to.one_based(),
            },
        )?
        .into_any(),
        SumMove::Heap(h) => Py::new(py, HeapMove::from(h))?.into_any(),
    })
}

/// The generalised Grundy values of all vertices on `threads` threads.
fn values(py: Python<'_>, g: &PyGraph, threads: Option<i64>) -> PyResult<LoopyValues> {
    let graph = g.plain("grundy()")?;
    pool::run(py, threads, || {
        if rayon::current_num_threads() == 1 {
            gamegraph_grundy::loopy_grundy(graph)
        } else {
            par_loopy_grundy(graph)
        }
    })
}

/// The Grundy values of a graph, from grundy().
///
/// - values: read-only int64 array indexed by id - 1, the finite value, or -1 where the
///   value is infinite;
/// - value(v): the value of vertex v, an int or Infinite(K);
/// - k(v): K of an infinite value (a frozenset), None for a finite one;
/// - infinite(): {v: K} for every vertex of infinite value;
/// - counts(): {"finite": ..., "infinite": ...};
/// - tolist(): [int or Infinite(K)] indexed by id - 1; iterating gives the same items.
///
/// In Jupyter the values show as a table.
#[pyclass(frozen, sequence, name = "GrundyValues", module = "gamegraph")]
pub(crate) struct GrundyValues {
    pub(crate) loopy: LoopyValues,
    /// The finite values, -1 for infinite ones.
    #[pyo3(get)]
    values: Py<PyArray1<i64>>,
}

impl GrundyValues {
    fn vertex(&self, v: i128) -> PyResult<Vertex> {
        crate::graph::vertex(v, self.loopy.len(), "vertex")
    }

    /// The value of vertex `v` as a Python object.
    fn object(&self, py: Python<'_>, v: Vertex) -> PyResult<Py<PyAny>> {
        Ok(match self.loopy.finite(v) {
            Some(x) => x.0.into_pyobject(py)?.into_any().unbind(),
            None => Py::new(py, Infinite { k: self.loopy.infinite_set(v).to_vec() })?.into_any(),
        })
    }
}

#[pymethods]
impl GrundyValues {
    /// The value of vertex v (1-based): an int, or Infinite(K).
    fn value(&self, py: Python<'_>, v: i128) -> PyResult<Py<PyAny>> {
        let v = self.vertex(v)?;
        self.object(py, v)
    }

    /// K of the infinite value of vertex v, or None when its value is finite.
    fn k<'py>(&self, py: Python<'py>, v: i128) -> PyResult<Option<Bound<'py, PyFrozenSet>>> {
        let v = self.vertex(v)?;
        match self.loopy.finite(v) {
            Some(_) => Ok(None),
            None => Ok(Some(PyFrozenSet::new(py, self.loopy.infinite_set(v))?)),
        }
    }

    /// {v: K} for every vertex v of infinite value ∞(K).
    fn infinite<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for i in 0..self.loopy.len() {
            let v = Vertex::from_index(i);
            if self.loopy.finite(v).is_none() {
                out.set_item(v.one_based(), PyFrozenSet::new(py, self.loopy.infinite_set(v))?)?;
            }
        }
        Ok(out)
    }

    /// How many values are finite and infinite: {"finite": ..., "infinite": ...}.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let n = self.loopy.len();
        let finite = (0..n).filter(|&i| self.loopy.finite(Vertex::from_index(i)).is_some()).count();
        let out = PyDict::new(py);
        out.set_item("finite", finite)?;
        out.set_item("infinite", n - finite)?;
        Ok(out)
    }

    /// The values as a list indexed by id - 1: an int, or Infinite(K).
    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for i in 0..self.loopy.len() {
            list.append(self.object(py, Vertex::from_index(i))?)?;
        }
        Ok(list)
    }

    fn __len__(&self) -> usize {
        self.loopy.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<PyAny>> {
        let n = self.loopy.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(pyo3::exceptions::PyIndexError::new_err("index out of range"));
        }
        self.object(py, Vertex::from_index(i as usize))
    }

    fn __repr__(&self) -> String {
        let n = self.loopy.len();
        let finite = (0..n).filter(|&i| self.loopy.finite(Vertex::from_index(i)).is_some()).count();
        format!("GrundyValues(vertices={n}, finite={finite}, infinite={})", n - finite)
    }

    /// The values as an HTML table (Jupyter).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("gamegraph._display")?.call_method1("grundy_html", (slf,))?.extract()
    }
}

/// The Grundy value of every vertex (GrundyValues): .values, an int64 array indexed by
/// id - 1 with -1 where the value is infinite, and the sets K of the infinite values
/// ∞(K) on a graph with cycles (the generalised Sprague-Grundy function of Smith,
/// computed by the labelling procedure of Fraenkel and Yesha); .tolist() gives the values
/// as ints and Infinite(K).
///
/// Runs without the GIL on threads threads (default: all cores); the values do not
/// depend on it.
///
/// >>> import gamegraph as gg
/// >>> gg.grundy(gg.Graph(3, [3, 3, 2], [2, 1, 1])).values    # 3 -> 2 -> 1 and 3 -> 1
/// array([0, 1, 2])
/// >>> v = gg.grundy(gg.Graph(2, [1, 1], [1, 2]))              # 1 -> 1 and 1 -> 2
/// >>> v.values, v.infinite(), v.tolist()
/// (array([-1,  0]), {1: frozenset({0})}, [Infinite(frozenset({0})), 0])
#[pyfunction]
#[pyo3(signature = (g, *, threads = None))]
pub(crate) fn grundy(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    threads: Option<i64>,
) -> PyResult<GrundyValues> {
    let loopy = values(py, g.get(), threads)?;
    let finite: Vec<i64> = (0..loopy.len())
        .map(|i| loopy.finite(Vertex::from_index(i)).map_or(-1, |x| x.0 as i64))
        .collect();
    let array = PyArray1::from_vec(py, finite);
    array.as_any().call_method1("setflags", (false,))?;
    Ok(GrundyValues { loopy, values: array.unbind() })
}

/// The message of a bad sum, with the keyword in place of the CLI's flag.
fn sum_error(e: SumError) -> PyErr {
    value_error(match e {
        SumError::TokenOutOfRange { .. } => format!("tokens: {e}"),
        SumError::LimitCount { .. } | SumError::ZeroLimit { .. } => format!("max: {e}"),
        _ => e.to_string(),
    })
}

/// The heap sizes and move limits of a `heaps=` and `max=` pair.
fn heaps_and_limits(
    heaps: &Bound<'_, PyAny>,
    max: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<u64>, Option<Vec<u64>>)> {
    let heaps = u64_items(heaps, "heaps", "a heap size (an integer from 0 to 2^64 - 1)")?;
    let limits =
        max.map(|m| u64_items(m, "max", "a move limit (a positive integer)")).transpose()?;
    Ok((heaps, limits))
}

/// Plays the sum of tokens on vertices of the graph and heaps: returns (outcome, move).
///
/// outcome is 1 (the player to move wins), 2 (loses) or 0 (a draw); move is a winning
/// (or drawing) TokenMove or HeapMove, or None from a lost position. tokens are 1-based
/// vertex ids (a token per component; tokens may share a vertex); heaps are sizes from
/// which a move takes 1..max[i] objects (any number without max). Normal play is
/// answered by Smith's rules for any graph and heap sizes; misere=True (whoever cannot
/// move wins) by the misère-Nim rule when no token can move, otherwise by exhaustive
/// search of the sum's positions, refused with ValueError beyond 2^24 positions plus
/// moves (never guessed).
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(5, [1, 2, 2, 4], [2, 1, 3, 5])
/// >>> gg.play_sum(g, tokens=[4], heaps=[5, 7, 9], max=[2, 3, 4])
/// (Outcome.WIN, HeapMove(heap=3, take=4))
/// >>> gg.play_sum(g, tokens=[4], heaps=[1], misere=True)
/// (Outcome.WIN, TokenMove(token=1, source=4, target=5))
#[pyfunction]
#[pyo3(signature = (g, tokens = None, heaps = None, max = None, *, misere = false, threads = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_sum(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    tokens: Option<&Bound<'_, PyAny>>,
    heaps: Option<&Bound<'_, PyAny>>,
    max: Option<&Bound<'_, PyAny>>,
    misere: bool,
    threads: Option<i64>,
) -> PyResult<(PyOutcome, Option<Py<PyAny>>)> {
    let g = g.get();
    let n = g.plain("play_sum()")?.num_vertices();
    let mut vertices = Vec::new();
    if let Some(tokens) = tokens {
        let ids = u64_items(tokens, "tokens", "a vertex id (a positive integer)")?;
        for id in ids {
            match Vertex::from_one_based(id) {
                Some(v) if v.index() < n => vertices.push(v),
                _ => {
                    return Err(value_error(format!(
                        "tokens: vertex {id} is not in the graph (vertices are 1..{n})"
                    )));
                }
            }
        }
    }
    let (heaps, limits) = match heaps {
        Some(h) => heaps_and_limits(h, max)?,
        None if max.is_some() => return Err(value_error("max needs heaps")),
        None => (Vec::new(), None),
    };
    let sum = SumGame { tokens: vertices, heaps, limits };
    let answer = if misere {
        let graph = &g.graph;
        py.detach(|| play_misere_sum(graph, &sum, SUM_SEARCH_LIMIT))
    } else {
        let values = values(py, g, threads)?;
        py.detach(|| play_mixed_sum(&g.graph, &values, &sum))
    };
    let answer = answer.map_err(sum_error)?;
    let best = answer.best.map(|m| move_object(py, m)).transpose()?;
    Ok((PyOutcome(answer.outcome), best))
}

/// Plays a sum of heaps: returns (outcome, move).
///
/// outcome is 1 (the player to move wins) or 2; move is a winning HeapMove, or None from
/// a lost position (or a finished misère one). max[i] limits the objects a move takes
/// from heap i (no limit without max); misere=True: whoever takes the last object loses;
/// moore=k: Moore's Nim_k, a move takes from 1 to k heaps, and move is then a list of
/// HeapMove. Sizes go up to 2^64 - 1. The misère sums with limits are answered by a
/// proven rule for any sizes; Moore's Nim_k with limits below the heap sizes only by
/// exhaustive search when small, refused with ValueError otherwise (never guessed).
///
/// >>> import gamegraph as gg
/// >>> gg.nim([3, 5, 6])
/// (Outcome.LOSS, None)
/// >>> gg.nim([5, 7, 9], max=[2, 3, 4])      # values 2, 3, 4: digit sum 5
/// (Outcome.WIN, HeapMove(heap=3, take=3))
/// >>> gg.nim([1, 1, 4], misere=True)         # leave 1, 1, 1
/// (Outcome.WIN, HeapMove(heap=3, take=3))
#[pyfunction]
#[pyo3(signature = (heaps, max = None, *, misere = false, moore = None))]
pub(crate) fn nim(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    max: Option<&Bound<'_, PyAny>>,
    misere: bool,
    moore: Option<u64>,
) -> PyResult<(PyOutcome, Option<Py<PyAny>>)> {
    let (heaps, limits) = heaps_and_limits(heaps, max)?;
    let game =
        HeapGame { heaps, limits, play: if misere { Play::Misere } else { Play::Normal }, moore };
    let answer = py.detach(|| solve_heaps(&game)).map_err(value_error)?;
    let best = match (moore, answer.moves.as_slice()) {
        (_, []) => None,
        (Some(_), moves) => {
            let moves: Vec<HeapMove> = moves.iter().map(|&m| HeapMove::from(m)).collect();
            Some(PyList::new(py, moves)?.into_any().unbind())
        }
        (None, [m, ..]) => Some(Py::new(py, HeapMove::from(*m))?.into_any()),
    };
    Ok((PyOutcome(answer.outcome), best))
}
