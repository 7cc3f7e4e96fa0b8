//! Python exceptions with the CLI's messages.

use std::fmt::Display;
use std::path::Path;

use gamegraph_graph::{Budget, Limit};
use pyo3::PyErr;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyTimeoutError, PyTypeError, PyValueError,
};

/// A `ValueError` (bad input, or a search the library refuses).
pub(crate) fn value_error(message: impl Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// The one mapping of a [`Limit`] a library reached, with the message to raise:
/// `TimeoutError` for the time limit and a work budget (search nodes, cell evaluations),
/// `ValueError` for the position budget (a game too large for `max_positions`),
/// `MemoryError` for memory, `KeyboardInterrupt` for a stop request.
pub(crate) fn limit_error(limit: Limit, message: impl Display) -> PyErr {
    let message = message.to_string();
    match limit {
        Limit::Stop => PyKeyboardInterrupt::new_err(message),
        Limit::Memory { .. } => PyMemoryError::new_err(message),
        Limit::Budget { what: Budget::Positions, .. } => PyValueError::new_err(message),
        _ => PyTimeoutError::new_err(message),
    }
}

/// A `TypeError` (an argument of the wrong kind).
pub(crate) fn type_error(message: impl Display) -> PyErr {
    PyTypeError::new_err(message.to_string())
}

/// A file that cannot be opened: `OSError(errno, strerror, filename)`, which Python turns
/// into the matching subclass (`FileNotFoundError`, `PermissionError`, ...).
pub(crate) fn os_error(e: &std::io::Error, path: &Path) -> PyErr {
    let name = path.display().to_string();
    match e.raw_os_error() {
        Some(code) => {
            let text = std::io::Error::from_raw_os_error(code).to_string();
            // "No such file or directory (os error 2)" -> "No such file or directory".
            let text = text.split(" (os error").next().unwrap_or(&text).to_owned();
            PyOSError::new_err((code, text, name))
        }
        None => PyOSError::new_err(format!("cannot open {name}: {e}")),
    }
}
