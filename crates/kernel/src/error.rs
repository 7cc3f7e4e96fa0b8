//! The errors of the kernel solvers.

use std::fmt;

use gamegraph_graph::Limit;

use crate::StableSet;

/// Why a kernel or stable-set computation gave up.
///
/// Outcomes are never errors: "no kernel" is `None`, not a `KernelError`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelError {
    /// A limit of the [`Config`](crate::Config) was reached: its deadline
    /// ([`Limit::Time`]), its stop flag ([`Limit::Stop`]) or its node budget
    /// ([`Limit::Budget`]).
    Limit {
        /// The limit reached.
        limit: Limit,
        /// Search nodes explored before giving up.
        nodes: u64,
    },
    /// The number of kernels does not fit in a `u128`.
    CountOverflow,
    /// A connected part is too large for the bitset branch-and-bound of α.
    TooLarge {
        /// Its number of vertices.
        vertices: usize,
        /// The largest number supported.
        max: usize,
    },
    /// The [`Config::deadline`](crate::Config::deadline) passed, or its stop flag was set,
    /// during the search for α: `best` is the largest internally stable set found (checked
    /// like an exact answer), and α is proven to be at most `bound`.
    AlphaLimit {
        /// [`Limit::Time`] or [`Limit::Stop`].
        limit: Limit,
        /// The best set found, its size and the search nodes explored.
        best: Box<StableSet>,
        /// A proven upper bound on α.
        bound: usize,
    },
    /// The [`Config::deadline`](crate::Config::deadline) passed, or its stop flag was set,
    /// during the search for β: `best` is the smallest externally stable set found (checked
    /// like an exact answer), and β is proven to be at least `bound`.
    BetaLimit {
        /// [`Limit::Time`] or [`Limit::Stop`].
        limit: Limit,
        /// The best set found, its size and the search nodes explored.
        best: Box<StableSet>,
        /// A proven lower bound on β.
        bound: usize,
    },
    /// A witness failed the independent check before it was returned (a bug, reported
    /// instead of a wrong answer).
    WitnessRejected {
        /// What was computed (`"alpha"`, `"beta"`).
        what: &'static str,
        /// Why the check failed.
        violation: crate::Violation,
    },
    /// The solver that writes the proof of "no kernel" found a kernel of the draw part the
    /// decision said has none (a bug, reported instead of a proof).
    NoRefutation {
        /// The number of vertices of that part.
        part: usize,
    },
    /// A vertex set's length differs from the graph's number of vertices.
    SetLength {
        /// The graph's number of vertices.
        expected: usize,
        /// The set's length.
        found: usize,
    },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::Limit { limit: limit @ Limit::Budget { .. }, .. } => write!(f, "{limit}"),
            KernelError::Limit { limit, nodes } => {
                write!(f, "{limit} after {nodes} search nodes")
            }
            KernelError::CountOverflow => f.write_str("the number of kernels exceeds 2^128"),
            KernelError::TooLarge { vertices, max } => write!(
                f,
                "a connected part of {vertices} vertices exceeds the {max} supported by the bitset search"
            ),
            KernelError::AlphaLimit { limit, best, bound } => write!(
                f,
                "{limit} after {} search nodes: the largest internally stable set found has {} \
                 vertices, and alpha is at most {bound}",
                best.nodes, best.size
            ),
            KernelError::BetaLimit { limit, best, bound } => write!(
                f,
                "{limit} after {} search nodes: the smallest externally stable set found has {} \
                 vertices, and beta is at least {bound}",
                best.nodes, best.size
            ),
            KernelError::WitnessRejected { what, violation } => {
                write!(f, "internal error: the {what} witness fails its check ({violation})")
            }
            KernelError::NoRefutation { part } => write!(
                f,
                "internal error: the proof solver found a kernel of a draw part of {part} \
                 vertices that was decided to have none"
            ),
            KernelError::SetLength { expected, found } => {
                write!(f, "vertex set has length {found}, the graph has {expected} vertices")
            }
        }
    }
}

impl std::error::Error for KernelError {}

impl KernelError {
    /// Whether this is the deadline or the stop flag of the [`Config`](crate::Config)
    /// (not its node budget): the searches that race or time-box a part stop on these.
    pub(crate) fn is_clock(&self) -> bool {
        matches!(self, KernelError::Limit { limit: Limit::Time | Limit::Stop, .. })
    }
}
