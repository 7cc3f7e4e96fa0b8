//! `cargo xtask bench game [--quick] [--large]`: Connect Four explored and solved from its
//! rules by `gamegraph game connect-four --cols W --rows H solve --json -o FILE` on two
//! threads and on one, side by side in each round with a plain single-threaded C++
//! program (`xtask/baselines/connect4.cpp`, built here with `g++ -O2`: a hash map of
//! packed positions, successor lists, reverse arcs by counting sort, the queue algorithm).
//!
//! Boards: 4 × 4, 5 × 4, 6 × 4 and 5 × 5; `--quick` runs 4 × 4 and 5 × 4 only, `--large`
//! adds 6 × 5, and `--boards 6x4,4x7` runs the boards listed. `--no-symmetry` counts a
//! position and its mirror image apart, in both programs (4 × 7 then has more than 10⁸
//! positions). Each board is run in three rounds (`--rounds N`: N); a round runs the C++
//! program, then gamegraph on two threads and on one, so every ratio compares runs made
//! under the same load. In every run the number of positions, of moves and the start's
//! outcome and remoteness of gamegraph must equal the C++ program's.
//!
//! A second table gives the size of the values file (with and without `--no-remoteness`)
//! in bits per position and the time of `gamegraph game ... query --results FILE POS` on
//! random positions reached by random play: a whole process (start, opening the file,
//! reading one block for the position and one for each move, printing).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use gamegraph_graph::generate::SplitMix64;

use super::{Measured, build_release, measure, mib, number_arg, secs};

/// Rounds per board unless `--rounds N` says otherwise: every row gives the runs side by
/// side.
const ROUNDS: usize = 3;

/// Random positions queried from each values file.
const QUERIES: usize = 8;

/// A board: columns and rows.
#[derive(Debug, Clone, Copy)]
pub(super) struct Board {
    pub(super) cols: u32,
    pub(super) rows: u32,
    /// A position and its mirror image are one position.
    symmetry: bool,
}

impl Board {
    fn name(self) -> String {
        let apart = if self.symmetry { "" } else { " (mirror images apart)" };
        format!("{} × {}{apart}", self.cols, self.rows)
    }

    /// The stem of its files.
    fn stem(self) -> String {
        let apart = if self.symmetry { "" } else { "-nosym" };
        format!("c4-{}x{}{apart}", self.cols, self.rows)
    }
}

/// The boards of a run, smallest first.
fn boards(quick: bool, large: bool) -> Vec<Board> {
    let b = |cols, rows| Board { cols, rows, symmetry: true };
    let mut list = vec![b(4, 4), b(5, 4)];
    if !quick {
        list.extend([b(6, 4), b(5, 5)]);
    }
    if large {
        list.push(b(6, 5));
    }
    list
}

/// Boards given as `5x4,6x4` (columns x rows).
pub(super) fn parse_boards(text: &str) -> Result<Vec<Board>> {
    text.split(',')
        .map(|b| {
            let (c, r) = b.split_once('x').with_context(|| format!("{b:?} is not COLSxROWS"))?;
            Ok(Board { cols: c.trim().parse()?, rows: r.trim().parse()?, symmetry: true })
        })
        .collect()
}

/// What a solver says about a board: positions, moves, the start's outcome and remoteness.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Answer {
    positions: u64,
    moves: u64,
    outcome: String,
    remoteness: String,
}

/// Reads the C++ program's line `positions N moves M start OUTCOME REMOTENESS`.
fn baseline_answer(out: &str) -> Result<Answer> {
    let w: Vec<&str> = out.split_whitespace().collect();
    match w.as_slice() {
        ["positions", n, "moves", m, "start", o, r] => Ok(Answer {
            positions: n.parse()?,
            moves: m.parse()?,
            outcome: (*o).to_owned(),
            remoteness: (*r).to_owned(),
        }),
        _ => bail!("unexpected output of the C++ program: {out:?}"),
    }
}

/// The raw text of field `key` in a flat JSON object (a number, `null` or a string
/// without escapes).
fn json_field<'a>(json: &'a str, key: &str) -> Result<&'a str> {
    let pat = format!("\"{key}\":");
    let at = json.find(&pat).with_context(|| format!("no {key} in {json:?}"))? + pat.len();
    let rest = json[at..].trim_start();
    let end = if let Some(s) = rest.strip_prefix('"') {
        s.find('"').context("an unterminated string")? + 2
    } else {
        rest.find([',', '\n', '}']).unwrap_or(rest.len())
    };
    Ok(rest[..end].trim().trim_matches('"'))
}

/// Reads `gamegraph game ... solve --json`.
fn gamegraph_answer(json: &str) -> Result<Answer> {
    let r = json_field(json, "remoteness")?;
    Ok(Answer {
        positions: json_field(json, "positions")?.parse()?,
        moves: json_field(json, "moves")?.parse()?,
        outcome: json_field(json, "outcome")?.to_owned(),
        remoteness: if r == "null" { "-".to_owned() } else { r.to_owned() },
    })
}

fn utf8(path: &Path) -> Result<&str> {
    path.to_str().with_context(|| format!("{} is not UTF-8", path.display()))
}

/// Builds `xtask/baselines/connect4.cpp` with `g++ -O2`.
fn build_baseline(root: &Path) -> Result<PathBuf> {
    let dir = root.join("target/bench-tools");
    std::fs::create_dir_all(&dir)?;
    let exe = dir.join("connect4");
    let src = root.join("xtask/baselines/connect4.cpp");
    let status = Command::new("g++")
        .args(["-O2", "-std=c++17", "-o", utf8(&exe)?, utf8(&src)?])
        .status()
        .context("building the C++ baseline connect4.cpp needs g++")?;
    if !status.success() {
        bail!("g++ failed on {}", src.display());
    }
    Ok(exe)
}

/// `gamegraph game connect-four --cols W --rows H`.
fn game_cmd(bin: &Path, b: Board) -> Command {
    let mut c = Command::new(bin.join("gamegraph"));
    c.args(["game", "connect-four", "--cols", &b.cols.to_string(), "--rows", &b.rows.to_string()]);
    if !b.symmetry {
        c.arg("--no-symmetry");
    }
    c
}

/// One `solve --json -o FILE` run on `threads` threads.
fn solve(
    bin: &Path,
    b: Board,
    threads: usize,
    file: &Path,
    remoteness: bool,
) -> Result<(Measured, Answer)> {
    let mut c = game_cmd(bin, b);
    c.args(["solve", "--explicit", "--json", "--threads", &threads.to_string(), "-o"]).arg(file);
    if !remoteness {
        c.arg("--no-remoteness");
    }
    let (m, out) = measure(c.stderr(Stdio::null()))?;
    Ok((m, gamegraph_answer(&out)?))
}

/// A position reached by random play from the empty board (up to `plies` moves, stopping
/// at four in a row), in the notation of `gamegraph game connect-four`.
fn random_position(b: Board, rng: &mut SplitMix64, plies: usize) -> String {
    let (w, h) = (b.cols as usize, b.rows as usize);
    let mut cell = vec![b'.'; w * h]; // row r from the bottom, column c: cell[r * w + c]
    let mut height = vec![0usize; w];
    let at = |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w;
    for ply in 0..plies {
        let open: Vec<usize> = (0..w).filter(|&c| height[c] < h).collect();
        if open.is_empty() {
            break;
        }
        let c = open[rng.below(open.len() as u64) as usize];
        let r = height[c];
        let stone = if ply % 2 == 0 { b'X' } else { b'O' };
        cell[r * w + c] = stone;
        height[c] += 1;
        let line = [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| {
                        let (rr, cc) = (r as isize + sign * k * dr, c as isize + sign * k * dc);
                        at(rr, cc) && cell[rr as usize * w + cc as usize] == stone
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        });
        if line {
            break;
        }
    }
    (0..h)
        .rev()
        .map(|r| String::from_utf8_lossy(&cell[r * w..(r + 1) * w]).into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// One board's measurements.
struct Rows {
    board: Board,
    answer: Answer,
    /// Per round: C++, gamegraph on 2 threads, on 1 thread.
    rounds: Vec<[Measured; 3]>,
    bits_with: f64,
    bits_without: f64,
    /// Whole-process query times.
    queries: Vec<Duration>,
}

fn run_board(
    root: &Path,
    bin: &Path,
    cpp: &Path,
    b: Board,
    rounds_per_board: usize,
) -> Result<Rows> {
    let dir = root.join("target/bench-data/game");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("{}.values", b.stem()));
    let bare = dir.join(format!("{}.outcomes", b.stem()));
    let run_cpp = || {
        let mut c = Command::new(cpp);
        c.args([b.cols.to_string(), b.rows.to_string()]);
        if !b.symmetry {
            c.arg("--no-symmetry");
        }
        measure(&mut c).and_then(|(m, out)| Ok((m, baseline_answer(&out)?)))
    };
    // Every run is checked: gamegraph's answer on 1 and 2 threads against the C++
    // program's, which must not change from round to round.
    let mut expected: Option<Answer> = None;
    let mut rounds = Vec::new();
    for _ in 0..rounds_per_board {
        let (cpp_m, answer) = run_cpp()?;
        let want = expected.get_or_insert_with(|| answer.clone());
        if answer != *want {
            bail!("the C++ program changed its answer on {}", b.name());
        }
        let mut measured = [cpp_m; 3];
        for (slot, threads) in [(1, 2), (2, 1)] {
            let (m, ours) = solve(bin, b, threads, &file, true)?;
            if ours != *want {
                bail!("{}: gamegraph says {ours:?}, the C++ program {want:?}", b.name());
            }
            measured[slot] = m;
        }
        if rounds.is_empty() {
            println!(
                "check {}: {} positions, {} moves, start {} in {} (both)",
                b.name(),
                want.positions,
                want.moves,
                want.outcome,
                want.remoteness
            );
        }
        rounds.push(measured);
    }
    let expected = expected.context("no round was run")?;
    solve(bin, b, 2, &bare, false)?;
    let n = expected.positions as f64;
    let bits = |path: &Path| -> Result<f64> { Ok(std::fs::metadata(path)?.len() as f64 * 8.0 / n) };
    let mut rng = SplitMix64::new(u64::from(b.cols * 100 + b.rows));
    let mut queries = Vec::new();
    let cells = (b.cols * b.rows) as u64;
    for _ in 0..QUERIES {
        let plies = rng.below(cells + 1) as usize;
        let pos = random_position(b, &mut rng, plies);
        let mut c = game_cmd(bin, b);
        c.args(["query", "--results"]).arg(&file).arg(&pos);
        let (m, _) = measure(c.stderr(Stdio::null()))
            .with_context(|| format!("query {pos} on {}", b.name()))?;
        queries.push(m.wall);
    }
    Ok(Rows {
        board: b,
        answer: expected,
        rounds,
        bits_with: bits(&file)?,
        bits_without: bits(&bare)?,
        queries,
    })
}

/// Runs the game benchmark.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let quick = args.iter().any(|a| a == "--quick");
    let large = args.iter().any(|a| a == "--large");
    let symmetry = !args.iter().any(|a| a == "--no-symmetry");
    let rounds = number_arg(args, "--rounds", ROUNDS)?;
    let mut chosen = match args.iter().position(|a| a == "--boards") {
        Some(i) => parse_boards(args.get(i + 1).map_or("", String::as_str))?,
        None => boards(quick, large),
    };
    for b in &mut chosen {
        b.symmetry = symmetry;
    }
    let bin = build_release(root)?;
    let cpp = build_baseline(root)?;
    let mut all = Vec::new();
    for b in chosen {
        all.push(run_board(root, &bin, &cpp, b, rounds)?);
    }
    print_tables(&all);
    Ok(())
}

fn three(xs: impl Iterator<Item = String>) -> String {
    xs.collect::<Vec<_>>().join(" / ")
}

fn print_tables(all: &[Rows]) {
    println!();
    println!(
        "| board | positions | moves | solver | wall s (round 1 / 2 / …) | CPU s | positions/s (round 1) | peak RSS MiB | bytes/position | 2 threads / C++ (wall) | 2 threads / C++ (CPU) |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    let names =
        ["C++ (g++ -O2, 1 thread)", "gamegraph game --threads 2", "gamegraph game --threads 1"];
    for r in all {
        let n = r.answer.positions;
        for (i, name) in names.iter().enumerate() {
            let runs = || r.rounds.iter().map(move |round| round[i]);
            let peak = runs().map(|m| m.peak_rss).max().unwrap_or(0);
            let first = r.rounds[0][i];
            let ratio = |f: fn(&Measured) -> f64| {
                if i == 1 {
                    three(
                        r.rounds.iter().map(|round| format!("{:.2}", f(&round[1]) / f(&round[0]))),
                    )
                } else {
                    String::new()
                }
            };
            println!(
                "| {} | {} | {} | {} | {} | {} | {:.2}M | {} | {:.1} | {} | {} |",
                r.board.name(),
                n,
                r.answer.moves,
                name,
                three(runs().map(|m| secs(m.wall))),
                three(runs().map(|m| secs(m.cpu))),
                n as f64 / first.wall.as_secs_f64() / 1e6,
                mib(peak),
                peak as f64 / n as f64,
                ratio(|m| m.wall.as_secs_f64()),
                ratio(|m| m.cpu.as_secs_f64()),
            );
        }
    }
    println!();
    println!(
        "| board | start | values file bits/position | without remoteness | query s (whole process: min / median / max of {QUERIES}) |"
    );
    println!("|---|---|---:|---:|---:|");
    for r in all {
        let mut q = r.queries.clone();
        q.sort();
        println!(
            "| {} | {} in {} | {:.2} | {:.2} | {} / {} / {} |",
            r.board.name(),
            r.answer.outcome,
            r.answer.remoteness,
            r.bits_with,
            r.bits_without,
            secs(q[0]),
            secs(q[q.len() / 2]),
            secs(q[q.len() - 1]),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_both_outputs() {
        let cpp = baseline_answer("positions 80541 moves 152287 start tie 16\n").unwrap();
        let json = "{\n  \"game\": \"connect-four\",\n  \"positions\": 80541,\n  \"moves\": 152287,\n  \"start\": \"..../..../..../....\",\n  \"outcome\": \"tie\",\n  \"remoteness\": 16,\n  \"counts\": {\n    \"win\": 1\n  }\n}";
        assert_eq!(gamegraph_answer(json).unwrap(), cpp);
    }

    #[test]
    fn random_positions_have_the_board_shape() {
        let mut rng = SplitMix64::new(7);
        let p = random_position(Board { cols: 5, rows: 4, symmetry: true }, &mut rng, 9);
        assert_eq!(p.split('/').count(), 4);
        assert!(p.split('/').all(|row| row.len() == 5));
        let x = p.matches('X').count();
        let o = p.matches('O').count();
        assert!(x == o || x == o + 1);
    }
}
