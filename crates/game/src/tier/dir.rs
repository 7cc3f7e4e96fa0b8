//! The tier solver's directory: a manifest and, per tier, its reachable ranks and its values;
//! the driver that fills it, resuming after the last finished tier; queries by position.
//!
//! # Layout
//! - `manifest`: text, one record a line: `gamegraph-tiers 3`, then `game <identity>`,
//!   `tiers <count>`, `remoteness yes|no`, `code-bits 4|8|16` (the width of the working
//!   codes below; version 2 wrote `code-bytes 1|2` instead), then a line per finished step:
//!   `reach <tier> <positions>` when the reachable ranks of a tier are written,
//!   `solved <tier> <win> <loss> <tie> <draw>` when its values are. It is replaced whole
//!   (written beside, then renamed) after every step, and each step's files are complete
//!   before its line is, so an interruption anywhere loses at most the step under way.
//! - `tier-<tier>.values`: the values of a solved tier, a values file by rank (the format
//!   of [`ValuesFile`](crate::ValuesFile)) whose entries are the ranks of the tier, whose
//!   identity is the game's followed by ` tier <tier>`, and whose start field holds the
//!   tier in its low 32 bits and a hash of the directory's `game` line in its high 64. The
//!   ranks the game calls unreachable
//!   ([`tier_rank_may_be_reached`](Tiered::tier_rank_may_be_reached)) cost nothing; the
//!   others a bit or so for whether play reaches them. These files are what a solved
//!   directory keeps.
//! - While the solve runs, working files that are deleted once no step needs them:
//!   `reach-<tier>.bits`, a bit a rank (little-endian 64-bit words) set for the ranks play
//!   reaches from the start, kept until the tier is solved; `values-<tier>.codes`, a value
//!   code a rank (0 for a rank no play reaches, 1 for a draw, `2 + 3·r + k` for a win
//!   (`k` = 0), loss (1) or tie (2) of remoteness `r`): half a byte when remoteness is not
//!   kept (`r` is 0; two codes a byte, the lower half first), otherwise one byte, or two
//!   little-endian bytes for games of long play; kept until every parent tier is solved.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use gamegraph_graph::Limit;
use rayon::prelude::*;

use super::Tiered;
use super::code::{Code, Nibble};
use super::config::{
    MAX_TIERS, TierConfig, TierError, TierPhase, TierProgress, TierSummary, io_error,
};
use super::order::tier_order;
use super::reach::{Bits, bits, expand_tier, set, word, words};
use super::solve::solve_tier;
use crate::store::{FileGame, RawFile, save_by_rank};
use crate::{Counts, FileError, MoveValue, Outcome, PositionValue};

pub(crate) const MANIFEST: &str = "manifest";
const MAGIC: &str = "gamegraph-tiers 3";
/// The first line of a manifest of the version before, read still.
const MAGIC_2: &str = "gamegraph-tiers 2";

/// One solve's context: the game, its settings, the progress counters.
pub(crate) struct Run<'a, G> {
    pub(crate) game: &'a G,
    pub(crate) remoteness: bool,
    config: &'a TierConfig,
    phase: std::sync::Mutex<(TierPhase, u32, u64)>,
    done: AtomicU64,
    steps_done: AtomicU64,
    steps: u32,
}

impl<'a, G> Run<'a, G> {
    /// The context of a solve of `steps` tiers of `game` that starts in `start_tier`.
    pub(crate) fn new(game: &'a G, config: &'a TierConfig, start_tier: u32, steps: u32) -> Self {
        Run {
            game,
            remoteness: !config.no_remoteness,
            config,
            phase: std::sync::Mutex::new((TierPhase::Reach, start_tier, 0)),
            done: AtomicU64::new(0),
            steps_done: AtomicU64::new(0),
            steps,
        }
    }

    /// The steps of the current pass finished so far, for the progress reports.
    pub(crate) fn set_steps_done(&self, n: u32) {
        self.steps_done.store(u64::from(n), Relaxed);
    }
}

impl<G: Tiered> Run<'_, G> {
    pub(crate) fn contract(&self, tier: u32, message: String) -> TierError {
        TierError::Contract { tier, message }
    }

    /// The position of rank `r` of tier `t`, which play reaches.
    pub(crate) fn unrank(&self, t: u32, r: u64) -> Result<G::Position, TierError> {
        self.game
            .tier_unrank(t, r)
            .ok_or_else(|| self.contract(t, format!("rank {r} is reachable but has no position")))
    }

    pub(crate) fn check_stop(&self) -> Result<(), TierError> {
        match &self.config.stop {
            Some(s) if s.load(Relaxed) => Err(TierError::Limit {
                limit: Limit::Stop,
                tier: self.phase.lock().unwrap_or_else(|e| e.into_inner()).1,
            }),
            _ => Ok(()),
        }
    }

    /// A pass over the `total` ranks of tier `t` starts.
    pub(crate) fn begin(&self, phase: TierPhase, t: u32, total: u64) {
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) = (phase, t, total);
        self.done.store(0, Relaxed);
        self.tick(0);
    }

    /// `n` more ranks are done.
    pub(crate) fn tick(&self, n: u64) {
        let done = self.done.fetch_add(n, Relaxed) + n;
        if let Some(progress) = &self.config.progress {
            let (phase, tier, total) = *self.phase.lock().unwrap_or_else(|e| e.into_inner());
            progress(TierProgress {
                phase,
                tier,
                done: done.min(total),
                total,
                steps_done: self.steps_done.load(Relaxed) as u32,
                steps: self.steps,
            });
        }
    }

    /// `bytes` zeroed bytes for the codes of the tier being solved.
    pub(crate) fn alloc(&self, bytes: u64) -> Result<Vec<u8>, TierError> {
        let t = self.phase.lock().unwrap_or_else(|e| e.into_inner()).1;
        let fail =
            || TierError::Limit { limit: Limit::Memory { needed: bytes, allowed: None }, tier: t };
        let n = usize::try_from(bytes).map_err(|_| fail())?;
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| fail())?;
        v.resize(n, 0);
        Ok(v)
    }
}

/// The settings a directory is written with; a resume must find the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) game: String,
    pub(crate) tiers: u32,
    pub(crate) remoteness: bool,
    pub(crate) code_bits: u64,
}

/// The manifest: the header and the finished steps.
#[derive(Debug, Clone)]
pub(crate) struct Manifest {
    pub(crate) header: Header,
    pub(crate) reached: Vec<Option<u64>>,
    pub(crate) solved: Vec<Option<Counts>>,
}

impl Manifest {
    pub(crate) fn new(header: Header) -> Manifest {
        let n = header.tiers as usize;
        Manifest { header, reached: vec![None; n], solved: vec![None; n] }
    }

    /// The positions of each outcome in the tiers of `order` solved so far.
    pub(crate) fn solved_counts(&self, order: &[u32]) -> Counts {
        let mut counts = Counts::default();
        for &c in order.iter().filter_map(|&t| self.solved[t as usize].as_ref()) {
            counts.add(c);
        }
        counts
    }

    fn text(&self) -> String {
        let h = &self.header;
        let mut s = format!(
            "{MAGIC}\ngame {}\ntiers {}\nremoteness {}\ncode-bits {}\n",
            h.game,
            h.tiers,
            if h.remoteness { "yes" } else { "no" },
            h.code_bits
        );
        for (t, n) in self.reached.iter().enumerate() {
            if let Some(n) = n {
                s += &format!("reach {t} {n}\n");
            }
        }
        for (t, c) in self.solved.iter().enumerate() {
            if let Some(c) = c {
                s += &format!("solved {t} {} {} {} {}\n", c.win, c.loss, c.tie, c.draw);
            }
        }
        s
    }

    pub(crate) fn read(path: &Path) -> Result<Manifest, TierError> {
        let text = fs::read_to_string(path).map_err(io_error(path))?;
        let bad = |line: usize, what: &str| TierError::Corrupt {
            path: path.to_owned(),
            reason: format!("line {line}: expected {what}"),
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        // Version 2 named the width of the codes in bytes, 1 or 2.
        let version = match lines.next().map(|(_, l)| l) {
            Some(MAGIC) => 3,
            Some(MAGIC_2) => 2,
            _ => return Err(bad(1, MAGIC)),
        };
        let mut field = |name: &str| -> Result<(usize, String), TierError> {
            let (i, l) = lines.next().ok_or_else(|| bad(0, name))?;
            let value = l.strip_prefix(name).and_then(|v| v.strip_prefix(' '));
            Ok((i, value.ok_or_else(|| bad(i, name))?.to_owned()))
        };
        let game = field("game")?.1;
        let (i, tiers) = field("tiers")?;
        let tiers: u32 = tiers.parse().map_err(|_| bad(i, "tiers <count>"))?;
        let (i, remoteness) = field("remoteness")?;
        let remoteness = match remoteness.as_str() {
            "yes" => true,
            "no" => false,
            _ => return Err(bad(i, "remoteness yes or no")),
        };
        let code_bits = if version == 2 {
            let (i, code_bytes) = field("code-bytes")?;
            match code_bytes.as_str() {
                "1" => 8,
                "2" => 16,
                _ => return Err(bad(i, "code-bytes 1 or 2")),
            }
        } else {
            let (i, code_bits) = field("code-bits")?;
            match code_bits.as_str() {
                "4" => 4,
                "8" => 8,
                "16" => 16,
                _ => return Err(bad(i, "code-bits 4, 8 or 16")),
            }
        };
        let mut m = Manifest::new(Header { game, tiers, remoteness, code_bits });
        for (i, l) in lines {
            let words: Vec<&str> = l.split(' ').collect();
            let nums: Option<Vec<u64>> = words[1..].iter().map(|w| w.parse().ok()).collect();
            let tier =
                |n: &[u64]| n.first().and_then(|&t| (t < u64::from(tiers)).then_some(t as usize));
            match (words[0], nums) {
                ("reach", Some(n)) if n.len() == 2 && tier(&n).is_some() => {
                    m.reached[n[0] as usize] = Some(n[1]);
                }
                ("solved", Some(n)) if n.len() == 5 && tier(&n).is_some() => {
                    let c = |k: usize| usize::try_from(n[k]).map_err(|_| bad(i, "a count"));
                    m.solved[n[0] as usize] =
                        Some(Counts { win: c(1)?, loss: c(2)?, tie: c(3)?, draw: c(4)? });
                }
                _ => return Err(bad(i, "reach <tier> <positions> or solved <tier> <counts>")),
            }
        }
        Ok(m)
    }

    pub(crate) fn write(&self, dir: &Path) -> Result<(), TierError> {
        write_file(dir, MANIFEST, self.text().as_bytes())
    }
}

/// Writes `bytes` to `dir/name` whole: to a file beside it, synced, then renamed.
pub(crate) fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), TierError> {
    let f = write_with(dir, name, |w| w.write_all(bytes), |f| f.sync_all())?;
    drop(f);
    Ok(())
}

/// Writes `dir/name` whole with `write`: to a file beside it, passed to `before_rename`
/// (to sync it, or not), then renamed. Gives back the file.
pub(crate) fn write_with(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
    before_rename: impl FnOnce(&File) -> io::Result<()>,
) -> Result<File, TierError> {
    let path = dir.join(name);
    let tmp = dir.join(format!("{name}.part"));
    let f = File::create(&tmp).map_err(io_error(&tmp))?;
    let mut w = io::BufWriter::with_capacity(1 << 20, &f);
    write(&mut w).and_then(|()| w.flush()).map_err(io_error(&tmp))?;
    drop(w);
    before_rename(&f).map_err(io_error(&tmp))?;
    fs::rename(&tmp, &path).map_err(io_error(&path))?;
    Ok(f)
}

/// The seconds between two checkpoints of a [`Journal`].
const CHECKPOINT_SECONDS: u64 = 2;

/// The files a tier leaves are made durable in batches: those written since the last
/// checkpoint are synced together, then the directory, then the manifest that names them;
/// only then are the files no unfinished tier needs removed. A checkpoint at most every
/// [`CHECKPOINT_SECONDS`] (and at the end, and when the solve stops or fails), so that a
/// game of many small tiers does not wait for the disk after each; an interruption loses
/// at most the tiers finished since the last one.
struct Journal<'d> {
    dir: &'d Path,
    written: Vec<File>,
    obsolete: Vec<String>,
    last: std::time::Instant,
}

impl<'d> Journal<'d> {
    fn new(dir: &'d Path) -> Journal<'d> {
        Journal { dir, written: Vec::new(), obsolete: Vec::new(), last: std::time::Instant::now() }
    }

    /// Writes `dir/name` whole with `write`, to be synced at the next checkpoint.
    fn write(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
    ) -> Result<(), TierError> {
        let f = write_with(self.dir, name, write, |_| Ok(()))?;
        self.written.push(f);
        Ok(())
    }

    /// Removes `dir/name` once the manifest of the next checkpoint is on disk.
    fn remove_later(&mut self, name: String) {
        self.obsolete.push(name);
    }

    /// A tier is finished and `manifest` says so: a checkpoint when one is due.
    fn finished(&mut self, manifest: &Manifest) -> Result<(), TierError> {
        if self.last.elapsed().as_secs() >= CHECKPOINT_SECONDS || self.written.len() >= 256 {
            self.checkpoint(manifest)?;
        }
        Ok(())
    }

    fn checkpoint(&mut self, manifest: &Manifest) -> Result<(), TierError> {
        for f in self.written.drain(..) {
            f.sync_all().map_err(io_error(self.dir))?;
        }
        File::open(self.dir).and_then(|d| d.sync_all()).map_err(io_error(self.dir))?;
        manifest.write(self.dir)?;
        for name in self.obsolete.drain(..) {
            remove(self.dir, &name)?;
        }
        self.last = std::time::Instant::now();
        Ok(())
    }
}

/// A read-only map of a file of the directory (nothing for an empty file, which cannot
/// be mapped).
struct Mapped(Option<memmap2::Mmap>);

impl Mapped {
    fn open(path: &Path, len: u64) -> Result<Mapped, TierError> {
        let file = File::open(path).map_err(io_error(path))?;
        let found = file.metadata().map_err(io_error(path))?.len();
        if found != len {
            return Err(TierError::Corrupt {
                path: path.to_owned(),
                reason: format!("expected {len} bytes, found {found}"),
            });
        }
        if len == 0 {
            return Ok(Mapped(None));
        }
        // SAFETY: the map is read-only and private to this process; it is sound as long as
        // no other process truncates or writes the file while it is mapped. The solver
        // writes each file whole under another name before renaming it into place and
        // never writes it again; a directory shared with a concurrent writer is outside
        // the contract of this module, as for every tool that maps its files.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::MmapOptions::new().map(&file) }.map_err(io_error(path))?;
        Ok(Mapped(Some(map)))
    }

    fn bytes(&self) -> &[u8] {
        self.0.as_deref().unwrap_or(&[])
    }
}

fn reach_name(t: u32) -> String {
    format!("reach-{t}.bits")
}

fn codes_name(t: u32) -> String {
    format!("values-{t}.codes")
}

pub(crate) fn values_name(t: u32) -> String {
    format!("tier-{t}.values")
}

/// Removes a working file that no step needs any more (nothing when it is gone already:
/// an interrupted run may have removed it).
pub(crate) fn remove(dir: &Path, name: &str) -> Result<(), TierError> {
    let path = dir.join(name);
    match fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&path)(e)),
        _ => Ok(()),
    }
}

/// The start field of tier `t`'s values file: the tier and a hash of the directory's
/// identity.
pub(crate) fn file_start(dir_identity: &str, t: u32) -> u128 {
    let hash = dir_identity.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    u128::from(hash) << 64 | u128::from(t)
}

pub(crate) fn file_identity<G: Tiered>(game: &G, t: u32) -> String {
    format!("{} tier {t}", game.identity())
}

pub(crate) fn file_error(path: &Path) -> impl FnOnce(FileError) -> TierError + '_ {
    move |e| match e {
        FileError::Io { kind, message } => TierError::Io { path: path.to_owned(), kind, message },
        e => TierError::Corrupt { path: path.to_owned(), reason: e.to_string() },
    }
}

/// Writes the values file of tier `t` from its codes.
fn write_values<G: Tiered, C: Code>(
    run: &Run<'_, G>,
    journal: &mut Journal<'_>,
    dir_identity: &str,
    t: u32,
    codes: &[u8],
) -> Result<(), TierError> {
    let game = run.game;
    let size = game.tier_size(t);
    let skip = |first: u64, out: &mut [bool]| game.tier_ranks_may_be_reached(t, first, out);
    let value = |r: u64| {
        if r.is_multiple_of(1 << 16) {
            run.tick((size - r).min(1 << 16));
        }
        C::stored(codes, r as usize, run.remoteness)
    };
    let dir = journal.dir;
    write_tier_file(
        game,
        dir_identity,
        t,
        dir,
        |name, write| journal.write(name, write),
        |w, header| save_by_rank(w, header, size, run.remoteness, Some(&skip), &value),
    )
}

/// Writes the values file of tier `t` of `game` (in the directory `dir` of identity
/// `dir_identity`) with `write`, a writer of whole files (a journal's, or [`write_with`]),
/// and `save`, given the file's header: a values-file error other than I/O is the file's
/// [`TierError::Corrupt`].
pub(crate) fn write_tier_file<G: Tiered, T>(
    game: &G,
    dir_identity: &str,
    t: u32,
    dir: &Path,
    write: impl FnOnce(
        &str,
        &mut dyn FnMut(&mut io::BufWriter<&File>) -> io::Result<()>,
    ) -> Result<T, TierError>,
    save: impl FnOnce(&mut io::BufWriter<&File>, FileGame<'_>) -> Result<(), FileError>,
) -> Result<T, TierError> {
    let name = values_name(t);
    let identity = file_identity(game, t);
    let mut failed = None;
    let mut save = Some(save);
    let mut once = |w: &mut io::BufWriter<&File>| {
        let header = FileGame {
            identity: &identity,
            numbering: game.numbering(),
            start: file_start(dir_identity, t),
        };
        let save = save.take().expect("a values file is written once");
        save(w, header).map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            io::Error::other(message)
        })
    };
    let written = write(&name, &mut once);
    written.map_err(|e| match failed {
        Some(FileError::Io { .. }) | None => e,
        Some(f) => file_error(&dir.join(&name))(f),
    })
}

/// [`TierError::TooManyTiers`] past [`MAX_TIERS`].
pub(crate) fn check_tier_count<G: Tiered>(game: &G) -> Result<(), TierError> {
    match game.tier_count() {
        count if count > MAX_TIERS => Err(TierError::TooManyTiers { count }),
        _ => Ok(()),
    }
}

/// The identity of the game whose tiers the directory `dir` holds (solved or not), read
/// from its manifest, without the game: what a front end reads to know which game to open
/// the directory with.
///
/// # Errors
/// The manifest cannot be read or is not one.
pub fn tiers_identity(dir: &Path) -> Result<String, TierError> {
    let path = dir.join(MANIFEST);
    let m = Manifest::read(&path)?;
    match m.header.game.split_once(" (numbering ") {
        Some((identity, _)) => Ok(identity.to_owned()),
        None => Err(TierError::Corrupt {
            path,
            reason: "line 2: expected the game's identity and numbering".into(),
        }),
    }
}

/// The text that identifies a game in a directory: its [`identity`](crate::Game::identity)
/// and numbering, its start position and the sizes of its tiers.
pub(crate) fn identity<G: Tiered>(game: &G) -> String {
    let start = game.canonical(game.start());
    let sizes = (0..game.tier_count()).fold(0xcbf2_9ce4_8422_2325u64, |hash, t| {
        (hash ^ game.tier_size(t)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!(
        "{} (numbering {}) from {} in {} tiers of sizes {sizes:016x}",
        game.identity(),
        game.numbering(),
        game.show(start),
        game.tier_count()
    )
}

/// [`TierError::Limit`] when a step of the solve of the tiers `order` (with their
/// `children`) needs more than `limit` bytes, a tier taking `bits(t)` bytes of reachable
/// ranks and `codes(t)` bytes of value codes: the reach pass holds the bit sets of the
/// tiers being filled (the children of the tiers expanded so far that are not expanded
/// yet), the solve of a tier its bits, its codes and its children's codes.
pub(crate) fn check_memory<G: Tiered>(
    game: &G,
    order: &[u32],
    children: &[Vec<u32>],
    limit: u64,
    bits: impl Fn(u32) -> u64,
    codes: impl Fn(u32) -> u64,
) -> Result<(), TierError> {
    let mut open = vec![false; children.len()];
    let mut open_bytes = 0;
    for &t in order {
        if !std::mem::replace(&mut open[t as usize], true) {
            open_bytes += bits(t);
        }
        for &c in &children[t as usize] {
            if !std::mem::replace(&mut open[c as usize], true) {
                open_bytes += bits(c);
            }
        }
        let stay = if game.moves_stay(t) { bits(t) } else { 0 };
        let reach = open_bytes + stay;
        open_bytes -= bits(t);
        let solve =
            codes(t) + bits(t) + children[t as usize].iter().map(|&c| codes(c)).sum::<u64>();
        let bytes = reach.max(solve);
        if bytes > limit {
            let limit = Limit::Memory { needed: bytes, allowed: Some(limit) };
            return Err(TierError::Limit { limit, tier: t });
        }
    }
    Ok(())
}

/// The tiers a solve works through: those play reaches from the start's, parents first,
/// with the parents and children of each (indexed by tier).
pub(crate) struct Plan<P> {
    pub(crate) start: P,
    pub(crate) start_tier: u32,
    pub(crate) order: Vec<u32>,
    pub(crate) parents: Vec<Vec<u32>>,
    pub(crate) children: Vec<Vec<u32>>,
}

impl<P: Copy> Plan<P> {
    /// The plan of `game`.
    ///
    /// # Errors
    /// [`TierError::TooManyTiers`]; [`TierError::Contract`] for child tiers on a cycle or
    /// past the count.
    pub(crate) fn new<G: Tiered<Position = P>>(game: &G) -> Result<Plan<P>, TierError> {
        check_tier_count(game)?;
        let start = game.canonical(game.start());
        let start_tier = game.tier(start);
        let (order, parents) = tier_order(game, start_tier).map_err(|t| TierError::Contract {
            tier: t,
            message: "the child tiers form a cycle or name a tier past the count".into(),
        })?;
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); parents.len()];
        for &t in &order {
            for &p in &parents[t as usize] {
                children[p as usize].push(t);
            }
        }
        Ok(Plan { start, start_tier, order, parents, children })
    }
}

/// Solves `game` tier by tier into the directory `dir` (created if needed), or resumes the
/// solve already there: the tiers it finished are read back, not computed again.
///
/// Memory: the tier being marked or solved (a bit a rank, and a code a rank), and maps of
/// the files of its parent or child tiers; with [`TierConfig::max_memory`], every tier's
/// need is checked against it before any work. A tier with moves inside it also holds
/// 24 bytes per such move and per position that has one.
///
/// The files and the answers are the same on every number of threads.
///
/// # Errors
/// [`TierError::TooManyTiers`] for a game of more than [`MAX_TIERS`] tiers, before any
/// work; [`TierError::OtherGame`] when `dir` holds another game's or other settings' solve;
/// [`TierError::Limit`], [`TierError::Io`],
/// [`TierError::Corrupt`], [`TierError::Contract`], [`TierError::Remoteness`].
///
/// # Complexity
/// Two passes over the reachable ranks of every tier, each generating the moves of every
/// reachable position: the first once per child tier, the second once (plus sweeps inside
/// tiers whose moves may stay). Working files: a bit and a code (half a byte without
/// remoteness, otherwise one or two bytes) per rank.
pub fn solve_tiers<G: Tiered>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
) -> Result<TierSummary, TierError> {
    if config.no_remoteness {
        solve_with::<G, Nibble>(game, dir, config)
    } else if game.remoteness_bound().is_none_or(|b| b > u8::MAX_REMOTENESS) {
        solve_with::<G, u16>(game, dir, config)
    } else {
        solve_with::<G, u8>(game, dir, config)
    }
}

fn solve_with<G: Tiered, C: Code>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
) -> Result<TierSummary, TierError> {
    let remoteness = !config.no_remoteness;
    let Plan { start, start_tier, order, parents, children } = Plan::new(game)?;
    let size = |t: u32| game.tier_size(t);
    let bits_bytes = |t: u32| words(size(t)) as u64 * 8;
    let codes_bytes = |t: u32| C::bytes(size(t));
    if let Some(limit) = config.max_memory {
        check_memory(game, &order, &children, limit, bits_bytes, codes_bytes)?;
    }
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let dir_identity = identity(game);
    let header = Header {
        game: dir_identity.clone(),
        tiers: game.tier_count(),
        remoteness,
        code_bits: C::BITS,
    };
    let manifest_path = dir.join(MANIFEST);
    let mut manifest = if manifest_path.exists() {
        let m = Manifest::read(&manifest_path)?;
        if m.header != header {
            let show = |h: &Header| {
                format!(
                    "{} with {} ({}-bit codes)",
                    h.game,
                    if h.remoteness { "remoteness" } else { "no remoteness" },
                    h.code_bits
                )
            };
            return Err(TierError::OtherGame { found: show(&m.header), expected: show(&header) });
        }
        m
    } else {
        let m = Manifest::new(header);
        m.write(dir)?;
        m
    };
    let resumed = order
        .iter()
        .map(|&t| {
            u32::from(manifest.reached[t as usize].is_some())
                + u32::from(manifest.solved[t as usize].is_some())
        })
        .sum();
    let run = Run::new(game, config, start_tier, order.len() as u32);
    // Every pass's files are made durable by the journal's checkpoints, the last when the
    // passes end, however they end.
    let mut journal = Journal::new(dir);
    let passes = (|| -> Result<(), TierError> {
        // Parents first: the reachable ranks of each tier, each marking the ranks its moves
        // reach in its children. A resumed solve first marks again what the tiers reached
        // before mark in the tiers not reached yet.
        let mut open: Vec<Option<Bits>> = (0..game.tier_count()).map(|_| None).collect();
        let before: Vec<bool> = manifest.reached.iter().map(Option::is_some).collect();
        let reached = |t: u32| before[t as usize];
        let allocate = |open: &mut Vec<Option<Bits>>, t: u32| {
            for &c in &children[t as usize] {
                if open[c as usize].is_none() && !reached(c) {
                    open[c as usize] = Some(bits(size(c)));
                }
            }
        };
        for &t in &order {
            if reached(t) && children[t as usize].iter().any(|&c| !reached(c)) {
                allocate(&mut open, t);
                let path = dir.join(reach_name(t));
                let map = Mapped::open(&path, bits_bytes(t))?;
                let own: Bits =
                    (0..words(size(t))).map(|i| AtomicU64::new(word(map.bytes(), i))).collect();
                drop(map);
                expand_tier(&run, t, &own, false, &children[t as usize], &open)?;
            }
        }
        for &t in &order {
            if reached(t) {
                run.steps_done.fetch_add(1, Relaxed);
                continue;
            }
            let own = open[t as usize].take().unwrap_or_else(|| bits(size(t)));
            if start_tier == t {
                let r = game.tier_rank(start);
                if r >= size(t) {
                    return Err(run.contract(t, format!("the start's rank {r} is past the tier")));
                }
                set(&own, r);
            }
            allocate(&mut open, t);
            expand_tier(&run, t, &own, game.moves_stay(t), &children[t as usize], &open)?;
            let own: Vec<u64> = own.into_iter().map(AtomicU64::into_inner).collect();
            let count = own.iter().map(|w| u64::from(w.count_ones())).sum();
            journal.write(&reach_name(t), |f| {
                own.iter().try_for_each(|w| f.write_all(&w.to_le_bytes()))
            })?;
            drop(own);
            manifest.reached[t as usize] = Some(count);
            journal.finished(&manifest)?;
            run.steps_done.fetch_add(1, Relaxed);
        }
        drop(open);
        // Children first: the values of each tier.
        run.steps_done.store(0, Relaxed);
        let mut child_maps: Vec<Option<Mapped>> = (0..game.tier_count()).map(|_| None).collect();
        for &t in order.iter().rev() {
            if manifest.solved[t as usize].is_some() {
                run.steps_done.fetch_add(1, Relaxed);
                continue;
            }
            for &c in &children[t as usize] {
                if child_maps[c as usize].is_none() {
                    child_maps[c as usize] =
                        Some(Mapped::open(&dir.join(codes_name(c)), codes_bytes(c))?);
                }
            }
            let mut views: Vec<Option<&[u8]>> = vec![None; game.tier_count() as usize];
            for &c in &children[t as usize] {
                views[c as usize] = child_maps[c as usize].as_ref().map(Mapped::bytes);
            }
            let bits = Mapped::open(&dir.join(reach_name(t)), bits_bytes(t))?;
            let codes = solve_tier::<G, C>(&run, t, bits.bytes(), &views)?;
            let counts =
                codes.par_chunks(1 << 16).map(C::counts).reduce(Counts::default, |mut a, b| {
                    a.add(b);
                    a
                });
            drop(bits);
            if !parents[t as usize].is_empty() {
                journal.write(&codes_name(t), |f| f.write_all(&codes))?;
            }
            if size(t) > 0 {
                run.begin(TierPhase::Write, t, size(t));
                write_values::<G, C>(&run, &mut journal, &dir_identity, t, &codes)?;
            }
            drop(codes);
            manifest.solved[t as usize] = Some(counts);
            journal.finished(&manifest)?;
            run.steps_done.fetch_add(1, Relaxed);
            journal.remove_later(reach_name(t));
            // A tier's codes are read by its parents only; those of this tier's children that
            // no unsolved tier needs any more are let go.
            for &c in &children[t as usize] {
                if parents[c as usize].iter().all(|&p| manifest.solved[p as usize].is_some()) {
                    child_maps[c as usize] = None;
                    journal.remove_later(codes_name(c));
                }
            }
        }
        drop(child_maps);
        Ok(())
    })();
    let synced = journal.checkpoint(&manifest);
    passes?;
    synced?;
    // Working files an interruption may have left behind.
    for &t in &order {
        remove(dir, &codes_name(t))?;
        remove(dir, &reach_name(t))?;
    }
    let counts = manifest.solved_counts(&order);
    let values = TierFiles::open(game, dir)?;
    let file_bytes = values.file_bytes;
    let v = values.lookup(game, start)?.ok_or_else(|| TierError::Corrupt {
        path: dir.join(values_name(start_tier)),
        reason: "the start has no value".into(),
    })?;
    Ok(TierSummary {
        counts,
        start_outcome: v.0,
        start_remoteness: v.1,
        tiers: order.iter().map(|&t| (t, manifest.reached[t as usize].unwrap_or(0))).collect(),
        resumed,
        file_bytes,
    })
}

/// The values of a directory solved by [`solve_tiers`], queried by position: each tier's
/// values file is opened (its header and block index read), and a query reads one block.
pub struct TierValues<G> {
    game: G,
    files: TierFiles,
}

/// The values files of a solved directory, opened.
pub(crate) struct TierFiles {
    remoteness: bool,
    dir: PathBuf,
    files: Vec<Option<Mutex<RawFile<File>>>>,
    pub(crate) file_bytes: u64,
}

impl<G> fmt::Debug for TierValues<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TierValues")
            .field("remoteness", &self.files.remoteness)
            .field("tiers", &self.files.files.iter().filter(|m| m.is_some()).count())
            .field("file_bytes", &self.files.file_bytes)
            .finish()
    }
}

impl TierFiles {
    /// Opens the values files of the solved directory `dir` of `game`.
    pub(crate) fn open<G: Tiered>(game: &G, dir: &Path) -> Result<TierFiles, TierError> {
        check_tier_count(game)?;
        let m = Manifest::read(&dir.join(MANIFEST))?;
        let expected = identity(game);
        if m.header.game != expected || m.header.tiers != game.tier_count() {
            return Err(TierError::OtherGame { found: m.header.game, expected });
        }
        let start_tier = game.tier(game.canonical(game.start()));
        let (order, _) = tier_order(game, start_tier).map_err(|t| TierError::Contract {
            tier: t,
            message: "the child tiers form a cycle or name a tier past the count".into(),
        })?;
        let mut files: Vec<Option<Mutex<RawFile<File>>>> =
            (0..game.tier_count()).map(|_| None).collect();
        let mut file_bytes = 0;
        for &t in &order {
            if m.solved[t as usize].is_none() {
                return Err(TierError::Unfinished { tier: t });
            }
            if game.tier_size(t) == 0 {
                continue;
            }
            let path = dir.join(values_name(t));
            let file = File::open(&path).map_err(io_error(&path))?;
            file_bytes += file.metadata().map_err(io_error(&path))?.len();
            let raw = RawFile::open(file).map_err(file_error(&path))?;
            let corrupt =
                |reason: &str| TierError::Corrupt { path: path.clone(), reason: reason.to_owned() };
            if raw.identity != file_identity(game, t)
                || raw.numbering != game.numbering()
                || raw.start != file_start(&expected, t)
            {
                let found = format!("{} (numbering {})", raw.identity, raw.numbering);
                return Err(TierError::OtherGame { found, expected: file_identity(game, t) });
            }
            if !raw.by_ranks() || raw.has_remoteness() != m.header.remoteness {
                return Err(corrupt("the values file does not match the manifest"));
            }
            files[t as usize] = Some(Mutex::new(raw));
        }
        Ok(TierFiles { remoteness: m.header.remoteness, dir: dir.to_owned(), files, file_bytes })
    }

    /// The value of the canonical position `c` of `game`.
    pub(crate) fn lookup<G: Tiered>(
        &self,
        game: &G,
        c: G::Position,
    ) -> Result<Option<(Outcome, Option<u32>)>, TierError> {
        let t = game.tier(c);
        let Some(Some(file)) = self.files.get(t as usize) else { return Ok(None) };
        let r = game.tier_rank(c);
        if r >= game.tier_size(t) {
            return Ok(None);
        }
        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
        file.rank_value(r, &|first, out| game.tier_ranks_may_be_reached(t, first, out))
            .map_err(file_error(&self.dir.join(values_name(t))))
    }
}

impl<G: Tiered> TierValues<G> {
    /// Opens the solved directory `dir` of `game`, which it keeps.
    ///
    /// # Errors
    /// [`TierError::OtherGame`] when it holds another game; [`TierError::Unfinished`] when
    /// a tier play reaches has no values yet; [`TierError::Io`], [`TierError::Corrupt`].
    pub fn open(game: G, dir: &Path) -> Result<TierValues<G>, TierError> {
        let files = TierFiles::open(&game, dir)?;
        Ok(TierValues { game, files })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The bytes of the values files, one per tier.
    pub fn file_bytes(&self) -> u64 {
        self.files.file_bytes
    }

    /// Whether the values hold remoteness.
    pub fn has_remoteness(&self) -> bool {
        self.files.remoteness
    }

    /// The outcome and remoteness of a position (canonicalised first); `Ok(None)` when
    /// play does not reach it.
    ///
    /// # Errors
    /// [`TierError::Corrupt`] when a code in the file is impossible.
    pub fn value(&self, p: G::Position) -> Result<Option<(Outcome, Option<u32>)>, TierError> {
        self.files.lookup(&self.game, self.game.canonical(p))
    }

    /// The value of a position and of every move from it, best first, as
    /// [`SolvedGame::query`](crate::SolvedGame::query) gives them; `Ok(None)` when play
    /// does not reach it.
    ///
    /// # Errors
    /// As [`value`](TierValues::value); [`TierError::Corrupt`] when a move of a reachable
    /// position has no value.
    pub fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, TierError> {
        let Some((outcome, remoteness)) = self.value(p)? else { return Ok(None) };
        let mut next = Vec::new();
        self.game.moves(p, &mut next);
        let mut moves = Vec::with_capacity(next.len());
        for q in next {
            let (o, r) = self.value(q)?.ok_or_else(|| TierError::Corrupt {
                path: self.files.dir.join(values_name(self.game.tier(self.game.canonical(q)))),
                reason: "a move of a reachable position has no value".into(),
            })?;
            moves.push(MoveValue { position: q, outcome: o.flip(), remoteness: r });
        }
        Ok(Some(PositionValue::new(p, outcome, remoteness, moves)))
    }
}
