//! `explore`: a game given by Python functions, explored and solved.

use gamegraph_game::{Terminal, solve};
use gamegraph_graph::{Graph, Vertex};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays::ranged;
use crate::error::value_error;
use crate::graph::PyGraph;
use crate::memory::{grow, memory_error};
use crate::solved::{PyExplored, PySolvedGame};

/// How many positions and moves an exploration takes between two looks for Ctrl-C.
const SIGNAL_STEPS: u32 = 4096;
/// How many positions and moves an exploration takes between two looks at the free memory
/// (a few reads of `/proc`).
const MEMORY_STEPS: u32 = 1 << 16;
/// About how many bytes a position given by Python takes while it is explored: the object,
/// its entry in the index, the Rust arrays and the dict's growth.
const BYTES_PER_PYTHON_POSITION: u64 = 400;

/// The value a `terminal` function returned, checked: 1 win, 2 loss, 3 tie.
fn terminal_value(p: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<Terminal> {
    match value.extract::<i64>() {
        Ok(1) => Ok(Terminal::Win),
        Ok(2) => Ok(Terminal::Loss),
        Ok(3) => Ok(Terminal::Tie),
        _ => Err(value_error(format!(
            "terminal({}) returned {}, not 1 (win), 2 (loss) or 3 (tie)",
            p.repr()?,
            value.repr()?
        ))),
    }
}

/// The error of a position that cannot be a dict key, naming it.
fn unhashable(py: Python<'_>, e: PyErr, q: &Bound<'_, PyAny>) -> PyErr {
    if !e.is_instance_of::<PyTypeError>(py) {
        return e;
    }
    match (q.repr(), q.get_type().name()) {
        (Ok(r), Ok(t)) => PyTypeError::new_err(format!(
            "the position {r} is a {t}, which is not hashable: positions must be hashable \
             (ints, tuples, strings, frozensets, ...)"
        )),
        _ => e,
    }
}

/// Adds a note naming the callback call `call` (such as `moves(7)`) to an error a callback
/// raised, so that the traceback says which position it failed on (Python 3.11 and later;
/// the error is unchanged on older versions).
pub(crate) fn noted(py: Python<'_>, e: PyErr, call: impl FnOnce() -> PyResult<String>) -> PyErr {
    let value = e.value(py);
    if value.hasattr("add_note").unwrap_or(false)
        && let Ok(call) = call()
    {
        let _ = value.call_method1("add_note", (format!("raised by {call}"),));
    }
    e
}

/// `f(p)`, an error raised there noted with the call.
pub(crate) fn call<'py>(
    name: &str,
    f: &Bound<'py, PyAny>,
    p: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    f.call1((p,)).map_err(|e| noted(p.py(), e, || Ok(format!("{name}({})", p.repr()?))))
}

/// The positions after each move from `p`: `moves(p)` as an iterator, with a `TypeError`
/// naming the call when it returns something that is not iterable.
pub(crate) fn moves_iter<'py>(
    moves: &Bound<'py, PyAny>,
    p: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
    let out = call("moves", moves, p)?;
    out.try_iter().map_err(|_| match (p.repr(), out.get_type().name()) {
        (Ok(p), Ok(t)) => PyTypeError::new_err(format!(
            "moves({p}) returned {t}, not an iterable of positions (return [] when the game is over)"
        )),
        (Err(e), _) | (_, Err(e)) => e,
    })
}

/// `canonical(q)` (or `q` itself without one), errors noted with the call.
pub(crate) fn canonical_of<'py>(
    canonical: Option<&Py<PyAny>>,
    q: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    match canonical {
        Some(f) => call("canonical", f.bind(q.py()), &q),
        None => Ok(q),
    }
}

/// How many positions whose canonical form is another object the contract check of
/// `canonical` looks at, besides the start.
const CANONICAL_SAMPLE: usize = 32;

/// Checks `canonical` against the rules on the sampled positions: each `(raw, c)` is a
/// position as `moves` (or the caller) gave it and the vertex of its canonical form.
/// canonical must be idempotent, the moves of `raw` must lead to the classes the moves of
/// its representative lead to, and a finished `raw` must be worth what its representative
/// is worth.
#[allow(clippy::too_many_arguments)]
fn check_canonical(
    py: Python<'_>,
    sample: &[(Py<PyAny>, usize)],
    positions: &[Py<PyAny>],
    index: &Bound<'_, PyDict>,
    graph: &Graph,
    terminals: &[Terminal],
    moves: &Bound<'_, PyAny>,
    terminal: Option<&Py<PyAny>>,
    canonical: Option<&Py<PyAny>>,
) -> PyResult<()> {
    let broken = |what: String| {
        value_error(format!(
            "canonical breaks its contract: {what} (canonical must be idempotent, commute with \
             the moves and keep terminal values; see explore's documentation)"
        ))
    };
    for (raw, c) in sample {
        let (raw, rep) = (raw.bind(py), positions[*c].bind(py));
        let again = canonical_of(canonical, rep.clone())?;
        if !again.eq(rep)? {
            return Err(broken(format!(
                "canonical({}) is {}, not itself",
                rep.repr()?,
                again.repr()?
            )));
        }
        let mut classes: Vec<usize> = Vec::new();
        for q in moves_iter(moves, raw)? {
            let q = canonical_of(canonical, q?)?;
            match index.get_item(&q)? {
                Some(i) => classes.push(i.extract()?),
                None => classes.push(usize::MAX),
            }
        }
        classes.sort_unstable();
        classes.dedup();
        let want: Vec<usize> =
            graph.successors(Vertex::from_index(*c)).iter().map(|v| v.index()).collect();
        if classes != want {
            let show = |list: &[usize]| -> PyResult<String> {
                let items: PyResult<Vec<String>> = list
                    .iter()
                    .map(|&i| match positions.get(i) {
                        Some(p) => Ok(p.bind(py).repr()?.to_string()),
                        None => Ok("a position the exploration never reached".into()),
                    })
                    .collect();
                Ok(format!("[{}]", items?.join(", ")))
            };
            return Err(broken(format!(
                "canonical({}) is {}, but the moves of the one lead to the classes {} and of the \
                 other to {}",
                raw.repr()?,
                rep.repr()?,
                show(&classes)?,
                show(&want)?
            )));
        }
        if want.is_empty()
            && let Some(f) = terminal
        {
            let value = terminal_value(raw, &call("terminal", f.bind(py), raw)?)?;
            if value != terminals[*c] {
                return Err(broken(format!(
                    "terminal({}) is {:?} but terminal({}) of its canonical form is {:?}",
                    raw.repr()?,
                    value,
                    rep.repr()?,
                    terminals[*c]
                )));
            }
        }
    }
    Ok(())
}

/// Explores every position of a game reachable from start and solves it: four outcomes
/// for the player to move (1 win, 2 loss, 3 tie, 0 draw: play for ever) and the
/// remoteness of each position, as the shipped games of gg.games are solved.
///
/// - start: the first position; positions are any hashable objects (ints, tuples,
///   strings, frozensets, ...) that say everything about the state of the game,
///   including whose turn it is when that matters;
/// - moves(p): an iterable of the positions after each legal move from p; nothing when the
///   game is over;
/// - terminal(p): for a position without moves, its value for the player to move there:
///   1 (win), 2 (loss) or 3 (tie); by default 2, the player who cannot move loses;
/// - canonical(p): the representative of p's class of equivalent positions (board
///   symmetries, ...), which must commute with the moves; by default p itself;
/// - max_positions: the most positions to explore (by default, what the memory this
///   process may still allocate holds, as for gg.games).
///
/// The outcomes are ordered win > tie > draw > loss for the player to move. A position is
/// won when some move leads to a lost one, lost when every move leads to a won one (or
/// when terminal says so), tied when neither and a tied end can be reached through
/// positions that are neither; the rest are draws. The winner hurries, the loser delays,
/// and a tie is reached as fast as possible.
///
/// Exploration is breadth-first from start, positions numbered as found (start first);
/// the callbacks are called from the calling thread and hold the GIL (moves and canonical
/// about once per position and move, terminal once per finished position). The solve
/// then runs in Rust without the GIL.
///
/// Raises whatever a callback raises, with a note naming the call (``raised by
/// moves(7)``, Python 3.11 and later); TypeError naming the call when moves returns
/// something that is not iterable (``moves(7) returned NoneType, ...``) and for a position
/// that is not hashable; ValueError naming the position for a terminal value other than
/// 1, 2 or 3, when more than max_positions positions are reachable, and when canonical
/// breaks its contract on a sample (the start and the first positions whose canonical
/// form is another object: canonical(p) must be p for a canonical p, the moves of a
/// position and of its canonical form must lead to the same classes, and a finished
/// position must be worth what its canonical form is worth); MemoryError when the positions do not
/// fit in memory; KeyboardInterrupt on Ctrl-C (looked for every few thousand positions
/// and moves, even when moves is an iterator written in C).
///
/// >>> import gamegraph as gg
/// >>> # Take 1, 3 or 4 objects from a heap; whoever cannot move loses.
/// >>> s = gg.explore(10, lambda n: [n - k for k in (1, 3, 4) if k <= n])
/// >>> len(s), s.start_outcome, s.start_remoteness
/// (11, Outcome.WIN, 5)
/// >>> [n for n in range(11) if s.outcome(n) == gg.LOSS]
/// [0, 2, 7, 9]
/// >>> s.moves(10)
/// [(7, Outcome.WIN, 4), (9, Outcome.WIN, 6), (6, Outcome.LOSS, 3)]
#[pyfunction]
#[pyo3(signature = (start, moves, terminal = None, canonical = None, *, max_positions = None))]
pub(crate) fn explore(
    py: Python<'_>,
    start: Bound<'_, PyAny>,
    moves: Py<PyAny>,
    terminal: Option<Py<PyAny>>,
    canonical: Option<Py<PyAny>>,
    max_positions: Option<i128>,
) -> PyResult<PySolvedGame> {
    let limit: usize = match max_positions {
        Some(n) => ranged(n, "max_positions", 1, Vertex::MAX_VERTICES as i128)?,
        None => crate::memory::default_max_positions(BYTES_PER_PYTHON_POSITION),
    };
    let index = PyDict::new(py);
    let raw_start = start.clone().unbind();
    let start = canonical_of(canonical.as_ref(), start)?;
    index.set_item(&start, 0usize).map_err(|e| unhashable(py, e, &start))?;
    let mut positions: Vec<Py<PyAny>> = vec![start.unbind()];
    // Positions whose canonical form is another object, for the check of canonical.
    let mut sample: Vec<(Py<PyAny>, usize)> = Vec::new();
    if canonical.is_some() {
        sample.push((raw_start, 0));
    }
    let mut terminals: Vec<Terminal> = Vec::new();
    let mut offsets: Vec<u64> = vec![0];
    let mut targets: Vec<Vertex> = Vec::new();
    let mut successors: Vec<Vertex> = Vec::new();
    let moves_of = moves.bind(py);
    let mut head = 0;
    // Every position and every move counts; Ctrl-C is looked for every SIGNAL_STEPS of
    // them, whatever the callbacks do (an iterator written in C runs no Python code that
    // would notice it).
    let mut steps = 0u32;
    let mut step = || -> PyResult<()> {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(SIGNAL_STEPS) {
            py.check_signals()?;
        }
        if steps.is_multiple_of(MEMORY_STEPS) {
            crate::memory::still_room("the exploration")?;
        }
        Ok(())
    };
    while head < positions.len() {
        let p = positions[head].bind(py).clone();
        head += 1;
        step()?;
        successors.clear();
        for raw in moves_iter(moves_of, &p)? {
            step()?;
            let raw = raw.map_err(|e| noted(py, e, || Ok(format!("moves({})", p.repr()?))))?;
            let keep = canonical.is_some() && sample.len() <= CANONICAL_SAMPLE;
            let kept = keep.then(|| raw.clone());
            let q = canonical_of(canonical.as_ref(), raw)?;
            let found = index.get_item(&q).map_err(|e| unhashable(py, e, &q))?;
            let v = match found {
                Some(i) => Vertex::from_index(i.extract::<usize>()?),
                None => {
                    let i = positions.len();
                    if i >= limit {
                        return Err(value_error(format!(
                            "more than {limit} positions are reachable; raise max_positions"
                        )));
                    }
                    index.set_item(&q, i)?;
                    grow(&mut positions, "the positions")?;
                    positions.push(q.clone().unbind());
                    Vertex::from_index(i)
                }
            };
            if let Some(raw) = kept
                && !raw.eq(&q)?
            {
                sample.push((raw.unbind(), v.index()));
            }
            grow(&mut successors, "the moves of a position")?;
            successors.push(v);
        }
        let value = if successors.is_empty() {
            match &terminal {
                Some(f) => terminal_value(&p, &call("terminal", f.bind(py), &p)?)?,
                None => Terminal::Loss,
            }
        } else {
            successors.sort_unstable();
            successors.dedup();
            targets.try_reserve(successors.len()).map_err(|_| {
                memory_error("the moves", (targets.len() + successors.len()) as u64 * 8)
            })?;
            targets.extend_from_slice(&successors);
            Terminal::Loss
        };
        grow(&mut terminals, "the terminal values")?;
        terminals.push(value);
        grow(&mut offsets, "the positions")?;
        offsets.push(targets.len() as u64);
    }
    let graph = Graph::from_csr(offsets, targets).map_err(value_error)?;
    check_canonical(
        py,
        &sample,
        &positions,
        &index,
        &graph,
        &terminals,
        moves_of,
        terminal.as_ref(),
        canonical.as_ref(),
    )?;
    let solution = py.detach(|| solve(&graph, |v| terminals[v.index()]));
    let values = crate::graph::game_terminals(&graph, |v| terminals[v.index()]);
    let graph = Py::new(py, PyGraph { graph, start: Some(Vertex(0)), terminal: values })?;
    Ok(PySolvedGame::python(PyExplored {
        positions,
        index: index.unbind(),
        moves,
        terminal,
        canonical,
        graph,
        solution,
    }))
}
