//! The limits a computation may reach before its answer, named the same way by every
//! solver of the workspace: each library's error has one variant that carries a [`Limit`],
//! and a front end maps a [`Limit`] to its exit code or exception once.

use std::fmt;

use crate::memory::human_bytes;

/// Why a computation ended before its answer: a limit its caller set, or the memory of
/// the machine. The answer is unknown, not wrong; the same call with a larger limit may
/// give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// The deadline passed.
    Time,
    /// The stop flag was set (an interrupt).
    Stop,
    /// The work needs `needed` bytes: more than `allowed`, or, when `allowed` is `None`,
    /// more than could be allocated.
    Memory {
        /// The bytes needed.
        needed: u64,
        /// The bytes allowed, when a limit was given.
        allowed: Option<u64>,
    },
    /// A budget of work the caller set was used up, or would be by work known in advance.
    Budget {
        /// What the budget counts.
        what: Budget,
        /// The budget.
        limit: u64,
        /// The units the refused work needs, when known in advance.
        needed: Option<u64>,
    },
}

/// What a [`Limit::Budget`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Budget {
    /// Positions explored.
    Positions,
    /// Search nodes.
    Nodes,
    /// Cell evaluations of a board.
    Cells,
}

impl Budget {
    /// The unit counted, in the plural.
    pub fn units(self) -> &'static str {
        match self {
            Budget::Positions => "positions",
            Budget::Nodes => "search nodes",
            Budget::Cells => "cell evaluations",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Limit::Time => f.write_str("time limit reached"),
            Limit::Stop => f.write_str("stopped"),
            Limit::Memory { needed, allowed: Some(allowed) } => write!(
                f,
                "needs {}, more than the {} allowed",
                human_bytes(needed),
                human_bytes(allowed)
            ),
            Limit::Memory { needed, allowed: None } => {
                write!(f, "needs {}, which could not be allocated", human_bytes(needed))
            }
            Limit::Budget { what, limit, needed: Some(needed) } => {
                write!(f, "needs {needed} {}, more than the limit of {limit}", what.units())
            }
            Limit::Budget { what, limit, needed: None } => {
                write!(f, "the limit of {limit} {} was reached", what.units())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_says_what_was_reached() {
        assert_eq!(Limit::Time.to_string(), "time limit reached");
        assert_eq!(Limit::Stop.to_string(), "stopped");
        let memory = Limit::Memory { needed: 3 << 30, allowed: Some(1 << 30) };
        assert_eq!(memory.to_string(), "needs 3.0 GiB, more than the 1.0 GiB allowed");
        let failed = Limit::Memory { needed: 3 << 30, allowed: None };
        assert_eq!(failed.to_string(), "needs 3.0 GiB, which could not be allocated");
        let nodes = Limit::Budget { what: Budget::Nodes, limit: 100, needed: None };
        assert_eq!(nodes.to_string(), "the limit of 100 search nodes was reached");
        let cells = Limit::Budget { what: Budget::Cells, limit: 10, needed: Some(12) };
        assert_eq!(cells.to_string(), "needs 12 cell evaluations, more than the limit of 10");
    }
}
