//! `gamegraph retro`: win / lose / draw, depth and optimal moves of a game graph (and
//! ties, with remoteness, when the file gives terminal values).

mod write;

use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::Vertex;
use gamegraph_retro::{Solution, par_solve};

use self::write::{Solved, WithValues, write_solved, write_solved_dot};
use crate::common::{
    CliError, GraphInput, Output, check_outputs, create_file, progress, read_graph, thread_pool,
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

    fn solving<T: Send>(pool: &rayon::ThreadPool, solve: impl FnOnce() -> T + Send) -> T {
        let bar = progress(None, "solving");
        let solution = pool.install(solve);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        solution
    }
    if let Some(terminal) = &file.terminal {
        let solution = solving(&pool, || gamegraph_game::solve(g, |v| terminal.value_or_loss(v)));
        emit(&WithValues { solution: &solution, graph: g }, g, start, &args)
    } else {
        emit(&solving(&pool, || par_solve(g)), g, start, &args)
    }
}

/// Writes the drawing (with `--dot`) and the answer of a solved graph.
fn emit(
    s: &impl Solved,
    g: &gamegraph_graph::Graph,
    start: Option<Vertex>,
    args: &Args,
) -> Result<ExitCode, CliError> {
    if let Some(path) = &args.dot {
        let mut w = create_file(path)?;
        write_solved_dot(&mut w, s, g, start)?;
        w.finish()?;
    }
    write_solved(Output::create(args.output.as_deref())?, s, g.num_arcs(), start, args.shape)?;
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
    write_solved(Output::create(None)?, solution, arcs, start, shape)
}
