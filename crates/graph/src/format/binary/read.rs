//! Reading the binary format: as a stream, and from a file by position on every thread.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

use rayon::prelude::*;

use super::{
    BLOCK, CHUNK, Checksum, HEADER_LEN, Header, MAGIC, PIECE, Sum, VERSION, bad_offsets,
    bad_target, check_predecessors, checksum_mismatch, corrupt, grow, parse_header, terminals,
    wrong_magic,
};
use crate::csr::Csr;
use crate::format::GameFile;
use crate::{Graph, ReadError, ReadErrorKind, Vertex};

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
                Err(e) => return Err(ReadError::from(e)),
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
                Err(e) => return Err(ReadError::from(e)),
            }
        }
    }
}

/// Reads a graph in the binary format, any version (see the [module docs](super) for the
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
pub(crate) fn read_binary(reader: impl Read) -> Result<GameFile, ReadError> {
    let mut src = Source { reader, sum: Sum::new(VERSION), offset: 0 };
    let mut header = [0u8; HEADER_LEN];
    src.fill(&mut header[..8], "the magic number", false)?;
    if header[..8] != MAGIC {
        return Err(wrong_magic());
    }
    src.fill(&mut header[8..], "the header", false)?;
    let Header { version, n, m, start, predecessors, terminals: has_terminals } =
        parse_header(&header)?;
    src.sum = Sum::new(version);
    src.sum.update(&header);

    let mut buf = vec![0u8; CHUNK];
    // Structural problems are reported only after the checksum, so that damage is named
    // as such.
    let (offsets, bad_offsets_seen) = read_offsets(&mut src, &mut buf, n, m, "the CSR offsets")?;
    let (targets, max_target) = read_ids(&mut src, &mut buf, m, "the arc targets")?;
    let index = if predecessors {
        let mut pad = [0u8; 4];
        if m % 2 == 1 {
            src.fill(&mut pad, "the predecessor index", true)?;
        }
        let (poff, _) = read_offsets(&mut src, &mut buf, n, m, "the predecessor offsets")?;
        let (pred, _) = read_ids(&mut src, &mut buf, m, "the predecessor lists")?;
        Some((pad, poff, pred))
    } else {
        None
    };
    let bits = if has_terminals {
        let mut bits = vec![0u8; n.div_ceil(4)];
        src.fill(&mut bits, "the terminal values", true)?;
        Some(bits)
    } else {
        None
    };
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
    let pred = match index {
        Some((pad, poff, pred)) => {
            if pad != [0; 4] {
                return Err(corrupt("the padding before the predecessor index is not zero"));
            }
            check_predecessors(&offsets, &targets, &poff, &pred)?;
            Some(Csr::owned(poff, pred))
        }
        None => None,
    };
    let graph = Graph::from_parts(Csr::owned(offsets, targets), pred);
    let terminal = bits.map(|bits| terminals(&graph, bits)).transpose()?;
    Ok(GameFile { graph, start, terminal })
}

/// Reads `n + 1` CSR offsets, and whether they fail to run from 0 up to `m`.
fn read_offsets<R: Read>(
    src: &mut Source<R>,
    buf: &mut [u8],
    n: usize,
    m: usize,
    what: &str,
) -> Result<(Vec<u64>, bool), ReadError> {
    let mut offsets: Vec<u64> = Vec::new();
    let mut bad = false;
    let mut prev = 0u64;
    while offsets.len() < n + 1 {
        let items = (n + 1 - offsets.len()).min(CHUNK / 8);
        let bytes = &mut buf[..items * 8];
        src.fill(bytes, what, true)?;
        grow(&mut offsets, n + 1, items);
        let first = offsets.len();
        offsets.extend(bytes.as_chunks::<8>().0.iter().map(|c| u64::from_le_bytes(*c)));
        for &x in &offsets[first..] {
            bad |= x < prev;
            prev = x;
        }
    }
    bad |= offsets[0] != 0 || prev != m as u64;
    Ok((offsets, bad))
}

/// Reads `m` vertex ids, and the largest (0 for none).
fn read_ids<R: Read>(
    src: &mut Source<R>,
    buf: &mut [u8],
    m: usize,
    what: &str,
) -> Result<(Vec<Vertex>, u32), ReadError> {
    let mut ids: Vec<Vertex> = Vec::new();
    let mut max = 0u32;
    while ids.len() < m {
        let items = (m - ids.len()).min(CHUNK / 4);
        let bytes = &mut buf[..items * 4];
        src.fill(bytes, what, true)?;
        grow(&mut ids, m, items);
        let first = ids.len();
        ids.extend(bytes.as_chunks::<4>().0.iter().map(|c| Vertex(u32::from_le_bytes(*c))));
        max = ids[first..].iter().map(|t| t.0).fold(max, u32::max);
    }
    Ok((ids, max))
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
pub(crate) struct BlockRead {
    pub(crate) sum: u64,
    /// The first and last offsets of the block, when it has any, and whether the offsets
    /// inside it are non-decreasing.
    pub(crate) offsets: Option<(u64, u64, bool)>,
    pub(crate) max_target: Option<u32>,
}

/// Reads a graph in the binary format from a file, on the current rayon pool: a
/// version-2 file whose length matches its header is read block by block by every
/// thread, each block hashed and converted straight into the final arrays. Anything else
/// (version 1, a wrong length, a bad header) is read by [`read_binary`], so the errors are
/// the same. `len` is the file's length; `progress` is told how many bytes each finished
/// block had.
///
/// # Errors
/// Those of [`read_binary`].
///
/// # Complexity
/// O(n + m) work, O((n + m) / p) time on p threads. Extra space: one 1 MiB buffer per
/// thread.
pub(crate) fn read_binary_file(
    file: &File,
    len: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GameFile, ReadError> {
    let io_error = ReadError::from;
    let streaming = || read_binary(io::BufReader::with_capacity(CHUNK, At { file, pos: 0 }));
    let mut header = [0u8; HEADER_LEN];
    if len < HEADER_LEN as u64 {
        return streaming();
    }
    file.read_exact_at(&mut header, 0).map_err(io_error)?;
    let h = match parse_header(&header) {
        Ok(h)
            if h.version >= 2 && !h.predecessors && h.checksum_at().checked_add(8) == Some(len) =>
        {
            h
        }
        _ => return streaming(),
    };
    let (n, m) = (h.n, h.m);
    let targets_at = h.targets_at();
    let targets_end = targets_at + 4 * m as u64;
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
        let in_targets = stop.min(targets_end).saturating_sub(at.max(targets_at)) / 4;
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
    let graph = Graph::from_csr_trusted(offsets, targets);
    let terminal = if h.terminals {
        let mut bits = vec![0u8; h.terminals_len()];
        file.read_exact_at(&mut bits, h.terminals_at()).map_err(io_error)?;
        Some(terminals(&graph, bits)?)
    } else {
        None
    };
    Ok(GameFile { graph, start: h.start, terminal })
}

/// Checks what the blocks of a version-2 file found, in the order [`read_binary`] checks
/// it: the checksum against the `stored` one, then the offsets (from `first_offset`, 0,
/// non-decreasing, ending at `m`), then the targets (below `n`).
pub(crate) fn check_blocks(
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
