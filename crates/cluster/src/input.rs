//! What a process starts from ([`Input`], the caller's word) and the role it takes in the
//! first time of the cluster ([`Role`], chosen here from the input and the cluster).

use std::sync::Arc;

use gamegraph_graph::Graph;
use gamegraph_graph::format::binary::BinaryParts;

use crate::error::ClusterError;
use crate::wire::Reads;

/// What a process starts from.
#[derive(Debug, Clone)]
pub enum Input {
    /// The whole graph, which every process holds (each read the same file, or built it).
    Graph(Arc<Graph>),
    /// A binary file every process can read (the same file, or identical copies): each
    /// worker reads the successor lists of its own block by position, and the checksum is
    /// checked once across the cluster, each worker hashing an equal share of the blocks.
    Binary(Arc<BinaryParts>),
    /// A file that process 0 alone reads (such as a text file). On process 0, what reading
    /// it gave: the graph, which it sends every other process the successor lists of its
    /// blocks of (or keeps whole, alone in its cluster), or the message of its error, which
    /// every process then fails with ([`ClusterError::Peer`]). `None` on the other
    /// processes, which get their parts from process 0.
    ReadByProcess0(Option<Result<Arc<Graph>, String>>),
}

impl Input {
    /// The number of vertices, when this process knows it.
    pub(crate) fn num_vertices(&self) -> Option<usize> {
        match self {
            Input::Graph(g) | Input::ReadByProcess0(Some(Ok(g))) => Some(g.num_vertices()),
            Input::Binary(f) => Some(f.num_vertices()),
            Input::ReadByProcess0(_) => None,
        }
    }
}

/// What a process does in the first time of the cluster.
#[derive(Debug, Clone)]
pub(crate) enum Role {
    /// Holds the whole graph; each worker takes its block.
    Whole(Arc<Graph>),
    /// Reads its workers' parts of a binary file, and judges the file with the others.
    Reader(Arc<BinaryParts>),
    /// Process 0 of the slow path: holds the graph and sends the other processes their
    /// parts.
    Sender(Arc<Graph>),
    /// Process 0 of the slow path, which could not read the graph: tells the others.
    FailedSender(String),
    /// Any other process of the slow path: its part comes from process 0.
    Receiver,
}

impl Role {
    /// The role of `process` of a cluster of `processes` given `input`.
    ///
    /// # Errors
    /// [`ClusterError::NotProcess0`] for a graph to send on another process than 0,
    /// [`ClusterError::NothingToSend`] for process 0 without one, and
    /// [`ClusterError::Peer`] for process 0's read error when it is alone (there is
    /// nobody to tell).
    pub(crate) fn choose(
        input: Input,
        process: usize,
        processes: usize,
    ) -> Result<Role, ClusterError> {
        Ok(match input {
            Input::Graph(g) => Role::Whole(g),
            Input::Binary(f) => Role::Reader(f),
            Input::ReadByProcess0(Some(_)) if process != 0 => {
                return Err(ClusterError::NotProcess0 { process });
            }
            Input::ReadByProcess0(Some(Ok(g))) if processes == 1 => Role::Whole(g),
            Input::ReadByProcess0(Some(Ok(g))) => Role::Sender(g),
            Input::ReadByProcess0(Some(Err(message))) if processes == 1 => {
                return Err(ClusterError::Peer { process: 0, message });
            }
            Input::ReadByProcess0(Some(Err(message))) => Role::FailedSender(message),
            Input::ReadByProcess0(None) if process == 0 => {
                return Err(ClusterError::NothingToSend);
            }
            Input::ReadByProcess0(None) => Role::Receiver,
        })
    }

    /// What the process says it reads.
    pub(crate) fn reads(&self) -> Reads {
        match self {
            Role::Whole(g) => Reads::Graph { vertices: g.num_vertices(), arcs: g.num_arcs() },
            Role::Reader(f) => Reads::Binary { vertices: f.num_vertices(), arcs: f.num_arcs() },
            Role::Sender(g) => Reads::Sent { vertices: g.num_vertices(), arcs: g.num_arcs() },
            Role::FailedSender(_) | Role::Receiver => Reads::SentByProcess0,
        }
    }
}
