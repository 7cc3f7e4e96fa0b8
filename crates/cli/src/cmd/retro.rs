//! `gamegraph retro` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph retro`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph retro`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph retro` is not built yet".into()))
}
