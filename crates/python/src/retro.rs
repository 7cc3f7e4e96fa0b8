//! `retro`: win / lose / draw, depth and optimal moves (and ties, with remoteness, for a
//! graph with terminal values).

use gamegraph_graph::Vertex;
use gamegraph_retro::{Solution, par_solve};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::graph::PyGraph;
use crate::outcome::PyOutcome;
use crate::pool;

/// The solution of a game graph, from retro().
///
/// - answer: for the start vertex, 1 when the player to move wins, 2 when the other
///   player wins, 0 for a draw, 3 for a tie (a graph with terminal values); None when
///   there is no start vertex;
/// - outcome: uint8 array, the same code for every vertex (index id - 1);
/// - depth: int64 array, plies until the game ends with best play (the winner hurries,
///   the loser delays; the remoteness for a graph with terminal values), -1 for a draw;
/// - move: int64 array, an optimal move (the smallest id on ties), 0 where there is none.
///
/// The arrays are read-only and made once, one allocation each.
#[pyclass(frozen, name = "Retro", module = "gamegraph")]
pub(crate) struct PyRetro {
    solution: Solved,
    start: Option<Vertex>,
    /// The outcome codes.
    #[pyo3(get)]
    outcome: Py<PyArray1<u8>>,
    /// The depths, -1 for a draw.
    #[pyo3(get)]
    depth: Py<PyArray1<i64>>,
    /// The optimal moves, 0 for none.
    #[pyo3(get, name = "move")]
    best_move: Py<PyArray1<i64>>,
}

/// The solution of a graph: three outcomes, or four for a graph with terminal values.
enum Solved {
    /// Every vertex without moves is a loss.
    Plain(Solution),
    /// Four outcomes with remoteness, and the graph solved (for its lines of play).
    Values(gamegraph_game::Solution, Py<PyGraph>),
}

impl Solved {
    /// The number of vertices.
    fn len(&self) -> usize {
        match self {
            Solved::Plain(s) => s.num_vertices(),
            Solved::Values(s, _) => s.len(),
        }
    }

    /// The outcome of `v`.
    fn outcome(&self, v: Vertex) -> gamegraph_graph::Outcome {
        match self {
            Solved::Plain(s) => s.outcome(v),
            Solved::Values(s, _) => s.outcome(v),
        }
    }
}

/// Makes `array` read-only, so that the arrays a solution hands out stay its own.
fn frozen<T>(array: Bound<'_, T>) -> PyResult<Py<T>> {
    array.as_any().call_method1("setflags", (false,))?;
    Ok(array.unbind())
}

#[pymethods]
impl PyRetro {
    /// The start vertex's outcome (an Outcome, equal to its code: 1 win, 2 loss, 0 draw, 3
    /// tie), or None without a start vertex.
    #[getter]
    fn answer(&self) -> Option<PyOutcome> {
        self.start.map(|s| PyOutcome(self.solution.outcome(s)))
    }

    /// The start vertex the answer is for (1-based), or None.
    #[getter]
    fn start(&self) -> Option<u64> {
        self.start.map(Vertex::one_based)
    }

    /// How many vertices have each outcome: {"win": ..., "loss": ..., "tie": ..., "draw": ...}
    /// (ties only in a graph with terminal values), as the command's JSON "counts".
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match &self.solution {
            Solved::Plain(s) => {
                let c = s.counts();
                d.set_item("win", c.win)?;
                d.set_item("loss", c.loss)?;
                d.set_item("tie", 0)?;
                d.set_item("draw", c.draw)?;
            }
            Solved::Values(s, _) => {
                let c = s.counts();
                d.set_item("win", c.win)?;
                d.set_item("loss", c.loss)?;
                d.set_item("tie", c.tie)?;
                d.set_item("draw", c.draw)?;
            }
        }
        Ok(d)
    }

    /// The principal variation from vertex v (default: the start): both players play the
    /// optimal moves until the game ends or, for a draw, until a position would repeat.
    /// Returns the 1-based ids of the positions, v first.
    #[pyo3(signature = (v = None))]
    fn line(&self, py: Python<'_>, v: Option<i128>) -> PyResult<Vec<u64>> {
        let n = self.solution.len();
        let v = match (v, self.start) {
            (Some(id), _) => crate::graph::vertex(id, n, "vertex")?,
            (None, Some(s)) => s,
            (None, None) => {
                return Err(crate::error::value_error(
                    "the graph has no start vertex: give one, as in line(1)",
                ));
            }
        };
        let positions = match &self.solution {
            Solved::Plain(s) => s.principal_variation(v).positions().to_vec(),
            Solved::Values(s, g) => s.line(&g.bind(py).get().graph, v).0,
        };
        Ok(positions.iter().map(|p| p.one_based()).collect())
    }

    fn __repr__(&self) -> String {
        let answer = self.answer().map_or_else(|| "None".to_owned(), |a| a.to_string());
        format!("Retro(num_vertices={}, answer={answer})", self.solution.len())
    }
}

/// Solves a game graph: the outcome (win, loss or draw for the player to move), the depth
/// and an optimal move of every vertex, by retrograde analysis.
///
/// Two players alternate moving a token along an arc; who cannot move loses; a game that
/// goes on for ever is a draw. A graph with terminal values is solved with four outcomes
/// as `gamegraph retro` solves its file: a vertex without moves has its value (a loss when
/// it has none), a tie is code 3, and depth is the remoteness (the winner hurries, the
/// loser delays, a tie is reached as fast as possible). start overrides the graph's start
/// vertex. The solve runs without the GIL on threads threads (default: all cores); the
/// result is the same for every count. Raises MemoryError, before solving, for a graph
/// whose solve this process cannot hold.
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1)
/// >>> s = gg.retro(g)
/// >>> s.answer                       # 1 -> 2 -> 3 -> 1 goes round for ever
/// Outcome.DRAW
/// >>> s.outcome.tolist(), s.depth.tolist(), s.move.tolist()
/// ([0, 0, 0, 1, 2], [-1, -1, -1, 1, 0], [2, 3, 1, 5, 0])
/// >>> gg.retro(g, start=4).answer, s.line(4)
/// (Outcome.WIN, [4, 5])
/// >>> t = gg.retro(gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1, terminal={5: "T"}))
/// >>> t.answer, t.outcome.tolist(), t.line()
/// (Outcome.TIE, [3, 3, 3, 3, 3], [1, 4, 5])
#[pyfunction]
#[pyo3(signature = (g, *, threads = None, start = None))]
pub(crate) fn retro(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    threads: Option<i64>,
    start: Option<i128>,
) -> PyResult<PyRetro> {
    let handle = g.clone().unbind();
    let g = g.get();
    let start = match start {
        Some(id) => Some(g.vertex(id, "start")?),
        None => g.start,
    };
    let graph = &g.graph;
    let (n, m) = (graph.num_vertices() as u64, graph.num_arcs() as u64);
    crate::memory::room("retro", n.saturating_mul(BYTES_PER_VERTEX) + m * BYTES_PER_ARC)?;
    let (solution, outcome, depth, moves) = pool::run(py, threads, move || match &g.terminal {
        None => {
            let s = par_solve(graph);
            let n = s.num_vertices();
            let outcome: Vec<u8> = s.outcomes().par_iter().map(|o| o.code()).collect();
            let depth = arrays(n, |v| s.depth(v).map_or(-1, i64::from));
            let moves = arrays(n, |v| s.best_move(v).map_or(0, |m| m.one_based() as i64));
            (Solved::Plain(s), outcome, depth, moves)
        }
        Some(values) => {
            let s = gamegraph_game::solve(graph, |v| values.value_or_loss(v));
            let n = s.len();
            let outcome: Vec<u8> = s.outcomes().par_iter().map(|o| o.code()).collect();
            let depth = arrays(n, |v| s.remoteness(v).map_or(-1, i64::from));
            let moves = arrays(n, |v| s.best_move(graph, v).map_or(0, |m| m.one_based() as i64));
            (Solved::Values(s, handle), outcome, depth, moves)
        }
    })?;
    Ok(PyRetro {
        solution,
        start,
        outcome: frozen(PyArray1::from_vec(py, outcome))?,
        depth: frozen(PyArray1::from_vec(py, depth))?,
        best_move: frozen(PyArray1::from_vec(py, moves))?,
    })
}

/// About the most bytes a vertex takes in a solve: the predecessor offsets, the solver's
/// labels, counters and queue, and the three arrays handed to Python.
const BYTES_PER_VERTEX: u64 = 56;
/// Bytes an arc takes in a solve: its entry in the predecessor lists (twice while they are
/// built).
const BYTES_PER_ARC: u64 = 8;

/// `f` of every vertex of a graph of `n` vertices, in parallel.
fn arrays(n: usize, f: impl Fn(Vertex) -> i64 + Sync) -> Vec<i64> {
    (0..n).into_par_iter().map(|i| f(Vertex::from_index(i))).collect()
}
