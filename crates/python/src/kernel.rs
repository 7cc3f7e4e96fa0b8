//! Kernels, their number, all of them, α and β, with time limits.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use gamegraph_graph::{Graph, Limit};
use gamegraph_kernel::{Config, KernelError, Kernels, StableSet, VertexSet};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::error::{limit_error, value_error};
use crate::graph::PyGraph;
use crate::interrupt;

/// Runs `solve(cfg)` without the GIL, stopped by Ctrl-C (`KeyboardInterrupt`) as by the
/// time limit in `cfg`.
fn stoppable<T: Send>(
    py: Python<'_>,
    cfg: &Config,
    solve: impl FnOnce(&Config) -> T + Send,
) -> PyResult<T> {
    let ended = interrupt::run(py, None, |stop| {
        solve(&Config { stop: Some(Arc::clone(stop)), ..cfg.clone() })
    })?;
    Ok(ended.value)
}

/// The search budget of a `time_limit=` in seconds (none by default).
fn config(time_limit: Option<f64>) -> PyResult<Config> {
    match time_limit {
        None => Ok(Config::default()),
        Some(s) if s.is_finite() && s >= 0.0 => {
            Ok(Config::with_deadline(Instant::now() + Duration::from_secs_f64(s.min(1e9))))
        }
        Some(s) => Err(value_error(format!("time_limit {s}: not a number of seconds"))),
    }
}

/// The exception for a search that gave up: `TimeoutError` with the CLI's message for the
/// time limit, `ValueError` for a search the library refuses.
fn search_error(e: KernelError, time_limit: Option<f64>) -> PyErr {
    match e {
        KernelError::Limit { limit: Limit::Time, nodes } => limit_error(
            Limit::Time,
            format_args!(
                "time limit of {} s reached after {nodes} search nodes",
                time_limit.unwrap_or_default()
            ),
        ),
        KernelError::AlphaLimit { limit: Limit::Time, best, bound } => limit_error(
            Limit::Time,
            format_args!(
                "time limit of {} s reached after {} search nodes: alpha >= {} (a checked \
                 set), alpha <= {bound}",
                time_limit.unwrap_or_default(),
                best.nodes,
                best.size
            ),
        ),
        KernelError::BetaLimit { limit: Limit::Time, best, bound } => limit_error(
            Limit::Time,
            format_args!(
                "time limit of {} s reached after {} search nodes: beta <= {} (a checked \
                 set), beta >= {bound}",
                time_limit.unwrap_or_default(),
                best.nodes,
                best.size
            ),
        ),
        KernelError::Limit { limit, .. }
        | KernelError::AlphaLimit { limit, .. }
        | KernelError::BetaLimit { limit, .. } => limit_error(limit, &e),
        KernelError::TooLarge { .. } | KernelError::CountOverflow => value_error(e),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// The sorted 1-based ids of a set.
fn ids(set: &VertexSet) -> Vec<u64> {
    set.iter_ones().map(|i| i as u64 + 1).collect()
}

/// One kernel of the graph, as the sorted list of its 1-based vertex ids, or None when the
/// graph has none.
///
/// A kernel is a set of vertices with no arc between two of them (a vertex with a self-loop
/// is never in one) such that every other vertex has an arc into it. Retrograde labels fix
/// most vertices; Richardson's construction (no odd cycle) or an exact search decides the
/// rest. Deciding whether a kernel exists is NP-complete: time_limit (seconds, default
/// none) bounds the search, which then raises TimeoutError.
///
/// With proof=True the result is a pair (kernel, proof): the kernel and None, or None and
/// the text of a DRAT proof that the kernel conditions (kernel_cnf) have no solution, as
/// `gamegraph kernel --proof` writes it; verify_kernel_none checks it.
///
/// >>> import gamegraph as gg
/// >>> gg.kernel(gg.Graph(3, [1, 2, 3], [2, 3, 1])) is None     # a directed triangle
/// True
/// >>> gg.kernel(gg.Graph(4, [1, 2, 3], [2, 3, 4]))             # a path
/// [2, 4]
/// >>> gg.kernel(gg.Graph(3, [1, 2, 3], [2, 3, 1]), proof=True)
/// (None, '1 0\n0\n')
#[pyfunction]
#[pyo3(signature = (g, *, time_limit = None, proof = false))]
pub(crate) fn kernel(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    time_limit: Option<f64>,
    proof: bool,
) -> PyResult<Py<PyAny>> {
    let cfg = config(time_limit)?;
    let graph = g.get().plain("kernel()")?;
    if !proof {
        let answer = stoppable(py, &cfg, |cfg| gamegraph_kernel::find_kernel(graph, cfg))?;
        let answer = answer.map_err(|e| search_error(e, time_limit))?;
        return Ok(answer.kernel.as_ref().map(ids).into_pyobject(py)?.into_any().unbind());
    }
    let proved = stoppable(py, &cfg, |cfg| gamegraph_kernel::find_kernel_with_proof(graph, cfg))?;
    let proved = proved.map_err(|e| search_error(e, time_limit))?;
    let text = proved.proof.map(|p| {
        let mut out = Vec::new();
        p.write_to(&mut out).expect("writing to memory");
        String::from_utf8(out).expect("DRAT text is ASCII")
    });
    Ok((proved.answer.kernel.as_ref().map(ids), text).into_pyobject(py)?.into_any().unbind())
}

/// The kernel conditions of the graph as DIMACS CNF text (`gamegraph kernel --cnf`):
/// variable i is "vertex i is in the kernel"; `-u -v` for each arc u -> v, `-u` for a
/// self-loop, `v w1 ... wk` for each vertex v and its successors. Its models are the
/// kernels; the formula a proof of kernel(g, proof=True) refutes.
///
/// >>> import gamegraph as gg
/// >>> print(gg.kernel_cnf(gg.Graph(2, [1, 2], [2, 1])), end="")
/// p cnf 2 4
/// -1 -2 0
/// 1 2 0
/// -2 -1 0
/// 2 1 0
#[pyfunction]
pub(crate) fn kernel_cnf(g: &Bound<'_, PyGraph>) -> PyResult<String> {
    let graph = g.get().plain("kernel_cnf()")?;
    let mut out = Vec::new();
    gamegraph_kernel::write_kernel_cnf(graph, &mut out).expect("writing to memory");
    Ok(String::from_utf8(out).expect("DIMACS text is ASCII"))
}

/// The number of kernels of the graph (a Python int of any size).
///
/// time_limit (seconds, default none) bounds the search: TimeoutError.
///
/// >>> import gamegraph as gg
/// >>> gg.count_kernels(gg.Graph(4, [1, 2, 3, 4], [2, 1, 4, 3]))   # two 2-cycles: 2 x 2
/// 4
#[pyfunction]
#[pyo3(signature = (g, *, time_limit = None))]
pub(crate) fn count_kernels(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    time_limit: Option<f64>,
) -> PyResult<u128> {
    let cfg = config(time_limit)?;
    let graph = g.get().plain("count_kernels()")?;
    let count = stoppable(py, &cfg, |cfg| gamegraph_kernel::count_kernels(graph, cfg))?;
    Ok(count.map_err(|e| search_error(e, time_limit))?.count)
}

/// The iterator kernels() returns: each kernel as a sorted list of 1-based ids.
#[pyclass(name = "KernelIter", module = "gamegraph")]
pub(crate) struct KernelIter {
    kernels: Kernels,
    time_limit: Option<f64>,
    /// The search's stop flag, set by Ctrl-C during a `__next__`.
    stop: Arc<AtomicBool>,
}

#[pymethods]
impl KernelIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>) -> PyResult<Option<Vec<u64>>> {
        let py = slf.py();
        let time_limit = slf.time_limit;
        let stop = Arc::clone(&slf.stop);
        let kernels = &mut slf.kernels;
        match interrupt::run_with(py, None, &stop, |_| kernels.next())?.value {
            None => Ok(None),
            Some(Ok(k)) => Ok(Some(ids(&k))),
            Some(Err(e)) => Err(search_error(e, time_limit)),
        }
    }

    /// Search nodes explored so far.
    #[getter]
    fn nodes(&self) -> u64 {
        self.kernels.nodes()
    }
}

/// All kernels of the graph, one by one, in a deterministic order: an iterator of sorted
/// lists of 1-based ids.
///
/// time_limit (seconds from this call, default none) bounds the whole search: the
/// iterator raises TimeoutError when it runs out.
///
/// >>> import gamegraph as gg
/// >>> sorted(gg.kernels(gg.Graph(2, [1, 2], [2, 1])))
/// [[1], [2]]
#[pyfunction]
#[pyo3(signature = (g, *, time_limit = None))]
pub(crate) fn kernels(g: &Bound<'_, PyGraph>, time_limit: Option<f64>) -> PyResult<KernelIter> {
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = Config { stop: Some(Arc::clone(&stop)), ..config(time_limit)? };
    let kernels = gamegraph_kernel::kernels(g.get().plain("kernels()")?, &cfg);
    Ok(KernelIter { kernels, time_limit, stop })
}

/// Runs `alpha` or `beta` without the GIL: (size, sorted 1-based ids).
fn stable_set(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    time_limit: Option<f64>,
    solve: fn(&Graph, &Config) -> Result<StableSet, KernelError>,
) -> PyResult<(usize, Vec<u64>)> {
    let cfg = config(time_limit)?;
    let graph = g.get().plain("alpha() or beta()")?;
    let s =
        stoppable(py, &cfg, |cfg| solve(graph, cfg))?.map_err(|e| search_error(e, time_limit))?;
    Ok((s.size, ids(&s.set)))
}

/// α(G), the internal stability number, and a maximum internally stable set (no arc
/// joins two of its vertices; arcs count in both directions, a self-loop excludes its
/// vertex): (size, sorted 1-based ids).
///
/// Exact branch and bound; time_limit (seconds, default none) raises TimeoutError, and a
/// connected part too large for the bitset search raises ValueError.
///
/// >>> import gamegraph as gg
/// >>> gg.alpha(gg.Graph(5, [1, 2, 3, 4, 5], [2, 3, 4, 5, 1]))   # a directed 5-cycle
/// (2, [1, 3])
#[pyfunction]
#[pyo3(signature = (g, *, time_limit = None))]
pub(crate) fn alpha(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    time_limit: Option<f64>,
) -> PyResult<(usize, Vec<u64>)> {
    stable_set(py, g, time_limit, gamegraph_kernel::alpha)
}

/// β(G), the external stability number, and a minimum externally stable set (every
/// vertex outside it has an arc into it): (size, sorted 1-based ids).
///
/// Exact branch and bound; time_limit (seconds, default none) raises TimeoutError, and a
/// weakly connected part too large for the search raises ValueError.
///
/// >>> import gamegraph as gg
/// >>> gg.beta(gg.Graph(5, [1, 2, 3, 4, 5], [2, 3, 4, 5, 1]))    # a directed 5-cycle
/// (3, [1, 3, 5])
#[pyfunction]
#[pyo3(signature = (g, *, time_limit = None))]
pub(crate) fn beta(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    time_limit: Option<f64>,
) -> PyResult<(usize, Vec<u64>)> {
    stable_set(py, g, time_limit, gamegraph_kernel::beta)
}
