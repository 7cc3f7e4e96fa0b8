//! `gamegraph gen` (being built: see the issue tracker).

use std::process::ExitCode;

use crate::common::CliError;

/// Arguments of `gamegraph gen`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `gamegraph gen`.
pub(crate) fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Usage("`gamegraph gen` is not built yet".into()))
}
