//! The rayon pool of one call, run without the GIL.

use pyo3::prelude::*;

use crate::error::value_error;

/// The most threads a `threads=` argument may ask for, as the command's `--threads`.
pub(crate) const MAX_THREADS: i64 = 1024;

/// Checks a `threads=` argument: `None` (rayon's default, all cores) or 1 to
/// [`MAX_THREADS`].
pub(crate) fn threads(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n @ 1..=MAX_THREADS) => Ok(Some(n as usize)),
        Some(n) if n > MAX_THREADS => Err(value_error(format!(
            "threads={n} is more than the {MAX_THREADS} supported (this machine has {})",
            std::thread::available_parallelism().map_or(1, |p| p.get())
        ))),
        Some(n) => Err(value_error(format!("threads must be at least 1, found {n}"))),
    }
}

/// Runs `f` with the GIL released on a rayon pool of `threads` threads built for this
/// call (rayon's default size when `None`); the global pool is never touched.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    threads: Option<i64>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let pool = build(threads)?;
    Ok(py.detach(|| pool.install(f)))
}

/// A rayon pool of `threads` threads (rayon's default size when `None`).
pub(crate) fn build(threads: Option<i64>) -> PyResult<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = self::threads(threads)? {
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("no thread pool: {e}")))
}
