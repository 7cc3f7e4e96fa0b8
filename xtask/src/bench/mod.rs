//! Benchmarks that compare gamegraph with baselines and outside tools, side by side in
//! one run. Each measurement runs a whole process and records its wall time, CPU time
//! and peak resident memory.
//!
//! Those come from `wait4(2)` through `libc`: the standard library reaps a child without
//! its resource usage, and `getrusage(RUSAGE_CHILDREN)` would report the largest of all
//! children so far, not of the one measured.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

mod dimacs;
mod dist;
mod dist_game;
mod game;
mod graph;
mod grundy;
mod kernel;
mod octal;
mod pace;
mod python;
mod retro;
mod tab;
mod tiers;

/// What one run of a process cost.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// Wall-clock time.
    pub(crate) wall: Duration,
    /// Peak resident set size in bytes.
    pub(crate) peak_rss: u64,
    /// CPU time (user + system) of the process: a wall time far above it shows a loaded
    /// machine.
    pub(crate) cpu: Duration,
}

/// Runs `cmd` to completion (stdout captured and returned), measuring wall time and peak RSS.
pub(crate) fn measure(cmd: &mut Command) -> Result<(Measured, String)> {
    let start = Instant::now();
    let child =
        cmd.stdout(Stdio::piped()).spawn().with_context(|| format!("cannot run {cmd:?}"))?;
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.context("no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).map(|_| s)
    });
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our own child, not yet reaped.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::wait4(pid, &mut status, 0, &mut usage) < 0 {
            bail!("wait4 failed: {}", std::io::Error::last_os_error());
        }
        usage
    };
    let wall = start.elapsed();
    let out = reader.join().expect("reader thread")?;
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        bail!("{cmd:?} failed with status {status}");
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    Ok((Measured { wall, peak_rss: usage.ru_maxrss as u64 * 1024, cpu }, out))
}

/// The best (smallest wall time) of `reps` runs, with the output of the last.
pub(crate) fn best_of(
    reps: usize,
    mut make: impl FnMut() -> Command,
) -> Result<(Measured, String)> {
    let mut best: Option<(Measured, String)> = None;
    for _ in 0..reps.max(1) {
        let (m, out) = measure(&mut make())?;
        if best.as_ref().is_none_or(|(b, _)| m.wall < b.wall) {
            best = Some((m, out));
        }
    }
    Ok(best.expect("at least one run"))
}

/// Builds the release binaries of the workspace and returns the directory holding them.
pub(crate) fn build_release(root: &Path) -> Result<std::path::PathBuf> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-p", "gamegraph-cli"])
        .current_dir(root)
        .status()?;
    if !status.success() {
        bail!("cargo build --release failed");
    }
    Ok(root.join("target/release"))
}

/// The positive number after `flag` in `args`, or `default` when `flag` is not there.
pub(crate) fn number_arg(args: &[String], flag: &str, default: usize) -> Result<usize> {
    match args.iter().position(|a| a == flag) {
        Some(i) => args
            .get(i + 1)
            .and_then(|r| r.parse::<usize>().ok())
            .filter(|&r| r > 0)
            .with_context(|| format!("{flag} takes a positive number")),
        None => Ok(default),
    }
}

/// Formats a duration in seconds with three significant decimals.
pub(crate) fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// Formats bytes as MiB.
pub(crate) fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0))
}

/// The benchmark names, in the order `cargo xtask help` lists them.
const NAMES: [&str; 11] = [
    "graph",
    "retro",
    "tab",
    "kernel",
    "grundy",
    "octal",
    "python",
    "dist",
    "dist-game",
    "game",
    "tiers",
];

/// Splits `bench`'s arguments into the benchmark names and the flags; `--games`, `--boards`,
/// `--rounds`, `--threads`, `--tasks`, `--bock` and `--gamesman` take the next argument as
/// their value.
fn parse(args: &[String]) -> Result<(Vec<&str>, bool)> {
    let mut names = Vec::new();
    let mut quick = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--medium" | "--large" | "--no-symmetry" | "--quixo" => {}
            "--bock" | "--gamesman" => {
                if rest.next().is_none() {
                    bail!("{arg} needs the directory of the solver's source tree");
                }
            }
            "--rounds" => {
                if rest.next().is_none() {
                    bail!("--rounds needs a number of rounds, e.g. --rounds 1");
                }
            }
            "--threads" => {
                if rest.next().is_none() {
                    bail!("--threads needs a number of threads, e.g. --threads 2");
                }
            }
            "--games" => {
                if rest.next().is_none() {
                    bail!("--games needs a list of octal codes, e.g. --games 0.6,0.106");
                }
            }
            "--boards" => {
                if rest.next().is_none() {
                    bail!("--boards needs a list of boards, e.g. --boards 5x4,6x4");
                }
            }
            "--dimacs" | "--clisat" | "--pace" | "--peer" | "--limit" | "--only" => {
                if rest.next().is_none() {
                    bail!("{arg} needs a value (a directory, a path, seconds or a list)");
                }
            }
            "--tasks" => {
                if rest.next().is_none() {
                    bail!("--tasks needs a list of tasks, e.g. --tasks alpha,beta");
                }
            }
            flag if flag.starts_with('-') => bail!("unknown flag {flag:?} (see cargo xtask help)"),
            name if NAMES.contains(&name) => names.push(name),
            name => bail!("unknown benchmark {name:?}: the benchmarks are {}", NAMES.join(", ")),
        }
    }
    if names.is_empty() {
        bail!("name a benchmark: {} (add --quick for small sizes)", NAMES.join(", "));
    }
    Ok((names, quick))
}

/// Runs the named benchmarks.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let (names, quick) = parse(args)?;
    for name in names {
        match name {
            "graph" => graph::run(root, quick)?,
            "retro" => retro::run(root, quick)?,
            "tab" => tab::run(root, quick)?,
            "octal" => octal::run(root, args)?,
            "grundy" => grundy::run(root, quick)?,
            "python" => python::run(root, quick)?,
            "kernel" => kernel::run(root, args)?,
            "dist" => dist::run(root, quick)?,
            "dist-game" => dist_game::run(root, args)?,
            "game" => game::run(root, args)?,
            "tiers" => tiers::run(root, args)?,
            _ => unreachable!("parse accepts only NAMES"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_value_of_games_is_not_a_benchmark_name() {
        let a = args("octal --games 0.6,0.106 --quick");
        assert_eq!(parse(&a).unwrap(), (vec!["octal"], true));
        let a = args("kernel --tasks kernel");
        assert_eq!(parse(&a).unwrap(), (vec!["kernel"], false));
        let a = args("kernel --dimacs dir --clisat bin --limit 5 --only a,b");
        assert_eq!(parse(&a).unwrap(), (vec!["kernel"], false));
        let a = args("kernel --pace dir --peer bin --limit 5 --only a,b");
        assert_eq!(parse(&a).unwrap(), (vec!["kernel"], false));
    }

    #[test]
    fn unknown_names_and_flags_are_refused() {
        assert!(parse(&args("retro fast")).unwrap_err().to_string().contains("\"fast\""));
        assert!(parse(&args("retro --fast")).unwrap_err().to_string().contains("--fast"));
        assert!(parse(&args("--quick")).unwrap_err().to_string().contains("name a benchmark"));
        assert!(parse(&args("octal --games")).is_err());
        assert!(parse(&args("kernel --tasks")).is_err());
    }
}
