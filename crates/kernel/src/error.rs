//! The errors of the kernel solvers.

use std::fmt;

/// Why a kernel or stable-set computation gave up.
///
/// Outcomes are never errors: "no kernel" is `None`, not a `KernelError`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelError {
    /// The [`Config::deadline`](crate::Config::deadline) passed.
    TimeLimit {
        /// Search nodes explored before giving up.
        nodes: u64,
    },
    /// The [`Config::max_nodes`](crate::Config::max_nodes) budget was used up.
    NodeLimit {
        /// The budget that was reached.
        nodes: u64,
    },
    /// The number of kernels does not fit in a `u128`.
    CountOverflow,
    /// A connected part is too large for the bitset branch-and-bound of α or β.
    TooLarge {
        /// Its number of vertices.
        vertices: usize,
        /// The largest number supported.
        max: usize,
    },
    /// A witness failed the independent check before it was returned (a bug, reported
    /// instead of a wrong answer).
    WitnessRejected {
        /// What was computed (`"beta"`).
        what: &'static str,
        /// Why the check failed.
        violation: crate::Violation,
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
            KernelError::TimeLimit { nodes } => {
                write!(f, "time limit reached after {nodes} search nodes")
            }
            KernelError::NodeLimit { nodes } => write!(f, "node limit of {nodes} reached"),
            KernelError::CountOverflow => f.write_str("the number of kernels exceeds 2^128"),
            KernelError::TooLarge { vertices, max } => write!(
                f,
                "a connected part of {vertices} vertices exceeds the {max} supported by the bitset search"
            ),
            KernelError::WitnessRejected { what, violation } => {
                write!(f, "internal error: the {what} witness fails its check ({violation})")
            }
            KernelError::SetLength { expected, found } => {
                write!(f, "vertex set has length {found}, the graph has {expected} vertices")
            }
        }
    }
}

impl std::error::Error for KernelError {}
