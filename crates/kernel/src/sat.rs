//! A conflict-driven clause-learning SAT solver: two watched literals with blockers, first-UIP
//! learning with recursive clause minimisation, VSIDS branching, phase saving, restarts on the
//! glue (LBD) averages and periodic deletion of learnt clauses of high glue.
//!
//! Literals are `2 · var + neg`. The solver reads the [`Budget`]: each conflict counts as a
//! search node, each propagated watch as an elementary step, so the deadline, the stop flag
//! and the node limit end a solve with the budget's error; a second stop flag lets a racing
//! thread end it too.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::KernelError;
use crate::config::Budget;

/// A literal: `2 · var + 1` is the negation of variable `var`.
pub(crate) type Lit = u32;

/// The positive literal of `var`.
#[inline]
pub(crate) fn pos(var: u32) -> Lit {
    2 * var
}

/// The negative literal of `var`.
#[inline]
pub(crate) fn neg(var: u32) -> Lit {
    2 * var + 1
}

const UNDEF: u8 = 2;
const NO_REASON: u32 = u32::MAX;

/// A watch: the clause (offset in the arena, with [`BINARY`] set for a clause of two
/// literals) and a literal of it that satisfies it if true (for a binary clause, the other
/// literal, so that propagating it never reads the arena).
#[derive(Debug, Clone, Copy)]
struct Watch {
    cref: u32,
    blocker: Lit,
}

/// The flag of a binary clause's watches.
const BINARY: u32 = 1 << 31;

impl Watch {
    fn new(cref: u32, len: usize, blocker: Lit) -> Watch {
        Watch { cref: if len == 2 { cref | BINARY } else { cref }, blocker }
    }
}

/// Tuning and diversity of one solver.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options {
    /// Seed of the random first ordering of the variables and of the random decisions.
    pub(crate) seed: u64,
    /// The phase a variable takes before it was ever assigned.
    pub(crate) initial_phase: bool,
    /// One decision in this many is a random variable (0: never).
    pub(crate) random_every: u64,
}

/// The CDCL solver.
#[derive(Debug)]
pub(crate) struct Solver {
    n: usize,
    /// Clause arena: `[len, learnt << 31 | lbd, lits...]` per clause.
    arena: Vec<u32>,
    /// Offsets of the learnt clauses.
    learnts: Vec<u32>,
    /// Per literal: the clauses watching its negation becoming true, i.e. watching `lit`
    /// becoming false.
    watches: Vec<Vec<Watch>>,
    /// Value of each variable: 0 false, 1 true, `UNDEF`.
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    phase: Vec<bool>,
    activity: Vec<f64>,
    var_inc: f64,
    heap: Heap,
    seen: Vec<u8>,
    /// False once a conflict at level 0 was derived.
    ok: bool,
    rng: u64,
    opts: Options,
    conflicts: u64,
    /// Glue averages for restarts.
    lbd_fast: f64,
    lbd_slow: f64,
    since_restart: u64,
    next_reduce: u64,
    reduce_round: u64,
    /// Scratch for clause minimisation.
    stack: Vec<Lit>,
    to_clear: Vec<u32>,
    level_stamp: Vec<u64>,
    stamp: u64,
}

impl Solver {
    /// A solver over `n` variables and no clauses.
    pub(crate) fn new(n: usize, opts: Options) -> Solver {
        let mut heap = Heap::new(n);
        let mut rng = opts.seed ^ 0x2545_f491_4f6c_dd1d;
        let activity = vec![0.0; n];
        let mut order: Vec<u32> = (0..n as u32).collect();
        if opts.seed != 0 {
            for i in (1..n).rev() {
                let j = (splitmix(&mut rng) % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
        }
        for &v in &order {
            heap.insert(v, &activity);
        }
        Solver {
            n,
            arena: Vec::new(),
            learnts: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            value: vec![UNDEF; n],
            level: vec![0; n],
            reason: vec![NO_REASON; n],
            trail: Vec::with_capacity(n),
            trail_lim: Vec::new(),
            qhead: 0,
            phase: vec![opts.initial_phase; n],
            activity,
            var_inc: 1.0,
            heap,
            seen: vec![0; n],
            ok: true,
            rng,
            opts,
            conflicts: 0,
            lbd_fast: 0.0,
            lbd_slow: 0.0,
            since_restart: 0,
            next_reduce: 2000,
            reduce_round: 0,
            stack: Vec::new(),
            to_clear: Vec::new(),
            level_stamp: vec![0; n + 1],
            stamp: 0,
        }
    }

    /// The number of variables.
    #[cfg(test)]
    pub(crate) fn num_vars(&self) -> usize {
        self.n
    }

    #[inline]
    fn lit_value(&self, l: Lit) -> u8 {
        let v = self.value[(l >> 1) as usize];
        if v == UNDEF { UNDEF } else { v ^ (l & 1) as u8 }
    }

    /// The value of `var` in the model after [`Solver::solve`] returned `Ok(true)`.
    pub(crate) fn model_value(&self, var: u32) -> bool {
        self.value[var as usize] == 1
    }

    /// Adds a clause at level 0 (before solving); returns false when the clauses are now
    /// known unsatisfiable.
    pub(crate) fn add_clause(&mut self, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        debug_assert!(self.trail_lim.is_empty());
        let mut c: Vec<Lit> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        let mut out = Vec::with_capacity(c.len());
        for (i, &l) in c.iter().enumerate() {
            debug_assert!(((l >> 1) as usize) < self.n);
            if i + 1 < c.len() && c[i + 1] == l ^ 1 {
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

    fn attach(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let cref = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena.push((u32::from(learnt) << 31) | lbd.min(1 << 30));
        self.arena.extend_from_slice(lits);
        let len = lits.len();
        self.watches[(lits[0] ^ 1) as usize].push(Watch::new(cref, len, lits[1]));
        self.watches[(lits[1] ^ 1) as usize].push(Watch::new(cref, len, lits[0]));
        if learnt {
            self.learnts.push(cref);
        }
        cref
    }

    #[inline]
    fn enqueue(&mut self, l: Lit, reason: u32) {
        let v = (l >> 1) as usize;
        self.value[v] = 1 ^ (l & 1) as u8;
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Propagation without a budget (for clauses added at level 0).
    fn propagate_plain(&mut self) -> Option<u32> {
        let mut work = 0;
        self.propagate(&mut work)
    }

    /// Unit propagation; returns the conflicting clause. Adds the watches visited to `work`.
    fn propagate(&mut self, work: &mut u64) -> Option<u32> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            // Clauses watching ¬p: `p` true makes their literal `p ^ 1` false.
            let mut ws = std::mem::take(&mut self.watches[p as usize]);
            *work += ws.len() as u64 + 1;
            let false_lit = p ^ 1;
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
                        if self.arena[c] != w.blocker {
                            self.arena.swap(c, c + 1);
                        }
                        self.enqueue(w.blocker, cref);
                    }
                    continue;
                }
                let c = w.cref as usize;
                let len = self.arena[c] as usize;
                let lits = c + 2;
                if self.arena[lits] == false_lit {
                    self.arena.swap(lits, lits + 1);
                }
                let first = self.arena[lits];
                let w2 = Watch { cref: w.cref, blocker: first };
                if first != w.blocker && self.lit_value(first) == 1 {
                    ws[j] = w2;
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..len {
                    let l = self.arena[lits + k];
                    if self.lit_value(l) != 0 {
                        self.arena[lits + 1] = l;
                        self.arena[lits + k] = false_lit;
                        self.watches[(l ^ 1) as usize].push(w2);
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
            self.watches[p as usize] = ws;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    fn bump(&mut self, v: u32) {
        let a = &mut self.activity[v as usize];
        *a += self.var_inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// First-UIP analysis of `confl`; returns the learnt clause (asserting literal first),
    /// the backjump level and the glue.
    fn analyze(&mut self, mut confl: u32) -> (Vec<Lit>, u32, u32) {
        let mut learnt: Vec<Lit> = vec![0];
        let mut path = 0;
        let mut p: Option<Lit> = None;
        let mut index = self.trail.len();
        let cur = self.trail_lim.len() as u32;
        loop {
            let c = confl as usize;
            let len = self.arena[c] as usize;
            let start = usize::from(p.is_some());
            for k in start..len {
                let q = self.arena[c + 2 + k];
                let v = (q >> 1) as usize;
                if self.seen[v] == 0 && self.level[v] > 0 {
                    self.seen[v] = 1;
                    self.bump(v as u32);
                    if self.level[v] >= cur {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            loop {
                index -= 1;
                if self.seen[(self.trail[index] >> 1) as usize] != 0 {
                    break;
                }
            }
            let lit = self.trail[index];
            p = Some(lit);
            confl = self.reason[(lit >> 1) as usize];
            self.seen[(lit >> 1) as usize] = 0;
            path -= 1;
            if path == 0 {
                break;
            }
            // The reason's first literal is the implied one: make sure of it.
            let c = confl as usize;
            if self.arena[c + 2] != lit {
                let len = self.arena[c] as usize;
                for k in 1..len {
                    if self.arena[c + 2 + k] == lit {
                        self.arena.swap(c + 2, c + 2 + k);
                        break;
                    }
                }
            }
        }
        learnt[0] = p.expect("a conflict has a UIP") ^ 1;
        // Recursive minimisation.
        self.stamp += 1;
        for &l in &learnt[1..] {
            self.level_stamp[self.level[(l >> 1) as usize] as usize] = self.stamp;
        }
        self.to_clear.clear();
        for &l in &learnt[1..] {
            self.to_clear.push(l >> 1);
        }
        let mut keep = vec![learnt[0]];
        for &l in &learnt[1..] {
            if self.reason[(l >> 1) as usize] == NO_REASON || !self.redundant(l) {
                keep.push(l);
            }
        }
        for &v in &self.to_clear {
            self.seen[v as usize] = 0;
        }
        let learnt = keep;
        // Backjump level: the highest level among the rest, moved to position 1.
        let mut learnt = learnt;
        let mut bt = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[(learnt[k] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = k;
                }
            }
            learnt.swap(1, best);
            bt = self.level[(learnt[1] >> 1) as usize];
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &l in &learnt {
            let lv = self.level[(l >> 1) as usize] as usize;
            if self.level_stamp[lv] != self.stamp {
                self.level_stamp[lv] = self.stamp;
                lbd += 1;
            }
        }
        (learnt, bt, lbd)
    }

    /// Whether `l` (false, in the learnt clause) is implied by the other literals of the
    /// clause (MiniSat's `litRedundant`).
    fn redundant(&mut self, l: Lit) -> bool {
        self.stack.clear();
        self.stack.push(l);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let c = self.reason[(q >> 1) as usize] as usize;
            let len = self.arena[c] as usize;
            for k in 1..len {
                let r = self.arena[c + 2 + k];
                let v = (r >> 1) as usize;
                if self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NO_REASON
                    && self.level_stamp[self.level[v] as usize] == self.stamp
                {
                    self.seen[v] = 1;
                    self.stack.push(r);
                    self.to_clear.push(v as u32);
                } else {
                    for &u in &self.to_clear[top..] {
                        self.seen[u as usize] = 0;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    fn backtrack(&mut self, level: u32) {
        if self.trail_lim.len() as u32 <= level {
            return;
        }
        let lim = self.trail_lim[level as usize];
        for i in (lim..self.trail.len()).rev() {
            let v = self.trail[i] >> 1;
            self.phase[v as usize] = self.value[v as usize] == 1;
            self.value[v as usize] = UNDEF;
            self.reason[v as usize] = NO_REASON;
            if !self.heap.contains(v) {
                self.heap.insert(v, &self.activity);
            }
        }
        self.trail.truncate(lim);
        self.trail_lim.truncate(level as usize);
        self.qhead = lim;
    }

    fn decide(&mut self) -> Option<Lit> {
        if self.opts.random_every > 0
            && splitmix(&mut self.rng).is_multiple_of(self.opts.random_every)
            && self.n > 0
        {
            let v = (splitmix(&mut self.rng) % self.n as u64) as u32;
            if self.value[v as usize] == UNDEF {
                return Some(if self.phase[v as usize] { pos(v) } else { neg(v) });
            }
        }
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[v as usize] == UNDEF {
                return Some(if self.phase[v as usize] { pos(v) } else { neg(v) });
            }
        }
        None
    }

    fn is_locked(&self, cref: u32) -> bool {
        let first = self.arena[cref as usize + 2];
        let v = (first >> 1) as usize;
        self.reason[v] == cref && self.lit_value(first) == 1
    }

    /// Deletes about half of the learnt clauses of glue above 2 (the highest glue first),
    /// then compacts the arena and rebuilds the watches.
    fn reduce_db(&mut self) {
        let mut cands: Vec<(u32, u32)> = self
            .learnts
            .iter()
            .map(|&c| (self.arena[c as usize + 1] & !(1 << 31), c))
            .filter(|&(lbd, c)| lbd > 2 && !self.is_locked(c))
            .collect();
        cands.sort_unstable_by(|a, b| b.cmp(a));
        let drop: std::collections::HashSet<u32> =
            cands[..cands.len() / 2].iter().map(|&(_, c)| c).collect();
        // Compact.
        let mut arena = Vec::with_capacity(self.arena.len());
        let mut remap = std::collections::HashMap::new();
        let mut learnts = Vec::new();
        let mut c = 0usize;
        while c < self.arena.len() {
            let len = self.arena[c] as usize;
            let old = c as u32;
            if !drop.contains(&old) {
                let new = arena.len() as u32;
                remap.insert(old, new);
                arena.extend_from_slice(&self.arena[c..c + 2 + len]);
                if self.arena[c + 1] >> 31 == 1 {
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
        for w in &mut self.watches {
            w.clear();
        }
        let mut c = 0usize;
        while c < self.arena.len() {
            let len = self.arena[c] as usize;
            let (a, b) = (self.arena[c + 2], self.arena[c + 3]);
            self.watches[(a ^ 1) as usize].push(Watch::new(c as u32, len, b));
            self.watches[(b ^ 1) as usize].push(Watch::new(c as u32, len, a));
            c += 2 + len;
        }
    }

    /// Solves: `Ok(true)` with a model ([`Solver::model_value`]), `Ok(false)` when the
    /// clauses are unsatisfiable. Gives the budget's error when it runs out, and
    /// `TimeLimit` when `stop` is set. After [`KernelError::NodeLimit`] a call with a larger
    /// budget carries on where the last one stopped.
    pub(crate) fn solve(
        &mut self,
        budget: &mut Budget,
        stop: Option<&AtomicBool>,
    ) -> Result<bool, KernelError> {
        if !self.ok {
            return Ok(false);
        }
        let mut work = 0u64;
        loop {
            let confl = self.propagate(&mut work);
            if work > 4096 {
                budget.spend(work)?;
                work = 0;
                if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Err(KernelError::TimeLimit { nodes: budget.nodes });
                }
            }
            if let Some(confl) = confl {
                self.conflicts += 1;
                if self.trail_lim.is_empty() {
                    self.ok = false;
                    return Ok(false);
                }
                let (learnt, bt, lbd) = self.analyze(confl);
                self.backtrack(bt);
                if learnt.len() == 1 {
                    self.enqueue(learnt[0], NO_REASON);
                } else {
                    let cref = self.attach(&learnt, true, lbd);
                    self.enqueue(learnt[0], cref);
                }
                self.var_inc /= 0.95;
                let g = f64::from(lbd);
                self.lbd_fast += (g - self.lbd_fast) / 32.0;
                self.lbd_slow += (g - self.lbd_slow) / 1e4_f64.min(self.conflicts as f64);
                self.since_restart += 1;
                // Counted once the clause is learnt: a solve stopped by the node limit here
                // resumes from a consistent state when called again.
                budget.tick(0)?;
            } else {
                if self.since_restart >= 50 && self.lbd_fast > 1.25 * self.lbd_slow {
                    self.since_restart = 0;
                    self.backtrack(0);
                    continue;
                }
                if self.conflicts >= self.next_reduce {
                    self.reduce_round += 1;
                    self.next_reduce = self.conflicts + 2000 + 300 * self.reduce_round;
                    self.reduce_db();
                }
                match self.decide() {
                    None => return Ok(true),
                    Some(l) => {
                        self.trail_lim.push(self.trail.len());
                        self.enqueue(l, NO_REASON);
                    }
                }
            }
        }
    }
}

fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A binary max-heap of variables keyed by activity.
#[derive(Debug)]
struct Heap {
    heap: Vec<u32>,
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Heap {
    fn new(n: usize) -> Heap {
        Heap { heap: Vec::with_capacity(n), pos: vec![ABSENT; n] }
    }

    fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != ABSENT
    }

    fn insert(&mut self, v: u32, act: &[f64]) {
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, act);
    }

    fn increased(&mut self, v: u32, act: &[f64]) {
        if let Some(&p) = self.pos.get(v as usize)
            && p != ABSENT
        {
            self.up(p as usize, act);
        }
    }

    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            let u = self.heap[p];
            if act[u as usize] >= act[v as usize] {
                break;
            }
            self.heap[i] = u;
            self.pos[u as usize] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
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
            let c = if r < n && act[self.heap[r] as usize] > act[self.heap[l] as usize] {
                r
            } else {
                l
            };
            if act[self.heap[c] as usize] <= act[v as usize] {
                break;
            }
            self.heap[i] = self.heap[c];
            self.pos[self.heap[i] as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::SplitMix64;
    use proptest::prelude::*;
    use proptest::test_runner::FileFailurePersistence;

    fn random_cnf(rng: &mut SplitMix64, n: usize, m: usize, k: usize) -> Vec<Vec<Lit>> {
        (0..m)
            .map(|_| {
                let len = 1 + rng.below(k as u64) as usize;
                (0..len).map(|_| 2 * rng.below(n as u64) as u32 + rng.below(2) as u32).collect()
            })
            .collect()
    }

    fn satisfies(cnf: &[Vec<Lit>], model: &[bool]) -> bool {
        cnf.iter().all(|c| c.iter().any(|&l| model[(l >> 1) as usize] == (l & 1 == 0)))
    }

    fn brute(cnf: &[Vec<Lit>], n: usize) -> bool {
        (0..1u32 << n).any(|m| {
            let model: Vec<bool> = (0..n).map(|v| m >> v & 1 == 1).collect();
            satisfies(cnf, &model)
        })
    }

    fn solve(cnf: &[Vec<Lit>], n: usize, opts: Options) -> Option<Vec<bool>> {
        let mut s = Solver::new(n, opts);
        for c in cnf {
            s.add_clause(c);
        }
        let mut b = Budget::new(&Config::default());
        s.solve(&mut b, None).unwrap().then(|| (0..n as u32).map(|v| s.model_value(v)).collect())
    }

    #[test]
    fn agrees_with_brute_force_on_random_small_cnfs() {
        let mut rng = SplitMix64::new(99);
        let (mut sat, mut unsat) = (0, 0);
        for round in 0..3000 {
            let n = 1 + round % 12;
            let m = rng.below(6 * n as u64 + 2) as usize;
            let cnf = random_cnf(&mut rng, n, m, 4);
            let truth = brute(&cnf, n);
            let opts = Options {
                seed: round as u64 % 3,
                initial_phase: round % 2 == 0,
                random_every: if round % 5 == 0 { 3 } else { 0 },
            };
            match solve(&cnf, n, opts) {
                Some(model) => {
                    assert!(truth, "model found for an unsatisfiable formula");
                    assert!(satisfies(&cnf, &model), "the model breaks a clause");
                    sat += 1;
                }
                None => {
                    assert!(!truth, "satisfiable formula declared unsatisfiable: {cnf:?}");
                    unsat += 1;
                }
            }
        }
        assert!(sat > 500 && unsat > 500, "{sat} satisfiable, {unsat} not");
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 512,
            failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
            ..ProptestConfig::default()
        })]

        /// Random CNFs of up to 10 variables and clauses of 1 to 4 literals: a model is
        /// returned exactly when one exists, and it satisfies every clause.
        #[test]
        fn agrees_with_brute_force_on_random_cnfs(
            n in 1usize..=10,
            raw in prop::collection::vec(prop::collection::vec((0u32..10, any::<bool>()), 1..=4), 0..=48),
            seed in 0u64..4,
            initial_phase: bool,
            random_every in 0u64..4,
        ) {
            let cnf: Vec<Vec<Lit>> = raw
                .iter()
                .map(|c| c.iter().map(|&(v, negated)| 2 * (v % n as u32) + u32::from(negated)).collect())
                .collect();
            let truth = brute(&cnf, n);
            match solve(&cnf, n, Options { seed, initial_phase, random_every }) {
                Some(model) => {
                    prop_assert!(truth, "model found for an unsatisfiable formula");
                    prop_assert!(satisfies(&cnf, &model), "the model breaks a clause");
                }
                None => prop_assert!(!truth, "satisfiable formula declared unsatisfiable"),
            }
        }
    }

    /// Pigeonhole formulas: n + 1 pigeons into n holes is unsatisfiable, n into n is not;
    /// these need many conflicts, so learning, restarts and deletion all run.
    #[test]
    fn pigeonhole_formulas_are_decided() {
        for holes in 2..=7usize {
            for pigeons in [holes, holes + 1] {
                let var = |p: usize, h: usize| (p * holes + h) as u32;
                let mut cnf: Vec<Vec<Lit>> =
                    (0..pigeons).map(|p| (0..holes).map(|h| pos(var(p, h))).collect()).collect();
                for h in 0..holes {
                    for p in 0..pigeons {
                        for q in p + 1..pigeons {
                            cnf.push(vec![neg(var(p, h)), neg(var(q, h))]);
                        }
                    }
                }
                let got = solve(&cnf, pigeons * holes, Options::default());
                assert_eq!(got.is_some(), pigeons == holes);
                if let Some(m) = got {
                    assert!(satisfies(&cnf, &m));
                }
            }
        }
    }

    /// Random 3-SAT near the threshold, with 60 variables: the unsatisfiable answers are
    /// cross-checked by a second solver with another seed and phase.
    #[test]
    fn random_three_sat_answers_agree_across_seeds() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..40 {
            let n = 60;
            let cnf: Vec<Vec<Lit>> = (0..256)
                .map(|_| {
                    (0..3).map(|_| 2 * rng.below(n as u64) as u32 + rng.below(2) as u32).collect()
                })
                .collect();
            let a = solve(&cnf, n, Options::default());
            let b = solve(&cnf, n, Options { seed: 7, initial_phase: true, random_every: 50 });
            assert_eq!(a.is_some(), b.is_some());
            for m in a.iter().chain(b.iter()) {
                assert!(satisfies(&cnf, m));
            }
        }
    }

    #[test]
    fn the_budget_and_the_stop_flag_end_a_solve() {
        let holes = 9;
        let pigeons = 10;
        let var = |p: usize, h: usize| (p * holes + h) as u32;
        let mut s = Solver::new(pigeons * holes, Options::default());
        for p in 0..pigeons {
            s.add_clause(&(0..holes).map(|h| pos(var(p, h))).collect::<Vec<_>>());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    s.add_clause(&[neg(var(p, h)), neg(var(q, h))]);
                }
            }
        }
        let cfg = Config { max_nodes: Some(100), ..Config::default() };
        let mut b = Budget::new(&cfg);
        assert_eq!(s.solve(&mut b, None), Err(KernelError::NodeLimit { nodes: 100 }));
        let stop = AtomicBool::new(true);
        let mut b = Budget::new(&Config::default());
        assert!(matches!(s.solve(&mut b, Some(&stop)), Err(KernelError::TimeLimit { .. })));
        assert_eq!(s.num_vars(), 90);
    }
}
