//! `gamegraph subtraction`: Grundy sequences and proven periods of subtraction games.

use std::process::ExitCode;

use gamegraph_grundy::octal::{self, Algorithm, Play, SubtractionSet};

use crate::cmd::octal::SequenceArgs;
use crate::common::CliError;
use gamegraph_graph::quote;

/// Arguments of `gamegraph subtraction`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  gamegraph subtraction 1,3,4 --upto 20          # g(0) ... g(20)
  gamegraph subtraction 1,3,4 --upto 20 --period # with the proven pre-period and period
  gamegraph subtraction 2,5,7 --period --misere  # misere Grundy values of one heap
  gamegraph subtraction 1,2 --at 1000000000000000000 --json

A move takes s objects from the heap, for an s of the set (comma-separated, distinct,
positive). With --misere the values are the misere Grundy values of a single heap: 1 for
a heap with no move, else the mex of the values after one move; the player to move loses
a heap exactly when its value is 0 (the player who cannot move wins).

Limits: at most --limit values (default 1000000) for --period and --at, and --time-limit
seconds (default 60). Reaching the time limit, or asking --at for a value past --limit
when no period is proven, ends with exit code 3.")]
pub(crate) struct Args {
    /// The subtraction set: distinct positive integers separated by commas, such as 1,3,4.
    #[arg(value_name = "SET")]
    set: String,
    #[command(flatten)]
    common: SequenceArgs,
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    misere: bool,
}

/// Runs `gamegraph subtraction`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let set: SubtractionSet = args.set.parse().map_err(|e| {
        CliError::Usage(format!("invalid subtraction set {}: {e}", quote(&args.set)))
    })?;
    let play = if args.misere { Play::Misere } else { Play::Normal };
    let config = args.common.config(Algorithm::Sparse)?;
    let analysis =
        args.common.analyse(&config, |c, p| octal::analyse_subtraction(&set, play, c, p))?;
    args.common.print(&analysis, &config)
}
