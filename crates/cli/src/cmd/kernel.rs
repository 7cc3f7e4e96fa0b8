//! `gamegraph kernel` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph kernel`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph kernel`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph kernel` is not built yet".into()))
}
