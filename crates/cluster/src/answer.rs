//! What a solve is asked for and what it returns.

use gamegraph_graph::{Outcome, Vertex};
use gamegraph_retro::Solution;

/// What the processes need at the end (the query of process 0 is the one answered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Every vertex: process 0 gets the whole [`Solution`].
    All,
    /// One vertex: process 0 gets its outcome, depth and move only.
    Start(Vertex),
    /// Every vertex, nothing gathered: each process gets the answers for its own
    /// vertices ([`Shard`]).
    Shard,
}

/// The outcomes, depths and moves of the contiguous vertices `first..first + len` (the
/// vertices of one process), as [`Solution::from_parts`] and
/// [`Table::rows`](gamegraph_retro::Table::rows) take them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shard {
    /// The first vertex.
    pub first: Vertex,
    /// The outcome of each vertex.
    pub outcomes: Vec<Outcome>,
    /// The depth of each vertex, `None` for a draw.
    pub depths: Vec<Option<u32>>,
    /// The optimal move of each vertex, `None` for none.
    pub moves: Vec<Option<Vertex>>,
}

/// The answer for one vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// Its outcome.
    pub outcome: Outcome,
    /// Its depth, `None` for a draw.
    pub depth: Option<u32>,
    /// Its optimal move, `None` when there is none.
    pub best_move: Option<Vertex>,
}

/// What [`dist_solve`](crate::dist_solve) returns on process 0 (and, for
/// [`Query::Shard`], on every process).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gathered {
    /// The whole solution ([`Query::All`]).
    All(Solution),
    /// The start vertex's answer ([`Query::Start`]).
    Start(Answer),
    /// This process's vertices ([`Query::Shard`]).
    Shard(Shard),
}

/// What one process did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// On process 0, the answer to the query; `None` on the others, except with
    /// [`Query::Shard`], where every process gets its own shard.
    pub gathered: Option<Gathered>,
    /// Rounds of propagation (the greatest depth plus one; 0 for an empty graph).
    pub rounds: u32,
    /// Bytes this process sent to the others (timely message headers and payloads, as
    /// reported by timely's communication log).
    pub bytes_sent: u64,
}
