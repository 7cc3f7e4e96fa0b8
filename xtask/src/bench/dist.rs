//! `cargo xtask bench dist`: `gamegraph dist retro` on one process and on two processes
//! over loopback against the single-machine `gamegraph retro`, on random graphs read from
//! binary files (and, for the slow path, from header text that process 0 reads and
//! sends): wall time, peak memory per process, bytes sent per arc (timely's
//! communication log, and the loopback interface's counter) and rounds.

use std::fs::File;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::retro::{convert, gen_args, generate};
use super::{Measured, build_release, measure, mib, secs};

/// Bytes sent on the loopback interface so far (`/proc/net/dev`).
fn loopback_tx() -> Result<u64> {
    let text = std::fs::read_to_string("/proc/net/dev")?;
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("lo:") {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            return fields.get(8).context("short lo line")?.parse().context("lo tx bytes");
        }
    }
    bail!("no lo interface in /proc/net/dev")
}

/// One `dist retro` process's statistics line: (rounds, bytes sent).
fn stats(path: &Path) -> Result<(u64, u64)> {
    let text = std::fs::read_to_string(path)?;
    let line = text.lines().find(|l| l.starts_with("dist: process")).context("no stats line")?;
    let num = |key: &str| -> Result<u64> {
        let at = line.find(key).context("stats key")? + key.len();
        let digits: String = line[at..].chars().take_while(char::is_ascii_digit).collect();
        Ok(digits.parse()?)
    };
    Ok((num("rounds ")?, num("bytes sent ")?))
}

/// A free loopback port, released for the process that binds it next.
fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Writes a hostfile of `processes` loopback addresses on ports free now.
pub(super) fn write_hostfile(path: &Path, processes: usize) -> Result<()> {
    let lines: Vec<String> = (0..processes)
        .map(|_| free_port().map(|p| format!("127.0.0.1:{p}\n")))
        .collect::<Result<_>>()?;
    Ok(std::fs::write(path, lines.concat())?)
}

/// Runs process `p` of a cluster as `command(p)` for every `p`, process 0 here and the
/// others on threads; process 0's standard output and every process's measure.
pub(super) fn measure_cluster(
    processes: usize,
    command: impl Fn(usize) -> Result<Command>,
) -> Result<(String, Vec<Measured>)> {
    let others: Vec<_> = (1..processes)
        .map(|p| {
            let mut c = command(p)?;
            Ok(std::thread::spawn(move || measure(&mut c)))
        })
        .collect::<Result<_>>()?;
    let (zero, out) = measure(&mut command(0)?)?;
    let mut measured = vec![zero];
    for h in others {
        measured.push(h.join().expect("measuring thread")?.0);
    }
    Ok((out, measured))
}

struct DistRun {
    processes: Vec<Measured>,
    answer: String,
    rounds: u64,
    bytes: u64,
    loopback: u64,
}

/// Runs `dist retro --start 1 FILE` on `processes` processes of one worker each.
fn dist(bin: &Path, file: &Path, processes: usize, dir: &Path) -> Result<DistRun> {
    let hosts = dir.join("bench-dist-hosts");
    write_hostfile(&hosts, processes)?;
    let before = loopback_tx()?;
    let (answer, measured) = measure_cluster(processes, |p| {
        let mut c = Command::new(bin.join("gamegraph"));
        c.args(["dist", "retro", "--start", "1", "--stats", "--hostfile"])
            .arg(&hosts)
            .args(["--process", &p.to_string()])
            .arg(file)
            .stderr(File::create(dir.join(format!("bench-dist-{p}.err")))?);
        Ok(c)
    })?;
    let loopback = loopback_tx()? - before;
    let mut rounds = 0;
    let mut bytes = 0;
    for p in 0..processes {
        let (r, b) = stats(&dir.join(format!("bench-dist-{p}.err")))?;
        rounds = r;
        bytes += b;
    }
    Ok(DistRun { processes: measured, answer, rounds, bytes, loopback })
}

/// Runs the benchmark (`quick`: 10^6 arcs only; else 10^7 and 10^8).
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir)?;
    let sizes: &[u64] = if quick { &[1_000_000] } else { &[10_000_000, 100_000_000] };
    println!(
        "| arcs | vertices | engine | wall s | peak RSS MiB per process | rounds | bytes sent / arc (timely log) | loopback bytes / arc |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &arcs in sizes {
        let n = arcs / 3;
        // The same files as the retro benchmark's random workloads.
        let file = dir.join(format!("retro-random-m{arcs}-n{n}.v2.bin"));
        generate(&bin, &file, &gen_args(n, arcs, 1, false), "binary")?;
        let (single, want) = measure(
            Command::new(bin.join("gamegraph"))
                .args(["retro", "--threads", "1", "--start", "1"])
                .arg(&file),
        )?;
        println!(
            "| {arcs} | {n} | retro, 1 thread | {} | {} | - | - | - |",
            secs(single.wall),
            mib(single.peak_rss)
        );
        let text = dir.join(format!("retro-random-m{arcs}-n{n}.txt"));
        convert(&bin, &file, &text, &["--to", "header"])?;
        for (processes, file, how) in [(1, &file, ""), (2, &file, ""), (2, &text, ", text")] {
            let r = dist(&bin, file, processes, &dir)?;
            if r.answer != want {
                bail!("dist on {processes} process(es) answered {:?}, retro {want:?}", r.answer);
            }
            let wall = r.processes.iter().map(|m| m.wall).max().expect("a process");
            let rss: Vec<String> = r.processes.iter().map(|m| mib(m.peak_rss)).collect();
            let per_arc = |b: u64| format!("{:.2}", b as f64 / arcs as f64);
            println!(
                "| {arcs} | {n} | dist, {processes} process{} x 1 worker{how} | {} | {} | {} | {} | {} |",
                if processes == 1 { "" } else { "es" },
                secs(wall),
                rss.join(" / "),
                r.rounds,
                per_arc(r.bytes),
                per_arc(r.loopback)
            );
            if processes == 1 {
                let ratio = wall.as_secs_f64() / single.wall.as_secs_f64();
                println!("|  |  | one process / retro: {ratio:.2}x | | | | | |");
            } else if how.is_empty() {
                let b = r.bytes as f64 / arcs as f64;
                println!("|  |  | bytes sent per arc {b:.2} | | | | | |");
            }
        }
    }
    Ok(())
}
