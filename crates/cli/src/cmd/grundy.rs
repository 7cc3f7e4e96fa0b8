//! `gamegraph grundy` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph grundy`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph grundy`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph grundy` is not built yet".into()))
}
