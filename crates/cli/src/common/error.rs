//! Failures and the exit codes they map to.

use std::fmt;
use std::io;
use std::process::ExitCode;

use gamegraph_graph::{Limit, Position};

/// A failure, with the exit code it maps to.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad input: exit code 2. `line` and `column` are 1-based when known.
    Input { source: String, line: Option<u64>, column: Option<u64>, message: String },
    /// Arguments that clap accepted but that make no sense together, or a bad value: exit 2.
    Usage(String),
    /// A limit was reached (`--time-limit`, a work limit, not enough memory): exit code 3;
    /// 130 for a stop request, as for an interrupt. `limit` is the library's, `None` for a
    /// bound of the command's own. Made by [`CliError::limit`] and [`CliError::bound`].
    Limit { limit: Option<Limit>, message: String },
    /// Anything else (an unreadable file, a full disk): exit code 1.
    Other(anyhow::Error),
}

impl CliError {
    /// Bad input at a known place of a named source.
    pub(crate) fn input(
        source: &str,
        position: Option<(u64, u64)>,
        message: impl fmt::Display,
    ) -> CliError {
        CliError::Input {
            source: source.to_owned(),
            line: position.map(|p| p.0),
            column: position.map(|p| p.1),
            message: message.to_string(),
        }
    }
}

impl CliError {
    /// The one mapping of a [`Limit`] a library reached, with the message to print (the
    /// library's, or one that says how to raise the limit).
    pub(crate) fn limit(limit: Limit, message: impl fmt::Display) -> CliError {
        CliError::Limit { limit: Some(limit), message: message.to_string() }
    }

    /// A bound of the command's own reached (a search depth, a count of values, the time
    /// limit while writing): exit code 3, as for a library's [`Limit`].
    pub(crate) fn bound(message: impl fmt::Display) -> CliError {
        CliError::Limit { limit: None, message: message.to_string() }
    }

    /// Bad input at a known [`Position`] of a named source.
    pub(crate) fn at(source: &str, at: Option<Position>, message: impl fmt::Display) -> CliError {
        CliError::input(source, at.map(|p| (p.line, p.column)), message)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Other(e.into())
    }
}

impl From<anyhow::Error> for CliError {
    fn from(e: anyhow::Error) -> Self {
        CliError::Other(e)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input { source, line, column, message } => {
                write!(f, "{source}:")?;
                if let Some(line) = line {
                    write!(f, "{line}:")?;
                }
                if let Some(column) = column {
                    write!(f, "{column}:")?;
                }
                write!(f, " {message}")
            }
            CliError::Usage(m) | CliError::Limit { message: m, .. } => f.write_str(m),
            CliError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

fn is_broken_pipe(e: &CliError) -> bool {
    match e {
        CliError::Other(e) => e.chain().any(|c| {
            c.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
        }),
        _ => false,
    }
}

/// Turns a command's result into the process exit code, printing the error on stderr.
/// A closed stdout pipe (`gamegraph … | head`) is not an error.
pub(crate) fn finish(result: Result<ExitCode, CliError>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            {
                eprintln!("error: {e}");
            }
            ExitCode::from(match e {
                CliError::Input { .. } | CliError::Usage(_) => 2,
                CliError::Limit { limit: Some(Limit::Stop), .. } => 130,
                CliError::Limit { .. } => 3,
                CliError::Other(_) => 1,
            })
        }
    }
}
