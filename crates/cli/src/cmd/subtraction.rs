//! `gamegraph subtraction` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph subtraction`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph subtraction`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph subtraction` is not built yet".into()))
}
