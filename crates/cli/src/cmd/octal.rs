//! `gamegraph octal` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph octal`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph octal`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph octal` is not built yet".into()))
}
