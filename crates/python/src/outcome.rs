//! Outcomes handed to Python as `gamegraph.Outcome`, the `IntEnum` whose members equal the
//! outcome codes.

use gamegraph_graph::Outcome;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// An outcome on its way to Python: a member of `gamegraph.Outcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PyOutcome(pub(crate) Outcome);

impl<'py> IntoPyObject<'py> for PyOutcome {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let class = CLASS.get_or_try_init(py, || {
            py.import("gamegraph._outcome")?.getattr("Outcome").map(Bound::unbind)
        })?;
        class.bind(py).call1((self.0.code(),))
    }
}

impl<'py> IntoPyObject<'py> for &PyOutcome {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        (*self).into_pyobject(py)
    }
}

impl std::fmt::Display for PyOutcome {
    /// As Python code names it: `Outcome.WIN`, for the reprs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Outcome.{}", self.0.word().to_uppercase())
    }
}
