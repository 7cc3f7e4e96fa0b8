//! The errors of the Grundy solvers.

use std::fmt;

use gamegraph_graph::{Located, Position, Vertex};

/// The graph given to an acyclic-only routine has a directed cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GrundyError {
    /// A directed cycle, listed in arc order (`cycle[i] -> cycle[i + 1]`, last -> first).
    Cycle {
        /// The vertices of one directed cycle (a self-loop is a cycle of length 1).
        cycle: Vec<Vertex>,
    },
}

impl fmt::Display for GrundyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrundyError::Cycle { cycle } => {
                write!(f, "the graph has a directed cycle: ")?;
                for v in cycle {
                    write!(f, "{} -> ", v.one_based())?;
                }
                write!(f, "{}", cycle.first().map_or(0, |v| v.one_based()))
            }
        }
    }
}

impl std::error::Error for GrundyError {}

/// A heap game that is malformed or that no proven method answers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeapError {
    /// The number of limits differs from the number of heaps.
    LimitCount {
        /// The number of heaps.
        heaps: usize,
        /// The number of limits given.
        limits: usize,
    },
    /// A move limit of 0 (no move would ever be legal from that heap).
    ZeroLimit {
        /// The 0-based index of the heap.
        heap: usize,
    },
    /// Moore's Nim_k with k = 0.
    ZeroMooreK,
    /// Moore's Nim_k with move limits that bind (a limit below its heap): no proven
    /// theory covers it, and exhaustive search would take more than the search limit.
    SearchTooLarge {
        /// The work exhaustive search would need (states times moves, saturating).
        work: u64,
        /// The search limit in force.
        limit: u64,
    },
}

impl fmt::Display for HeapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapError::LimitCount { heaps, limits } => {
                write!(f, "{heaps} heaps but {limits} move limits")
            }
            HeapError::ZeroLimit { heap } => {
                write!(f, "the move limit of heap {} is 0; limits must be at least 1", heap + 1)
            }
            HeapError::ZeroMooreK => write!(f, "Moore's Nim_k needs k >= 1"),
            HeapError::SearchTooLarge { work, limit } => write!(
                f,
                "no proven theory covers Moore's Nim_k with move limits below the heap sizes, \
                 and exhaustive search would need {work} steps (the limit is {limit})"
            ),
        }
    }
}

impl std::error::Error for HeapError {}

/// A sum of tokens that is malformed or that no proven method answers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SumError {
    /// A token stands on a vertex the graph does not have.
    TokenOutOfRange {
        /// The 0-based index of the token in the list.
        token: usize,
        /// The 0-based vertex it names.
        vertex: u64,
        /// The number of vertices.
        n: usize,
    },
    /// The number of move limits differs from the number of heaps.
    LimitCount {
        /// The number of heaps.
        heaps: usize,
        /// The number of limits given.
        limits: usize,
    },
    /// A move limit of 0 (no move would ever be legal from that heap).
    ZeroLimit {
        /// The 0-based index of the heap.
        heap: usize,
    },
    /// A misère sum with graph tokens (no proven theory covers it) whose explicit
    /// product of positions is too large to search exhaustively.
    SearchTooLarge {
        /// The work exhaustive search would need: positions plus moves of the explicit
        /// product (saturating; a lower bound when the search gave up early).
        work: u64,
        /// The search limit in force.
        limit: u64,
    },
}

impl fmt::Display for SumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SumError::TokenOutOfRange { token, vertex, n } => write!(
                f,
                "token {} stands on vertex {}, but the graph has {n} vertices",
                token + 1,
                vertex + 1
            ),
            SumError::LimitCount { heaps, limits } => {
                write!(f, "{heaps} heaps but {limits} move limits")
            }
            SumError::ZeroLimit { heap } => {
                write!(f, "the move limit of heap {} is 0; limits must be at least 1", heap + 1)
            }
            SumError::SearchTooLarge { work, limit } => write!(
                f,
                "no proven theory covers misère sums with tokens that can move, and exhaustive \
                 search of the sum would need at least {work} steps (positions plus moves; the \
                 limit is {limit})"
            ),
        }
    }
}

impl std::error::Error for SumError {}

/// A malformed heap list (see [`parse_heaps`](crate::parse_heaps)): where, and what is
/// wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeapListError {
    pub(crate) position: Position,
    pub(crate) message: String,
}

impl HeapListError {
    /// What is wrong, without the line and column.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Located for HeapListError {
    /// The line and column of the problem; always known.
    fn position(&self) -> Option<Position> {
        Some(self.position)
    }
}

impl fmt::Display for HeapListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.message)
    }
}

impl std::error::Error for HeapListError {}

/// A value that a [`ValueTable`](crate::ValueTable) cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BadValue {
    /// The finite value `u64::MAX`, which the table keeps for infinite values.
    Reserved,
    /// An infinite value whose set is not increasing.
    Unsorted,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Reserved => write!(f, "a finite value must be below {}", u64::MAX),
            BadValue::Unsorted => f.write_str("the set of an infinite value must increase"),
        }
    }
}

impl std::error::Error for BadValue {}
