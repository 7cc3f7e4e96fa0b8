//! Errors of the game crate.

use std::fmt;

use gamegraph_graph::{Budget, Limit, Located, Position};

/// Why a position's text could not be read, with the 1-based line and column (in
/// characters) where it goes wrong. A one-line notation puts every error on line 1.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    at: Position,
    message: String,
}

impl ParseError {
    /// An error at 1-based `column` of line 1 (in characters; 1 for the text as a whole),
    /// for a position written on one line.
    pub fn new(column: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(Position::new(1, column as u64), message)
    }

    /// An error at `at`, a 1-based line and column, for a notation of several lines.
    pub fn at(at: Position, message: impl Into<String>) -> ParseError {
        ParseError { at, message: message.into() }
    }

    /// What is wrong, without the line and column.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Located for ParseError {
    /// The 1-based line and column (in characters); always known.
    fn position(&self) -> Option<Position> {
        Some(self.at)
    }
}

/// `column C: MESSAGE` on line 1, `line L, column C: MESSAGE` on the others.
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.line != 1 {
            write!(f, "line {}, ", self.at.line)?;
        }
        write!(f, "column {}: {}", self.at.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why the positions of a game could not be explored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExploreError {
    /// A limit was reached: more positions than
    /// [`ExploreConfig::max_positions`](crate::ExploreConfig::max_positions) are reachable
    /// ([`Limit::Budget`] of [`Budget::Positions`]), or the
    /// [`ExploreConfig::stop`](crate::ExploreConfig::stop) flag was set ([`Limit::Stop`]).
    Limit {
        /// The limit reached.
        limit: Limit,
        /// Positions found by then (more than the budget when it is the budget's).
        found: usize,
    },
    /// A move, made again when the graph was built, led to a position exploration never
    /// found: `moves` is not deterministic or `canonical` does not commute with the rules.
    Inconsistent {
        /// The position whose moves changed, in the game's notation.
        position: String,
        /// The unexpected move, in the game's notation.
        successor: String,
    },
}

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExploreError::Limit {
                limit: Limit::Budget { what: Budget::Positions, limit, .. },
                found,
            } => write!(
                f,
                "more than {limit} positions are reachable (stopped after {found}); \
                 raise the position limit"
            ),
            ExploreError::Limit { limit: Limit::Stop, .. } => {
                f.write_str("stopped before every position was found")
            }
            ExploreError::Limit { limit, found } => {
                write!(f, "{limit} after finding {found} positions")
            }
            ExploreError::Inconsistent { position, successor } => write!(
                f,
                "the move from {position} to {successor} was not found during exploration: \
                 the game's moves are not deterministic or its canonical form does not \
                 commute with them"
            ),
        }
    }
}

impl std::error::Error for ExploreError {}

/// Why a position could not be looked up in a solved game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryError {
    /// The text of the position could not be read.
    Parse(ParseError),
    /// The position cannot be reached from the start.
    Unreachable {
        /// The position, in the game's notation.
        position: String,
    },
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Parse(e) => e.fmt(f),
            QueryError::Unreachable { position } => {
                write!(f, "position {position} cannot be reached from the start")
            }
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Parse(e) => Some(e),
            QueryError::Unreachable { .. } => None,
        }
    }
}

impl From<ParseError> for QueryError {
    fn from(e: ParseError) -> QueryError {
        QueryError::Parse(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_give_line_and_column() {
        let one = ParseError::new(6, "unexpected 'Z'");
        assert_eq!(one.position(), Some(Position::new(1, 6)));
        assert_eq!(one.to_string(), "column 6: unexpected 'Z'");
        let two = ParseError::at(Position::new(2, 3), "a row has 3 cells");
        assert_eq!(
            (two.position(), two.message()),
            (Some(Position::new(2, 3)), "a row has 3 cells")
        );
        assert_eq!(two.to_string(), "line 2, column 3: a row has 3 cells");
    }
}
