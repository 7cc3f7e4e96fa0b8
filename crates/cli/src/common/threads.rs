//! Thread pools for `--threads`, and the memory check before large allocations.

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

/// Refuses work that needs `bytes` of memory when this machine has less in all (read from
/// `/proc/meminfo`; no check where that is unknown), before anything is allocated.
pub(crate) fn check_memory(bytes: u64, what: &str) -> Result<(), CliError> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    });
    match total {
        Some(total) if bytes > total => Err(CliError::Usage(format!(
            "{what} needs {} of memory, more than this machine has ({})",
            human_bytes(bytes),
            human_bytes(total)
        ))),
        _ => Ok(()),
    }
}

/// `bytes` in GiB or MiB, for messages.
fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
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
