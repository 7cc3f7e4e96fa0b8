//! How much memory this process may use: the machine's memory, lowered by an address-space
//! limit (`ulimit -v`), both read from `/proc`.

/// Bytes a graph needs per vertex beyond its arcs, at the least: the 64-bit offset of its
/// successor list while it is assembled.
pub const BYTES_PER_VERTEX: u64 = 8;

/// The most memory this process may use, in bytes: the smaller of the machine's memory
/// (`MemTotal`) and the address-space limit (`ulimit -v`). `None` where neither is known.
pub fn limit() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| mem_total(&m));
    let space = std::fs::read_to_string("/proc/self/limits").ok().and_then(|l| address_space(&l));
    match (total, space) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The soft "Max address space" of `/proc/self/limits`, in bytes; `None` when unlimited.
fn address_space(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..].split_whitespace().next()?.parse().ok()
}

/// `bytes` in GiB or MiB, for messages.
pub fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_machine_and_the_address_space_limit() {
        assert_eq!(mem_total("MemTotal:       24000000 kB\nMemFree: 1 kB\n"), Some(24_576_000_000));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space(limits), None);
        let limits = "Max address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space(limits), Some(1 << 32));
        assert!(limit().is_some());
    }
}
