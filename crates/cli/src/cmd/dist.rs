//! `gamegraph dist`: retrograde analysis of a game graph, and games solved tier by tier, on a
//! cluster of processes (timely dataflow).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use gamegraph_cluster::{
    Cluster, ClusterError, Gathered, Input, Job, MAX_HOSTFILE_BYTES, Query, Shard,
    dist_solve_tiers, parse_hostfile_resolved, shards,
};
use gamegraph_game::tier::{TierConfig, TierError, Tiered};
use gamegraph_graph::format::binary::BinaryParts;
use gamegraph_graph::{Vertex, open};
use gamegraph_play::{Spec, Visit};
use gamegraph_retro::Table;

use crate::cmd::game::{parse_size, print_tier_summary, tier_bar, tier_error};
use crate::cmd::retro::{Shape, print_solution};
use crate::common::{
    CliError, GraphInput, Output, open_error, progress, read_graph, terminal_values_refused,
};
use gamegraph_graph::Located;

/// Solvers that run on a cluster of processes.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: DistCommand,
}

#[derive(Debug, clap::Subcommand)]
enum DistCommand {
    /// Win / lose / draw, depth and optimal moves, as `gamegraph retro`, on a cluster.
    Retro(RetroArgs),
    /// Solve a game given by its rules tier by tier, as `gamegraph game NAME solve -o DIR`,
    /// on a cluster.
    Game(GameArgs),
    /// Put the shards of `dist retro --all --shards DIR` together into the `--all` table.
    Merge(MergeArgs),
}

/// Put the shards that `gamegraph dist retro --all --shards DIR` wrote (copied into one
/// directory) together: the result is what `gamegraph retro --all` prints.
#[derive(Debug, clap::Args)]
#[command(after_help = "The shards are checked as they are merged: every vertex once, in \
order, on a line `V OUTCOME DEPTH MOVE`; a problem is reported with its file and line \
(exit code 2).

Example:
  gamegraph dist merge out/ -o table.txt")]
pub(crate) struct MergeArgs {
    /// The directory of the shards (shards.txt and shard-I.txt for every process I).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Write the table to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Win / lose / draw, depth and optimal moves of a game graph, as `gamegraph retro`, with
/// the vertices split over the worker threads of several processes (timely dataflow).
#[derive(Debug, clap::Args)]
#[command(after_help = "Start one process per hostfile line, each with the same FILE \
and its own --process. Process 0 prints exactly what `gamegraph retro` prints for the \
same arguments; the others print nothing. See docs/distributed.md.

A binary file (gamegraph convert FILE --to binary) is read in parts: each process reads \
only the successor lists of its own vertices, so FILE must be the same file on every \
machine; the processes check it together. Any other file is read by process 0 alone, \
which sends the others their parts (slower, and process 0 holds the whole graph).

The hostfile has one host:port per line (process 0 first); blank lines and lines \
starting with # are skipped.

Exit codes: 0 done; 2 bad input (on every process), processes given different \
graphs, queries, hostfiles or --workers, a malformed hostfile or a --process outside it; \
1 a network failure: a peer that cannot be reached within --connect-timeout, an address \
that answers but not as a peer, or a peer lost during the run (it ended, or sent nothing \
for --liveness-timeout); 101 an internal error.

Examples (two processes on one machine):
  printf '127.0.0.1:7001\\n127.0.0.1:7002\\n' > hosts
  gamegraph gen --vertices 1000000 --arcs 10000000 --seed 1 --to binary -o g.bin
  gamegraph dist retro g.bin --start 1 --hostfile hosts --process 1 &
  gamegraph dist retro g.bin --start 1 --hostfile hosts --process 0   # prints 1, 2 or 0
  gamegraph dist retro g.bin --all --shards out --hostfile hosts --process 1 &
  gamegraph dist retro g.bin --all --shards out --hostfile hosts --process 0
  gamegraph dist merge out -o table.txt   # what `gamegraph retro --all g.bin` prints

One process with two workers:
  printf '127.0.0.1:7001\n' > one
  gamegraph dist retro --all game.txt --hostfile one --process 0 --workers 2")]
pub(crate) struct RetroArgs {
    /// The game graph: a binary file, of which each process reads its part, or any other
    /// file, which process 0 reads and sends.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    shape: Shape,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// With --all: each process writes the lines of its own vertices to DIR/shard-I.txt
    /// (process 0 also writes DIR/shards.txt) instead of sending them to process 0;
    /// `gamegraph dist merge DIR` puts them together.
    #[arg(long, value_name = "DIR", requires = "all", conflicts_with_all = ["json", "line"])]
    shards: Option<PathBuf>,
    /// Print the rounds and the bytes this process sent on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    input: GraphInput,
}

/// Where a process stands in its cluster.
#[derive(Debug, clap::Args)]
struct ClusterArgs {
    /// The hostfile: one host:port per line, one line per process.
    #[arg(long, value_name = "H")]
    hostfile: PathBuf,
    /// This process's line in the hostfile (0-based).
    #[arg(long, value_name = "I")]
    process: usize,
    /// Worker threads in this process (every process must give the same number).
    #[arg(long, value_name = "W", default_value_t = 1)]
    workers: usize,
    /// Seconds to wait for every process to connect before giving up (exit 1).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    connect_timeout: u64,
    /// Seconds a peer process may send nothing (not even its heartbeat) during the run
    /// before every other process gives up (exit 1).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    liveness_timeout: u64,
}

impl ClusterArgs {
    /// The cluster of the hostfile, with this process's part, asked `query`.
    fn cluster(&self, query: String) -> Result<Cluster, CliError> {
        let host_name = self.hostfile.display().to_string();
        let bytes = read_hostfile(&self.hostfile, &host_name)?;
        let addresses = parse_hostfile_resolved(&bytes)
            .map_err(|e| CliError::at(&host_name, e.position(), e.message()))?;
        if self.process >= addresses.len() {
            return Err(CliError::Usage(format!(
                "--process {} is outside 0..{} ({host_name} has {} line{})",
                self.process,
                addresses.len() - 1,
                addresses.len(),
                if addresses.len() == 1 { "" } else { "s" }
            )));
        }
        if self.workers == 0 {
            return Err(CliError::Usage("--workers must be at least 1".into()));
        }
        Ok(Cluster {
            connect_timeout: Duration::from_secs(self.connect_timeout),
            liveness_timeout: Duration::from_secs(self.liveness_timeout),
            silence_stdout: true,
            query,
            ..Cluster::new(addresses, self.process, self.workers)
        })
    }
}

/// Runs `gamegraph dist`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.command {
        DistCommand::Retro(a) => run_retro(a),
        DistCommand::Game(a) => run_game(a),
        DistCommand::Merge(a) => run_merge(a),
    }
}

fn run_retro(args: RetroArgs) -> Result<ExitCode, CliError> {
    let shape = &args.shape;
    let query = format!("start={:?} all={} line={}", shape.start, shape.all, shape.line);
    let cluster = args.cluster.cluster(query)?;
    let name = args.file.display().to_string();
    let shape = args.shape;
    let Chosen { input, start, vertices, arcs, mut failed } = choose_input(&args)?;
    let query = match start {
        _ if args.shards.is_some() => Query::Shard,
        Some(s) if !shape.all && !shape.json && !shape.line => Query::Start(s),
        _ => Query::All,
    };
    let cluster_size = cluster.addresses.len();
    let job = Job::new(input, query, &cluster).map_err(|e| cli_error(e, &name, &mut failed))?;
    if let Some(dir) = &args.shards {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Other(anyhow!("cannot create {}: {e}", dir.display())))?;
    }

    report_panics();
    let bar = progress(None, "solving on the cluster");
    let report = job.run();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = report.map_err(|e| cli_error(e, &name, &mut failed))?;
    if args.stats {
        {
            eprintln!(
                "dist: process {}: rounds {}, bytes sent {}",
                args.cluster.process, report.rounds, report.bytes_sent
            );
        }
    }
    match report.gathered {
        Some(Gathered::All(solution)) => print_solution(&solution, arcs, start, shape)?,
        Some(Gathered::Shard(shard)) => {
            let dir = args.shards.as_deref().expect("shards are asked for with --shards");
            write_shard(dir, args.cluster.process, &shard, (vertices, cluster_size))?;
        }
        Some(Gathered::Start(answer)) => {
            use std::io::Write;
            let mut out = Output::create(None)?;
            writeln!(out, "{}", answer.outcome.code())?;
            out.finish()?;
        }
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// What a process starts from, and what it knows of the graph.
struct Chosen {
    input: Input,
    start: Option<Vertex>,
    /// The graph's size (0 on a receiver of the slow path).
    vertices: usize,
    arcs: usize,
    /// Process 0's own error when it could not read the graph (the others are told).
    failed: Option<CliError>,
}

/// A binary file is read in parts by every process; anything else is read by process 0
/// alone (the library decides what it does with it).
fn choose_input(args: &RetroArgs) -> Result<Chosen, CliError> {
    let parts = match BinaryParts::open_path(&args.file, args.input.format.map(Into::into)) {
        Ok(parts) => parts,
        Err(open::OpenError::Io { .. }) if args.cluster.process != 0 => None,
        Err(e) => return Err(open_error(e)),
    };
    let chosen =
        |input, start, (vertices, arcs), failed| Chosen { input, start, vertices, arcs, failed };
    if let Some(parts) = parts {
        if parts.has_terminal_values() {
            return Err(terminal_values_refused("dist retro"));
        }
        let start = args.shape.start_vertex(parts.num_vertices(), parts.start())?;
        let size = (parts.num_vertices(), parts.num_arcs());
        return Ok(chosen(Input::Binary(Arc::new(parts)), start, size, None));
    }
    if args.cluster.process != 0 {
        return Ok(chosen(Input::ReadByProcess0(None), None, (0, 0), None));
    }
    let read = read_graph(Some(&args.file), &args.input).and_then(|(file, _)| {
        if file.terminal.is_some() {
            return Err(terminal_values_refused("dist retro"));
        }
        let start = args.shape.start_vertex(file.graph.num_vertices(), file.start)?;
        Ok((file.graph, start))
    });
    Ok(match read {
        Ok((g, start)) => {
            let size = (g.num_vertices(), g.num_arcs());
            chosen(Input::ReadByProcess0(Some(Ok(Arc::new(g)))), start, size, None)
        }
        Err(e) => chosen(Input::ReadByProcess0(Some(Err(e.to_string()))), None, (0, 0), Some(e)),
    })
}

/// The command's error for a failure of the cluster: process 0's own error when it could
/// not read the graph (the others are told), exit code 2 for what the processes were
/// given, 1 for the network.
fn cli_error(e: ClusterError, name: &str, failed: &mut Option<CliError>) -> CliError {
    match e {
        ClusterError::ConnectTimeout { .. } => {
            CliError::Other(anyhow!("{e} (raise it with --connect-timeout SECS)"))
        }
        ClusterError::Silent { .. } => {
            CliError::Other(anyhow!("{e} (raise it with --liveness-timeout SECS)"))
        }
        ClusterError::Stdout(e) => e.into(),
        _ if failed.is_some() => failed.take().expect("process 0's own error"),
        ClusterError::Read(e) => CliError::at(name, e.position(), e),
        ClusterError::Peer { .. }
        | ClusterError::Mismatch { .. }
        | ClusterError::Differ { .. }
        | ClusterError::Shards { .. }
        | ClusterError::Disagree { .. } => CliError::Usage(e.to_string()),
        e => CliError::Other(anyhow!("{e}")),
    }
}

/// The bytes of the hostfile: a regular file (a FIFO or a device would block or never
/// end) of at most [`MAX_HOSTFILE_BYTES`]; exit code 2 otherwise, as for a missing one.
fn read_hostfile(path: &Path, name: &str) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let bad = |message: String| CliError::input(name, None, message);
    let meta = std::fs::metadata(path).map_err(|e| bad(open::io_message(&e)))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_HOSTFILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| bad(open::io_message(&e)))?;
    if bytes.len() as u64 > MAX_HOSTFILE_BYTES {
        return Err(bad(format!("larger than {MAX_HOSTFILE_BYTES} bytes: not a hostfile")));
    }
    Ok(bytes)
}

/// Writes `DIR/shard-I.txt` and, on process 0, `DIR/shards.txt` for `size` = (vertices,
/// processes).
fn write_shard(
    dir: &Path,
    process: usize,
    shard: &Shard,
    size: (usize, usize),
) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = Output::create(Some(&shards::shard_path(dir, process)))?;
    let rows = Table::rows(shard.first.index(), &shard.outcomes, &shard.depths, &shard.moves);
    write!(out, "{rows}")?;
    out.finish()?;
    if process == 0 {
        let mut out = Output::create(Some(&shards::manifest_path(dir)))?;
        write!(out, "{}", shards::manifest(size.0, size.1))?;
        out.finish()?;
    }
    Ok(())
}

fn run_merge(args: MergeArgs) -> Result<ExitCode, CliError> {
    let mut out = Output::create(args.output.as_deref())?;
    shards::merge(&args.dir, &mut out).map_err(|e| match e {
        shards::MergeError::Input { path, position, message } => {
            CliError::at(&path.display().to_string(), position, message)
        }
        shards::MergeError::Io { path: Some(path), error } => {
            CliError::input(&path.display().to_string(), None, open::io_message(&error))
        }
        shards::MergeError::Io { path: None, error } => CliError::Other(error.into()),
        e => CliError::Other(e.into()),
    })?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Reports a panic as the internal error it is and ends the process (exit code 101),
/// instead of workers that wait for ever. The failures of timely's threads that a lost
/// peer causes are not reported here: the library reports the lost peer.
fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("a thread failed");
        let thread = std::thread::current();
        // A network thread that lost its peer, a worker that finds its queue poisoned by
        // that thread's panic, and the library's thread that ends the network threads
        // finding one failed: the library reports the lost peer.
        let name = thread.name().unwrap_or_default();
        let timely = name.starts_with("timely:")
            && (what.starts_with("timely communication error")
                || what.contains("MergeQueue poisoned"));
        let ending = name == "cluster-wait"
            && (what.starts_with("Send thread panic") || what.starts_with("Recv thread panic"));
        if timely || ending {
            return;
        }
        let what: String = what.chars().take(400).collect();
        let at =
            info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        {
            eprintln!("error: internal error: {what}{at}");
        }
        std::process::exit(101)
    }));
}

/// Solve a game given by its rules tier by tier on a cluster of processes: the values
/// files of `gamegraph game NAME ARGS solve -o DIR`, byte for byte, in process 0's DIR.
#[derive(Debug, clap::Args)]
#[command(after_help = "The game and its arguments are written as `gamegraph game` takes \
them (`gamegraph game list` shows every game), then `solve` and the options below. Start one \
process per hostfile line, each with the same game and options but its own --process and \
its own directory -o DIR (a directory on each machine: no shared file system is needed). \
Each tier's positions are dealt round the workers of every process in slices of 4096; a \
worker solves its own slices and asks the other workers for the values its moves reach. \
Process 0's DIR ends holding what `gamegraph game NAME ARGS solve -o DIR` writes (the same \
values files byte for byte, for `query --results DIR` and `play --results DIR`), and \
process 0 prints what that command prints; the others print nothing and keep only the \
small files that let the run resume. See docs/distributed.md.

An interrupted run resumes from the tiers every process finished when the same commands \
are run again, on the same hostfile and --workers.

`solve` takes -o DIR, --hostfile H and --process I, and --workers W, --no-remoteness, \
--max-memory SIZE (this process's share), --json, --stats and the timeouts of `dist retro`; `gamegraph dist game NAME ARGS solve --help` \
lists them.

Exit codes: 0 done; 2 bad input or usage, processes given different games, parameters, \
settings, hostfiles or --workers, or a directory that holds another game or a part of a \
run on another layout; 1 a network failure (a peer that cannot be reached, or lost during \
the run: every process ends) or a failure of another process; 101 an internal error.

Examples (two processes on one machine):
  printf '127.0.0.1:7001\\n127.0.0.1:7002\\n' > hosts
  gamegraph dist game connect-four --cols 5 --rows 4 solve -o part1 --hostfile hosts --process 1 &
  gamegraph dist game connect-four --cols 5 --rows 4 solve -o c4 --hostfile hosts --process 0
  gamegraph game connect-four --cols 5 --rows 4 query --results c4 '...../...../...../..X..'")]
pub(crate) struct GameArgs {
    /// The game and its arguments, `solve`, and the options of the solve.
    #[arg(
        value_name = "NAME [ARGS]... solve OPTIONS",
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    words: Vec<String>,
}

/// The options of `gamegraph dist game NAME ARGS solve`.
#[derive(Debug, clap::Parser)]
#[command(name = "gamegraph dist game NAME [ARGS]... solve", disable_version_flag = true)]
struct SolveArgs {
    /// This process's directory (created if needed).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Keep only the outcomes, not the remoteness.
    #[arg(long)]
    no_remoteness: bool,
    /// Refuse (exit 3) before any work when this process's share of a tier needs more
    /// memory than SIZE, such as 4G or 512M [default: what this machine's memory holds].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
    #[command(flatten)]
    cluster: ClusterArgs,
    /// Print the summary as JSON (process 0).
    #[arg(long)]
    json: bool,
    /// Print the rounds and the bytes this process sent on standard error.
    #[arg(long)]
    stats: bool,
}

fn run_game(args: GameArgs) -> Result<ExitCode, CliError> {
    let Some(at) = args.words.iter().position(|w| w == "solve") else {
        return Err(CliError::Usage(
            "expected `solve` after the game and its arguments, as in `gamegraph dist game \
             connect-four --cols 5 --rows 4 solve -o DIR --hostfile H --process I`"
                .into(),
        ));
    };
    let (game, rest) = args.words.split_at(at);
    let command = format!("gamegraph dist game {} solve", game.join(" "));
    let words = std::iter::once(command.as_str()).chain(rest[1..].iter().map(String::as_str));
    let solve = match <SolveArgs as clap::Parser>::try_parse_from(words) {
        Ok(solve) => solve,
        Err(e) if !e.use_stderr() => {
            // --help: printed as clap prints it, exit 0.
            use std::io::Write;
            let mut out = Output::create(None)?;
            write!(out, "{e}")?;
            out.finish()?;
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => {
            let text = e.to_string();
            let text = text.trim_start_matches("error: ").trim_end();
            return Err(CliError::Usage(text.to_owned()));
        }
    };
    let spec = Spec::parse(game).map_err(|e| CliError::Usage(e.to_string()))?;
    spec.visit(DistGame { name: spec.entry().name, args: solve })
        .map_err(|e| CliError::Usage(e.to_string()))?
}

/// Solves the game the registry builds on the cluster.
struct DistGame {
    name: &'static str,
    args: SolveArgs,
}

impl Visit for DistGame {
    type Output = Result<ExitCode, CliError>;

    fn visit<G>(self, game: G) -> Self::Output
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::Position: Into<u128> + TryFrom<u128>,
    {
        let DistGame { name, args } = self;
        let cluster = args.cluster.cluster(String::new())?;
        let (bar, progress) = if args.cluster.process == 0 { tier_bar() } else { (None, None) };
        let config = TierConfig {
            no_remoteness: args.no_remoteness,
            max_memory: args.max_memory.or_else(gamegraph_graph::memory::limit),
            progress,
            ..TierConfig::default()
        };
        report_panics();
        let started = Instant::now();
        let shown = game.clone();
        let report = dist_solve_tiers(Arc::new(game), args.output.clone(), config, &cluster);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let report = report.map_err(|e| match e {
            ClusterError::Tier(e @ TierError::Peer { .. }) => CliError::Other(anyhow!("{e}")),
            ClusterError::Tier(e) => tier_error(&args.output, e),
            e => cli_error(e, "", &mut None),
        })?;
        if args.stats {
            eprintln!(
                "dist: process {}: rounds {}, bytes sent {} ({:.2} a position)",
                args.cluster.process,
                report.rounds,
                report.bytes_sent,
                report.bytes_sent as f64 / report.summary.positions().max(1) as f64
            );
        }
        if args.cluster.process == 0 {
            let seconds = started.elapsed().as_secs_f64();
            print_tier_summary(&shown, name, &args.output, &report.summary, seconds, args.json)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
