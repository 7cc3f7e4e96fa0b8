//! The values of a tier across workers: the positions whose moves all leave the tier, from
//! the children's values their owners give in batched rounds; then retrograde analysis
//! inside the tier by rounds of remoteness.

use std::collections::BTreeMap;

use gamegraph_graph::Limit;

use super::wire::{Link, Reader, each_key, key, malformed, put, sort_keys, unkey};
use super::{BATCH_SLICES, Exchange, SLICE, SLICE_WORDS, Worker};
use crate::Outcome;
use crate::tier::code::{Code, Value};
use crate::tier::solve::{Moves, terminal};
use crate::tier::{TierError, TierPhase, Tiered};

/// Bytes of a code in an answer: one, or two for 16-bit codes.
fn width<C: Code>() -> usize {
    C::BITS.div_ceil(8) as usize
}

/// Bits of a position's place in its batch, below the key of a move asked for.
const POS_BITS: u32 = 16;
const _: () = assert!(BATCH_SLICES * SLICE <= 1 << POS_BITS);

/// The positions of a tier whose value waits for moves inside it, on one worker: each
/// with its index among the worker's slots and its other moves, in increasing order; and
/// the moves inside the tier, as (index in the list, rank moved to).
pub(super) struct Pending(pub(super) Vec<(u64, Moves)>, Vec<(u32, u64)>);

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
    pub(super) fn values<X: Exchange>(
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
        let width = width::<C>();
        let mut pending = Pending(Vec::new(), Vec::new());
        let mut moves = Vec::new();
        // The positions that wait for moves inside the tier, counted as they are read.
        let mut waiting = 0;
        // Reads this worker's slices `from..to` into the batch `b`: the positions with
        // what their moves to this worker's ranks say, and the moves to other workers'
        // ranks (key << POS_BITS | position in the batch); the terminal positions get
        // their values in `codes`, the moves inside the tier go to `inside_moves`.
        let mut read = |b: &mut Asked,
                        from: u64,
                        to: u64,
                        codes: &mut [u8],
                        inside_moves: &mut Vec<(u32, u64)>|
         -> Result<(), TierError> {
            self.run.check_stop()?;
            let words = &bits[from as usize * SLICE_WORDS..to as usize * SLICE_WORDS];
            let mut inside = Vec::new();
            self.each_position(t, words, from, to, |r, pos| {
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
                    let unreachable = || {
                        self.run.contract(
                            t,
                            format!(
                                "a move of {} lands on rank {cr} of tier {ct}, which is not a \
                                 reachable rank of a child tier",
                                game.show(pos)
                            ),
                        )
                    };
                    if !children.contains(&ct) || cr >= self.size(ct) {
                        return Err(unreachable());
                    }
                    let owner = share.owner(ct, cr);
                    if owner == share.me {
                        let codes = self.codes[ct as usize].as_deref().unwrap_or(&[]);
                        m.add(C::read(codes, share.local(cr) as usize).ok_or_else(unreachable)?);
                    } else {
                        b.asked.push(key(ct, cr) << POS_BITS | b.batch.len() as u128);
                    }
                }
                if m.inside > 0 {
                    let index = waiting;
                    waiting += 1;
                    for &cr in &inside {
                        if cr >= self.size(t) {
                            return Err(self.run.contract(
                                t,
                                format!("a move lands on rank {cr} of tier {t}, past the tier"),
                            ));
                        }
                        inside_moves.push((index, cr));
                    }
                }
                b.batch.push((i, m));
                Ok(())
            })
        };
        // The batch whose keys go out in this round, the one read while the round is in
        // flight, and the one whose keys went out in the round before (its answers come in
        // this round); and the keys the other workers asked for in the round before.
        let mut current = Asked::default();
        let mut next = Asked::default();
        let mut before = Asked::default();
        let mut asked_of_me: Vec<Vec<u8>> = vec![Vec::new(); link.n];
        let mut cursor = BATCH_SLICES.min(slices);
        link.local(read(&mut current, 0, cursor, codes, &mut pending.1))?;
        loop {
            // One round carries this batch's keys, each once to its owner in increasing
            // order, and the answers to what the others asked in the round before: the
            // code of every key, in the order asked.
            // By key only: the positions of a key may stay in the order they were read.
            sort_keys(&mut current.asked, POS_BITS);
            let owners = &mut current.owners;
            let keys = self.route(link, current.asked.iter().map(|a| a >> POS_BITS), |w| {
                owners.push(w as u32)
            });
            let mut out = link.empty();
            for (w, (m, k)) in out.iter_mut().zip(keys).enumerate() {
                put(m, (k.len() - 1) as u64);
                m.extend_from_slice(&k[1..]);
                let answered = each_key(Reader::over(&asked_of_me[w], w), |ct, r| {
                    if share.owner(ct, r) != share.me {
                        return Err(malformed(w));
                    }
                    let codes =
                        self.codes.get(ct as usize).and_then(Option::as_deref).unwrap_or(&[]);
                    let i = share.local(r) as usize;
                    let code = if i < C::count(codes) { C::get(codes, i) } else { 0 };
                    m.extend_from_slice(&code.to_le_bytes()[..width]);
                    Ok(())
                });
                link.local(answered)?;
            }
            let more = cursor < slices || !current.asked.is_empty();
            // The next batch is read while the round is in flight.
            let to = (cursor + BATCH_SLICES).min(slices);
            let mut ahead = Ok(());
            let (got, any) = link.round_during(out, more, &mut || {
                if cursor < to {
                    ahead = read(&mut next, cursor, to, codes, &mut pending.1);
                }
            })?;
            link.local(ahead)?;
            cursor = to;
            let mut answers = Vec::with_capacity(link.n);
            for (w, m) in got.iter().enumerate() {
                let split = (|| -> Result<(Vec<u8>, &[u8]), TierError> {
                    let mut r = Reader::new(m, w);
                    let len = usize::try_from(r.get()?).map_err(|_| malformed(w))?;
                    let keys = r.take(len)?.to_vec();
                    Ok((keys, r.rest()))
                })();
                let (keys, rest) = link.local(split)?;
                asked_of_me[w] = keys;
                answers.push(rest);
            }
            let combined = self.combine(t, &mut before, &answers, codes, &mut pending);
            link.local(combined)?;
            // The buffers of the batch just combined hold the batch after next.
            std::mem::swap(&mut before, &mut current);
            std::mem::swap(&mut current, &mut next);
            if !any {
                // No worker asked anything in this round nor has more to read: the last
                // batch needs no answer.
                let combined = self.combine(t, &mut before, &answers, codes, &mut pending);
                link.local(combined)?;
                return Ok(pending);
            }
        }
    }

    /// The values of a batch whose moves to other workers' ranks have their `answers` (by
    /// worker, the codes in the order of the keys sent to it): a position whose moves all
    /// leave the tier gets its value in `codes`, the others wait. Leaves `b` empty.
    fn combine(
        &self,
        t: u32,
        b: &mut Asked,
        answers: &[&[u8]],
        codes: &mut [u8],
        pending: &mut Pending,
    ) -> Result<(), TierError> {
        let width = width::<C>();
        let mut next = vec![0usize; answers.len()];
        let mut owners = b.owners.iter();
        let mut last = None;
        let mut value = None;
        for &a in &b.asked {
            let k = a >> POS_BITS;
            if last != Some(k) {
                let (ct, cr) = unkey(k);
                let w = *owners.next().expect("an owner for each key") as usize;
                let at = next[w] * width;
                next[w] += 1;
                let bytes = answers[w].get(at..at + width).ok_or_else(|| malformed(w))?;
                let mut code = [0u8; 4];
                code[..width].copy_from_slice(bytes);
                value = C::decode(u32::from_le_bytes(code));
                if value.is_none() {
                    return Err(self.run.contract(
                        t,
                        format!(
                            "a move lands on rank {cr} of tier {ct}, which is not a reachable \
                             rank of a child tier"
                        ),
                    ));
                }
                last = Some(k);
            }
            let v = value.expect("the value of the key");
            b.batch[(a & ((1 << POS_BITS) - 1)) as usize].1.add(v);
        }
        b.asked.clear();
        b.owners.clear();
        for (i, m) in b.batch.drain(..) {
            if m.inside == 0 {
                C::set(codes, i as usize, self.encode(t, m.value(self.step()), i)?);
            } else {
                pending.0.push((i, m));
            }
        }
        Ok(())
    }
}

/// A batch of positions with what their moves to this worker's ranks say, and its moves to
/// other workers' ranks: key << POS_BITS | position in the batch, sorted by key, and the
/// owner of each distinct key.
#[derive(Default)]
struct Asked {
    batch: Vec<(u64, Moves)>,
    asked: Vec<u128>,
    owners: Vec<u32>,
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
    /// For each of this worker's slots, one more than its place in `waiting`, or 0.
    place: Vec<u32>,
    decided: Vec<bool>,
    not_win: Vec<u32>,
    to_win: Vec<u32>,
    /// The ranks the moves inside the tier that reach this worker's slot `i` come from:
    /// `froms[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    froms: Vec<u64>,
    /// Events by remoteness: "this worker's rank (by index) has this value".
    buckets: BTreeMap<u32, Vec<(u64, Value)>>,
}

impl Inside {
    fn waiting_index(&self, i: u64) -> Option<usize> {
        (self.place[i as usize] as usize).checked_sub(1)
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
    pub(super) fn retrograde<X: Exchange>(
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
        let own = std::mem::take(&mut subs[share.me]);
        let mut out = link.empty();
        for (w, (m, s)) in out.iter_mut().zip(&mut subs).enumerate() {
            if w == share.me {
                continue;
            }
            s.sort_unstable();
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
        // The moves that reach this worker's ranks, (slot reached, rank moved from): its
        // own, then those each other worker sent.
        let each_move = |f: &mut dyn FnMut(usize, u64)| -> Result<(), TierError> {
            for &(to, from) in &own {
                f(share.local(to) as usize, from);
            }
            for (w, m) in got.iter().enumerate().filter(|&(w, _)| w != share.me) {
                let mut r = Reader::new(m, w);
                let mut to = 0u64;
                for _ in 0..r.get()? {
                    to = to.checked_add(r.get()?).ok_or_else(|| malformed(w))?;
                    let from = r.get()?;
                    if share.owner(t, to) != share.me || to >= self.size(t) {
                        return Err(malformed(w));
                    }
                    f(share.local(to) as usize, from);
                }
            }
            Ok(())
        };
        // Grouped by the slot reached, by counting.
        let slots = C::count(codes);
        let mut starts = vec![0usize; slots + 1];
        link.local(each_move(&mut |i, _| starts[i + 1] += 1))?;
        for i in 1..=slots {
            starts[i] += starts[i - 1];
        }
        let mut froms = vec![0u64; starts[slots]];
        link.local(each_move(&mut |i, from| {
            froms[starts[i]] = from;
            starts[i] += 1;
        }))?;
        starts.copy_within(0..slots, 1);
        starts[0] = 0;
        drop((own, got));
        // Places in 32 bits: 2^32 positions waiting on one worker would hold hundreds of
        // GiB of moves inside the tier.
        let too_many = u32::try_from(waiting.len()).map_err(|_| TierError::Limit {
            limit: Limit::Memory { needed: waiting.len() as u64 * 24, allowed: None },
            tier: t,
        });
        link.local(too_many)?;
        let mut place = vec![0u32; slots];
        for (j, &(i, _)) in waiting.iter().enumerate() {
            place[i as usize] = j as u32 + 1;
        }
        let mut s = Inside {
            place,
            decided: vec![false; waiting.len()],
            not_win: waiting.iter().map(|(_, m)| m.not_win).collect(),
            to_win: waiting.iter().map(|(_, m)| m.to_win).collect(),
            waiting,
            starts,
            froms,
            buckets: BTreeMap::new(),
        };
        for phase in [Phase::WinLoss, Phase::Tie] {
            let spreads = |o: Outcome| match phase {
                Phase::WinLoss => matches!(o, Outcome::Win | Outcome::Loss),
                Phase::Tie => o == Outcome::Tie,
            };
            // The ranks reached whose value is known (their moves all leave the tier).
            let mut seeds = Vec::new();
            for i in 0..slots as u64 {
                if s.starts[i as usize] == s.starts[i as usize + 1] || s.waiting_index(i).is_some()
                {
                    continue;
                }
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
                    for &from in &s.froms[s.starts[i as usize]..s.starts[i as usize + 1]] {
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
                            let v = C::decode(code).ok_or_else(|| malformed(w))?;
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
}
