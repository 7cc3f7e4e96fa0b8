//! Conflict analysis: the first-UIP clause of a conflict, its recursive minimisation, the
//! level to jump back to and the clause's glue (LBD); the failed assumptions of a solve under
//! assumptions.

use super::{Lit, NO_REASON, Solver, Var};

/// A clause learnt from a conflict.
pub(super) struct Learnt {
    /// Its literals: the asserting one first, one of the backjump level second.
    pub(super) lits: Vec<Lit>,
    /// The level to jump back to, where the clause asserts its first literal.
    pub(super) backjump: u32,
    /// The number of levels among its literals.
    pub(super) glue: u32,
}

/// How many levels the literals `lits` are on (each level seen is stamped with `stamp`).
fn levels(
    level: &[u32],
    level_stamp: &mut [u64],
    stamp: u64,
    lits: impl Iterator<Item = Lit>,
) -> u32 {
    let mut n = 0;
    for l in lits {
        let lv = level[l.var().index()] as usize;
        if level_stamp[lv] != stamp {
            level_stamp[lv] = stamp;
            n += 1;
        }
    }
    n
}

impl Solver {
    /// First-UIP analysis of `confl`, minimised; the backjump level and the glue.
    pub(super) fn analyze(&mut self, confl: u32) -> Learnt {
        let learnt = self.first_uip(confl);
        let mut lits = self.minimise(learnt);
        let backjump = self.backjump_level(&mut lits);
        let glue = self.glue(&lits);
        Learnt { lits, backjump, glue }
    }

    /// The first-UIP clause of the conflict `confl`, its asserting literal first; bumps the
    /// activity of the variables met and leaves the others of the clause marked `seen`.
    fn first_uip(&mut self, mut confl: u32) -> Vec<Lit> {
        let mut learnt: Vec<Lit> = vec![Lit::from_code(0)];
        let mut path = 0;
        let mut p: Option<Lit> = None;
        let mut index = self.trail.len();
        let cur = self.trail_lim.len() as u32;
        loop {
            let c = confl as usize;
            let len = self.arena[c] as usize;
            if self.opts.glucose {
                self.update_glue(confl);
            }
            let start = usize::from(p.is_some());
            for k in start..len {
                let q = self.lit_at(c + 2 + k);
                let v = q.var().index();
                if self.seen[v] == 0 && self.level[v] > 0 {
                    self.seen[v] = 1;
                    self.bump(q.var());
                    if self.level[v] >= cur {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            loop {
                index -= 1;
                if self.seen[self.trail[index].var().index()] != 0 {
                    break;
                }
            }
            let lit = self.trail[index];
            p = Some(lit);
            confl = self.reason[lit.var().index()];
            self.seen[lit.var().index()] = 0;
            path -= 1;
            if path == 0 {
                break;
            }
            // The reason's first literal is the implied one: make sure of it.
            let c = confl as usize;
            if self.lit_at(c + 2) != lit {
                let len = self.arena[c] as usize;
                for k in 1..len {
                    if self.lit_at(c + 2 + k) == lit {
                        self.arena.swap(c + 2, c + 2 + k);
                        break;
                    }
                }
            }
        }
        learnt[0] = !p.expect("a conflict has a UIP");
        learnt
    }

    /// Drops from `learnt` the literals implied by the others (recursive minimisation), and
    /// clears the marks `seen` left by [`Solver::first_uip`].
    fn minimise(&mut self, learnt: Vec<Lit>) -> Vec<Lit> {
        self.stamp += 1;
        for &l in &learnt[1..] {
            self.level_stamp[self.level[l.var().index()] as usize] = self.stamp;
        }
        self.to_clear.clear();
        for &l in &learnt[1..] {
            self.to_clear.push(l.var());
        }
        let mut keep = vec![learnt[0]];
        for &l in &learnt[1..] {
            if self.reason[l.var().index()] == NO_REASON || !self.redundant(l) {
                keep.push(l);
            }
        }
        for &v in &self.to_clear {
            self.seen[v.index()] = 0;
        }
        keep
    }

    /// Whether `l` (false, in the learnt clause) is implied by the other literals of the
    /// clause (MiniSat's `litRedundant`).
    fn redundant(&mut self, l: Lit) -> bool {
        self.stack.clear();
        self.stack.push(l);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let c = self.reason[q.var().index()] as usize;
            let len = self.arena[c] as usize;
            for k in 1..len {
                let r = self.lit_at(c + 2 + k);
                let v = r.var().index();
                if self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NO_REASON
                    && self.level_stamp[self.level[v] as usize] == self.stamp
                {
                    self.seen[v] = 1;
                    self.stack.push(r);
                    self.to_clear.push(Var(v as u32));
                } else {
                    for &u in &self.to_clear[top..] {
                        self.seen[u.index()] = 0;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// The backjump level of `learnt`: the highest level among its literals after the first,
    /// whose literal moves to position 1 (0 for a unit).
    fn backjump_level(&self, learnt: &mut [Lit]) -> u32 {
        if learnt.len() <= 1 {
            return 0;
        }
        let level = |l: Lit| self.level[l.var().index()];
        let mut best = 1;
        for k in 2..learnt.len() {
            if level(learnt[k]) > level(learnt[best]) {
                best = k;
            }
        }
        learnt.swap(1, best);
        level(learnt[1])
    }

    /// The glue of `learnt`: how many levels its literals are on.
    fn glue(&mut self, learnt: &[Lit]) -> u32 {
        self.stamp += 1;
        levels(&self.level, &mut self.level_stamp, self.stamp, learnt.iter().copied())
    }

    /// Lowers the glue stored with the learnt clause `cref`, used in an analysis, when its
    /// literals now lie on fewer levels (by two or more: Glucose's rule), so that a clause
    /// that proves useful survives [`Solver::reduce_db`]. Clauses of glue 2 or less are
    /// kept anyway.
    fn update_glue(&mut self, cref: u32) {
        let Some(stored) = self.stored_glue(cref).filter(|&g| g > 2) else {
            return;
        };
        let c = cref as usize;
        self.stamp += 1;
        let lits = self.arena[c + 2..c + 2 + self.arena[c] as usize].iter();
        let lbd = levels(
            &self.level,
            &mut self.level_stamp,
            self.stamp,
            lits.map(|&l| Lit::from_code(l)),
        );
        if lbd + 1 < stored {
            self.set_glue(cref, lbd);
        }
    }

    /// The core of a solve under assumptions that found the assumption `failed` false: the
    /// assumptions its falsity follows from (the decisions among its implication's sources,
    /// every decision level being an assumption's), with `failed` itself.
    pub(super) fn analyze_final(&mut self, failed: Lit) {
        self.core.clear();
        self.core.push(failed);
        let Some(&start) = self.trail_lim.first() else {
            return;
        };
        self.seen[failed.var().index()] = 1;
        for i in (start..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var().index();
            if self.seen[v] == 0 {
                continue;
            }
            self.seen[v] = 0;
            let c = self.reason[v];
            if c == NO_REASON {
                self.core.push(l);
            } else {
                let c = c as usize;
                for k in 0..self.arena[c] as usize {
                    let q = self.lit_at(c + 2 + k).var().index();
                    if q != v && self.level[q] > 0 {
                        self.seen[q] = 1;
                    }
                }
            }
        }
        self.seen[failed.var().index()] = 0;
    }
}
