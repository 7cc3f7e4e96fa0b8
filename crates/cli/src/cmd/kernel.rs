//! `gamegraph kernel`: kernels, stable sets, α and β of a digraph.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gamegraph_graph::format::{DotStyle, write_dot};
use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{
    Config, Explanation, KernelError, VertexSet, Violation, alpha, beta, count_kernels,
    find_kernel, format_set, is_kernel, kernels, members,
};
use serde_json::json;

use crate::common::{CliError, FormatArg, Output, create_file, read_game, write_json};

/// Arguments of `gamegraph kernel`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Vertices are 1-based in input and output. The seed format's start line is ignored.

Examples:
  gamegraph kernel graph.txt                 # one kernel, or `none`
  gamegraph kernel graph.txt --count         # how many kernels
  gamegraph kernel graph.txt --all --limit 5 # the first five kernels, one per line
  gamegraph kernel graph.txt --alpha         # alpha, then a maximum internally stable set
  gamegraph kernel graph.txt --beta          # beta, then a minimum externally stable set
  gamegraph kernel graph.txt --check \"1 3 5\" # is {1, 3, 5} a kernel? (exit 0 or 1)
  gamegraph kernel graph.txt --explain       # which argument decided
  gamegraph kernel graph.txt --dot k.dot     # Graphviz drawing, kernel filled green
  gamegraph kernel big.txt --time-limit 10   # give up after 10 s (exit 3)"
)]
#[command(group = clap::ArgGroup::new("mode").args(["count", "all", "alpha", "beta", "check"]))]
pub(crate) struct Args {
    /// The graph file (standard input when absent or `-`).
    file: Option<PathBuf>,
    /// The input format (default: seed).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print the number of kernels.
    #[arg(long)]
    count: bool,
    /// Print every kernel, one per line.
    #[arg(long)]
    all: bool,
    /// With --all: stop after K kernels.
    #[arg(long, value_name = "K", requires = "all")]
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
    /// Give up after SECS seconds (exit code 3).
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Write the answer to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn ids(set: &VertexSet) -> Vec<u64> {
    members(set).iter().map(|v| v.one_based()).collect()
}

fn explanation_json(e: &Explanation) -> serde_json::Value {
    json!({
        "decided": e.to_string().lines().next().unwrap_or_default(),
        "loss": e.loss,
        "win": e.win,
        "draw": e.draw,
        "parts": e.parts,
        "nodes": e.nodes,
    })
}

fn limit_error(e: KernelError, limit: Option<f64>) -> CliError {
    match e {
        KernelError::TimeLimit { nodes } => CliError::TimeLimit(format!(
            "time limit of {} s reached after {nodes} search nodes",
            limit.unwrap_or_default()
        )),
        other => CliError::Other(anyhow::Error::new(other)),
    }
}

fn parse_set(text: &str, n: usize) -> Result<VertexSet, CliError> {
    let mut set = VertexSet::repeat(false, n);
    for word in text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
        let v = word
            .parse::<u64>()
            .ok()
            .and_then(Vertex::from_one_based)
            .filter(|v| v.index() < n)
            .ok_or_else(|| {
                CliError::Usage(format!("--check: {word:?} is not a vertex id between 1 and {n}"))
            })?;
        set.set(v.index(), true);
    }
    Ok(set)
}

fn draw(path: &std::path::Path, g: &Graph, set: Option<&VertexSet>) -> Result<(), CliError> {
    let colors: Vec<&str> = (0..g.num_vertices())
        .map(|i| if set.is_some_and(|s| s[i]) { "palegreen" } else { "" })
        .collect();
    let highlight: Vec<Vertex> = set.map(members).unwrap_or_default();
    let style = DotStyle {
        name: "kernel",
        colors: Some(&colors),
        highlight: Some(&highlight),
        ..DotStyle::default()
    };
    let mut f = create_file(path)?;
    write_dot(&mut f, g, &style)?;
    f.finish()?;
    Ok(())
}

/// Runs `gamegraph kernel`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let cfg = match args.time_limit {
        Some(s) if s.is_finite() && s >= 0.0 => {
            Config::with_deadline(Instant::now() + Duration::from_secs_f64(s.min(1e9)))
        }
        Some(s) => {
            return Err(CliError::Usage(format!("--time-limit {s}: not a number of seconds")));
        }
        None => Config::default(),
    };
    let g = read_game(args.file.as_deref(), args.format)?.graph;
    let lim = |e| limit_error(e, args.time_limit);
    let mut out = Output::create(args.output.as_deref())?;
    let mut code = ExitCode::SUCCESS;
    let mut drawn: Option<VertexSet> = None;
    if let Some(text) = &args.check {
        let set = parse_set(text, g.num_vertices())?;
        let verdict = is_kernel(&g, &set).map_err(|e| CliError::Other(e.into()))?;
        let message = match verdict {
            Ok(()) => "kernel".to_owned(),
            Err(v) => v.to_string(),
        };
        if args.json {
            let offending = match verdict {
                Ok(()) => json!(null),
                Err(Violation::Arc { from, to }) => {
                    json!({"arc": [from.one_based(), to.one_based()]})
                }
                Err(Violation::NotAbsorbed(v)) => json!({"not_absorbed": v.one_based()}),
                Err(other) => json!(other.to_string()),
            };
            write_json(
                &mut out,
                &json!({"kernel": verdict.is_ok(), "message": message, "violation": offending}),
            )?;
        } else {
            writeln!(out, "{message}")?;
        }
        if verdict.is_err() {
            code = ExitCode::from(1);
        }
        drawn = Some(set);
    } else if args.count {
        let c = count_kernels(&g, &cfg).map_err(lim)?;
        if args.json {
            // JSON numbers above u64 are written as strings.
            let count =
                u64::try_from(c.count).map_or_else(|_| json!(c.count.to_string()), |x| json!(x));
            let mut v = json!({"count": count});
            if args.explain {
                v["explanation"] = explanation_json(&c.explanation);
            }
            write_json(&mut out, &v)?;
        } else {
            writeln!(out, "{}", c.count)?;
            if args.explain {
                writeln!(out, "{}", c.explanation)?;
            }
        }
    } else if args.all {
        let limit = args.limit.unwrap_or(u64::MAX);
        let mut it = kernels(&g, &cfg);
        let mut listed = Vec::new();
        let mut complete = true;
        for k in it.by_ref() {
            if listed.len() as u64 == limit {
                complete = false;
                break;
            }
            let k = k.map_err(lim)?;
            if !args.json {
                writeln!(out, "{}", format_set(&k))?;
            }
            if drawn.is_none() {
                drawn = Some(k.clone());
            }
            if args.json {
                listed.push(ids(&k));
            } else {
                listed.push(Vec::new());
            }
        }
        if args.json {
            let mut v = json!({"kernels": listed, "complete": complete});
            if args.explain {
                v["nodes"] = json!(it.nodes());
            }
            write_json(&mut out, &v)?;
        } else if args.explain {
            writeln!(
                out,
                "{} kernel(s){}, search: {} nodes",
                listed.len(),
                if complete { "" } else { " (limit reached)" },
                it.nodes()
            )?;
        }
    } else if args.alpha || args.beta {
        let (name, s) = if args.alpha {
            ("alpha", alpha(&g, &cfg).map_err(lim)?)
        } else {
            ("beta", beta(&g, &cfg).map_err(lim)?)
        };
        if args.json {
            let mut v = json!({name: s.size, "set": ids(&s.set)});
            if args.explain {
                v["nodes"] = json!(s.nodes);
            }
            write_json(&mut out, &v)?;
        } else {
            writeln!(out, "{}", s.size)?;
            writeln!(out, "{}", format_set(&s.set))?;
            if args.explain {
                writeln!(out, "branch and bound: {} nodes", s.nodes)?;
            }
        }
        drawn = Some(s.set);
    } else {
        let a = find_kernel(&g, &cfg).map_err(lim)?;
        if args.json {
            let mut v = json!({"kernel": a.kernel.as_ref().map(ids)});
            if args.explain {
                v["explanation"] = explanation_json(&a.explanation);
            }
            write_json(&mut out, &v)?;
        } else {
            match &a.kernel {
                Some(k) => writeln!(out, "{}", format_set(k))?,
                None => writeln!(out, "none")?,
            }
            if args.explain {
                writeln!(out, "{}", a.explanation)?;
            }
        }
        drawn = a.kernel;
    }
    if let Some(path) = &args.dot {
        draw(path, &g, drawn.as_ref())?;
    }
    out.finish()?;
    Ok(code)
}
