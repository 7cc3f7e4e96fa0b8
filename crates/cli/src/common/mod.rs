//! What every command shares: errors and exit codes, input files, output files, threads,
//! progress bars.

mod alloc;
mod error;
mod input;
mod list;
mod output;
mod progress;
mod threads;
mod time_limit;

pub(crate) use self::error::{CliError, finish};
pub(crate) use self::input::{
    GraphInput, Input, open_error, read_graph, terminal_values_refused, without_terminal_values,
};
use gamegraph_graph::Outcome;
use serde::Serialize;

pub(crate) use self::list::{ListError, Numbers, parse_numbers};
pub(crate) use self::output::{Output, check_distinct, check_outputs, create_file, write_json};
pub(crate) use self::progress::progress;
pub(crate) use self::threads::{check_memory, thread_pool, with_threads};
pub(crate) use self::time_limit::{TimeLimit, deadline_after, parse_time_limit};

/// The Graphviz fill colour of a position in drawings: `palegreen` for a win, `salmon`
/// for a loss, `khaki` for a tie, `lightgray` for a draw.
pub(crate) fn outcome_color(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "palegreen",
        Outcome::Loss => "salmon",
        Outcome::Tie => "khaki",
        Outcome::Draw => "lightgray",
    }
}

/// How many positions have each outcome, as every JSON answer gives them (`"counts"`: all
/// four, in this order).
#[derive(Serialize)]
pub(crate) struct JsonCounts {
    pub(crate) win: usize,
    pub(crate) loss: usize,
    pub(crate) tie: usize,
    pub(crate) draw: usize,
}

impl JsonCounts {
    /// The counts of a four-outcome solve.
    pub(crate) fn of(c: gamegraph_game::Counts) -> JsonCounts {
        JsonCounts { win: c.win, loss: c.loss, tie: c.tie, draw: c.draw }
    }
}
