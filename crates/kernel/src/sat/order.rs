//! The branching order: VSIDS activities in a binary heap, the saved phase of each
//! variable, and a random decision now and then when the options ask for it.

use super::{Lit, Solver, UNDEF, Var};

impl Solver {
    /// Raises the activity of `v` (rescaling all of them when it gets too large).
    pub(super) fn bump(&mut self, v: Var) {
        let a = &mut self.activity[v.index()];
        *a += self.var_inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// Makes later bumps weigh more than earlier ones, after each conflict.
    pub(super) fn decay_activities(&mut self) {
        self.var_inc /= 0.95;
    }

    /// The next decision: an unassigned variable in its saved phase, or `None` when every
    /// variable is assigned.
    pub(super) fn decide(&mut self) -> Option<Lit> {
        let in_phase = |s: &Solver, v: Var| Lit::new(v, !s.phase[v.index()]);
        if self.opts.random_every > 0
            && self.rng.next_u64().is_multiple_of(self.opts.random_every)
            && self.n > 0
        {
            let v = Var((self.rng.next_u64() % self.n as u64) as u32);
            if self.value[v.index()] == UNDEF {
                return Some(in_phase(self, v));
            }
        }
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[v.index()] == UNDEF {
                return Some(in_phase(self, v));
            }
        }
        None
    }
}

/// A binary max-heap of variables keyed by activity.
#[derive(Debug)]
pub(super) struct Heap {
    heap: Vec<Var>,
    pos: Vec<u32>,
}

/// The position of a variable outside the heap.
const ABSENT: u32 = u32::MAX;

impl Heap {
    pub(super) fn new(n: usize) -> Heap {
        Heap { heap: Vec::with_capacity(n), pos: vec![ABSENT; n] }
    }

    /// Makes room for one more variable (outside the heap).
    pub(super) fn grow(&mut self) {
        self.pos.push(ABSENT);
    }

    pub(super) fn contains(&self, v: Var) -> bool {
        self.pos[v.index()] != ABSENT
    }

    pub(super) fn insert(&mut self, v: Var, act: &[f64]) {
        self.pos[v.index()] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, act);
    }

    pub(super) fn increased(&mut self, v: Var, act: &[f64]) {
        if let Some(&p) = self.pos.get(v.index())
            && p != ABSENT
        {
            self.up(p as usize, act);
        }
    }

    pub(super) fn pop(&mut self, act: &[f64]) -> Option<Var> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top.index()] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last.index()] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            let u = self.heap[p];
            if act[u.index()] >= act[v.index()] {
                break;
            }
            self.heap[i] = u;
            self.pos[u.index()] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.pos[v.index()] = i as u32;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c =
                if r < n && act[self.heap[r].index()] > act[self.heap[l].index()] { r } else { l };
            if act[self.heap[c].index()] <= act[v.index()] {
                break;
            }
            self.heap[i] = self.heap[c];
            self.pos[self.heap[i].index()] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.pos[v.index()] = i as u32;
    }
}
