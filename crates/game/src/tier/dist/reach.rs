//! The reachability pass across workers: each worker expands its reachable ranks of a
//! tier and marks the ranks its moves reach on their owners, through the rounds.

use super::wire::{Link, Reader, each_key, key, malformed, put, sort_keys};
use super::{
    BATCH_SLICES, Exchange, QUEUE_BATCH, SLICE, SLICE_WORDS, Worker, bits_name, bytes_of,
    read_part, set_bit, words_of, write_part,
};
use crate::tier::code::Code;
use crate::tier::{TierError, TierPhase, Tiered};

impl<G: Tiered, C: Code> Worker<'_, G, C> {
    /// The reachability pass, parents first, from step `from`.
    pub(super) fn reach_pass<X: Exchange>(
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
        // Reads the next batch: the moves to other workers' ranks go to `keys` (`inside`
        // says some stay in `t`), the others are marked.
        let mut read = |keys: &mut Vec<u128>,
                        inside: &mut bool,
                        own: &mut [u64],
                        open: &mut [Option<Vec<u64>>],
                        queue: &mut Vec<u64>,
                        cursor: &mut u64|
         -> Result<(), TierError> {
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
                        return Err(self
                            .run
                            .contract(t, format!("a move lands in tier {ct}, not a child tier")));
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
                        keys.push(key(ct, r));
                        *inside |= ct == t;
                    } else if ct == t {
                        let i = share.local(r);
                        if set_bit(own, i) && i / SLICE < cursor {
                            queue.push(i);
                        }
                    } else {
                        set_bit(open[ct as usize].as_mut().expect("an open tier"), share.local(r));
                    }
                }
                Ok(())
            };
            if *cursor < slices {
                let to = (*cursor + BATCH_SLICES).min(slices);
                let snapshot =
                    own[*cursor as usize * SLICE_WORDS..to as usize * SLICE_WORDS].to_vec();
                let from = std::mem::replace(cursor, to);
                self.each_position(t, &snapshot, from, to, |_, pos| {
                    mark(pos, own, open, queue, to)
                })?;
            } else {
                let take = queue.len().min(QUEUE_BATCH);
                let batch: Vec<u64> = queue.drain(queue.len() - take..).collect();
                for i in batch {
                    let pos = self.run.unrank(t, share.global(t, i))?;
                    mark(pos, own, open, queue, *cursor)?;
                }
            }
            Ok(())
        };
        let (mut keys, mut inside) = (Vec::new(), false);
        link.local(read(&mut keys, &mut inside, own, open, &mut queue, &mut cursor))?;
        loop {
            sort_keys(&mut keys, 0);
            let out = self.route(link, keys.drain(..), |_| {});
            let more = cursor < slices || !queue.is_empty() || inside;
            inside = false;
            // Without moves inside the tier, what the others send only marks child tiers:
            // the next batch is read while the round is in flight.
            let mut ahead = Ok(());
            let (got, any) = link.round_during(out, more, &mut || {
                if !close && cursor < slices {
                    ahead = read(&mut keys, &mut inside, own, open, &mut queue, &mut cursor);
                }
            })?;
            link.local(ahead)?;
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
            if close {
                link.local(read(&mut keys, &mut inside, own, open, &mut queue, &mut cursor))?;
            }
        }
    }
}
