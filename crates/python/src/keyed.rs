//! Values files of games given by Python functions: each position stored by its key, the
//! text a key function gives it, and reopened with the same functions.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gamegraph_game::{
    ExploreConfig, Game, MoveValue, ParseError, PositionValue, SolvedGame, Terminal, ValuesFile,
};
use gamegraph_graph::Vertex;
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use crate::error::{os_error, value_error};
use crate::explore::{call, canonical_of, moves_iter, noted};
use crate::outcome::PyOutcome;
use crate::solved::{PyExplored, PyMove};
use crate::values::file_error;

/// The identity a values file of a Python game records: `python NAME`.
fn identity(name: Option<&str>) -> String {
    format!("python {}", name.unwrap_or("game"))
}

/// The key of position `p`: `key(p)` when given, which must be a str; otherwise the repr
/// of an int, str, bytes, bool or None, or of a tuple of them, which is the same in every
/// run. Other positions need a key function.
fn key_text(key: Option<&Py<PyAny>>, p: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = p.py();
    if let Some(f) = key {
        let k = call("key", f.bind(py), p)?;
        return k.extract::<String>().map_err(|_| {
            let (r, t) = (p.repr().map(|r| r.to_string()), k.get_type().name());
            PyTypeError::new_err(format!(
                "key({}) returned {}, not a str",
                r.unwrap_or_default(),
                t.map(|t| t.to_string()).unwrap_or_default()
            ))
        });
    }
    fn plain(p: &Bound<'_, PyAny>) -> bool {
        p.is_none()
            || p.is_instance_of::<PyBool>()
            || p.is_instance_of::<PyInt>()
            || p.is_instance_of::<PyString>()
            || p.is_instance_of::<PyBytes>()
            || p.cast::<PyTuple>().is_ok_and(|t| t.iter().all(|x| plain(&x)))
    }
    if !plain(p) {
        return Err(value_error(format!(
            "the position {} is a {}, whose text may differ from run to run: give key=, a \
             function from a position to a str that tells positions apart and is the same \
             in every run",
            p.repr()?,
            p.get_type().name()?
        )));
    }
    Ok(p.repr()?.to_string())
}

/// A 128-bit hash of a key (FNV-1a), the number a values file stores for the position.
fn hash(key: &str) -> u128 {
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    key.bytes().fold(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d, |h, b| {
        (h ^ u128::from(b)).wrapping_mul(PRIME)
    })
}

/// A game given by Python functions as the values file sees it: positions are the hashes
/// of their keys. Saving explores it again over the explored graph, in Rust; reading only
/// looks values up.
struct Keyed {
    identity: String,
    start: u128,
    /// Hash -> vertex of the explored graph, and the graph's moves and terminal values.
    vertex: HashMap<u128, Vertex>,
    keys: Vec<u128>,
    graph: gamegraph_graph::Graph,
    terminal: Vec<Terminal>,
}

impl Game for Keyed {
    type Position = u128;

    fn start(&self) -> u128 {
        self.start
    }

    fn moves(&self, p: u128, out: &mut Vec<u128>) {
        if let Some(&v) = self.vertex.get(&p) {
            out.extend(self.graph.successors(v).iter().map(|w| self.keys[w.index()]));
        }
    }

    fn terminal(&self, p: u128) -> Terminal {
        self.vertex.get(&p).map_or(Terminal::Loss, |v| self.terminal[v.index()])
    }

    fn show(&self, p: u128) -> String {
        format!("{p:032x}")
    }

    fn parse(&self, s: &str) -> Result<u128, ParseError> {
        u128::from_str_radix(s, 16).map_err(|_| ParseError::new(1, "expected a key's hash"))
    }

    fn identity(&self) -> String {
        self.identity.clone()
    }
}

/// Writes the values file of an explored game to `path`.
pub(crate) fn save(
    py: Python<'_>,
    explored: &PyExplored,
    path: &Path,
    remoteness: bool,
    key: Option<&Py<PyAny>>,
    name: Option<&str>,
) -> PyResult<()> {
    let mut keys = Vec::with_capacity(explored.positions.len());
    let mut vertex = HashMap::with_capacity(explored.positions.len());
    for (i, p) in explored.positions.iter().enumerate() {
        let p = p.bind(py);
        let h = hash(&key_text(key, p)?);
        if let Some(before) = vertex.insert(h, Vertex::from_index(i)) {
            return Err(value_error(format!(
                "the positions {} and {} have the same key: the key must tell positions apart",
                explored.positions[before.index()].bind(py).repr()?,
                p.repr()?
            )));
        }
        keys.push(h);
    }
    let pg = explored.graph.bind(py).borrow();
    let graph = pg.graph.clone();
    let terminal = (0..graph.num_vertices())
        .map(|i| {
            pg.terminal.as_ref().map_or(Terminal::Loss, |t| t.value_or_loss(Vertex::from_index(i)))
        })
        .collect();
    drop(pg);
    let game = Keyed { identity: identity(name), start: keys[0], vertex, keys, graph, terminal };
    let file = File::create(path).map_err(|e| os_error(&e, path))?;
    let mut w = BufWriter::new(file);
    py.detach(|| {
        // The same positions and moves again, so the same values: a solve in Rust.
        let config = ExploreConfig { max_positions: usize::MAX >> 1, ..ExploreConfig::default() };
        let solved = SolvedGame::new(game, &config).map_err(value_error)?;
        solved.save(&mut w, remoteness).map_err(|e| file_error(e, path))?;
        w.flush().map_err(|e| os_error(&e, path))
    })
}

/// The values file of a game given by Python functions, reopened with its functions: the
/// value of a position (canonicalised first) read from the file, one block a query, and the
/// moves of a position from moves() with their values. gg.open_values() opens one.
///
/// - outcome(p), remoteness(p), value(p), moves(p), best_move(p), p in values: as
///   SolvedGame answers them (the remoteness is None for every position when the file
///   was saved without it);
/// - has_remoteness: whether the file holds the remoteness.
///
/// A position that cannot be reached raises KeyError.
///
/// >>> import gamegraph as gg, os, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> path = os.path.join(folder.name, "take.values")
/// >>> moves = lambda n: [n - k for k in (1, 2) if k <= n]
/// >>> gg.explore(10, moves).save(path)
/// >>> v = gg.open_values(path, 10, moves)
/// >>> v
/// ExploredValuesFile(path='...take.values', game='python game', has_remoteness=True)
/// >>> v.value(10), v.moves(10)
/// ((Outcome.WIN, 7), [(9, Outcome.WIN, 6), (8, Outcome.LOSS, 5)])
/// >>> del v; folder.cleanup()
#[pyclass(frozen, name = "ExploredValuesFile", module = "gamegraph")]
pub(crate) struct PyExploredValues {
    file: Mutex<ValuesFile<Keyed, BufReader<File>>>,
    moves: Py<PyAny>,
    canonical: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    path: String,
    identity: String,
}

impl PyExploredValues {
    /// The value of position `p`, `None` when it is not in the file.
    fn lookup(
        &self,
        p: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(gamegraph_game::Outcome, Option<u32>)>> {
        let py = p.py();
        let c = canonical_of(self.canonical.as_ref(), p.clone())?;
        let h = hash(&key_text(self.key.as_ref(), &c)?);
        py.detach(|| {
            let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
            file.value(h)
        })
        .map_err(|e| file_error(e, Path::new(&self.path)))
    }

    fn value_of(&self, p: &Bound<'_, PyAny>) -> PyResult<(gamegraph_game::Outcome, Option<u32>)> {
        self.lookup(p)?.ok_or_else(|| PyKeyError::new_err(p.clone().unbind()))
    }
}

#[pymethods]
impl PyExploredValues {
    /// Whether the file holds the remoteness of the positions.
    #[getter]
    fn has_remoteness(&self) -> bool {
        self.file.lock().unwrap_or_else(|e| e.into_inner()).has_remoteness()
    }

    /// The outcome and the remoteness of position p.
    fn value(&self, p: &Bound<'_, PyAny>) -> PyResult<(PyOutcome, Option<u32>)> {
        let (o, r) = self.value_of(p)?;
        Ok((PyOutcome(o), r))
    }

    /// The outcome of position p for the player to move.
    fn outcome(&self, p: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
        Ok(PyOutcome(self.value_of(p)?.0))
    }

    /// The remoteness of position p, None for a draw or when the file holds none.
    fn remoteness(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.value_of(p)?.1)
    }

    /// Every move from position p as (position, outcome for the mover, remoteness), best
    /// first as SolvedGame.moves() orders them, equal moves in the order moves(p) gives.
    fn moves(&self, p: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
        let py = p.py();
        let (outcome, remoteness) = self.value_of(p)?;
        let mut found = Vec::new();
        let mut values = Vec::new();
        for (i, q) in moves_iter(self.moves.bind(py), p)?.enumerate() {
            let q = q.map_err(|e| noted(py, e, || Ok(format!("moves({})", p.repr()?))))?;
            let (o, r) = self.lookup(&q)?.ok_or_else(|| {
                value_error(format!(
                    "the move from {} to {} has no value in the file: the functions are not \
                     those the file was saved with",
                    p.repr().map(|r| r.to_string()).unwrap_or_default(),
                    q.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            values.push(MoveValue { position: i, outcome: o.flip(), remoteness: r });
            found.push(q.unbind());
        }
        let value = PositionValue::new(usize::MAX, outcome, remoteness, values);
        Ok(value
            .moves
            .into_iter()
            .map(|m| (found[m.position].clone_ref(py), PyOutcome(m.outcome), m.remoteness))
            .collect())
    }

    /// The best move from position p, as moves(p)[0], or None where there is no move.
    fn best_move(&self, p: &Bound<'_, PyAny>) -> PyResult<Option<PyMove>> {
        Ok(self.moves(p)?.into_iter().next())
    }

    /// Whether position p is in the file (reachable from the start).
    fn __contains__(&self, p: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.lookup(p)?.is_some())
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.moves)?;
        visit.call(&self.canonical)?;
        visit.call(&self.key)?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "ExploredValuesFile(path='{}', game='{}', has_remoteness={})",
            self.path,
            self.identity,
            if self.has_remoteness() { "True" } else { "False" }
        )
    }
}

/// Opens the values file at path that SolvedGame.save() wrote for a game given by Python
/// functions (gg.explore), with the same start, functions, key and name: the answers are
/// read from the file, a block a query, without exploring. A file of another game (another
/// name or start) raises ValueError.
///
/// >>> import gamegraph as gg, os, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> path = os.path.join(folder.name, "nim.values")
/// >>> moves = lambda heaps: [tuple(sorted(heaps[:i] + (k,) + heaps[i + 1:]))
/// ...                        for i, n in enumerate(heaps) for k in range(n)]
/// >>> gg.explore((1, 2, 3), moves).save(path, name="nim")
/// >>> v = gg.open_values(path, (1, 2, 3), moves, name="nim")
/// >>> v.value((1, 2, 3)), v.value((0, 1, 2))
/// ((Outcome.LOSS, 6), (Outcome.WIN, 3))
/// >>> gg.open_values(path, (1, 2, 3), moves)
/// Traceback (most recent call last):
///     ...
/// ValueError: ...: values file written for python nim, not python game
/// >>> folder.cleanup()
#[pyfunction]
#[pyo3(name = "open_explored_values")]
#[pyo3(signature = (path, start, moves, terminal = None, canonical = None, *, key = None, name = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn open_values(
    py: Python<'_>,
    path: PathBuf,
    start: Bound<'_, PyAny>,
    moves: Py<PyAny>,
    terminal: Option<Py<PyAny>>,
    canonical: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    name: Option<String>,
) -> PyResult<PyExploredValues> {
    let _ = terminal; // The file holds every value; terminal is taken as gg.explore takes it.
    let start = canonical_of(canonical.as_ref(), start)?;
    let game = Keyed {
        identity: identity(name.as_deref()),
        start: hash(&key_text(key.as_ref(), &start)?),
        vertex: HashMap::new(),
        keys: Vec::new(),
        graph: gamegraph_graph::Graph::from_csr(vec![0], Vec::new()).map_err(value_error)?,
        terminal: Vec::new(),
    };
    if let Some(why) = gamegraph_game::not_a_values_file(&path) {
        return Err(value_error(format!("{}: {why}", path.display())));
    }
    let file = File::open(&path).map_err(|e| os_error(&e, &path))?;
    let identity = game.identity.clone();
    let file = py
        .detach(|| ValuesFile::open(game, BufReader::new(file)))
        .map_err(|e| file_error(e, &path))?;
    Ok(PyExploredValues {
        file: Mutex::new(file),
        moves,
        canonical,
        key,
        path: path.display().to_string(),
        identity,
    })
}
