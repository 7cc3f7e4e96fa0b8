//! The project's binary format: a header, the successor CSR arrays, a checksum.
//!
//! All integers are little-endian. Version 2 (written by this build; version 1 is still
//! read):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `\x89GGRAPH\n` (`89 47 47 52 41 50 48 0a`) |
//! | 8 | 4 | format version, `2` (u32) |
//! | 12 | 4 | flags (u32): bit 0 set when the file has a start vertex, bit 1 when it has the predecessor index, bit 2 when it has terminal values; other bits are 0 |
//! | 16 | 8 | `n`, the number of vertices (u64, at most `u32::MAX`) |
//! | 24 | 8 | `m`, the number of arcs (u64) |
//! | 32 | 8 | the start vertex, 0-based (u64; 0 when bit 0 of the flags is clear) |
//! | 40 | 8 (n + 1) | the CSR offsets (u64): 0, non-decreasing, ending at `m` |
//! | 40 + 8 (n + 1) | 4 m | the CSR targets (u32, 0-based, each below `n`) |
//! | | | with bit 1 only: 4 zero bytes when `m` is odd (alignment), then |
//! | `p` | 8 (n + 1) | the predecessor offsets (u64): 0, non-decreasing, ending at `m` |
//! | `p` + 8 (n + 1) | 4 m | the predecessor lists (u32 sources), each sorted |
//! | `t` | ⌈n / 4⌉ | with bit 2 only: the terminal values, 2 bits per vertex (see below) |
//! | end − 8 | 8 | the checksum of every byte before it |
//!
//! Nothing may follow the checksum.
//!
//! The terminal values (flag bit 2, version 2 only) give vertex `v` the code in bits
//! `2 (v mod 4)` and `2 (v mod 4) + 1` of byte `t + v / 4`: 0 no value (a loss), 1 win,
//! 2 loss, 3 tie, for the player to move there. Only a vertex without moves may have a
//! value, and the bits after the last vertex are 0.
//!
//! The predecessor index is optional ([`write_binary_with_predecessors`]): it saves the
//! solvers the transpose, at 4 bytes per arc and 8 per vertex of file. A reader checks it
//! against the successor lists in linear time, in parallel: offsets and sources in
//! range, every list sorted, and the multiset of its arcs equal to the successors' by a
//! hash keyed afresh at every load (a crafted file cannot aim at the key).
//!
//! The checksum of version 2 is a [`BlockChecksum`]: the bytes before it are cut into
//! blocks of [`BLOCK`] bytes, each block gets its own [`Checksum`], and the stored value is
//! the [`Checksum`] of those block checksums (little-endian u64s, in order). Blocks can be
//! checked independently, so a file is read and checked on all threads.
//! Version 1 has the same layout with the [`Checksum`] of all the bytes as one stream.

mod checksum;
mod mapped;
mod parts;
mod read;
mod write;

pub(crate) use self::checksum::Sum;
pub use self::checksum::{BlockChecksum, Checksum};
pub(crate) use self::mapped::map_binary_file;
pub use self::parts::{BinaryParts, Part, PartCheck};
pub(crate) use self::read::BlockRead;
use self::read::check_blocks;
pub(crate) use self::read::{read_binary, read_binary_file};
pub(crate) use self::write::write_parts_binary;
pub use self::write::{
    write_binary, write_binary_version, write_binary_with_predecessors, write_game_binary,
};

mod index;
use self::index::check_predecessors;

use crate::{ReadError, ReadErrorKind, Vertex};

/// The first 8 bytes of every binary graph file. The first byte is not ASCII, so no text
/// file starts like this; the final newline catches a text-mode transfer.
pub const MAGIC: [u8; 8] = *b"\x89GGRAPH\n";

/// The format version this build writes; it reads every version from 1 up to this one.
pub const VERSION: u32 = 2;

/// The bytes per block of the version-2 checksum (a multiple of 8, so that no offset or
/// target straddles two blocks).
pub const BLOCK: usize = 1 << 20;

/// The bytes the parallel reader of a file reads at a time (a divisor of [`BLOCK`]): each thread's
/// buffer, small enough to stay in the L2 cache.
const PIECE: usize = 1 << 18;

const HEADER_LEN: usize = 40;
const FLAG_START: u32 = 1;
const FLAG_PREDECESSORS: u32 = 2;
const FLAG_TERMINALS: u32 = 4;
/// The staging buffer of the chunked conversion, in bytes (a multiple of 32). As large as
/// the CLI's `BufReader`, which then hands reads of a whole chunk straight to the file.
const CHUNK: usize = 1 << 20;

fn corrupt(reason: impl Into<String>) -> ReadError {
    ReadError::new(ReadErrorKind::Corrupt { reason: reason.into() })
}

/// The u32 in the first 4 bytes of `b`, little-endian.
#[inline]
fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))
}

/// The u64 in the first 8 bytes of `b`, little-endian.
#[inline]
fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

/// Grows `v` so that it can take at least one more chunk, never beyond `total` items and
/// never by more than it already holds (plus one chunk): a header that lies about the sizes
/// costs at most about twice the bytes that are really in the file.
fn grow<T>(v: &mut Vec<T>, total: usize, chunk_items: usize) {
    if v.capacity() - v.len() < chunk_items {
        let want = (total - v.len()).min(v.len().max(chunk_items));
        v.reserve_exact(want);
    }
}

/// What the 40 header bytes say, checked against each other.
#[derive(Debug, Clone, Copy)]
struct Header {
    version: u32,
    n: usize,
    m: usize,
    start: Option<Vertex>,
    /// The file holds the predecessor index.
    predecessors: bool,
    /// The file holds terminal values.
    terminals: bool,
}

impl Header {
    /// Where the arc targets start, in bytes.
    fn targets_at(&self) -> u64 {
        HEADER_LEN as u64 + 8 * (self.n as u64 + 1)
    }

    /// Where the predecessor offsets start (8-aligned), in bytes.
    fn predecessors_at(&self) -> u64 {
        (self.targets_at() + 4 * self.m as u64).next_multiple_of(8)
    }

    /// Where the predecessor lists start, in bytes.
    fn sources_at(&self) -> u64 {
        self.predecessors_at() + 8 * (self.n as u64 + 1)
    }

    /// Where the terminal values start (when the file has them), in bytes.
    fn terminals_at(&self) -> u64 {
        if self.predecessors {
            self.sources_at() + 4 * self.m as u64
        } else {
            self.targets_at() + 4 * self.m as u64
        }
    }

    /// The bytes of the terminal values.
    fn terminals_len(&self) -> usize {
        if self.terminals { self.n.div_ceil(4) } else { 0 }
    }

    /// Where the checksum starts, in bytes.
    fn checksum_at(&self) -> u64 {
        self.terminals_at() + self.terminals_len() as u64
    }
}

/// Checks the header (magic included) in the order the errors are documented.
fn parse_header(header: &[u8; HEADER_LEN]) -> Result<Header, ReadError> {
    if header[..8] != MAGIC {
        return Err(wrong_magic());
    }
    let version = le_u32(&header[8..]);
    if !(1..=VERSION).contains(&version) {
        return Err(ReadError::new(ReadErrorKind::UnsupportedVersion {
            found: version,
            supported: VERSION,
        }));
    }
    let flags = le_u32(&header[12..]);
    if flags & !(FLAG_START | FLAG_PREDECESSORS | FLAG_TERMINALS) != 0 {
        return Err(corrupt(format!("unknown flags {flags:#x} in the header")));
    }
    let n = le_u64(&header[16..]);
    let m = le_u64(&header[24..]);
    let start = le_u64(&header[32..]);
    if n > Vertex::MAX_VERTICES as u64 {
        return Err(corrupt(format!("the header says {n} vertices, more than {}", u32::MAX)));
    }
    if m > (isize::MAX as u64) / 8 {
        return Err(corrupt(format!("the header says {m} arcs, more than fit in memory")));
    }
    let start = if flags & FLAG_START != 0 {
        if start >= n {
            return Err(corrupt(format!(
                "the start vertex {} is outside 1..{n}",
                start.saturating_add(1)
            )));
        }
        Some(Vertex(start as u32))
    } else {
        if start != 0 {
            return Err(corrupt("a start vertex is given but the flags say there is none"));
        }
        None
    };
    let predecessors = flags & FLAG_PREDECESSORS != 0;
    if predecessors && version < 2 {
        return Err(corrupt("a version-1 file cannot hold the predecessor index"));
    }
    let terminals = flags & FLAG_TERMINALS != 0;
    if terminals && version < 2 {
        return Err(corrupt("a version-1 file cannot hold terminal values"));
    }
    Ok(Header { version, n: n as usize, m: m as usize, start, predecessors, terminals })
}

/// The terminal values of a file, checked against its graph.
fn terminals(g: &crate::Graph, bits: Vec<u8>) -> Result<crate::format::Terminals, ReadError> {
    crate::format::Terminals::from_bits(g, bits).map_err(corrupt)
}

fn wrong_magic() -> ReadError {
    corrupt("not a gamegraph binary graph (wrong magic number)")
}

fn checksum_mismatch(stored: u64, computed: u64) -> ReadError {
    corrupt(format!("checksum mismatch (stored {stored:#018x}, computed {computed:#018x})"))
}

fn bad_offsets() -> ReadError {
    corrupt("the CSR offsets do not run from 0 up to the number of arcs")
}

fn bad_target(max_target: u32, n: usize) -> ReadError {
    corrupt(format!("an arc target {} is outside 1..{n}", u64::from(max_target) + 1))
}
