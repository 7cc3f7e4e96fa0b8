//! The tier solver across workers that share nothing but messages: every tier's ranks are
//! cut into slices of [`SLICE`] ranks, dealt round the workers, and each worker marks,
//! solves and encodes its own slices, asking the owners for the values of the children its
//! positions move to, in batched exchanges. Worker 0 gathers the encoded blocks and writes
//! the values files, the same files byte for byte as [`solve_tiers`](super::solve_tiers).
//!
//! # The exchange
//! Workers talk only through [`Exchange::exchange`]: a round in which every worker sends
//! one message (possibly empty) to every worker and receives one from each. Every worker
//! takes part in the same rounds in the same order; the first byte of each message says
//! whether its sender has more to do in the current loop (so that every worker leaves a
//! loop in the same round) or has failed (so that every worker stops in the same round).
//!
//! # A worker's directory
//! Each process has a directory of its own (no shared file system is assumed): the
//! `manifest` of [`solve_tiers`](super::solve_tiers), with the counts of the whole game;
//! a `part` file with the layout (processes and workers per process), which a resume must
//! find the same; and, per worker `g` while the solve runs, `part-<g>-reach-<t>.bits` (the
//! reachable ranks of its slices of tier `t`, a bit a rank) and `part-<g>-values-<t>.codes`
//! (their value codes). Process 0's directory also holds the values files. Every step (a
//! tier reached, a tier solved) ends with a round after which each process records it in
//! its manifest; a working file is removed one step after the step that made it useless,
//! so that after an interruption the processes resume together from the step that all of
//! them recorded.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use super::Tiered;
use super::code::{Code, Nibble, Value};
use super::config::{TierConfig, TierError, TierPhase, TierSummary, io_error};
use super::dir::{
    Header, MANIFEST, Manifest, Plan, Run, TierFiles, file_error, file_identity, file_start,
    identity, remove, values_name, write_with,
};
use super::reach::for_each_position;
use super::solve::{Moves, terminal};
use crate::store::{BLOCK_ENTRIES, FileGame, encode_rank_block, write_rank_blocks};
use crate::{Counts, FileError, Outcome};

/// Ranks per slice: the unit dealt to the workers, a values-file block, so that a worker
/// encodes the blocks of its own slices.
pub const SLICE: u64 = BLOCK_ENTRIES as u64;
/// 64-bit words of reachable-rank bits per slice.
const SLICE_WORDS: usize = (SLICE / 64) as usize;
/// Slices of a worker read in one batch (one or two rounds each).
const BATCH_SLICES: u64 = 16;
/// Ranks taken at a time from a worker's queue of ranks marked behind its cursor.
const QUEUE_BATCH: usize = 1 << 16;
/// Bytes of encoded blocks a worker sends worker 0 in one round.
const GATHER_BYTES: usize = 1 << 24;

/// The first byte of every message.
const DONE: u8 = 0;
const MORE: u8 = 1;
const FAILED: u8 = 2;

const PART: &str = "part";
const PART_MAGIC: &str = "gamegraph-tiers-part 1";

/// How the workers of a solve across workers talk: rounds in which each sends one message
/// to every worker and receives one from each.
pub trait Exchange {
    /// Why an exchange failed (a lost peer); [`TierError`]s of the solve become it too.
    type Error: From<TierError>;

    /// This worker's index, `0..workers()`.
    fn worker(&self) -> usize;

    /// The number of workers.
    fn workers(&self) -> usize;

    /// One round: sends `out[w]` to worker `w` (`out` has a message for every worker, this
    /// one's own included) and returns the message each worker sent this one, by worker.
    /// Every worker calls it the same number of times.
    ///
    /// # Errors
    /// When the workers cannot reach each other.
    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, Self::Error>;
}

/// The rounds of one worker, with the status byte of each message.
struct Link<'x, X> {
    x: &'x mut X,
    n: usize,
}

impl<X: Exchange> Link<'_, X> {
    /// Messages to every worker, each with room for the status byte.
    fn empty(&self) -> Vec<Vec<u8>> {
        vec![vec![DONE]; self.n]
    }

    /// One round of `out` (from [`Link::empty`]); `more` says this worker has more to do.
    /// Returns the messages received (each after its status byte) and whether any worker
    /// has more to do.
    fn round(
        &mut self,
        mut out: Vec<Vec<u8>>,
        more: bool,
    ) -> Result<(Vec<Vec<u8>>, bool), X::Error> {
        for m in &mut out {
            m[0] = if more { MORE } else { DONE };
        }
        let got = self.x.exchange(out)?;
        let mut any = more;
        for (w, m) in got.iter().enumerate() {
            match m.first() {
                Some(&FAILED) => {
                    return Err(TierError::Peer { worker: w, reason: "failed".into() }.into());
                }
                Some(&MORE) => any = true,
                Some(&DONE) => {}
                _ => return Err(malformed(w).into()),
            }
        }
        Ok((got, any))
    }

    /// A round that only says who has more to do.
    fn any(&mut self, more: bool) -> Result<bool, X::Error> {
        let out = self.empty();
        Ok(self.round(out, more)?.1)
    }

    /// The work of this worker between two rounds: on failure, every other worker is told
    /// in the next round, and this worker returns its error.
    fn local<T>(&mut self, r: Result<T, TierError>) -> Result<T, X::Error> {
        r.map_err(|e| {
            // The others stop in this round; what the exchange says no longer matters.
            let _ = self.x.exchange(vec![vec![FAILED]; self.n]);
            e.into()
        })
    }
}

fn malformed(worker: usize) -> TierError {
    TierError::Peer { worker, reason: "a message this worker cannot read".into() }
}

/// Appends `v` in 7-bit groups, the lowest first.
fn put(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

/// Reads what [`put`] wrote, from the message of `worker`.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    worker: usize,
}

impl<'a> Reader<'a> {
    /// The payload of `message` (after its status byte) from `worker`.
    fn new(message: &'a [u8], worker: usize) -> Reader<'a> {
        Reader { bytes: message, at: 1, worker }
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn get(&mut self) -> Result<u64, TierError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| malformed(self.worker))?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(malformed(self.worker))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], TierError> {
        let s = self.bytes.get(self.at..self.at + n).ok_or_else(|| malformed(self.worker))?;
        self.at += n;
        Ok(s)
    }
}

/// Sorts and dedups `keys` (tier, rank) and appends them: per tier, the tier, the count
/// and the ranks as differences.
fn put_keys(buf: &mut Vec<u8>, keys: &mut Vec<(u32, u64)>) {
    keys.sort_unstable();
    keys.dedup();
    let mut i = 0;
    while i < keys.len() {
        let t = keys[i].0;
        let end = i + keys[i..].partition_point(|k| k.0 == t);
        put(buf, u64::from(t));
        put(buf, (end - i) as u64);
        let mut last = 0;
        for &(_, r) in &keys[i..end] {
            put(buf, r - last);
            last = r;
        }
        i = end;
    }
}

/// Calls `f` with every key of a message of [`put_keys`].
fn each_key(
    mut r: Reader<'_>,
    mut f: impl FnMut(u32, u64) -> Result<(), TierError>,
) -> Result<(), TierError> {
    while !r.done() {
        let t = u32::try_from(r.get()?).map_err(|_| malformed(r.worker))?;
        let count = r.get()?;
        let mut rank = 0u64;
        for _ in 0..count {
            rank = rank.checked_add(r.get()?).ok_or_else(|| malformed(r.worker))?;
            f(t, rank)?;
        }
    }
    Ok(())
}

/// Which worker owns which ranks: slice `k` of tier `t` (ranks `k·SLICE..`) goes to
/// worker `(k + t) mod n`, the tiers turned so that the small ones fall on different
/// workers; a worker keeps its slices one after the other.
#[derive(Clone, Copy, Debug)]
struct Share {
    me: usize,
    n: u64,
}

impl Share {
    fn owner(self, t: u32, r: u64) -> usize {
        ((r / SLICE + u64::from(t) % self.n) % self.n) as usize
    }

    /// The first slice of tier `t` this worker owns.
    fn offset(self, t: u32) -> u64 {
        (self.me as u64 + self.n - u64::from(t) % self.n) % self.n
    }

    /// The slices of tier `t` (of `size` ranks) this worker owns.
    fn slices(self, t: u32, size: u64) -> u64 {
        let (k, off) = (size.div_ceil(SLICE), self.offset(t));
        if k > off { (k - off - 1) / self.n + 1 } else { 0 }
    }

    /// The slice of tier `t` that is this worker's `j`-th.
    fn slice(self, t: u32, j: u64) -> u64 {
        j * self.n + self.offset(t)
    }

    /// This worker's index of its rank `r`.
    fn local(self, r: u64) -> u64 {
        r / SLICE / self.n * SLICE + r % SLICE
    }

    /// The rank of this worker's index `i` in tier `t`.
    fn global(self, t: u32, i: u64) -> u64 {
        self.slice(t, i / SLICE) * SLICE + i % SLICE
    }
}

/// Sets bit `i`; whether it was clear.
fn set_bit(bits: &mut [u64], i: u64) -> bool {
    let (w, b) = (&mut bits[(i / 64) as usize], 1u64 << (i % 64));
    let fresh = *w & b == 0;
    *w |= b;
    fresh
}

fn bits_name(g: usize, t: u32) -> String {
    format!("part-{g}-reach-{t}.bits")
}

fn codes_name(g: usize, t: u32) -> String {
    format!("part-{g}-values-{t}.codes")
}

/// Writes `bytes` to `dir/name` whole and durably (the directory is synced at the end of
/// the step).
fn write_part(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), TierError> {
    write_with(dir, name, |w| w.write_all(bytes), File::sync_all).map(drop)
}

fn read_part(dir: &Path, name: &str, len: usize) -> Result<Vec<u8>, TierError> {
    let path = dir.join(name);
    let bytes = fs::read(&path).map_err(io_error(&path))?;
    if bytes.len() != len {
        let reason = format!("expected {len} bytes, found {}", bytes.len());
        return Err(TierError::Corrupt { path, reason });
    }
    Ok(bytes)
}

fn words_of(bytes: &[u8]) -> Vec<u64> {
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect()
}

fn bytes_of(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The text of the `part` file.
fn part_text(processes: usize, workers: usize) -> String {
    format!("{PART_MAGIC}\nprocesses {processes}\nworkers {workers}\nslice {SLICE}\n")
}

/// Solves `game` tier by tier as one of the workers of [`Exchange`] `x`, into this
/// process's directory `dir` (created if needed), resuming the solve already there: every
/// worker calls it with the same game and settings, the workers of one process with the
/// same `dir`, `workers_per_process` consecutive workers a process. Process 0's directory
/// ends as [`solve_tiers`](super::solve_tiers) leaves it (its `manifest` and values files
/// byte for byte, and a `part` file); the others keep their manifest and `part` file.
///
/// Memory per worker: its slices of the tier being marked and of the tiers it marks (a
/// bit a rank), or of the tier being solved (a code a rank, and the bits) and of the child
/// tiers not yet let go (a code a rank), plus the messages of one batch (16 slices) of
/// moves. A tier with moves inside it also holds, for those moves, about 24 bytes each on
/// the worker of the position they come from and 16 on the worker of the one they reach.
/// Worker 0 also holds the encoded blocks of the tier being written.
///
/// The values are the same on every number of processes and workers.
///
/// # Errors
/// Those of [`solve_tiers`](super::solve_tiers) (but [`TierConfig::max_memory`] is not
/// read); [`TierError::OtherGame`] also when the directory holds a part of a solve on
/// another layout; [`TierError::Peer`] when another worker failed; the exchange's own.
///
/// # Panics
/// When `workers_per_process` is 0 or does not divide the exchange's workers.
pub fn solve_tiers_part<G: Tiered, X: Exchange>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
    workers_per_process: usize,
    x: &mut X,
) -> Result<TierSummary, X::Error> {
    if config.no_remoteness {
        part_with::<G, X, Nibble>(game, dir, config, workers_per_process, x)
    } else if game.remoteness_bound().is_none_or(|b| b > u8::MAX_REMOTENESS) {
        part_with::<G, X, u16>(game, dir, config, workers_per_process, x)
    } else {
        part_with::<G, X, u8>(game, dir, config, workers_per_process, x)
    }
}

/// One worker's solve: the fixed things of the run.
struct Worker<'a, G: Tiered, C> {
    run: Run<'a, G>,
    plan: Plan<G::Position>,
    share: Share,
    dir: &'a Path,
    /// This worker's index.
    g: usize,
    /// Whether this worker writes its process's manifest.
    writes_manifest: bool,
    manifest: Manifest,
    /// Files this worker no longer needs since the last step, and since the step before.
    obsolete: Vec<String>,
    lagging: Vec<String>,
    /// This worker's codes of the solved tiers that unsolved tiers read.
    codes: Vec<Option<Vec<u8>>>,
    code: std::marker::PhantomData<C>,
}

fn part_with<G: Tiered, X: Exchange, C: Code>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
    workers_per_process: usize,
    x: &mut X,
) -> Result<TierSummary, X::Error> {
    let n = x.workers();
    let g = x.worker();
    assert!(
        workers_per_process > 0 && n.is_multiple_of(workers_per_process) && g < n,
        "{workers_per_process} workers a process do not divide {n} workers"
    );
    let mut link = Link { x, n };
    let setup = setup::<G, C>(game, dir, config, workers_per_process, g, n);
    let (plan, header, found) = link.local(setup)?;
    // The step every process recorded: the least of them.
    let steps = 2 * plan.order.len() as u64;
    let mine = found.as_ref().map_or(0, |m| finished(&plan.order, m));
    let mut out = link.empty();
    for m in &mut out {
        put(m, mine);
    }
    let (got, _) = link.round(out, false)?;
    let mut from = 0;
    for (w, m) in got.iter().enumerate() {
        let k = link.local(Reader::new(m, w).get())?;
        from = if w == 0 { k } else { from.min(k) };
    }
    let from = from.min(steps) as usize;
    let mut manifest = found.unwrap_or_else(|| Manifest::new(header));
    let len = plan.order.len();
    for (i, &t) in plan.order.iter().enumerate() {
        if i >= from {
            manifest.reached[t as usize] = None;
        }
        if len + (len - 1 - i) >= from {
            manifest.solved[t as usize] = None;
        }
    }
    let tiers = game.tier_count() as usize;
    let mut w = Worker::<G, C> {
        run: Run::new(game, config, plan.start_tier, len as u32),
        plan,
        share: Share { me: g, n: n as u64 },
        dir,
        g,
        writes_manifest: g.is_multiple_of(workers_per_process),
        manifest,
        obsolete: Vec::new(),
        lagging: Vec::new(),
        codes: (0..tiers).map(|_| None).collect(),
        code: std::marker::PhantomData,
    };
    w.reach_pass(&mut link, from.min(len))?;
    w.solve_pass(&mut link, from.saturating_sub(len))?;
    w.finish(&mut link, from as u32)
}

/// The plan, the directory's header, and its manifest when it has one.
type Setup<P> = (Plan<P>, Header, Option<Manifest>);

/// The plan, the directory's header, and its manifest when it has one (after checking the
/// layout and the game).
fn setup<G: Tiered, C: Code>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
    workers_per_process: usize,
    g: usize,
    n: usize,
) -> Result<Setup<G::Position>, TierError> {
    let plan = Plan::new(game)?;
    let header = Header {
        game: identity(game),
        tiers: game.tier_count(),
        remoteness: !config.no_remoteness,
        code_bits: C::BITS,
    };
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let processes = n / workers_per_process;
    let layout = part_text(processes, workers_per_process);
    let path = dir.join(MANIFEST);
    if !path.exists() {
        if g.is_multiple_of(workers_per_process) {
            // The part file first: a manifest is never without it.
            super::dir::write_file(dir, PART, layout.as_bytes())?;
            Manifest::new(header.clone()).write(dir)?;
        }
        return Ok((plan, header, None));
    }
    let m = Manifest::read(&path)?;
    if m.header != header {
        return Err(TierError::OtherGame { found: m.header.game, expected: header.game });
    }
    let part = dir.join(PART);
    let found = match fs::read_to_string(&part) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            "the solve of one process (no part file)".to_owned()
        }
        Err(e) => return Err(io_error(&part)(e)),
    };
    if found != layout {
        return Err(TierError::OtherGame {
            found: found.replace('\n', " ").trim().to_owned(),
            expected: layout.replace('\n', " ").trim().to_owned(),
        });
    }
    Ok((plan, header, Some(m)))
}

/// The steps a manifest records: the tiers reached, parents first, then the tiers solved,
/// children first, as far as they go without a gap.
fn finished(order: &[u32], m: &Manifest) -> u64 {
    let reached = order.iter().take_while(|&&t| m.reached[t as usize].is_some()).count();
    if reached < order.len() {
        return reached as u64;
    }
    let solved = order.iter().rev().take_while(|&&t| m.solved[t as usize].is_some()).count();
    (reached + solved) as u64
}

/// A batch of moves read by a worker: the (tier, rank) of each move that leaves its tier
/// and must be marked or asked for, by worker.
struct Keys(Vec<Vec<(u32, u64)>>);

impl<'a, G: Tiered, C: Code> Worker<'a, G, C> {
    fn size(&self, t: u32) -> u64 {
        self.run.game.tier_size(t)
    }

    /// This worker's ranks (slots) of tier `t`.
    fn slots(&self, t: u32) -> u64 {
        self.share.slices(t, self.size(t)) * SLICE
    }

    /// Calls `f` with the reachable positions of this worker's slices `from..to` of tier
    /// `t`, whose bits `bits` holds from slice `from` on.
    fn each_position(
        &self,
        t: u32,
        bits: &[u64],
        from: u64,
        to: u64,
        mut f: impl FnMut(u64, G::Position) -> Result<(), TierError>,
    ) -> Result<(), TierError> {
        let size = self.size(t);
        for j in from..to {
            let lo = self.share.slice(t, j) * SLICE;
            let hi = (lo + SLICE).min(size);
            let base = (j - from) as usize * SLICE_WORDS;
            let word = |v: usize| bits[base + v - (lo / 64) as usize];
            for_each_position(&self.run, t, &word, lo, hi, &mut f)?;
        }
        self.run.tick((to - from) * SLICE);
        Ok(())
    }

    /// Ends a step: this worker's files are durable, every worker has finished the step
    /// (a round that sends `payload` to every worker and returns theirs), the process's
    /// manifest records it, and the files useless since the step before are removed.
    fn end_step<X: Exchange>(
        &mut self,
        link: &mut Link<'_, X>,
        payload: &[u8],
    ) -> Result<Vec<Vec<u8>>, X::Error> {
        let dir = self.dir;
        link.local(File::open(dir).and_then(|d| d.sync_all()).map_err(io_error(dir)))?;
        let mut out = link.empty();
        for m in &mut out {
            m.extend_from_slice(payload);
        }
        let (got, _) = link.round(out, false)?;
        Ok(got)
    }

    /// Records the step in the manifest (the process's first worker) and moves the files
    /// on towards removal.
    fn checkpoint(&mut self) -> Result<(), TierError> {
        if self.writes_manifest {
            self.manifest.write(self.dir)?;
        }
        for name in self.lagging.drain(..) {
            remove(self.dir, &name)?;
        }
        self.lagging = std::mem::take(&mut self.obsolete);
        Ok(())
    }

    /// The reachability pass, parents first, from step `from`.
    fn reach_pass<X: Exchange>(
        &mut self,
        link: &mut Link<'_, X>,
        from: usize,
    ) -> Result<(), X::Error> {
        let order = self.plan.order.clone();
        let count = self.run.game.tier_count() as usize;
        let mut open: Vec<Option<Vec<u64>>> = (0..count).map(|_| None).collect();
        let reached = |t: u32| order[..from].contains(&t);
        // A resumed solve first marks again what the tiers reached before mark in the
        // tiers not reached yet.
        for &t in &order[..from] {
            let children = &self.plan.children[t as usize];
            if children.iter().all(|&c| reached(c)) {
                continue;
            }
            self.allocate(&mut open, t, &reached);
            let slots = self.slots(t);
            let bytes =
                link.local(read_part(self.dir, &bits_name(self.g, t), (slots / 8) as usize))?;
            let mut own = words_of(&bytes);
            self.expand(link, t, &mut own, false, &mut open)?;
        }
        for (i, &t) in order.iter().enumerate().skip(from) {
            self.run.set_steps_done(i as u32);
            let mut own =
                open[t as usize].take().unwrap_or_else(|| vec![0; self.slots(t) as usize / 64]);
            if t == self.plan.start_tier {
                let r = self.run.game.tier_rank(self.plan.start);
                let outside = (r >= self.size(t)).then(|| {
                    self.run.contract(t, format!("the start's rank {r} is past the tier"))
                });
                link.local(outside.map_or(Ok(()), Err))?;
                if self.share.owner(t, r) == self.share.me {
                    set_bit(&mut own, self.share.local(r));
                }
            }
            self.allocate(&mut open, t, &|c| order[..i].contains(&c));
            self.expand(link, t, &mut own, self.run.game.moves_stay(t), &mut open)?;
            let mine: u64 = own.iter().map(|w| u64::from(w.count_ones())).sum();
            link.local(write_part(self.dir, &bits_name(self.g, t), &bytes_of(&own)))?;
            drop(own);
            let mut payload = Vec::new();
            put(&mut payload, mine);
            let got = self.end_step(link, &payload)?;
            let mut total = 0u64;
            for (w, m) in got.iter().enumerate() {
                total += link.local(Reader::new(m, w).get())?;
            }
            self.manifest.reached[t as usize] = Some(total);
            link.local(self.checkpoint())?;
        }
        Ok(())
    }

    /// Opens this worker's bits of the children of `t` not reached yet.
    fn allocate(&self, open: &mut [Option<Vec<u64>>], t: u32, reached: &dyn Fn(u32) -> bool) {
        for &c in &self.plan.children[t as usize] {
            if open[c as usize].is_none() && !reached(c) {
                open[c as usize] = Some(vec![0; self.slots(c) as usize / 64]);
            }
        }
    }

    /// Marks the moves of this worker's reachable ranks `own` of tier `t` in the open bit
    /// sets of the tiers they land in (their owners', through the rounds); with `close`,
    /// moves that stay in `t` are marked and expanded in turn until no worker has any left.
    fn expand<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
        own: &mut [u64],
        close: bool,
        open: &mut [Option<Vec<u64>>],
    ) -> Result<(), X::Error> {
        let game = self.run.game;
        let (share, size) = (self.share, self.size(t));
        let slices = share.slices(t, size);
        let children = &self.plan.children[t as usize];
        self.run.begin(TierPhase::Reach, t, slices * SLICE);
        let mut cursor = 0u64;
        // This worker's ranks of `t` marked behind its cursor, not expanded yet.
        let mut queue: Vec<u64> = Vec::new();
        let mut moves = Vec::new();
        loop {
            let mut keys = Keys(vec![Vec::new(); link.n]);
            let mut inside = false;
            let batch = (|| -> Result<(), TierError> {
                self.run.check_stop()?;
                let mut mark = |pos: G::Position,
                                own: &mut [u64],
                                open: &mut [Option<Vec<u64>>],
                                queue: &mut Vec<u64>,
                                cursor: u64|
                 -> Result<(), TierError> {
                    moves.clear();
                    game.moves(pos, &mut moves);
                    for &q in &moves {
                        let c = game.canonical(q);
                        let (ct, r) = (game.tier(c), game.tier_rank(c));
                        if ct == t && !close {
                            continue;
                        }
                        if ct != t && !children.contains(&ct) {
                            return Err(self.run.contract(
                                t,
                                format!("a move lands in tier {ct}, not a child tier"),
                            ));
                        }
                        if ct != t && open[ct as usize].is_none() {
                            continue;
                        }
                        let n = self.size(ct);
                        if r >= n {
                            return Err(self.run.contract(
                                t,
                                format!("a move lands on rank {r} of tier {ct}, of {n} ranks"),
                            ));
                        }
                        let owner = share.owner(ct, r);
                        if owner != share.me {
                            keys.0[owner].push((ct, r));
                            inside |= ct == t;
                        } else if ct == t {
                            let i = share.local(r);
                            if set_bit(own, i) && i / SLICE < cursor {
                                queue.push(i);
                            }
                        } else {
                            set_bit(
                                open[ct as usize].as_mut().expect("an open tier"),
                                share.local(r),
                            );
                        }
                    }
                    Ok(())
                };
                if cursor < slices {
                    let to = (cursor + BATCH_SLICES).min(slices);
                    let snapshot =
                        own[cursor as usize * SLICE_WORDS..to as usize * SLICE_WORDS].to_vec();
                    let from = std::mem::replace(&mut cursor, to);
                    self.each_position(t, &snapshot, from, to, |_, pos| {
                        mark(pos, own, open, &mut queue, to)
                    })?;
                } else {
                    let take = queue.len().min(QUEUE_BATCH);
                    let batch: Vec<u64> = queue.drain(queue.len() - take..).collect();
                    for i in batch {
                        let pos = self.run.unrank(t, share.global(t, i))?;
                        mark(pos, own, open, &mut queue, cursor)?;
                    }
                }
                Ok(())
            })();
            link.local(batch)?;
            let mut out = link.empty();
            for (m, k) in out.iter_mut().zip(&mut keys.0) {
                put_keys(m, k);
            }
            let more = cursor < slices || !queue.is_empty() || inside;
            let (got, any) = link.round(out, more)?;
            for (w, m) in got.iter().enumerate().filter(|&(w, _)| w != share.me) {
                let applied = each_key(Reader::new(m, w), |ct, r| {
                    if share.owner(ct, r) != share.me || r >= self.size(ct) {
                        return Err(malformed(w));
                    }
                    let i = share.local(r);
                    if ct == t {
                        if set_bit(own, i) && i / SLICE < cursor {
                            queue.push(i);
                        }
                    } else if let Some(bits) = open.get_mut(ct as usize).and_then(Option::as_mut) {
                        set_bit(bits, i);
                    } else {
                        return Err(malformed(w));
                    }
                    Ok(())
                });
                link.local(applied)?;
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// This worker's codes of child tier `c`: kept since it was solved, or read back.
    fn load_codes(&mut self, c: u32) -> Result<(), TierError> {
        if self.codes[c as usize].is_none() {
            let len = C::bytes(self.slots(c)) as usize;
            self.codes[c as usize] = Some(read_part(self.dir, &codes_name(self.g, c), len)?);
        }
        Ok(())
    }

    /// The solve pass, children first, from its step `from`.
    fn solve_pass<X: Exchange>(
        &mut self,
        link: &mut Link<'_, X>,
        from: usize,
    ) -> Result<(), X::Error> {
        let order: Vec<u32> = self.plan.order.iter().rev().copied().collect();
        for (i, &t) in order.iter().enumerate().skip(from) {
            self.run.set_steps_done(i as u32);
            let children = self.plan.children[t as usize].clone();
            for &c in &children {
                let loaded = self.load_codes(c);
                link.local(loaded)?;
            }
            let slots = self.slots(t);
            let bits =
                link.local(read_part(self.dir, &bits_name(self.g, t), (slots / 8) as usize))?;
            let bits = words_of(&bits);
            let mut codes = vec![0u8; C::bytes(slots) as usize];
            let pending = self.values(link, t, &bits, &mut codes)?;
            drop(bits);
            let any = link.any(!pending.0.is_empty())?;
            if any {
                self.retrograde(link, t, &mut codes, pending)?;
            }
            let mut counts = Counts::default();
            for v in (0..slots as usize).filter_map(|i| C::read(&codes, i)) {
                match v.outcome {
                    Outcome::Win => counts.win += 1,
                    Outcome::Loss => counts.loss += 1,
                    Outcome::Tie => counts.tie += 1,
                    Outcome::Draw => counts.draw += 1,
                }
            }
            if !self.plan.parents[t as usize].is_empty() {
                link.local(write_part(self.dir, &codes_name(self.g, t), &codes))?;
            }
            if self.size(t) > 0 {
                self.write_values(link, t, &codes)?;
            }
            if !self.plan.parents[t as usize].is_empty() {
                self.codes[t as usize] = Some(codes);
            }
            let mut payload = Vec::new();
            for c in [counts.win, counts.loss, counts.tie, counts.draw] {
                put(&mut payload, c as u64);
            }
            let got = self.end_step(link, &payload)?;
            let mut total = Counts::default();
            for (w, m) in got.iter().enumerate() {
                let mut r = Reader::new(m, w);
                let mut next = || link_get(&mut r);
                let c = link.local((|| Ok([next()?, next()?, next()?, next()?]))())?;
                total.win += c[0];
                total.loss += c[1];
                total.tie += c[2];
                total.draw += c[3];
            }
            self.manifest.solved[t as usize] = Some(total);
            self.obsolete.push(bits_name(self.g, t));
            for &c in &children {
                if self.plan.parents[c as usize]
                    .iter()
                    .all(|&p| self.manifest.solved[p as usize].is_some())
                {
                    self.codes[c as usize] = None;
                    self.obsolete.push(codes_name(self.g, c));
                }
            }
            link.local(self.checkpoint())?;
        }
        Ok(())
    }
}

/// A count read from a message.
fn link_get(r: &mut Reader<'_>) -> Result<usize, TierError> {
    let w = r.worker;
    usize::try_from(r.get()?).map_err(|_| malformed(w))
}

/// The positions of a tier whose value waits for moves inside it, on one worker: each
/// with its index among the worker's slots and its other moves, in increasing order; and
/// the moves inside the tier, as (index in the list, rank moved to).
struct Pending(Vec<(u64, Moves)>, Vec<(u32, u64)>);

impl<G: Tiered, C: Code> Worker<'_, G, C> {
    fn step(&self) -> u32 {
        u32::from(self.run.remoteness)
    }

    fn encode(&self, t: u32, v: Value, i: u64) -> Result<u32, TierError> {
        C::encode(v).ok_or(TierError::Remoteness {
            tier: t,
            rank: self.share.global(t, i),
            remoteness: v.remoteness,
        })
    }

    /// The values of this worker's reachable ranks `bits` of tier `t` whose moves all
    /// leave it, into `codes`; the others wait, returned.
    fn values<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
        bits: &[u64],
        codes: &mut [u8],
    ) -> Result<Pending, X::Error> {
        let game = self.run.game;
        let share = self.share;
        let slices = share.slices(t, self.size(t));
        let children = &self.plan.children[t as usize];
        self.run.begin(TierPhase::Solve, t, slices * SLICE);
        let width = if C::BITS == 16 { 2 } else { 1 };
        let mut pending = Pending(Vec::new(), Vec::new());
        let mut cursor = 0u64;
        let mut moves = Vec::new();
        loop {
            // The positions of the batch with what their moves to this worker's ranks say,
            // and the moves to other workers' ranks: (position in the batch, worker, key).
            let mut batch: Vec<(u64, Moves)> = Vec::new();
            let mut asked: Vec<(u32, usize, (u32, u64))> = Vec::new();
            let mut keys = Keys(vec![Vec::new(); link.n]);
            let to = (cursor + BATCH_SLICES).min(slices);
            let read = (|| -> Result<(), TierError> {
                self.run.check_stop()?;
                let words = &bits[cursor as usize * SLICE_WORDS..to as usize * SLICE_WORDS];
                let mut inside = Vec::new();
                self.each_position(t, words, cursor, to, |r, pos| {
                    let i = share.local(r);
                    moves.clear();
                    game.moves(pos, &mut moves);
                    if moves.is_empty() {
                        C::set(codes, i as usize, self.encode(t, terminal(game.terminal(pos)), i)?);
                        return Ok(());
                    }
                    let mut m = Moves::default();
                    inside.clear();
                    for &q in &moves {
                        let c = game.canonical(q);
                        let (ct, cr) = (game.tier(c), game.tier_rank(c));
                        if ct == t {
                            m.inside += 1;
                            m.not_win += 1;
                            inside.push(cr);
                            continue;
                        }
                        let unreachable =
                            || {
                                self.run.contract(t, format!(
                                "a move of {} lands on rank {cr} of tier {ct}, which is not a \
                                 reachable rank of a child tier",
                                game.show(pos)
                            ))
                            };
                        if !children.contains(&ct) || cr >= self.size(ct) {
                            return Err(unreachable());
                        }
                        let owner = share.owner(ct, cr);
                        if owner == share.me {
                            let codes = self.codes[ct as usize].as_deref().unwrap_or(&[]);
                            m.add(
                                C::read(codes, share.local(cr) as usize).ok_or_else(unreachable)?,
                            );
                        } else {
                            asked.push((batch.len() as u32, owner, (ct, cr)));
                            keys.0[owner].push((ct, cr));
                        }
                    }
                    if m.inside > 0 {
                        let index = (pending.0.len()
                            + batch.iter().filter(|(_, m)| m.inside > 0).count())
                            as u32;
                        for &cr in &inside {
                            if cr >= self.size(t) {
                                return Err(self.run.contract(
                                    t,
                                    format!("a move lands on rank {cr} of tier {t}, past the tier"),
                                ));
                            }
                            pending.1.push((index, cr));
                        }
                    }
                    batch.push((i, m));
                    Ok(())
                })
            })();
            link.local(read)?;
            cursor = to;
            let mut out = link.empty();
            for (m, k) in out.iter_mut().zip(&mut keys.0) {
                put_keys(m, k);
            }
            let (got, more) = link.round(out, cursor < slices)?;
            // The answers: the code of every key asked, in the order asked.
            let mut out = link.empty();
            for (w, m) in got.iter().enumerate().filter(|&(w, _)| w != share.me) {
                let answer = &mut out[w];
                let answered = each_key(Reader::new(m, w), |ct, r| {
                    if share.owner(ct, r) != share.me {
                        return Err(malformed(w));
                    }
                    let codes =
                        self.codes.get(ct as usize).and_then(Option::as_deref).unwrap_or(&[]);
                    let i = share.local(r) as usize;
                    let code = if i < C::count(codes) { C::get(codes, i) } else { 0 };
                    answer.extend_from_slice(&code.to_le_bytes()[..width]);
                    Ok(())
                });
                link.local(answered)?;
            }
            let (answers, _) = link.round(out, false)?;
            let combined = (|| -> Result<(), TierError> {
                for &(b, w, key) in &asked {
                    let k = keys.0[w].binary_search(&key).map_err(|_| malformed(w))?;
                    let at = 1 + k * width;
                    let bytes = answers[w].get(at..at + width).ok_or_else(|| malformed(w))?;
                    let mut code = [0u8; 4];
                    code[..width].copy_from_slice(bytes);
                    let mut one = [0u8; 2];
                    C::set(&mut one, 0, u32::from_le_bytes(code));
                    let v =
                        C::read(&one, 0).ok_or_else(|| {
                            self.run.contract(t, format!(
                            "a move lands on rank {} of tier {}, which is not a reachable rank \
                             of a child tier",
                            key.1, key.0
                        ))
                        })?;
                    batch[b as usize].1.add(v);
                }
                for (i, m) in batch {
                    if m.inside == 0 {
                        C::set(codes, i as usize, self.encode(t, m.value(self.step()), i)?);
                    } else {
                        pending.0.push((i, m));
                    }
                }
                Ok(())
            })();
            link.local(combined)?;
            if !more {
                return Ok(pending);
            }
        }
    }
}

/// Which values a phase of [`Worker::retrograde`] spreads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    WinLoss,
    Tie,
}

/// The retrograde analysis inside a tier across workers: what one worker holds.
struct Inside {
    /// The waiting positions of this worker (index among its slots, other moves).
    waiting: Vec<(u64, Moves)>,
    decided: Vec<bool>,
    not_win: Vec<u32>,
    to_win: Vec<u32>,
    /// For each of this worker's ranks that a move inside the tier reaches (by index among
    /// its slots), the rank each such move comes from, sorted.
    parents: Vec<(u64, u64)>,
    /// Events by remoteness: "this worker's rank (by index) has this value".
    buckets: BTreeMap<u32, Vec<(u64, Value)>>,
}

impl Inside {
    fn waiting_index(&self, i: u64) -> Option<usize> {
        self.waiting.binary_search_by_key(&i, |&(j, _)| j).ok()
    }

    fn push(&mut self, i: u64, v: Value) {
        self.buckets.entry(v.remoteness).or_default().push((i, v));
    }

    /// A move from this worker's waiting position `i` reaches a position of value `v`.
    fn arrive(&mut self, i: u64, v: Value, step: u32) -> Option<()> {
        let j = self.waiting_index(i)?;
        if self.decided[j] {
            return Some(());
        }
        let later = v.remoteness + step;
        match v.outcome {
            Outcome::Loss => self.push(i, Value { outcome: Outcome::Win, remoteness: later }),
            Outcome::Win => {
                self.to_win[j] = self.to_win[j].max(v.remoteness);
                self.not_win[j] -= 1;
                if self.not_win[j] == 0 {
                    let remoteness = self.to_win[j] + step;
                    self.push(i, Value { outcome: Outcome::Loss, remoteness });
                }
            }
            Outcome::Tie => self.push(i, Value { outcome: Outcome::Tie, remoteness: later }),
            Outcome::Draw => {}
        }
        Some(())
    }
}

impl<G: Tiered, C: Code> Worker<'_, G, C> {
    /// Retrograde analysis inside tier `t` across workers, as the one-machine solver does
    /// it: the waiting positions get their values from those of the positions their moves
    /// inside the tier reach, by increasing remoteness (a round for each remoteness that
    /// some worker has an event of), first wins and losses, then ties; the rest are draws.
    fn retrograde<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
        codes: &mut [u8],
        pending: Pending,
    ) -> Result<(), X::Error> {
        let (share, step) = (self.share, self.step());
        let Pending(waiting, arcs) = pending;
        // Each move inside the tier tells the owner of the rank it reaches where it comes
        // from (every move, repeated ones too: each counts once against a loss).
        let mut subs: Vec<Vec<(u64, u64)>> = vec![Vec::new(); link.n];
        for &(p, to) in &arcs {
            let from = share.global(t, waiting[p as usize].0);
            subs[share.owner(t, to)].push((to, from));
        }
        drop(arcs);
        let mut parents: Vec<(u64, u64)> = Vec::new();
        let mut out = link.empty();
        for (w, (m, s)) in out.iter_mut().zip(&mut subs).enumerate() {
            s.sort_unstable();
            if w == share.me {
                parents.extend(s.iter().map(|&(to, from)| (share.local(to), from)));
                continue;
            }
            put(m, s.len() as u64);
            let mut last = 0;
            for &(to, from) in s.iter() {
                put(m, to - last);
                put(m, from);
                last = to;
            }
        }
        drop(subs);
        let (got, _) = link.round(out, false)?;
        for (w, m) in got.iter().enumerate().filter(|&(w, _)| w != share.me) {
            let read = (|| -> Result<(), TierError> {
                let mut r = Reader::new(m, w);
                let mut to = 0u64;
                for _ in 0..r.get()? {
                    to = to.checked_add(r.get()?).ok_or_else(|| malformed(w))?;
                    let from = r.get()?;
                    if share.owner(t, to) != share.me || to >= self.size(t) {
                        return Err(malformed(w));
                    }
                    parents.push((share.local(to), from));
                }
                Ok(())
            })();
            link.local(read)?;
        }
        parents.sort_unstable();
        let mut s = Inside {
            decided: vec![false; waiting.len()],
            not_win: waiting.iter().map(|(_, m)| m.not_win).collect(),
            to_win: waiting.iter().map(|(_, m)| m.to_win).collect(),
            waiting,
            parents,
            buckets: BTreeMap::new(),
        };
        for phase in [Phase::WinLoss, Phase::Tie] {
            let spreads = |o: Outcome| match phase {
                Phase::WinLoss => matches!(o, Outcome::Win | Outcome::Loss),
                Phase::Tie => o == Outcome::Tie,
            };
            // The ranks reached whose value is known (their moves all leave the tier).
            let mut seeds = Vec::new();
            let mut last = None;
            for &(i, _) in &s.parents {
                if last == Some(i) || s.waiting_index(i).is_some() {
                    continue;
                }
                last = Some(i);
                let v = C::read(codes, i as usize).ok_or_else(|| {
                    self.run.contract(
                        t,
                        format!(
                            "a move lands on rank {} of tier {t}, which play does not reach",
                            share.global(t, i)
                        ),
                    )
                });
                let v = link.local(v)?;
                if spreads(v.outcome) {
                    seeds.push((i, v));
                }
            }
            for (i, v) in seeds {
                s.push(i, v);
            }
            for j in 0..s.waiting.len() {
                let (i, m) = s.waiting[j];
                let d = match phase {
                    Phase::WinLoss => m.to_loss.map(|d| (Outcome::Win, d)),
                    Phase::Tie if !s.decided[j] => m.to_tie.map(|d| (Outcome::Tie, d)),
                    Phase::Tie => None,
                };
                if let Some((outcome, d)) = d {
                    s.push(i, Value { outcome, remoteness: d + step });
                }
            }
            loop {
                // The least remoteness any worker has an event of.
                let mine = s.buckets.keys().next().map_or(0, |&b| u64::from(b) + 1);
                let mut out = link.empty();
                for m in &mut out {
                    put(m, mine);
                }
                let (got, _) = link.round(out, false)?;
                let mut least = None;
                for (w, m) in got.iter().enumerate() {
                    let b = link.local(Reader::new(m, w).get())?;
                    if b > 0 {
                        least = Some(least.map_or(b - 1, |l: u64| l.min(b - 1)));
                    }
                }
                let Some(b) = least else { break };
                let b = link.local(u32::try_from(b).map_err(|_| malformed(0)))?;
                let events = s.buckets.remove(&b).unwrap_or_default();
                let mut out = link.empty();
                let mut local = Vec::new();
                for (i, v) in events {
                    if let Some(j) = s.waiting_index(i) {
                        if s.decided[j] {
                            continue;
                        }
                        s.decided[j] = true;
                        let code = link.local(self.encode(t, v, i))?;
                        C::set(codes, i as usize, code);
                    }
                    let code = C::encode(v).expect("a value that was encoded");
                    let first = s.parents.partition_point(|&(c, _)| c < i);
                    for &(c, from) in &s.parents[first..] {
                        if c != i {
                            break;
                        }
                        let owner = share.owner(t, from);
                        if owner == share.me {
                            local.push((share.local(from), v));
                        } else {
                            put(&mut out[owner], from);
                            put(&mut out[owner], u64::from(code));
                        }
                    }
                }
                for (i, v) in local {
                    s.arrive(i, v, step)
                        .expect("a move inside the tier comes from a waiting position");
                }
                let (got, _) = link.round(out, false)?;
                for (w, m) in got.iter().enumerate().filter(|&(w, _)| w != share.me) {
                    let read = (|| -> Result<(), TierError> {
                        let mut r = Reader::new(m, w);
                        while !r.done() {
                            let from = r.get()?;
                            let code = u32::try_from(r.get()?).map_err(|_| malformed(w))?;
                            let mut one = [0u8; 2];
                            C::set(&mut one, 0, code);
                            let v = C::read(&one, 0).ok_or_else(|| malformed(w))?;
                            if share.owner(t, from) != share.me {
                                return Err(malformed(w));
                            }
                            s.arrive(share.local(from), v, step).ok_or_else(|| malformed(w))?;
                        }
                        Ok(())
                    })();
                    link.local(read)?;
                }
            }
        }
        let draw = link.local(
            C::encode(Value { outcome: Outcome::Draw, remoteness: 0 }).ok_or_else(|| malformed(0)),
        )?;
        for (j, &(i, _)) in s.waiting.iter().enumerate() {
            if !s.decided[j] {
                C::set(codes, i as usize, draw);
            }
        }
        Ok(())
    }

    /// Encodes this worker's blocks of tier `t` from its `codes` and gathers every
    /// worker's on worker 0, which writes the tier's values file.
    fn write_values<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
        codes: &[u8],
    ) -> Result<(), X::Error> {
        let (game, share, size) = (self.run.game, self.share, self.size(t));
        let slices = share.slices(t, size);
        let remoteness = self.run.remoteness;
        let skip = |first: u64, out: &mut [bool]| game.tier_ranks_may_be_reached(t, first, out);
        self.run.begin(TierPhase::Write, t, slices * SLICE);
        let mut blocks: Vec<Option<(u128, Vec<u8>)>> = if share.me == 0 {
            (0..size.div_ceil(SLICE)).map(|_| None).collect()
        } else {
            Vec::new()
        };
        let mut j = 0;
        loop {
            let mut out = link.empty();
            let mut bytes = 0;
            while j < slices && bytes < GATHER_BYTES {
                let k = share.slice(t, j);
                let first = k * SLICE;
                let len = (size - first).min(SLICE);
                let (skipped, block) =
                    encode_rank_block(first, len as usize, Some(&skip), remoteness, |slot| {
                        let v = C::read(codes, (j * SLICE + u64::from(slot)) as usize)?;
                        Some((
                            v.outcome,
                            (remoteness && v.outcome != Outcome::Draw).then_some(v.remoteness),
                        ))
                    });
                bytes += block.len();
                if share.me == 0 {
                    blocks[k as usize] = Some((skipped, block));
                } else {
                    let m = &mut out[0];
                    put(m, k);
                    m.extend_from_slice(&skipped.to_le_bytes());
                    put(m, block.len() as u64);
                    m.extend_from_slice(&block);
                }
                j += 1;
            }
            self.run.tick(bytes as u64);
            let (got, any) = link.round(out, j < slices)?;
            if share.me == 0 {
                for (w, m) in got.iter().enumerate().skip(1) {
                    let read = (|| -> Result<(), TierError> {
                        let mut r = Reader::new(m, w);
                        while !r.done() {
                            let k = r.get()?;
                            let skipped =
                                u128::from_le_bytes(r.take(16)?.try_into().expect("16 bytes"));
                            let len = usize::try_from(r.get()?).map_err(|_| malformed(w))?;
                            let block = r.take(len)?.to_vec();
                            *blocks.get_mut(k as usize).ok_or_else(|| malformed(w))? =
                                Some((skipped, block));
                        }
                        Ok(())
                    })();
                    link.local(read)?;
                }
            }
            if !any {
                break;
            }
        }
        if share.me != 0 {
            return Ok(());
        }
        let written = (|| -> Result<(), TierError> {
            let blocks: Vec<(u128, Vec<u8>)> = blocks
                .into_iter()
                .map(|b| b.ok_or_else(|| malformed(0)))
                .collect::<Result<_, _>>()?;
            let name = values_name(t);
            let mut failed = None;
            write_with(
                self.dir,
                &name,
                |w| {
                    write_rank_blocks(
                        w,
                        FileGame {
                            identity: &file_identity(game, t),
                            numbering: game.numbering(),
                            start: file_start(&self.manifest.header.game, t),
                        },
                        size,
                        remoteness,
                        true,
                        &blocks,
                    )
                    .map_err(|e| {
                        let message = e.to_string();
                        failed = Some(e);
                        io::Error::other(message)
                    })
                },
                File::sync_all,
            )
            .map(drop)
            .map_err(|e| match failed {
                Some(FileError::Io { .. }) | None => e,
                Some(f) => file_error(&self.dir.join(&name))(f),
            })
        })();
        link.local(written)
    }

    /// The end of the solve: every worker removes its working files, and learns the start's
    /// value and the size of the values files from worker 0.
    fn finish<X: Exchange>(
        mut self,
        link: &mut Link<'_, X>,
        resumed: u32,
    ) -> Result<TierSummary, X::Error> {
        // Every process has recorded the last step once every worker is past this round.
        link.any(false)?;
        let removed = (|| -> Result<(), TierError> {
            for &t in &self.plan.order {
                remove(self.dir, &bits_name(self.g, t))?;
                remove(self.dir, &codes_name(self.g, t))?;
            }
            self.obsolete.clear();
            self.lagging.clear();
            Ok(())
        })();
        link.local(removed)?;
        let game = self.run.game;
        let mut out = link.empty();
        if self.share.me == 0 {
            let read = (|| -> Result<(u64, Outcome, Option<u32>), TierError> {
                let files = TierFiles::open(game, self.dir)?;
                let (o, r) =
                    files.lookup(game, self.plan.start)?.ok_or_else(|| TierError::Corrupt {
                        path: self.dir.join(values_name(self.plan.start_tier)),
                        reason: "the start has no value".into(),
                    })?;
                Ok((files.file_bytes, o, r))
            })();
            let (bytes, o, r) = link.local(read)?;
            for m in &mut out {
                put(m, bytes);
                put(m, Outcome::ALL.iter().position(|&x| x == o).expect("an outcome") as u64);
                put(m, r.map_or(0, |r| u64::from(r) + 1));
            }
        }
        let (got, _) = link.round(out, false)?;
        let summary = (|| -> Result<TierSummary, TierError> {
            let mut r = Reader::new(&got[0], 0);
            let file_bytes = r.get()?;
            let outcome = *Outcome::ALL.get(r.get()? as usize).ok_or_else(|| malformed(0))?;
            let remoteness = match r.get()? {
                0 => None,
                x => Some(u32::try_from(x - 1).map_err(|_| malformed(0))?),
            };
            let m = &self.manifest;
            let mut counts = Counts::default();
            for c in self.plan.order.iter().filter_map(|&t| m.solved[t as usize]) {
                counts.win += c.win;
                counts.loss += c.loss;
                counts.tie += c.tie;
                counts.draw += c.draw;
            }
            Ok(TierSummary {
                counts,
                start_outcome: outcome,
                start_remoteness: remoteness,
                tiers: self
                    .plan
                    .order
                    .iter()
                    .map(|&t| (t, m.reached[t as usize].unwrap_or(0)))
                    .collect(),
                resumed,
                file_bytes,
            })
        })();
        link.local(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_deals_every_slice_to_one_worker_and_numbers_its_ranks_densely() {
        for n in 1..5u64 {
            for t in 0..4u32 {
                for size in [0, 1, SLICE, SLICE + 1, 7 * SLICE - 3] {
                    let shares: Vec<Share> = (0..n as usize).map(|me| Share { me, n }).collect();
                    let total: u64 = shares.iter().map(|s| s.slices(t, size)).sum();
                    assert_eq!(total, size.div_ceil(SLICE));
                    for r in (0..size).step_by(97) {
                        let s = shares[shares[0].owner(t, r)];
                        let i = s.local(r);
                        assert!(i < s.slices(t, size) * SLICE);
                        assert_eq!(s.global(t, i), r);
                    }
                }
            }
        }
    }

    #[test]
    fn keys_come_back_sorted_and_once() {
        let mut keys = vec![(3, 900), (1, 5), (3, 2), (1, 5), (0, u64::MAX)];
        let mut m = vec![DONE];
        put_keys(&mut m, &mut keys);
        let mut back = Vec::new();
        each_key(Reader::new(&m, 0), |t, r| {
            back.push((t, r));
            Ok(())
        })
        .unwrap();
        assert_eq!(back, vec![(0, u64::MAX), (1, 5), (3, 2), (3, 900)]);
        assert!(each_key(Reader::new(&m[..m.len() - 1], 0), |_, _| Ok(())).is_err());
    }
}
