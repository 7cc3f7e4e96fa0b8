//! Errors of the cluster.

use std::time::Duration;
use std::{fmt, io};

use gamegraph_graph::{Located, Position, ReadError, Vertex};

use crate::wire::Reads;

/// A malformed hostfile: where the problem is, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostfileError {
    pub(crate) position: Position,
    pub(crate) message: String,
}

impl HostfileError {
    pub(crate) fn new(line: u64, column: u64, message: impl Into<String>) -> HostfileError {
        HostfileError { position: Position::new(line, column), message: message.into() }
    }

    /// What is wrong there, without the line and column.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Located for HostfileError {
    /// The line and column of the problem; always known.
    fn position(&self) -> Option<Position> {
        Some(self.position)
    }
}

impl fmt::Display for HostfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.message)
    }
}

impl std::error::Error for HostfileError {}

/// How a peer process is set up differently from this one (both see it alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Disagreement {
    /// Another version of the cluster protocol (another build of gamegraph).
    Protocol {
        /// This process's.
        this: u32,
        /// The peer's.
        peer: u32,
    },
    /// Another number of processes: another hostfile.
    Processes {
        /// This process's.
        this: usize,
        /// The peer's.
        peer: usize,
    },
    /// Another number of workers per process.
    Workers {
        /// This process's.
        this: usize,
        /// The peer's.
        peer: usize,
    },
    /// Other addresses: another hostfile.
    Hosts,
    /// Another query ([`Cluster::query`](crate::Cluster::query)).
    Query,
    /// Two processes say they are the same process.
    Twice,
}

impl Disagreement {
    fn describe(self, f: &mut fmt::Formatter<'_>, process: usize, this: usize) -> fmt::Result {
        match self {
            Disagreement::Protocol { this: mine, peer } => write!(
                f,
                "process {process} speaks cluster protocol {peer} and process {this} protocol \
                 {mine}: every process must run the same version of gamegraph"
            ),
            Disagreement::Processes { this: mine, peer } => write!(
                f,
                "processes {process} and {this} have hostfiles of different lengths ({peer} \
                 and {mine} processes): every process must be given the same hostfile"
            ),
            Disagreement::Workers { this: mine, peer } => write!(
                f,
                "processes {process} and {this} have different numbers of workers ({peer} and \
                 {mine}): every process must have the same"
            ),
            Disagreement::Hosts => write!(
                f,
                "process {process} and process {this} were given different hostfiles: every \
                 process must be given the same"
            ),
            Disagreement::Query => write!(
                f,
                "process {process} and process {this} were given different queries (the \
                 game, its parameters and settings; or the start vertex, all vertices, line of \
                 play): every process must be given the same"
            ),
            Disagreement::Twice => write!(f, "two processes say they are process {process}"),
        }
    }
}

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
        /// What went wrong meanwhile, when something did (a peer that accepted and sent
        /// nothing, a connection that was not from a process of the cluster).
        detail: Option<String>,
    },
    /// The address of a process in the hostfile answered, but not as a process of a
    /// gamegraph cluster.
    NotAPeer {
        /// The address.
        address: String,
        /// The process of that address.
        process: usize,
    },
    /// A peer process is set up differently from this one.
    Disagree {
        /// The peer process.
        process: usize,
        /// This process.
        this: usize,
        /// What differs.
        what: Disagreement,
    },
    /// Process 0 writes shards and another does not, or the other way round.
    Shards {
        /// The first process that differs from process 0.
        process: usize,
        /// Whether process 0 writes shards.
        process_0: bool,
    },
    /// Two processes read graphs of the same kind and size but with different contents.
    Differ {
        /// The lower of the two processes.
        first: usize,
        /// The other.
        second: usize,
        /// What the first reads.
        reads: Reads,
    },
    /// A peer process ended (or its connection broke) before the solve finished.
    Lost {
        /// That process.
        process: usize,
    },
    /// A peer process sent nothing, not even its heartbeat, for the liveness timeout: it
    /// is stopped, or its machine cannot be reached.
    Silent {
        /// That process.
        process: usize,
        /// The liveness timeout.
        timeout: Duration,
    },
    /// The network could not be set up (an address that cannot be bound), or a
    /// connection failed.
    Network {
        /// What was being done (`cannot listen on 127.0.0.1:7000`).
        context: String,
        /// What the system said.
        error: io::Error,
    },
    /// The threads of the workers could not be started.
    Threads(io::Error),
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
    /// A game's solve by tiers failed on this process
    /// ([`TierError::Peer`](gamegraph_game::tier::TierError::Peer) when it failed on
    /// another worker, which reports why).
    Tier(gamegraph_game::tier::TierError),
}

impl From<gamegraph_game::tier::TierError> for ClusterError {
    fn from(e: gamegraph_game::tier::TierError) -> ClusterError {
        ClusterError::Tier(e)
    }
}

impl ClusterError {
    /// A [`ClusterError::Network`].
    pub(crate) fn network(context: impl Into<String>, error: io::Error) -> ClusterError {
        ClusterError::Network { context: context.into(), error }
    }
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
            ClusterError::ConnectTimeout { timeout, detail } => {
                write!(
                    f,
                    "the other processes did not all connect within {} s",
                    timeout.as_secs()
                )?;
                match detail {
                    Some(d) => write!(f, ": {d}"),
                    None => Ok(()),
                }
            }
            ClusterError::NotAPeer { address, process } => write!(
                f,
                "{address} (process {process} in the hostfile) answered with bytes that are \
                 not a gamegraph cluster hello"
            ),
            ClusterError::Disagree { process, this, what } => what.describe(f, *process, *this),
            ClusterError::Shards { process, process_0 } => {
                let (yes, no) = if *process_0 { (0, *process) } else { (*process, 0) };
                write!(
                    f,
                    "process {yes} writes shards and process {no} does not: every process must \
                     be given the same query"
                )
            }
            ClusterError::Differ { first, second, reads } => write!(
                f,
                "the processes do not read the same graph: process {first} and process \
                 {second} each read {reads}, with different contents"
            ),
            ClusterError::Lost { process } => write!(
                f,
                "lost the connection to a peer process: process {process} ended before the \
                 solve finished"
            ),
            ClusterError::Silent { process, timeout } => write!(
                f,
                "lost the connection to a peer process: process {process} has sent nothing \
                 for {} s",
                timeout.as_secs()
            ),
            ClusterError::Network { context, error } => write!(f, "network: {context}: {error}"),
            ClusterError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
            ClusterError::Stdout(_) => f.write_str("cannot send standard output to /dev/null"),
            ClusterError::Worker(m) => write!(f, "worker failed: {m}"),
            ClusterError::Read(e) => write!(f, "{e}"),
            ClusterError::Peer { process, message } => write!(f, "process {process}: {message}"),
            ClusterError::Mismatch { process_0, process, reads } => write!(
                f,
                "the processes do not read the same graph: process 0 reads {process_0}, \
                 process {process} reads {reads}"
            ),
            ClusterError::Tier(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ClusterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClusterError::Stdout(e)
            | ClusterError::Threads(e)
            | ClusterError::Network { error: e, .. } => Some(e),
            ClusterError::Read(e) => Some(e),
            ClusterError::Tier(e) => Some(e),
            _ => None,
        }
    }
}
