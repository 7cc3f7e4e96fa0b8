//! The clause database of the SAT solver: clauses in one arena, two watches per clause, the
//! clauses added before solving, the learnt clauses and the periodic deletion of learnt
//! clauses of high glue.
//!
//! Every clause enters the database through [`Solver::attach`] and learnt clauses leave it
//! only in [`Solver::reduce_db`]: [`Solver::learn`] and [`Solver::reduce_db`] are where the
//! proof log ([`super::ProofLog`], DRAT lines for the learnt and the deleted clauses) is
//! written when one is kept. The clauses added before solving are not logged: they are the
//! formula (with the literals false at level 0 left out, which unit propagation of the
//! formula gives back).

use std::collections::{HashMap, HashSet};

use super::{Lit, NO_REASON, Solver};

/// A watch: the clause (offset in the arena, with [`BINARY`] set for a clause of two
/// literals) and a literal of it that satisfies it if true (for a binary clause, the other
/// literal, so that propagating it never reads the arena).
#[derive(Debug, Clone, Copy)]
pub(super) struct Watch {
    pub(super) cref: u32,
    pub(super) blocker: Lit,
}

/// The flag of a binary clause's watches.
pub(super) const BINARY: u32 = 1 << 31;

impl Watch {
    pub(super) fn new(cref: u32, len: usize, blocker: Lit) -> Watch {
        Watch { cref: if len == 2 { cref | BINARY } else { cref }, blocker }
    }
}

/// The flag of a learnt clause in the second word of its arena entry (the rest is its glue).
const LEARNT: u32 = 1 << 31;

impl Solver {
    /// The literal at offset `i` of the arena.
    #[inline]
    pub(super) fn lit_at(&self, i: usize) -> Lit {
        Lit::from_code(self.arena[i])
    }

    /// Adds a clause at level 0 (before solving, or between solves: the last model is then
    /// forgotten); returns false when the clauses are now known unsatisfiable.
    pub(crate) fn add_clause(&mut self, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        self.backtrack(0);
        let mut c: Vec<Lit> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        let mut out = Vec::with_capacity(c.len());
        for (i, &l) in c.iter().enumerate() {
            debug_assert!(l.var().index() < self.n);
            if i + 1 < c.len() && c[i + 1] == !l {
                return true; // tautology
            }
            match self.lit_value(l) {
                1 => return true,
                0 => {}
                _ => out.push(l),
            }
        }
        match out.len() {
            0 => {
                self.ok = false;
                false
            }
            1 => {
                self.enqueue(out[0], NO_REASON);
                self.ok = self.propagate_plain().is_none();
                self.ok
            }
            _ => {
                self.attach(&out, false, 0);
                true
            }
        }
    }

    /// Stores a clause of two literals or more and watches its first two; returns its offset.
    pub(super) fn attach(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let cref = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena.push((u32::from(learnt) << 31) | lbd.min(1 << 30));
        self.arena.extend(lits.iter().map(|l| l.code()));
        let len = lits.len();
        self.watches[(!lits[0]).index()].push(Watch::new(cref, len, lits[1]));
        self.watches[(!lits[1]).index()].push(Watch::new(cref, len, lits[0]));
        if learnt {
            self.learnts.push(cref);
        }
        cref
    }

    /// Learns the clause `lits` of glue `lbd` (its asserting literal first, unassigned after
    /// the backjump) and asserts that literal: a unit at level 0, else with the stored clause
    /// as its reason.
    pub(super) fn learn(&mut self, lits: &[Lit], lbd: u32) {
        if let Some(log) = &mut self.proof {
            log.add(lits.iter().copied());
        }
        if lits.len() == 1 {
            self.enqueue(lits[0], NO_REASON);
        } else {
            let cref = self.attach(lits, true, lbd);
            self.enqueue(lits[0], cref);
        }
    }

    /// The glue stored with the clause at `cref`, `None` for a clause given, not learnt.
    pub(super) fn stored_glue(&self, cref: u32) -> Option<u32> {
        let w = self.arena[cref as usize + 1];
        (w & LEARNT != 0).then_some(w & !LEARNT)
    }

    /// Stores a new glue with the learnt clause at `cref`.
    pub(super) fn set_glue(&mut self, cref: u32, lbd: u32) {
        self.arena[cref as usize + 1] = LEARNT | lbd;
    }

    /// Whether the clause at `cref` is the reason of its first literal's assignment.
    fn is_locked(&self, cref: u32) -> bool {
        let first = self.lit_at(cref as usize + 2);
        self.reason[first.var().index()] == cref && self.lit_value(first) == 1
    }

    /// Runs [`Solver::reduce_db`] once enough conflicts have passed since the last time
    /// (2000, then 300 more at each round).
    pub(super) fn reduce_db_when_due(&mut self) {
        if self.conflicts >= self.next_reduce {
            self.reduce_round += 1;
            self.next_reduce = self.conflicts + 2000 + 300 * self.reduce_round;
            self.reduce_db();
        }
    }

    /// Deletes about half of the learnt clauses of glue above 2 (the highest glue first),
    /// then compacts the arena and rebuilds the watches.
    fn reduce_db(&mut self) {
        let drop = self.clauses_to_delete();
        if let Some(log) = &mut self.proof {
            let mut gone: Vec<u32> = drop.iter().copied().collect();
            gone.sort_unstable(); // the same lines on every run
            for c in gone {
                let (c, len) = (c as usize, self.arena[c as usize] as usize);
                log.delete(self.arena[c + 2..c + 2 + len].iter().map(|&l| Lit::from_code(l)));
            }
        }
        self.compact(&drop);
        self.rewatch();
    }

    /// The learnt clauses [`Solver::reduce_db`] deletes: the half of highest glue (then
    /// highest offset) among those of glue above 2 that are no reason.
    fn clauses_to_delete(&self) -> HashSet<u32> {
        let mut cands: Vec<(u32, u32)> = self
            .learnts
            .iter()
            .map(|&c| (self.stored_glue(c).unwrap_or(0), c))
            .filter(|&(lbd, c)| lbd > 2 && !self.is_locked(c))
            .collect();
        cands.sort_unstable_by(|a, b| b.cmp(a));
        cands[..cands.len() / 2].iter().map(|&(_, c)| c).collect()
    }

    /// Removes the clauses at the offsets `drop` from the arena and renumbers the others
    /// (in the reasons and the list of learnt clauses).
    fn compact(&mut self, drop: &HashSet<u32>) {
        let mut arena = Vec::with_capacity(self.arena.len());
        let mut remap = HashMap::new();
        let mut learnts = Vec::new();
        let mut c = 0usize;
        while c < self.arena.len() {
            let len = self.arena[c] as usize;
            let old = c as u32;
            if !drop.contains(&old) {
                let new = arena.len() as u32;
                remap.insert(old, new);
                arena.extend_from_slice(&self.arena[c..c + 2 + len]);
                if self.arena[c + 1] & LEARNT != 0 {
                    learnts.push(new);
                }
            }
            c += 2 + len;
        }
        for r in &mut self.reason {
            if *r != NO_REASON {
                *r = remap[r];
            }
        }
        self.arena = arena;
        self.learnts = learnts;
    }

    /// Watches the first two literals of every clause of the arena, afresh.
    fn rewatch(&mut self) {
        for w in &mut self.watches {
            w.clear();
        }
        let mut c = 0usize;
        while c < self.arena.len() {
            let len = self.arena[c] as usize;
            let (a, b) = (self.lit_at(c + 2), self.lit_at(c + 3));
            self.watches[(!a).index()].push(Watch::new(c as u32, len, b));
            self.watches[(!b).index()].push(Watch::new(c as u32, len, a));
            c += 2 + len;
        }
    }
}
