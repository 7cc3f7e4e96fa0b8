//! The games of the registry by the words `gamegraph game` takes (`gg.games.named`,
//! `gg.games.registry`).

use gamegraph_play::{ENTRIES, Spec};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::value_error;
use crate::solved::PySolvedGame;

/// Solves a game named with its arguments as `gamegraph game` takes them (the rows of
/// gg.games.registry()), such as "connect-four --cols 5 --rows 4", "kayles 4,7" or
/// "tab 20 6 1,1": the same game as the function of gg.games for it, named by those
/// words. Unknown names and bad arguments raise ValueError saying what was expected.
///
/// >>> import gamegraph as gg
/// >>> c = gg.games.named("connect-four --cols 4 --rows 4")
/// >>> c.name, len(c), c.start_outcome, c.start_remoteness
/// ('connect-four --cols 4 --rows 4', 80541, Outcome.TIE, 16)
/// >>> gg.games.named("connect-four --cols 4")
/// Traceback (most recent call last):
///     ...
/// ValueError: --rows is missing
#[pyfunction]
#[pyo3(signature = (game, *, max_positions = None, threads = None))]
pub(crate) fn named(
    py: Python<'_>,
    game: &str,
    max_positions: Option<i128>,
    threads: Option<i64>,
) -> PyResult<PySolvedGame> {
    let spec = Spec::parse(&game.split_whitespace().collect::<Vec<_>>()).map_err(value_error)?;
    crate::games::solve_spec(py, &spec, max_positions, threads)
}

/// The games of the registry, as `gamegraph game list --json` lists them: a dict per game
/// with its name, arguments, what it is, its notation, how its moves are named and the
/// arguments of a small example.
///
/// >>> import gamegraph as gg
/// >>> [g["name"] for g in gg.games.registry()][:3]
/// ['tic-tac-toe', 'connect-four', 'kayles']
/// >>> gg.games.registry()[1]["arguments"]
/// '--cols W --rows H [--no-symmetry]'
#[pyfunction]
pub(crate) fn registry(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    ENTRIES
        .iter()
        .map(|e| {
            let d = PyDict::new(py);
            d.set_item("name", e.name)?;
            d.set_item("arguments", e.arguments)?;
            d.set_item("about", e.about)?;
            d.set_item("notation", e.notation)?;
            d.set_item("moves", e.moves)?;
            d.set_item("example", e.example)?;
            Ok(d)
        })
        .collect()
}
