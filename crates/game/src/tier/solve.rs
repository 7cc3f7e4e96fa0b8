//! The values of one tier, from the values of its child tiers: one pass over the reachable
//! ranks, then, for the positions with moves inside the tier, retrograde analysis inside
//! the tier.

use std::sync::atomic::Ordering::{AcqRel, Relaxed};
use std::sync::atomic::{AtomicBool, AtomicU32};

use rayon::prelude::*;

use super::Tiered;
use super::code::{Code, Value};
use super::config::TierError;
use super::dir::Run;
use super::reach::{chunk_ranks, for_each_position, word};
use crate::{Outcome, Terminal};

/// What the moves of a position that leave its tier say, and how many stay.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Moves {
    /// The least remoteness of a move to a loss (for the mover), if any.
    pub(crate) to_loss: Option<u32>,
    /// The greatest remoteness of a move to a win.
    pub(crate) to_win: u32,
    /// The moves that are not (yet) known to lead to a win; moves inside the tier count.
    pub(crate) not_win: u32,
    /// The least remoteness of a move to a tie, if any.
    pub(crate) to_tie: Option<u32>,
    /// The moves that stay inside the tier.
    pub(crate) inside: u32,
}

impl Moves {
    /// Takes in a move to a position of value `v`.
    pub(crate) fn add(&mut self, v: Value) {
        match v.outcome {
            Outcome::Loss => {
                self.to_loss = Some(self.to_loss.map_or(v.remoteness, |r| r.min(v.remoteness)))
            }
            Outcome::Win => self.to_win = self.to_win.max(v.remoteness),
            Outcome::Tie => {
                self.to_tie = Some(self.to_tie.map_or(v.remoteness, |r| r.min(v.remoteness)))
            }
            Outcome::Draw => {}
        }
        if v.outcome != Outcome::Win {
            self.not_win += 1;
        }
    }

    /// The value when every move is known; `step` is 1, or 0 when no remoteness is kept.
    pub(crate) fn value(&self, step: u32) -> Value {
        let (outcome, remoteness) = if let Some(r) = self.to_loss {
            (Outcome::Win, r + step)
        } else if self.not_win == 0 {
            (Outcome::Loss, self.to_win + step)
        } else if let Some(r) = self.to_tie {
            (Outcome::Tie, r + step)
        } else {
            (Outcome::Draw, 0)
        };
        Value { outcome, remoteness }
    }
}

/// The value of a finished position.
pub(crate) fn terminal(t: Terminal) -> Value {
    let outcome = match t {
        Terminal::Win => Outcome::Win,
        Terminal::Loss => Outcome::Loss,
        Terminal::Tie => Outcome::Tie,
    };
    Value { outcome, remoteness: 0 }
}

/// A position whose value waits for moves inside its tier: its rank and its other moves.
type Pending = (u64, Moves);

/// What a chunk of ranks leaves for retrograde analysis: its waiting positions and its
/// moves inside the tier.
struct Gathered {
    pending: Vec<Pending>,
    arcs: Arcs,
}

/// Moves inside a tier from the waiting positions of a chunk of ranks: for each, the rank
/// moved to (`to`) and the index of the waiting position moved from (`first` plus `from`,
/// its index among the chunk's).
struct Arcs {
    first: u32,
    to: Vec<u64>,
    from: Vec<u32>,
}

/// The codes of tier `t`, by rank (0 for a rank no play reaches), from its reachable ranks
/// `bits` and the codes of its child tiers (`children[c]` for child tier `c`).
pub(crate) fn solve_tier<G: Tiered, C: Code>(
    run: &Run<'_, G>,
    t: u32,
    bits: &[u8],
    children: &[Option<&[u8]>],
) -> Result<Vec<u8>, TierError> {
    let game = run.game;
    let size = game.tier_size(t);
    let step = u32::from(run.remoteness);
    let mut codes = run.alloc(C::bytes(size))?;
    run.begin(super::TierPhase::Solve, t, size);
    let encode = |v: Value, r: u64| -> Result<u32, TierError> {
        C::encode(v).ok_or(TierError::Remoteness { tier: t, rank: r, remoteness: v.remoteness })
    };
    // The pass over the reachable ranks, a chunk per task: positions whose moves all leave
    // the tier get their value; the others, and the moves inside the tier, are gathered.
    // A chunk's ranks are a whole number of bytes of codes.
    let gathered: Vec<Gathered> = codes
        .par_chunks_mut(C::bytes(chunk_ranks(size)) as usize)
        .enumerate()
        .map_init(Vec::new, |out, (chunk, slot)| {
            run.check_stop()?;
            let lo = chunk as u64 * chunk_ranks(size);
            let hi = (lo + chunk_ranks(size)).min(size);
            let (mut pending, mut to, mut from) = (Vec::new(), Vec::new(), Vec::new());
            for_each_position(run, t, &|i| word(bits, i), lo, hi, |r, pos| {
                out.clear();
                game.moves(pos, out);
                if out.is_empty() {
                    C::set(slot, (r - lo) as usize, encode(terminal(game.terminal(pos)), r)?);
                    return Ok(());
                }
                let mut m = Moves::default();
                for &q in out.iter() {
                    let c = game.canonical(q);
                    let ct = game.tier(c);
                    let cr = game.tier_rank(c);
                    if ct == t {
                        m.inside += 1;
                        m.not_win += 1;
                        to.push(cr);
                        from.push(pending.len() as u32);
                        continue;
                    }
                    let value =
                        children
                            .get(ct as usize)
                            .copied()
                            .flatten()
                            .filter(|codes| cr < C::count(codes) as u64)
                            .and_then(|codes| C::read(codes, cr as usize))
                            .ok_or_else(|| {
                                run.contract(t, format!(
                                "a move of {} lands on rank {cr} of tier {ct}, which is not a \
                                 reachable rank of a child tier",
                                game.show(pos)
                            ))
                            })?;
                    m.add(value);
                }
                if m.inside == 0 {
                    C::set(slot, (r - lo) as usize, encode(m.value(step), r)?);
                } else {
                    pending.push((r, m));
                }
                Ok(())
            })?;
            run.tick(hi - lo);
            pending.shrink_to_fit();
            to.shrink_to_fit();
            from.shrink_to_fit();
            Ok(Gathered { pending, arcs: Arcs { first: 0, to, from } })
        })
        .collect::<Result<_, TierError>>()?;
    let mut pending = Vec::with_capacity(gathered.iter().map(|g| g.pending.len()).sum());
    let mut arcs = Vec::with_capacity(gathered.len());
    for g in gathered {
        arcs.push(Arcs { first: pending.len() as u32, ..g.arcs });
        pending.extend(g.pending);
    }
    if !pending.is_empty() {
        run.check_stop()?;
        retrograde::<C>(&mut codes, size, pending, arcs, step, &encode)?;
    }
    Ok(codes)
}

/// The events of a bucket one task spreads.
const EVENTS_A_TASK: usize = 1 << 10;

/// Which values a phase of [`retrograde`] spreads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    WinLoss,
    Tie,
}

/// Events by remoteness: "this position has this value".
#[derive(Default)]
struct Buckets(Vec<Vec<(u64, Value)>>);

impl Buckets {
    fn push(&mut self, r: u64, v: Value) {
        let b = v.remoteness as usize;
        if self.0.len() <= b {
            self.0.resize_with(b + 1, Vec::new);
        }
        self.0[b].push((r, v));
    }
}

/// The positions retrograde analysis inside a tier works on, numbered `0..`: the waiting
/// positions first (in rank order), then the ends of inside moves whose value is already
/// known (their moves all leave the tier); with, for each, the waiting positions that
/// move to it.
struct Nodes {
    /// The rank of each node.
    rank: Vec<u64>,
    /// The waiting positions (indices below `waiting`) that move to node `i`:
    /// `from[start[i]..start[i + 1]]`.
    start: Vec<usize>,
    from: Vec<u32>,
}

impl Nodes {
    /// The nodes of the waiting positions `pending` (sorted by rank) of a tier of `size`
    /// ranks and of the moves `arcs` from them (chunk by chunk, in rank order).
    fn new(size: u64, pending: &[Pending], mut arcs: Vec<Arcs>) -> Nodes {
        let waiting = pending.len();
        let index = RankIndex::new(size, pending.iter().map(|&(r, _)| r));
        let mut ends: Vec<u64> = arcs
            .par_iter()
            .flat_map_iter(|a| a.to.iter().copied())
            .filter(|&to| index.get(to).is_none())
            .collect();
        ends.par_sort_unstable();
        ends.dedup();
        let node = |r: u64| {
            index.get(r).unwrap_or_else(|| {
                waiting + ends.binary_search(&r).expect("the end of a move is a node")
            })
        };
        let to: Vec<Vec<u32>> = arcs
            .par_iter_mut()
            .map(|a| std::mem::take(&mut a.to).into_iter().map(|r| node(r) as u32).collect())
            .collect();
        // A counting sort by the node moved to; each node's parents stay in increasing order.
        let n = waiting + ends.len();
        let mut start = vec![0usize; n + 1];
        for &t in to.iter().flatten() {
            start[t as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut from = vec![0u32; start[n]];
        for (a, to) in arcs.iter().zip(&to) {
            for (&t, &f) in to.iter().zip(&a.from) {
                from[next[t as usize]] = a.first + f;
                next[t as usize] += 1;
            }
        }
        let rank = pending.iter().map(|&(r, _)| r).chain(ends).collect();
        Nodes { rank, start, from }
    }

    fn parents(&self, i: usize) -> &[u32] {
        &self.from[self.start[i]..self.start[i + 1]]
    }
}

/// The place of each of an increasing list of ranks in it: a bit a rank of the tier and a
/// count a 64-bit word of those before it.
struct RankIndex {
    words: Vec<u64>,
    before: Vec<u32>,
}

impl RankIndex {
    fn new(size: u64, ranks: impl Iterator<Item = u64>) -> RankIndex {
        let mut words = vec![0u64; size.div_ceil(64) as usize];
        for r in ranks {
            words[(r / 64) as usize] |= 1 << (r % 64);
        }
        let mut count = 0u32;
        let before = words
            .iter()
            .map(|w| {
                let b = count;
                count += w.count_ones();
                b
            })
            .collect();
        RankIndex { words, before }
    }

    /// The place of rank `r` in the list, if it is there.
    fn get(&self, r: u64) -> Option<usize> {
        let w = (r / 64) as usize;
        let bit = 1u64 << (r % 64);
        let word = *self.words.get(w)?;
        (word & bit != 0)
            .then(|| self.before[w] as usize + (word & (bit - 1)).count_ones() as usize)
    }
}

/// Retrograde analysis inside a tier: the positions of `pending` (sorted by rank), whose
/// moves `arcs` stay in the tier,
/// get their values from those of the positions they move to, by increasing remoteness (a
/// bucket per remoteness, so the first loss found for a position is its nearest and the
/// last win its farthest): first wins and losses, then ties among the rest; what is left
/// is drawn.
///
/// A bucket's events are spread in parallel. The values do not depend on the order: the
/// events a position gets in one bucket all carry the same value (a win at `b` needs a
/// move to a loss, a loss at `b` needs every move to be a win), so whichever comes first
/// decides it.
fn retrograde<C: Code>(
    codes: &mut [u8],
    size: u64,
    pending: Vec<Pending>,
    arcs: Vec<Arcs>,
    step: u32,
    encode: &impl Fn(Value, u64) -> Result<u32, TierError>,
) -> Result<(), TierError> {
    let waiting = pending.len();
    let nodes = Nodes::new(size, &pending, arcs);
    let moves: Vec<Moves> = pending.into_iter().map(|(_, m)| m).collect();
    let not_win: Vec<AtomicU32> = moves.iter().map(|m| AtomicU32::new(m.not_win)).collect();
    let to_win: Vec<AtomicU32> = moves.iter().map(|m| AtomicU32::new(m.to_win)).collect();
    let decided: Vec<AtomicBool> = (0..waiting).map(|_| AtomicBool::new(false)).collect();
    // The ends of inside moves whose value is known spread it to the positions that move
    // to them.
    let seeds: Vec<(usize, Value)> = (waiting..nodes.rank.len())
        .map(|i| {
            let v = C::read(codes, nodes.rank[i] as usize);
            (i, v.expect("a move's end is reachable and has its value"))
        })
        .collect();
    // One event: its node, its value, and what it sets off.
    let spread = |i: usize, v: Value, found: &mut Vec<(usize, Value)>, next: &mut Buckets| {
        if i < waiting {
            // The first event of a waiting position is its value; the rest are late.
            if decided[i].swap(true, Relaxed) {
                return;
            }
            found.push((i, v));
        }
        let later = v.remoteness + step;
        for &p in nodes.parents(i) {
            let j = p as usize;
            if decided[j].load(Relaxed) {
                continue;
            }
            match v.outcome {
                Outcome::Loss => {
                    next.push(p.into(), Value { outcome: Outcome::Win, remoteness: later })
                }
                Outcome::Win => {
                    to_win[j].fetch_max(v.remoteness, Relaxed);
                    if not_win[j].fetch_sub(1, AcqRel) == 1 {
                        let remoteness = to_win[j].load(Relaxed) + step;
                        next.push(p.into(), Value { outcome: Outcome::Loss, remoteness });
                    }
                }
                Outcome::Tie => {
                    next.push(p.into(), Value { outcome: Outcome::Tie, remoteness: later })
                }
                Outcome::Draw => {}
            }
        }
    };
    for phase in [Phase::WinLoss, Phase::Tie] {
        let spreads = |o: Outcome| match phase {
            Phase::WinLoss => matches!(o, Outcome::Win | Outcome::Loss),
            Phase::Tie => o == Outcome::Tie,
        };
        let mut buckets = Buckets::default();
        for &(i, v) in seeds.iter().filter(|(_, v)| spreads(v.outcome)) {
            buckets.push(i as u64, v);
        }
        for (i, m) in moves.iter().enumerate() {
            let d = match phase {
                Phase::WinLoss => m.to_loss.map(|d| (Outcome::Win, d)),
                Phase::Tie if !decided[i].load(Relaxed) => m.to_tie.map(|d| (Outcome::Tie, d)),
                Phase::Tie => None,
            };
            if let Some((outcome, d)) = d {
                buckets.push(i as u64, Value { outcome, remoteness: d + step });
            }
        }
        let mut b = 0;
        while b < buckets.0.len() {
            // Without remoteness the events a bucket sets off land in it again.
            while !buckets.0[b].is_empty() {
                let frontier = std::mem::take(&mut buckets.0[b]);
                let done: Vec<(Vec<(usize, Value)>, Buckets)> = frontier
                    .par_chunks(EVENTS_A_TASK)
                    .map(|events| {
                        let (mut found, mut next) = (Vec::new(), Buckets::default());
                        for &(i, v) in events {
                            spread(i as usize, v, &mut found, &mut next);
                        }
                        (found, next)
                    })
                    .collect();
                for (found, next) in done {
                    for (i, v) in found {
                        let r = nodes.rank[i];
                        C::set(codes, r as usize, encode(v, r)?);
                    }
                    for (k, events) in next.0.into_iter().enumerate() {
                        for (i, v) in events {
                            debug_assert_eq!(v.remoteness as usize, k);
                            buckets.push(i, v);
                        }
                    }
                }
            }
            b += 1;
        }
    }
    for (i, &r) in nodes.rank[..waiting].iter().enumerate() {
        if !decided[i].load(Relaxed) {
            C::set(codes, r as usize, encode(Value { outcome: Outcome::Draw, remoteness: 0 }, r)?);
        }
    }
    Ok(())
}
