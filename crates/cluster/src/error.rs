//! Errors of the cluster.

use std::time::Duration;
use std::{fmt, io};

use gamegraph_graph::{ReadError, Vertex};

use crate::wire::Reads;

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

/// Why a solve on the cluster failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClusterError {
    /// The cluster has no process.
    NoProcess,
    /// This process's index is not one of the cluster's.
    ProcessOutside {
        /// This process's index.
        process: usize,
        /// The processes of the cluster.
        processes: usize,
    },
    /// No worker per process, or 2^30 or more workers in the cluster.
    Workers {
        /// Workers per process.
        workers: usize,
    },
    /// The query's start vertex is not a vertex of the graph.
    StartOutside {
        /// The start vertex.
        start: Vertex,
    },
    /// A process other than 0 was given a graph to send.
    NotProcess0 {
        /// That process.
        process: usize,
    },
    /// Process 0 was given neither a graph to send nor the error that reading it gave.
    NothingToSend,
    /// The other processes did not all connect within the cluster's connect timeout.
    ConnectTimeout {
        /// The timeout.
        timeout: Duration,
    },
    /// The network could not be set up (an address that cannot be bound, a lost peer).
    Network(String),
    /// Standard output could not be sent to `/dev/null` while the cluster runs.
    Stdout(io::Error),
    /// A worker thread ended abnormally.
    Worker(String),
    /// The binary file is bad (every process reports the same error).
    Read(ReadError),
    /// A process could not read its input (every process reports it).
    Peer {
        /// That process.
        process: usize,
        /// What it said.
        message: String,
    },
    /// The processes read different graphs, or differ in how they read it.
    Mismatch {
        /// What process 0 reads.
        process_0: Reads,
        /// The first process that reads something else.
        process: usize,
        /// What it reads.
        reads: Reads,
    },
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::NoProcess => f.write_str("the cluster has no process"),
            ClusterError::ProcessOutside { process, processes } => {
                write!(f, "process {process} is outside 0..{}", processes - 1)
            }
            ClusterError::Workers { .. } => f.write_str("the number of workers must be 1..2^30"),
            ClusterError::StartOutside { start } => {
                write!(f, "start vertex {} is outside the graph", start.one_based())
            }
            ClusterError::NotProcess0 { .. } => f.write_str("only process 0 sends the graph"),
            ClusterError::NothingToSend => {
                f.write_str("process 0 has neither the graph to send nor its read error")
            }
            ClusterError::ConnectTimeout { timeout } => {
                write!(f, "the other processes did not all connect within {} s", timeout.as_secs())
            }
            ClusterError::Network(m) => write!(f, "network: {m}"),
            ClusterError::Stdout(_) => f.write_str("cannot send standard output to /dev/null"),
            ClusterError::Worker(m) => write!(f, "worker failed: {m}"),
            ClusterError::Read(e) => write!(f, "{e}"),
            ClusterError::Peer { process, message } => write!(f, "process {process}: {message}"),
            ClusterError::Mismatch { process_0, process, reads } => write!(
                f,
                "the processes do not read the same graph: process 0 reads {process_0}, \
                 process {process} reads {reads}"
            ),
        }
    }
}

impl std::error::Error for ClusterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClusterError::Stdout(e) => Some(e),
            _ => None,
        }
    }
}
