//! `gamegraph nim`: compound heap games, misère play and Moore's Nim_k.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_grundy::render::explain;
use gamegraph_grundy::{HeapAnswer, HeapGame, Method, Play, parse_heaps, solve_heaps};
use serde::Serialize;

use crate::common::{CliError, Input, Numbers, Output, progress, write_json};
use gamegraph_graph::Located;

/// Arguments of `gamegraph nim`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Output: `1` (the player to move wins) or `2`, then a winning move \
`take T from heap I` (heaps numbered from 1).

Misère sums of heaps with limits are answered by a proven rule for any sizes; Moore's \
Nim_k with limits below the heap sizes only by exhaustive search when small, and refused \
otherwise (never guessed).

Lists (the heaps, --max) are integers separated by commas or spaces, in one value: `--max 2,3,4` and `--max \"2 3 4\"` are the same; the heaps may also be separate values.

Examples:
  gamegraph nim 3 5 6                          # plain Nim: 2 (3 xor 5 xor 6 = 0)
  gamegraph nim 5,7,9 --max 2,3,4              # take at most 2, 3, 4 from the heaps
  gamegraph nim 5 7 9 --max 2,3,4 --explain    # values and digit sum in binary
  gamegraph nim 1 1 4 --misere                 # who takes the last object loses
  gamegraph nim 3 5 6 9 --moore 2              # a move takes from up to 2 heaps
  gamegraph nim --file heaps.txt --misere      # many heaps: `SIZE [LIMIT]` per line")]
pub(crate) struct Args {
    /// The heap sizes (0 to 18446744073709551615): separate values, or lists `5,7,9`.
    #[arg(required_unless_present = "file", value_name = "HEAPS")]
    heaps: Vec<Numbers>,
    /// Read the heaps from a file instead: one `SIZE` or `SIZE LIMIT` per line, `#`
    /// comments (`-` is standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["heaps", "max"])]
    file: Option<PathBuf>,
    /// The most objects a move may take from each heap, one per heap, as one list
    /// (`2,3,4` or "2 3 4"; repeated, the lists add up; default: no limit).
    #[arg(long, value_name = "M,M,...", action = clap::ArgAction::Append)]
    max: Vec<Numbers>,
    /// Misère play: whoever takes the last object loses.
    #[arg(long)]
    misere: bool,
    /// Moore's Nim_k: a move takes from 1 to K heaps.
    #[arg(long, value_name = "K")]
    moore: Option<u64>,
    /// Show the values and the digit sum worked out step by step.
    #[arg(long)]
    explain: bool,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct JsonMove {
    heap: usize,
    take: u64,
}

#[derive(Serialize)]
struct JsonAnswer {
    outcome: &'static str,
    /// The outcome code: 1 or 2, as the text output prints it.
    answer: u8,
    values: Vec<u64>,
    digit_sum: u64,
    moves: Vec<JsonMove>,
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<String>,
}

fn move_line(answer: &HeapAnswer) -> Option<String> {
    if answer.moves.is_empty() {
        return None;
    }
    let parts: Vec<String> = answer.moves.iter().map(ToString::to_string).collect();
    Some(parts.join(", "))
}

/// The longest line of a heap list read: `SIZE LIMIT` takes at most 41 bytes, so only a
/// comment can come near it, and an endless line (`/dev/zero`) stops here.
const MAX_LINE: u64 = 1 << 20;

/// Reads a heap list line by line: each line valid UTF-8 and at most [`MAX_LINE`] bytes,
/// else an error naming the line.
fn read_lines(input: &mut Input) -> Result<String, CliError> {
    let mut text = String::new();
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let n = (&mut input.reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| CliError::input(&input.name, None, format!("cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        if n as u64 > MAX_LINE {
            let message = format!("the line is longer than {MAX_LINE} bytes");
            return Err(CliError::input(&input.name, Some((number, 1)), message));
        }
        let s = std::str::from_utf8(&line).map_err(|e| {
            let column = e.valid_up_to() as u64 + 1;
            CliError::input(&input.name, Some((number, column)), "not valid UTF-8")
        })?;
        text.push_str(s);
    }
    Ok(text)
}

/// Runs `gamegraph nim`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let (heaps, limits) = match &args.file {
        None => {
            let heaps: Vec<u64> = args.heaps.into_iter().flat_map(|l| l.0).collect();
            let limits = (!args.max.is_empty())
                .then(|| args.max.into_iter().flat_map(|l| l.0).collect::<Vec<u64>>());
            if let Some(l) = &limits
                && l.len() == 1
                && heaps.len() > 1
            {
                return Err(CliError::Usage(format!(
                    "--max has 1 limit for {} heaps: give one per heap as one list, \
                     --max 2,3,4 or --max \"2 3 4\"",
                    heaps.len()
                )));
            }
            (heaps, limits)
        }
        Some(path) => {
            let mut input = Input::open(Some(path))?;
            let text = read_lines(&mut input)?;
            parse_heaps(&text).map_err(|e| CliError::at(&input.name, e.position(), e.message()))?
        }
    };
    let game = HeapGame {
        heaps,
        limits,
        play: if args.misere { Play::Misere } else { Play::Normal },
        moore: args.moore,
    };
    // A spinner while an exhaustive search (bounded by SEARCH_LIMIT steps) runs.
    let bar = progress(None, "searching the positions");
    let answer = solve_heaps(&game);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let answer = answer.map_err(|e| CliError::Usage(e.to_string()))?;
    let text = args.explain.then(|| explain(&game, &answer));
    let mut out = Output::create(None)?;
    if args.json {
        let json = JsonAnswer {
            outcome: answer.outcome.word(),
            answer: answer.outcome.code(),
            values: answer.values.iter().map(|v| v.0).collect(),
            digit_sum: answer.digit_sum.0,
            moves: answer
                .moves
                .iter()
                .map(|m| JsonMove { heap: m.heap + 1, take: m.take })
                .collect(),
            method: match answer.method {
                Method::Theory => "theory",
                Method::Search => "search",
            },
            explain: text,
        };
        write_json(&mut out, &json)?;
    } else {
        writeln!(out, "{}", answer.outcome.code())?;
        if let Some(line) = move_line(&answer) {
            writeln!(out, "{line}")?;
        }
        if let Some(text) = text {
            out.write_all(text.as_bytes())?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
