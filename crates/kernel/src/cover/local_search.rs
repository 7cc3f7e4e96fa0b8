//! Row-weighting local search for unicost set cover (after Gao, Weise and Li's RWLS, 2015):
//! the incumbent heuristic of β's branch-and-bound.
//!
//! The search keeps a set family S, not always a cover, and a weight w(e) ≥ 1 on every
//! element. The score of a set in S is minus the weight of the elements only it covers (the
//! loss of removing it), the score of a set outside S the weight of the uncovered elements
//! it holds (the gain of adding it). Whenever S covers everything it is recorded as the best
//! cover and its set of highest score leaves, so the search then looks for a cover one set
//! smaller. Each step swaps: the set of S with the highest score leaves (not the one that
//! just came in; ties: the one in S longest), then, for a random uncovered element, the set
//! holding it with the highest score comes in, among those whose surroundings changed since
//! they last left (configuration checking; ties: the one out longest); then every uncovered
//! element gains weight 1. Random choices come from a fixed-seed generator, and the search
//! stops after a fixed number of steps, so the result depends only on the instance.

use gamegraph_graph::generate::SplitMix64;

use crate::KernelError;
use crate::clique::local_search::pick;
use crate::config::Budget;
use crate::cover::{CoverInstance, Ordered};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// What a local search shares with a lower bound computed alongside it.
#[derive(Debug)]
pub(crate) struct Progress {
    /// A proven lower bound on the size of a cover (0: none yet): the search stops once its
    /// best cover meets it, as it could not improve any more.
    pub(crate) bound: AtomicUsize,
    /// The size of the best cover known, lowered by the search as it finds covers.
    pub(crate) best: AtomicUsize,
    /// Steps done so far, `u64::MAX` once the search is over.
    pub(crate) steps: AtomicU64,
}

impl Progress {
    /// Nothing known yet beyond a cover of `best` sets.
    pub(crate) fn new(best: usize) -> Progress {
        Progress {
            bound: AtomicUsize::new(0),
            best: AtomicUsize::new(best),
            steps: AtomicU64::new(0),
        }
    }
}

/// A member's place in the heap: score, cost, step it entered S (older first), id.
type Entry = (i64, Ordered, Reverse<u64>, u32);

/// Steps between two readings of the shared bound.
const SHARE_EVERY: u64 = 64;

/// The set family S of the search, with the weights of the elements, the scores of the
/// sets and the heap of its members.
struct Family<'a> {
    p: &'a CoverInstance,
    /// Sets that may be chosen.
    usable: &'a [bool],
    /// Tie-break among sets of equal score: lower first in, higher first out.
    cost: &'a [f64],
    in_s: Vec<bool>,
    /// The members of S, and each member's position there.
    members: Vec<u32>,
    pos: Vec<u32>,
    /// Sets of S holding each element.
    cnt: Vec<u32>,
    weight: Vec<u64>,
    score: Vec<i64>,
    /// Step at which each set last entered or left S.
    time: Vec<u64>,
    /// Whether a set may enter (configuration checking).
    conf: Vec<bool>,
    /// Uncovered elements, and each one's position there.
    uncovered: Vec<u32>,
    upos: Vec<u32>,
    /// The members in a binary max-heap by [`Family::key`], and each member's place there.
    heap: Vec<Entry>,
    hpos: Vec<u32>,
}

impl Family<'_> {
    fn add(&mut self, t: usize, step: u64) {
        debug_assert!(!self.in_s[t]);
        let p = self.p;
        self.in_s[t] = true;
        self.pos[t] = self.members.len() as u32;
        self.members.push(t as u32);
        self.time[t] = step;
        let mut own = 0i64;
        for &e in &p.sets[t] {
            let e = e as usize;
            let w = self.weight[e] as i64;
            match self.cnt[e] {
                0 => {
                    for &u in &p.elems[e] {
                        if u as usize != t {
                            self.score[u as usize] -= w;
                            self.conf[u as usize] = true;
                        }
                    }
                    own += w;
                    let i = self.upos[e] as usize;
                    let last = self.uncovered.pop().expect("e is uncovered");
                    if last as usize != e {
                        self.uncovered[i] = last;
                        self.upos[last as usize] = i as u32;
                    }
                }
                1 => {
                    for &u in &p.elems[e] {
                        let u = u as usize;
                        if u != t && self.in_s[u] {
                            self.score[u] += w;
                            let h = self.hpos[u] as usize;
                            self.heap[h].0 = self.score[u];
                            self.up(h);
                        }
                    }
                }
                _ => {}
            }
            self.cnt[e] += 1;
        }
        self.score[t] = -own;
        self.hpos[t] = self.heap.len() as u32;
        self.heap.push(self.key(t as u32));
        self.up(self.heap.len() - 1);
    }

    /// The order of the members in the heap: highest score first, then highest cost, then
    /// in S longest, then highest id.
    #[inline]
    fn key(&self, t: u32) -> Entry {
        let i = t as usize;
        (self.score[i], Ordered(self.cost[i]), Reverse(self.time[i]), t)
    }

    /// Moves the heap entry at `i` up to its place.
    fn up(&mut self, mut i: usize) {
        let k = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let q = self.heap[parent];
            if q >= k {
                break;
            }
            self.place(i, q);
            i = parent;
        }
        self.place(i, k);
    }

    /// Puts the entry `e` at place `i` of the heap.
    #[inline]
    fn place(&mut self, i: usize, e: Entry) {
        self.heap[i] = e;
        self.hpos[e.3 as usize] = i as u32;
    }

    /// Moves the heap entry at `i` down to its place.
    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        let k = self.heap[i];
        loop {
            let mut c = 2 * i + 1;
            if c >= n {
                break;
            }
            if c + 1 < n && self.heap[c + 1] > self.heap[c] {
                c += 1;
            }
            let q = self.heap[c];
            if q <= k {
                break;
            }
            self.place(i, q);
            i = c;
        }
        self.place(i, k);
    }

    fn remove(&mut self, t: usize, step: u64) {
        debug_assert!(self.in_s[t]);
        let p = self.p;
        self.in_s[t] = false;
        let h = self.hpos[t] as usize;
        let last = self.heap.pop().expect("t is in the heap");
        if h < self.heap.len() {
            self.heap[h] = last;
            self.hpos[last.3 as usize] = h as u32;
            self.up(h);
            self.down(self.hpos[last.3 as usize] as usize);
        }
        let i = self.pos[t] as usize;
        let last = self.members.pop().expect("t is a member");
        if last as usize != t {
            self.members[i] = last;
            self.pos[last as usize] = i as u32;
        }
        self.time[t] = step;
        self.conf[t] = false;
        let mut gain = 0i64;
        for &e in &p.sets[t] {
            let e = e as usize;
            let w = self.weight[e] as i64;
            self.cnt[e] -= 1;
            match self.cnt[e] {
                0 => {
                    for &u in &p.elems[e] {
                        if u as usize != t {
                            self.score[u as usize] += w;
                            self.conf[u as usize] = true;
                        }
                    }
                    gain += w;
                    self.upos[e] = self.uncovered.len() as u32;
                    self.uncovered.push(e as u32);
                }
                1 => {
                    for &u in &p.elems[e] {
                        let u = u as usize;
                        if self.in_s[u] {
                            self.score[u] -= w;
                            let h = self.hpos[u] as usize;
                            self.heap[h].0 = self.score[u];
                            self.down(h);
                        }
                    }
                }
                _ => {}
            }
        }
        self.score[t] = gain;
    }

    /// The member of highest score other than `tabu` (ties: in S longest).
    fn worst_member(&self, tabu: usize) -> Option<usize> {
        let top = self.heap.first()?.3;
        if top as usize != tabu {
            return Some(top as usize);
        }
        // The best of the top's children.
        self.heap.iter().skip(1).take(2).max().map(|q| q.3 as usize)
    }
}

/// One run of the local search: what it may use, where it starts and when it stops.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Run<'a> {
    /// Sets that may be chosen.
    pub(crate) usable: &'a [bool],
    /// Tie-break among sets of equal score: lower first in, higher first out.
    pub(crate) cost: &'a [f64],
    /// The family the search starts from (usable sets, not necessarily a cover).
    pub(crate) start: &'a [u32],
    /// Only covers of fewer sets than this count.
    pub(crate) limit: usize,
    /// The search stops at a cover of at most this many sets.
    pub(crate) target: usize,
    /// Steps, at most.
    pub(crate) steps: u64,
    /// Picks the generator.
    pub(crate) seed: u64,
}

/// Looks for a cover of `p` of fewer than `run.limit` sets among the usable ones, from the
/// family `run.start`, for `run.steps` steps or until a cover of at most `run.target` sets
/// is found; returns the smallest cover found, increasing, if any. With `shared`, the
/// search publishes its progress there and also stops once its best cover (or the limit)
/// is no larger than the bound found there, which leaves the result as it would be at the
/// end.
pub(crate) fn local_search(
    p: &CoverInstance,
    run: &Run<'_>,
    shared: Option<&Progress>,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let r = search(p, run, shared, budget);
    if let Some(sh) = shared {
        sh.steps.store(u64::MAX, Ordering::Relaxed);
    }
    r
}

impl<'a> Family<'a> {
    /// The empty family over `p`, every element of weight 1.
    fn new(p: &'a CoverInstance, run: &Run<'a>) -> Family<'a> {
        let (ns, ne) = (p.sets.len(), p.elems.len());
        let mut ls = Family {
            p,
            usable: run.usable,
            cost: run.cost,
            in_s: vec![false; ns],
            members: Vec::with_capacity(run.start.len()),
            pos: vec![0; ns],
            cnt: vec![0; ne],
            weight: vec![1; ne],
            score: vec![0; ns],
            time: vec![0; ns],
            conf: vec![true; ns],
            uncovered: (0..ne as u32).collect(),
            upos: (0..ne as u32).collect(),
            heap: Vec::with_capacity(run.start.len()),
            hpos: vec![0; ns],
        };
        for (t, list) in p.sets.iter().enumerate() {
            ls.score[t] = list.len() as i64;
        }
        ls
    }

    /// Takes the sets of `start`, then brings the family to one set fewer than `limit`:
    /// the members of highest score leave, or the uncovered element of lowest id takes its
    /// usable set of highest score until everything is covered or that size is reached.
    fn start_from(
        &mut self,
        start: &[u32],
        limit: usize,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let p = self.p;
        for &t in start {
            self.add(t as usize, 0);
        }
        while self.members.len() + 1 > limit.max(1) {
            let Some(t) = self.worst_member(usize::MAX) else { break };
            self.remove(t, 0);
        }
        while self.members.len() + 1 < limit {
            let Some(&e) = self.uncovered.iter().min() else { break };
            let pick = p.elems[e as usize]
                .iter()
                .map(|&u| u as usize)
                .filter(|&u| self.usable[u])
                .max_by_key(|&u| (self.score[u], Reverse(u)));
            let Some(t) = pick else { break };
            self.add(t, 0);
            budget.spend(p.sets[t].len() as u64)?;
        }
        Ok(())
    }

    /// The set to bring in for the uncovered element `e`: its usable set of highest score
    /// (ties: lowest cost, then out longest) among those that configuration checking lets
    /// in, or among all its usable sets when it lets none in.
    fn entering(&self, e: usize) -> Option<usize> {
        let mut pick: Option<usize> = None;
        let mut fallback: Option<usize> = None;
        for &u in &self.p.elems[e] {
            let u = u as usize;
            if !self.usable[u] {
                continue;
            }
            let better = |b: Option<usize>| {
                b.is_none_or(|b| {
                    (self.score[u], Ordered(-self.cost[u]), Reverse(self.time[u]))
                        > (self.score[b], Ordered(-self.cost[b]), Reverse(self.time[b]))
                })
            };
            if self.conf[u] && better(pick) {
                pick = Some(u);
            }
            if better(fallback) {
                fallback = Some(u);
            }
        }
        pick.or(fallback)
    }

    /// Raises the weight of every uncovered element by one; returns the work done.
    fn weigh_uncovered(&mut self) -> u64 {
        let p = self.p;
        let mut work = self.members.len() as u64;
        for i in 0..self.uncovered.len() {
            let e = self.uncovered[i] as usize;
            self.weight[e] += 1;
            for &u in &p.elems[e] {
                self.score[u as usize] += 1;
            }
            work += p.elems[e].len() as u64;
        }
        work
    }
}

/// [`local_search`] without the final report of its end.
fn search(
    p: &CoverInstance,
    run: &Run<'_>,
    shared: Option<&Progress>,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let (ns, ne) = (p.sets.len(), p.elems.len());
    let Run { limit, target, steps, seed, .. } = *run;
    let mut ls = Family::new(p, run);
    budget.spend((ns + ne) as u64)?;
    ls.start_from(run.start, limit, budget)?;
    let mut best: Vec<u32> = Vec::new();
    let mut best_len = limit;
    let mut rng = SplitMix64(0x6265_7461_636f_7665 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut tabu = usize::MAX;
    for step in 1..=steps {
        while ls.uncovered.is_empty() {
            if ls.members.len() < best_len {
                best.clone_from(&ls.members);
                best_len = best.len();
                if let Some(sh) = shared {
                    sh.best.store(best_len, Ordering::Relaxed);
                }
            }
            if best_len <= target {
                break;
            }
            let Some(t) = ls.worst_member(usize::MAX) else { break };
            ls.remove(t, step);
        }
        if best_len <= target {
            break;
        }
        if let Some(sh) = shared
            && step % SHARE_EVERY == 0
        {
            sh.steps.store(step, Ordering::Relaxed);
            if best_len <= sh.bound.load(Ordering::Relaxed) {
                break;
            }
        }
        let Some(out) = ls.worst_member(tabu) else { break };
        ls.remove(out, step);
        let e = ls.uncovered[pick(&mut rng, ls.uncovered.len())] as usize;
        let Some(inn) = ls.entering(e) else { break };
        ls.add(inn, step);
        tabu = inn;
        let work = ls.weigh_uncovered();
        if let Err(e) = budget.spend(work) {
            // At the deadline the best cover found is still an answer.
            if best_len == limit {
                return Err(e);
            }
            break;
        }
    }
    if best_len == limit {
        return Ok(None);
    }
    best.sort_unstable();
    Ok(Some(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn finds_the_two_set_cover_behind_many_small_sets() {
        // Elements 0..8; sets {0..3} and {4..7}, plus eight singletons and four pairs.
        let mut sets = vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]];
        sets.extend((0..8).map(|e| vec![e]));
        sets.extend((0..4).map(|i| vec![2 * i, 2 * i + 1]));
        let p = CoverInstance::new(sets, 8);
        let usable = vec![true; p.sets.len()];
        let cost = vec![0.0; p.sets.len()];
        let start: Vec<u32> = (2..10).collect();
        let run = Run {
            usable: &usable,
            cost: &cost,
            start: &start,
            limit: 8,
            target: 0,
            steps: 1000,
            seed: 0,
        };
        let f = local_search(&p, &run, None, &mut Budget::new(&Config::default())).unwrap();
        assert_eq!(f, Some(vec![0, 1]));
    }

    #[test]
    fn a_shared_bound_ends_the_search_with_the_same_cover() {
        use crate::cover::tests::{brute, random_instance};
        let mut rng = gamegraph_testkit::SplitMix64::new(808);
        for round in 0..200 {
            let p = random_instance(&mut rng, 4 + round % 11, 6 + round % 15, 200);
            let usable = vec![true; p.sets.len()];
            let cost = vec![0.0; p.sets.len()];
            let start: Vec<u32> = (0..p.sets.len() as u32).collect();
            let mut b = Budget::new(&Config::default());
            let run = |shared: Option<&Progress>, b: &mut Budget| {
                let (usable, cost, start) = (&usable[..], &cost[..], &start[..]);
                let run = Run {
                    usable,
                    cost,
                    start,
                    limit: start.len(),
                    target: 0,
                    steps: 3000,
                    seed: 3,
                };
                local_search(&p, &run, shared, b).unwrap()
            };
            let alone = run(None, &mut b);
            let shared = Progress::new(start.len());
            shared.bound.store(brute(&p), Ordering::Relaxed);
            assert_eq!(run(Some(&shared), &mut b), alone, "{p:?}");
            assert_eq!(shared.steps.load(Ordering::Relaxed), u64::MAX);
            if let Some(f) = &alone {
                assert_eq!(shared.best.load(Ordering::Relaxed), f.len());
            }
        }
    }
}
