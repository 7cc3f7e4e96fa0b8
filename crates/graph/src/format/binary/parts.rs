//! A binary file read in parts: the successor lists of a range of vertices at a time, by
//! position, and the checksum block by block, so that several readers (the processes of
//! a cluster) can share one file and each hold only its part.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;

use super::{
    BLOCK, Checksum, HEADER_LEN, Header, PIECE, bad_offsets, bad_target, checksum_mismatch,
    parse_header, read_binary_file,
};
use crate::{ReadError, Vertex};

/// A binary graph file whose header has been checked and whose length matches it, ready
/// to be read in parts ([`BinaryParts::read_part`]) and checked block by block
/// ([`BinaryParts::block_sum`], [`BinaryParts::verdict`]).
///
/// The file is checked as a whole only by [`BinaryParts::verdict`], from what the readers
/// of all its parts and blocks found: until it has said `Ok`, a [`Part`] is not to be
/// trusted. The predecessor index, when the file holds one, is covered by the checksum but
/// neither read nor checked against the successor lists.
///
/// ```
/// use gamegraph_graph::format::binary::{BinaryParts, write_binary};
/// use gamegraph_graph::{Graph, Vertex};
///
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2)), (Vertex(2), Vertex(0))]).unwrap();
/// let path = std::env::temp_dir().join(format!("parts-doc-{}.bin", std::process::id()));
/// write_binary(std::fs::File::create(&path).unwrap(), &g, None).unwrap();
/// let file = BinaryParts::open(std::fs::File::open(&path).unwrap()).unwrap();
/// let (a, b) = (file.read_part(0..1).unwrap(), file.read_part(1..3).unwrap());
/// assert_eq!(b.offsets, [1, 2, 3]);
/// assert_eq!(b.targets, [Vertex(2), Vertex(0)]);
/// let sums: Vec<u64> = (0..file.num_blocks()).map(|i| file.block_sum(i).unwrap()).collect();
/// file.verdict(&sums, &[a.check, b.check]).unwrap();
/// # std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct BinaryParts {
    file: File,
    header: Header,
}

/// The successor lists of the vertices `lo..hi` of a binary file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The offsets of the vertices `lo..=hi` as the file holds them (arc numbers of the
    /// whole graph): the successors of vertex `lo + i` are
    /// `targets[offsets[i] - offsets[0] .. offsets[i + 1] - offsets[0]]`.
    pub offsets: Vec<u64>,
    /// The targets of the arcs `offsets[0]..offsets[hi - lo]`; empty when the offsets are
    /// not sorted or pass the number of arcs.
    pub targets: Vec<Vertex>,
    /// What [`BinaryParts::verdict`] needs to know of it.
    pub check: PartCheck,
}

/// What reading a part found, for [`BinaryParts::verdict`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartCheck {
    /// The first and last offsets of the part.
    pub first: u64,
    /// The last offset.
    pub last: u64,
    /// The offsets are non-decreasing and at most the number of arcs.
    pub sorted: bool,
    /// The largest target, `None` for none.
    pub max_target: Option<u32>,
}

fn io_error(e: io::Error) -> ReadError {
    ReadError::from(match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            io::Error::new(e.kind(), "the file shrank while it was being read")
        }
        _ => e,
    })
}

impl BinaryParts {
    /// Checks the header of a binary file and that its length matches it.
    ///
    /// # Errors
    /// When the header is bad or the length does not match, the file is read whole by
    /// the parallel reader of binary files to find the error, so the errors are that reader's; a
    /// [`ReadErrorKind::Io`](crate::ReadErrorKind::Io) when the file cannot be read.
    pub fn open(file: File) -> Result<BinaryParts, ReadError> {
        let len = file.metadata().map_err(io_error)?.len();
        BinaryParts::with_len(file, len)
    }

    /// [`BinaryParts::open`] for a file whose length is known.
    pub(crate) fn with_len(file: File, len: u64) -> Result<BinaryParts, ReadError> {
        let mut bytes = [0u8; HEADER_LEN];
        if len >= HEADER_LEN as u64 + 8 {
            file.read_exact_at(&mut bytes, 0).map_err(io_error)?;
            if let Ok(header) = parse_header(&bytes)
                && header.checksum_at().checked_add(8) == Some(len)
            {
                return Ok(BinaryParts { file, header });
            }
        }
        match read_binary_file(&file, len, &|_| {}) {
            Err(e) => Err(e),
            Ok(_) => {
                Err(ReadError::from(io::Error::other("the file changed while it was being read")))
            }
        }
    }

    /// The number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.header.n
    }

    /// The number of arcs.
    pub fn num_arcs(&self) -> usize {
        self.header.m
    }

    /// The start vertex, if the file has one.
    pub fn start(&self) -> Option<Vertex> {
        self.header.start
    }

    /// The format version of the file.
    pub fn version(&self) -> u32 {
        self.header.version
    }

    /// Whether the file holds terminal values (flag bit 2). The checksum covers them, but
    /// the parts neither read nor check them: a reader that needs them reads the whole
    /// file.
    pub fn has_terminal_values(&self) -> bool {
        self.header.terminals
    }

    /// Reads the successor lists of the vertices `range` (within `0..n`).
    ///
    /// # Errors
    /// [`ReadErrorKind::Io`](crate::ReadErrorKind::Io) only: what the bytes say is judged by
    /// [`BinaryParts::verdict`].
    ///
    /// # Panics
    /// When `range` is not within `0..n`.
    ///
    /// # Complexity
    /// O(k + a) for k vertices and a arcs; the part's arrays and a 256 KiB buffer.
    pub fn read_part(&self, range: Range<usize>) -> Result<Part, ReadError> {
        let (lo, hi) = (range.start, range.end);
        assert!(lo <= hi && hi <= self.header.n, "vertices {lo}..{hi} outside the graph");
        let m = self.header.m as u64;
        let mut offsets = Vec::with_capacity(hi - lo + 1);
        self.read_words(HEADER_LEN as u64 + 8 * lo as u64, hi - lo + 1, |c: [u8; 8]| {
            offsets.push(u64::from_le_bytes(c));
        })?;
        let (first, last) = (offsets[0], offsets[hi - lo]);
        let sorted = offsets.windows(2).all(|w| w[0] <= w[1]) && last <= m;
        let mut targets = Vec::new();
        let mut max_target = None;
        if sorted {
            targets.reserve_exact((last - first) as usize);
            let at = self.header.targets_at() + 4 * first;
            self.read_words(at, (last - first) as usize, |c: [u8; 4]| {
                targets.push(Vertex(u32::from_le_bytes(c)));
            })?;
            max_target = targets.iter().map(|t| t.0).max();
        }
        Ok(Part { offsets, targets, check: PartCheck { first, last, sorted, max_target } })
    }

    /// Reads `count` little-endian words of `W` bytes from byte `at` on.
    fn read_words<const W: usize>(
        &self,
        mut at: u64,
        count: usize,
        mut each: impl FnMut([u8; W]),
    ) -> Result<(), ReadError> {
        let mut buf = vec![0u8; PIECE.min(count * W)];
        let mut left = count * W;
        while left > 0 {
            let bytes = &mut buf[..left.min(PIECE)];
            self.file.read_exact_at(bytes, at).map_err(io_error)?;
            bytes.as_chunks::<W>().0.iter().for_each(|c| each(*c));
            at += bytes.len() as u64;
            left -= bytes.len();
        }
        Ok(())
    }

    /// The number of checksum blocks: the 1 MiB blocks of a version-2 file, or 1 for a
    /// version-1 file (whose checksum is of all the bytes as one stream).
    pub fn num_blocks(&self) -> usize {
        let end = self.header.checksum_at();
        if self.header.version >= 2 { end.div_ceil(BLOCK as u64) as usize } else { 1 }
    }

    /// The checksum of block `i` (of `0..num_blocks()`).
    ///
    /// # Errors
    /// [`ReadErrorKind::Io`](crate::ReadErrorKind::Io).
    ///
    /// # Complexity
    /// O(block size) time; a 256 KiB buffer.
    pub fn block_sum(&self, i: usize) -> Result<u64, ReadError> {
        let end = self.header.checksum_at();
        let (mut at, stop) = if self.header.version >= 2 {
            let at = i as u64 * BLOCK as u64;
            (at, (at + BLOCK as u64).min(end))
        } else {
            (0, end)
        };
        let mut sum = Checksum::new();
        let mut buf = vec![0u8; PIECE];
        while at < stop {
            let bytes = &mut buf[..(stop - at).min(PIECE as u64) as usize];
            self.file.read_exact_at(bytes, at).map_err(io_error)?;
            sum.update(bytes);
            at += bytes.len() as u64;
        }
        Ok(sum.finish())
    }

    /// Judges the whole file from the checksums of all its blocks (in order) and the
    /// checks of parts that cover its vertices in order (`0..a`, `a..b`, …, `..n`), in
    /// the order the binary reader checks it: the checksum, then the
    /// offsets (from 0, non-decreasing, up to the number of arcs), then the targets.
    ///
    /// # Errors
    /// Those of [`format::read`](crate::format::read) for the same file, and
    /// [`ReadErrorKind::Io`](crate::ReadErrorKind::Io) when the stored checksum cannot be read.
    ///
    /// # Panics
    /// When `sums` does not hold [`BinaryParts::num_blocks`] values or `parts` is empty.
    pub fn verdict(&self, sums: &[u64], parts: &[PartCheck]) -> Result<(), ReadError> {
        assert_eq!(sums.len(), self.num_blocks(), "one checksum per block");
        assert!(!parts.is_empty(), "at least one part");
        let mut stored = [0u8; 8];
        self.file.read_exact_at(&mut stored, self.header.checksum_at()).map_err(io_error)?;
        let stored = u64::from_le_bytes(stored);
        let computed = if self.header.version >= 2 {
            let mut sum = Checksum::new();
            sums.iter().for_each(|s| sum.update(&s.to_le_bytes()));
            sum.finish()
        } else {
            sums[0]
        };
        if stored != computed {
            return Err(checksum_mismatch(stored, computed));
        }
        let chained = parts.windows(2).all(|w| w[0].last == w[1].first);
        if !chained
            || parts.iter().any(|p| !p.sorted)
            || parts[0].first != 0
            || parts[parts.len() - 1].last != self.header.m as u64
        {
            return Err(bad_offsets());
        }
        if let Some(max) = parts.iter().filter_map(|p| p.max_target).max()
            && max as usize >= self.header.n
        {
            return Err(bad_target(max, self.header.n));
        }
        Ok(())
    }
}
