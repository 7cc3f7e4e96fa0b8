//! Assignment, unit propagation over the two watched literals, and backtracking.

use super::clauses::{BINARY, Watch};
use super::{Lit, NO_REASON, Solver, UNDEF};

impl Solver {
    /// The value of `l`: 0 false, 1 true, `UNDEF`.
    #[inline]
    pub(super) fn lit_value(&self, l: Lit) -> u8 {
        let v = self.value[l.var().index()];
        if v == UNDEF { UNDEF } else { v ^ u8::from(l.is_neg()) }
    }

    /// Makes `l` true at the current level, implied by the clause `reason` (or a decision).
    #[inline]
    pub(super) fn enqueue(&mut self, l: Lit, reason: u32) {
        let v = l.var().index();
        self.value[v] = 1 ^ u8::from(l.is_neg());
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Propagation without a budget (for clauses added at level 0).
    pub(super) fn propagate_plain(&mut self) -> Option<u32> {
        let mut work = 0;
        self.propagate(&mut work)
    }

    /// The literals unit propagation makes true once `l` is assumed, `l` first (none when
    /// `l` already holds at level 0), or `None` when that contradicts the clauses; the
    /// solver is left at level 0.
    pub(crate) fn implied(&mut self, l: Lit) -> Option<Vec<Lit>> {
        self.backtrack(0);
        match self.lit_value(l) {
            _ if !self.ok => return None,
            1 => return Some(Vec::new()),
            0 => return None,
            _ => {}
        }
        let start = self.trail.len();
        self.trail_lim.push(start);
        self.enqueue(l, NO_REASON);
        let implied = self.propagate_plain().is_none().then(|| self.trail[start..].to_vec());
        // A look ahead, not a search: the saved phases stay as they were.
        self.undo(0, false);
        implied
    }

    /// Unit propagation; returns the conflicting clause. Adds the watches visited to `work`.
    pub(super) fn propagate(&mut self, work: &mut u64) -> Option<u32> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            // Clauses watching ¬p: `p` true makes their literal `¬p` false.
            let mut ws = std::mem::take(&mut self.watches[p.index()]);
            *work += ws.len() as u64 + 1;
            let conflict = self.visit_watches(&mut ws, !p);
            self.watches[p.index()] = ws;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    /// Visits the watches `ws` of the clauses in which `false_lit` has just become false:
    /// a clause satisfied by its blocker is skipped, one with another literal not false
    /// watches that literal instead, one left with a single literal not false implies it;
    /// returns the clause all of whose literals are false, if any. `ws` keeps the watches
    /// that stay.
    fn visit_watches(&mut self, ws: &mut Vec<Watch>, false_lit: Lit) -> Option<u32> {
        let mut i = 0;
        let mut j = 0;
        let mut conflict = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            let other = self.lit_value(w.blocker);
            if other == 1 {
                ws[j] = w;
                j += 1;
                continue;
            }
            if w.cref & BINARY != 0 {
                ws[j] = w;
                j += 1;
                let cref = w.cref & !BINARY;
                if other == 0 {
                    conflict = Some(cref);
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    // The implied literal first, as the analysis expects of a reason.
                    let c = cref as usize + 2;
                    if self.lit_at(c) != w.blocker {
                        self.arena.swap(c, c + 1);
                    }
                    self.enqueue(w.blocker, cref);
                }
                continue;
            }
            let c = w.cref as usize;
            let len = self.arena[c] as usize;
            let lits = c + 2;
            if self.lit_at(lits) == false_lit {
                self.arena.swap(lits, lits + 1);
            }
            let first = self.lit_at(lits);
            let w2 = Watch { cref: w.cref, blocker: first };
            if first != w.blocker && self.lit_value(first) == 1 {
                ws[j] = w2;
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in 2..len {
                let l = self.lit_at(lits + k);
                if self.lit_value(l) != 0 {
                    self.arena[lits + 1] = l.code();
                    self.arena[lits + k] = false_lit.code();
                    self.watches[(!l).index()].push(w2);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            ws[j] = w2;
            j += 1;
            if self.lit_value(first) == 0 {
                conflict = Some(w.cref);
                while i < ws.len() {
                    ws[j] = ws[i];
                    j += 1;
                    i += 1;
                }
            } else {
                self.enqueue(first, w.cref);
            }
        }
        ws.truncate(j);
        conflict
    }

    /// Undoes the assignments above `level`, saving their phases and putting their
    /// variables back into the branching order.
    pub(super) fn backtrack(&mut self, level: u32) {
        self.undo(level, true);
    }

    /// [`Solver::backtrack`], saving the phases only when `save_phases`.
    fn undo(&mut self, level: u32, save_phases: bool) {
        if self.trail_lim.len() as u32 <= level {
            return;
        }
        let lim = self.trail_lim[level as usize];
        for i in (lim..self.trail.len()).rev() {
            let v = self.trail[i].var();
            if save_phases {
                self.phase[v.index()] = self.value[v.index()] == 1;
            }
            self.value[v.index()] = UNDEF;
            self.reason[v.index()] = NO_REASON;
            if !self.heap.contains(v) {
                self.heap.insert(v, &self.activity);
            }
        }
        self.trail.truncate(lim);
        self.trail_lim.truncate(level as usize);
        self.qhead = lim;
    }
}
