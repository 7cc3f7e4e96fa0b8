//! `gamegraph grundy`: generalised Grundy values of a game graph, and sums of tokens on
//! its vertices and heaps, in normal or misère play.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::{Vertex, parse_vertex_list};
use gamegraph_grundy::{
    LoopyValues, Method, Nimber, SUM_SEARCH_LIMIT, SumAnswer, SumError, SumGame, SumMove, Value,
    loopy_grundy_in_pool, play_misere_sum, play_mixed_sum,
};
use serde::Serialize;

use crate::common::{
    CliError, GraphInput, ListError, Output, check_distinct, progress, read_graph, thread_pool,
    without_terminal_values, write_json,
};
use gamegraph_graph::quote;

/// Arguments of `gamegraph grundy`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Values are numbers, or `inf{K}` for an infinite value whose finite \
follower values are K (graphs with cycles; Smith 1966, Fraenkel-Yesha 1986).

Sums: --tokens and --heaps play the sum of tokens on vertices of the graph and heaps \
(--max: take at most M from each heap, as in `gamegraph nim`; no limit by default). \
Output: `1` (the player to move wins), `2` (loses) or `0` (draw), then a winning (or \
drawing) move, `move token I from U to V` or `take T from heap I` (all 1-based). Normal \
play is answered by Smith's rules for any graph and any heap sizes. --misere (whoever \
cannot move wins): when no token can move, by the misere-Nim rule for any sizes; \
otherwise by exhaustive search of the sum's positions, refused with exit code 2 when \
they number more than 2^24 (positions plus moves), never guessed.

Lists (--tokens, --heaps, --max) are integers separated by commas or spaces, in one value: `--heaps 5,7,9` and `--heaps \"5 7 9\"` are the same.

Examples:
  gamegraph grundy game.txt                    # the value of the start vertex
  gamegraph grundy --start 4 game.txt          # the value of vertex 4
  gamegraph grundy --all game.txt              # `V VALUE` for every vertex, e.g. `3 inf{0,2}`
  gamegraph grundy --tokens 1,4,7 game.txt     # 1, 2 or 0 for the sum of tokens, then a best move
  gamegraph grundy --tokens 1,4 --heaps 5,7,9 --max 2,3,4 game.txt   # tokens plus heaps
  gamegraph grundy --tokens 1,4 --heaps 3 --misere game.txt          # misere play
  gamegraph grundy --format arcs --all --threads 4 big.txt")]
pub(crate) struct Args {
    /// The game graph (standard input when absent or `-`).
    file: Option<PathBuf>,
    #[command(flatten)]
    input: GraphInput,
    /// Print the value of every vertex, one `V VALUE` line each.
    #[arg(long, conflicts_with_all = ["tokens", "heaps"])]
    all: bool,
    /// The vertex whose value is printed (1-based; default: the file's start vertex).
    #[arg(long, value_name = "V", conflicts_with_all = ["all", "tokens", "heaps"])]
    start: Option<u64>,
    /// Play the sum of tokens standing on these vertices (1-based; commas or spaces).
    #[arg(long, value_name = "V,V,...")]
    tokens: Option<String>,
    /// Add heaps of these sizes to the sum (commas or spaces, 0 to 18446744073709551615).
    #[arg(long, value_name = "N,N,...")]
    heaps: Option<String>,
    /// The most objects a move may take from each heap, one per heap (commas or spaces;
    /// default: no limit).
    #[arg(long, value_name = "M,M,...", requires = "heaps")]
    max: Option<String>,
    /// Misère play of the sum: whoever cannot move wins.
    #[arg(long)]
    misere: bool,
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

/// A vertex and its loopy Grundy value, as `grundy --json` prints it and `verify grundy`
/// reads it back.
#[derive(Serialize, serde::Deserialize)]
pub(crate) struct JsonValue {
    pub(crate) vertex: u64,
    pub(crate) value: JsonGrundy,
}

/// A loopy Grundy value in JSON: a finite value is a number; ∞(K) is `{"infinite": K}`,
/// the finite follower values as numbers.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum JsonGrundy {
    Finite(u64),
    Infinite { infinite: Vec<u64> },
}

impl<'de> serde::Deserialize<'de> for JsonGrundy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JsonGrundy, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = JsonGrundy;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a Grundy value: a number or {\"infinite\": [numbers]}")
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<JsonGrundy, E> {
                Ok(JsonGrundy::Finite(x))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<JsonGrundy, A::Error> {
                let mut set = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "infinite" || set.is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "expected one key \"infinite\", found {key:?}"
                        )));
                    }
                    set = Some(map.next_value::<Vec<u64>>()?);
                }
                let infinite = set.ok_or_else(|| serde::de::Error::missing_field("infinite"))?;
                Ok(JsonGrundy::Infinite { infinite })
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl JsonGrundy {
    pub(crate) fn of(v: &Value) -> JsonGrundy {
        match v {
            Value::Finite(x) => JsonGrundy::Finite(x.0),
            Value::Infinite(k) => {
                JsonGrundy::Infinite { infinite: k.iter().map(|x| x.0).collect() }
            }
        }
    }

    /// The value (checked by whoever stores it: a set must be sorted without repeats).
    pub(crate) fn value(&self) -> Value {
        match self {
            JsonGrundy::Finite(x) => Value::Finite(Nimber(*x)),
            JsonGrundy::Infinite { infinite } => {
                Value::Infinite(infinite.iter().map(|&x| Nimber(x)).collect())
            }
        }
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonMove {
    Token { token: usize, from: u64, to: u64 },
    Heap { heap: usize, take: u64 },
}

#[derive(Serialize)]
struct JsonSum {
    outcome: &'static str,
    /// The outcome code: 1, 2 or 0, as the text output prints it.
    answer: u8,
    play: &'static str,
    method: &'static str,
    /// Normal play: the value of the sum, of each token, of each heap, and the digit sum
    /// of the finite ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<JsonGrundy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token_values: Option<Vec<JsonGrundy>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    heap_values: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digit_sum: Option<u64>,
    #[serde(rename = "move")]
    best: Option<JsonMove>,
}

/// A list of integers for `flag`: commas, spaces or both between the items.
fn parse_numbers(flag: &str, list: &str, what: &str) -> Result<Vec<u64>, CliError> {
    crate::common::parse_numbers(list).map_err(|e| {
        CliError::Usage(match e {
            ListError::NotNumber { item, text } => {
                format!("{flag}: item {item} is {}, not {what}", quote(&text))
            }
            e => format!("{flag}: {e}"),
        })
    })
}

fn sum_error(e: SumError) -> CliError {
    CliError::Usage(match e {
        SumError::TokenOutOfRange { .. } => format!("--tokens: {e}"),
        SumError::LimitCount { .. } | SumError::ZeroLimit { .. } => format!("--max: {e}"),
        _ => e.to_string(),
    })
}

fn json_move(m: SumMove) -> JsonMove {
    match m {
        SumMove::Token(m) => {
            JsonMove::Token { token: m.token + 1, from: m.from.one_based(), to: m.to.one_based() }
        }
        SumMove::Heap(m) => JsonMove::Heap { heap: m.heap + 1, take: m.take },
    }
}

fn write_sum(
    out: &mut Output,
    answer: &SumAnswer,
    misere: bool,
    json: bool,
) -> Result<(), CliError> {
    if json {
        let v = answer.values.as_ref();
        let json = JsonSum {
            outcome: answer.outcome.word(),
            answer: answer.outcome.code(),
            play: if misere { "misere" } else { "normal" },
            method: match answer.method {
                Method::Theory => "theory",
                Method::Search => "search",
            },
            value: v.map(|v| JsonGrundy::of(&v.value)),
            token_values: v.map(|v| v.tokens.iter().map(JsonGrundy::of).collect()),
            heap_values: v.map(|v| v.heaps.iter().map(|x| x.0).collect()),
            digit_sum: v.map(|v| v.digit_sum.0),
            best: answer.best.map(json_move),
        };
        write_json(out, &json)?;
    } else {
        writeln!(out, "{}", answer.outcome.code())?;
        match answer.best {
            Some(SumMove::Token(m)) => writeln!(
                out,
                "move token {} from {} to {}",
                m.token + 1,
                m.from.one_based(),
                m.to.one_based()
            )?,
            Some(SumMove::Heap(m)) => writeln!(out, "{m}")?,
            None => {}
        }
    }
    Ok(())
}

fn parse_tokens(list: &str, n: usize) -> Result<Vec<Vertex>, CliError> {
    parse_vertex_list(list, n).map_err(|e| CliError::Usage(format!("--tokens: {e}")))
}

/// Runs `gamegraph grundy`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let pool = thread_pool(args.threads)?;
    check_distinct(args.output.as_deref(), args.file.as_deref())?;
    let game = pool.install(|| read_graph(args.file.as_deref(), &args.input))?.0;
    let game = without_terminal_values(game, "grundy")?;
    let g = &game.graph;
    let tokens = args.tokens.as_deref().map(|t| parse_tokens(t, g.num_vertices())).transpose()?;
    let heaps = args
        .heaps
        .as_deref()
        .map(|h| parse_numbers("--heaps", h, "a heap size (an integer from 0 to 2^64 - 1)"))
        .transpose()?;
    let limits = args
        .max
        .as_deref()
        .map(|m| parse_numbers("--max", m, "a move limit (a positive integer)"))
        .transpose()?;
    let sum = (tokens.is_some() || heaps.is_some()).then(|| SumGame {
        tokens: tokens.unwrap_or_default(),
        heaps: heaps.unwrap_or_default(),
        limits,
    });
    if args.misere && sum.is_none() {
        return Err(CliError::Usage("--misere plays a sum: give --tokens or --heaps".into()));
    }
    let given = args
        .start
        .map(|id| {
            Vertex::from_one_based(id).filter(|v| v.index() < g.num_vertices()).ok_or_else(|| {
                CliError::Usage(format!("--start {id} is outside 1..{}", g.num_vertices()))
            })
        })
        .transpose()?;
    let start = match (&sum, args.all, given.or(game.start)) {
        (None, false, None) => {
            return Err(CliError::Usage(
                "this format has no start vertex: use --start V, --all, --tokens or --heaps".into(),
            ));
        }
        (_, _, s) => s,
    };
    if let (Some(sum), true) = (&sum, args.misere) {
        // Misère play needs no values: the rule or the search works on the positions.
        let bar = progress(None, "searching the positions of the sum");
        let answer = play_misere_sum(g, sum, SUM_SEARCH_LIMIT);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let answer = answer.map_err(sum_error)?;
        let mut out = Output::create(args.output.as_deref())?;
        write_sum(&mut out, &answer, true, args.json)?;
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let bar = progress(None, "grundy values");
    let values: LoopyValues = pool.install(|| loopy_grundy_in_pool(g));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut out = Output::create(args.output.as_deref())?;
    if let Some(sum) = sum {
        let answer = play_mixed_sum(g, &values, &sum).map_err(sum_error)?;
        write_sum(&mut out, &answer, false, args.json)?;
    } else if args.all {
        if args.json {
            let all: Vec<JsonValue> = g
                .vertices()
                .map(|v| JsonValue {
                    vertex: v.one_based(),
                    value: JsonGrundy::of(&values.value(v)),
                })
                .collect();
            write_json(&mut out, &all)?;
        } else {
            out.write_all(gamegraph_grundy::render::values(&values).as_bytes())?;
        }
    } else if let Some(s) = start {
        let value = values.value(s);
        if args.json {
            write_json(
                &mut out,
                &JsonValue { vertex: s.one_based(), value: JsonGrundy::of(&value) },
            )?;
        } else {
            writeln!(out, "{value}")?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
