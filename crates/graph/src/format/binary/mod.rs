//! The project's binary format: a header, the successor CSR arrays, a checksum.
//!
//! All integers are little-endian. Version 2 (written by this build; version 1 is still
//! read):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `\x89GGRAPH\n` (`89 47 47 52 41 50 48 0a`) |
//! | 8 | 4 | format version, `2` (u32) |
//! | 12 | 4 | flags (u32): bit 0 set when the file has a start vertex; other bits are 0 |
//! | 16 | 8 | `n`, the number of vertices (u64, at most `u32::MAX`) |
//! | 24 | 8 | `m`, the number of arcs (u64) |
//! | 32 | 8 | the start vertex, 0-based (u64; 0 when bit 0 of the flags is clear) |
//! | 40 | 8 (n + 1) | the CSR offsets (u64): 0, non-decreasing, ending at `m` |
//! | 40 + 8 (n + 1) | 4 m | the CSR targets (u32, 0-based, each below `n`) |
//! | end − 8 | 8 | the checksum of every byte before it |
//!
//! Nothing may follow the checksum.
//!
//! The checksum of version 2 is a [`BlockChecksum`]: the bytes before it are cut into
//! blocks of [`BLOCK`] bytes, each block gets its own [`Checksum`], and the stored value is
//! the [`Checksum`] of those block checksums (little-endian u64s, in order). Blocks can be
//! checked independently, so [`read_binary_file`] reads and checks a file on all threads.
//! Version 1 has the same layout with the [`Checksum`] of all the bytes as one stream.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::fs::FileExt;

mod mapped;
pub(crate) use self::mapped::map_binary_file;

use rayon::prelude::*;

use super::GameFile;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

/// The first 8 bytes of every binary graph file. The first byte is not ASCII, so no text
/// file starts like this; the final newline catches a text-mode transfer.
pub const MAGIC: [u8; 8] = *b"\x89GGRAPH\n";

/// The format version this build writes; it reads every version from 1 up to this one.
pub const VERSION: u32 = 2;

/// The bytes per block of the version-2 checksum (a multiple of 8, so that no offset or
/// target straddles two blocks).
pub const BLOCK: usize = 1 << 20;

/// The bytes [`read_binary_file`] reads at a time (a divisor of [`BLOCK`]): each thread's
/// buffer, small enough to stay in the L2 cache.
const PIECE: usize = 1 << 18;

const HEADER_LEN: usize = 40;
const FLAG_START: u32 = 1;
/// The staging buffer of the chunked conversion, in bytes (a multiple of 32). As large as
/// the CLI's `BufReader`, which then hands reads of a whole chunk straight to the file.
const CHUNK: usize = 1 << 20;

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;

/// The binary format's checksum: a 64-bit hash of a byte stream, fast (several GB/s)
/// and sensitive to every bit, but not cryptographic.
///
/// The stream is cut into 32-byte stripes of four little-endian u64 words; word `i` of
/// every stripe goes into lane `i` by `lane = rotl(lane + word * P2, 31) * P1` (the
/// round of xxHash64, whose constants it borrows; the result is not xxHash64). The final
/// partial stripe is zero-padded. The four lanes are then folded with rotations, the total
/// length is mixed in, and the SplitMix64 finaliser spreads every input bit over the
/// output.
#[derive(Debug, Clone)]
pub struct Checksum {
    lanes: [u64; 4],
    pending: [u8; 32],
    pending_len: usize,
    total: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

impl Checksum {
    /// The checksum of the empty stream, ready for [`Checksum::update`].
    pub fn new() -> Checksum {
        Checksum {
            lanes: [P1.wrapping_add(P2), P2, 0, P1.wrapping_neg()],
            pending: [0; 32],
            pending_len: 0,
            total: 0,
        }
    }

    /// The checksum of `data`.
    pub fn of(data: &[u8]) -> u64 {
        let mut sum = Checksum::new();
        sum.update(data);
        sum.finish()
    }

    #[inline]
    fn stripe(lanes: &mut [u64; 4], s: &[u8; 32]) {
        for (lane, w) in lanes.iter_mut().zip(s.as_chunks::<8>().0) {
            let w = u64::from_le_bytes(*w);
            *lane = lane.wrapping_add(w.wrapping_mul(P2)).rotate_left(31).wrapping_mul(P1);
        }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.pending_len > 0 {
            let take = (32 - self.pending_len).min(data.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&data[..take]);
            self.pending_len += take;
            data = &data[take..];
            if self.pending_len < 32 {
                return;
            }
            let p = self.pending;
            Self::stripe(&mut self.lanes, &p);
            self.pending_len = 0;
        }
        let (stripes, rest) = data.as_chunks::<32>();
        for s in stripes {
            Self::stripe(&mut self.lanes, s);
        }
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The checksum of everything fed so far.
    pub fn finish(&self) -> u64 {
        let mut lanes = self.lanes;
        if self.pending_len > 0 {
            let mut last = [0u8; 32];
            last[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            Self::stripe(&mut lanes, &last);
        }
        let mut h = lanes[0]
            .rotate_left(1)
            .wrapping_add(lanes[1].rotate_left(7))
            .wrapping_add(lanes[2].rotate_left(12))
            .wrapping_add(lanes[3].rotate_left(18));
        h ^= self.total.wrapping_mul(P3);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }
}

/// The checksum of format version 2, fed as a stream: the [`Checksum`] of the
/// [`Checksum`]s of consecutive [`BLOCK`]-byte blocks (the last one may be shorter), each
/// as 8 little-endian bytes.
#[derive(Debug, Clone, Default)]
pub struct BlockChecksum {
    blocks: Checksum,
    block: Checksum,
    in_block: usize,
}

impl BlockChecksum {
    /// The checksum of the empty stream, ready for [`BlockChecksum::update`].
    pub fn new() -> BlockChecksum {
        BlockChecksum::default()
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (BLOCK - self.in_block).min(data.len());
            self.block.update(&data[..take]);
            self.in_block += take;
            data = &data[take..];
            if self.in_block == BLOCK {
                self.blocks.update(&self.block.finish().to_le_bytes());
                self.block = Checksum::new();
                self.in_block = 0;
            }
        }
    }

    /// The checksum of everything fed so far.
    pub fn finish(&self) -> u64 {
        let mut blocks = self.blocks.clone();
        if self.in_block > 0 {
            blocks.update(&self.block.finish().to_le_bytes());
        }
        blocks.finish()
    }
}

/// The running checksum of one format version.
#[derive(Debug, Clone)]
enum Sum {
    V1(Checksum),
    V2(BlockChecksum),
}

impl Sum {
    fn new(version: u32) -> Sum {
        if version == 1 { Sum::V1(Checksum::new()) } else { Sum::V2(BlockChecksum::new()) }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Sum::V1(s) => s.update(data),
            Sum::V2(s) => s.update(data),
        }
    }

    fn finish(&self) -> u64 {
        match self {
            Sum::V1(s) => s.finish(),
            Sum::V2(s) => s.finish(),
        }
    }
}

/// Writes `g` (and `start`, if any) in the binary format, version [`VERSION`].
///
/// # Errors
/// Any error of `w`.
///
/// # Complexity
/// O(n + m) time, O(1) extra space (a 1 MiB staging buffer).
pub fn write_binary(w: impl Write, g: &Graph, start: Option<Vertex>) -> io::Result<()> {
    write_binary_version(w, g, start, VERSION)
}

/// [`write_binary`] in an older format `version` (1 or 2), for tools that must write files
/// older builds read.
///
/// # Errors
/// Any error of `w`; [`io::ErrorKind::InvalidInput`] for an unknown version or a start
/// vertex outside the graph.
///
/// # Complexity
/// O(n + m) time, O(1) extra space (a 1 MiB staging buffer).
pub fn write_binary_version(
    mut w: impl Write,
    g: &Graph,
    start: Option<Vertex>,
    version: u32,
) -> io::Result<()> {
    if !(1..=VERSION).contains(&version) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("binary format version {version} does not exist (1 to {VERSION})"),
        ));
    }
    if let Some(s) = start
        && s.index() >= g.num_vertices()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("start vertex {} is outside 1..{}", s.one_based(), g.num_vertices()),
        ));
    }
    let (offsets, targets) = g.successor_csr();
    let mut sum = Sum::new(version);
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&version.to_le_bytes());
    header.extend_from_slice(&(if start.is_some() { FLAG_START } else { 0 }).to_le_bytes());
    header.extend_from_slice(&(g.num_vertices() as u64).to_le_bytes());
    header.extend_from_slice(&(g.num_arcs() as u64).to_le_bytes());
    header.extend_from_slice(&start.map_or(0, |s| u64::from(s.0)).to_le_bytes());
    sum.update(&header);
    w.write_all(&header)?;
    let mut buf = Vec::with_capacity(CHUNK);
    for part in offsets.chunks(CHUNK / 8) {
        buf.clear();
        buf.extend(part.iter().flat_map(|x| x.to_le_bytes()));
        sum.update(&buf);
        w.write_all(&buf)?;
    }
    for part in targets.chunks(CHUNK / 4) {
        buf.clear();
        buf.extend(part.iter().flat_map(|t| t.0.to_le_bytes()));
        sum.update(&buf);
        w.write_all(&buf)?;
    }
    w.write_all(&sum.finish().to_le_bytes())
}

/// A reader that hashes and counts what it hands out.
struct Source<R> {
    reader: R,
    sum: Sum,
    offset: u64,
}

impl<R: Read> Source<R> {
    /// Fills `buf` completely, or fails with [`ReadErrorKind::Truncated`] naming `what`.
    fn fill(&mut self, buf: &mut [u8], what: &str, hash: bool) -> Result<(), ReadError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.reader.read(&mut buf[filled..]) {
                Ok(0) => {
                    return Err(ReadError::new(ReadErrorKind::Truncated {
                        what: what.to_owned(),
                        offset: self.offset + filled as u64,
                    }));
                }
                Ok(k) => filled += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::new(ReadErrorKind::Io(e.to_string()))),
            }
        }
        if hash {
            self.sum.update(buf);
        }
        self.offset += buf.len() as u64;
        Ok(())
    }

    /// Whether anything at all is left.
    fn at_end(&mut self) -> Result<bool, ReadError> {
        let mut one = [0u8; 1];
        loop {
            match self.reader.read(&mut one) {
                Ok(k) => return Ok(k == 0),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::new(ReadErrorKind::Io(e.to_string()))),
            }
        }
    }
}

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
}

impl Header {
    /// Where the arc targets start, in bytes.
    fn targets_at(&self) -> u64 {
        HEADER_LEN as u64 + 8 * (self.n as u64 + 1)
    }

    /// Where the checksum starts, in bytes.
    fn checksum_at(&self) -> u64 {
        self.targets_at() + 4 * self.m as u64
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
    if flags & !FLAG_START != 0 {
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
    Ok(Header { version, n: n as usize, m: m as usize, start })
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

/// Reads a graph in the binary format, any version (see the [module docs](self) for the
/// layout), as a stream.
///
/// Nothing is trusted before it is checked: the header's sizes only bound how much is
/// read, the arrays are allocated as their bytes arrive, and a graph is returned only
/// when the checksum matches and the CSR invariants hold.
///
/// # Errors
/// [`ReadErrorKind::Corrupt`] for a wrong magic, unknown flags, impossible sizes, a
/// checksum mismatch, invalid arrays or bytes after the checksum (in that order of
/// checking); [`ReadErrorKind::UnsupportedVersion`]; [`ReadErrorKind::Truncated`] (with
/// the part being read and the file's length) for a file cut short;
/// [`ReadErrorKind::Io`] when reading fails.
///
/// # Complexity
/// O(n + m) time, on the calling thread. Extra space: a 1 MiB staging buffer, and
/// capacity that grows at most to the final arrays' size.
pub fn read_binary(reader: impl Read) -> Result<GameFile, ReadError> {
    let mut src = Source { reader, sum: Sum::new(VERSION), offset: 0 };
    let mut header = [0u8; HEADER_LEN];
    src.fill(&mut header[..8], "the magic number", false)?;
    if header[..8] != MAGIC {
        return Err(wrong_magic());
    }
    src.fill(&mut header[8..], "the header", false)?;
    let Header { version, n, m, start } = parse_header(&header)?;
    src.sum = Sum::new(version);
    src.sum.update(&header);

    let mut buf = vec![0u8; CHUNK];
    // Offsets: read, convert and check in chunks. Structural problems are reported only
    // after the checksum, so that damage is named as such.
    let mut offsets: Vec<u64> = Vec::new();
    let mut bad_offsets_seen = false;
    let mut prev = 0u64;
    while offsets.len() < n + 1 {
        let items = (n + 1 - offsets.len()).min(CHUNK / 8);
        let bytes = &mut buf[..items * 8];
        src.fill(bytes, "the CSR offsets", true)?;
        grow(&mut offsets, n + 1, items);
        let first = offsets.len();
        offsets.extend(bytes.as_chunks::<8>().0.iter().map(|c| u64::from_le_bytes(*c)));
        for &x in &offsets[first..] {
            bad_offsets_seen |= x < prev;
            prev = x;
        }
    }
    bad_offsets_seen |= offsets[0] != 0 || prev != m as u64;
    let mut targets: Vec<Vertex> = Vec::new();
    let mut max_target = 0u32;
    while targets.len() < m {
        let items = (m - targets.len()).min(CHUNK / 4);
        let bytes = &mut buf[..items * 4];
        src.fill(bytes, "the arc targets", true)?;
        grow(&mut targets, m, items);
        let first = targets.len();
        targets.extend(bytes.as_chunks::<4>().0.iter().map(|c| Vertex(u32::from_le_bytes(*c))));
        max_target = targets[first..].iter().map(|t| t.0).fold(max_target, u32::max);
    }
    let computed = src.sum.finish();
    let mut stored = [0u8; 8];
    src.fill(&mut stored, "the checksum", false)?;
    let stored = u64::from_le_bytes(stored);
    if stored != computed {
        return Err(checksum_mismatch(stored, computed));
    }
    if bad_offsets_seen {
        return Err(bad_offsets());
    }
    if m > 0 && max_target as usize >= n {
        return Err(bad_target(max_target, n));
    }
    if !src.at_end()? {
        return Err(corrupt(format!("unexpected bytes after the checksum at byte {}", src.offset)));
    }
    Ok(GameFile { graph: Graph::from_csr_trusted(offsets, targets), start })
}

/// `Read` over a file by position, leaving the file's own cursor alone.
struct At<'a> {
    file: &'a File,
    pos: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.file.read_at(buf, self.pos)?;
        self.pos += k as u64;
        Ok(k)
    }
}

/// What reading one block found.
struct BlockRead {
    sum: u64,
    /// The first and last offsets of the block, when it has any, and whether the offsets
    /// inside it are non-decreasing.
    offsets: Option<(u64, u64, bool)>,
    max_target: Option<u32>,
}

/// Reads a graph in the binary format from a file, on the current rayon pool: a
/// version-2 file whose length matches its header is read block by block by every
/// thread, each block hashed and converted straight into the final arrays. Anything else
/// (version 1, a wrong length, a bad header) is read by [`read_binary`], so the errors are
/// the same. `progress` is told how many bytes each finished block had.
///
/// # Errors
/// Those of [`read_binary`].
///
/// # Complexity
/// O(n + m) work, O((n + m) / p) time on p threads. Extra space: one 1 MiB buffer per
/// thread.
pub fn read_binary_file(
    file: &File,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GameFile, ReadError> {
    let io_error = |e: io::Error| ReadError::new(ReadErrorKind::Io(e.to_string()));
    let len = file.metadata().map_err(io_error)?.len();
    let streaming = || read_binary(io::BufReader::with_capacity(CHUNK, At { file, pos: 0 }));
    let mut header = [0u8; HEADER_LEN];
    if len < HEADER_LEN as u64 {
        return streaming();
    }
    file.read_exact_at(&mut header, 0).map_err(io_error)?;
    let h = match parse_header(&header) {
        Ok(h) if h.version >= 2 && h.checksum_at().checked_add(8) == Some(len) => h,
        _ => return streaming(),
    };
    let (n, m) = (h.n, h.m);
    let targets_at = h.targets_at();
    let end = h.checksum_at();

    // A zeroed allocation is fresh pages that nothing touches before the blocks fill them;
    // the targets (not an integer type, so written) are zeroed in parallel, which spreads
    // their page faults over the threads.
    let mut offsets = vec![0u64; n + 1];
    let mut targets: Vec<Vertex> = Vec::with_capacity(m);
    targets.par_extend(rayon::iter::repeat_n(Vertex(0), m));
    // The offsets and targets held by the file bytes `at..stop`.
    let split = |at: u64, stop: u64| {
        let in_offsets = stop.min(targets_at).saturating_sub(at.max(HEADER_LEN as u64)) / 8;
        let in_targets = stop.saturating_sub(at.max(targets_at)) / 4;
        (in_offsets as usize, in_targets as usize)
    };
    // Block b: file bytes b * BLOCK.., and the parts of the arrays they hold.
    let mut jobs: Vec<(u64, &mut [u64], &mut [Vertex])> = Vec::new();
    let (mut off_rest, mut targets_rest) = (&mut offsets[..], &mut targets[..]);
    let mut at = 0u64;
    while at < end {
        let stop = (at + BLOCK as u64).min(end);
        let (k_off, k_tgt) = split(at, stop);
        let (o, orest) = off_rest.split_at_mut(k_off);
        let (t, trest) = targets_rest.split_at_mut(k_tgt);
        (off_rest, targets_rest) = (orest, trest);
        jobs.push((at, o, t));
        at = stop;
    }
    let blocks: Vec<BlockRead> = jobs
        .into_par_iter()
        .map_init(
            || vec![0u8; PIECE],
            |buf, (block_at, offs, targets)| {
                let block_end = (block_at + BLOCK as u64).min(end);
                let mut sum = Checksum::new();
                let (mut o_rest, mut t_rest) = (&mut offs[..], &mut targets[..]);
                let mut at = block_at;
                while at < block_end {
                    let stop = (at + PIECE as u64).min(block_end);
                    let bytes = &mut buf[..(stop - at) as usize];
                    file.read_exact_at(bytes, at).map_err(|e| match e.kind() {
                        io::ErrorKind::UnexpectedEof => {
                            io_error(io::Error::other("the file shrank while it was being read"))
                        }
                        _ => io_error(e),
                    })?;
                    sum.update(bytes);
                    let (k_off, k_tgt) = split(at, stop);
                    let (o, orest) = std::mem::take(&mut o_rest).split_at_mut(k_off);
                    let (t, trest) = std::mem::take(&mut t_rest).split_at_mut(k_tgt);
                    (o_rest, t_rest) = (orest, trest);
                    let body = &bytes[(HEADER_LEN as u64).saturating_sub(at) as usize..];
                    let (ob, tb) = body.split_at(o.len() * 8);
                    for (o, c) in o.iter_mut().zip(ob.as_chunks::<8>().0) {
                        *o = u64::from_le_bytes(*c);
                    }
                    for (t, c) in t.iter_mut().zip(tb.as_chunks::<4>().0) {
                        *t = Vertex(u32::from_le_bytes(*c));
                    }
                    progress(stop - at);
                    at = stop;
                }
                let offsets = offs.first().map(|&first| {
                    let sorted = offs.windows(2).all(|w| w[0] <= w[1]);
                    (first, offs[offs.len() - 1], sorted)
                });
                let max_target = targets.iter().map(|t| t.0).max();
                Ok(BlockRead { sum: sum.finish(), offsets, max_target })
            },
        )
        .collect::<Result<_, ReadError>>()?;

    let mut stored = [0u8; 8];
    file.read_exact_at(&mut stored, end).map_err(io_error)?;
    check_blocks(&blocks, u64::from_le_bytes(stored), offsets[0], n, m)?;
    Ok(GameFile { graph: Graph::from_csr_trusted(offsets, targets), start: h.start })
}

/// Checks what the blocks of a version-2 file found, in the order [`read_binary`] checks
/// it: the checksum against the `stored` one, then the offsets (from `first_offset`, 0,
/// non-decreasing, ending at `m`), then the targets (below `n`).
fn check_blocks(
    blocks: &[BlockRead],
    stored: u64,
    first_offset: u64,
    n: usize,
    m: usize,
) -> Result<(), ReadError> {
    let mut sum = Checksum::new();
    blocks.iter().for_each(|b| sum.update(&b.sum.to_le_bytes()));
    let computed = sum.finish();
    if stored != computed {
        return Err(checksum_mismatch(stored, computed));
    }
    let mut prev = 0u64;
    let mut sorted = true;
    for (first, last, inside) in blocks.iter().filter_map(|b| b.offsets) {
        sorted &= inside && prev <= first;
        prev = last;
    }
    if !sorted || first_offset != 0 || prev != m as u64 {
        return Err(bad_offsets());
    }
    if let Some(max_target) = blocks.iter().filter_map(|b| b.max_target).max()
        && max_target as usize >= n
    {
        return Err(bad_target(max_target, n));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_is_independent_of_how_the_stream_is_cut() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 3) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&data);
        for cut in [1, 5, 31, 32, 33, 100] {
            let mut parts = Checksum::new();
            for c in data.chunks(cut) {
                parts.update(c);
            }
            assert_eq!(parts.finish(), whole.finish(), "cut {cut}");
        }
        let mut shorter = Checksum::new();
        shorter.update(&data[..999]);
        assert_ne!(shorter.finish(), whole.finish());
        // Zero padding must not make a stream equal to its zero-extended self.
        let mut zero = Checksum::new();
        zero.update(&[0]);
        assert_ne!(zero.finish(), Checksum::new().finish());
    }

    #[test]
    fn every_single_bit_flip_changes_the_checksum() {
        let data: Vec<u8> = (0..80u8).collect();
        let mut base = Checksum::new();
        base.update(&data);
        for i in 0..data.len() * 8 {
            let mut d = data.clone();
            d[i / 8] ^= 1 << (i % 8);
            let mut c = Checksum::new();
            c.update(&d);
            assert_ne!(c.finish(), base.finish(), "bit {i}");
        }
    }
}
