//! The values of one tier, from the values of its child tiers: one pass over the reachable
//! ranks, then, for the positions with moves inside the tier, retrograde analysis inside
//! the tier.

use rayon::prelude::*;

use super::Tiered;
use super::code::{Code, Value};
use super::dir::{Run, TierError};
use super::reach::{CHUNK, for_each_position};
use crate::{Outcome, Terminal};

/// What the moves of a position that leave its tier say, and how many stay.
#[derive(Clone, Copy, Debug, Default)]
struct Moves {
    /// The least remoteness of a move to a loss (for the mover), if any.
    to_loss: Option<u32>,
    /// The greatest remoteness of a move to a win.
    to_win: u32,
    /// The moves that are not (yet) known to lead to a win; moves inside the tier count.
    not_win: u32,
    /// The least remoteness of a move to a tie, if any.
    to_tie: Option<u32>,
    /// The moves that stay inside the tier.
    inside: u32,
}

impl Moves {
    /// Takes in a move to a position of value `v`.
    fn add(&mut self, v: Value) {
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
    fn value(&self, step: u32) -> Value {
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
fn terminal(t: Terminal) -> Value {
    let outcome = match t {
        Terminal::Win => Outcome::Win,
        Terminal::Loss => Outcome::Loss,
        Terminal::Tie => Outcome::Tie,
    };
    Value { outcome, remoteness: 0 }
}

/// A position whose value waits for moves inside its tier: its rank and its other moves.
type Pending = (u64, Moves);

/// What a chunk of ranks leaves for retrograde analysis: its waiting positions and the
/// moves inside the tier (`(to, from)` ranks).
type Gathered = (Vec<Pending>, Vec<(u64, u64)>);

/// The codes of tier `t`, by rank (0 for a rank no play reaches), from its reachable ranks
/// `bits` and the codes of its child tiers (`children[c]` for child tier `c`).
pub(crate) fn solve_tier<G: Tiered, C: Code>(
    run: &Run<'_, G>,
    t: u32,
    bits: &[u8],
    children: &[Option<&[u8]>],
) -> Result<Vec<C>, TierError> {
    let game = run.game;
    let size = game.tier_size(t);
    let step = u32::from(run.remoteness);
    let mut codes = run.alloc::<C>(size)?;
    run.begin(super::TierPhase::Solve, t, size);
    let encode = |v: Value, r: u64| -> Result<C, TierError> {
        C::encode(v).ok_or(TierError::Remoteness { tier: t, rank: r, remoteness: v.remoteness })
    };
    // The pass over the reachable ranks, a chunk per task: positions whose moves all leave
    // the tier get their value; the others, and the moves inside the tier, are gathered.
    let gathered: Vec<Gathered> = codes
        .par_chunks_mut(CHUNK as usize)
        .enumerate()
        .map_init(Vec::new, |out, (chunk, slot)| {
            run.check_stop()?;
            let lo = chunk as u64 * CHUNK;
            let hi = lo + slot.len() as u64;
            let (mut pending, mut arcs) = (Vec::new(), Vec::new());
            for_each_position(run, t, bits, lo, hi, |r, pos| {
                out.clear();
                game.moves(pos, out);
                if out.is_empty() {
                    slot[(r - lo) as usize] = encode(terminal(game.terminal(pos)), r)?;
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
                        arcs.push((cr, r));
                        continue;
                    }
                    let value =
                        children
                            .get(ct as usize)
                            .copied()
                            .flatten()
                            .filter(|codes| cr < (codes.len() / C::BYTES) as u64)
                            .and_then(|codes| C::read(codes, cr as usize).decode())
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
                    slot[(r - lo) as usize] = encode(m.value(step), r)?;
                } else {
                    pending.push((r, m));
                }
                Ok(())
            })?;
            run.tick(hi - lo);
            Ok((pending, arcs))
        })
        .collect::<Result<_, TierError>>()?;
    let mut pending = Vec::new();
    let mut arcs = Vec::new();
    for (p, a) in gathered {
        pending.extend(p);
        arcs.extend(a);
    }
    if !pending.is_empty() {
        run.check_stop()?;
        retrograde(&mut codes, pending, arcs, step, &encode)?;
    }
    Ok(codes)
}

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

/// Retrograde analysis inside a tier: the positions of `pending` (sorted by rank), whose
/// moves `arcs` (`(to, from)` ranks) stay in the tier, get their values from those of
/// the positions they move to, by increasing remoteness (a bucket per remoteness, so the
/// first loss found for a position is its nearest and the last win its farthest): first
/// wins and losses, then ties among the rest; what is left is drawn.
fn retrograde<C: Code>(
    codes: &mut [C],
    pending: Vec<Pending>,
    mut arcs: Vec<(u64, u64)>,
    step: u32,
    encode: &impl Fn(Value, u64) -> Result<C, TierError>,
) -> Result<(), TierError> {
    arcs.par_sort_unstable();
    let index = |r: u64| pending.binary_search_by_key(&r, |&(p, _)| p).ok();
    let parents = |r: u64| {
        let from = arcs.partition_point(|&(to, _)| to < r);
        arcs[from..].iter().take_while(move |&&(to, _)| to == r).map(|&(_, p)| p)
    };
    let mut moves: Vec<Moves> = pending.iter().map(|&(_, m)| m).collect();
    let known = |codes: &[C], r: u64| codes[r as usize].decode();
    // The ends of inside moves whose value is already known (their moves all leave the
    // tier), each once: they spread their value to the positions that move to them.
    let mut seeds: Vec<(u64, Value)> = Vec::new();
    for &(to, _) in &arcs {
        if seeds.last().is_some_and(|&(r, _)| r == to) || index(to).is_some() {
            continue;
        }
        let v = known(codes, to).expect("a move's end is reachable and has its value");
        seeds.push((to, v));
    }
    for phase in [Phase::WinLoss, Phase::Tie] {
        let spreads = |o: Outcome| match phase {
            Phase::WinLoss => matches!(o, Outcome::Win | Outcome::Loss),
            Phase::Tie => o == Outcome::Tie,
        };
        let mut buckets = Buckets::default();
        for &(r, v) in seeds.iter().filter(|(_, v)| spreads(v.outcome)) {
            buckets.push(r, v);
        }
        for (i, &(r, _)) in pending.iter().enumerate() {
            let m = &moves[i];
            match phase {
                Phase::WinLoss => {
                    if let Some(d) = m.to_loss {
                        buckets.push(r, Value { outcome: Outcome::Win, remoteness: d + step });
                    }
                }
                Phase::Tie => {
                    if let (Some(d), None) = (m.to_tie, known(codes, r)) {
                        buckets.push(r, Value { outcome: Outcome::Tie, remoteness: d + step });
                    }
                }
            }
        }
        let mut b = 0;
        while b < buckets.0.len() {
            while let Some((r, v)) = buckets.0[b].pop() {
                if index(r).is_some() {
                    // The first event of a waiting position is its value; the rest are late.
                    if known(codes, r).is_some() {
                        continue;
                    }
                    codes[r as usize] = encode(v, r)?;
                }
                for p in parents(r) {
                    let j = index(p).expect("a move inside the tier starts at a waiting position");
                    if known(codes, p).is_some() {
                        continue;
                    }
                    let next = v.remoteness + step;
                    match v.outcome {
                        Outcome::Loss => {
                            buckets.push(p, Value { outcome: Outcome::Win, remoteness: next });
                        }
                        Outcome::Win => {
                            let m = &mut moves[j];
                            m.not_win -= 1;
                            m.to_win = m.to_win.max(v.remoteness);
                            if m.not_win == 0 {
                                let remoteness = m.to_win + step;
                                buckets.push(p, Value { outcome: Outcome::Loss, remoteness });
                            }
                        }
                        Outcome::Tie => {
                            buckets.push(p, Value { outcome: Outcome::Tie, remoteness: next });
                        }
                        Outcome::Draw => {}
                    }
                }
            }
            b += 1;
        }
    }
    for &(r, _) in &pending {
        if known(codes, r).is_none() {
            codes[r as usize] = encode(Value { outcome: Outcome::Draw, remoteness: 0 }, r)?;
        }
    }
    Ok(())
}
