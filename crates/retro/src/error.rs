//! Why a solution is not a valid certificate for a graph.

use std::fmt;

use gamegraph_graph::Vertex;

use crate::Outcome;

/// A violated condition of the win / lose / draw certificate, found by [`verify`](crate::verify).
///
/// Vertices are 0-based, as in the library; the messages print them 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertificateError {
    /// The solution was computed for a graph with a different number of vertices.
    SizeMismatch {
        /// Vertices of the graph.
        graph: usize,
        /// Vertices of the solution.
        solution: usize,
    },
    /// A vertex without moves is not labelled L with depth 0.
    TerminalNotLoss {
        /// The terminal vertex.
        vertex: Vertex,
        /// Its label.
        found: Outcome,
    },
    /// A W vertex has no L successor.
    WinWithoutLossSuccessor {
        /// The W vertex.
        vertex: Vertex,
    },
    /// An L vertex has a successor that is not W.
    LossWithNonWinSuccessor {
        /// The L vertex.
        vertex: Vertex,
        /// The successor.
        successor: Vertex,
        /// The successor's label.
        found: Outcome,
    },
    /// A D vertex has an L successor (it should be W).
    DrawWithLossSuccessor {
        /// The D vertex.
        vertex: Vertex,
        /// Its L successor.
        successor: Vertex,
    },
    /// A D vertex has no D successor (it should be L).
    DrawWithoutDrawSuccessor {
        /// The D vertex.
        vertex: Vertex,
    },
    /// A W or L vertex whose depth is not 1 + min (W) or 1 + max (L) over its successors,
    /// or a D vertex with a depth.
    WrongDepth {
        /// The vertex.
        vertex: Vertex,
        /// The depth the definition gives.
        expected: Option<u32>,
        /// The depth in the solution.
        found: Option<u32>,
    },
    /// A vertex whose move is not the optimal one with the smallest id.
    WrongMove {
        /// The vertex.
        vertex: Vertex,
        /// The optimal move with the smallest id.
        expected: Option<Vertex>,
        /// The move in the solution.
        found: Option<Vertex>,
    },
}

fn id(v: Option<Vertex>) -> String {
    v.map_or_else(|| "none".to_owned(), |v| v.one_based().to_string())
}

fn depth(d: Option<u32>) -> String {
    d.map_or_else(|| "none".to_owned(), |d| d.to_string())
}

impl CertificateError {
    /// The vertex where the certificate fails (when the failure is at one vertex) and the
    /// short name of the rule it breaks: `terminal-loss`, `win-has-loss-successor`,
    /// `loss-has-only-win-successors`, `draw-has-no-loss-successor`,
    /// `draw-has-draw-successor`, `depth`, `move` or `size`.
    #[must_use]
    pub fn rule(&self) -> (Option<Vertex>, &'static str) {
        match self {
            CertificateError::TerminalNotLoss { vertex, .. } => (Some(*vertex), "terminal-loss"),
            CertificateError::WinWithoutLossSuccessor { vertex } => {
                (Some(*vertex), "win-has-loss-successor")
            }
            CertificateError::LossWithNonWinSuccessor { vertex, .. } => {
                (Some(*vertex), "loss-has-only-win-successors")
            }
            CertificateError::DrawWithLossSuccessor { vertex, .. } => {
                (Some(*vertex), "draw-has-no-loss-successor")
            }
            CertificateError::DrawWithoutDrawSuccessor { vertex } => {
                (Some(*vertex), "draw-has-draw-successor")
            }
            CertificateError::WrongDepth { vertex, .. } => (Some(*vertex), "depth"),
            CertificateError::WrongMove { vertex, .. } => (Some(*vertex), "move"),
            CertificateError::SizeMismatch { .. } => (None, "size"),
        }
    }
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateError::SizeMismatch { graph, solution } => {
                write!(f, "the graph has {graph} vertices but the solution has {solution}")
            }
            CertificateError::TerminalNotLoss { vertex, found } => {
                write!(
                    f,
                    "vertex {} has no move but is labelled {}",
                    vertex.one_based(),
                    found.letter()
                )
            }
            CertificateError::WinWithoutLossSuccessor { vertex } => {
                write!(f, "vertex {} is labelled W but has no L successor", vertex.one_based())
            }
            CertificateError::LossWithNonWinSuccessor { vertex, successor, found } => write!(
                f,
                "vertex {} is labelled L but its successor {} is {}",
                vertex.one_based(),
                successor.one_based(),
                found.letter()
            ),
            CertificateError::DrawWithLossSuccessor { vertex, successor } => write!(
                f,
                "vertex {} is labelled D but its successor {} is L",
                vertex.one_based(),
                successor.one_based()
            ),
            CertificateError::DrawWithoutDrawSuccessor { vertex } => {
                write!(f, "vertex {} is labelled D but has no D successor", vertex.one_based())
            }
            CertificateError::WrongDepth { vertex, expected, found } => write!(
                f,
                "vertex {} has depth {} but its successors give {}",
                vertex.one_based(),
                depth(*found),
                depth(*expected)
            ),
            CertificateError::WrongMove { vertex, expected, found } => write!(
                f,
                "vertex {} has move {} but the optimal move with the smallest id is {}",
                vertex.one_based(),
                id(*found),
                id(*expected)
            ),
        }
    }
}

impl std::error::Error for CertificateError {}

/// Why outcomes, depths and moves given to [`Solution::from_parts`](crate::Solution::from_parts)
/// do not make a solution. Vertices are 0-based; the messages print them 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartsError {
    /// The three lists differ in length.
    Lengths {
        /// The number of outcomes.
        outcomes: usize,
        /// The number of depths.
        depths: usize,
        /// The number of moves.
        moves: usize,
    },
    /// A W or L vertex without a depth, or a D vertex with one.
    Depth {
        /// The vertex.
        vertex: Vertex,
        /// Its outcome.
        outcome: Outcome,
    },
    /// A tie, which a graph without terminal values does not have (every vertex without
    /// moves is a loss for the player to move there).
    Tie {
        /// The vertex.
        vertex: Vertex,
    },
    /// A depth of `u32::MAX` or more, which no graph has.
    DepthTooLarge {
        /// The vertex.
        vertex: Vertex,
    },
    /// A move to a vertex outside the graph.
    MoveOutside {
        /// The vertex.
        vertex: Vertex,
        /// Its move.
        target: Vertex,
    },
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsError::Lengths { outcomes, depths, moves } => write!(
                f,
                "{outcomes} outcomes, {depths} depths and {moves} moves: the lengths differ"
            ),
            PartsError::Depth { vertex, .. } => write!(
                f,
                "vertex {}: a depth must be given exactly for W and L",
                vertex.one_based()
            ),
            PartsError::Tie { vertex } => write!(
                f,
                "vertex {}: a tie, but a graph without terminal values has none (W, L or D)",
                vertex.one_based()
            ),
            PartsError::DepthTooLarge { vertex } => {
                write!(f, "vertex {}: a depth must be below {}", vertex.one_based(), u32::MAX)
            }
            PartsError::MoveOutside { vertex, .. } => {
                write!(f, "vertex {}: its move is outside the graph", vertex.one_based())
            }
        }
    }
}

impl std::error::Error for PartsError {}
