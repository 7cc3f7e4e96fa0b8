//! The errors of the octal and subtraction game module.

use std::fmt;

use gamegraph_graph::{Limit, Located, Position};

/// Why an octal code such as `0.77` or `4.07` was rejected.
///
/// Columns are 1-based character positions in the code as given.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodeError {
    /// The code is empty (or only white space).
    Empty,
    /// The code has no `.` separating the digit before the point from the others.
    MissingPoint,
    /// The code has no digit after the point.
    NoDigitsAfterPoint,
    /// A character that is not an octal digit `0`–`7`.
    NotOctal {
        /// 1-based column of the character.
        column: usize,
        /// The character found.
        found: char,
    },
    /// The digit before the point is not 0 or 4: a move that removes nothing may only split
    /// a heap into two non-empty heaps (bits 1 and 2 would make a heap vanish from nothing or
    /// pass the turn).
    BadLeadingDigit {
        /// The digit found.
        found: u8,
    },
    /// More than one digit before the point.
    LeadingTooLong,
    /// More digits after the point than supported.
    TooLong {
        /// The number of digits after the point.
        digits: usize,
        /// The largest number supported.
        max: usize,
    },
}

impl Located for CodeError {
    /// Line 1 and the 1-based column the error points at, when there is one (a code is one
    /// line).
    fn position(&self) -> Option<Position> {
        match self {
            CodeError::NotOctal { column, .. } => Some(Position::new(1, *column as u64)),
            _ => None,
        }
    }
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeError::Empty => f.write_str("empty octal code"),
            CodeError::MissingPoint => {
                f.write_str("an octal code needs a point, as in 0.77 or .07 or 4.07")
            }
            CodeError::NoDigitsAfterPoint => f.write_str("no digit after the point"),
            CodeError::NotOctal { column, found } => {
                write!(f, "column {column}: {found:?} is not an octal digit (0 to 7)")
            }
            CodeError::BadLeadingDigit { found } => write!(
                f,
                "the digit before the point must be 0 or 4 (split without removal), found {found}"
            ),
            CodeError::LeadingTooLong => f.write_str("only one digit may stand before the point"),
            CodeError::TooLong { digits, max } => {
                write!(f, "{digits} digits after the point, at most {max} are supported")
            }
        }
    }
}

impl std::error::Error for CodeError {}

/// Why a subtraction set such as `1,3,4` was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetError {
    /// The set is empty.
    Empty,
    /// An element is not a decimal number.
    NotANumber {
        /// 1-based position of the element in the list.
        index: usize,
        /// 1-based column where the element starts.
        column: usize,
        /// The text found.
        found: String,
    },
    /// An element is zero (removing nothing is not a move).
    Zero {
        /// 1-based position of the element in the list.
        index: usize,
    },
    /// An element is larger than supported.
    TooLarge {
        /// 1-based position of the element in the list.
        index: usize,
        /// The largest element supported.
        max: u64,
    },
    /// An element appears twice.
    Duplicate {
        /// The repeated element.
        value: u64,
    },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::Empty => f.write_str("empty subtraction set"),
            SetError::NotANumber { index, column, found } => {
                let found = gamegraph_graph::quote(found);
                write!(f, "column {column}: element {index} ({found}) is not a positive integer")
            }
            SetError::Zero { index } => {
                write!(f, "element {index} is 0, but a move must remove at least one object")
            }
            SetError::TooLarge { index, max } => {
                write!(f, "element {index} is larger than {max}")
            }
            SetError::Duplicate { value } => write!(f, "{value} appears twice in the set"),
        }
    }
}

impl std::error::Error for SetError {}

/// A failure while computing a Grundy sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SequenceError {
    /// A Grundy value does not fit the compact 16-bit storage.
    ValueTooLarge {
        /// The heap size whose value overflowed.
        heap: usize,
    },
    /// The requested number of values does not fit in memory on this platform.
    TooManyValues {
        /// The number requested.
        requested: u64,
    },
    /// The [`Config::deadline`](super::Config::deadline) passed before the computation
    /// ended ([`Limit::Time`]), or the stop flag of
    /// [`analyse_octal_until`](super::analyse_octal_until) or
    /// [`analyse_subtraction_until`](super::analyse_subtraction_until) was set
    /// ([`Limit::Stop`]).
    Limit {
        /// The limit reached.
        limit: Limit,
        /// How many values were computed by then.
        computed: usize,
    },
    /// `g(heap)` was asked for, but it is past the computed values and no period is proven.
    NotComputed {
        /// The heap asked for.
        heap: u64,
        /// How many values were computed.
        computed: usize,
    },
}

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SequenceError::ValueTooLarge { heap } => {
                write!(f, "the grundy value of heap {heap} does not fit in 16 bits (65535 at most)")
            }
            SequenceError::TooManyValues { requested } => {
                write!(f, "{requested} values do not fit in memory")
            }
            SequenceError::Limit { limit, computed } => {
                write!(f, "{limit} after computing {computed} values")
            }
            SequenceError::NotComputed { heap, computed } => write!(
                f,
                "g({heap}) is unknown: no period was proven within the {computed} values \
                 computed (raise the limit)"
            ),
        }
    }
}

impl std::error::Error for SequenceError {}
