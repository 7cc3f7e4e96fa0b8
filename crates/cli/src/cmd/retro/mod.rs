//! `gamegraph retro`: win / lose / draw, depth and optimal moves of a game graph (and
//! ties, with remoteness, when the file gives terminal values).

mod values;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::Vertex;
use gamegraph_graph::format::{DotStyle, write_dot};
use gamegraph_retro::{LineEnd, Outcome, Solution, par_solve};
use serde::Serialize;

use crate::common::{
    CliError, GraphInput, Output, check_outputs, create_file, progress, read_graph, thread_pool,
    write_json,
};

/// Win / lose / draw, depth and optimal moves of a game graph (retrograde analysis).
#[derive(Debug, clap::Args)]
#[command(after_help = "Output: by default the answer for the start vertex: 1 if the \
first player (to move) wins, 2 if the second player wins, 0 for a draw. A file with terminal \
values (the header format's `terminal` section: win, loss or tie at vertices without moves) is \
solved with four outcomes: 3 for a tie, T in tables, remoteness in place of depth. Definitions: \
docs/games.md; file formats: docs/formats.md.

Examples:
  gamegraph retro fixtures/retro/seed.txt            # 0: the example graph is a draw
  gamegraph retro --all game.txt                     # V OUTCOME DEPTH MOVE for every vertex
  gamegraph retro --start 4 --line game.txt          # the optimal line of play from vertex 4
  gamegraph retro --json --all game.txt              # the same as JSON
  gamegraph retro --all -o table.txt game.txt        # the table to a file
  gamegraph retro --dot game.dot game.txt            # also draw it: dot -Tsvg game.dot
  gamegraph retro --format arcs --start 1 arcs.txt   # an arc list (it has no start vertex)
  gamegraph gen --vertices 1000000 --arcs 10000000 --seed 1 --to binary -o g.bin
  gamegraph retro --threads 2 --start 1 g.bin        # a large graph on two threads")]
pub(crate) struct Args {
    /// The game graph (standard input when absent or `-`).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    #[command(flatten)]
    shape: Shape,
    /// Write the answer to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the graph to FILE as Graphviz DOT, each vertex labelled with its outcome
    /// and depth and coloured by outcome (W green, L red, D grey), the principal variation
    /// from the start drawn bold.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Threads for the solver (default: all cores); the answer is the same for every count.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    input: GraphInput,
}

/// Runs `gamegraph retro`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    check_outputs(
        &[("-o", args.output.as_deref()), ("--dot", args.dot.as_deref())],
        args.file.as_deref(),
    )?;
    let pool = thread_pool(args.threads)?;
    let file =
        pool.install(|| read_graph(args.file.as_deref(), &args.input).map(|(file, _)| file))?;
    let g = &file.graph;
    let start = args.shape.start_vertex(g.num_vertices(), file.start)?;

    if let Some(terminal) = &file.terminal {
        let bar = progress(None, "solving");
        let solution = pool.install(|| values::solve_values(g, terminal));
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        if let Some(path) = &args.dot {
            let mut w = create_file(path)?;
            values::write_values_dot(&mut w, &solution, g, start)?;
            w.finish()?;
        }
        let out = Output::create(args.output.as_deref())?;
        values::write_values(out, &solution, g, start, args.shape)?;
        return Ok(ExitCode::SUCCESS);
    }

    let bar = progress(None, "solving");
    let solution = pool.install(|| par_solve(g));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    if let Some(path) = &args.dot {
        let labels = solution.vertex_labels();
        let colors: Vec<&str> =
            solution.outcomes().iter().map(|&o| crate::common::outcome_color(o)).collect();
        let line: Vec<Vertex> =
            start.map(|s| solution.principal_variation(s).positions().to_vec()).unwrap_or_default();
        let style = DotStyle {
            name: "retro",
            labels: Some(&labels),
            colors: Some(&colors),
            highlight: Some(&line),
        };
        let mut w = create_file(path)?;
        write_dot(&mut w, g, &style)?;
        w.finish()?;
    }

    let out = Output::create(args.output.as_deref())?;
    write_solution(out, &solution, g.num_arcs(), start, args.shape)?;
    Ok(ExitCode::SUCCESS)
}

/// What `gamegraph retro` prints (JSON or text, every vertex or the start only, the
/// line), from the options it shares with `gamegraph dist retro`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct Shape {
    /// Print every vertex, one line `V OUTCOME DEPTH MOVE` each: 1-based ids, OUTCOME W, L
    /// or D (or T, a tie, for a file with terminal values), DEPTH in plies, `-` for no depth
    /// (a draw) or no move.
    #[arg(long, conflicts_with = "line")]
    pub(crate) all: bool,
    /// The start vertex (1-based); overrides the file's start, and is required for formats
    /// without one.
    #[arg(long, value_name = "V")]
    pub(crate) start: Option<u64>,
    /// Print the principal variation from the start: both players play their optimal
    /// moves; one `V OUTCOME` per line, then a `#` comment saying how the line ends.
    #[arg(long)]
    pub(crate) line: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

impl Shape {
    /// The start vertex: `--start` if given, else the file's; an error when there is none
    /// and the output needs one (anything but `--all` without `--line`).
    pub(crate) fn start_vertex(
        &self,
        n: usize,
        from_file: Option<Vertex>,
    ) -> Result<Option<Vertex>, CliError> {
        let start = match self.start {
            Some(id) => Some(
                Vertex::from_one_based(id)
                    .filter(|v| v.index() < n)
                    .ok_or_else(|| CliError::Usage(format!("--start {id} is outside 1..{n}")))?,
            ),
            None => from_file,
        };
        if start.is_none() && (!self.all || self.line) {
            return Err(CliError::Usage(
                "the input has no start vertex: give one with --start V (or use --all)".into(),
            ));
        }
        Ok(start)
    }
}

/// Prints a solution on standard output as `gamegraph retro` does (the command
/// `gamegraph dist retro` prints the same).
pub(crate) fn print_solution(
    solution: &Solution,
    arcs: usize,
    start: Option<Vertex>,
    shape: Shape,
) -> Result<(), CliError> {
    write_solution(Output::create(None)?, solution, arcs, start, shape)
}

/// Writes a solution to `out` as `gamegraph retro` prints it, and finishes `out`.
fn write_solution(
    mut out: Output,
    solution: &Solution,
    arcs: usize,
    start: Option<Vertex>,
    shape: Shape,
) -> Result<(), CliError> {
    if shape.json {
        write_json(&mut out, &json(solution, arcs, start, shape))?;
    } else if shape.all {
        write!(out, "{}", solution.table())?;
    } else if let Some(start) = start {
        if shape.line {
            let line = solution.principal_variation(start);
            write!(out, "{}", line.display(solution))?;
        } else {
            writeln!(out, "{}", solution.outcome(start).code())?;
        }
    }
    out.finish()?;
    Ok(())
}

#[derive(Serialize)]
struct JsonCounts {
    win: usize,
    loss: usize,
    draw: usize,
}

#[derive(Serialize)]
struct JsonVertex {
    vertex: u64,
    outcome: char,
    depth: Option<u32>,
    #[serde(rename = "move")]
    best_move: Option<u64>,
}

impl JsonVertex {
    fn new(s: &Solution, v: Vertex) -> Self {
        JsonVertex {
            vertex: v.one_based(),
            outcome: s.outcome(v).letter(),
            depth: s.depth(v),
            best_move: s.best_move(v).map(Vertex::one_based),
        }
    }
}

#[derive(Serialize)]
struct JsonStep {
    vertex: u64,
    outcome: char,
}

#[derive(Serialize)]
struct JsonLine {
    positions: Vec<JsonStep>,
    /// `terminal` (the last position has no move) or `repeats` (a draw).
    end: &'static str,
    /// For a draw, the earlier position the next optimal move goes back to.
    #[serde(skip_serializing_if = "Option::is_none")]
    repeats: Option<u64>,
}

#[derive(Serialize)]
struct Json {
    vertices: usize,
    arcs: usize,
    counts: JsonCounts,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<JsonVertex>,
    /// The answer for the start vertex: 1, 2 or 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<JsonVertex>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<JsonLine>,
}

fn json(s: &Solution, arcs: usize, start: Option<Vertex>, args: Shape) -> Json {
    let c = s.counts();
    let line = start.filter(|_| args.line).map(|start| {
        let line = s.principal_variation(start);
        JsonLine {
            positions: line
                .positions()
                .iter()
                .map(|&v| JsonStep { vertex: v.one_based(), outcome: s.outcome(v).letter() })
                .collect(),
            end: match line.end() {
                LineEnd::Terminal => "terminal",
                LineEnd::Repeats(_) => "repeats",
            },
            repeats: match line.end() {
                LineEnd::Terminal => None,
                LineEnd::Repeats(v) => Some(v.one_based()),
            },
        }
    });
    Json {
        vertices: s.num_vertices(),
        arcs,
        counts: JsonCounts { win: c.win, loss: c.loss, draw: c.draw },
        start: start.map(|v| JsonVertex::new(s, v)),
        answer: start.map(|v| s.outcome(v)).map(Outcome::code),
        all: args.all.then(|| {
            (0..s.num_vertices()).map(|i| JsonVertex::new(s, Vertex::from_index(i))).collect()
        }),
        line,
    }
}
