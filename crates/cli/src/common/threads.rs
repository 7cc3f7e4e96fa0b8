//! Thread pools for `--threads`, and the memory check before large allocations.

use gamegraph_graph::Limit;

use super::CliError;

/// Runs `f` on a rayon pool of `threads` threads (rayon's default when `None`).
pub(crate) fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    Ok(thread_pool(threads)?.install(f))
}

/// The most worker threads `--threads` accepts.
pub(crate) const MAX_THREADS: usize = 1024;

/// Refuses work that needs `bytes` of memory when this process may use less in all (the
/// machine's memory, or `ulimit -v`; no check where neither is known), before anything is
/// allocated: exit code 3, as for any allocation refused later.
pub(crate) fn check_memory(bytes: u64, what: &str) -> Result<(), CliError> {
    use gamegraph_graph::memory::{human_bytes, limit};
    match limit() {
        Some(total) if bytes > total => Err(CliError::limit(
            Limit::Memory { needed: bytes, allowed: Some(total) },
            format_args!(
                "not enough memory for {what}: it needs {}, more than this process may use ({})",
                human_bytes(bytes),
                human_bytes(total)
            ),
        )),
        _ => Ok(()),
    }
}

/// A rayon pool of `threads` threads (rayon's default when `None`).
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(CliError::Usage("--threads must be at least 1".into()));
        }
        if n > MAX_THREADS {
            return Err(CliError::Usage(format!(
                "--threads {n} is more than the {MAX_THREADS} supported (this machine has {})",
                std::thread::available_parallelism().map_or(1, |p| p.get())
            )));
        }
        builder = builder.num_threads(n);
    }
    builder.build().map_err(|e| CliError::Other(e.into()))
}
