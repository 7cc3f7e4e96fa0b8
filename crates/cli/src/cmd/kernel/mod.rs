//! `gamegraph kernel`: kernels, stable sets, α and β of a digraph.
//!
//! [`run`] chooses the mode from the arguments, computes the answer, then renders it once
//! (`render`); only `--all` writes while it computes, one kernel per line as found.

mod render;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gamegraph_graph::{Graph, Limit, parse_vertex_list};
use gamegraph_kernel::{
    Config, KernelAnswer, KernelCount, KernelError, StableSet, VertexSet, Violation, alpha, beta,
    count_kernels, find_kernel, find_kernel_with_proof, is_kernel, kernels, write_kernel_cnf,
};

use crate::common::{
    CliError, GraphInput, Output, TimeLimit, check_outputs, create_file, parse_time_limit,
    progress, read_graph, without_terminal_values,
};

/// The time limit when `--time-limit` is not given, in seconds (also written out in the help
/// texts of [`Args`], which a CLI test checks).
const DEFAULT_TIME_LIMIT: u64 = 60;

/// Arguments of `gamegraph kernel`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Vertices are 1-based in input and output. The start line of the header format is ignored.

Every mode but --check gives up after 60 s by default (exit code 3); --time-limit SECS sets
another limit, --time-limit none removes it. With --all the kernels found before the limit are
all written; with --alpha the message gives the size of the largest internally stable set found
(checked) and a proven upper bound on alpha.

Examples:
  gamegraph kernel graph.txt                 # one kernel, or `none`
  gamegraph kernel graph.txt --count         # how many kernels
  gamegraph kernel graph.txt --all --limit 5 # the first five kernels, one per line
  gamegraph kernel graph.txt --alpha         # alpha, then a maximum internally stable set
  gamegraph kernel graph.txt --beta          # beta, then a minimum externally stable set
  gamegraph kernel graph.txt --check \"1 3 5\" # is {1, 3, 5} a kernel? (exit 0 or 1)
  gamegraph kernel graph.txt --explain       # which argument decided
  gamegraph kernel graph.txt --dot k.dot     # Graphviz drawing, kernel filled green
  gamegraph kernel big.txt --time-limit 600  # give up after 10 minutes (exit 3)
  gamegraph kernel c5.txt --proof c5.drat    # `none`, and a DRAT proof of it
  gamegraph verify kernel c5.txt --none c5.drat  # check that proof (ok: ...)
  gamegraph kernel c5.txt --cnf c5.cnf       # the kernel conditions in DIMACS, for
  drat-trim c5.cnf c5.drat                   #   an outside DRAT checker

--proof FILE writes, when the answer is `none`, a DRAT proof (text format) that the kernel
conditions have no solution; when the graph has a kernel, FILE is not written (the kernel
is its own certificate: `gamegraph verify kernel GRAPH SET`). The conditions are the CNF that
--cnf FILE writes: variable i is vertex i, with the clause -u -v for each arc u -> v, -u for
a self-loop u -> u, and v w1 ... wk for each vertex v and its successors. docs/formats.md
describes both files."
)]
#[command(group = clap::ArgGroup::new("mode").args(["count", "all", "alpha", "beta", "check"]))]
pub(crate) struct Args {
    /// The graph file (standard input when absent or `-`).
    file: Option<PathBuf>,
    #[command(flatten)]
    input: GraphInput,
    /// Print the number of kernels.
    #[arg(long)]
    count: bool,
    /// Print every kernel, one per line.
    #[arg(long)]
    all: bool,
    /// With --all: stop after K kernels.
    #[arg(long, value_name = "K", requires = "all", allow_hyphen_values = true)]
    limit: Option<u64>,
    /// Print alpha and a maximum internally stable set.
    #[arg(long)]
    alpha: bool,
    /// Print beta and a minimum externally stable set.
    #[arg(long)]
    beta: bool,
    /// Check whether the given 1-based vertices (space or comma separated) form a kernel.
    #[arg(long, value_name = "SET", allow_hyphen_values = true)]
    check: Option<String>,
    /// Also say which argument decided (acyclic, no odd cycle, alpha < beta, search).
    #[arg(long)]
    explain: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write a Graphviz drawing with the answer's set filled in.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Give up after SECS seconds, counted once the graph is read (exit code 3); `none` for
    /// no limit [default: 60].
    #[arg(long, value_name = "SECS", value_parser = parse_time_limit, allow_hyphen_values = true)]
    time_limit: Option<TimeLimit>,
    /// Write the answer to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// When there is no kernel, write a DRAT proof of it to FILE (not written when there is
    /// a kernel).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "all", "alpha", "beta", "check"])]
    proof: Option<PathBuf>,
    /// Write the kernel conditions to FILE as a DIMACS CNF (`p cnf N M`; variable i is
    /// vertex i): the formula a --proof file refutes.
    #[arg(long, value_name = "FILE")]
    cnf: Option<PathBuf>,
}

/// What the command computes.
enum Mode {
    /// One answer, rendered once it is known.
    Query(Query),
    /// `--all`: every kernel, written as it is found.
    All { limit: u64 },
    /// `--check SET`: no search.
    Check(String),
}

/// The modes that search for one answer.
enum Query {
    Find,
    Count,
    Alpha,
    Beta,
}

impl Mode {
    fn of(args: &Args) -> Mode {
        Mode::Query(if let Some(text) = &args.check {
            return Mode::Check(text.clone());
        } else if args.all {
            return Mode::All { limit: args.limit.unwrap_or(u64::MAX) };
        } else if args.count {
            Query::Count
        } else if args.alpha {
            Query::Alpha
        } else if args.beta {
            Query::Beta
        } else {
            Query::Find
        })
    }
}

/// A computed answer, rendered by [`render::answer`].
enum Answer {
    Kernel(KernelAnswer),
    Count(KernelCount),
    Stable { name: &'static str, set: StableSet },
    Check { set: VertexSet, verdict: Result<(), Violation> },
}

impl Answer {
    /// The set a `--dot` drawing fills in.
    fn drawn(&self) -> Option<&VertexSet> {
        match self {
            Answer::Kernel(a) => a.kernel.as_ref(),
            Answer::Count(_) => None,
            Answer::Stable { set, .. } => Some(&set.set),
            Answer::Check { set, .. } => Some(set),
        }
    }
}

/// What `--all` found: the kernels were written as they came.
struct Listing {
    /// How many were written.
    listed: u64,
    /// Whether every kernel was listed (no `--limit` or time limit stopped the search).
    complete: bool,
    /// Search nodes explored.
    nodes: u64,
    /// The first kernel, for `--dot`.
    first: Option<VertexSet>,
    /// Why the listing stopped early, if a limit did.
    stopped: Option<KernelError>,
}

/// The deadline and how errors name the limit.
struct Clock {
    cfg: Config,
    limit: TimeLimit,
    given: bool,
}

impl Clock {
    /// Starts the clock now.
    fn start(limit: Option<TimeLimit>) -> Clock {
        let given = limit.is_some();
        let limit = limit.unwrap_or(TimeLimit(Some(Duration::from_secs(DEFAULT_TIME_LIMIT))));
        let deadline = limit.0.and_then(|d| Instant::now().checked_add(d));
        Clock { cfg: Config { deadline, ..Config::default() }, limit, given }
    }

    /// The CLI error for a solver error on the graph read from `source`.
    fn error(&self, e: KernelError, source: &str) -> CliError {
        match e {
            KernelError::Limit { limit: Limit::Time, nodes } => {
                let secs = self.limit.0.unwrap_or_default().as_secs_f64();
                let which = if self.given { "" } else { "default " };
                CliError::limit(
                    Limit::Time,
                    format_args!(
                        "{which}time limit of {secs} s reached after {nodes} search nodes \
                     (raise it with --time-limit SECS, or --time-limit none for no limit)"
                    ),
                )
            }
            KernelError::AlphaLimit { limit: Limit::Time, ref best, bound } => {
                let secs = self.limit.0.unwrap_or_default().as_secs_f64();
                let which = if self.given { "" } else { "default " };
                CliError::limit(
                    Limit::Time,
                    format_args!(
                        "{which}time limit of {secs} s reached after {} search nodes: alpha >= {} \
                     (an internally stable set of that size was found and checked) and \
                     alpha <= {bound} (raise it with --time-limit SECS, or --time-limit none for \
                     no limit)",
                        best.nodes, best.size
                    ),
                )
            }
            KernelError::BetaLimit { limit: Limit::Time, ref best, bound } => {
                let secs = self.limit.0.unwrap_or_default().as_secs_f64();
                let which = if self.given { "" } else { "default " };
                CliError::limit(
                    Limit::Time,
                    format_args!(
                        "{which}time limit of {secs} s reached after {} search nodes: beta <= {} \
                     (an externally stable set of that size was found and checked) and \
                     beta >= {bound} (raise it with --time-limit SECS, or --time-limit none for \
                     no limit)",
                        best.nodes, best.size
                    ),
                )
            }
            KernelError::Limit { limit, .. }
            | KernelError::AlphaLimit { limit, .. }
            | KernelError::BetaLimit { limit, .. } => CliError::limit(limit, e),
            // An answer that cannot be given for this input: refused.
            KernelError::TooLarge { .. } | KernelError::CountOverflow => {
                CliError::input(source, None, e)
            }
            other => CliError::Other(anyhow::Error::new(other)),
        }
    }
}

/// Runs `gamegraph kernel`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let mode = Mode::of(&args);
    let source = match args.file.as_deref() {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "<stdin>".to_owned(),
    };
    check_outputs(
        &[
            ("-o", args.output.as_deref()),
            ("--dot", args.dot.as_deref()),
            ("--proof", args.proof.as_deref()),
            ("--cnf", args.cnf.as_deref()),
        ],
        args.file.as_deref(),
    )?;
    let g =
        without_terminal_values(read_graph(args.file.as_deref(), &args.input)?.0, "kernel")?.graph;
    if let Some(path) = &args.cnf {
        let mut out = create_file(path)?;
        write_kernel_cnf(&g, &mut out)?;
        out.finish()?;
    }
    let clock = Clock::start(args.time_limit);
    let mut proof = None;
    let answer = match mode {
        Mode::All { limit } => return run_all(&args, &g, &clock, &source, limit),
        Mode::Check(text) => {
            let set = parse_set(&text, g.num_vertices())?;
            let verdict = is_kernel(&g, &set).map_err(|e| clock.error(e, &source))?;
            Answer::Check { set, verdict }
        }
        Mode::Query(Query::Find) if args.proof.is_some() => {
            let proved = with_spinner(|| find_kernel_with_proof(&g, &clock.cfg))
                .map_err(|e| clock.error(e, &source))?;
            proof = proved.proof;
            Answer::Kernel(proved.answer)
        }
        Mode::Query(q) => compute(&g, q, &clock.cfg).map_err(|e| clock.error(e, &source))?,
    };
    let mut out = Output::create(args.output.as_deref())?;
    let code = render::answer(&mut out, &answer, &args)?;
    if let Some(path) = &args.dot {
        render::draw(path, &g, answer.drawn())?;
    }
    if let (Some(path), Some(proof)) = (&args.proof, &proof) {
        let mut file = create_file(path)?;
        proof.write_to(&mut file)?;
        file.finish()?;
    }
    out.finish()?;
    Ok(code)
}

/// The answer of a query, with a spinner when stderr is a terminal.
fn compute(g: &Graph, query: Query, cfg: &Config) -> Result<Answer, KernelError> {
    with_spinner(|| match query {
        Query::Find => find_kernel(g, cfg).map(Answer::Kernel),
        Query::Count => count_kernels(g, cfg).map(Answer::Count),
        Query::Alpha => alpha(g, cfg).map(|set| Answer::Stable { name: "alpha", set }),
        Query::Beta => beta(g, cfg).map(|set| Answer::Stable { name: "beta", set }),
    })
}

/// Runs `f` with a spinner when stderr is a terminal.
fn with_spinner<T>(f: impl FnOnce() -> T) -> T {
    let bar = progress(None, "searching");
    let answer = f();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    answer
}

/// `--all`: writes each kernel as it is found; a limit ends the listing with every line
/// found written, then reports the limit.
fn run_all(
    args: &Args,
    g: &Graph,
    clock: &Clock,
    source: &str,
    limit: u64,
) -> Result<ExitCode, CliError> {
    let mut out = Output::create(args.output.as_deref())?;
    let bar = progress(None, "listing kernels");
    let mut json_ids = Vec::new();
    let mut listing = Listing { listed: 0, complete: true, nodes: 0, first: None, stopped: None };
    let mut it = kernels(g, &clock.cfg);
    loop {
        if listing.listed == limit {
            listing.complete = false;
            break;
        }
        let k = match it.next() {
            None => break,
            Some(Ok(k)) => k,
            Some(Err(e)) => {
                listing.complete = false;
                listing.stopped = Some(e);
                break;
            }
        };
        listing.listed += 1;
        if args.json {
            json_ids.push(render::ids(&k));
        } else {
            render::kernel_line(&mut out, &k, bar.as_ref())?;
        }
        if let Some(bar) = &bar
            && listing.listed.is_power_of_two()
        {
            bar.set_message(format!("listing kernels: {} found", listing.listed));
        }
        if listing.first.is_none() {
            listing.first = Some(k);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    listing.nodes = it.nodes();
    render::listing(&mut out, &listing, &json_ids, args)?;
    if let Some(path) = &args.dot {
        render::draw(path, g, listing.first.as_ref())?;
    }
    out.finish()?;
    match listing.stopped {
        Some(e) => Err(clock.error(e, source)),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Reads a `--check` list: 1-based ids of `n` vertices, separated by spaces or commas
/// (repeats allowed).
fn parse_set(text: &str, n: usize) -> Result<VertexSet, CliError> {
    let mut set = VertexSet::repeat(false, n);
    for v in parse_vertex_list(text, n).map_err(|e| CliError::Usage(format!("--check: {e}")))? {
        set.set(v.index(), true);
    }
    Ok(set)
}
