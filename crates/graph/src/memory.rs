//! How much memory this process may use: the machine's memory, lowered by an address-space
//! limit (`ulimit -v`) and a control group's memory limit (cgroup v2 or v1), read from
//! `/proc` and `/sys/fs/cgroup`; and how much of it is still free.

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

/// The memory this process may still allocate, in bytes: the smallest of the machine's
/// available memory (`MemAvailable`), the address-space limit (`ulimit -v`) less the
/// address space in use (`VmSize`), and the control group's limit less its usage (cgroup
/// v2 `memory.max` and `memory.current`, or v1 `memory.limit_in_bytes` and
/// `memory.usage_in_bytes`). `None` where none of them is known.
pub fn available() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo");
    let machine = meminfo.as_deref().and_then(|m| meminfo_field(m, "MemAvailable:"));
    let space = read("/proc/self/limits").and_then(|l| address_space(&l)).map(|limit| {
        let used = read("/proc/self/status").and_then(|s| meminfo_field(&s, "VmSize:"));
        limit.saturating_sub(used.unwrap_or(0))
    });
    let group = cgroup_room(&read("/proc/self/cgroup").unwrap_or_default(), &|p| read(p));
    [machine, space, group].into_iter().flatten().min()
}

/// Memory an exploration needs besides its positions: the buffers of a level being
/// explored (tens of megabytes), thread stacks, the allocator's slack.
pub const EXPLORATION_OVERHEAD: u64 = 256 << 20;

/// How many positions of `bytes_per_position` bytes each the memory this process may still
/// allocate holds ([`available`] less [`EXPLORATION_OVERHEAD`]; `usize::MAX` where it is
/// unknown): the default position limit of explorations.
pub fn positions_that_fit(bytes_per_position: u64) -> usize {
    positions_per_share(bytes_per_position, 1)
}

/// [`positions_that_fit`] for each of `shares` explorations run at once (the solves of a
/// server), each with its own [`EXPLORATION_OVERHEAD`].
pub fn positions_per_share(bytes_per_position: u64, shares: usize) -> usize {
    let shares = shares.max(1) as u64;
    let bytes = available().map_or(u64::MAX, |a| {
        a.saturating_sub(EXPLORATION_OVERHEAD.saturating_mul(shares)) / shares
    });
    usize::try_from(bytes / bytes_per_position.max(1)).unwrap_or(usize::MAX)
}

/// Limits at or above this many bytes mean "no limit" (cgroup v1 writes a huge number).
const UNLIMITED: u64 = 1 << 60;

/// The room left in this process's control group (limit less usage), given the text of
/// `/proc/self/cgroup` and a reader of files: the group's own files, else those at the
/// root of the mounted hierarchy (a container sees its own group there).
fn cgroup_room(cgroups: &str, read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |path: String| -> Option<u64> {
        let text = read(&path)?;
        text.trim().parse().ok().filter(|&n| n < UNLIMITED)
    };
    let room = |dir: &str, limit: &str, usage: &str| -> Option<u64> {
        let limit = number(format!("{dir}/{limit}"))?;
        Some(limit.saturating_sub(number(format!("{dir}/{usage}")).unwrap_or(0)))
    };
    for line in cgroups.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let path = path.trim_end_matches('/');
        let (base, limit, usage) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes")
        } else {
            continue;
        };
        let found =
            room(&format!("{base}{path}"), limit, usage).or_else(|| room(base, limit, usage));
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    meminfo_field(meminfo, "MemTotal:")
}

/// A field `NAME: N kB` of `/proc/meminfo` or `/proc/self/status`, in bytes.
fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
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
        assert!(available().is_some_and(|a| a <= limit().unwrap()));
    }

    #[test]
    fn reads_the_room_in_a_control_group() {
        let files = |list: &'static [(&'static str, &'static str)]| {
            move |p: &str| list.iter().find(|(q, _)| *q == p).map(|(_, t)| (*t).to_owned())
        };
        let v2 = files(&[
            ("/sys/fs/cgroup/a/b/memory.max", "1000000\n"),
            ("/sys/fs/cgroup/a/b/memory.current", "400000\n"),
        ]);
        assert_eq!(cgroup_room("0::/a/b\n", &v2), Some(600_000));
        let unlimited = files(&[("/sys/fs/cgroup/memory.max", "max\n")]);
        assert_eq!(cgroup_room("0::/elsewhere\n", &unlimited), None);
        let v1 = files(&[
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "2000\n"),
            ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "500\n"),
        ]);
        assert_eq!(cgroup_room("5:cpu:/\n4:memory:/x/y\n0::/\n", &v1), Some(1500));
        let huge = files(&[("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712")]);
        assert_eq!(cgroup_room("4:memory:/\n", &huge), None);
        assert_eq!(meminfo_field("VmSize:\t  2048 kB\n", "VmSize:"), Some(2 << 20));
        assert!(positions_that_fit(1) <= usize::try_from(available().unwrap()).unwrap());
        assert!(positions_per_share(100, 4) <= positions_that_fit(100) / 4);
    }
}
