//! `gamegraph convert` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph convert`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph convert` is not built yet".into()))
}
