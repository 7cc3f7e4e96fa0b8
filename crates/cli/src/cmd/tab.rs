//! `gamegraph tab` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph tab`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph tab`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph tab` is not built yet".into()))
}
