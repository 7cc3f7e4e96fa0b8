//! Errors of the distributed solver.

use std::fmt;

use gamegraph_graph::ReadError;

/// A malformed hostfile: the 1-based line and column of the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostfileError {
    /// 1-based line.
    pub line: u64,
    /// 1-based column (in bytes).
    pub column: u64,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for HostfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for HostfileError {}

/// Why a distributed solve failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DistError {
    /// The cluster description makes no sense (no process, a process index out of range,
    /// no worker).
    Config(String),
    /// The network could not be set up (an address that cannot be bound, a lost peer).
    Network(String),
    /// A worker thread ended abnormally.
    Worker(String),
    /// The binary file is bad (every process reports the same error).
    Read(ReadError),
    /// Another process could not read its input.
    Peer {
        /// That process.
        process: usize,
        /// What it said.
        message: String,
    },
    /// The processes read different graphs, or differ in how they read it.
    Mismatch(String),
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::Config(m) => f.write_str(m),
            DistError::Network(m) => write!(f, "network: {m}"),
            DistError::Worker(m) => write!(f, "worker failed: {m}"),
            DistError::Read(e) => write!(f, "{e}"),
            DistError::Peer { process, message } => write!(f, "process {process}: {message}"),
            DistError::Mismatch(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for DistError {}
