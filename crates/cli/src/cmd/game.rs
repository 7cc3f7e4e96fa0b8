//! `gamegraph game`: games given by their rules, explored, solved and queried by position.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use std::process::ExitCode;
use std::time::Instant;

use gamegraph_game::tier::{
    TierConfig, TierError, TierPhase, TierProgress, TierSummary, TierValues, Tiered, solve_tiers,
};
use gamegraph_game::{
    BYTES_PER_POSITION, Counts, ExploreConfig, ExploreError, FileError, Game, Outcome,
    PositionValue, QueryError, SolvedGame, ValuesFile,
};

use gamegraph_graph::{Limit, quote};
use serde::Serialize;

use crate::common::{CliError, JsonCounts, Output, progress, thread_pool, write_json};
use gamegraph_graph::Located;
use gamegraph_play::{ENTRIES, Spec, Visit};

/// Arguments of `gamegraph game`.
#[derive(Debug, clap::Args)]
#[command(after_help = "A game is given by its rules: where play starts, the moves of every \
position and what a finished position is worth. `solve` explores every position reachable from \
the start and labels each win, loss, tie or draw for the player to move, with its remoteness \
(plies to the end with best play: the winner hurries, the loser delays); `query` gives the \
value of one position and of every move from it. See docs/games.md for the rules and \
notations.

Examples:
  gamegraph game list
  gamegraph game tic-tac-toe solve                  # 765 positions; the start is a tie in 9
  gamegraph game tic-tac-toe query 'XX./OO./...'    # a win in 1, and the value of each move
  gamegraph game kayles 4,7 solve --json
  gamegraph game chase 12 query --json 'C.....M..... c'
  gamegraph game connect-four --cols 6 --rows 4 solve -o c4-6x4       # a tier at a time
  gamegraph game connect-four --cols 6 --rows 4 query --results c4-6x4 '....../....../....../..X...'
  gamegraph game quixo 4 solve -o quixo-4 --max-memory 4G
  gamegraph game connect-four --cols 5 --rows 4 solve --explicit -o c4.values
  gamegraph game connect-four --cols 5 --rows 4 query --results c4.values '...../...../...../..X..'

`solve -o DIR` solves the game a tier at a time (stones, marks, pins or cubes on the board, \
the row of the tab board; the chase is one tier) into the directory DIR, never holding the \
whole game in memory: one tier and the files of the tiers it moves to. DIR keeps a values \
file a tier (about 2 bits a position with remoteness on Connect Four, 1.3 without). An \
interrupted solve resumes from its last finished tier when the same command is run again. \
`solve --explicit -o FILE` explores the whole game in memory and writes one values file. \
`query --results` answers from either.")]
pub(crate) struct Args {
    #[command(subcommand)]
    game: Which,
}

/// The shipped games.
#[derive(Debug, clap::Subcommand)]
enum Which {
    /// The games that ship, with their notation.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Tic-tac-toe on 3 × 3: three in a row wins, a full board is a tie.
    TicTacToe {
        /// Count mirror images and rotations of a board as different positions.
        #[arg(long)]
        no_symmetry: bool,
        #[command(subcommand)]
        action: Action,
    },
    /// Connect Four on a board of any size: four in a row wins, a full board is a tie.
    ConnectFour {
        /// The number of columns (7 on the standard board).
        #[arg(long)]
        cols: u32,
        /// The number of rows (6 on the standard board).
        #[arg(long)]
        rows: u32,
        /// Count mirror images as different positions.
        #[arg(long)]
        no_symmetry: bool,
        #[command(subcommand)]
        action: Action,
    },
    /// Kayles (octal 0.77) on rows of pins: take one pin or two adjacent ones.
    Kayles {
        /// The rows' lengths, such as 4,7 or "4 7".
        rows: String,
        #[command(subcommand)]
        action: Action,
    },
    /// Dawson's Kayles (octal 0.07) on rows of pins: take two adjacent pins.
    DawsonsKayles {
        /// The rows' lengths, such as 4,7 or "4 7".
        rows: String,
        #[command(subcommand)]
        action: Action,
    },
    /// Any octal game on rows of pins.
    Octal {
        /// The octal code, such as 0.137.
        code: String,
        /// The rows' lengths, such as 4,7 or "4 7".
        rows: String,
        #[command(subcommand)]
        action: Action,
    },
    /// Quixo on N × N cubes: take a blank or own cube from the edge, push it back in at an
    /// end of its row or column; a line of N of one's mark wins.
    Quixo {
        /// The side of the board, 3 to 5.
        side: u32,
        /// Count rotations and reflections of a board as different positions.
        #[arg(long)]
        no_symmetry: bool,
        #[command(subcommand)]
        action: Action,
    },
    /// A cat chases a mouse on a ring of N cells (a loopy game: most positions are draws).
    Chase {
        /// The number of cells of the ring.
        cells: u32,
        /// Count rotations and reflections of the ring as different positions.
        #[arg(long)]
        no_symmetry: bool,
        #[command(subcommand)]
        action: Action,
    },
    /// The tab board game on ROWS × COLS from cell X,Y.
    Tab {
        /// The number of rows.
        rows: u64,
        /// The number of columns.
        cols: u32,
        /// The start cell X,Y (row, column, from 1).
        at: String,
        #[command(subcommand)]
        action: Action,
    },
}

/// What to do with the game.
#[derive(Debug, Clone, clap::Subcommand)]
enum Action {
    /// Explore and solve every position reachable from the start.
    Solve {
        /// Solve a tier at a time into the directory DIR, for `query --results` (with
        /// --explicit: write one values file), resuming a solve already there.
        #[arg(short, long, value_name = "DIR")]
        output: Option<PathBuf>,
        /// Store only the outcomes, not the remoteness.
        #[arg(long, requires = "output")]
        no_remoteness: bool,
        /// Explore the whole game in memory and write one values file to -o, instead of
        /// solving a tier at a time.
        #[arg(long, requires = "output")]
        explicit: bool,
        /// Refuse (exit 3) before any work when a tier needs more memory than SIZE, such as
        /// 4G or 512M [default: what this machine's memory holds].
        #[arg(
            long,
            value_name = "SIZE",
            requires = "output",
            conflicts_with = "explicit",
            value_parser = parse_size
        )]
        max_memory: Option<u64>,
        #[command(flatten)]
        common: Common,
    },
    /// The value of a position and of every move from it.
    Query {
        /// The position, in the game's notation (`game list` shows it).
        position: String,
        /// Answer from a results file of `solve -o` instead of solving.
        #[arg(long, value_name = "FILE")]
        results: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
}

/// Options of every action.
#[derive(Debug, Clone, clap::Args)]
struct Common {
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Stop (exit 3) when more positions than N are found [default: what the memory this
    /// process may still allocate holds (the machine's, `ulimit -v`, its control group's),
    /// less 256 MiB, at about 100 bytes a position].
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// Runs `gamegraph game`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let (words, action) = match args.game {
        Which::List { json } => return list(json),
        Which::TicTacToe { no_symmetry, action } => (named("tic-tac-toe", no_symmetry), action),
        Which::ConnectFour { cols, rows, no_symmetry, action } => {
            let mut w = named("connect-four", no_symmetry);
            w.extend(["--cols".into(), cols.to_string(), "--rows".into(), rows.to_string()]);
            (w, action)
        }
        Which::Kayles { rows, action } => (vec!["kayles".into(), rows], action),
        Which::DawsonsKayles { rows, action } => (vec!["dawsons-kayles".into(), rows], action),
        Which::Octal { code, rows, action } => (vec!["octal".into(), code, rows], action),
        Which::Chase { cells, no_symmetry, action } => {
            let mut w = named("chase", no_symmetry);
            w.push(cells.to_string());
            (w, action)
        }
        Which::Quixo { side, no_symmetry, action } => {
            let mut w = named("quixo", no_symmetry);
            w.push(side.to_string());
            (w, action)
        }
        Which::Tab { rows, cols, at, action } => {
            (vec!["tab".into(), rows.to_string(), cols.to_string(), at], action)
        }
    };
    let spec = Spec::parse(&words).map_err(|e| CliError::Usage(e.to_string()))?;
    spec.visit(Act { name: spec.entry().name, action: &action })
        .map_err(|e| CliError::Usage(e.to_string()))?
}

/// The words of a game's name and its `--no-symmetry`, for the registry.
fn named(name: &str, no_symmetry: bool) -> Vec<String> {
    let mut w = vec![name.to_owned()];
    if no_symmetry {
        w.push("--no-symmetry".into());
    }
    w
}

/// Runs an action on the game the registry builds.
struct Act<'a> {
    name: &'static str,
    action: &'a Action,
}

impl Visit for Act<'_> {
    type Output = Result<ExitCode, CliError>;

    fn visit<G>(self, game: G) -> Self::Output
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::Position: Into<u128> + TryFrom<u128>,
    {
        act_tiered(game, self.name, self.action)
    }
}

fn list(json: bool) -> Result<ExitCode, CliError> {
    let mut out = Output::create(None)?;
    if json {
        write_json(&mut out, &ENTRIES)?;
    } else {
        for g in ENTRIES {
            writeln!(out, "{} {}\n  {}", g.name, g.arguments, g.about)?;
            writeln!(out, "  positions: {}\n  moves: {}", g.notation, g.moves)?;
            writeln!(
                out,
                "  e.g. gamegraph game {} solve",
                format!("{} {}", g.name, g.example).trim()
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `action` on `game`.
fn act<G: Game + Send>(game: G, name: &str, action: &Action) -> Result<ExitCode, CliError>
where
    G::Position: Into<u128>,
{
    match action {
        Action::Solve { output, no_remoteness, common, .. } => {
            if let Some(path) = output.as_deref().filter(|p| p.is_dir()) {
                return Err(CliError::Usage(format!(
                    "{} is a directory: --explicit writes one values file",
                    path.display()
                )));
            }
            let (solved, seconds) = solve(game, common)?;
            if let Some(path) = output {
                let mut out = Output::create(Some(path))?;
                solved.save(&mut out, !no_remoteness).map_err(|e| file_error(path, e))?;
                out.finish()?;
            }
            summary(&solved, seconds, name, common.json)
        }
        Action::Query { position, results: Some(path), common } => {
            let source = path.display().to_string();
            if let Some(why) = gamegraph_game::not_a_values_file(path) {
                return Err(CliError::input(&source, None, why));
            }
            let file = File::open(path).map_err(|e| CliError::input(&source, None, e))?;
            let mut values =
                ValuesFile::open(game, BufReader::new(file)).map_err(|e| file_error(path, e))?;
            let p = values.game().parse(position).map_err(|e| query_error(position, e.into()))?;
            let value = values.query(p).map_err(|e| file_error(path, e))?.ok_or_else(|| {
                let shown = values.game().show(p);
                query_error(position, QueryError::Unreachable { position: shown })
            })?;
            print_value(values.game(), &value, common.json)
        }
        Action::Query { position, results: None, common } => {
            // The position is read before the game is explored: a typo answers at once.
            let p = game.parse(position).map_err(|e| query_error(position, e.into()))?;
            let (solved, _) = solve(game, common)?;
            let value = solved.query(p).map_err(|e| query_error(position, e))?;
            print_value(solved.game(), &value, common.json)
        }
    }
}

/// The position limit when none is given: what the memory this process may still allocate
/// holds at [`BYTES_PER_POSITION`] bytes a position.
pub(crate) fn default_max_positions() -> usize {
    gamegraph_graph::memory::positions_that_fit(BYTES_PER_POSITION)
}

/// Explores and solves `game` on the thread pool of `common`, with a spinner; the seconds
/// it took.
fn solve<G: Game + Send>(game: G, common: &Common) -> Result<(SolvedGame<G>, f64), CliError> {
    let max_positions = common.max_positions.unwrap_or_else(default_max_positions);
    let pool = thread_pool(common.threads)?;
    let bar = progress(None, "exploring and solving");
    let started = Instant::now();
    let solved = pool.install(|| {
        SolvedGame::new(game, &ExploreConfig { max_positions, ..ExploreConfig::default() })
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let solved = solved.map_err(|e| match e {
        ExploreError::Limit { limit: limit @ Limit::Budget { .. }, .. } => CliError::limit(
            limit,
            format_args!("{e}: give a larger --max-positions if this machine's memory holds them"),
        ),
        ExploreError::Limit { limit, .. } => CliError::limit(limit, e),
        other => CliError::Other(anyhow::Error::new(other)),
    })?;
    Ok((solved, started.elapsed().as_secs_f64()))
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    game: &'a str,
    positions: usize,
    moves: usize,
    #[serde(flatten)]
    values: StartAndCounts,
    seconds: f64,
}

/// The start's value and the counts of a solve, in the summary of either solver.
#[derive(Serialize)]
struct StartAndCounts {
    start: String,
    outcome: &'static str,
    remoteness: Option<u32>,
    counts: JsonCounts,
}

impl StartAndCounts {
    fn new(start: String, outcome: Outcome, remoteness: Option<u32>, c: Counts) -> StartAndCounts {
        StartAndCounts { start, outcome: outcome.word(), remoteness, counts: JsonCounts::of(c) }
    }

    /// The `start:` and `wins:` lines of the text summary.
    fn write(&self, out: &mut Output, outcome: Outcome) -> std::io::Result<()> {
        writeln!(out, "start: {}: {}", self.start, value_words(outcome, self.remoteness))?;
        writeln!(
            out,
            "wins: {}, losses: {}, ties: {}, draws: {}",
            self.counts.win, self.counts.loss, self.counts.tie, self.counts.draw
        )
    }
}

fn summary<G: Game>(
    solved: &SolvedGame<G>,
    seconds: f64,
    name: &str,
    json: bool,
) -> Result<ExitCode, CliError> {
    let s = SummaryJson {
        game: name,
        positions: solved.len(),
        moves: solved.num_moves(),
        values: StartAndCounts::new(
            solved.game().show(solved.positions()[solved.start().index()]),
            solved.start_outcome(),
            solved.start_remoteness(),
            solved.solution().counts(),
        ),
        seconds,
    };
    let mut out = Output::create(None)?;
    if json {
        write_json(&mut out, &s)?;
    } else {
        writeln!(out, "positions: {} ({} moves)", s.positions, s.moves)?;
        s.values.write(&mut out, solved.start_outcome())?;
        writeln!(out, "time: {:.2} s", s.seconds)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// "win in 3", "tie in 9", "draw".
fn value_words(outcome: Outcome, remoteness: Option<u32>) -> String {
    match remoteness {
        Some(r) => format!("{} in {r}", outcome.word()),
        None => outcome.word().to_owned(),
    }
}

#[derive(Serialize)]
struct ValueJson {
    position: String,
    outcome: &'static str,
    remoteness: Option<u32>,
    moves: Vec<MoveJson>,
}

#[derive(Serialize)]
struct MoveJson {
    /// The position after the move.
    position: String,
    /// The outcome for the player who makes the move.
    outcome: &'static str,
    /// The remoteness of the position after the move (`None` for a draw).
    remoteness: Option<u32>,
}

fn print_value<G: Game>(
    game: &G,
    value: &PositionValue<G::Position>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let v = ValueJson {
        position: game.show(value.position),
        outcome: value.outcome.word(),
        remoteness: value.remoteness,
        moves: value
            .moves
            .iter()
            .map(|m| MoveJson {
                position: game.show(m.position),
                outcome: m.outcome.word(),
                remoteness: m.remoteness,
            })
            .collect(),
    };
    let mut out = Output::create(None)?;
    if json {
        write_json(&mut out, &v)?;
    } else {
        writeln!(out, "{}: {}", v.position, value_words(value.outcome, value.remoteness))?;
        if !v.moves.is_empty() {
            writeln!(
                out,
                "moves, best first (for the player who moves, and plies left after it):"
            )?;
        }
        for m in &v.moves {
            match m.remoteness {
                Some(r) => writeln!(out, "  {}: {} {r}", m.position, m.outcome)?,
                None => writeln!(out, "  {}: {}", m.position, m.outcome)?,
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn file_error(path: &Path, e: FileError) -> CliError {
    match e {
        e @ FileError::Io { .. } => {
            CliError::Other(anyhow::Error::new(e).context(format!("cannot use {}", path.display())))
        }
        other => CliError::input(&path.display().to_string(), None, other),
    }
}

fn query_error(text: &str, e: QueryError) -> CliError {
    match e {
        QueryError::Parse(p) => {
            CliError::at("<position>", p.position(), format!("{} in {}", p.message(), quote(text)))
        }
        other => CliError::Usage(other.to_string()),
    }
}

/// Runs `action` on a game that comes in tiers: `solve -o DIR` and `query --results DIR`
/// go to the tier solver, the rest as for every game.
fn act_tiered<G: Tiered + Send>(game: G, name: &str, action: &Action) -> Result<ExitCode, CliError>
where
    G::Position: Into<u128>,
{
    match action {
        Action::Solve { output: Some(dir), explicit: false, no_remoteness, max_memory, common } => {
            solve_by_tiers(&game, name, dir, *no_remoteness, *max_memory, common)
        }
        Action::Query { position, results: Some(dir), common } if dir.is_dir() => {
            let values = TierValues::open(game, dir).map_err(|e| match e {
                // A directory that `solve -o DIR` did not write is bad input.
                e @ TierError::Io { .. } => CliError::input(
                    &dir.display().to_string(),
                    None,
                    format!("a directory, not the results of `solve -o DIR`: {e}"),
                ),
                e => tier_error(dir, e),
            })?;
            let game = values.game();
            let p = game.parse(position).map_err(|e| query_error(position, e.into()))?;
            let value = values.query(p).map_err(|e| tier_error(dir, e))?.ok_or_else(|| {
                query_error(position, QueryError::Unreachable { position: game.show(p) })
            })?;
            print_value(game, &value, common.json)
        }
        _ => act(game, name, action),
    }
}

/// `solve -o DIR`: the tier solver on the thread pool of `common`, with a bar per
/// tier on a terminal.
fn solve_by_tiers<G: Tiered + Send>(
    game: &G,
    name: &str,
    dir: &Path,
    no_remoteness: bool,
    max_memory: Option<u64>,
    common: &Common,
) -> Result<ExitCode, CliError> {
    let pool = thread_pool(common.threads)?;
    let (bar, progress) = tier_bar();
    let config = TierConfig {
        no_remoteness,
        max_memory: max_memory.or_else(gamegraph_graph::memory::limit),
        progress,
        ..TierConfig::default()
    };
    let started = Instant::now();
    let summary = pool.install(|| solve_tiers(game, dir, &config));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = summary.map_err(|e| tier_error(dir, e))?;
    print_tier_summary(game, name, dir, &summary, started.elapsed().as_secs_f64(), common.json)?;
    Ok(ExitCode::SUCCESS)
}

/// What [`TierConfig::progress`] calls.
type OnProgress = std::sync::Arc<dyn Fn(TierProgress) + Send + Sync>;

/// A bar per tier for a tier solve when standard error is a terminal: the bar (to be
/// cleared when the solve ends) and what reports to it.
pub(crate) fn tier_bar() -> (Option<indicatif::ProgressBar>, Option<OnProgress>) {
    let bar = progress(Some(1), "tiers");
    let report = bar.clone().map(|bar| {
        let report: OnProgress = std::sync::Arc::new(move |p: TierProgress| {
            let pass = match p.phase {
                TierPhase::Reach => "reach",
                TierPhase::Solve => "solve",
                TierPhase::Write => "write",
            };
            bar.set_length(p.total.max(1));
            bar.set_position(p.done);
            bar.set_message(format!("{pass} {}/{}: tier {}", p.steps_done + 1, p.steps, p.tier));
        });
        report
    });
    (bar, report)
}

/// Prints what a tier solve of `game` (`name`) into `dir` found, as text or JSON.
pub(crate) fn print_tier_summary<G: Game>(
    game: &G,
    name: &str,
    dir: &Path,
    summary: &TierSummary,
    seconds: f64,
    json: bool,
) -> Result<(), CliError> {
    let s = TierSummaryJson {
        game: name,
        positions: summary.positions(),
        tiers: summary.tiers.len(),
        resumed: summary.resumed,
        file_bytes: summary.file_bytes,
        values: StartAndCounts::new(
            game.show(game.canonical(game.start())),
            summary.start_outcome,
            summary.start_remoteness,
            summary.counts,
        ),
        seconds,
    };
    let mut out = Output::create(None)?;
    if json {
        write_json(&mut out, &s)?;
    } else {
        writeln!(out, "positions: {} in {} tiers", s.positions, s.tiers)?;
        s.values.write(&mut out, summary.start_outcome)?;
        writeln!(
            out,
            "values files: {} bytes in {} ({:.2} bits a position)",
            s.file_bytes,
            dir.display(),
            s.file_bytes as f64 * 8.0 / s.positions.max(1) as f64
        )?;
        if s.resumed > 0 {
            writeln!(out, "resumed: {} steps of a solve already in {}", s.resumed, dir.display())?;
        }
        writeln!(out, "time: {:.2} s", s.seconds)?;
    }
    out.finish()?;
    Ok(())
}

#[derive(Serialize)]
struct TierSummaryJson<'a> {
    game: &'a str,
    positions: u64,
    tiers: usize,
    resumed: u32,
    file_bytes: u64,
    #[serde(flatten)]
    values: StartAndCounts,
    seconds: f64,
}

pub(crate) fn tier_error(dir: &Path, e: TierError) -> CliError {
    match e {
        e @ TierError::TooManyTiers { .. } => CliError::Usage(e.to_string()),
        TierError::Limit { limit: limit @ Limit::Memory { .. }, .. } => CliError::limit(
            limit,
            format_args!("{e}: give a larger --max-memory if this machine holds it"),
        ),
        TierError::Limit { limit, .. } => CliError::limit(limit, e),
        e @ (TierError::Io { .. } | TierError::Contract { .. } | TierError::Remoteness { .. }) => {
            CliError::Other(
                anyhow::Error::new(e).context(format!("cannot solve into {}", dir.display())),
            )
        }
        other => CliError::input(&dir.display().to_string(), None, other),
    }
}

/// A size in bytes: digits with an optional K, M, G or T (powers of 1024).
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("expected a size such as 4G or 512M, found {}", quote(text))),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("expected a size such as 4G or 512M, found {}", quote(text)))
}
