//! Shipped games solved tier by tier into a directory (`gg.games.solve_tiers`) and queried
//! from it (`gg.games.open_tiers`), as `gamegraph game ... solve -o DIR` and `query
//! --results DIR` do.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gamegraph_game::tier::{TierConfig, TierError, TierValues, Tiered};
use gamegraph_game::{Outcome, PositionValue};
use gamegraph_graph::Limit;
use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyOSError,
    PyPermissionError, PyRuntimeError,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::arrays::ranged;
use crate::board::PyBoard;
use crate::error::{limit_error, os_error, value_error};
use crate::games::{WithGame, by_name};
use crate::outcome::PyOutcome;
use crate::values::{Failure, PyMove, Queries, Stored};
use crate::{interrupt, pool};

/// The Python exception for a tier solve's or query's error, with the library's message
/// (which names the file for an I/O error or a damaged file).
pub(crate) fn tier_error(e: TierError) -> PyErr {
    let message = e.to_string();
    match e {
        TierError::Limit { limit: limit @ Limit::Memory { .. }, .. } => limit_error(
            limit,
            format_args!("{message}: give a larger max_memory if this machine holds it"),
        ),
        TierError::Limit { limit, .. } => limit_error(limit, message),
        TierError::Io { kind, .. } => match kind {
            ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
            ErrorKind::AlreadyExists => PyFileExistsError::new_err(message),
            ErrorKind::NotADirectory => PyNotADirectoryError::new_err(message),
            ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
            _ => PyOSError::new_err(message),
        },
        TierError::Contract { .. } | TierError::Remoteness { .. } => {
            PyRuntimeError::new_err(format!("{message} (a bug of the game's rules)"))
        }
        // A damaged directory is bad input, as a damaged values file is for open_values.
        _ => value_error(message),
    }
}

/// What `solve_tiers` found.
///
/// - positions: the reachable positions (canonical), tiers: the tiers play reaches;
/// - resumed: the steps (marking the positions of a tier, solving it) taken from an
///   earlier run in the directory, 2 * tiers when it held a finished solve;
/// - file_bytes: the bytes of the values files the directory keeps, one per tier;
/// - start, start_outcome, start_remoteness: the start position (canonical) and its value
///   (1 win, 2 loss, 3 tie, 0 draw; the remoteness None for a draw or without it);
/// - wins, losses, ties, draws: the reachable positions of each outcome;
/// - seconds: the time the call took.
#[pyclass(frozen, get_all, name = "TierSummary", module = "gamegraph")]
pub(crate) struct PyTierSummary {
    positions: u64,
    tiers: usize,
    resumed: u32,
    file_bytes: u64,
    start: String,
    start_outcome: PyOutcome,
    start_remoteness: Option<u32>,
    wins: usize,
    losses: usize,
    ties: usize,
    draws: usize,
    seconds: f64,
}

#[pymethods]
impl PyTierSummary {
    fn __repr__(&self) -> String {
        let r = self.start_remoteness.map_or_else(|| "None".to_owned(), |r| r.to_string());
        format!(
            "TierSummary(positions={}, tiers={}, resumed={}, file_bytes={}, start='{}', \
             start_outcome={}, start_remoteness={r}, wins={}, losses={}, ties={}, draws={}, \
             seconds={:.3})",
            self.positions,
            self.tiers,
            self.resumed,
            self.file_bytes,
            self.start,
            self.start_outcome,
            self.wins,
            self.losses,
            self.ties,
            self.draws,
            self.seconds
        )
    }
}

/// A tier solve of the game [`by_name`] builds.
struct Solve<'a> {
    dir: &'a Path,
    config: TierConfig,
    stop: Arc<AtomicBool>,
    pool: rayon::ThreadPool,
    py: Python<'a>,
}

impl WithGame for Solve<'_> {
    type Output = PyTierSummary;

    fn with<G>(self, game: G) -> PyResult<PyTierSummary>
    where
        G: Tiered + Send + Sync + 'static,
        G::Position: Into<u128> + Send,
    {
        let Solve { dir, config, stop, pool, py } = self;
        let started = Instant::now();
        // Ctrl-C sets the stop flag; the KeyboardInterrupt is raised once the solve returns
        // (the tiers it finished are kept).
        let summary = interrupt::run_with(py, None, &stop, |_| {
            pool.install(|| gamegraph_game::tier::solve_tiers(&game, dir, &config))
        })?
        .value
        .map_err(|e| match e {
            TierError::OtherGame { .. } => value_error(format!("{}: {e}", dir.display())),
            e => tier_error(e),
        })?;
        let c = summary.counts;
        Ok(PyTierSummary {
            positions: summary.positions(),
            tiers: summary.tiers.len(),
            resumed: summary.resumed,
            file_bytes: summary.file_bytes,
            start: game.show(game.canonical(game.start())),
            start_outcome: PyOutcome(summary.start_outcome),
            start_remoteness: summary.start_remoteness,
            wins: c.win,
            losses: c.loss,
            ties: c.tie,
            draws: c.draw,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// Solves the shipped game named game, with the arguments args as the function of that
/// name takes them, a tier at a time into the directory directory (created if needed), as
/// `gamegraph game ... solve -o DIR` does; gg.games.open_tiers() answers queries from it.
/// Returns a TierSummary.
///
/// game: 'tic_tac_toe', 'connect_four' (cols, rows), 'kayles' (rows), 'dawsons_kayles'
/// (rows), 'octal' (code, rows), 'quixo' (side), 'chase' (cells) or 'tab' (n, m, x, y);
/// symmetry as the functions take it. A tier is a class of positions play never returns
/// to (the stones of a Connect Four board, the pins left on the rows, the cubes of a
/// Quixo board); memory holds one tier and the files of the tiers it moves to, never the
/// whole game, and the directory keeps a values file a tier (about 2 bits a position with
/// the remoteness on Connect Four). remoteness=False keeps the outcomes only.
///
/// A directory that holds a solve of the same game with the same settings is resumed:
/// the steps it finished are read back, not computed again. The GIL is released; Ctrl-C
/// stops the solve within a chunk of positions (KeyboardInterrupt) and keeps the tiers
/// it finished, so that the same call resumes it.
///
/// Raises ValueError when the directory holds another game's solve (naming it) or other
/// settings' (remoteness), or for bad arguments; MemoryError before any work when a tier
/// needs more memory than max_memory bytes (by default, what this process may still
/// allocate); OSError (naming the file) when a file cannot be written or read.
///
/// >>> import gamegraph as gg, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> s = gg.games.solve_tiers(folder.name, "connect_four", 4, 4)
/// >>> s.positions, s.tiers, s.start_outcome, s.start_remoteness, s.resumed
/// (80541, 17, Outcome.TIE, 16, 0)
/// >>> gg.games.solve_tiers(folder.name, "connect_four", 4, 4).resumed
/// 34
/// >>> folder.cleanup()
#[pyfunction]
#[pyo3(signature = (
    directory, game, *args, symmetry = true, remoteness = true, threads = None, max_memory = None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_tiers(
    py: Python<'_>,
    directory: PathBuf,
    game: &str,
    args: &Bound<'_, PyTuple>,
    symmetry: bool,
    remoteness: bool,
    threads: Option<i64>,
    max_memory: Option<i128>,
) -> PyResult<PyTierSummary> {
    let max_memory = match max_memory {
        Some(n) => Some(ranged(n, "max_memory", 1, i128::from(u64::MAX))?),
        None => crate::memory::default_max_memory(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let config = TierConfig {
        no_remoteness: !remoteness,
        max_memory,
        stop: Some(Arc::clone(&stop)),
        ..TierConfig::default()
    };
    let pool = pool::build(threads)?;
    by_name("solve_tiers", game, args, symmetry, Solve { dir: &directory, config, stop, pool, py })
}

/// The values of a directory solved by `solve_tiers` (or by `gamegraph game ... solve -o
/// DIR`), read from its files: the value of a position (canonicalised first) and of its
/// moves, one block of a tier's file read each, without solving again.
/// gg.games.open_tiers() opens one.
///
/// - outcome(p), remoteness(p), value(p), moves(p), best_move(p): as SolvedGame answers
///   them (the remoteness is None for every position when the directory was solved
///   without it);
/// - has_remoteness: whether the directory holds the remoteness;
/// - directory, game, file_bytes: where it is, the game it holds, its values files' bytes.
///
/// A text that is no position raises ValueError with its column, a position that cannot
/// be reached KeyError, a damaged file ValueError naming it.
///
/// >>> import gamegraph as gg, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> _ = gg.games.solve_tiers(folder.name, "tic_tac_toe", remoteness=False)
/// >>> v = gg.games.open_tiers(folder.name, "tic_tac_toe")
/// >>> v.has_remoteness, v.value("XX./OO./..."), v.outcome(".../.X./...")
/// (False, (Outcome.WIN, None), Outcome.TIE)
/// >>> del v; folder.cleanup()
#[pyclass(frozen, name = "TierValues", module = "gamegraph")]
pub(crate) struct PyTierValues {
    queries: Queries,
    /// The directory.
    #[pyo3(get)]
    directory: String,
    /// The game's identity ('connect-four 5x4 with symmetry', ...).
    #[pyo3(get)]
    game: String,
    /// The bytes of the values files, one per tier.
    #[pyo3(get)]
    file_bytes: u64,
}

#[pymethods]
impl PyTierValues {
    /// Whether the directory holds the remoteness of the positions.
    #[getter]
    fn has_remoteness(&self) -> bool {
        self.queries.has_remoteness()
    }

    /// The outcome and the remoteness of position p.
    fn value(&self, py: Python<'_>, p: &str) -> PyResult<(PyOutcome, Option<u32>)> {
        self.queries.value(py, p)
    }

    /// The outcome of position p for the player to move (an Outcome: WIN, LOSS, TIE, DRAW).
    fn outcome(&self, py: Python<'_>, p: &str) -> PyResult<PyOutcome> {
        Ok(self.queries.value(py, p)?.0)
    }

    /// The remoteness of position p, None for a draw or when the directory holds none.
    fn remoteness(&self, py: Python<'_>, p: &str) -> PyResult<Option<u32>> {
        Ok(self.queries.value(py, p)?.1)
    }

    /// Every move from position p as (position, outcome for the mover, remoteness), best
    /// first, as SolvedGame.moves() lists them.
    fn moves(&self, py: Python<'_>, p: &str) -> PyResult<Vec<PyMove>> {
        self.queries.moves(py, p)
    }

    /// The best move from position p, as moves(p)[0], or None where there is no move.
    fn best_move(&self, py: Python<'_>, p: &str) -> PyResult<Option<PyMove>> {
        Ok(self.queries.moves(py, p)?.into_iter().next())
    }

    /// The picture of position p, a Board (print() draws it, Jupyter shows a table), or
    /// None when the game draws none.
    fn board(&self, p: &str) -> PyResult<Option<PyBoard>> {
        self.queries.board(p)
    }

    /// The name of the move from position p to position q ('column 4', 'b2'), as the
    /// terminal game names it.
    fn move_name(&self, p: &str, q: &str) -> PyResult<Option<String>> {
        self.queries.move_name(p, q)
    }

    fn __repr__(&self) -> String {
        format!(
            "TierValues(directory='{}', game='{}', has_remoteness={}, file_bytes={})",
            self.directory,
            self.game,
            if self.queries.has_remoteness() { "True" } else { "False" },
            self.file_bytes
        )
    }
}

/// A solved directory opened for its game.
struct Opened<G: Tiered + 'static> {
    values: TierValues<G>,
}

impl<G> Stored for Opened<G>
where
    G: Tiered + Send + Sync + 'static,
{
    fn has_remoteness(&self) -> bool {
        self.values.has_remoteness()
    }

    fn value(&mut self, s: &str) -> Result<Option<(Outcome, Option<u32>)>, Failure> {
        let p = self.values.game().parse(s).map_err(Failure::Parse)?;
        self.values.value(p).map_err(Failure::Tier)
    }

    fn query(&mut self, s: &str) -> Result<Option<PositionValue<String>>, Failure> {
        let p = self.values.game().parse(s).map_err(Failure::Parse)?;
        let Some(value) = self.values.query(p).map_err(Failure::Tier)? else {
            return Ok(None);
        };
        Ok(Some(crate::solved::shown(self.values.game(), value)))
    }

    fn rules(&self) -> &dyn crate::board::Rules {
        self.values.game()
    }
}

/// Opens a solved directory for the game [`by_name`] builds.
struct Open<'a> {
    dir: &'a Path,
}

impl WithGame for Open<'_> {
    type Output = PyTierValues;

    fn with<G>(self, game: G) -> PyResult<PyTierValues>
    where
        G: Tiered + Send + Sync + 'static,
        G::Position: Into<u128> + Send,
    {
        let identity = game.identity();
        let dir = self.dir;
        let values = TierValues::open(game, dir).map_err(|e| match e {
            // A directory that solve_tiers did not write is bad input.
            TierError::Io { kind: ErrorKind::NotFound, .. } => value_error(format!(
                "{}: a directory, not the results of solve_tiers(): {e}",
                dir.display()
            )),
            TierError::Unfinished { .. } => value_error(format!(
                "{}: {e} (solve_tiers() on it finishes the solve)",
                dir.display()
            )),
            TierError::OtherGame { .. } => value_error(format!("{}: {e}", dir.display())),
            e => tier_error(e),
        })?;
        let file_bytes = values.file_bytes();
        Ok(PyTierValues {
            queries: Queries::new(Box::new(Opened { values })),
            directory: dir.display().to_string(),
            game: identity,
            file_bytes,
        })
    }
}

/// Opens the directory directory solved by solve_tiers() (or by `gamegraph game ... solve
/// -o DIR`) for the shipped game named game with the arguments args, as solve_tiers()
/// takes them, and returns a TierValues that answers queries from its files.
///
/// Raises FileNotFoundError or NotADirectoryError for a path that is no directory;
/// ValueError for a directory that holds no solve (naming it), another game's (saying
/// which game it holds), an unfinished one, or a damaged one.
///
/// >>> import gamegraph as gg, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> _ = gg.games.solve_tiers(folder.name, "kayles", [4, 7])
/// >>> v = gg.games.open_tiers(folder.name, "kayles", [4, 7])
/// >>> v.value("7 4"), v.moves("7 4")[0]
/// ((Outcome.WIN, 9), ('7 2', Outcome.WIN, 8))
/// >>> del v; folder.cleanup()
#[pyfunction]
#[pyo3(signature = (directory, game, *args, symmetry = true))]
pub(crate) fn open_tiers(
    directory: PathBuf,
    game: &str,
    args: &Bound<'_, PyTuple>,
    symmetry: bool,
) -> PyResult<PyTierValues> {
    match std::fs::metadata(&directory) {
        Err(e) => return Err(os_error(&e, &directory)),
        Ok(m) if !m.is_dir() => {
            return Err(PyNotADirectoryError::new_err(format!(
                "{}: not a directory (open_values() opens a values file)",
                directory.display()
            )));
        }
        Ok(_) => {}
    }
    by_name("open_tiers", game, args, symmetry, Open { dir: &directory })
}
