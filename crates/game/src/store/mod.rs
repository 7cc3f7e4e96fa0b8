//! Values files: a solved game's outcomes (and remoteness) on disk, in independent blocks,
//! each with its checksum, so that one query reads one block.

use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicUsize};

use rayon::prelude::*;

mod error;

pub use error::FileError;

use crate::coder::{Decoder, Encoder, Models};
use crate::{Game, Outcome, SolvedGame};

const MAGIC: &[u8; 8] = b"GGVALUES";
const VERSION: u32 = 3;
const FLAG_REMOTENESS: u32 = 1;
const FLAG_RANKS: u32 = 2;
const FLAG_SKIPS: u32 = 4;
/// The identity of the game a values file was written for, read from its header, without
/// the game: what a front end reads to know which game to open the file with.
///
/// # Errors
/// As [`ValuesFile::open`], but never [`FileError::OtherGame`].
pub fn stored_identity<R: Read + Seek>(reader: R) -> Result<String, FileError> {
    Ok(RawFile::open(reader)?.identity)
}

/// The fixed part of the header, before the game's identity.
const HEADER: usize = 56;
/// The longest identity a values file holds, in bytes.
const MAX_IDENTITY: usize = 1 << 10;
const INDEX_ENTRY: usize = 32;

/// Entries per block: a query decodes at most this many positions and values (a few
/// kilobytes), and the index costs 32 bytes per block.
pub(crate) const BLOCK_ENTRIES: usize = 1 << 12;

/// The CRC-32 table (IEEE polynomial, reflected).
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The CRC-32 (IEEE) of `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |c, &b| CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8))
}

/// The numbers of a block of ranks that the game calls unreachable, summed up so that the
/// reader can tell whether its game skips the same numbers as the writer's: their count in
/// the low 64 bits, an FNV-1a hash of their places in the block in the high 64 bits (0
/// when there are none). It takes the place of the first position in the block index.
struct Skipped {
    count: u64,
    hash: u64,
}

impl Skipped {
    fn new() -> Skipped {
        Skipped { count: 0, hash: 0xcbf2_9ce4_8422_2325 }
    }

    fn push(&mut self, slot: u32) {
        self.count += 1;
        self.hash = (self.hash ^ u64::from(slot)).wrapping_mul(0x0000_0100_0000_01b3);
    }

    /// 0 when none is skipped.
    fn get(&self) -> u128 {
        if self.count == 0 { 0 } else { u128::from(self.hash) << 64 | u128::from(self.count) }
    }
}

/// The next value of a block.
fn get_value(
    m: &mut Models,
    d: &mut Decoder<'_>,
    remoteness: bool,
) -> Result<(Outcome, Option<u32>), FileError> {
    m.get_value(d, remoteness)
        .ok_or(FileError::Corrupt { reason: "a block holds an impossible remoteness" })
}

/// How many rank entries a values file may spend per position: beyond, it stores the
/// positions instead of a mostly empty array of ranks.
pub(crate) const RANK_SPREAD: u64 = 64;

/// The ranks of `positions`, in 32 bits when they fit.
enum Ranks {
    Small(Vec<u32>),
    Large(Vec<u64>),
}

impl Ranks {
    fn get(&self, i: usize) -> u64 {
        match self {
            Ranks::Small(r) => u64::from(r[i]),
            Ranks::Large(r) => r[i],
        }
    }
}

/// The number of rank entries of a values file of `positions` and their ranks, when every
/// position has a rank below [`RANK_SPREAD`] times the number of positions (plus
/// [`BLOCK_ENTRIES`]). The game's `rank` is called once per position (twice when a rank
/// needs more than 32 bits).
fn ranks<G: Game>(game: &G, positions: &[G::Position]) -> Option<(usize, Ranks)> {
    let limit =
        (positions.len() as u64).saturating_mul(RANK_SPREAD).saturating_add(BLOCK_ENTRIES as u64);
    ranks_below(game, positions, limit)
}

/// [`ranks`] with the ranks below `limit`.
fn ranks_below<G: Game>(game: &G, positions: &[G::Position], limit: u64) -> Option<(usize, Ranks)> {
    let rank = |p: &G::Position| game.rank(*p).filter(|&r| r < limit);
    let small = positions.par_iter().map(|p| rank(p).and_then(|r| u32::try_from(r).ok()));
    let ranks = match small.collect::<Option<_>>() {
        Some(small) => Ranks::Small(small),
        None if limit > 1 << 32 => {
            Ranks::Large(positions.par_iter().map(rank).collect::<Option<_>>()?)
        }
        None => return None,
    };
    let max = match &ranks {
        Ranks::Small(r) => r.par_iter().max().map(|&m| u64::from(m)),
        Ranks::Large(r) => r.par_iter().max().copied(),
    };
    Some((usize::try_from(max?).ok()?.checked_add(1)?, ranks))
}

/// The indices `0..n` grouped by the block of their rank, in block order (in no particular
/// order within a block): block `b` holds `indices[starts[b]..starts[b + 1]]`. Four bytes
/// per position and eight per block, where an array by rank would take four per entry.
/// `rank` is called twice per index.
fn by_block(
    n: usize,
    entries: usize,
    rank: &(impl Fn(usize) -> u64 + Sync),
) -> (Vec<usize>, Vec<AtomicU32>) {
    let block = |i: usize| (rank(i) / BLOCK_ENTRIES as u64) as usize;
    let cursor: Vec<AtomicUsize> =
        (0..entries.div_ceil(BLOCK_ENTRIES)).map(|_| AtomicUsize::new(0)).collect();
    (0..n).into_par_iter().for_each(|i| {
        cursor[block(i)].fetch_add(1, Relaxed);
    });
    let mut starts = Vec::with_capacity(cursor.len() + 1);
    let mut at = 0;
    starts.push(0);
    for c in &cursor {
        at += c.swap(at, Relaxed);
        starts.push(at);
    }
    let indices: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    (0..n).into_par_iter().for_each(|i| {
        let slot = cursor[block(i)].fetch_add(1, Relaxed);
        indices[slot].store(i as u32, Relaxed);
    });
    (starts, indices)
}

/// One block's place in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockInfo {
    offset: u64,
    len: u32,
    crc: u32,
    first: u128,
}

impl<G: Game> SolvedGame<G>
where
    G::Position: Into<u128>,
{
    /// Writes the values of every position to `w` in the values file format (see
    /// [`ValuesFile`]), with the remoteness when `remoteness` is true. The blocks are
    /// encoded in parallel on the current rayon pool. The entries are the game's ranks when
    /// it has them and the greatest is below 64 times the number of positions (plus 4,096),
    /// otherwise the sorted positions.
    ///
    /// # Errors
    /// [`FileError::Io`] when writing fails; [`FileError::Unordered`] when the positions'
    /// order differs from the order of their `u128` values; [`FileError::LongIdentity`]
    /// when the game's [`identity`](crate::Game::identity) is longer than 1024 bytes.
    ///
    /// # Complexity
    /// O(n) time, plus one call of the game's
    /// [`rank_may_be_reached`](crate::Game::rank_may_be_reached) per position and per
    /// entry by rank that is not a position; the whole file is built in memory before it
    /// is written. Entries by rank take 8 bytes per position besides (12 when a rank needs
    /// more than 32 bits), and eight per block of entries.
    pub fn save(&self, w: &mut impl Write, remoteness: bool) -> Result<(), FileError> {
        let game = self.game();
        let identity = game.identity();
        if identity.len() > MAX_IDENTITY {
            return Err(FileError::LongIdentity);
        }
        let positions = self.positions();
        if positions.par_windows(2).any(|w| w[0].into() >= w[1].into()) {
            return Err(FileError::Unordered);
        }
        let value = |i: usize| {
            let v = gamegraph_graph::Vertex::from_index(i);
            (self.solution().outcome(v), self.solution().remoteness(v))
        };
        let mut flags = if remoteness { FLAG_REMOTENESS } else { 0 };
        let (entries, blocks): (usize, Vec<(u128, Vec<u8>)>) = match ranks(game, positions) {
            Some((entries, ranks)) => {
                flags |= FLAG_RANKS;
                let rank = |i: usize| ranks.get(i);
                // Numbers the game calls unreachable are skipped, unless it calls a
                // reachable position's so.
                let skips =
                    (0..positions.len()).into_par_iter().all(|i| game.rank_may_be_reached(rank(i)));
                if skips {
                    flags |= FLAG_SKIPS;
                }
                let may_be_reached = each_rank(|r| game.rank_may_be_reached(r));
                let skip: Option<MayBeReached<'_>> = skips.then_some(&may_be_reached);
                let (starts, indices) = by_block(positions.len(), entries, &rank);
                let blocks = starts
                    .par_windows(2)
                    .enumerate()
                    .map(|(b, range)| {
                        // The block's ranks, each with its position.
                        let first = (b * BLOCK_ENTRIES) as u64;
                        let mut here: Vec<(u32, u32)> = indices[range[0]..range[1]]
                            .iter()
                            .map(|i| {
                                let i = i.load(Relaxed);
                                ((rank(i as usize) - first) as u32, i)
                            })
                            .collect();
                        here.sort_unstable();
                        let len = BLOCK_ENTRIES.min(entries - b * BLOCK_ENTRIES);
                        let mut next = here.iter().peekable();
                        encode_rank_block(first, len, skip, remoteness, |slot| {
                            let found = next.next_if(|&&(r, _)| r == slot).map(|&(_, i)| i);
                            // A rank given twice (a game whose rank is not one-to-one)
                            // keeps its first position.
                            while next.next_if(|&&(r, _)| r == slot).is_some() {}
                            found.map(|i| value(i as usize))
                        })
                    })
                    .collect();
                (entries, blocks)
            }
            None => {
                let blocks = positions
                    .par_chunks(BLOCK_ENTRIES)
                    .enumerate()
                    .map(|(b, chunk)| {
                        let mut e = Encoder::new();
                        let mut m = Models::new();
                        let first = b * BLOCK_ENTRIES;
                        for (j, &p) in chunk.iter().enumerate() {
                            if j > 0 {
                                m.put_gap(&mut e, p.into() - chunk[j - 1].into());
                            }
                            let (o, r) = value(first + j);
                            m.put_value(&mut e, o, r, remoteness);
                        }
                        (chunk[0].into(), e.finish())
                    })
                    .collect();
                (positions.len(), blocks)
            }
        };
        let head = Head {
            flags,
            entries: entries as u64,
            game: FileGame {
                identity: &identity,
                numbering: game.numbering(),
                start: game.canonical(game.start()).into(),
            },
        };
        write_file(w, &head, &blocks)
    }
}

/// A value by rank: `None` for a number that is not a reachable position.
pub(crate) type RankValue = Option<(Outcome, Option<u32>)>;

/// Which numbers of a block the game calls possibly reachable, a block at a time so that a
/// game can step through consecutive numbers: `f(first, out)` sets `out[i]` to whether
/// number `first + i` may be reached for every `i` where `out[i]` is `false` on entry (the
/// numbers asked about); it may set the others too (they are positions, which may be
/// reached).
pub(crate) type MayBeReached<'a> = &'a (dyn Fn(u64, &mut [bool]) + Sync);

/// [`MayBeReached`] from a test of one number, asked only about the numbers asked about.
pub(crate) fn each_rank(may: impl Fn(u64) -> bool + Sync) -> impl Fn(u64, &mut [bool]) + Sync {
    move |first, out| {
        for (r, o) in (first..).zip(out.iter_mut()) {
            if !*o {
                *o = may(r);
            }
        }
    }
}

/// Encodes the block of entries by rank `first..first + len`, asking `value` for each slot
/// of the block in increasing order; with `skip`, the numbers it calls unreachable are
/// skipped when they are not positions. Returns the block index's summary of the numbers
/// skipped (0 without `skip`) and the block's bytes.
pub(crate) fn encode_rank_block(
    first: u64,
    len: usize,
    skip: Option<MayBeReached<'_>>,
    remoteness: bool,
    mut value: impl FnMut(u32) -> RankValue,
) -> (u128, Vec<u8>) {
    let mut e = Encoder::new();
    let mut m = Models::new();
    let mut skipped = Skipped::new();
    let values: Vec<RankValue> = (0..len as u32).map(&mut value).collect();
    // Only the numbers that are not positions are asked about.
    let mut may: Vec<bool> = values.iter().map(Option::is_some).collect();
    if let Some(f) = skip {
        f(first, &mut may);
    }
    for (slot, v) in (0..len as u32).zip(values) {
        if v.is_none() && skip.is_some() && !may[slot as usize] {
            skipped.push(slot);
            continue;
        }
        m.put_present(&mut e, v.is_some());
        if let Some((o, r)) = v {
            m.put_value(&mut e, o, r, remoteness);
        }
    }
    (if skip.is_some() { skipped.get() } else { 0 }, e.finish())
}

/// What a values file's header says of its game.
pub(crate) struct FileGame<'a> {
    /// The game's identity.
    pub(crate) identity: &'a str,
    /// The game's numbering.
    pub(crate) numbering: u32,
    /// The canonical start position.
    pub(crate) start: u128,
}

/// What a values file's header says besides its blocks.
struct Head<'a> {
    flags: u32,
    entries: u64,
    game: FileGame<'a>,
}

/// Writes a values file: the header, the block index and the blocks.
fn write_file(
    w: &mut impl Write,
    head: &Head<'_>,
    blocks: &[(u128, Vec<u8>)],
) -> Result<(), FileError> {
    let game = &head.game;
    if game.identity.len() > MAX_IDENTITY {
        return Err(FileError::LongIdentity);
    }
    let k = blocks.len();
    let fixed = HEADER + game.identity.len();
    let mut bytes = Vec::with_capacity(fixed + INDEX_ENTRY * k + 4);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&head.flags.to_le_bytes());
    bytes.extend_from_slice(&(BLOCK_ENTRIES as u32).to_le_bytes());
    bytes.extend_from_slice(&(k as u32).to_le_bytes());
    bytes.extend_from_slice(&head.entries.to_le_bytes());
    bytes.extend_from_slice(&game.start.to_le_bytes());
    bytes.extend_from_slice(&game.numbering.to_le_bytes());
    bytes.extend_from_slice(&(game.identity.len() as u32).to_le_bytes());
    bytes.extend_from_slice(game.identity.as_bytes());
    let mut offset = (fixed + INDEX_ENTRY * k + 4) as u64;
    for (first, block) in blocks {
        bytes.extend_from_slice(&offset.to_le_bytes());
        bytes.extend_from_slice(&(block.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&crc32(block).to_le_bytes());
        bytes.extend_from_slice(&first.to_le_bytes());
        offset += block.len() as u64;
    }
    let crc = crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    w.write_all(&bytes)?;
    for (_, block) in blocks {
        w.write_all(block)?;
    }
    w.flush()?;
    Ok(())
}

/// Writes a values file by rank of `entries` numbers (at least one), `value` giving the
/// value of each: the file a tier of a solve by tiers keeps. With `skip`, the numbers it
/// calls unreachable cost nothing when they are not positions (a reader must skip the same).
/// The blocks are encoded in parallel on the current rayon pool and held in memory until
/// they are written.
pub(crate) fn save_by_rank(
    w: &mut impl Write,
    game: FileGame<'_>,
    entries: u64,
    remoteness: bool,
    skip: Option<MayBeReached<'_>>,
    value: &(dyn Fn(u64) -> RankValue + Sync),
) -> Result<(), FileError> {
    let k = entries.div_ceil(BLOCK_ENTRIES as u64);
    let blocks: Vec<(u128, Vec<u8>)> = (0..k)
        .into_par_iter()
        .map(|b| {
            let first = b * BLOCK_ENTRIES as u64;
            let len = (entries - first).min(BLOCK_ENTRIES as u64) as usize;
            encode_rank_block(first, len, skip, remoteness, |slot| value(first + u64::from(slot)))
        })
        .collect();
    write_rank_blocks(w, game, entries, remoteness, skip.is_some(), &blocks)
}

/// Writes a values file by rank of `entries` numbers from its blocks, in order, as
/// [`encode_rank_block`] gave them (with `skips` when they were encoded with a `skip`):
/// the file [`save_by_rank`] writes, from blocks encoded anywhere.
pub(crate) fn write_rank_blocks(
    w: &mut impl Write,
    game: FileGame<'_>,
    entries: u64,
    remoteness: bool,
    skips: bool,
    blocks: &[(u128, Vec<u8>)],
) -> Result<(), FileError> {
    let mut flags = FLAG_RANKS | if remoteness { FLAG_REMOTENESS } else { 0 };
    if skips {
        flags |= FLAG_SKIPS;
    }
    write_file(w, &Head { flags, entries, game }, blocks)
}

/// A values file opened for queries: the header and the block index are in memory, and
/// each query reads and checks one block.
///
/// Files are written by [`SolvedGame::save`].
///
/// # Layout
/// All integers are little-endian. An *entry* is a position (the sorted canonical
/// positions) or, for a game with a [`rank`](crate::Game::rank) that numbers its positions
/// densely enough (see [`SolvedGame::save`]), a rank `0..=max rank`.
///
/// | offset | bytes | field |
/// |-------:|------:|-------|
/// | 0 | 8 | magic `GGVALUES` |
/// | 8 | 4 | version, 3 |
/// | 12 | 4 | flags: bit 0 remoteness stored, bit 1 entries are ranks, bit 2 the ranks the game calls unreachable are skipped (with bit 1 only) |
/// | 16 | 4 | `B`, entries per block (the last block may hold fewer): 4,096 |
/// | 20 | 4 | `k`, the number of blocks |
/// | 24 | 8 | the number of entries |
/// | 32 | 16 | the canonical start position |
/// | 48 | 4 | the game's [`numbering`](crate::Game::numbering) |
/// | 52 | 4 | `L`, the length of the game's identity, at most 1024 |
/// | 56 | `L` | the game's [`identity`](crate::Game::identity), UTF-8 |
/// | 56 + `L` | 32·`k` | the block index: per block its offset in the file (8), its length (4), the CRC-32 of its bytes (4), its first position (16; for ranks, 0 when the block skips no rank, otherwise the count of the ranks skipped (8) and the FNV-1a hash of their places `0..B` in the block, each a `u64` xored in then multiplied by `0x100000001b3` from `0xcbf29ce484222325` (8)) |
/// | 56 + `L` + 32·`k` | 4 | CRC-32 of every byte before it |
/// | … | … | the blocks, one after the other in index order, up to the end of the file |
///
/// Each block is one stream of a binary range coder (LZMA's: 32-bit range, 11-bit
/// probabilities that move 1/16 of the way towards each bit seen), its models starting
/// afresh at even odds, so it decodes alone. Entry by entry it codes: for a block of
/// ranks, nothing for a rank skipped (flag bit 2 set and
/// [`rank_may_be_reached`](crate::Game::rank_may_be_reached) false: the reader checks
/// that its game skips the same ranks as the writer's through the block index), otherwise whether the rank is a reachable position (a bit whose model
/// depends on the previous entry's); for a block of positions, every entry but the first (which is in
/// the index), its difference from the previous position (an adaptive Elias gamma code:
/// the bit length by an 8-bit tree of models, the 3 bits below the leading one by models
/// that depend on the length, the rest at even odds); then, for a reachable position,
/// its outcome code (a 2-bit tree of models chosen by the previous entry's outcome code:
/// 0 draw, 1 win, 2 loss, 3 tie) and, when the remoteness is stored and the outcome is not
/// a draw, `min(r, 255)` by an 8-bit tree of models chosen by the outcome, followed for
/// `r ≥ 255` by `r − 254` in the gamma code.
#[derive(Debug)]
pub struct ValuesFile<G, R> {
    game: G,
    raw: RawFile<R>,
}

/// A values file's header and block index, read and checked, with its reader: what every
/// values file holds whatever its game.
#[derive(Debug)]
pub(crate) struct RawFile<R> {
    reader: R,
    /// The game's identity, as the file holds it.
    pub(crate) identity: String,
    /// The game's numbering, as the file holds it.
    pub(crate) numbering: u32,
    /// The canonical start position, as the file holds it.
    pub(crate) start: u128,
    remoteness: bool,
    ranks: bool,
    /// Whether the numbers the game calls unreachable are skipped.
    skips: bool,
    entries: u64,
    blocks: Vec<BlockInfo>,
    /// The last block read, decoded, so that queries near each other decode each block
    /// once.
    cache: Option<Block>,
}

/// A block decoded: the value of each entry in order (`None` for a rank skipped or absent),
/// and for a file of positions each entry's position (empty for a file by rank, whose
/// entries are the ranks in order).
#[derive(Debug)]
struct Block {
    number: usize,
    keys: Vec<u128>,
    values: Vec<RankValue>,
}

fn read_part<R: Read>(r: &mut R, buf: &mut [u8], part: &'static str) -> Result<(), FileError> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        ErrorKind::UnexpectedEof => FileError::Truncated { part },
        _ => FileError::from(e),
    })
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn le_u128(b: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"))
}

impl<R: Read + Seek> RawFile<R> {
    /// Reads and checks the header and the block index of the values file in `reader`
    /// (see [`ValuesFile::open`] for the errors).
    pub(crate) fn open(mut reader: R) -> Result<RawFile<R>, FileError> {
        let file_len = reader.seek(SeekFrom::End(0))?;
        reader.seek(SeekFrom::Start(0))?;
        let mut head = vec![0u8; HEADER];
        reader.read_exact(&mut head[..8]).map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => FileError::NotAValuesFile,
            _ => FileError::from(e),
        })?;
        if &head[..8] != MAGIC {
            return Err(FileError::NotAValuesFile);
        }
        read_part(&mut reader, &mut head[8..12], "header")?;
        let version = le_u32(&head, 8);
        if version != VERSION {
            return Err(FileError::Version { found: version });
        }
        read_part(&mut reader, &mut head[12..], "header")?;
        let flags = le_u32(&head, 12);
        let block_entries = le_u32(&head, 16) as usize;
        let k = le_u32(&head, 20) as usize;
        let entries = le_u64(&head, 24);
        let identity_len = le_u32(&head, 52) as usize;
        // Every field against what a writer writes, before anything is allocated.
        let corrupt = |reason| Err(FileError::Corrupt { reason });
        if flags & !(FLAG_REMOTENESS | FLAG_RANKS | FLAG_SKIPS) != 0 {
            return corrupt("unknown flags");
        }
        if block_entries != BLOCK_ENTRIES {
            return corrupt("the block size is not the one files are written with");
        }
        if entries == 0 || entries.div_ceil(BLOCK_ENTRIES as u64) != k as u64 {
            return corrupt("the number of blocks does not fit the entries");
        }
        if identity_len > MAX_IDENTITY {
            return corrupt("the game's identity is too long");
        }
        let fixed = HEADER + identity_len;
        let blocks_at = (fixed + INDEX_ENTRY * k + 4) as u64;
        // Every block holds at least one byte.
        if blocks_at > file_len {
            return Err(FileError::Truncated { part: "index" });
        }
        if blocks_at + k as u64 > file_len {
            return Err(FileError::Truncated { part: "blocks" });
        }
        let mut rest = vec![0u8; identity_len + INDEX_ENTRY * k + 4];
        read_part(&mut reader, &mut rest, "index")?;
        let (body, crc) = rest.split_at(rest.len() - 4);
        head.extend_from_slice(body);
        if crc32(&head) != le_u32(crc, 0) {
            return Err(FileError::HeaderChecksum);
        }
        let Ok(identity) = std::str::from_utf8(&head[HEADER..fixed]) else {
            return corrupt("the game's identity is not UTF-8");
        };
        let index = &head[fixed..];
        let ranks = flags & FLAG_RANKS != 0;
        let skips = flags & FLAG_SKIPS != 0;
        if skips && !ranks {
            return corrupt("skips without ranks");
        }
        let blocks = (0..k)
            .map(|b| {
                let at = INDEX_ENTRY * b;
                BlockInfo {
                    offset: le_u64(index, at),
                    len: le_u32(index, at + 8),
                    crc: le_u32(index, at + 12),
                    first: le_u128(index, at + 16),
                }
            })
            .collect::<Vec<BlockInfo>>();
        // The blocks follow the index one after the other, up to the end of the file.
        let mut end = blocks_at;
        for (b, info) in blocks.iter().enumerate() {
            if info.offset != end || info.len == 0 {
                return corrupt("a block is not where the previous one ends");
            }
            end += u64::from(info.len);
            if end > file_len {
                return Err(FileError::Truncated { part: "blocks" });
            }
            let in_block = (entries - (b * BLOCK_ENTRIES) as u64).min(BLOCK_ENTRIES as u64);
            let fits = match (ranks, skips) {
                (true, false) => info.first == 0,
                (true, true) => {
                    let count = info.first as u64;
                    count <= in_block && (count == 0) == (info.first == 0)
                }
                (false, _) => b == 0 || blocks[b - 1].first < info.first,
            };
            if !fits {
                return corrupt("the block index holds an impossible entry");
            }
        }
        if end != file_len {
            return corrupt("bytes after the last block");
        }
        Ok(RawFile {
            reader,
            identity: identity.to_owned(),
            numbering: le_u32(&head, 48),
            start: le_u128(&head, 32),
            remoteness: flags & FLAG_REMOTENESS != 0,
            ranks,
            skips,
            entries,
            blocks,
            cache: None,
        })
    }

    /// Whether the entries are ranks.
    pub(crate) fn by_ranks(&self) -> bool {
        self.ranks
    }

    /// Whether the file holds remoteness.
    pub(crate) fn has_remoteness(&self) -> bool {
        self.remoteness
    }

    /// The value of number `rank` of a file by rank, `may_be_reached` telling which
    /// numbers the writer skipped (when it skipped any); `Ok(None)` for a number that is
    /// not a reachable position (see [`ValuesFile::value`] for the errors).
    pub(crate) fn rank_value(
        &mut self,
        rank: u64,
        may_be_reached: MayBeReached<'_>,
    ) -> Result<RankValue, FileError> {
        if rank >= self.entries {
            return Ok(None);
        }
        let b = (rank / BLOCK_ENTRIES as u64) as usize;
        let j = (rank % BLOCK_ENTRIES as u64) as usize;
        Ok(self.decoded(b, may_be_reached)?.values.get(j).copied().flatten())
    }

    /// The value of the position `key` of a file of sorted positions; `Ok(None)` when it
    /// is not in the file.
    fn position_value(&mut self, key: u128) -> Result<RankValue, FileError> {
        let b = self.blocks.partition_point(|info| info.first <= key);
        if b == 0 {
            return Ok(None);
        }
        let block = self.decoded(b - 1, &|_, out| out.fill(true))?;
        Ok(block.keys.binary_search(&key).ok().and_then(|i| block.values[i]))
    }

    /// Block `b` decoded, from the cache when it is the last block read.
    fn decoded(&mut self, b: usize, may_be_reached: MayBeReached<'_>) -> Result<&Block, FileError> {
        if self.cache.as_ref().is_none_or(|block| block.number != b) {
            self.cache = None;
            let block = if self.ranks {
                Block {
                    number: b,
                    keys: Vec::new(),
                    values: self.decode_rank_block(b, may_be_reached)?,
                }
            } else {
                self.decode_position_block(b)?
            };
            self.cache = Some(block);
        }
        Ok(self.cache.as_ref().expect("filled above"))
    }

    fn decode_rank_block(
        &mut self,
        b: usize,
        may_be_reached: MayBeReached<'_>,
    ) -> Result<Vec<RankValue>, FileError> {
        let first = (b * BLOCK_ENTRIES) as u64;
        let count = self.entries_in(b);
        // The numbers this game calls unreachable in the block, checked against the
        // writer's before any is trusted.
        let mut may = vec![true; count];
        if self.skips {
            // Every number of the block is asked about.
            may.fill(false);
            may_be_reached(first, &mut may);
            let mut skipped = Skipped::new();
            for (slot, _) in may.iter().enumerate().filter(|(_, may)| !**may) {
                skipped.push(slot as u32);
            }
            if skipped.get() != self.blocks[b].first {
                return Err(FileError::OtherGame {
                    file: format!("{} (other ranks skipped)", self.identity),
                    game: self.identity.clone(),
                });
            }
        }
        let bytes = self.read_block(b)?;
        let mut d = Decoder::new(&bytes);
        let mut m = Models::new();
        let mut values = Vec::with_capacity(count);
        for &may in &may {
            let present = may && m.get_present(&mut d);
            values.push(if present {
                Some(get_value(&mut m, &mut d, self.remoteness)?)
            } else {
                None
            });
        }
        Ok(values)
    }

    fn decode_position_block(&mut self, b: usize) -> Result<Block, FileError> {
        let bytes = self.read_block(b)?;
        let mut d = Decoder::new(&bytes);
        let mut m = Models::new();
        let count = self.entries_in(b);
        let (mut keys, mut values) = (Vec::with_capacity(count), Vec::with_capacity(count));
        let mut current = self.blocks[b].first;
        for i in 0..count {
            if i > 0 {
                let gap = m.get_gap(&mut d).ok_or(FileError::Corrupt {
                    reason: "a block holds an impossible difference",
                })?;
                current = current
                    .checked_add(gap)
                    .ok_or(FileError::Corrupt { reason: "positions overflow" })?;
            }
            keys.push(current);
            values.push(Some(get_value(&mut m, &mut d, self.remoteness)?));
        }
        Ok(Block { number: b, keys, values })
    }

    fn entries_in(&self, b: usize) -> usize {
        let first = (b * BLOCK_ENTRIES) as u64;
        (self.entries - first).min(BLOCK_ENTRIES as u64) as usize
    }

    fn read_block(&mut self, b: usize) -> Result<Vec<u8>, FileError> {
        let info = self.blocks[b];
        self.reader.seek(SeekFrom::Start(info.offset))?;
        let mut bytes = vec![0u8; info.len as usize];
        read_part(&mut self.reader, &mut bytes, "blocks")?;
        if crc32(&bytes) != info.crc {
            return Err(FileError::BlockChecksum { block: b });
        }
        Ok(bytes)
    }
}

impl<G: Game, R: Read + Seek> ValuesFile<G, R>
where
    G::Position: Into<u128>,
{
    /// Opens the values file in `reader`, written for `game`: reads and checks the header
    /// and the block index.
    ///
    /// # Errors
    /// [`FileError::NotAValuesFile`], [`FileError::Version`] (also for the files of an
    /// older version), [`FileError::Truncated`] (a block reaches past the end of the
    /// file), [`FileError::HeaderChecksum`], [`FileError::Corrupt`] for a damaged file (a
    /// field that no writer writes: a block size other than 4,096, a count of
    /// blocks that does not fit the entries or the file's length, blocks that do not
    /// follow each other up to the end of the file);
    /// [`FileError::OtherGame`] when it was written for another game, naming both;
    /// [`FileError::Io`].
    ///
    /// # Complexity
    /// O(number of blocks) time and memory: the fixed part of the header is checked
    /// against the file's length before the index is read.
    pub fn open(game: G, reader: R) -> Result<ValuesFile<G, R>, FileError> {
        let raw = RawFile::open(reader)?;
        let identity = raw.identity.as_str();
        let game_start = game.canonical(game.start());
        let other = |file: String, mine: String| Err(FileError::OtherGame { file, game: mine });
        let mine = game.identity();
        if identity != mine {
            return other(identity.to_owned(), mine);
        }
        if raw.numbering != game.numbering() {
            let with = |n: u32| format!("{identity} (numbering {n})");
            return other(with(raw.numbering), with(game.numbering()));
        }
        if raw.start != game_start.into() {
            let from = |p: u128| format!("{identity} (start position {p})");
            return other(from(raw.start), from(game_start.into()));
        }
        // A game with ranks may have stored its positions (ranks too far apart), not the
        // other way round.
        if raw.ranks && game.rank(game_start).is_none() {
            return other(format!("{identity} (by rank)"), format!("{identity} (without ranks)"));
        }
        Ok(ValuesFile { game, raw })
    }

    /// The game the file was opened for.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Whether the file holds remoteness (otherwise [`value`](ValuesFile::value) answers
    /// `None` for it).
    pub fn has_remoteness(&self) -> bool {
        self.raw.remoteness
    }

    /// The value of a position and of every move from it, as [`SolvedGame::query`] gives
    /// them, read from the file; `Ok(None)` when the position is not reachable from the
    /// start.
    ///
    /// # Errors
    /// As [`value`](ValuesFile::value); [`FileError::Corrupt`] when a move of a reachable
    /// position is missing from the file.
    ///
    /// # Complexity
    /// One block read for the position and one for each of its moves.
    pub fn query(
        &mut self,
        p: G::Position,
    ) -> Result<Option<crate::PositionValue<G::Position>>, FileError> {
        let Some((outcome, remoteness)) = self.value(p)? else { return Ok(None) };
        let mut next = Vec::new();
        self.game.moves(p, &mut next);
        let mut moves = Vec::with_capacity(next.len());
        for q in next {
            let (o, r) = self
                .value(q)?
                .ok_or(FileError::Corrupt { reason: "a move of a stored position is missing" })?;
            moves.push(crate::MoveValue { position: q, outcome: o.flip(), remoteness: r });
        }
        Ok(Some(crate::PositionValue::new(p, outcome, remoteness, moves)))
    }

    /// The outcome and remoteness (when stored) of a position, canonicalised first;
    /// `Ok(None)` when it is not reachable from the start.
    ///
    /// # Errors
    /// [`FileError::BlockChecksum`] or [`FileError::Corrupt`] when the block it reads is
    /// damaged; [`FileError::Truncated`] when the file was cut after it was opened;
    /// [`FileError::OtherGame`] when the game calls other numbers of the block unreachable
    /// than the file's writer did; [`FileError::Io`].
    ///
    /// # Complexity
    /// One seek and one read of a block of at most 4,096 entries.
    pub fn value(&mut self, p: G::Position) -> Result<Option<(Outcome, Option<u32>)>, FileError> {
        let c = self.game.canonical(p);
        if self.raw.ranks {
            let Some(rank) = self.game.rank(c) else { return Ok(None) };
            let game = &self.game;
            return self.raw.rank_value(rank, &each_rank(|r| game.rank_may_be_reached(r)));
        }
        self.raw.position_value(c.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseError;

    /// Positions `0..` ranked `p · step + 5`, except `missing`, which has no rank.
    struct Ranked {
        step: u64,
        missing: Option<u32>,
    }

    impl Game for Ranked {
        type Position = u32;
        fn start(&self) -> u32 {
            0
        }
        fn moves(&self, _: u32, _: &mut Vec<u32>) {}
        fn show(&self, p: u32) -> String {
            p.to_string()
        }
        fn parse(&self, s: &str) -> Result<u32, ParseError> {
            s.parse().map_err(|_| ParseError::new(1, "expected a number"))
        }
        fn rank(&self, p: u32) -> Option<u64> {
            (Some(p) != self.missing).then(|| u64::from(p) * self.step + 5)
        }
    }

    #[test]
    fn ranks_take_32_bits_when_they_fit_and_64_otherwise() {
        let positions: Vec<u32> = (0..1000).collect();
        let ranks = |step, missing, limit| {
            ranks_below(&Ranked { step, missing }, &positions, limit)
                .map(|(entries, r)| (entries, (0..1000).map(|i| r.get(i)).collect::<Vec<_>>(), r))
        };
        let want = |step: u64| (0..1000).map(|p| p * step + 5).collect::<Vec<u64>>();
        let (entries, got, r) = ranks(3, None, 999 * 3 + 6).unwrap();
        assert_eq!((entries, got), (999 * 3 + 6, want(3)));
        assert!(matches!(r, Ranks::Small(_)));
        let step = 1 << 33;
        let (entries, got, r) = ranks(step, None, u64::MAX).unwrap();
        assert_eq!((entries as u64, got), (999 * step + 6, want(step)));
        assert!(matches!(r, Ranks::Large(_)));
        // A rank at the limit, past 32 bits under a 32-bit limit, or missing: no ranks.
        assert!(ranks(3, None, 999 * 3 + 5).is_none());
        assert!(ranks(step, None, 1 << 32).is_none());
        assert!(ranks(3, Some(500), u64::MAX).is_none());
        assert!(ranks(step, Some(500), u64::MAX).is_none());
    }
}
