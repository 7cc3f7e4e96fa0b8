//! `ValuesFile`: queries answered from a values file of a shipped game; the query methods
//! it shares with `TierValues` (a directory solved by tiers, `tiers.rs`).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Mutex;

use gamegraph_game::tier::TierError;
use gamegraph_game::{FileError, Game, Outcome, ParseError, PositionValue, ValuesFile};
use pyo3::exceptions::{PyKeyError, PyOSError};
use pyo3::prelude::*;

use crate::board::{PyBoard, Rules};
use crate::error::value_error;
use crate::outcome::PyOutcome;
use crate::solved::parse_error;

/// Why a query of a values file failed.
pub(crate) enum Failure {
    /// The text is no position of the game.
    Parse(ParseError),
    /// The file could not be read, or is damaged.
    File(FileError),
    /// A tier's file could not be read, or is damaged.
    Tier(TierError),
}

/// The values of a shipped game, stored (a values file, or a directory solved by tiers),
/// positions in the game's notation.
pub(crate) trait Stored: Send {
    /// Whether the values hold the remoteness.
    fn has_remoteness(&self) -> bool;
    /// The value of a position, `None` when it is not reachable.
    fn value(&mut self, s: &str) -> Result<Option<(Outcome, Option<u32>)>, Failure>;
    /// The value of a position and of its moves, `None` when it is not reachable.
    fn query(&mut self, s: &str) -> Result<Option<PositionValue<String>>, Failure>;
    /// The game's pictures and move names.
    fn rules(&self) -> &dyn Rules;
}

impl<G> Stored for ValuesFile<G, BufReader<File>>
where
    G: Game + Send,
    G::Position: Into<u128>,
{
    fn has_remoteness(&self) -> bool {
        ValuesFile::has_remoteness(self)
    }

    fn value(&mut self, s: &str) -> Result<Option<(Outcome, Option<u32>)>, Failure> {
        let p = self.game().parse(s).map_err(Failure::Parse)?;
        ValuesFile::value(self, p).map_err(Failure::File)
    }

    fn query(&mut self, s: &str) -> Result<Option<PositionValue<String>>, Failure> {
        let p = self.game().parse(s).map_err(Failure::Parse)?;
        let Some(value) = ValuesFile::query(self, p).map_err(Failure::File)? else {
            return Ok(None);
        };
        let game = self.game();
        Ok(Some(crate::solved::shown(game, value)))
    }

    fn rules(&self) -> &dyn Rules {
        self.game()
    }
}

/// The Python exception for a values file error at `path`.
pub(crate) fn file_error(e: FileError, path: &Path) -> PyErr {
    match e {
        FileError::Io { message, .. } => {
            PyOSError::new_err(format!("{}: {message}", path.display()))
        }
        e => value_error(format!("{}: {e}", path.display())),
    }
}

/// The answers of a values file of a shipped game, read from the file: the value of a
/// position (canonicalised first) and of its moves, one block read each, without
/// exploring the game. gg.games.open_values() opens one.
///
/// - outcome(p), remoteness(p), value(p), moves(p), best_move(p): as SolvedGame answers
///   them (the remoteness is None for every position when the file was saved without
///   it);
/// - has_remoteness: whether the file holds the remoteness.
///
/// A text that is no position raises ValueError with its column, a position that cannot
/// be reached KeyError, a damaged block ValueError naming the damage.
///
/// >>> import gamegraph as gg, os, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> path = os.path.join(folder.name, "ttt.values")
/// >>> gg.games.tic_tac_toe().save(path, remoteness=False)
/// >>> v = gg.games.open_values(path, "tic_tac_toe")
/// >>> v.has_remoteness, v.value("XX./OO./..."), v.outcome(".../.X./...")
/// (False, (Outcome.WIN, None), Outcome.TIE)
/// >>> del v; folder.cleanup()
#[pyclass(frozen, name = "ValuesFile", module = "gamegraph")]
pub(crate) struct PyValuesFile {
    queries: Queries,
    /// What `__repr__` shows: the path and the game.
    path: String,
    game: String,
}

impl PyValuesFile {
    pub(crate) fn new(stored: Box<dyn Stored>, path: &Path, game: String) -> PyValuesFile {
        PyValuesFile { queries: Queries::new(stored), path: path.display().to_string(), game }
    }
}

/// The queries of stored values, shared by `ValuesFile` and `TierValues`: positions in
/// the game's notation, answers as `SolvedGame` gives them.
pub(crate) struct Queries {
    stored: Mutex<Box<dyn Stored>>,
}

impl Queries {
    pub(crate) fn new(stored: Box<dyn Stored>) -> Queries {
        Queries { stored: Mutex::new(stored) }
    }

    /// Runs `f` on the stored values without the GIL (a block is read from disk).
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn Stored) -> Result<T, Failure> + Send,
    ) -> Result<T, Failure> {
        py.detach(|| {
            let mut stored = self.stored.lock().unwrap_or_else(|e| e.into_inner());
            f(stored.as_mut())
        })
    }

    /// Whether the values hold the remoteness.
    pub(crate) fn has_remoteness(&self) -> bool {
        self.stored.lock().unwrap_or_else(|e| e.into_inner()).has_remoteness()
    }

    /// The outcome code and the remoteness of position `p`: `ValueError` for a text that
    /// is no position, `KeyError` for one play does not reach.
    pub(crate) fn value(&self, py: Python<'_>, p: &str) -> PyResult<(PyOutcome, Option<u32>)> {
        match self.with(py, |s| s.value(p)).map_err(|e| failure(p, e))? {
            Some((o, r)) => Ok((PyOutcome(o), r)),
            None => Err(PyKeyError::new_err(p.to_owned())),
        }
    }

    /// The picture of position `p`, if the game draws one; `ValueError` for a text that is
    /// no position.
    pub(crate) fn board(&self, p: &str) -> PyResult<Option<PyBoard>> {
        let stored = self.stored.lock().unwrap_or_else(|e| e.into_inner());
        let board = stored.rules().board(p).map_err(|e| parse_error(p, &e))?;
        Ok(board.map(PyBoard::new))
    }

    /// The name of the move from `p` to `q`, if the game names its moves.
    pub(crate) fn move_name(&self, p: &str, q: &str) -> PyResult<Option<String>> {
        let stored = self.stored.lock().unwrap_or_else(|e| e.into_inner());
        stored.rules().move_name(p, q).map_err(|e| value_error(e.to_string()))
    }

    /// The moves of position `p`, best first; errors as [`Queries::value`].
    pub(crate) fn moves(&self, py: Python<'_>, p: &str) -> PyResult<Vec<PyMove>> {
        match self.with(py, |s| s.query(p)).map_err(|e| failure(p, e))? {
            Some(value) => Ok(value
                .moves
                .into_iter()
                .map(|m| (m.position, PyOutcome(m.outcome), m.remoteness))
                .collect()),
            None => Err(PyKeyError::new_err(p.to_owned())),
        }
    }
}

/// A move as the queries give it: the position after it, its outcome for the mover, the
/// remoteness of the position it leads to.
pub(crate) type PyMove = (String, PyOutcome, Option<u32>);

/// The Python exception for a failed query of `p`.
fn failure(p: &str, e: Failure) -> PyErr {
    match e {
        Failure::Parse(e) => parse_error(p, &e),
        Failure::File(FileError::Io { message, .. }) => PyOSError::new_err(message),
        Failure::File(e) => value_error(e),
        Failure::Tier(e) => crate::tiers::tier_error(e),
    }
}

#[pymethods]
impl PyValuesFile {
    /// Whether the file holds the remoteness of the positions.
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

    /// The remoteness of position p, None for a draw or when the file holds none.
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
            "ValuesFile(path='{}', game='{}', has_remoteness={})",
            self.path,
            self.game,
            if self.queries.has_remoteness() { "True" } else { "False" }
        )
    }
}
