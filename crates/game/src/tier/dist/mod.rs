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
//! tier reached, or the tiers of a step solved) ends with a round after which each
//! process records it in its manifest; a working file is removed one step after the step
//! that made it useless, so that after an interruption the processes resume together from
//! the step that all of them recorded.
//!
//! # Tiers solved at once
//! The tiers of one height (see [`solve_steps`]) do not read each other's values: a step
//! solves several of them at once, each in a lane with rounds of its own (`lanes`), so
//! that small tiers share their rounds.

mod lanes;
mod reach;
mod values;
mod wire;

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use gamegraph_graph::Limit;

use self::lanes::Lane;
use self::wire::{KeyWriter, Link, Reader, link_get, malformed, put, unkey};
use super::Tiered;
use super::code::{Code, Nibble};
use super::config::{TierConfig, TierError, TierPhase, TierSummary, io_error};
use super::dir::{
    Header, MANIFEST, Manifest, Plan, Run, TierFiles, check_memory, identity, remove, values_name,
    write_tier_file, write_with,
};
use super::reach::for_each_position;
use crate::store::{BLOCK_ENTRIES, encode_rank_block, write_rank_blocks};
use crate::{Counts, Outcome};

/// Ranks per slice: the unit dealt to the workers, a values-file block, so that a worker
/// encodes the blocks of its own slices.
pub const SLICE: u64 = BLOCK_ENTRIES as u64;
/// 64-bit words of reachable-rank bits per slice.
const SLICE_WORDS: usize = (SLICE / 64) as usize;
/// Slices of a worker read in one batch (a round each in each pass).
const BATCH_SLICES: u64 = 16;
/// Ranks taken at a time from a worker's queue of ranks marked behind its cursor.
const QUEUE_BATCH: usize = 1 << 16;
/// Bytes of encoded blocks a worker sends worker 0 in one round.
const GATHER_BYTES: usize = 1 << 24;

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

    /// [`Exchange::exchange`] with `during` run on this thread while the round is in
    /// flight, for an exchange whose messages travel without this thread: it sends `out`,
    /// runs `during`, then waits for the messages of the others. By default `during` runs
    /// before the round.
    ///
    /// # Errors
    /// As [`Exchange::exchange`].
    fn exchange_during(
        &mut self,
        out: Vec<Vec<u8>>,
        during: &mut dyn FnMut(),
    ) -> Result<Vec<Vec<u8>>, Self::Error> {
        during();
        self.exchange(out)
    }

    /// Runs each of `jobs` on a thread of its own while this thread runs `main` with this
    /// exchange, and returns once all have ended. The solver starts no thread itself: a
    /// step of several tiers solves each in a job, with rounds of its own that `main`
    /// carries in this exchange's rounds.
    ///
    /// # Panics
    /// When a job panics.
    fn concurrently<'a>(
        &mut self,
        jobs: Vec<Box<dyn FnOnce() + Send + 'a>>,
        main: &mut dyn FnMut(&mut Self),
    );
}

/// Which worker owns which ranks: slice `k` of tier `t` (ranks `k·SLICE..`) goes to
/// worker `(k + t) mod n`, the tiers turned so that the small ones fall on different
/// workers; a worker keeps its slices one after the other.
#[derive(Clone, Copy, Debug)]
struct Share {
    me: usize,
    n: u64,
    /// `2^64 / n` rounded up (0 for one worker): divisions of 32-bit numbers by `n` as
    /// multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct computation").
    inv: u64,
}

impl Share {
    fn new(me: usize, n: u64) -> Share {
        Share { me, n, inv: (u64::MAX / n).wrapping_add(1) }
    }

    /// `x % n`.
    fn rem(self, x: u64) -> u64 {
        match u32::try_from(x) {
            Ok(x) if self.n <= u64::from(u32::MAX) => {
                ((u128::from(self.inv.wrapping_mul(u64::from(x))) * u128::from(self.n)) >> 64)
                    as u64
            }
            _ => x % self.n,
        }
    }

    /// `x / n`.
    fn div(self, x: u64) -> u64 {
        match u32::try_from(x) {
            _ if self.n == 1 => x,
            Ok(x) if self.n <= u64::from(u32::MAX) => {
                ((u128::from(self.inv) * u128::from(x)) >> 64) as u64
            }
            _ => x / self.n,
        }
    }

    fn owner(self, t: u32, r: u64) -> usize {
        let o = self.rem(r / SLICE) + self.rem(u64::from(t));
        (if o >= self.n { o - self.n } else { o }) as usize
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
        self.div(r / SLICE) * SLICE + r % SLICE
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
/// bit a rank), or of the tiers being solved (a code a rank, and the bits) and of the
/// child tiers not yet let go (a code a rank), plus the messages of one batch (16 slices)
/// of moves a tier being solved. The tiers solved at once are the largest tier of their
/// step and smaller ones that together hold at most a batch a worker. A tier with moves
/// inside it also holds, for those moves, about 32 bytes each on the worker of the
/// position they come from and 8 on the worker of the one they reach, which also holds 12
/// bytes a rank of its share of the tier. Worker 0 also holds the encoded blocks of the
/// tier being written.
///
/// The values are the same on every number of processes and workers.
///
/// # Errors
/// Those of [`solve_tiers`](super::solve_tiers) ([`TierConfig::max_memory`] bounds the
/// shares of the process's workers together, the messages of a batch aside);
/// [`TierError::OtherGame`] also when the directory holds a part of a solve on
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
    /// The tiers in the order they are solved, in steps of tiers solved at once.
    steps: Vec<Vec<u32>>,
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
    let mut link = Link::new(x);
    let plan = link.local(Plan::new(game))?;
    let steps = solve_steps(&plan, |t| game.tier_size(t), n as u64);
    if let Some(limit) = config.max_memory {
        // Each worker of the process holds its share of every tier.
        let share = Share::new(g, n as u64);
        let slots = |t: u32| share.slices(t, game.tier_size(t)) * SLICE;
        let (bits, codes) = (|t| slots(t) / 8, |t| C::bytes(slots(t)));
        let limit_each = limit / workers_per_process as u64;
        let need = check_memory(game, &plan.order, &plan.children, limit_each, bits, codes)
            .and_then(|()| check_steps(&plan, &steps, limit_each, bits, codes))
            .map_err(|e| match e {
                TierError::Limit { limit: Limit::Memory { needed, .. }, tier } => {
                    TierError::Limit {
                        limit: Limit::Memory {
                            needed: needed * workers_per_process as u64,
                            allowed: Some(limit),
                        },
                        tier,
                    }
                }
                e => e,
            });
        link.local(need)?;
    }
    let setup = setup::<G, C>(game, dir, config, workers_per_process, g, n);
    let (header, found) = link.local(setup)?;
    // The step every process recorded: the least of them.
    let total = 2 * plan.order.len() as u64;
    let mine = found.as_ref().map_or(0, |m| finished(&plan.order, &steps, m));
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
    let from = from.min(total) as usize;
    let mut manifest = found.unwrap_or_else(|| Manifest::new(header));
    let len = plan.order.len();
    for &t in &plan.order[from.min(len)..] {
        manifest.reached[t as usize] = None;
    }
    let mut end = len;
    for step in &steps {
        end += step.len();
        if end > from {
            for &t in step {
                manifest.solved[t as usize] = None;
            }
        }
    }
    let tiers = game.tier_count() as usize;
    let mut w = Worker::<G, C> {
        run: Run::new(game, config, plan.start_tier, len as u32),
        plan,
        steps,
        share: Share::new(g, n as u64),
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

/// The directory's header, and its manifest when it has one (after checking the layout and
/// the game).
fn setup<G: Tiered, C: Code>(
    game: &G,
    dir: &Path,
    config: &TierConfig,
    workers_per_process: usize,
    g: usize,
    n: usize,
) -> Result<(Header, Option<Manifest>), TierError> {
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
        return Ok((header, None));
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
    Ok((header, Some(m)))
}

/// The tiers of the steps a manifest records: the tiers reached, parents first, then the
/// tiers of the solve's `steps` all solved, as far as they go without a gap.
fn finished(order: &[u32], steps: &[Vec<u32>], m: &Manifest) -> u64 {
    let reached = order.iter().take_while(|&&t| m.reached[t as usize].is_some()).count();
    if reached < order.len() {
        return reached as u64;
    }
    let solved: usize = steps
        .iter()
        .take_while(|s| s.iter().all(|&t| m.solved[t as usize].is_some()))
        .map(Vec::len)
        .sum();
    (reached + solved) as u64
}

/// The reached tiers of `plan` in the order they are solved, in steps of tiers solved at
/// once: by height (a tier with no child tier has height 0, another one more than its
/// highest child), each height in steps that take its tiers in turn until they hold a
/// batch of slices for each of the `n` workers. Small tiers share their rounds; a large
/// tier has a step of its own, or shares it with small ones only.
fn solve_steps<P>(plan: &Plan<P>, size: impl Fn(u32) -> u64, n: u64) -> Vec<Vec<u32>> {
    let mut height = vec![0u32; plan.children.len()];
    for &t in plan.order.iter().rev() {
        let children = &plan.children[t as usize];
        height[t as usize] = children.iter().map(|&c| height[c as usize] + 1).max().unwrap_or(0);
    }
    let mut tiers = plan.order.clone();
    tiers.sort_unstable_by_key(|&t| (height[t as usize], t));
    let enough = n * BATCH_SLICES * SLICE;
    let mut steps: Vec<Vec<u32>> = Vec::new();
    let (mut last, mut held) = (None, 0);
    for t in tiers {
        let h = height[t as usize];
        if last != Some(h) || held >= enough {
            steps.push(Vec::new());
            (last, held) = (Some(h), 0);
        }
        held += size(t);
        steps.last_mut().expect("a step").push(t);
    }
    steps
}

/// Checks that every step of several tiers fits `limit` bytes: the codes and bits of its
/// tiers and the codes of their children.
fn check_steps<P>(
    plan: &Plan<P>,
    steps: &[Vec<u32>],
    limit: u64,
    bits: impl Fn(u32) -> u64,
    codes: impl Fn(u32) -> u64,
) -> Result<(), TierError> {
    for step in steps.iter().filter(|s| s.len() > 1) {
        let children = step_children(plan, step);
        let needed = step.iter().map(|&t| codes(t) + bits(t)).sum::<u64>()
            + children.iter().map(|&c| codes(c)).sum::<u64>();
        if needed > limit {
            let limit = Limit::Memory { needed, allowed: Some(limit) };
            return Err(TierError::Limit { limit, tier: step[0] });
        }
    }
    Ok(())
}

/// The child tiers of the tiers of `step`, each once.
fn step_children<P>(plan: &Plan<P>, step: &[u32]) -> Vec<u32> {
    let mut children: Vec<u32> =
        step.iter().flat_map(|&t| plan.children[t as usize].iter().copied()).collect();
    children.sort_unstable();
    children.dedup();
    children
}

impl<'a, G: Tiered, C: Code> Worker<'a, G, C> {
    /// The messages of a round that send each of `keys` (increasing, repeats allowed) once,
    /// to its owner, told to `owners` in the order of the keys.
    fn route<X: Exchange>(
        &self,
        link: &Link<'_, X>,
        keys: impl Iterator<Item = u128>,
        mut owners: impl FnMut(usize),
    ) -> Vec<Vec<u8>> {
        let mut out = link.empty();
        let mut writers: Vec<KeyWriter> = (0..link.n).map(|_| KeyWriter::default()).collect();
        let mut last = None;
        for k in keys {
            if last != Some(k) {
                let (t, r) = unkey(k);
                let owner = self.share.owner(t, r);
                writers[owner].push(&mut out[owner], t, r);
                owners(owner);
                last = Some(k);
            }
        }
        out
    }

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

    /// This worker's codes of child tier `c`: kept since it was solved, or read back.
    fn load_codes(&mut self, c: u32) -> Result<(), TierError> {
        if self.codes[c as usize].is_none() {
            let len = C::bytes(self.slots(c)) as usize;
            self.codes[c as usize] = Some(read_part(self.dir, &codes_name(self.g, c), len)?);
        }
        Ok(())
    }

    /// The solve pass, children first, from the step after its first `from` tiers: the
    /// tier of a step of one on this worker's thread, the tiers of a step of several each
    /// in a lane of its own.
    fn solve_pass<X: Exchange>(
        &mut self,
        link: &mut Link<'_, X>,
        from: usize,
    ) -> Result<(), X::Error> {
        let steps = self.steps.clone();
        let mut end = 0;
        for step in &steps {
            let first = end;
            end += step.len();
            if end <= from {
                continue;
            }
            self.run.set_steps_done(first as u32);
            let children = step_children(&self.plan, step);
            for &c in &children {
                let loaded = self.load_codes(c);
                link.local(loaded)?;
            }
            let solved = if let [t] = step[..] {
                vec![self.solve_tier(link, t)?]
            } else {
                let this = &*self;
                let jobs: Vec<_> = step
                    .iter()
                    .map(|&t| move |lane: &mut Link<'_, Lane>| this.solve_tier(lane, t))
                    .collect();
                link.lanes(jobs)?
            };
            let mut payload = Vec::new();
            for (&t, (counts, codes)) in step.iter().zip(solved) {
                for c in [counts.win, counts.loss, counts.tie, counts.draw] {
                    put(&mut payload, c as u64);
                }
                if !self.plan.parents[t as usize].is_empty() {
                    self.codes[t as usize] = Some(codes);
                }
            }
            let got = self.end_step(link, &payload)?;
            let mut totals = vec![Counts::default(); step.len()];
            for (w, m) in got.iter().enumerate() {
                let mut r = Reader::new(m, w);
                for total in &mut totals {
                    let mut next = || link_get(&mut r);
                    let c = link.local((|| Ok([next()?, next()?, next()?, next()?]))())?;
                    total.add(Counts { win: c[0], loss: c[1], tie: c[2], draw: c[3] });
                }
            }
            for (&t, total) in step.iter().zip(totals) {
                self.manifest.solved[t as usize] = Some(total);
                self.obsolete.push(bits_name(self.g, t));
            }
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

    /// Solves tier `t` in the rounds of `link`: this worker's codes of its slices, kept in
    /// its directory while parent tiers need them, and the tier's values file. Returns the
    /// codes and their outcome counts.
    fn solve_tier<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
    ) -> Result<(Counts, Vec<u8>), X::Error> {
        let slots = self.slots(t);
        let bits = link.local(read_part(self.dir, &bits_name(self.g, t), (slots / 8) as usize))?;
        let bits = words_of(&bits);
        let mut codes = vec![0u8; C::bytes(slots) as usize];
        let pending = self.values(link, t, &bits, &mut codes)?;
        drop(bits);
        let any = link.any(!pending.0.is_empty())?;
        if any {
            self.retrograde(link, t, &mut codes, pending)?;
        }
        if !self.plan.parents[t as usize].is_empty() {
            link.local(write_part(self.dir, &codes_name(self.g, t), &codes))?;
        }
        let counts =
            if self.size(t) > 0 { self.write_values(link, t, &codes)? } else { Counts::default() };
        Ok((counts, codes))
    }
}

impl<G: Tiered, C: Code> Worker<'_, G, C> {
    /// Encodes this worker's blocks of tier `t` from its `codes` and gathers every
    /// worker's on worker 0, which writes the tier's values file. Returns the positions
    /// of each outcome among this worker's codes.
    fn write_values<X: Exchange>(
        &self,
        link: &mut Link<'_, X>,
        t: u32,
        codes: &[u8],
    ) -> Result<Counts, X::Error> {
        let mut counts = Counts::default();
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
                        let v =
                            C::stored(codes, (j * SLICE + u64::from(slot)) as usize, remoteness);
                        if let Some((o, _)) = v {
                            counts.count(o);
                        }
                        v
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
            return Ok(counts);
        }
        let written = (|| -> Result<(), TierError> {
            let blocks: Vec<(u128, Vec<u8>)> = blocks
                .into_iter()
                .map(|b| b.ok_or_else(|| malformed(0)))
                .collect::<Result<_, _>>()?;
            let dir = self.dir;
            write_tier_file(
                game,
                &self.manifest.header.game,
                t,
                dir,
                |name, write| write_with(dir, name, write, File::sync_all).map(drop),
                |w, header| write_rank_blocks(w, header, size, remoteness, true, &blocks),
            )
        })();
        link.local(written)?;
        Ok(counts)
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
            Ok(TierSummary {
                counts: m.solved_counts(&self.plan.order),
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

    /// 0 → 1, 2, 3; 1 → 4; 2 → 4; 3 → 5; 4 and 5 have no child tier.
    fn diamond() -> Plan<u8> {
        let children = vec![vec![1, 2, 3], vec![4], vec![4], vec![5], vec![], vec![]];
        let mut parents = vec![Vec::new(); 6];
        for (t, cs) in children.iter().enumerate() {
            for &c in cs {
                parents[c as usize].push(t as u32);
            }
        }
        Plan { start: 0, start_tier: 0, order: vec![0, 1, 2, 3, 4, 5], parents, children }
    }

    #[test]
    fn steps_take_the_tiers_of_one_height_together_until_they_fill_a_batch_each() {
        let plan = diamond();
        let enough = 2 * BATCH_SLICES * SLICE;
        let small = |_| 10;
        assert_eq!(solve_steps(&plan, small, 2), [vec![4, 5], vec![1, 2, 3], vec![0]]);
        // A large tier ends its step; small ones before it share it.
        let large = |t| if t == 2 { enough } else { 10 };
        assert_eq!(solve_steps(&plan, large, 2), [vec![4, 5], vec![1, 2], vec![3], vec![0]]);
        let chain = Plan {
            start: 0u8,
            start_tier: 0,
            order: vec![0, 1, 2],
            parents: vec![vec![], vec![0], vec![1]],
            children: vec![vec![1], vec![2], vec![]],
        };
        assert_eq!(solve_steps(&chain, small, 4), [vec![2], vec![1], vec![0]]);
    }

    #[test]
    fn a_step_of_several_tiers_needs_the_memory_of_all_of_them_and_of_their_children() {
        let plan = diamond();
        let steps = [vec![4, 5], vec![1, 2, 3], vec![0]];
        let (bits, codes) = (|_| 10, |_| 100);
        // Tiers 1, 2 and 3 with their bits and codes, and the codes of 4 and 5.
        check_steps(&plan, &steps, 3 * 110 + 200, bits, codes).unwrap();
        let e = check_steps(&plan, &steps, 3 * 110 + 199, bits, codes).unwrap_err();
        let TierError::Limit { limit: Limit::Memory { needed, .. }, tier } = e else {
            panic!("{e}")
        };
        assert_eq!((needed, tier), (530, 1));
    }

    #[test]
    fn a_share_divides_as_the_division_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in (1..=17).chain([100, 960, 65_537, u64::from(u32::MAX), 1 << 33]) {
            let s = Share::new(0, n);
            for k in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = match k % 4 {
                    0 => x,
                    1 => x >> 32,
                    2 => u64::from(u32::MAX) - (x % 64),
                    _ => x % 1024,
                };
                assert_eq!((s.rem(v), s.div(v)), (v % n, v / n), "{v} by {n}");
            }
        }
    }

    #[test]
    fn a_share_deals_every_slice_to_one_worker_and_numbers_its_ranks_densely() {
        for n in 1..5u64 {
            for t in 0..4u32 {
                for size in [0, 1, SLICE, SLICE + 1, 7 * SLICE - 3] {
                    let shares: Vec<Share> = (0..n as usize).map(|me| Share::new(me, n)).collect();
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
}
