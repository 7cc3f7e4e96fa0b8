//! `gamegraph grundy`: generalised Grundy values of a game graph and sums of tokens.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::Vertex;
use gamegraph_grundy::{LoopyValues, loopy_grundy, par_loopy_grundy, play_sum};
use serde::Serialize;

use crate::common::{CliError, FormatArg, Output, read_game, with_threads, write_json};

/// Arguments of `gamegraph grundy`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Values are numbers, or `inf{K}` for an infinite value whose finite \
follower values are K (graphs with cycles; Smith 1966, Fraenkel-Yesha 1986).

Examples:
  gamegraph grundy game.txt                    # the value of the start vertex
  gamegraph grundy --all game.txt              # `V VALUE` for every vertex, e.g. `3 inf{0,2}`
  gamegraph grundy --tokens 1,4,7 game.txt     # 1, 2 or 0 for the sum of tokens, then a best move
  gamegraph grundy --format arcs --all --threads 4 big.txt")]
pub(crate) struct Args {
    /// The game graph (standard input when absent or `-`).
    file: Option<PathBuf>,
    /// The input format.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print the value of every vertex, one `V VALUE` line each.
    #[arg(long, conflicts_with = "tokens")]
    all: bool,
    /// Play the sum of tokens standing on these vertices (1-based, comma-separated).
    #[arg(long, value_name = "V,V,...")]
    tokens: Option<String>,
    /// Worker threads (default: all cores); the values do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// JSON output.
    #[arg(long)]
    json: bool,
    /// Write the output to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonValue {
    vertex: u64,
    value: String,
}

#[derive(Serialize)]
struct JsonMove {
    token: usize,
    from: u64,
    to: u64,
}

#[derive(Serialize)]
struct JsonSum {
    outcome: u8,
    value: String,
    #[serde(rename = "move")]
    best: Option<JsonMove>,
}

fn parse_tokens(list: &str, n: usize) -> Result<Vec<Vertex>, CliError> {
    let mut tokens = Vec::new();
    for (i, item) in list.split(',').enumerate() {
        let item = item.trim();
        let id: u64 = item.parse().map_err(|_| {
            CliError::Usage(format!(
                "--tokens: item {} is {item:?}, not a vertex id (a positive integer)",
                i + 1
            ))
        })?;
        match Vertex::from_one_based(id) {
            Some(v) if v.index() < n => tokens.push(v),
            _ => {
                return Err(CliError::Usage(format!(
                    "--tokens: vertex {id} is not in the graph (vertices are 1..{n})"
                )));
            }
        }
    }
    Ok(tokens)
}

/// Runs `gamegraph grundy`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let game = read_game(args.file.as_deref(), args.format)?;
    let g = &game.graph;
    let tokens = args.tokens.as_deref().map(|t| parse_tokens(t, g.num_vertices())).transpose()?;
    let start = match (&tokens, args.all, game.start) {
        (None, false, None) => {
            return Err(CliError::Usage(
                "this format has no start vertex: use --all or --tokens".into(),
            ));
        }
        (_, _, s) => s,
    };
    // One thread: the depth-first search, which needs no predecessor arrays.
    let values: LoopyValues = with_threads(args.threads, || {
        if rayon::current_num_threads() == 1 { loopy_grundy(g) } else { par_loopy_grundy(g) }
    })?;
    let mut out = Output::create(args.output.as_deref())?;
    if let Some(tokens) = tokens {
        let play =
            play_sum(g, &values, &tokens).map_err(|e| CliError::Usage(format!("--tokens: {e}")))?;
        let best = play.best.map(|m| JsonMove {
            token: m.token + 1,
            from: m.from.one_based(),
            to: m.to.one_based(),
        });
        if args.json {
            let json =
                JsonSum { outcome: play.outcome.code(), value: play.value.to_string(), best };
            write_json(&mut out, &json)?;
        } else {
            writeln!(out, "{}", play.outcome.code())?;
            if let Some(m) = best {
                writeln!(out, "move token {} from {} to {}", m.token, m.from, m.to)?;
            }
        }
    } else if args.all {
        if args.json {
            let all: Vec<JsonValue> = g
                .vertices()
                .map(|v| JsonValue { vertex: v.one_based(), value: values.value(v).to_string() })
                .collect();
            write_json(&mut out, &all)?;
        } else {
            out.write_all(values.render().as_bytes())?;
        }
    } else if let Some(s) = start {
        let value = values.value(s).to_string();
        if args.json {
            write_json(&mut out, &JsonValue { vertex: s.one_based(), value })?;
        } else {
            writeln!(out, "{value}")?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
