//! `cargo xtask bench dist-game [--boards 5x5,6x4] [--large] [--quixo] [--rounds N] [--quick]`:
//! Connect Four (and with `--quixo`, Quixo 4 × 4, whose tiers lie side by side and have
//! moves inside them) solved tier by tier by `gamegraph dist game` on 1, 2 and 4 processes over
//! loopback (and 1 process of 2 workers) against the one-machine tier solver on 2 threads
//! (`gamegraph game … solve -o DIR --threads 2`), in interleaved rounds: wall time, the
//! ratio to the one-machine solve of the same round, bytes sent per position (timely's
//! communication log, every process together), peak memory per process. Each distributed
//! solve's values files are compared byte for byte with the one-machine solve's.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::dist::{measure_cluster, write_hostfile};
use super::game::parse_boards;
use super::{Measured, build_release, measure, mib, number_arg};

/// Rounds per board unless `--rounds N` says otherwise.
const ROUNDS: usize = 3;

/// (processes, workers a process) of the distributed solves.
const LAYOUTS: [(usize, usize); 4] = [(1, 2), (2, 1), (4, 1), (1, 1)];

/// One distributed solve: each process's measure, the bytes all of them sent and the
/// rounds of its workers.
struct Run {
    processes: Vec<Measured>,
    bytes: u64,
    rounds: u64,
}

fn board_args(cols: u32, rows: u32) -> Vec<String> {
    ["connect-four", "--cols", &cols.to_string(), "--rows", &rows.to_string()]
        .map(str::to_owned)
        .to_vec()
}

/// The bytes and rounds one process says it sent (`--stats`).
fn sent(path: &Path) -> Result<(u64, u64)> {
    let text = std::fs::read_to_string(path)?;
    let number = |after: &str| -> Result<u64> {
        let at = text.find(after).context("no stats line")? + after.len();
        let digits: String = text[at..].chars().take_while(char::is_ascii_digit).collect();
        Ok(digits.parse()?)
    };
    Ok((number("bytes sent ")?, number("rounds ")?))
}

/// `gamegraph dist game` on `processes` × `workers` into `dir/p<i>`.
fn dist(bin: &Path, game: &[String], layout: (usize, usize), dir: &Path) -> Result<Run> {
    let (processes, workers) = layout;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let hosts = dir.join("hosts");
    write_hostfile(&hosts, processes)?;
    let (_, measured) = measure_cluster(processes, |p| {
        let mut c = Command::new(bin.join("gamegraph"));
        c.args(["dist", "game"])
            .args(game)
            .args(["solve", "--stats", "--workers", &workers.to_string(), "-o"])
            .arg(dir.join(format!("p{p}")))
            .arg("--hostfile")
            .arg(&hosts)
            .args(["--process", &p.to_string()])
            .stderr(File::create(dir.join(format!("err-{p}")))?);
        Ok(c)
    })?;
    let (mut bytes, mut rounds) = (0, 0);
    for p in 0..processes {
        let (b, r) = sent(&dir.join(format!("err-{p}")))?;
        bytes += b;
        rounds = r;
    }
    Ok(Run { processes: measured, bytes, rounds })
}

/// The values files of a solved directory, by name.
fn values_files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".values") || name == "manifest" {
            files.push((name, std::fs::read(e.path())?));
        }
    }
    files.sort();
    Ok(files)
}

/// The positions a solve's summary reports (`positions: N in T tiers`).
fn positions(summary: &str) -> Result<u64> {
    let line = summary.lines().find(|l| l.starts_with("positions: ")).context("no positions")?;
    let n: String = line["positions: ".len()..].chars().take_while(char::is_ascii_digit).collect();
    Ok(n.parse()?)
}

/// Runs the benchmark.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let has = |f: &str| args.iter().any(|a| a == f);
    let rounds = number_arg(args, "--rounds", ROUNDS)?;
    let boards: Vec<(u32, u32)> = match args.iter().position(|a| a == "--boards") {
        Some(i) => parse_boards(args.get(i + 1).map_or("", String::as_str))?
            .into_iter()
            .map(|b| (b.cols, b.rows))
            .collect(),
        None if has("--quick") => vec![(5, 4)],
        None if has("--large") => vec![(5, 5), (6, 4), (6, 5)],
        None => vec![(5, 5), (6, 4)],
    };
    let mut games: Vec<(String, Vec<String>)> = boards
        .into_iter()
        .map(|(cols, rows)| (format!("Connect Four {cols} × {rows}"), board_args(cols, rows)))
        .collect();
    if has("--quixo") {
        games.push(("Quixo 4 × 4".to_owned(), vec!["quixo".to_owned(), "4".to_owned()]));
    }
    let bin = build_release(root)?;
    let work: PathBuf = root.join("target/bench-data/dist-game");
    println!(
        "| game | positions | solver | wall s (round 1 / 2 / …) | this / one machine (per round) | bytes sent / position | rounds | peak RSS MiB per process (last round) |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    for (name, game) in games {
        let mut one_walls = Vec::new();
        let mut runs: Vec<Vec<Run>> = LAYOUTS.iter().map(|_| Vec::new()).collect();
        let mut one_rss = 0;
        let mut n = 0;
        for _ in 0..rounds {
            let one = work.join("one");
            let _ = std::fs::remove_dir_all(&one);
            let (m, summary) = measure(
                Command::new(bin.join("gamegraph"))
                    .arg("game")
                    .args(&game)
                    .args(["solve", "--threads", "2", "-o"])
                    .arg(&one),
            )?;
            n = positions(&summary)?;
            one_walls.push(m.wall.as_secs_f64());
            one_rss = m.peak_rss;
            let want = values_files(&one)?;
            for (i, &layout) in LAYOUTS.iter().enumerate() {
                let dir = work.join("dist");
                let run = dist(&bin, &game, layout, &dir)?;
                if values_files(&dir.join("p0"))? != want {
                    bail!("{name} on {layout:?}: the values files differ");
                }
                runs[i].push(run);
            }
        }
        let walls = |w: &[f64]| w.iter().map(|s| format!("{s:.2}")).collect::<Vec<_>>().join(" / ");
        println!(
            "| {name} | {n} | one machine, 2 threads | {} | 1 | - | - | {} |",
            walls(&one_walls),
            mib(one_rss)
        );
        for (i, &(processes, workers)) in LAYOUTS.iter().enumerate() {
            let wall: Vec<f64> = runs[i]
                .iter()
                .map(|r| r.processes.iter().map(|m| m.wall.as_secs_f64()).fold(0.0, f64::max))
                .collect();
            let ratio: Vec<String> =
                wall.iter().zip(&one_walls).map(|(d, o)| format!("{:.2}", d / o)).collect();
            let last = runs[i].last().expect("a round");
            let rss: Vec<String> = last.processes.iter().map(|m| mib(m.peak_rss)).collect();
            let bytes = if processes > 1 {
                format!("{:.2}", last.bytes as f64 / n.max(1) as f64)
            } else {
                "-".to_owned()
            };
            println!(
                "| {name} | {n} | dist, {processes} process{} × {workers} worker{} | {} | {} | {bytes} | {} | {} |",
                if processes == 1 { "" } else { "es" },
                if workers == 1 { "" } else { "s" },
                walls(&wall),
                ratio.join(" / "),
                last.rounds,
                rss.join(" / ")
            );
        }
    }
    Ok(())
}
