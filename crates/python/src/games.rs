//! The games shipped with gamegraph, solved in Rust (`gg.games`).

use gamegraph_game::tier::Tiered;
use gamegraph_play::{Spec, Visit};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use gamegraph_game::{ExploreConfig, ExploreError, Game, SolvedGame, ValuesFile};
use gamegraph_graph::{Limit, Vertex};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::arrays::{ranged, u64_items};
use crate::error::{limit_error, os_error, type_error, value_error};
use crate::solved::{Named, PySolvedGame};
use crate::values::{PyValuesFile, Stored, file_error};
use crate::{interrupt, pool};

/// Explores and solves `game` on a pool of `threads` threads without the GIL.
pub(crate) fn solve<G>(
    py: Python<'_>,
    game: G,
    name: String,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame>
where
    G: Game + Send + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    let max_positions = match max_positions {
        Some(n) => ranged(n, "max_positions", 1, Vertex::MAX_VERTICES as i128)?,
        None => crate::memory::default_max_positions(gamegraph_game::BYTES_PER_POSITION),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let config = ExploreConfig { max_positions, stop: Some(Arc::clone(&stop)) };
    let pool = pool::build(threads)?;
    // Ctrl-C sets the stop flag; the KeyboardInterrupt is raised once the solve returns.
    let solved =
        interrupt::run_with(py, None, &stop, |_| pool.install(|| SolvedGame::new(game, &config)))?
            .value;
    let solved = solved.map_err(|e| match e {
        ExploreError::Limit { limit: limit @ Limit::Budget { limit: most, .. }, .. } => {
            limit_error(
                limit,
                format_args!(
                    "more than {most} positions are reachable; raise max_positions if this \
                     process's memory holds them"
                ),
            )
        }
        e @ ExploreError::Limit { limit, .. } => limit_error(limit, e),
        e => value_error(e),
    })?;
    Ok(PySolvedGame::shipped(Box::new(Named { name, solved })))
}

/// Row lengths: one int, or an iterable of ints.
fn rows_arg(rows: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let lengths = match rows.extract::<i128>() {
        Ok(n) => vec![ranged::<u64>(n, "rows", 0, i128::from(u32::MAX))?],
        Err(_) => u64_items(rows, "rows", "a row length")?,
    };
    lengths
        .into_iter()
        .map(|n| {
            u32::try_from(n)
                .map_err(|_| value_error(format!("rows: {n} is not a row length (0 to 2^32 - 1)")))
        })
        .collect()
}

/// Tic-tac-toe, solved: 765 positions up to the 8 symmetries of the board (5478 with
/// symmetry=False); the start is a tie in 9 plies.
///
/// X moves first; three marks in a line win; a full board without a line is a tie. A
/// position is the three rows from the top separated by '/', each three of 'X', 'O' and
/// '.': 'XO./.X./..O' (lower case, '-' for an empty cell and no slashes are also read). X
/// is to move when both have as many marks.
///
/// >>> import gamegraph as gg
/// >>> t = gg.games.tic_tac_toe()
/// >>> len(t), t.start_outcome, t.start_remoteness
/// (765, Outcome.TIE, 9)
/// >>> t.value("XX./OO./..."), t.moves("XX./OO./...")[0]
/// ((Outcome.WIN, 1), ('XXX/OO./...', Outcome.WIN, 0))
#[pyfunction]
#[pyo3(signature = (*, symmetry = true, threads = None))]
pub(crate) fn tic_tac_toe(
    py: Python<'_>,
    symmetry: bool,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &Spec::TicTacToe { symmetry }, None, threads)
}

/// Connect Four on a board of cols columns and rows rows (cols * (rows + 1) <= 64),
/// solved; positions are identified with their mirror images unless symmetry=False.
///
/// X moves first; a stone falls to the lowest empty cell of the chosen column; four in a
/// line (across, up, or diagonal) win; a full board without one is a tie. A position is
/// the rows from the top separated by '/', each cols cells of 'X', 'O' and '.':
/// '...../...../..O../.XX..' on 5 x 4. Larger boards take long: 5 x 4 has about two
/// million positions, 6 x 5 and 7 x 6 are out of reach of this exhaustive solve.
///
/// Raises ValueError for a board that does not fit, or when more than max_positions
/// positions are reachable (by default, what the memory this process may still allocate
/// holds).
///
/// >>> import gamegraph as gg
/// >>> c = gg.games.connect_four(4, 4)
/// >>> c.start_outcome, c.start_remoteness
/// (Outcome.TIE, 16)
/// >>> c.outcome("..../..../..../XXX.")
/// Traceback (most recent call last):
///     ...
/// ValueError: invalid position "..../..../..../XXX.": column 1: 3 X and 0 O: ...
#[pyfunction]
#[pyo3(signature = (cols, rows, *, symmetry = true, max_positions = None, threads = None))]
pub(crate) fn connect_four(
    py: Python<'_>,
    cols: i128,
    rows: i128,
    symmetry: bool,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &connect_four_spec(cols, rows, symmetry)?, max_positions, threads)
}

fn connect_four_spec(cols: i128, rows: i128, symmetry: bool) -> PyResult<Spec> {
    let cols = ranged(cols, "cols", 0, i128::from(u32::MAX))?;
    let rows = ranged(rows, "rows", 0, i128::from(u32::MAX))?;
    Ok(Spec::ConnectFour { cols, rows, symmetry })
}

/// Kayles (octal code 0.77) on rows of pins, solved: a move knocks down one pin or two
/// adjacent pins of a row (splitting it if they are inside); whoever cannot move loses.
///
/// rows: the length of one row, or a list of row lengths (at most 63 pins each). A
/// position is the row lengths, longest first, separated by spaces: '7 3 3 1'; '0' when
/// no row is left (commas, zeros and any order are also read).
///
/// >>> import gamegraph as gg
/// >>> k = gg.games.kayles([4, 7])
/// >>> k.start, k.start_outcome, k.moves("4 7")[0]
/// ('7 4', Outcome.WIN, ('7 2', Outcome.WIN, 8))
#[pyfunction]
#[pyo3(signature = (rows, *, max_positions = None, threads = None))]
pub(crate) fn kayles(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &octal_spec("0.77", rows)?, max_positions, threads)
}

/// Dawson's Kayles (octal code 0.07) on rows of pins, solved: a move knocks down two
/// adjacent pins of a row; whoever cannot move loses. rows and the notation as for
/// kayles().
///
/// >>> import gamegraph as gg
/// >>> [gg.games.dawsons_kayles(n).start_outcome for n in range(1, 8)]
/// [Outcome.LOSS, Outcome.WIN, Outcome.WIN, Outcome.WIN, Outcome.LOSS, Outcome.WIN, Outcome.WIN]
#[pyfunction]
#[pyo3(signature = (rows, *, max_positions = None, threads = None))]
pub(crate) fn dawsons_kayles(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &octal_spec("0.07", rows)?, max_positions, threads)
}

/// The octal game code ('0.77', '4.07', ...) on rows of pins, solved, in normal play.
/// rows and the notation as for kayles().
///
/// Raises ValueError for a bad code, a row above 63 pins, or a start from which play
/// could leave more rows than a position holds.
///
/// >>> import gamegraph as gg
/// >>> gg.games.octal("0.137", 9).start_outcome
/// Outcome.WIN
#[pyfunction]
#[pyo3(name = "octal_rows", signature = (code, rows, *, max_positions = None, threads = None))]
pub(crate) fn octal_rows(
    py: Python<'_>,
    code: &str,
    rows: &Bound<'_, PyAny>,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &octal_spec(code, rows)?, max_positions, threads)
}

fn octal_spec(code: &str, rows: &Bound<'_, PyAny>) -> PyResult<Spec> {
    let rows = rows_arg(rows)?;
    let code =
        code.parse().map_err(|e| value_error(format!("invalid octal code {code:?}: {e}")))?;
    Ok(Spec::Octal { code, rows })
}

/// The chase on a ring of cells cells (3 to 255), solved: a loopy game with draws.
///
/// The cat starts on cell 0, the mouse on cell cells / 2, and the cat moves first. The
/// cat must step to a neighbouring cell; stepping onto the mouse catches it, and the mouse
/// has lost. The mouse steps to a neighbouring cell the cat is not on, or stays. An
/// escaping mouse draws. A position is the ring from cell 0, 'C' the cat, 'M' the mouse,
/// 'X' both, '.' empty, then a space and 'c' or 'm' for the player to move:
/// 'C..M.. c'. Positions are identified up to rotations and reflections of the ring
/// unless symmetry=False.
///
/// >>> import gamegraph as gg
/// >>> gg.games.chase(3).start_outcome, gg.games.chase(6).start_outcome
/// (Outcome.WIN, Outcome.DRAW)
#[pyfunction]
#[pyo3(signature = (cells, *, symmetry = true, threads = None))]
pub(crate) fn chase(
    py: Python<'_>,
    cells: i128,
    symmetry: bool,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &chase_spec(cells, symmetry)?, None, threads)
}

fn chase_spec(cells: i128, symmetry: bool) -> PyResult<Spec> {
    Ok(Spec::Chase { cells: ranged(cells, "cells", 0, i128::from(u32::MAX))?, symmetry })
}

/// The tab board game of n rows and m columns with the piece on row x, column y, solved
/// by exploring its positions (gg.tab() answers far larger boards through their period).
/// A position is the row and the column of the piece separated by a space: '5 3'.
///
/// >>> import gamegraph as gg
/// >>> t = gg.games.tab(10, 4, 5, 3)
/// >>> t.start, t.start_outcome
/// ('5 3', Outcome.LOSS)
#[pyfunction]
#[pyo3(name = "tab_board", signature = (n, m, x, y, *, max_positions = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tab_board(
    py: Python<'_>,
    n: i128,
    m: i128,
    x: i128,
    y: i128,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &tab_spec(n, m, x, y)?, max_positions, threads)
}

fn tab_spec(n: i128, m: i128, x: i128, y: i128) -> PyResult<Spec> {
    Ok(Spec::Tab {
        rows: ranged(n, "n", 0, i128::from(u64::MAX))?,
        cols: ranged(m, "m", 0, i128::from(u32::MAX))?,
        at: (ranged(x, "x", 0, i128::from(u64::MAX))?, ranged(y, "y", 0, i128::from(u32::MAX))?),
    })
}

/// Quixo on a side x side board of cubes (side 3 to 5), solved: a loopy game with
/// draws; positions are identified up to the 8 symmetries of the square unless
/// symmetry=False.
///
/// X moves first. A move takes a cube from the edge of the board that is blank or shows
/// the mover's mark, marks it with the mover's mark and pushes it back in at an end of
/// its row or of its column (not where it came from), the cubes between sliding by one. A
/// line of side cubes of one mark ends the game: a player who has one when it is their
/// turn wins (even if the opponent has one too), a player without one who faces the
/// opponent's has lost; play that goes on for ever is a draw. A position is the rows from
/// the top separated by '/', each side cells of 'X', 'O' and '.', then a space and 'x' or
/// 'o' for the player to move: '.../.X./... o'. Quixo 4 x 4 has hundreds of millions of
/// positions: solve it by tiers (solve_tiers(directory, "quixo", 4)).
///
/// Raises ValueError for a side outside 3 to 5, or when more than max_positions positions
/// are reachable (by default, what the memory this process may still allocate holds).
///
/// >>> import gamegraph as gg
/// >>> q = gg.games.quixo(3)
/// >>> q.start, q.start_outcome, q.start_remoteness
/// ('.../.../... x', Outcome.WIN, 7)
#[pyfunction]
#[pyo3(signature = (side, *, symmetry = true, max_positions = None, threads = None))]
pub(crate) fn quixo(
    py: Python<'_>,
    side: i128,
    symmetry: bool,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    solve_spec(py, &quixo_spec(side, symmetry)?, max_positions, threads)
}

fn quixo_spec(side: i128, symmetry: bool) -> PyResult<Spec> {
    Ok(Spec::Quixo { side: ranged(side, "side", 0, i128::from(u32::MAX))?, symmetry })
}

/// Solves the game `spec` names, named by the words `gamegraph game` takes for it.
pub(crate) fn solve_spec(
    py: Python<'_>,
    spec: &Spec,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    struct Solve<'py> {
        py: Python<'py>,
        name: String,
        max_positions: Option<i128>,
        threads: Option<i64>,
    }
    impl Visit for Solve<'_> {
        type Output = PyResult<PySolvedGame>;
        fn visit<G>(self, game: G) -> Self::Output
        where
            G: Tiered + Clone + Send + Sync + 'static,
            G::Position: Into<u128> + TryFrom<u128>,
        {
            solve(self.py, game, self.name, self.max_positions, self.threads)
        }
    }
    let name = spec.to_string();
    spec.visit(Solve { py, name, max_positions, threads }).map_err(value_error)?
}

/// What to do with a shipped game chosen by its name ([`by_name`]).
pub(crate) trait WithGame {
    /// What it gives.
    type Output;
    /// Does it with `game`.
    fn with<G>(self, game: G) -> PyResult<Self::Output>
    where
        G: Tiered + Send + Sync + 'static,
        G::Position: Into<u128> + Send;
}

/// The names [`by_name`] takes, for messages.
const NAMES: &str = "tic_tac_toe, connect_four, kayles, dawsons_kayles, octal, quixo, chase or tab";

/// Builds the shipped game named `game` ('-' or '_' between words) from `args`, as the
/// function of that name takes them, and runs `action` on it; `function` names the caller
/// in messages.
pub(crate) fn by_name<A: WithGame>(
    function: &str,
    game: &str,
    args: &Bound<'_, PyTuple>,
    symmetry: bool,
    action: A,
) -> PyResult<A::Output> {
    let arguments = |usage: &str| arguments(function, args, game, usage);
    let spec = match game.replace('-', "_").as_str() {
        "tic_tac_toe" => {
            arguments("")?;
            Spec::TicTacToe { symmetry }
        }
        "connect_four" => {
            let a = arguments("cols, rows")?;
            connect_four_spec(a[0].extract()?, a[1].extract()?, symmetry)?
        }
        "kayles" => octal_spec("0.77", &arguments("rows")?[0])?,
        "dawsons_kayles" => octal_spec("0.07", &arguments("rows")?[0])?,
        "octal" => {
            let a = arguments("code, rows")?;
            octal_spec(&a[0].extract::<String>()?, &a[1])?
        }
        "quixo" => quixo_spec(arguments("side")?[0].extract()?, symmetry)?,
        "chase" => chase_spec(arguments("cells")?[0].extract()?, symmetry)?,
        "tab" => {
            let a = arguments("n, m, x, y")?;
            tab_spec(a[0].extract()?, a[1].extract()?, a[2].extract()?, a[3].extract()?)?
        }
        _ => return Err(value_error(format!("unknown game {game:?}: {NAMES}"))),
    };
    /// Hands the game the registry builds to the action.
    struct Adapt<A>(A);
    impl<A: WithGame> Visit for Adapt<A> {
        type Output = PyResult<A::Output>;
        fn visit<G>(self, game: G) -> Self::Output
        where
            G: Tiered + Clone + Send + Sync + 'static,
            G::Position: Into<u128> + TryFrom<u128>,
        {
            self.0.with(game)
        }
    }
    spec.visit(Adapt(action)).map_err(value_error)?
}

/// The arguments of `function` after the game's name, checked to be as many as `usage`
/// names.
fn arguments<'py>(
    function: &str,
    args: &Bound<'py, PyTuple>,
    game: &str,
    usage: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let n = usage.split(", ").filter(|a| !a.is_empty()).count();
    if args.len() != n {
        return Err(type_error(format!(
            "{function} for {game} takes {n} game argument(s) ({usage}), found {}",
            args.len()
        )));
    }
    Ok(args.iter().collect())
}

/// Opens the values file at path, written by SolvedGame.save() (or by `gamegraph game ...
/// solve --explicit -o`) for the shipped game named game with the arguments args, as the function of
/// the same name takes them: open_values(path, "connect_four", 5, 4). The answers are read
/// from the file, one block for the position and one for each of its moves, without
/// exploring the game.
///
/// game: 'tic_tac_toe', 'connect_four' (cols, rows), 'kayles' (rows), 'dawsons_kayles'
/// (rows), 'octal' (code, rows), 'quixo' (side), 'chase' (cells) or 'tab' (n, m, x, y);
/// symmetry as the functions take it.
///
/// Raises OSError for a file that cannot be opened, ValueError for a damaged file, one
/// written for another game (naming the damage), or a path that is no regular file (a
/// directory, a FIFO, a file of /proc), found before it is opened.
///
/// >>> import gamegraph as gg, os, tempfile
/// >>> folder = tempfile.TemporaryDirectory()
/// >>> path = os.path.join(folder.name, "kayles.values")
/// >>> gg.games.kayles([4, 7]).save(path)
/// >>> v = gg.games.open_values(path, "kayles", [4, 7])
/// >>> v.value("7 4"), v.moves("7 4")[0]
/// ((Outcome.WIN, 9), ('7 2', Outcome.WIN, 8))
/// >>> del v; folder.cleanup()
#[pyfunction]
#[pyo3(signature = (path, game, *args, symmetry = true))]
pub(crate) fn open_values(
    path: PathBuf,
    game: &str,
    args: &Bound<'_, PyTuple>,
    symmetry: bool,
) -> PyResult<PyValuesFile> {
    if let Some(why) = gamegraph_game::not_a_values_file(&path) {
        let hint = if path.is_dir() {
            " (open_tiers() opens a directory solve_tiers() wrote)"
        } else {
            ""
        };
        return Err(value_error(format!("{}: {why}{hint}", path.display())));
    }
    let file = File::open(&path).map_err(|e| os_error(&e, &path))?;
    let open = Open { reader: BufReader::new(file), path: &path };
    let (stored, identity) = by_name("open_values", game, args, symmetry, open)?;
    Ok(PyValuesFile::new(stored, &path, identity))
}

/// Opens a values file for the game [`by_name`] builds.
struct Open<'a> {
    reader: BufReader<File>,
    path: &'a Path,
}

impl WithGame for Open<'_> {
    /// The file and the game's identity.
    type Output = (Box<dyn Stored>, String);

    fn with<G>(self, game: G) -> PyResult<(Box<dyn Stored>, String)>
    where
        G: Tiered + Send + Sync + 'static,
        G::Position: Into<u128> + Send,
    {
        let identity = game.identity();
        let file = ValuesFile::open(game, self.reader).map_err(|e| file_error(e, self.path))?;
        Ok((Box::new(file), identity))
    }
}
