//! `gamegraph nim` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph nim`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph nim`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph nim` is not built yet".into()))
}
