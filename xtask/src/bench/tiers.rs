//! `cargo xtask bench tiers [--boards 5x4,6x4] [--large] [--quixo] [--rounds N]
//! [--threads N] [--bock DIR] [--gamesman DIR]`: the tier solver against the explicit
//! solver and two outside solvers, side by side in each round.
//!
//! Solvers:
//! - gamegraph tiers: `gamegraph game connect-four --cols W --rows H --no-symmetry solve -o
//!   DIR --json --threads N` (`quixo 4` for Quixo), solving a tier at a time into a fresh
//!   directory; the bytes of the values files it keeps are reported per position.
//! - gamegraph explicit: `gamegraph game connect-four --cols W --rows H --no-symmetry solve
//!   --explicit --json --threads N -o FILE`, the whole game in memory (Connect Four up to
//!   28 cells: beyond, the game does not fit this machine's memory).
//! - Böck's Connect Four strong solver (Connect4-Strong-Solver), with `--bock DIR` or
//!   `GAMEGRAPH_BOCK=DIR` naming its source tree: built here with `make -C DIR/src/connect4
//!   solve` (clang) and run as `solve.out LOG2 W H` in a fresh directory. It classifies
//!   every position of each ply as win, draw or loss with BDDs and writes the BDDs to disk;
//!   its counts are the sums over the plies of `results_solve_wW_hH_lsLOG2.csv`. LOG2 (its
//!   node table holds 2^LOG2 nodes, allocated up front, so its peak memory is that table)
//!   grows with the board: 22 up to 20 cells, 24 up to 24, 26 up to 28, 27 beyond.
//! - GamesmanOne, with `--gamesman DIR` or `GAMEGRAPH_GAMESMAN=DIR`: built here with CMake
//!   in `DIR/build` (release; where `DIR/res` has no lz4 or liblzma of its own, small
//!   CMake package files written under `target/bench-tools` wrap the system's libraries),
//!   and run in a fresh directory as `OMP_NUM_THREADS=N bin/gamesman --data-path=data
//!   solve quixo 1` (variant 1: "4x4 4-in-a-row"). After the measured solve, `analyze`,
//!   `getstart` and `query` read its database for the counts and the start's value and
//!   remoteness (Quixo only).
//!
//! A solver whose directory is not given, or does not exist, is skipped with a line saying
//! so. Boards: Connect Four 5 × 4, 5 × 5, 6 × 4 and 4 × 7 (`--boards 5x4,6x4`: these only,
//! `--boards none`: none;
//! `--quick`: 5 × 4 only; `--large` adds 6 × 5 and 7 × 4); `--quixo` adds Quixo 4 × 4.
//! Each board runs in three rounds (`--rounds N`: N); a round runs the outside solvers,
//! then gamegraph's, so every ratio compares runs made under the same load. gamegraph's
//! solvers and GamesmanOne run on `--threads N` threads (1 by default); Böck's solver runs
//! on one.
//!
//! Compared: on Connect Four, positions reachable from the empty board with mirror images
//! apart, and of them the wins, losses and ties (full board) for the player to move, and
//! the start's outcome, between gamegraph tiers, gamegraph explicit and Böck; the start's
//! remoteness between the two gamegraph solvers (Böck's solver has none). On Quixo, the
//! positions up to the 8 symmetries of the square (GamesmanOne's "canonical" counts of
//! `analyze`) with their wins and losses, and the start's outcome and remoteness, between
//! gamegraph tiers and GamesmanOne. Any difference between two solvers that both give a
//! number fails the benchmark, in every round.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use super::{Measured, build_release, measure, mib, number_arg, secs};

/// Rounds per board unless `--rounds N` says otherwise.
const ROUNDS: usize = 3;

/// GamesmanOne's variant number of Quixo 4 × 4 ("4x4 4-in-a-row").
const GAMESMAN_QUIXO_4X4: &str = "1";

/// GamesmanOne's database directory, relative to the directory it runs in (it fails to
/// set up an absolute one).
const GAMESMAN_DATA: &str = "--data-path=data";

/// A board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Board {
    ConnectFour { cols: u32, rows: u32 },
    Quixo { side: u32 },
}

impl Board {
    fn name(self) -> String {
        match self {
            Board::ConnectFour { cols, rows } => format!("Connect Four {cols} × {rows}"),
            Board::Quixo { side } => format!("Quixo {side} × {side}"),
        }
    }

    fn stem(self) -> String {
        match self {
            Board::ConnectFour { cols, rows } => format!("c4-{cols}x{rows}"),
            Board::Quixo { side } => format!("quixo-{side}"),
        }
    }
}

/// The Connect Four boards of a run, smallest first.
fn default_boards(quick: bool, large: bool) -> Vec<Board> {
    let b = |cols, rows| Board::ConnectFour { cols, rows };
    if quick {
        return vec![b(5, 4)];
    }
    let mut list = vec![b(5, 4), b(5, 5), b(6, 4), b(4, 7)];
    if large {
        list.extend([b(6, 5), b(7, 4)]);
    }
    list
}

/// Boards given as `5x4,6x4` (columns x rows).
fn parse_boards(text: &str) -> Result<Vec<Board>> {
    if text == "none" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|b| {
            let (c, r) = b.split_once('x').with_context(|| format!("{b:?} is not COLSxROWS"))?;
            Ok(Board::ConnectFour { cols: c.trim().parse()?, rows: r.trim().parse()? })
        })
        .collect()
}

/// What a solver says about a board; `None` where it does not compute it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Answer {
    positions: Option<u64>,
    wins: Option<u64>,
    losses: Option<u64>,
    ties: Option<u64>,
    /// `win`, `loss`, `tie` or `draw`.
    outcome: Option<String>,
    remoteness: Option<u64>,
    /// The bytes of the values kept on disk, when the solver says (not compared).
    file_bytes: Option<u64>,
}

impl Answer {
    /// The fields as (name, value) pairs, for comparing and printing.
    fn fields(&self) -> [(&'static str, Option<String>); 6] {
        let n = |v: Option<u64>| v.map(|v| v.to_string());
        [
            ("positions", n(self.positions)),
            ("wins", n(self.wins)),
            ("losses", n(self.losses)),
            ("ties", n(self.ties)),
            ("start outcome", self.outcome.clone()),
            ("start remoteness", n(self.remoteness)),
        ]
    }

    fn show(&self) -> String {
        let f = |v: Option<u64>| v.map_or("-".to_owned(), |v| v.to_string());
        let files = match (self.file_bytes, self.positions) {
            (Some(b), Some(n)) if n > 0 => {
                format!(
                    ", values files {b} bytes ({:.2} bits a position)",
                    b as f64 * 8.0 / n as f64
                )
            }
            _ => String::new(),
        };
        format!(
            "{} positions ({} W, {} L, {} T), start {} in {}{files}",
            f(self.positions),
            f(self.wins),
            f(self.losses),
            f(self.ties),
            self.outcome.as_deref().unwrap_or("-"),
            f(self.remoteness)
        )
    }
}

/// Fails when `a` and `b` give different values for a field both of them give.
fn agree(board: Board, a: (&str, &Answer), b: (&str, &Answer)) -> Result<()> {
    for ((field, x), (_, y)) in a.1.fields().into_iter().zip(b.1.fields()) {
        if let (Some(x), Some(y)) = (x, y)
            && x != y
        {
            bail!("{}: {field}: {} says {x}, {} says {y}", board.name(), a.0, b.0);
        }
    }
    Ok(())
}

/// The word of an outcome, whatever the solver calls it.
fn outcome_word(w: &str) -> String {
    match w.to_ascii_lowercase().as_str() {
        "lose" | "lost" | "loss" => "loss".to_owned(),
        other => other.to_owned(),
    }
}

/// The solvers compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Solver {
    Tiers,
    Explicit,
    Bock,
    Gamesman,
}

impl Solver {
    fn name(self) -> &'static str {
        match self {
            Solver::Tiers => "gamegraph tiers (game ... solve -o DIR)",
            Solver::Explicit => "gamegraph explicit (game ... solve --explicit)",
            Solver::Bock => "Böck BDD solver (solve.out)",
            Solver::Gamesman => "GamesmanOne (gamesman solve)",
        }
    }

    fn plays(self, board: Board) -> bool {
        match (self, board) {
            (Solver::Tiers, _) => true,
            (Solver::Explicit, Board::ConnectFour { cols, rows }) => cols * rows <= 28,
            (Solver::Bock, Board::ConnectFour { .. }) => true,
            (Solver::Gamesman, Board::Quixo { side }) => side == 4,
            _ => false,
        }
    }
}

/// The programs run.
struct Tools {
    gamegraph: PathBuf,
    /// Threads of gamegraph's solvers and of GamesmanOne.
    threads: usize,
    /// Böck's `solve.out`, when its source was given.
    bock: Option<PathBuf>,
    /// GamesmanOne's `bin/gamesman`, when its source was given.
    gamesman: Option<PathBuf>,
}

fn utf8(path: &Path) -> Result<&str> {
    path.to_str().with_context(|| format!("{} is not UTF-8", path.display()))
}

/// Runs `cmd` to success, its output going to the terminal.
fn run_build(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd.status().with_context(|| format!("cannot run {cmd:?} ({what})"))?;
    if !status.success() {
        bail!("{what} failed: {cmd:?}");
    }
    Ok(())
}

/// Builds Böck's solver from its source tree and returns `solve.out`.
fn build_bock(dir: &Path) -> Result<PathBuf> {
    let src = dir.join("src/connect4");
    run_build(
        Command::new("make").arg("-C").arg(&src).arg("solve"),
        "building Böck's solver (make solve, needs clang)",
    )?;
    Ok(src.join("build/solve.out"))
}

/// A CMake package file that wraps a system library `lib` (header `header`) as the
/// imported target `target`.
fn cmake_wrapper(target: &str, lib: &str, header: &str) -> String {
    let var = lib.to_ascii_uppercase();
    format!(
        "find_library({var}_LIBRARY NAMES {lib} REQUIRED)\n\
         find_path({var}_INCLUDE_DIR {header} REQUIRED)\n\
         if(NOT TARGET {target})\n  \
           add_library({target} UNKNOWN IMPORTED)\n  \
           set_target_properties({target} PROPERTIES IMPORTED_LOCATION \"${{{var}_LIBRARY}}\"\n    \
             INTERFACE_INCLUDE_DIRECTORIES \"${{{var}_INCLUDE_DIR}}\")\n\
         endif()\n"
    )
}

/// Builds GamesmanOne from its source tree and returns `bin/gamesman`.
///
/// Its CMake files ask for the CMake packages of lz4 (1.10) and liblzma (5.4) that its
/// installer builds from submodules into `res/`. Where `res/` lacks one, a package file
/// wrapping the system's library stands in (Debian 12 has liblz4 1.9.4 and liblzma 5.4.1
/// without CMake package files; GamesmanOne calls only the LZ4F frame functions, which
/// 1.9 has).
fn build_gamesman(root: &Path, dir: &Path) -> Result<PathBuf> {
    let shims = root.join("target/bench-tools/gamesman-cmake");
    let mut configure = Command::new("cmake");
    configure.arg("-S").arg(dir).arg("-B").arg(dir.join("build"));
    configure.arg("-DCMAKE_BUILD_TYPE=Release");
    for (package, target, lib, header) in [
        ("lz4", "lz4::lz4", "lz4", "lz4frame.h"),
        ("liblzma", "liblzma::liblzma", "lzma", "lzma.h"),
    ] {
        if dir.join("res/lib/cmake").join(package).is_dir() {
            continue;
        }
        let d = shims.join(package);
        std::fs::create_dir_all(&d)?;
        std::fs::write(
            d.join(format!("{package}Config.cmake")),
            cmake_wrapper(target, lib, header),
        )?;
        std::fs::write(
            d.join(format!("{package}ConfigVersion.cmake")),
            "set(PACKAGE_VERSION_COMPATIBLE TRUE)\n",
        )?;
        configure.arg(format!("-D{package}_DIR={}", utf8(&d)?));
    }
    run_build(
        &mut configure,
        "configuring GamesmanOne (cmake; needs libjson-c-dev, liblz4-dev, liblzma-dev, zlib1g-dev)",
    )?;
    run_build(Command::new("cmake").arg("--build").arg(dir.join("build")), "building GamesmanOne")?;
    Ok(dir.join("bin/gamesman"))
}

/// The source tree of an outside solver: the flag's value, else the environment
/// variable's; `None` (with a line saying so) when neither names an existing directory.
fn peer_dir(args: &[String], flag: &str, env: &str, who: &str) -> Option<PathBuf> {
    let given = match args.iter().position(|a| a == flag) {
        Some(i) => args.get(i + 1).map(PathBuf::from),
        None => std::env::var_os(env).map(PathBuf::from),
    };
    match given {
        Some(d) if d.is_dir() => Some(d),
        Some(d) => {
            println!("skipping {who}: {} is not a directory", d.display());
            None
        }
        None => {
            println!("skipping {who}: give its source tree with {flag} DIR or {env}=DIR");
            None
        }
    }
}

/// The command of gamegraph's solver on `board` (mirror images apart on Connect Four):
/// `game … solve --json --threads N`, to which the caller adds where it writes.
fn solve_cmd(tools: &Tools, board: Board) -> Command {
    let mut c = Command::new(&tools.gamegraph);
    c.arg("game");
    match board {
        Board::ConnectFour { cols, rows } => {
            c.args(["connect-four", "--cols", &cols.to_string(), "--rows", &rows.to_string()]);
            c.arg("--no-symmetry");
        }
        Board::Quixo { side } => {
            c.args(["quixo".to_owned(), side.to_string()]);
        }
    }
    c.args(["solve", "--json", "--threads", &tools.threads.to_string()]);
    c
}

/// The raw text of the first field `key` in a JSON object, at any depth (a number, `null`
/// or a string without escapes).
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
fn explicit_answer(json: &str) -> Result<Answer> {
    let n = |k: &str| -> Result<Option<u64>> { Ok(Some(json_field(json, k)?.parse()?)) };
    let r = json_field(json, "remoteness")?;
    Ok(Answer {
        positions: n("positions")?,
        wins: n("win")?,
        losses: n("loss")?,
        ties: n("tie")?,
        outcome: Some(outcome_word(json_field(json, "outcome")?)),
        remoteness: if r == "null" { None } else { Some(r.parse()?) },
        file_bytes: json_field(json, "file_bytes").ok().map(str::parse).transpose()?,
    })
}

/// Böck's node table size (log2) for a board of `cells` cells.
fn bock_log2(cells: u32) -> u32 {
    match cells {
        0..=20 => 22,
        21..=24 => 24,
        25..=28 => 26,
        _ => 27,
    }
}

/// Reads Böck's `results_solve_*.csv`: per ply, wins, draws and losses of the player to
/// move (positions won by the previous move count as losses); ply 0 is the start.
fn bock_answer(csv: &str) -> Result<Answer> {
    let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
    let mut outcome = None;
    for line in csv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() < 6 {
            bail!("unexpected line of Böck's results: {line:?}");
        }
        let (pw, pd, pl): (u64, u64, u64) = (f[3].parse()?, f[4].parse()?, f[5].parse()?);
        (w, d, l) = (w + pw, d + pd, l + pl);
        if f[2] == "0" {
            outcome = Some(
                match (pw, pd, pl) {
                    (1, 0, 0) => "win",
                    (0, 1, 0) => "tie",
                    (0, 0, 1) => "loss",
                    _ => bail!("ply 0 of Böck's results is not one position: {line:?}"),
                }
                .to_owned(),
            );
        }
    }
    Ok(Answer {
        positions: Some(w + d + l),
        wins: Some(w),
        losses: Some(l),
        ties: Some(d),
        outcome: Some(outcome.context("no ply 0 in Böck's results")?),
        remoteness: None,
        file_bytes: None,
    })
}

/// The canonical count of a line `Winning positions: 20247 (2768 canonical)`: the last
/// such line of GamesmanOne's `analyze` output (the whole game's).
fn gamesman_count(out: &str, label: &str) -> Result<u64> {
    let line = out
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with(label))
        .with_context(|| format!("no {label:?} in GamesmanOne's analysis"))?;
    let inner = line.split('(').nth(1).and_then(|s| s.split_whitespace().next());
    inner.with_context(|| format!("unexpected line {line:?}"))?.parse().map_err(Into::into)
}

/// Reads GamesmanOne's database in `data` after a solve: counts from `analyze`, the
/// start's value and remoteness from `getstart` and `query`.
fn gamesman_answer(gamesman: &Path, dir: &Path) -> Result<Answer> {
    let run = |args: &[&str]| -> Result<String> {
        let out = Command::new(gamesman)
            .arg(GAMESMAN_DATA)
            .args(args)
            .current_dir(dir)
            .env("OMP_NUM_THREADS", "1")
            .stderr(Stdio::inherit())
            .output()?;
        if !out.status.success() {
            bail!("gamesman {args:?} failed");
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let analysis = run(&["analyze", "quixo", GAMESMAN_QUIXO_4X4])?;
    let start_json = run(&["getstart", "quixo", GAMESMAN_QUIXO_4X4])?;
    let start = json_field(&start_json, "position")?;
    if start.len() != 2 + 16 {
        bail!("GamesmanOne's start {start:?} is not a 4 × 4 board");
    }
    let value = run(&["query", "quixo", GAMESMAN_QUIXO_4X4, start])?;
    let (w, l) = (
        gamesman_count(&analysis, "Winning positions:")?,
        gamesman_count(&analysis, "Losing positions:")?,
    );
    let (t, d) = (
        gamesman_count(&analysis, "Tying positions:")?,
        gamesman_count(&analysis, "Drawing positions:")?,
    );
    Ok(Answer {
        positions: Some(w + l + t + d),
        wins: Some(w),
        losses: Some(l),
        ties: Some(t),
        outcome: Some(outcome_word(json_field(&value, "positionValue")?)),
        remoteness: Some(json_field(&value, "remoteness")?.parse()?),
        file_bytes: None,
    })
}

/// A fresh, empty directory.
fn fresh(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir)?;
    Ok(())
}

/// One measured run of `solver` on `board` in the scratch directory `dir`.
fn run_solver(
    tools: &Tools,
    solver: Solver,
    board: Board,
    dir: &Path,
) -> Result<(Measured, Answer)> {
    fresh(dir)?;
    let result = match (solver, board) {
        (Solver::Tiers, _) => {
            let mut c = solve_cmd(tools, board);
            c.arg("-o").arg(dir.join("tiers"));
            let (m, out) = measure(c.stderr(Stdio::null()))?;
            (m, explicit_answer(&out)?)
        }
        (Solver::Explicit, Board::ConnectFour { .. }) => {
            let mut c = solve_cmd(tools, board);
            c.args(["--explicit", "-o"]).arg(dir.join("values"));
            let (m, out) = measure(c.stderr(Stdio::null()))?;
            (m, explicit_answer(&out)?)
        }
        (Solver::Bock, Board::ConnectFour { cols, rows }) => {
            let exe = tools.bock.as_ref().context("no Böck solver")?;
            let log2 = bock_log2(cols * rows);
            let mut c = Command::new(exe);
            c.args([log2.to_string(), cols.to_string(), rows.to_string()]).current_dir(dir);
            let (m, _) = measure(c.stderr(Stdio::null()))?;
            let csv = dir.join(format!("results_solve_w{cols}_h{rows}_ls{log2}.csv"));
            let text = std::fs::read_to_string(&csv)
                .with_context(|| format!("Böck's solver wrote no {}", csv.display()))?;
            (m, bock_answer(&text)?)
        }
        (Solver::Gamesman, Board::Quixo { .. }) => {
            let exe = tools.gamesman.as_ref().context("no GamesmanOne")?;
            let mut c = Command::new(exe);
            c.arg(GAMESMAN_DATA)
                .args(["solve", "quixo", GAMESMAN_QUIXO_4X4])
                .current_dir(dir)
                .env("OMP_NUM_THREADS", tools.threads.to_string());
            let (m, _) = measure(c.stderr(Stdio::null()))?;
            (m, gamesman_answer(exe, dir)?)
        }
        _ => bail!("{} does not play {}", solver.name(), board.name()),
    };
    // What the solvers wrote is not kept: a large board's is gigabytes.
    std::fs::remove_dir_all(dir)?;
    Ok(result)
}

/// One board's measurements.
struct Rows {
    board: Board,
    solvers: Vec<Solver>,
    answers: Vec<Answer>,
    /// Per round, per solver (in the order of `solvers`).
    rounds: Vec<Vec<Measured>>,
}

fn run_board(root: &Path, tools: &Tools, board: Board, rounds: usize) -> Result<Rows> {
    let mut solvers: Vec<Solver> =
        [Solver::Bock, Solver::Gamesman, Solver::Explicit, Solver::Tiers]
            .into_iter()
            .filter(|s| s.plays(board))
            .collect();
    solvers.retain(|s| match s {
        Solver::Bock => tools.bock.is_some(),
        Solver::Gamesman => tools.gamesman.is_some(),
        _ => true,
    });
    let scratch = root.join("target/bench-data/tiers").join(board.stem());
    let mut answers: Vec<Option<Answer>> = vec![None; solvers.len()];
    let mut all = Vec::new();
    for round in 0..rounds {
        let mut measured = Vec::new();
        for (i, &s) in solvers.iter().enumerate() {
            eprintln!("{} round {}: {}", board.name(), round + 1, s.name());
            let (m, a) = run_solver(tools, s, board, &scratch)
                .with_context(|| format!("{} on {}", s.name(), board.name()))?;
            if let Some(first) = &answers[i]
                && *first != a
            {
                bail!("{} changed its answer on {}: {first:?}, then {a:?}", s.name(), board.name());
            }
            for (j, other) in answers.iter().enumerate() {
                if let Some(other) = other
                    && j != i
                {
                    agree(board, (s.name(), &a), (solvers[j].name(), other))?;
                }
            }
            answers[i] = Some(a);
            measured.push(m);
        }
        all.push(measured);
    }
    let answers: Vec<Answer> = answers.into_iter().map(|a| a.unwrap_or_default()).collect();
    for (s, a) in solvers.iter().zip(&answers) {
        println!("check {}: {}: {}", board.name(), s.name(), a.show());
    }
    println!(
        "check {}: the {} solvers agree on every number they both give",
        board.name(),
        solvers.len()
    );
    Ok(Rows { board, solvers, answers, rounds: all })
}

/// Runs the tiers benchmark.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let has = |f: &str| args.iter().any(|a| a == f);
    let rounds = number_arg(args, "--rounds", ROUNDS)?;
    let threads = number_arg(args, "--threads", 1)?;
    let mut boards = match args.iter().position(|a| a == "--boards") {
        Some(i) => parse_boards(args.get(i + 1).map_or("", String::as_str))?,
        None => default_boards(has("--quick"), has("--large")),
    };
    if has("--quixo") {
        boards.push(Board::Quixo { side: 4 });
    }
    let bock_dir = peer_dir(args, "--bock", "GAMEGRAPH_BOCK", "Böck's Connect Four solver");
    let gamesman_dir = peer_dir(args, "--gamesman", "GAMEGRAPH_GAMESMAN", "GamesmanOne");
    let bin = build_release(root)?;
    let tools = Tools {
        gamegraph: bin.join("gamegraph"),
        threads,
        bock: bock_dir.as_deref().map(build_bock).transpose()?,
        gamesman: gamesman_dir.as_deref().map(|d| build_gamesman(root, d)).transpose()?,
    };
    let mut all = Vec::new();
    for b in boards {
        all.push(run_board(root, &tools, b, rounds)?);
    }
    print_table(&all);
    Ok(())
}

fn joined(xs: impl Iterator<Item = String>) -> String {
    xs.collect::<Vec<_>>().join(" / ")
}

fn print_table(all: &[Rows]) {
    println!();
    println!(
        "| board | positions | start | solver | wall s (round 1 / 2 / …) | CPU s | peak RSS MiB | tiers / this (wall) | tiers / this (CPU) |"
    );
    println!("|---|---:|---|---|---:|---:|---:|---:|---:|");
    for r in all {
        let tiers = r.solvers.iter().position(|&s| s == Solver::Tiers);
        let a = tiers.map_or(&r.answers[0], |t| &r.answers[t]);
        let start = format!(
            "{} in {}",
            a.outcome.as_deref().unwrap_or("-"),
            a.remoteness.map_or("-".to_owned(), |x| x.to_string())
        );
        for (i, s) in r.solvers.iter().enumerate() {
            let runs = || r.rounds.iter().map(move |round| round[i]);
            let peak = runs().map(|m| m.peak_rss).max().unwrap_or(0);
            let ratio = |f: fn(&Measured) -> f64| match tiers {
                Some(t) if t != i => joined(
                    r.rounds.iter().map(|round| format!("{:.2}", f(&round[t]) / f(&round[i]))),
                ),
                _ => String::new(),
            };
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.board.name(),
                a.positions.map_or("-".to_owned(), |n| n.to_string()),
                start,
                s.name(),
                joined(runs().map(|m| secs(m.wall))),
                joined(runs().map(|m| secs(m.cpu))),
                mib(peak),
                ratio(|m| m.wall.as_secs_f64()),
                ratio(|m| m.cpu.as_secs_f64()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_summaries_are_read() {
        let out = r#"{"game":"connect-four","positions":3945711,"tiers":21,"resumed":0,
            "file_bytes":1000,"start":"x","outcome":"tie","remoteness":20,"counts":{"win":1390516,
            "loss":1251559,"tie":1303636,"draw":0},"seconds":2.6}"#;
        let a = explicit_answer(out).unwrap();
        assert_eq!(a.positions, Some(3945711));
        assert_eq!((a.wins, a.losses, a.ties), (Some(1390516), Some(1251559), Some(1303636)));
        assert_eq!((a.outcome.as_deref(), a.remoteness), (Some("tie"), Some(20)));
        assert_eq!(a.file_bytes, Some(1000));
    }

    #[test]
    fn bock_results_are_summed_over_plies() {
        let csv = "width,height,ply,win_count,draw_count,loss_count,term_count,total_count,x\n\
                   5, 4, 2, 3, 4, 5, 0, 12, 1\n\
                   5, 4, 1, 2, 3, 0, 0, 5, 1\n\
                   5, 4, 0, 0, 1, 0, 0, 1, 1\n";
        let a = bock_answer(csv).unwrap();
        assert_eq!((a.positions, a.wins, a.ties, a.losses), (Some(18), Some(5), Some(8), Some(5)));
        assert_eq!(a.outcome.as_deref(), Some("tie"));
        assert_eq!(a.remoteness, None);
    }

    #[test]
    fn gamesman_counts_are_the_canonical_ones_of_the_last_summary() {
        let out = "Winning positions: 5 (1 canonical)\n\
                   ...\n\
                   Winning positions: 20247 (2768 canonical)\n";
        assert_eq!(gamesman_count(out, "Winning positions:").unwrap(), 2768);
    }

    #[test]
    fn answers_disagree_only_on_numbers_both_give() {
        let b = Board::ConnectFour { cols: 5, rows: 4 };
        let full = Answer {
            positions: Some(10),
            wins: Some(4),
            losses: Some(3),
            ties: Some(3),
            outcome: Some("tie".into()),
            remoteness: Some(20),
            file_bytes: None,
        };
        let mut no_remoteness = full.clone();
        no_remoteness.remoteness = None;
        assert!(agree(b, ("a", &full), ("b", &no_remoteness)).is_ok());
        let mut other = full.clone();
        other.wins = Some(5);
        let err = agree(b, ("a", &full), ("b", &other)).unwrap_err().to_string();
        assert!(err.contains("wins"), "{err}");
    }
}
