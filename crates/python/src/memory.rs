//! Allocations that can be large, checked: `MemoryError` with the bytes needed instead of
//! an abort of the interpreter, and the default position limit of explorations.

use gamegraph_graph::Vertex;
use gamegraph_graph::memory::{available, human_bytes, positions_that_fit};
use pyo3::PyErr;
use pyo3::exceptions::PyMemoryError;

/// The most positions an exploration finds when `max_positions` is not given: what the
/// memory this process may still allocate holds at `bytes_per_position`, as `gamegraph
/// game` counts it.
pub(crate) fn default_max_positions(bytes_per_position: u64) -> usize {
    positions_that_fit(bytes_per_position).min(Vertex::MAX_VERTICES)
}

/// The memory a solve by tiers may use when `max_memory` is not given: what this process
/// may still allocate (no limit where it is unknown).
pub(crate) fn default_max_memory() -> Option<u64> {
    available()
}

/// The free memory below which a growing exploration stops with `MemoryError`.
const LOW_WATER: u64 = 32 << 20;

/// `MemoryError` naming `what` when the memory this process may still allocate has fallen
/// below a few tens of megabytes (another process took it, or the estimate per position
/// was low).
pub(crate) fn still_room(what: &str) -> Result<(), PyErr> {
    match available() {
        Some(a) if a < LOW_WATER => Err(PyMemoryError::new_err(format!(
            "not enough memory for {what}: {} left to this process",
            human_bytes(a)
        ))),
        _ => Ok(()),
    }
}

/// The `MemoryError` of `what`, which needs `bytes`.
pub(crate) fn memory_error(what: &str, bytes: u64) -> PyErr {
    let free = available().map_or_else(String::new, |a| {
        format!(", more than this process may allocate ({})", human_bytes(a))
    });
    PyMemoryError::new_err(format!(
        "not enough memory for {what}: it needs {} ({bytes} bytes){free}",
        human_bytes(bytes)
    ))
}

/// Checks that `what`, which needs about `bytes`, can be allocated: within the memory this
/// process may still allocate (the machine's, `ulimit -v`, its control group's), and
/// granted by the allocator (reserved and released at once).
///
/// # Errors
/// `MemoryError` naming `what` and the bytes it needs.
pub(crate) fn room(what: &str, bytes: u64) -> Result<(), PyErr> {
    if available().is_some_and(|a| bytes > a) {
        return Err(memory_error(what, bytes));
    }
    let len = usize::try_from(bytes).map_err(|_| memory_error(what, bytes))?;
    Vec::<u8>::new().try_reserve_exact(len).map_err(|_| memory_error(what, bytes))
}

/// A vector of `len` copies of `value`, or `MemoryError` naming `what`.
pub(crate) fn filled<T: Clone>(what: &str, len: usize, value: T) -> Result<Vec<T>, PyErr> {
    let bytes = (len as u64).saturating_mul(size_of::<T>() as u64);
    room(what, bytes)?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| memory_error(what, bytes))?;
    v.resize(len, value);
    Ok(v)
}

/// Makes room in `v` for one more item (amortized growth), or `MemoryError` naming
/// `what`.
pub(crate) fn grow<T>(v: &mut Vec<T>, what: &str) -> Result<(), PyErr> {
    v.try_reserve(1).map_err(|_| {
        let bytes = (v.len() as u64 + 1).saturating_mul(2 * size_of::<T>() as u64);
        memory_error(what, bytes)
    })
}
