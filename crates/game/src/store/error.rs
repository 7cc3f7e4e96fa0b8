//! Why a values file could not be written or read.

use std::io::ErrorKind;

use super::{MAX_IDENTITY, VERSION};

/// Why a values file could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileError {
    /// Reading or writing failed.
    Io {
        /// The kind of failure.
        kind: ErrorKind,
        /// The system's message.
        message: String,
    },
    /// The file does not start with the magic bytes of a values file.
    NotAValuesFile,
    /// The file has a version this library does not read.
    Version {
        /// The version found.
        found: u32,
    },
    /// The file ends too early.
    Truncated {
        /// The part that is cut: `header`, `index` or `blocks`.
        part: &'static str,
    },
    /// The checksum of the header and the index does not match.
    HeaderChecksum,
    /// The checksum of a block does not match.
    BlockChecksum {
        /// The block, from 0.
        block: usize,
    },
    /// A field holds an impossible value.
    Corrupt {
        /// What is wrong.
        reason: &'static str,
    },
    /// The file was written for another game: another [`identity`](crate::Game::identity)
    /// or [`numbering`](crate::Game::numbering), another start position, ranks where the
    /// game has none (or the other way round), or other ranks skipped.
    OtherGame {
        /// The game the file was written for, as its identity says it (with what differs
        /// when the identities are equal).
        file: String,
        /// The game it was opened with, likewise.
        game: String,
    },
    /// The game's identity is longer than a values file holds (1024 bytes).
    LongIdentity,
    /// The positions are not in the same order as their values as `u128`, which the file
    /// needs (true for every unsigned integer type).
    Unordered,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io { message, .. } => write!(f, "input/output error: {message}"),
            FileError::NotAValuesFile => f.write_str("not a values file (bad magic bytes)"),
            FileError::Version { found } if *found < VERSION => write!(
                f,
                "values file version {found}, written by an older gamegraph: only version \
                 {VERSION} is read (solve the game again to write it)"
            ),
            FileError::Version { found } => {
                write!(f, "values file version {found}, only version {VERSION} is read")
            }
            FileError::Truncated { part } => {
                write!(f, "the values file is truncated in its {part}")
            }
            FileError::HeaderChecksum => {
                f.write_str("the checksum of the values file's header and index does not match")
            }
            FileError::BlockChecksum { block } => {
                write!(f, "the checksum of block {block} of the values file does not match")
            }
            FileError::Corrupt { reason } => write!(f, "the values file is corrupt: {reason}"),
            FileError::OtherGame { file, game } => {
                write!(f, "values file written for {file}, not {game}")
            }
            FileError::LongIdentity => {
                write!(
                    f,
                    "the game's identity is longer than the {MAX_IDENTITY} bytes a values file holds"
                )
            }
            FileError::Unordered => {
                f.write_str("positions are not ordered as their u128 values, as the file needs")
            }
        }
    }
}

impl std::error::Error for FileError {}

impl From<std::io::Error> for FileError {
    fn from(e: std::io::Error) -> FileError {
        FileError::Io { kind: e.kind(), message: e.to_string() }
    }
}
