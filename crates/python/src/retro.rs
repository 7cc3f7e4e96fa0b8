//! `retro`: win / lose / draw, depth and optimal moves.

use gamegraph_graph::Vertex;
use gamegraph_retro::{Solution, par_solve};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::graph::PyGraph;
use crate::pool;

/// The solution of a game graph, from retro().
///
/// - answer: for the start vertex, 1 when the player to move wins, 2 when the other
///   player wins, 0 for a draw; None when there is no start vertex;
/// - outcome: uint8 array, the same code for every vertex (index id - 1);
/// - depth: int64 array, plies until the game ends with best play (the winner hurries,
///   the loser delays), -1 for a draw;
/// - move: int64 array, an optimal move (the smallest id on ties), 0 where there is none.
///
/// The arrays are read-only and made once, one allocation each.
#[pyclass(frozen, name = "Retro", module = "gamegraph")]
pub(crate) struct PyRetro {
    solution: Solution,
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

/// Makes `array` read-only, so that the arrays a solution hands out stay its own.
fn frozen<T>(array: Bound<'_, T>) -> PyResult<Py<T>> {
    array.as_any().call_method1("setflags", (false,))?;
    Ok(array.unbind())
}

#[pymethods]
impl PyRetro {
    /// The start vertex's code (1 win, 2 loss, 0 draw), or None without a start vertex.
    #[getter]
    fn answer(&self) -> Option<u8> {
        self.start.map(|s| self.solution.outcome(s).code())
    }

    /// The start vertex the answer is for (1-based), or None.
    #[getter]
    fn start(&self) -> Option<u64> {
        self.start.map(Vertex::one_based)
    }

    /// How many vertices are won, lost and drawn: {"win": ..., "loss": ..., "draw": ...}.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.solution.counts();
        let d = PyDict::new(py);
        d.set_item("win", c.win)?;
        d.set_item("loss", c.loss)?;
        d.set_item("draw", c.draw)?;
        Ok(d)
    }

    /// The principal variation from vertex v (default: the start): both players play the
    /// optimal moves until the game ends or, for a draw, until a position would repeat.
    /// Returns the 1-based ids of the positions, v first.
    #[pyo3(signature = (v = None))]
    fn line(&self, v: Option<i128>) -> PyResult<Vec<u64>> {
        let n = self.solution.num_vertices();
        let v = match (v, self.start) {
            (Some(id), _) => crate::graph::vertex(id, n, "vertex")?,
            (None, Some(s)) => s,
            (None, None) => {
                return Err(crate::error::value_error(
                    "the graph has no start vertex: give one, as in line(1)",
                ));
            }
        };
        let line = self.solution.principal_variation(v);
        Ok(line.positions().iter().map(|p| p.one_based()).collect())
    }

    fn __repr__(&self) -> String {
        let answer = self.answer().map_or_else(|| "None".to_owned(), |a| a.to_string());
        format!("Retro(num_vertices={}, answer={answer})", self.solution.num_vertices())
    }
}

/// Solves a game graph: the outcome (win, loss or draw for the player to move), the depth
/// and an optimal move of every vertex, by retrograde analysis.
///
/// Two players alternate moving a token along an arc; who cannot move loses; a game that
/// goes on for ever is a draw. start overrides the graph's start vertex. The solve runs
/// without the GIL on threads threads (default: all cores); the result is the same for
/// every count.
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(5, [1, 2, 3, 1, 4], [2, 3, 1, 4, 5], start=1)
/// >>> s = gg.retro(g)
/// >>> s.answer                       # 1 -> 2 -> 3 -> 1 goes round for ever
/// 0
/// >>> s.outcome.tolist(), s.depth.tolist(), s.move.tolist()
/// ([0, 0, 0, 1, 2], [-1, -1, -1, 1, 0], [2, 3, 1, 5, 0])
/// >>> gg.retro(g, start=4).answer, s.line(4)
/// (1, [4, 5])
#[pyfunction]
#[pyo3(signature = (g, *, threads = None, start = None))]
pub(crate) fn retro(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    threads: Option<i64>,
    start: Option<i128>,
) -> PyResult<PyRetro> {
    let g = g.get();
    let start = match start {
        Some(id) => Some(g.vertex(id, "start")?),
        None => g.start,
    };
    let graph = &g.graph;
    let (solution, outcome, depth, moves) = pool::run(py, threads, || {
        let s = par_solve(graph);
        let n = s.num_vertices();
        let outcome: Vec<u8> = s.outcomes().par_iter().map(|o| o.code()).collect();
        let depth: Vec<i64> = (0..n)
            .into_par_iter()
            .map(|i| s.depth(Vertex::from_index(i)).map_or(-1, i64::from))
            .collect();
        let moves: Vec<i64> = (0..n)
            .into_par_iter()
            .map(|i| s.best_move(Vertex::from_index(i)).map_or(0, |m| m.one_based() as i64))
            .collect();
        (s, outcome, depth, moves)
    })?;
    Ok(PyRetro {
        solution,
        start,
        outcome: frozen(PyArray1::from_vec(py, outcome))?,
        depth: frozen(PyArray1::from_vec(py, depth))?,
        best_move: frozen(PyArray1::from_vec(py, moves))?,
    })
}
