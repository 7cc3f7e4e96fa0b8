//! The assignment of the sets at a node of β's branch-and-bound: each set free, in or out,
//! with the counts of covering and free sets per element, a trail to undo, and unit
//! propagation.

use crate::KernelError;
use crate::config::Budget;

use super::CoverInstance;

pub(super) const FREE: u8 = 0;
pub(super) const IN: u8 = 1;
pub(super) const OUT: u8 = 2;

/// The assignment of the sets with its trail and counters.
pub(super) struct Selection<'a> {
    pub(super) p: &'a CoverInstance,
    pub(super) st: Vec<u8>,
    /// IN sets containing each element.
    pub(super) covered: Vec<u32>,
    /// FREE sets containing each element.
    pub(super) free: Vec<u32>,
    pub(super) trail: Vec<u32>,
    pub(super) n_in: usize,
    pub(super) uncovered: usize,
    /// Elements that may have one free set left and no cover.
    pub(super) units: Vec<u32>,
}

impl<'a> Selection<'a> {
    pub(super) fn new(p: &'a CoverInstance) -> Selection<'a> {
        Selection {
            p,
            st: vec![FREE; p.sets.len()],
            covered: vec![0; p.elems.len()],
            free: p.elems.iter().map(|l| l.len() as u32).collect(),
            trail: Vec::new(),
            n_in: 0,
            uncovered: p.elems.len(),
            units: (0..p.elems.len() as u32).collect(),
        }
    }

    pub(super) fn set_in(&mut self, s: u32) {
        debug_assert_eq!(self.st[s as usize], FREE);
        self.st[s as usize] = IN;
        self.trail.push(s);
        self.n_in += 1;
        for &e in &self.p.sets[s as usize] {
            let e = e as usize;
            self.free[e] -= 1;
            if self.covered[e] == 0 {
                self.uncovered -= 1;
            }
            self.covered[e] += 1;
        }
    }

    pub(super) fn set_out(&mut self, s: u32) {
        debug_assert_eq!(self.st[s as usize], FREE);
        self.st[s as usize] = OUT;
        self.trail.push(s);
        for &e in &self.p.sets[s as usize] {
            self.free[e as usize] -= 1;
            if self.covered[e as usize] == 0 && self.free[e as usize] <= 1 {
                self.units.push(e);
            }
        }
    }

    /// Undoes the assignments from `mark` on; returns the work done.
    pub(super) fn undo(&mut self, mark: usize) -> u64 {
        let mut work = 0;
        while self.trail.len() > mark {
            let s = self.trail.pop().expect("longer than mark") as usize;
            work += 1 + self.p.sets[s].len() as u64;
            if self.st[s] == IN {
                self.n_in -= 1;
                for &e in &self.p.sets[s] {
                    let e = e as usize;
                    self.free[e] += 1;
                    self.covered[e] -= 1;
                    if self.covered[e] == 0 {
                        self.uncovered += 1;
                    }
                }
            } else {
                for &e in &self.p.sets[s] {
                    self.free[e as usize] += 1;
                }
            }
            self.st[s] = FREE;
        }
        self.units.clear();
        work
    }

    /// Takes the last free set of every uncovered element that has one; false when an
    /// uncovered element has none.
    pub(super) fn propagate(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
        while let Some(e) = self.units.pop() {
            let e = e as usize;
            if self.covered[e] > 0 {
                continue;
            }
            match self.free[e] {
                0 => {
                    self.units.clear();
                    return Ok(false);
                }
                1 => {
                    budget.spend(self.p.elems[e].len() as u64)?;
                    let s = *self.p.elems[e]
                        .iter()
                        .find(|&&s| self.st[s as usize] == FREE)
                        .expect("one free set");
                    self.set_in(s);
                }
                _ => {}
            }
        }
        Ok(true)
    }
}
