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
pub(crate) use self::list::{ListError, Numbers, parse_numbers};
pub(crate) use self::output::{Output, check_distinct, check_outputs, create_file, write_json};
pub(crate) use self::progress::progress;
pub(crate) use self::threads::{check_memory, thread_pool, with_threads};
pub(crate) use self::time_limit::{TimeLimit, deadline_after, parse_time_limit};

/// The Graphviz fill colour of a position in drawings: `palegreen` for a win, `salmon`
/// for a loss, `khaki` for a tie, `lightgray` for a draw.
pub(crate) fn outcome_color(o: gamegraph_graph::Outcome) -> &'static str {
    match o {
        gamegraph_graph::Outcome::Win => "palegreen",
        gamegraph_graph::Outcome::Loss => "salmon",
        gamegraph_graph::Outcome::Tie => "khaki",
        gamegraph_graph::Outcome::Draw => "lightgray",
    }
}
