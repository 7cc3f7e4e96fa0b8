//! `gamegraph tab`: the tab board game ("Cờ bảng").

mod render;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gamegraph_graph::{Limit, quote};
use gamegraph_tab::{
    Board, Cell, Config, MAX_COLS, Outcome, Period, Solution, SolveError, Value, answer_tests,
    find_periods, parse_tests, solve, solve_cell,
};
use serde::Serialize;

use crate::common::{
    CliError, Input, Output, TimeLimit, check_outputs, create_file, parse_time_limit, progress,
    write_json,
};
use gamegraph_graph::Located;

/// The most cells `--board`, `--svg` and `--board --json` draw.
const MAX_DRAWN_CELLS: u64 = 1_000_000;

/// The most plies `--line` prints (each is a line of output).
const MAX_PLIES: u64 = 10_000_000;

/// The time limit when `--time-limit` is not given, in seconds (also written out in the help
/// texts of [`Args`]).
const DEFAULT_TIME_LIMIT: u64 = 60;

/// Arguments of `gamegraph tab`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  gamegraph tab tab.inp -o tab.out                 # a file in the tab.inp format -> answers
  gamegraph tab --rows 10 --cols 4 --at 4,3        # one cell: prints 2
  gamegraph tab --rows 10 --cols 4 --board         # every cell's d, top row first
  gamegraph tab --rows 20 --cols 6 --svg board.svg # the same as a picture
  gamegraph tab --rows 10 --cols 4 --at 4,3 --line # an optimal play
  gamegraph tab --rows 1000000000000000000 --cols 50 --at 1,1   # by the period of the rows
  gamegraph tab --period 1..50                     # periods of the rows, M = 1..50

The tab.inp format (docs/formats.md): a first number s, then s tests `N M x y`; the answer
to each is d: 0 when the player to move loses, else the number of that player's moves in
the longest forced win.

Limits: a run gives up with exit code 3 after 60 s by default (--time-limit SECS sets another
limit, --time-limit none removes it), or after --max-cells cell evaluations (row r of a board
with M columns costs min(r, M); work known in advance is refused before it starts). Work that
cannot finish in decades is refused at once with exit code 2, and memory that cannot be
allocated ends the run with exit code 3.")]
pub(crate) struct Args {
    /// A file in the tab.inp format (first s, then s tests `N M x y`); standard input when
    /// absent or `-` (on a terminal, ./tab.inp when it exists).
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The board's rows N (instead of a file).
    #[arg(long, value_name = "N", requires = "cols", conflicts_with = "input")]
    rows: Option<u64>,
    /// The board's columns M.
    #[arg(long, value_name = "M", requires = "rows")]
    cols: Option<u32>,
    /// The start cell, row x (from the bottom) and column y.
    #[arg(long, value_name = "X,Y", requires = "rows")]
    at: Option<String>,
    /// Draw the whole board: each cell's d, the top row first (coloured on a terminal).
    #[arg(long, requires = "rows")]
    board: bool,
    /// Write the board as an SVG picture to FILE.
    #[arg(long, value_name = "FILE", requires = "rows")]
    svg: Option<PathBuf>,
    /// Print an optimal play from the `--at` cell.
    #[arg(long, requires = "at")]
    line: bool,
    /// Stop `--line` after this many plies (at most 10000000).
    #[arg(long, value_name = "PLIES", default_value_t = 10_000)]
    max_plies: u64,
    /// Print the periods of the rows for M columns, or for every M in A..B.
    #[arg(long, value_name = "M|A..B", conflicts_with_all = ["input", "rows"])]
    period: Option<String>,
    /// Never use the period: plain DP over every row (streaming, O(M) memory).
    #[arg(long)]
    no_extrapolate: bool,
    /// How many rows the period search may compute before falling back to plain DP
    /// (at most 4294967296).
    #[arg(long, value_name = "ROWS", default_value_t = Config::default().search_rows)]
    search_rows: u64,
    /// Give up (exit code 3) after this many cell evaluations: min(r, M) for row r of a
    /// board with M columns, M for a step of the period's proof (how long that takes depends
    /// on M and the machine; --time-limit bounds the time).
    #[arg(long, value_name = "CELLS", default_value_t = Config::default().max_cells)]
    max_cells: u64,
    /// Give up (exit code 3) after SECS seconds of solving; `none` for no limit
    /// [default: 60].
    #[arg(long, value_name = "SECS", value_parser = parse_time_limit, allow_hyphen_values = true)]
    time_limit: Option<TimeLimit>,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

/// `--at X,Y` (parsed here rather than by clap, so that a bad value is quoted briefly).
pub(crate) fn parse_at(s: &str) -> Result<(u64, u32), CliError> {
    let bad = |m: String| CliError::Usage(format!("--at: {m}"));
    let (x, y) = s.split_once(',').ok_or_else(|| bad("expected X,Y, for example 4,3".into()))?;
    let x = x.trim().parse().map_err(|e| bad(format!("bad row {}: {e}", quote(x))))?;
    let y = y.trim().parse().map_err(|e| bad(format!("bad column {}: {e}", quote(y))))?;
    Ok((x, y))
}

/// `--period M` or `--period A..B`.
fn parse_range(s: &str) -> Result<(u32, u32), CliError> {
    let bad = |m: String| CliError::Usage(format!("--period: {m}"));
    let num = |t: &str| {
        t.trim().parse::<u32>().map_err(|e| bad(format!("bad column count {}: {e}", quote(t))))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => (num(s)?, num(s)?),
    };
    if a == 0 || a > b {
        return Err(bad(format!("expected M >= 1 or A..B with 1 <= A <= B, found {}", quote(s))));
    }
    Ok((a, b))
}

/// A cell's answer in `--json`.
#[derive(Debug, Serialize)]
struct CellJson {
    x: u64,
    y: u32,
    d: u64,
    outcome: &'static str,
    depth: u64,
}

impl CellJson {
    fn new(cell: Cell, v: Value) -> CellJson {
        CellJson {
            x: cell.row,
            y: cell.col,
            d: v.answer(),
            outcome: v.outcome().word(),
            depth: v.depth(),
        }
    }
}

#[derive(Debug, Serialize)]
struct PeriodJson {
    cols: u32,
    start: Option<u64>,
    length: Option<u64>,
    min_shift: Option<u64>,
    max_shift: Option<u64>,
}

impl PeriodJson {
    fn new(cols: u32, p: Option<Period>) -> PeriodJson {
        PeriodJson {
            cols,
            start: p.map(|p| p.start),
            length: p.map(|p| p.length),
            min_shift: p.map(|p| p.min_shift),
            max_shift: p.map(|p| p.max_shift),
        }
    }
}

#[derive(Debug, Serialize)]
struct BoardJson {
    rows: u64,
    cols: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<CellJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<Vec<CellJson>>,
    /// Each row's d, top row first.
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<Vec<Vec<u64>>>,
}

/// Runs `gamegraph tab`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let limit = args.time_limit.unwrap_or(TimeLimit(Some(Duration::from_secs(DEFAULT_TIME_LIMIT))));
    let config = Config {
        extrapolate: !args.no_extrapolate,
        search_rows: args.search_rows,
        max_cells: args.max_cells,
        deadline: limit.0.and_then(|d| Instant::now().checked_add(d)),
        ..Config::default()
    };
    check_outputs(
        &[("-o", args.output.as_deref()), ("--svg", args.svg.as_deref())],
        args.input.as_deref(),
    )?;
    if let Some(range) = &args.period {
        let (a, b) = parse_range(range)?;
        return periods(&args, &config, a, b);
    }
    if args.rows.is_some() {
        return board(&args, &config);
    }
    tests(&args, &config)
}

/// A spinner fed by the library's row counter.
fn with_progress<T>(message: &'static str, f: impl FnOnce(&mut dyn FnMut(u64)) -> T) -> T {
    let bar = progress(None, message);
    let mut tick = |rows: u64| {
        if let Some(bar) = &bar {
            bar.set_message(format!("{message}: {rows} rows"));
        }
    };
    let out = f(&mut tick);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    out
}

/// The exit code and message of a solver error, naming the option that changes it.
fn solve_error(e: SolveError) -> CliError {
    match e {
        SolveError::Limit { limit: limit @ Limit::Budget { .. }, .. } => {
            CliError::limit(limit, format_args!("{e}; raise the limit with --max-cells CELLS"))
        }
        SolveError::NoPeriod { .. } => CliError::bound(format_args!(
            "{e}; raise --search-rows to search further (at most {})",
            gamegraph_tab::MAX_STORED_ROWS
        )),
        SolveError::Hopeless { searched: Some(_), .. } => {
            CliError::Usage(format!("{e}; a longer period search may help: raise --search-rows"))
        }
        SolveError::Hopeless { searched: None, .. } => CliError::Usage(format!(
            "{e}; without --no-extrapolate, and with a large enough --search-rows, the period \
             of the rows answers it"
        )),
        SolveError::TooTall { .. } => CliError::Usage(format!(
            "{e}; --line and --board without --no-extrapolate use the period"
        )),
        SolveError::TooMuchMemory { .. } => CliError::Usage(format!("{e}; lower --search-rows")),
        SolveError::Limit { limit: Limit::Time, .. } => CliError::limit(
            Limit::Time,
            format_args!("{e}; raise it with --time-limit SECS, or --time-limit none for no limit"),
        ),
        SolveError::Limit { limit, .. } => CliError::limit(limit, e),
        other => CliError::Other(other.into()),
    }
}

fn tests(args: &Args, config: &Config) -> Result<ExitCode, CliError> {
    if args.board || args.svg.is_some() || args.line {
        return Err(CliError::Usage("--board, --svg and --line need --rows and --cols".into()));
    }
    let input = Input::open(tests_file(args.input.as_deref()).as_deref())?;
    let tests =
        parse_tests(input.reader).map_err(|e| CliError::at(&input.name, e.position(), &e))?;
    let values =
        with_progress("solving", |p| answer_tests(&tests, config, p)).map_err(solve_error)?;
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        let items: Vec<_> =
            tests.iter().zip(&values).map(|(t, v)| CellJson::new(t.start, *v)).collect();
        write_json(&mut out, &items)?;
    } else {
        for v in &values {
            writeln!(out, "{}", v.answer())?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Where the tests come from: the file given; with none on a terminal, `tab.inp` of the
/// current folder when it exists, otherwise standard input, each said on stderr (a silent
/// wait for typed input looks like a hang).
fn tests_file(given: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    use std::io::IsTerminal;
    if given.is_some() || !std::io::stdin().is_terminal() {
        return given.map(std::path::Path::to_path_buf);
    }
    let local = std::path::Path::new("tab.inp");
    if local.is_file() {
        eprintln!("reading the tests from tab.inp in this folder");
        Some(local.to_path_buf())
    } else {
        eprintln!("reading the tests from standard input (s, then s lines N M X Y; Ctrl-D ends)");
        None
    }
}

fn board(args: &Args, config: &Config) -> Result<ExitCode, CliError> {
    let (rows, cols) = (args.rows.unwrap_or(0), args.cols.unwrap_or(0));
    let board = Board::new(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    let cell = match args.at.as_deref().map(parse_at).transpose()? {
        Some((x, y)) => Some(board.cell(x, y).map_err(|e| CliError::Usage(e.to_string()))?),
        None => None,
    };
    let drawn = args.board || args.svg.is_some();
    if cell.is_none() && !drawn {
        return Err(CliError::Usage("say what to compute: --at X,Y, --board or --svg FILE".into()));
    }
    if drawn && rows.saturating_mul(u64::from(cols)) > MAX_DRAWN_CELLS {
        return Err(CliError::Usage(format!(
            "--board and --svg draw at most {MAX_DRAWN_CELLS} cells, and the {board} board \
             has more; use --at for one cell"
        )));
    }
    if args.line && args.max_plies > MAX_PLIES {
        return Err(CliError::Usage(format!(
            "--max-plies is at most {MAX_PLIES} (each ply is a line of output)"
        )));
    }
    // The whole board when drawn or for a line; otherwise the cheapest route to one cell.
    let solution: Option<Solution> = if drawn || args.line {
        Some(with_progress("solving", |p| solve(board, config, p)).map_err(solve_error)?)
    } else {
        None
    };
    let value = match (cell, &solution) {
        (Some(c), Some(s)) => Some(s.value(c).map_err(solve_error)?),
        (Some(c), None) => Some(
            with_progress("solving", |p| solve_cell(board, c, config, p)).map_err(solve_error)?,
        ),
        (None, _) => None,
    };
    let line = match (cell, &solution) {
        (Some(c), Some(s)) if args.line => {
            Some(s.line(c, args.max_plies, config).map_err(solve_error)?)
        }
        _ => None,
    };
    if let (Some(path), Some(s)) = (&args.svg, &solution) {
        let mut f = create_file(path)?;
        render::write_svg(&mut f, s)?;
        f.finish()?;
    }
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        let value_of = |c: Cell| -> Result<CellJson, CliError> {
            let s = solution.as_ref().expect("a line has a solution");
            Ok(CellJson::new(c, s.value(c).map_err(solve_error)?))
        };
        let grid = match (&solution, args.board) {
            (Some(s), true) => Some(
                (1..=rows)
                    .rev()
                    .map(|x| Ok(s.row_values(x)?.iter().map(|v| v.answer()).collect()))
                    .collect::<Result<Vec<Vec<u64>>, _>>()
                    .map_err(solve_error)?,
            ),
            _ => None,
        };
        let json = BoardJson {
            rows,
            cols,
            cell: cell.zip(value).map(|(c, v)| CellJson::new(c, v)),
            line: line.as_ref().map(|l| l.iter().map(|&c| value_of(c)).collect()).transpose()?,
            board: grid,
        };
        write_json(&mut out, &json)?;
    } else {
        if let (Some(s), true) = (&solution, args.board) {
            let color = args.output.is_none() && std::io::stdout().is_terminal();
            render::write_grid(&mut out, s, color)?;
        }
        if let Some(line) = &line {
            let s = solution.as_ref().expect("a line has a solution");
            for (ply, c) in line.iter().enumerate() {
                let v = s.value(*c).map_err(solve_error)?;
                let mover = if ply % 2 == 0 { "A" } else { "B" };
                let outcome = if v.outcome() == Outcome::Win { "wins" } else { "loses" };
                writeln!(
                    out,
                    "{ply:>4}  {c}  {mover} to move {outcome}, {} plies left",
                    v.depth()
                )?;
            }
            if let (Some(v), Some(last)) = (value, line.last())
                && (line.len() as u64 - 1) < v.depth()
            {
                writeln!(out, "… stopped at {last} after {} plies (--max-plies)", line.len() - 1)?;
            }
        } else if let Some(v) = value {
            writeln!(out, "{}", v.answer())?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn periods(args: &Args, config: &Config, a: u32, b: u32) -> Result<ExitCode, CliError> {
    if b > MAX_COLS {
        return Err(CliError::Usage(format!("at most {MAX_COLS} columns")));
    }
    let found =
        with_progress("searching", |p| find_periods(a..=b, config, p)).map_err(solve_error)?;
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        let items: Vec<_> = found.iter().map(|&(m, p)| PeriodJson::new(m, p)).collect();
        write_json(&mut out, &items)?;
    } else {
        render::write_periods(&mut out, &found)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
