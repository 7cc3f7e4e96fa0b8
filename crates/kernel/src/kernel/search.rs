//! The exact kernel search: propagation over an explicit trail, chronological backtracking.
//!
//! A set S is a kernel exactly when, for every vertex v, `v ∈ S ⇔ no successor of v is in S`.
//! Every vertex is `In`, `Out` or undecided; the propagation rules are
//! 1. `v` In ⇒ every successor and every predecessor of `v` is Out;
//! 2. `v` Out with no In successor: no undecided successor left is a contradiction, exactly
//!    one left forces it In;
//! 3. `v` undecided with every successor Out ⇒ `v` In;
//! 4. a vertex with a self-loop is Out.
//!
//! Each vertex keeps two counters over its successors (how many are In, how many are not Out)
//! that are updated when an assignment is processed and restored on backtracking, so one
//! propagation step costs the degree of the vertex assigned.

use crate::KernelError;
use crate::config::Budget;
use crate::induced::Subgraph;

const UNK: u8 = 0;
const IN: u8 = 1;
const OUT: u8 = 2;

#[derive(Debug, Clone, Copy)]
struct Decision {
    mark: u32,
    v: u32,
    flipped: bool,
}

/// The assignment, its trail and the counters.
#[derive(Debug)]
struct Assignment {
    val: Vec<u8>,
    cnt_in: Vec<u32>,
    cnt_open: Vec<u32>,
    trail: Vec<u32>,
    qhead: usize,
}

/// A resumable depth-first search over the kernels of one [`Subgraph`].
#[derive(Debug)]
pub(crate) struct Search {
    g: Subgraph,
    /// Strongly connected component of each vertex, sinks first (the branching order).
    rank: Vec<u32>,
    degree: Vec<u32>,
    st: Assignment,
    decisions: Vec<Decision>,
    started: bool,
    done: bool,
    /// The budget ran out at a propagated fixpoint, before a decision: resume there.
    resume: bool,
}

impl Search {
    pub(crate) fn new(g: Subgraph, budget: &mut Budget) -> Result<Search, KernelError> {
        let n = g.n();
        let mut rank = vec![0u32; n];
        for (i, comp) in g.sccs(None, budget)?.iter().enumerate() {
            for &v in comp {
                rank[v as usize] = i as u32;
            }
        }
        let degree = (0..n).map(|v| (g.succ(v).len() + g.pred(v).len()) as u32).collect();
        let cnt_open = (0..n).map(|v| g.succ(v).len() as u32).collect();
        budget.spend(n as u64)?;
        Ok(Search {
            g,
            rank,
            degree,
            st: Assignment {
                val: vec![UNK; n],
                cnt_in: vec![0; n],
                cnt_open,
                trail: Vec::with_capacity(n),
                qhead: 0,
            },
            decisions: Vec::new(),
            started: false,
            done: false,
            resume: false,
        })
    }

    /// The graph searched.
    pub(crate) fn graph(&self) -> &Subgraph {
        &self.g
    }

    /// Starts the enumeration again from the beginning.
    pub(crate) fn reset(&mut self) {
        self.st.undo(&self.g, 0);
        self.decisions.clear();
        self.started = false;
        self.done = false;
        self.resume = false;
    }

    /// Whether vertex `v` is In in the kernel just found by [`Search::next`].
    #[inline]
    pub(crate) fn is_in(&self, v: usize) -> bool {
        self.st.val[v] == IN
    }

    /// Advances to the next kernel: `Ok(true)` when one was found (read it with
    /// [`Search::is_in`]), `Ok(false)` when there are no more. After an error of the budget
    /// the search can be resumed by calling `next` again (with a larger budget).
    pub(crate) fn next(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
        if self.done {
            return Ok(false);
        }
        let mut ok;
        if self.resume {
            self.resume = false;
            ok = self.propagate(budget)?;
        } else if self.started {
            if !self.backtrack(budget)? {
                self.done = true;
                return Ok(false);
            }
            ok = self.propagate(budget)?;
        } else {
            let n = self.g.n();
            budget.spend(n as u64)?;
            self.started = true;
            ok = true;
            for v in 0..n {
                if self.g.looped[v] {
                    ok &= self.st.assign(v as u32, OUT);
                } else if self.g.succ(v).is_empty() {
                    ok &= self.st.assign(v as u32, IN);
                }
            }
            ok = ok && self.propagate(budget)?;
        }
        loop {
            if ok {
                match self.choose() {
                    None => return Ok(true),
                    Some(v) => {
                        // `choose` scans every vertex.
                        if let Err(e) = budget.tick(self.g.n() as u64) {
                            self.resume = true;
                            return Err(e);
                        }
                        self.decisions.push(Decision {
                            mark: self.st.trail.len() as u32,
                            v,
                            flipped: false,
                        });
                        self.st.assign(v, IN);
                        ok = self.propagate(budget)?;
                    }
                }
            } else {
                if !self.backtrack(budget)? {
                    self.done = true;
                    return Ok(false);
                }
                ok = self.propagate(budget)?;
            }
        }
    }

    /// Propagates to a fixpoint; when the budget runs out on the way, the next call of
    /// [`Search::next`] carries on from where it stopped.
    fn propagate(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
        let r = self.st.propagate(&self.g, budget);
        if r.is_err() {
            self.resume = true;
        }
        r
    }

    /// Undoes decisions up to the last one not yet flipped and flips it to Out.
    fn backtrack(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
        let mut work = 0;
        while let Some(d) = self.decisions.last().copied() {
            work += self.st.undo(&self.g, d.mark as usize);
            if d.flipped {
                self.decisions.pop();
                continue;
            }
            budget.tick(work)?;
            if let Some(last) = self.decisions.last_mut() {
                last.flipped = true;
            }
            self.st.assign(d.v, OUT);
            return Ok(true);
        }
        Ok(false)
    }

    /// The branching vertex: a candidate of the Out vertex with fewest candidates left
    /// (lowest component first), else the undecided vertex of the lowest component (sinks
    /// first) with the largest degree. `None` when every vertex is decided.
    fn choose(&self) -> Option<u32> {
        let n = self.g.n();
        let st = &self.st;
        let mut best: Option<(u32, u32, usize)> = None;
        for p in 0..n {
            if st.val[p] == OUT && st.cnt_in[p] == 0 {
                let key = (st.cnt_open[p], self.rank[p]);
                if best.is_none_or(|(a, b, _)| key < (a, b)) {
                    best = Some((key.0, key.1, p));
                }
            }
        }
        let pick = |it: &mut dyn Iterator<Item = u32>| {
            it.filter(|&v| st.val[v as usize] == UNK)
                .min_by_key(|&v| (self.rank[v as usize], u32::MAX - self.degree[v as usize], v))
        };
        if let Some((_, _, p)) = best {
            return pick(&mut self.g.succ(p).iter().copied());
        }
        pick(&mut (0..n as u32))
    }
}

impl Assignment {
    #[inline]
    fn assign(&mut self, v: u32, x: u8) -> bool {
        let cur = self.val[v as usize];
        if cur == UNK {
            self.val[v as usize] = x;
            self.trail.push(v);
            true
        } else {
            cur == x
        }
    }

    /// Undoes the assignments from `mark` on; returns the work done (entries visited).
    fn undo(&mut self, g: &Subgraph, mark: usize) -> u64 {
        let mut work = 0;
        for i in (mark..self.trail.len()).rev() {
            let v = self.trail[i] as usize;
            work += 1;
            if i < self.qhead {
                work += g.pred(v).len() as u64;
                if self.val[v] == IN {
                    for &p in g.pred(v) {
                        self.cnt_in[p as usize] -= 1;
                    }
                } else {
                    for &p in g.pred(v) {
                        self.cnt_open[p as usize] += 1;
                    }
                }
            }
            self.val[v] = UNK;
        }
        self.trail.truncate(mark);
        self.qhead = self.qhead.min(mark);
        work
    }

    /// Rule 2 for an Out vertex `p`; false on a contradiction.
    #[inline]
    fn check_out(&mut self, g: &Subgraph, p: usize) -> bool {
        if self.cnt_in[p] > 0 {
            return true;
        }
        match self.cnt_open[p] {
            0 => false,
            1 => match g.succ(p).iter().find(|&&s| self.val[s as usize] != OUT) {
                None => false,
                Some(&s) => self.assign(s, IN),
            },
            _ => true,
        }
    }

    /// Runs the rules to a fixpoint; false on a contradiction. Fails when the budget runs
    /// out between two vertices; calling it again carries on.
    fn propagate(&mut self, g: &Subgraph, budget: &mut Budget) -> Result<bool, KernelError> {
        while self.qhead < self.trail.len() {
            let v = self.trail[self.qhead] as usize;
            budget.spend(1 + 2 * (g.succ(v).len() + g.pred(v).len()) as u64)?;
            self.qhead += 1;
            if self.val[v] == IN {
                for &p in g.pred(v) {
                    self.cnt_in[p as usize] += 1;
                }
                for &s in g.succ(v) {
                    if !self.assign(s, OUT) {
                        return Ok(false);
                    }
                }
                for &p in g.pred(v) {
                    if !self.assign(p, OUT) {
                        return Ok(false);
                    }
                }
            } else {
                for &p in g.pred(v) {
                    self.cnt_open[p as usize] -= 1;
                }
                if !self.check_out(g, v) {
                    return Ok(false);
                }
                for &p in g.pred(v) {
                    let p = p as usize;
                    let state = self.val[p];
                    match state {
                        UNK if self.cnt_open[p] == 0 => {
                            self.assign(p as u32, IN);
                        }
                        OUT if !self.check_out(g, p) => return Ok(false),
                        _ => {}
                    }
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::{SplitMix64, random_dense_graph};

    fn kernels_of(s: &mut Search, step: Option<u64>) -> Vec<Vec<usize>> {
        let mut budget = Budget::new(&Config::default());
        let mut out = Vec::new();
        loop {
            let r = match step {
                None => Some(s.next(&mut budget).unwrap()),
                Some(cap) => budget.capped(cap, |b| s.next(b)).unwrap(),
            };
            match r {
                None => continue, // stopped by the cap: resume
                Some(false) => return out,
                Some(true) => {
                    out.push((0..s.graph().n()).filter(|&v| s.is_in(v)).collect());
                }
            }
        }
    }

    #[test]
    fn a_search_stopped_by_the_clock_anywhere_resumes_where_it_stopped() {
        let mut rng = SplitMix64::new(777);
        for round in 0..100 {
            let n = 4 + round % 12;
            let g = random_dense_graph(&mut rng, n, 250);
            let mut b = Budget::new(&Config::default());
            let local = Subgraph::whole(&g, &mut b).unwrap();
            let whole = kernels_of(&mut Search::new(local.clone(), &mut b).unwrap(), None);
            for every in [1, 2, 3, 7] {
                let mut b = Budget::new(&Config::default());
                let mut s = Search::new(local.clone(), &mut b).unwrap();
                b.trip = Some((every + 1, every));
                let mut out = Vec::new();
                let mut stops = 0;
                loop {
                    match s.next(&mut b) {
                        Err(e) if e.is_clock() => stops += 1,
                        Err(e) => panic!("{e}"),
                        Ok(false) => break,
                        Ok(true) => out.push((0..n).filter(|&v| s.is_in(v)).collect::<Vec<_>>()),
                    }
                }
                assert_eq!(out, whole, "stopped {stops} times");
            }
        }
    }

    #[test]
    fn a_search_stopped_by_its_budget_resumes_where_it_stopped() {
        let mut rng = SplitMix64::new(12345);
        for round in 0..200 {
            let n = 4 + round % 12;
            let g = random_dense_graph(&mut rng, n, 200);
            let mut b = Budget::new(&Config::default());
            let whole = kernels_of(
                &mut Search::new(Subgraph::whole(&g, &mut b).unwrap(), &mut b).unwrap(),
                None,
            );
            for step in [2, 3, 5] {
                let mut s = Search::new(Subgraph::whole(&g, &mut b).unwrap(), &mut b).unwrap();
                assert_eq!(kernels_of(&mut s, Some(step)), whole);
                s.reset();
                assert_eq!(kernels_of(&mut s, None), whole);
            }
        }
    }
}
