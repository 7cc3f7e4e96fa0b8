//! `SolvedGame`: every reachable position of a game with its value, answering queries.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

use gamegraph_game::{
    FileError, Game, MoveValue, ParseError, PositionValue, QueryError, Solution, SolvedGame,
    Terminal,
};
use gamegraph_graph::{Graph, Vertex};
use numpy::PyArray1;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::{PyTraverseError, PyVisit};

use crate::board::{PyBoard, Rules};
use crate::error::{os_error, value_error};
use crate::graph::PyGraph;
use crate::outcome::PyOutcome;
use crate::values::file_error;

/// A move as Python sees it: the position after the move, its outcome for the player who
/// makes it, and the remoteness of the position it leads to.
pub(crate) type PyMove = (Py<PyAny>, PyOutcome, Option<u32>);

/// A game with every position reachable from its start solved: the outcome for the player
/// to move (1 win, 2 loss, 3 tie, 0 draw) and the remoteness (plies to the end of the game
/// with best play, None for a draw) of each.
///
/// gg.explore() returns one for a game given by Python functions, whose positions are the
/// Python objects it explored; the functions of gg.games return one for a game shipped
/// with gamegraph, whose positions are the game's text notation (strings).
///
/// - outcome(p), remoteness(p), value(p): the value of position p, canonicalised first;
/// - moves(p): every move from p as (position, outcome, remoteness), best first, the
///   outcome being that of the move for the player who makes it (a move to a lost
///   position is a winning move, 1) and the remoteness that of the position it leads to;
/// - best_move(p): the first of them, None where there is no move;
/// - positions: the positions in vertex order, positions[i] being vertex i + 1 of graph;
/// - graph: the game graph, a vertex per position and an arc per distinct move (up to
///   canonical form); outcomes and remotenesses: arrays of the values by vertex;
/// - start, start_outcome, start_remoteness: the start position and its value;
/// - counts(): how many positions have each outcome; len(): how many positions.
///
/// A position that cannot be reached from the start raises KeyError.
///
/// >>> import gamegraph as gg
/// >>> s = gg.explore(7, lambda n: [n - k for k in (1, 2) if k <= n])
/// >>> s
/// SolvedGame(positions=8, start=7, start_outcome=Outcome.WIN, start_remoteness=5)
/// >>> s.outcome(6), s.remoteness(6), s.moves(7)
/// (Outcome.LOSS, 4, [(6, Outcome.WIN, 4), (5, Outcome.LOSS, 3)])
#[pyclass(frozen, name = "SolvedGame", module = "gamegraph")]
pub(crate) struct PySolvedGame {
    inner: Inner,
}

/// Where the positions come from.
enum Inner {
    /// Explored from Python callbacks.
    Python(Box<PyExplored>),
    /// A shipped game, solved in Rust; positions are its notation.
    Shipped { solved: Box<dyn Shipped>, graph: OnceLock<Py<PyGraph>> },
}

/// A game explored from Python callbacks.
pub(crate) struct PyExplored {
    /// The canonical positions, by vertex.
    pub(crate) positions: Vec<Py<PyAny>>,
    /// Canonical position -> vertex index.
    pub(crate) index: Py<PyDict>,
    /// The moves callback.
    pub(crate) moves: Py<PyAny>,
    /// The terminal callback, if any.
    pub(crate) terminal: Option<Py<PyAny>>,
    /// The canonical callback, if any.
    pub(crate) canonical: Option<Py<PyAny>>,
    /// The explored graph (start = vertex 1).
    pub(crate) graph: Py<PyGraph>,
    /// The values.
    pub(crate) solution: Solution,
}

impl PyExplored {
    /// The vertex of `p` (canonicalised first), `None` when it was not reached.
    fn find(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<Vertex>> {
        let py = p.py();
        let c = crate::explore::canonical_of(self.canonical.as_ref(), p.clone())?;
        match self.index.bind(py).get_item(&c)? {
            Some(i) => Ok(Some(Vertex::from_index(i.extract::<usize>()?))),
            None => Ok(None),
        }
    }

    /// Every move of `p` with its vertex, as the moves callback gives them.
    fn moves<'py>(&self, p: &Bound<'py, PyAny>) -> PyResult<Vec<(Bound<'py, PyAny>, Vertex)>> {
        let py = p.py();
        let mut out = Vec::new();
        for q in self.moves.bind(py).call1((p,))?.try_iter()? {
            let q = q?;
            let Some(v) = self.find(&q)? else {
                return Err(value_error(format!(
                    "the move from {} to {} was not found during exploration: moves is not \
                     deterministic or canonical does not commute with it",
                    p.repr()?,
                    q.repr()?
                )));
            };
            out.push((q, v));
        }
        Ok(out)
    }
}

/// A shipped game, solved, with positions in its notation.
pub(crate) trait Shipped: Send + Sync {
    /// The game's name, as `gamegraph game list` gives it.
    fn name(&self) -> &str;
    /// The number of positions.
    fn len(&self) -> usize;
    /// The game graph.
    fn graph(&self) -> &Graph;
    /// The values.
    fn solution(&self) -> &Solution;
    /// The start vertex.
    fn start(&self) -> Vertex;
    /// The value of the finished position of `v` for the player to move there.
    fn terminal(&self, v: Vertex) -> Terminal;
    /// The notation of the position of `v`.
    fn show(&self, v: Vertex) -> String;
    /// The vertex of a position given in the notation, `None` when it is not reachable.
    fn vertex(&self, s: &str) -> Result<Option<Vertex>, ParseError>;
    /// The value of a position and of its moves, positions in the notation.
    fn query(&self, s: &str) -> Result<PositionValue<String>, QueryError>;
    /// Writes the values file.
    fn save(&self, w: &mut BufWriter<File>, remoteness: bool) -> Result<(), FileError>;
    /// The game's pictures and move names.
    fn rules(&self) -> &dyn Rules;
    /// The play session after `moves` from the start, as the JSON of `gamegraph play
    /// --json`; why a move is illegal otherwise.
    fn view(&self, moves: &[String]) -> Result<String, String>;
}

/// A shipped game with its name.
pub(crate) struct Named<G: Game> {
    pub(crate) name: String,
    pub(crate) solved: SolvedGame<G>,
}

impl<G> Shipped for Named<G>
where
    G: Game + Send + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> usize {
        self.solved.len()
    }

    fn graph(&self) -> &Graph {
        self.solved.graph()
    }

    fn solution(&self) -> &Solution {
        self.solved.solution()
    }

    fn start(&self) -> Vertex {
        self.solved.start()
    }

    fn terminal(&self, v: Vertex) -> Terminal {
        self.solved.game().terminal(self.solved.positions()[v.index()])
    }

    fn show(&self, v: Vertex) -> String {
        self.solved.game().show(self.solved.positions()[v.index()])
    }

    fn vertex(&self, s: &str) -> Result<Option<Vertex>, ParseError> {
        Ok(self.solved.vertex(self.solved.game().parse(s)?))
    }

    fn query(&self, s: &str) -> Result<PositionValue<String>, QueryError> {
        Ok(shown(self.solved.game(), self.solved.query_str(s)?))
    }

    fn save(&self, w: &mut BufWriter<File>, remoteness: bool) -> Result<(), FileError> {
        self.solved.save(w, remoteness)?;
        w.flush()?;
        Ok(())
    }

    fn rules(&self) -> &dyn Rules {
        self.solved.game()
    }

    fn view(&self, moves: &[String]) -> Result<String, String> {
        crate::view::session_json(gamegraph_play::engine::borrowed(&self.solved), moves)
    }
}

/// A position's value with the positions in the game's notation.
pub(crate) fn shown<G: Game>(game: &G, value: PositionValue<G::Position>) -> PositionValue<String> {
    value.map(|p| game.show(p))
}

/// `ValueError` for a position whose text cannot be read.
pub(crate) fn parse_error(text: &str, e: &ParseError) -> PyErr {
    value_error(format!("invalid position {text:?}: {e}"))
}

/// `KeyError(p)` for a position that cannot be reached from the start.
fn unreachable(p: &Bound<'_, PyAny>) -> PyErr {
    PyKeyError::new_err(p.clone().unbind())
}

impl PySolvedGame {
    /// A game explored from Python callbacks.
    pub(crate) fn python(explored: PyExplored) -> PySolvedGame {
        PySolvedGame { inner: Inner::Python(Box::new(explored)) }
    }

    /// A shipped game.
    pub(crate) fn shipped(solved: Box<dyn Shipped>) -> PySolvedGame {
        PySolvedGame { inner: Inner::Shipped { solved, graph: OnceLock::new() } }
    }

    /// The successors of `v`, vertices of the solved graph.
    pub(crate) fn successors(&self, v: Vertex) -> Vec<Vertex> {
        match &self.inner {
            Inner::Python(e) => e.graph.get().graph.successors(v).to_vec(),
            Inner::Shipped { solved, .. } => solved.graph().successors(v).to_vec(),
        }
    }

    /// The text of the position of `v`: the notation of a shipped game, `str()` of a
    /// position given by Python functions.
    pub(crate) fn show_vertex(&self, py: Python<'_>, v: Vertex) -> PyResult<String> {
        match &self.inner {
            Inner::Python(e) => Ok(e.positions[v.index()].bind(py).str()?.to_string()),
            Inner::Shipped { solved, .. } => Ok(solved.show(v)),
        }
    }

    /// The vertex of a position of a shipped game written in its notation; `None` for a
    /// game given by Python functions, whose positions are not read from text.
    pub(crate) fn vertex_of_text(&self, text: &str) -> Option<Vertex> {
        match &self.inner {
            Inner::Python(_) => None,
            Inner::Shipped { solved, .. } => solved.vertex(text).ok().flatten(),
        }
    }

    /// The play session of a shipped game after `moves`, as JSON (`None` for a game given
    /// by Python functions); why a move is illegal otherwise.
    pub(crate) fn shipped_view(&self, moves: &[String]) -> Option<Result<String, String>> {
        match &self.inner {
            Inner::Python(_) => None,
            Inner::Shipped { solved, .. } => Some(solved.view(moves)),
        }
    }

    /// The name of a shipped game, as `gamegraph game` names it.
    pub(crate) fn shipped_name(&self) -> Option<&str> {
        match &self.inner {
            Inner::Python(_) => None,
            Inner::Shipped { solved, .. } => Some(solved.name()),
        }
    }

    pub(crate) fn solution(&self) -> &Solution {
        match &self.inner {
            Inner::Python(e) => &e.solution,
            Inner::Shipped { solved, .. } => solved.solution(),
        }
    }

    pub(crate) fn start_vertex(&self) -> Vertex {
        match &self.inner {
            Inner::Python(_) => Vertex(0),
            Inner::Shipped { solved, .. } => solved.start(),
        }
    }

    /// The vertex of position `p`: `KeyError` when it is not reachable, `ValueError` for a
    /// text that is no position of a shipped game.
    fn vertex(&self, p: &Bound<'_, PyAny>) -> PyResult<Vertex> {
        let found = match &self.inner {
            Inner::Python(e) => e.find(p)?,
            Inner::Shipped { solved, .. } => {
                let text: &str = &p.extract::<String>()?;
                solved.vertex(text).map_err(|e| parse_error(text, &e))?
            }
        };
        found.ok_or_else(|| unreachable(p))
    }

    fn position(&self, py: Python<'_>, v: Vertex) -> Py<PyAny> {
        match &self.inner {
            Inner::Python(e) => e.positions[v.index()].clone_ref(py),
            Inner::Shipped { solved, .. } => PyString::new(py, &solved.show(v)).into_any().unbind(),
        }
    }

    fn outcome_of(&self, v: Vertex) -> PyOutcome {
        PyOutcome(self.solution().outcome(v))
    }
}

#[pymethods]
impl PySolvedGame {
    /// The game's size, the start's value, the counts and the start's moves as HTML
    /// (Jupyter).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("gamegraph._display")?.call_method1("solved_html", (slf,))?.extract()
    }

    /// The outcome of position p for the player to move (an Outcome: WIN, LOSS, TIE, DRAW).
    fn outcome(&self, p: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
        Ok(self.outcome_of(self.vertex(p)?))
    }

    /// The remoteness of position p: plies to the end of the game with best play (the
    /// winner hurries, the loser delays, a tie is reached as fast as possible), None for a
    /// draw.
    fn remoteness(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.solution().remoteness(self.vertex(p)?))
    }

    /// The outcome and the remoteness of position p.
    fn value(&self, p: &Bound<'_, PyAny>) -> PyResult<(PyOutcome, Option<u32>)> {
        let v = self.vertex(p)?;
        Ok((self.outcome_of(v), self.solution().remoteness(v)))
    }

    /// Every move from position p as (position after the move, outcome for the player who
    /// makes it, remoteness of the position it leads to), best first: by outcome for the
    /// mover (win, tie, draw, loss), then a win or a tie with the least remoteness, a loss
    /// with the greatest; equal moves by position (the order of exploration for a game
    /// given by Python functions).
    fn moves(&self, p: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
        let py = p.py();
        match &self.inner {
            Inner::Python(e) => {
                let v = self.vertex(p)?;
                let found = e.moves(p)?;
                let s = &e.solution;
                let moves = found
                    .iter()
                    .enumerate()
                    .map(|(i, (_, w))| MoveValue {
                        position: (w.index(), i),
                        outcome: s.outcome(*w).flip(),
                        remoteness: s.remoteness(*w),
                    })
                    .collect();
                let value = PositionValue::new((v.index(), 0), s.outcome(v), None, moves);
                Ok(value
                    .moves
                    .into_iter()
                    .map(|m| {
                        let q = found[m.position.1].0.clone().unbind();
                        (q, PyOutcome(m.outcome), m.remoteness)
                    })
                    .collect())
            }
            Inner::Shipped { solved, .. } => {
                let text: &str = &p.extract::<String>()?;
                let value = solved.query(text).map_err(|e| match e {
                    QueryError::Parse(e) => parse_error(text, &e),
                    _ => unreachable(p),
                })?;
                value
                    .moves
                    .into_iter()
                    .map(|m| {
                        let q = m.position.into_pyobject(py)?.into_any().unbind();
                        Ok((q, PyOutcome(m.outcome), m.remoteness))
                    })
                    .collect()
            }
        }
    }

    /// The best move from position p, as moves(p)[0], or None where there is no move.
    fn best_move(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<PyMove>> {
        Ok(self.moves(p)?.into_iter().next())
    }

    /// The state of a game played from the start by `moves` (names, as play() takes them),
    /// as the JSON the page's games view draws; what gg.serve() answers with.
    fn _view(slf: &Bound<'_, Self>, moves: Vec<String>) -> PyResult<String> {
        crate::view::view_json(slf, &moves)
    }

    /// The picture of position p, a Board (print() draws it, Jupyter shows a table), or
    /// None when the game draws none (a game given by Python functions draws none: give
    /// play() a show function instead).
    fn board(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<PyBoard>> {
        let Inner::Shipped { solved, .. } = &self.inner else { return Ok(None) };
        let text: &str = &p.extract::<String>()?;
        Ok(solved.rules().board(text).map_err(|e| parse_error(text, &e))?.map(PyBoard::new))
    }

    /// The name of the move from position p to position q ('column 4', 'b2'), as the
    /// terminal game names it; None when the game names no moves.
    fn move_name(&self, p: &Bound<'_, PyAny>, q: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let Inner::Shipped { solved, .. } = &self.inner else { return Ok(None) };
        let (p, q): (String, String) = (p.extract()?, q.extract()?);
        solved.rules().move_name(&p, &q).map_err(|e| value_error(e.to_string()))
    }

    /// Whether position p is reachable from the start.
    fn __contains__(&self, p: &Bound<'_, PyAny>) -> PyResult<bool> {
        match self.vertex(p) {
            Ok(_) => Ok(true),
            Err(e) if e.is_instance_of::<PyKeyError>(p.py()) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The number of positions.
    fn __len__(&self) -> usize {
        self.solution().len()
    }

    /// The positions in vertex order (canonical forms): positions[i] is vertex i + 1 of
    /// graph, positions[0] the start.
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match &self.inner {
            Inner::Python(e) => PyList::new(py, e.positions.iter().map(|p| p.bind(py))),
            Inner::Shipped { solved, .. } => {
                PyList::new(py, (0..solved.len()).map(|i| solved.show(Vertex::from_index(i))))
            }
        }
    }

    /// The game graph: vertex i + 1 is positions[i], an arc per distinct move (up to
    /// canonical form), the start marked, and the game's wins and ties at finished
    /// positions as terminal values (when it has any).
    #[getter]
    fn graph(&self, py: Python<'_>) -> PyResult<Py<PyGraph>> {
        match &self.inner {
            Inner::Python(e) => Ok(e.graph.clone_ref(py)),
            Inner::Shipped { solved, graph: cached } => {
                if let Some(g) = cached.get() {
                    return Ok(g.clone_ref(py));
                }
                let graph = solved.graph().clone();
                let terminal = crate::graph::game_terminals(&graph, |v| solved.terminal(v));
                let g = Py::new(py, PyGraph { graph, start: Some(solved.start()), terminal })?;
                Ok(cached.get_or_init(|| g).clone_ref(py))
            }
        }
    }

    /// The outcome of every position by vertex (uint8: 1 win, 2 loss, 3 tie, 0 draw).
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let codes: Vec<u8> = self.solution().outcomes().iter().map(|o| o.code()).collect();
        PyArray1::from_vec(py, codes)
    }

    /// The remoteness of every position by vertex (int64, -1 for a draw).
    #[getter]
    fn remotenesses<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let s = self.solution();
        let r: Vec<i64> = (0..s.len())
            .map(|i| s.remoteness(Vertex::from_index(i)).map_or(-1, i64::from))
            .collect();
        PyArray1::from_vec(py, r)
    }

    /// The start position (canonical form).
    #[getter]
    fn start(&self, py: Python<'_>) -> Py<PyAny> {
        self.position(py, self.start_vertex())
    }

    /// The outcome of the start position for the first player.
    #[getter]
    fn start_outcome(&self) -> PyOutcome {
        self.outcome_of(self.start_vertex())
    }

    /// The remoteness of the start position, None for a draw.
    #[getter]
    fn start_remoteness(&self) -> Option<u32> {
        self.solution().remoteness(self.start_vertex())
    }

    /// The name of a shipped game, as `gamegraph game` names it ('tic-tac-toe',
    /// 'connect-four --cols 5 --rows 4', ...), None for a game given by Python functions.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.shipped_name()
    }

    /// How many positions have each outcome: {'win': ..., 'loss': ..., 'tie': ...,
    /// 'draw': ...}.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.solution().counts();
        let d = PyDict::new(py);
        d.set_item("win", c.win)?;
        d.set_item("loss", c.loss)?;
        d.set_item("tie", c.tie)?;
        d.set_item("draw", c.draw)?;
        Ok(d)
    }

    /// Writes the values of every position to a values file at path (with the remoteness
    /// unless remoteness=False). A shipped game's file is the one `gamegraph game ... solve
    /// --explicit -o` writes, reopened by gg.games.open_values(). A game given by Python
    /// functions stores each position by its key: key(p), a str that tells positions apart
    /// and is the same in every run (without key=, positions must be ints, strs, bytes or
    /// tuples of them, stored by their repr); name= names the game in the file;
    /// gg.open_values() reopens it with the same functions.
    ///
    /// >>> import gamegraph as gg, os, tempfile
    /// >>> folder = tempfile.TemporaryDirectory()
    /// >>> path = os.path.join(folder.name, "sets.values")
    /// >>> moves = lambda s: [s - {x} for x in s]
    /// >>> s = gg.explore(frozenset({1, 2, 3}), moves)
    /// >>> s.save(path)
    /// Traceback (most recent call last):
    ///     ...
    /// ValueError: the position frozenset({1, 2, 3}) is a frozenset, whose text may differ from run to run: give key=, a function from a position to a str that tells positions apart and is the same in every run
    /// >>> s.save(path, key=lambda s: ",".join(map(str, sorted(s))))
    /// >>> folder.cleanup()
    #[pyo3(signature = (path, *, remoteness = true, key = None, name = None))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        remoteness: bool,
        key: Option<Py<PyAny>>,
        name: Option<String>,
    ) -> PyResult<()> {
        let solved = match &self.inner {
            Inner::Python(e) => {
                return crate::keyed::save(py, e, &path, remoteness, key.as_ref(), name.as_deref());
            }
            Inner::Shipped { .. } if key.is_some() || name.is_some() => {
                return Err(value_error(
                    "key= and name= are for games given by Python functions: a shipped game \
                     is stored by its own numbering and named by its identity",
                ));
            }
            Inner::Shipped { solved, .. } => solved,
        };
        let file = File::create(&path).map_err(|e| os_error(&e, &path))?;
        let mut w = BufWriter::new(file);
        py.detach(|| solved.save(&mut w, remoteness)).map_err(|e| file_error(e, &path))
    }

    /// Plays the game against perfect play in a terminal or a notebook, reading moves
    /// with input(): a move is its number in the list or the position it leads to; `hint`,
    /// `undo` and `quit` as in `gamegraph play`. show(p) draws a position (a board) when
    /// given. Returns the positions played.
    ///
    /// >>> import gamegraph as gg
    /// >>> s = gg.explore(5, lambda n: [n - k for k in (1, 2) if k <= n])
    /// >>> typed = iter(["hint", "1", "1"])
    /// >>> s.play(input=lambda prompt: next(typed))
    /// 5
    /// you to move: 1 3 (win in 3), 2 4 (loss in 4)
    /// hint: 1 3 (win in 3)
    /// 3
    /// the engine to move: 1 2 (loss in 2), 2 1 (loss in 2)
    /// engine: 2
    /// 2
    /// you to move: 1 0 (win in 1), 2 1 (loss in 2)
    /// 0
    /// you win
    /// [5, 3, 2, 0]
    #[pyo3(signature = (*, first = "me", start = None, show = None, input = None, print = None))]
    fn play<'py>(
        slf: &Bound<'py, Self>,
        first: &str,
        start: Option<Bound<'py, PyAny>>,
        show: Option<Bound<'py, PyAny>>,
        input: Option<Bound<'py, PyAny>>,
        print: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let kwargs = PyDict::new(py);
        kwargs.set_item("first", first)?;
        kwargs.set_item("start", start)?;
        kwargs.set_item("show", show)?;
        if let Some(f) = input {
            kwargs.set_item("input", f)?;
        }
        if let Some(f) = print {
            kwargs.set_item("print", f)?;
        }
        py.import("gamegraph._play")?.getattr("play")?.call((slf,), Some(&kwargs))
    }

    /// Pickles a game given by Python functions as the call of gg.explore() that gives it
    /// again (from the start, with the same functions, which must pickle: functions of a
    /// module, not lambdas). A shipped game is not pickled: call its gg.games function again
    /// or save() it and reopen the file.
    ///
    /// >>> import gamegraph as gg, pickle
    /// >>> s = gg.explore(5, range)  # a move from n goes to any smaller number
    /// >>> t = pickle.loads(pickle.dumps(s))
    /// >>> t, t.moves(3) == s.moves(3)
    /// (SolvedGame(positions=6, start=5, start_outcome=Outcome.WIN, start_remoteness=1), True)
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, pyo3::types::PyTuple>)> {
        let Inner::Python(e) = &self.inner else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a shipped game is not pickled: call its gg.games function again, or save() \
                 it and reopen the file with gg.games.open_values()",
            ));
        };
        let explore = py.import("gamegraph")?.getattr("explore")?;
        let args = pyo3::types::PyTuple::new(
            py,
            [
                e.positions[0].bind(py).clone(),
                e.moves.bind(py).clone(),
                e.terminal
                    .as_ref()
                    .map_or_else(|| py.None().into_bound(py), |t| t.bind(py).clone()),
                e.canonical
                    .as_ref()
                    .map_or_else(|| py.None().into_bound(py), |c| c.bind(py).clone()),
            ],
        )?;
        Ok((explore, args))
    }

    /// Lets the garbage collector see the positions and the callbacks (a callback may
    /// refer back to this object).
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Inner::Python(e) = &self.inner {
            for p in &e.positions {
                visit.call(p)?;
            }
            visit.call(&e.index)?;
            visit.call(&e.moves)?;
            visit.call(&e.terminal)?;
            visit.call(&e.canonical)?;
            visit.call(&e.graph)?;
        }
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let start = self.start(py).bind(py).repr()?.to_string();
        let name = match self.name() {
            Some(name) => format!("name='{name}', "),
            None => String::new(),
        };
        let r = self.start_remoteness().map_or_else(|| "None".to_owned(), |r| r.to_string());
        Ok(format!(
            "SolvedGame({name}positions={}, start={start}, start_outcome={}, start_remoteness={r})",
            self.__len__(),
            self.start_outcome()
        ))
    }
}
