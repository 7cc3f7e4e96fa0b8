//! β's branch-and-bound on one connected part of the set cover left by the reductions:
//! Lagrangian bounds by subgradient optimisation, reduced-cost fixing, unit propagation and
//! a Lagrangian greedy incumbent.
//!
//! The problem: elements `0..E`, sets `0..S` (each a list of elements); find fewest sets
//! whose union is every element. For multipliers λ ≥ 0 on the uncovered elements, the
//! reduced cost of a free set s is `c(s) = 1 - Σ λ(e)` over its uncovered elements, and
//! `L(λ) = Σ λ(e) + Σ min(0, c(s))` is a lower bound on the sets still needed (the
//! Lagrangian relaxation of the covering rows; its maximum is the linear-programming bound).
//! A cover that takes a free set s with `c(s) ≥ 0` needs at least `L + c(s)` more sets, one
//! that leaves out a set with `c(s) < 0` at least `L - c(s)`: sets are fixed in or out when
//! that exceeds what an improvement on the incumbent may use.

use crate::KernelError;
use crate::config::{Budget, Cap};
use crate::cover_ls::Shared;
use std::sync::Arc;
use std::sync::atomic::Ordering;

const FREE: u8 = 0;
const IN: u8 = 1;
const OUT: u8 = 2;

/// Slack for floating-point bounds: a bound is used as `ceil(L - EPS)`.
const EPS: f64 = 1e-6;

/// A set cover instance.
#[derive(Debug, Clone)]
pub(crate) struct CoverInstance {
    /// The elements of each set (sorted, no repeats).
    pub(crate) sets: Vec<Vec<u32>>,
    /// The sets containing each element.
    pub(crate) elems: Vec<Vec<u32>>,
}

impl CoverInstance {
    /// The instance of the given sets over `n_elems` elements.
    pub(crate) fn new(sets: Vec<Vec<u32>>, n_elems: usize) -> CoverInstance {
        let mut elems = vec![Vec::new(); n_elems];
        for (s, list) in sets.iter().enumerate() {
            for &e in list {
                elems[e as usize].push(s as u32);
            }
        }
        CoverInstance { sets, elems }
    }
}

/// What the search returns.
#[derive(Debug, Clone)]
pub(crate) struct CoverFound {
    /// The sets of the best cover found, increasing.
    pub(crate) chosen: Vec<u32>,
    /// Whether it is proven minimum.
    pub(crate) exact: bool,
    /// A proven lower bound on the minimum.
    pub(crate) bound: usize,
}

/// The assignment of the sets with its trail and counters.
struct State<'a> {
    p: &'a CoverInstance,
    st: Vec<u8>,
    /// IN sets containing each element.
    covered: Vec<u32>,
    /// FREE sets containing each element.
    free: Vec<u32>,
    trail: Vec<u32>,
    n_in: usize,
    uncovered: usize,
    /// Elements that may have one free set left and no cover.
    units: Vec<u32>,
}

impl<'a> State<'a> {
    fn new(p: &'a CoverInstance) -> State<'a> {
        State {
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

    fn set_in(&mut self, s: u32) {
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

    fn set_out(&mut self, s: u32) {
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
    fn undo(&mut self, mark: usize) -> u64 {
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
    fn propagate(&mut self, budget: &mut Budget) -> Result<bool, KernelError> {
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

/// The multipliers and the buffers of the subgradient optimisation.
struct Lagrange {
    lam: Vec<f64>,
    best_lam: Vec<f64>,
    /// Reduced costs of the free sets at `best_lam`.
    cost: Vec<f64>,
    grad: Vec<f64>,
    /// The uncovered elements and the free sets of the current node.
    elems: Vec<u32>,
    sets: Vec<u32>,
}

impl Lagrange {
    fn new(p: &CoverInstance) -> Lagrange {
        // Start: each element priced at the best ratio 1 / |set| over its sets.
        let lam: Vec<f64> = p
            .elems
            .iter()
            .map(|l| l.iter().map(|&s| 1.0 / p.sets[s as usize].len() as f64).fold(0.0, f64::max))
            .collect();
        Lagrange {
            best_lam: lam.clone(),
            lam,
            cost: vec![0.0; p.sets.len()],
            grad: vec![0.0; p.elems.len()],
            elems: Vec::new(),
            sets: Vec::new(),
        }
    }

    /// `L(λ)` at `self.lam`, with the reduced costs in `self.cost`.
    fn evaluate(&mut self, s: &State<'_>) -> f64 {
        let mut l = 0.0;
        for &e in &self.elems {
            l += self.lam[e as usize];
        }
        for &t in &self.sets {
            let mut c = 1.0;
            for &e in &s.p.sets[t as usize] {
                if s.covered[e as usize] == 0 {
                    c -= self.lam[e as usize];
                }
            }
            self.cost[t as usize] = c;
            if c < 0.0 {
                l += c;
            }
        }
        l
    }

    /// Maximises `L` by subgradient steps towards `target` (the sets an improvement may
    /// still use, plus one); stops early once the bound reaches `target`. Leaves the best
    /// multipliers in `lam` and their reduced costs in `cost`; returns the best bound.
    fn optimise(
        &mut self,
        s: &State<'_>,
        target: f64,
        (iters, mut mu, patience, mu_min): Params,
        heur: &mut Option<&mut Heur>,
        budget: &mut Budget,
    ) -> Result<f64, KernelError> {
        let mut target = target;
        self.elems.clear();
        self.sets.clear();
        for e in 0..s.covered.len() {
            if s.covered[e] == 0 {
                self.elems.push(e as u32);
            }
        }
        for t in 0..s.st.len() {
            if s.st[t] == FREE && s.p.sets[t].iter().any(|&e| s.covered[e as usize] == 0) {
                self.sets.push(t as u32);
            }
        }
        let work: u64 = (self.elems.len()
            + self.sets.iter().map(|&t| s.p.sets[t as usize].len()).sum::<usize>())
            as u64;
        budget.spend(work + s.st.len() as u64)?;
        let mut best = f64::NEG_INFINITY;
        let mut since = 0;
        for it in 0..iters {
            budget.spend(2 * work)?;
            let l = self.evaluate(s);
            if let Some(h) = heur
                && it % HEUR_EVERY == HEUR_EVERY - 1
            {
                // A Lagrangian incumbent at these multipliers; a better one lowers the target.
                h.run(s, &self.cost, budget)?;
                target = target.min((h.best.len() - s.n_in) as f64);
            }
            if l > best + 1e-9 {
                best = l;
                since = 0;
                for &e in &self.elems {
                    self.best_lam[e as usize] = self.lam[e as usize];
                }
            } else {
                since += 1;
                if since >= patience {
                    mu /= 2.0;
                    since = 0;
                    if mu < mu_min {
                        break;
                    }
                }
            }
            if best > target - 1.0 + EPS {
                break;
            }
            for &e in &self.elems {
                self.grad[e as usize] = 1.0;
            }
            for &t in &self.sets {
                if self.cost[t as usize] < 0.0 {
                    for &e in &s.p.sets[t as usize] {
                        if s.covered[e as usize] == 0 {
                            self.grad[e as usize] -= 1.0;
                        }
                    }
                }
            }
            let mut norm = 0.0;
            for &e in &self.elems {
                let e = e as usize;
                if self.lam[e] <= 0.0 && self.grad[e] < 0.0 {
                    self.grad[e] = 0.0;
                }
                norm += self.grad[e] * self.grad[e];
            }
            if norm == 0.0 {
                break; // the relaxed solution is a cover with complementary slackness
            }
            // Polyak's step towards the target, or towards a little above the best bound
            // when the target is far (a poor incumbent).
            let aim = target.min(best + (AIM * best.abs()).max(1.0));
            let step = mu * (aim - l).max(0.05) / norm;
            for &e in &self.elems {
                let e = e as usize;
                self.lam[e] = (self.lam[e] + step * self.grad[e]).max(0.0);
            }
        }
        for &e in &self.elems {
            self.lam[e as usize] = self.best_lam[e as usize];
        }
        let l = self.evaluate(s);
        Ok(l.max(best.min(l)))
    }
}

/// The incumbent and the buffers of the greedy heuristic.
struct Heur {
    best: Vec<u32>,
    gain: Vec<u32>,
    mark: Vec<bool>,
}

impl Heur {
    /// A cover from the current node: the IN sets, then greedily the free set covering
    /// most uncovered elements (ties: lowest reduced cost, then lowest id), then redundant
    /// sets dropped (highest reduced cost first). Returns it when smaller than the best.
    fn run(
        &mut self,
        st: &State<'_>,
        cost: &[f64],
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let p = st.p;
        let mut chosen: Vec<u32> =
            (0..p.sets.len() as u32).filter(|&t| st.st[t as usize] == IN).collect();
        self.mark.clear();
        self.mark.resize(p.elems.len(), false);
        let mut left = 0usize;
        for e in 0..p.elems.len() {
            if st.covered[e] > 0 {
                self.mark[e] = true;
            } else {
                left += 1;
            }
        }
        self.gain.clear();
        self.gain.resize(p.sets.len(), 0);
        // First the sets of the relaxed solution (negative reduced cost).
        for (t, &c) in cost.iter().enumerate() {
            if st.st[t] == FREE && c < 0.0 {
                chosen.push(t as u32);
                for &e in &p.sets[t] {
                    if !self.mark[e as usize] {
                        self.mark[e as usize] = true;
                        left -= 1;
                    }
                }
            }
        }
        let mut heap = std::collections::BinaryHeap::new();
        for (t, &c) in cost.iter().enumerate() {
            if st.st[t] != FREE || c < 0.0 {
                continue;
            }
            let g = p.sets[t].iter().filter(|&&e| !self.mark[e as usize]).count() as u32;
            self.gain[t] = g;
            if g > 0 {
                heap.push((g, Key(-cost[t]), std::cmp::Reverse(t as u32)));
            }
        }
        budget.spend((p.sets.len() + p.elems.len()) as u64)?;
        while left > 0 {
            let Some((g, _, std::cmp::Reverse(t))) = heap.pop() else { return Ok(()) };
            let t = t as usize;
            if g != self.gain[t] {
                if self.gain[t] > 0 {
                    heap.push((self.gain[t], Key(-cost[t]), std::cmp::Reverse(t as u32)));
                }
                continue;
            }
            chosen.push(t as u32);
            budget.spend(p.sets[t].len() as u64)?;
            for &e in &p.sets[t] {
                if !self.mark[e as usize] {
                    self.mark[e as usize] = true;
                    left -= 1;
                    for &u in &p.elems[e as usize] {
                        // Sets outside the heap keep a gain of 0.
                        self.gain[u as usize] = self.gain[u as usize].saturating_sub(1);
                    }
                }
            }
            self.gain[t] = 0;
        }
        self.offer(p, chosen, cost, budget)
    }

    /// Drops redundant sets from the cover `chosen` (highest reduced cost first), improves
    /// it by local search and keeps it when smaller than the best.
    fn offer(
        &mut self,
        p: &CoverInstance,
        mut chosen: Vec<u32>,
        cost: &[f64],
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let mut count = vec![0u32; p.elems.len()];
        for &t in &chosen {
            for &e in &p.sets[t as usize] {
                count[e as usize] += 1;
            }
        }
        chosen.sort_by(|&a, &b| cost[b as usize].total_cmp(&cost[a as usize]).then(b.cmp(&a)));
        let mut kept = Vec::with_capacity(chosen.len());
        for t in chosen {
            if p.sets[t as usize].iter().all(|&e| count[e as usize] > 1) {
                for &e in &p.sets[t as usize] {
                    count[e as usize] -= 1;
                }
            } else {
                kept.push(t);
            }
        }
        budget.spend(p.elems.len() as u64)?;
        improve(p, &mut kept, &mut count, budget)?;
        if kept.len() < self.best.len() {
            kept.sort_unstable();
            self.best = kept;
        }
        Ok(())
    }
}

/// Local search on the cover `kept` (`count[e]`: its sets containing `e`): adds a set when
/// that makes two or more others redundant, until no such set is left.
fn improve(
    p: &CoverInstance,
    kept: &mut Vec<u32>,
    count: &mut [u32],
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let mut in_cover = vec![false; p.sets.len()];
    for &t in kept.iter() {
        in_cover[t as usize] = true;
    }
    let mut removed = Vec::new();
    loop {
        let mut improved = false;
        for t in 0..p.sets.len() {
            if in_cover[t] {
                continue;
            }
            budget.spend(1 + 4 * p.sets[t].len() as u64)?;
            for &e in &p.sets[t] {
                count[e as usize] += 1;
            }
            removed.clear();
            for &e in &p.sets[t] {
                for &u in &p.elems[e as usize] {
                    let u = u as usize;
                    if in_cover[u] && p.sets[u].iter().all(|&x| count[x as usize] >= 2) {
                        in_cover[u] = false;
                        removed.push(u);
                        for &x in &p.sets[u] {
                            count[x as usize] -= 1;
                        }
                    }
                }
            }
            if removed.len() >= 2 {
                in_cover[t] = true;
                improved = true;
            } else {
                for &u in &removed {
                    in_cover[u] = true;
                    for &x in &p.sets[u] {
                        count[x as usize] += 1;
                    }
                }
                for &e in &p.sets[t] {
                    count[e as usize] -= 1;
                }
            }
        }
        if !improved {
            break;
        }
    }
    kept.clear();
    kept.extend((0..p.sets.len() as u32).filter(|&t| in_cover[t as usize]));
    Ok(())
}

/// The search.
struct Solver<'a> {
    s: State<'a>,
    lag: Lagrange,
    h: Heur,
    /// Steps of local search still to spend at the root (0: none).
    ls_steps: u64,
    /// Local searches run so far (each draws from its own generator).
    ls_runs: u64,
    /// Whether the root's local search runs alongside the bound of the linear program with
    /// cuts (a large part, no node cap); the bound found, once it ran.
    lp: bool,
    lp_lb: Option<usize>,
    /// Whether the root is being processed, and the Lagrangian bound found there (a bound
    /// on the covers smaller than the incumbent), kept for an answer at the deadline.
    at_root: bool,
    root_bound: usize,
}

/// Parameters of the subgradient optimisation: iterations, first step factor, iterations
/// without improvement before the factor is halved.
type Params = (usize, f64, usize, f64);
const ROOT: Params = (20000, 2.0, 100, 1e-3);
const AIM: f64 = 0.02;
/// Subgradient iterations between two runs of the greedy heuristic at the root.
const HEUR_EVERY: usize = 50;
/// Search nodes between two runs of the heuristics.
const HEUR_NODES: u64 = 16;
const NODE: Params = (60, 0.3, 5, 0.01);
const DIVE: Params = (30, 0.3, 5, 0.01);
/// Local search steps per element at the root and at each later run.
const LS_ROOT: u64 = 500;
/// Search nodes before local search runs again (then 4 times as many, and so on).
const LS_NODES: u64 = 256;
/// Parts with fewer elements do without the bound of the linear program with cuts.
const LP_ELEMS: usize = 300;
/// The linear program starts only with this much time left before the deadline: with less
/// it would rarely finish, and its thread, given up at the deadline, runs on to its next
/// reading of the clock (every thousand pivots or so).
const LP_MIN_LEFT: std::time::Duration = std::time::Duration::from_secs(1);
/// The bound of the linear program starts after this fraction of the root's local search.
const LP_WAIT: u64 = 16;
/// The dive takes the sets of reduced cost below this.
const DIVE_TAKE: f64 = -0.2;

/// What processing a node found.
enum Node {
    Pruned,
    Branch { cands: Vec<u32>, lb: usize },
}

impl<'a> Solver<'a> {
    /// A Lagrangian dive: from the current node, repeatedly improve the multipliers a
    /// little and take every free set of clearly negative reduced cost (at least the
    /// lowest), until everything is covered; the cover goes to the incumbent. The node is
    /// restored.
    fn dive(&mut self, budget: &mut Budget) -> Result<(), KernelError> {
        let mark = self.s.trail.len();
        loop {
            if !self.s.propagate(budget)? || self.s.n_in >= self.h.best.len() {
                break;
            }
            if self.s.uncovered == 0 {
                let chosen: Vec<u32> =
                    (0..self.s.st.len() as u32).filter(|&t| self.s.st[t as usize] == IN).collect();
                budget.spend(self.s.st.len() as u64)?;
                self.h.offer(self.s.p, chosen, &self.lag.cost, budget)?;
                break;
            }
            let target = (self.h.best.len() - self.s.n_in) as f64;
            self.lag.optimise(&self.s, target, DIVE, &mut None, budget)?;
            let mut low: Option<(f64, u32)> = None;
            let mut take = Vec::new();
            for &t in &self.lag.sets {
                let c = self.lag.cost[t as usize];
                if c < DIVE_TAKE {
                    take.push(t);
                }
                if low.is_none_or(|(lc, _)| c < lc) {
                    low = Some((c, t));
                }
            }
            if take.is_empty() {
                take.extend(low.map(|(_, t)| t));
            }
            for t in take {
                if self.s.st[t as usize] == FREE {
                    self.s.set_in(t);
                }
            }
        }
        self.s.undo(mark);
        Ok(())
    }

    /// Local search from the incumbent for `steps` steps or until a cover of `target` sets,
    /// ties broken by the reduced costs of the current node (sets covering nothing uncovered
    /// count as 1, sets taken as -1); returns whether the incumbent improved.
    fn local(
        &mut self,
        target: usize,
        steps: u64,
        shared: Option<&Shared>,
        budget: &mut Budget,
    ) -> Result<bool, KernelError> {
        let usable: Vec<bool> = vec![true; self.s.st.len()];
        let mut cost = vec![1.0; self.s.st.len()];
        for &t in &self.lag.sets {
            cost[t as usize] = self.lag.cost[t as usize];
        }
        for (t, c) in cost.iter_mut().enumerate() {
            if self.s.st[t] == IN {
                *c = -1.0;
            }
        }
        budget.spend(2 * self.s.st.len() as u64)?;
        self.ls_runs += 1;
        let found = crate::cover_ls::local_search(
            self.s.p,
            (&usable, &cost),
            &self.h.best,
            (self.h.best.len(), target),
            (steps, self.ls_runs),
            shared,
            budget,
        )?;
        let improved = found.is_some();
        if let Some(f) = found {
            self.h.best = f;
        }
        Ok(improved)
    }

    /// The root's local search towards `target` (the Lagrangian bound), and alongside it,
    /// when `self.lp` holds, the bound of the linear program with cuts, left in
    /// `self.lp_lb`. The two share the incumbent's size and the bound: the linear program
    /// aims one below the incumbent and gives up once the local search meets `target`, and
    /// the local search stops once the bound shows its cover minimum. Neither changes the
    /// cover found, so it is the same whether they run in parallel or one after the other.
    /// The linear program waits for the first steps of the local search, which often end
    /// the search at once. Returns whether the incumbent improved.
    fn root_local(
        &mut self,
        target: usize,
        steps: u64,
        budget: &mut Budget,
    ) -> Result<bool, KernelError> {
        if !self.lp {
            return self.local(target, steps, None, budget);
        }
        self.lp = false;
        let shared = Arc::new(Shared::new(self.h.best.len()));
        let p = self.s.p;
        let mut lp_budget = budget.fork();
        let wait = steps / LP_WAIT;
        let goal = {
            let shared = Arc::clone(&shared);
            move || {
                let best = shared.best.load(Ordering::Relaxed);
                (best > target).then(|| (best - 1) as f64)
            }
        };
        let lp = |b: &mut Budget| -> Result<Option<f64>, KernelError> {
            while shared.steps.load(Ordering::Relaxed) < wait {
                if goal().is_none() {
                    return Ok(None);
                }
                b.check_clock()?;
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            if b.time_left(LP_MIN_LEFT) < LP_MIN_LEFT {
                return Ok(None);
            }
            crate::cover_cuts::lp_bound_in_time(p, goal.clone(), b)
        };
        let (improved, bound) = rayon::join(
            || self.local(target, steps, Some(&shared), budget),
            || {
                let l = lp(&mut lp_budget)?;
                if let Some(l) = l {
                    shared.bound.store((l - EPS).ceil() as usize, Ordering::Relaxed);
                }
                Ok::<_, KernelError>(l)
            },
        );
        if let Ok(Some(l)) = bound {
            self.lp_lb = Some((l - EPS).ceil() as usize);
        }
        let improved = improved?;
        bound?;
        Ok(improved)
    }

    /// Propagates, bounds, fixes by reduced costs; records a cover at a leaf.
    fn node(&mut self, params: Params, budget: &mut Budget) -> Result<Node, KernelError> {
        let mut params = params;
        loop {
            if !self.s.propagate(budget)? {
                return Ok(Node::Pruned);
            }
            if self.s.n_in >= self.h.best.len() {
                return Ok(Node::Pruned);
            }
            if self.s.uncovered == 0 {
                self.h.best =
                    self.s.trail.iter().copied().filter(|&t| self.s.st[t as usize] == IN).collect();
                self.h.best.sort_unstable();
                return Ok(Node::Pruned);
            }
            // Sets an improvement may still take.
            let room = (self.h.best.len() - 1 - self.s.n_in) as f64;
            let mut heur = if params.0 == ROOT.0 { Some(&mut self.h) } else { None };
            let l = self.lag.optimise(&self.s, room + 1.0, params, &mut heur, budget)?;
            let lb = (l - EPS).ceil().max(1.0) as usize;
            if self.at_root {
                self.root_bound = self.root_bound.max(self.s.n_in + lb);
            }
            let room = (self.h.best.len() - 1 - self.s.n_in) as f64;
            if self.s.n_in + lb >= self.h.best.len() {
                return Ok(Node::Pruned);
            }
            // Reduced-cost fixing.
            let mut fixed = false;
            for i in 0..self.lag.sets.len() {
                let t = self.lag.sets[i];
                let c = self.lag.cost[t as usize];
                if self.s.st[t as usize] != FREE {
                    continue;
                }
                if c >= 0.0 && l + c > room + EPS {
                    self.s.set_out(t);
                    fixed = true;
                } else if c < 0.0 && l - c > room + EPS {
                    self.s.set_in(t);
                    fixed = true;
                }
            }
            budget.spend(self.lag.sets.len() as u64)?;
            if fixed {
                // Fixing may cover or strand elements: propagate and bound again, from the
                // multipliers just found.
                params = NODE;
                continue;
            }
            if self.ls_steps > 0 {
                let steps = std::mem::take(&mut self.ls_steps);
                let improved = self.root_local(self.s.n_in + lb, steps, budget)?;
                if self.lp_lb.is_some_and(|b| b >= self.h.best.len()) {
                    return Ok(Node::Pruned);
                }
                if improved {
                    params = NODE;
                    continue;
                }
            }
            // Branch on the uncovered element with fewest free sets (ties: highest price).
            let mut pick: Option<(u32, f64, usize)> = None;
            for &e in &self.lag.elems {
                let e = e as usize;
                if self.s.covered[e] > 0 {
                    continue;
                }
                let key = (self.s.free[e], self.lag.lam[e]);
                if pick.is_none_or(|(f, lam, _)| key.0 < f || (key.0 == f && key.1 > lam)) {
                    pick = Some((key.0, key.1, e));
                }
            }
            let (_, _, e) = pick.expect("an uncovered element");
            let mut cands: Vec<u32> = self.s.p.elems[e]
                .iter()
                .copied()
                .filter(|&t| self.s.st[t as usize] == FREE)
                .collect();
            cands.sort_by(|&a, &b| {
                self.lag.cost[a as usize].total_cmp(&self.lag.cost[b as usize]).then(a.cmp(&b))
            });
            return Ok(Node::Branch { cands, lb: self.s.n_in + lb });
        }
    }
}

/// Wraps an `f64` into a total order for the heap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Key(pub(crate) f64);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Key) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

struct Frame {
    mark: usize,
    cands: Vec<u32>,
    i: usize,
    lb: usize,
}

/// A minimum set cover of `p` (every element is in some set). `cap` limits the search
/// nodes; past it, or once the deadline passes during the search, the answer is the best
/// cover found with a proven lower bound (the root bound).
pub(crate) fn min_cover(
    p: &CoverInstance,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CoverFound, KernelError> {
    let mut sv = Solver {
        s: State::new(p),
        lag: Lagrange::new(p),
        h: Heur { best: (0..p.sets.len() as u32).collect(), gain: Vec::new(), mark: Vec::new() },
        ls_steps: 0,
        ls_runs: 0,
        lp: false,
        lp_lb: None,
        at_root: false,
        root_bound: 0,
    };
    // A first bound, valid before any search: one element per set at most.
    let mut root_lb = packing_bound(p);
    match search(&mut sv, budget, cap, &mut root_lb) {
        Ok(exact) => {
            let chosen = sv.h.best;
            let bound = if exact { chosen.len() } else { root_lb.min(chosen.len()) };
            Ok(CoverFound { chosen, exact, bound })
        }
        Err(KernelError::TimeLimit { .. }) => {
            let chosen = sv.h.best;
            let bound = root_lb.max(sv.root_bound).max(sv.lp_lb.unwrap_or(0)).min(chosen.len());
            Ok(CoverFound { exact: bound == chosen.len(), chosen, bound })
        }
        Err(e) => Err(e),
    }
}

/// The branch-and-bound of [`min_cover`] on the solver `sv`; raises `root_lb` to the root
/// bound once it is known. Returns whether the incumbent `sv.h.best` is proven minimum.
fn search(
    sv: &mut Solver<'_>,
    budget: &mut Budget,
    cap: &mut Cap,
    root_lb: &mut usize,
) -> Result<bool, KernelError> {
    let p = sv.s.p;
    budget.spend((p.sets.len() + p.elems.len()) as u64)?;
    let mut exact = true;
    let mut frames: Vec<Frame> = Vec::new();
    // Root: propagate, a first incumbent, then the bound and a Lagrangian incumbent.
    if !sv.s.propagate(budget)? {
        unreachable!("every element is in some set");
    }
    sv.lag.optimise(&sv.s, sv.h.best.len() as f64, (1, 1.0, 1, 0.0), &mut None, budget)?;
    sv.h.run(&sv.s, &sv.lag.cost, budget)?;
    let steps = LS_ROOT * p.elems.len() as u64;
    if !cap.limited() {
        sv.ls_steps = steps;
        sv.lp = p.elems.len() >= LP_ELEMS;
    }
    // The search nodes after which local search runs again, from the incumbent.
    let mut ls_next = LS_NODES;
    let mut first = true;
    sv.at_root = true;
    loop {
        let params = if first { ROOT } else { NODE };
        let node = sv.node(params, budget)?;
        if first {
            first = false;
            sv.at_root = false;
            let lb = match &node {
                Node::Pruned => sv.h.best.len(),
                Node::Branch { lb, .. } => *lb,
            };
            *root_lb = (*root_lb).max(lb).max(sv.lp_lb.unwrap_or(0));
            if *root_lb >= sv.h.best.len() {
                return Ok(true);
            }
        }
        if let Node::Branch { cands, lb } = node {
            // A Lagrangian incumbent at the root and at every 16th node.
            if frames.is_empty() || budget.nodes.is_multiple_of(HEUR_NODES) {
                sv.h.run(&sv.s, &sv.lag.cost, budget)?;
                sv.dive(budget)?;
            }
            if !cap.limited() && budget.nodes >= ls_next && *root_lb < sv.h.best.len() {
                ls_next *= 4;
                sv.local(*root_lb, steps, None, budget)?;
            }
            if lb < sv.h.best.len() {
                frames.push(Frame { mark: sv.s.trail.len(), cands, i: 0, lb });
            }
        }
        // Next branch.
        let mut next = false;
        while let Some(f) = frames.last_mut() {
            let work = sv.s.undo(f.mark);
            if f.i == f.cands.len() || f.lb >= sv.h.best.len() {
                frames.pop();
                continue;
            }
            if !cap.spend() {
                exact = false;
                break;
            }
            budget.tick(work)?;
            let mark = f.mark;
            for j in 0..f.i {
                let t = f.cands[j];
                if sv.s.st[t as usize] == FREE {
                    sv.s.set_out(t);
                }
            }
            let t = f.cands[f.i];
            f.i += 1;
            if sv.s.st[t as usize] != FREE {
                sv.s.undo(mark);
                continue;
            }
            sv.s.set_in(t);
            next = true;
            break;
        }
        if !next {
            break;
        }
    }
    Ok(exact)
}

/// A lower bound without search: elements taken greedily (fewest sets first) so that no set
/// holds two of them; each needs a set of its own.
pub(crate) fn packing_bound(p: &CoverInstance) -> usize {
    let mut order: Vec<u32> = (0..p.elems.len() as u32).collect();
    order.sort_by_key(|&e| (p.elems[e as usize].len(), e));
    let mut used = vec![false; p.sets.len()];
    let mut count = 0;
    for e in order {
        let sets = &p.elems[e as usize];
        if sets.iter().all(|&t| !used[t as usize]) {
            count += 1;
            for &t in sets {
                used[t as usize] = true;
            }
        }
    }
    count
}

/// A cover without search: every element not yet covered takes its set covering most
/// elements not yet covered (ties: lowest id).
pub(crate) fn greedy_cover(p: &CoverInstance) -> Vec<u32> {
    let mut covered = vec![false; p.elems.len()];
    let mut chosen = Vec::new();
    for e in 0..p.elems.len() {
        if covered[e] {
            continue;
        }
        let gain = |t: u32| p.sets[t as usize].iter().filter(|&&x| !covered[x as usize]).count();
        let t = p.elems[e]
            .iter()
            .copied()
            .max_by_key(|&t| (gain(t), std::cmp::Reverse(t)))
            .expect("every element is in some set");
        chosen.push(t);
        for &x in &p.sets[t as usize] {
            covered[x as usize] = true;
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::SplitMix64;

    /// The smallest number of sets covering everything, over all subsets of sets.
    /// The minimum cover of `p`, over every subset of its sets.
    pub(crate) fn brute(p: &CoverInstance) -> usize {
        let s = p.sets.len();
        (0u32..1 << s)
            .filter(|m| (0..p.elems.len()).all(|e| p.elems[e].iter().any(|&t| m >> t & 1 == 1)))
            .map(u32::count_ones)
            .min()
            .expect("all sets cover") as usize
    }

    /// `sets` sets over `elems` elements: each element in one random set, and in each other
    /// set with probability `per_mille` / 1000.
    pub(crate) fn random_instance(
        rng: &mut SplitMix64,
        sets: usize,
        elems: usize,
        per_mille: u64,
    ) -> CoverInstance {
        let mut lists = vec![Vec::new(); sets];
        for e in 0..elems as u32 {
            // Every element in one set at least, and a few more at random.
            lists[rng.below(sets as u64) as usize].push(e);
            for l in lists.iter_mut() {
                if rng.chance(per_mille) && l.last() != Some(&e) {
                    l.push(e);
                }
            }
        }
        CoverInstance::new(lists, elems)
    }

    #[test]
    fn covers_are_minimum_on_random_set_systems() {
        let mut rng = SplitMix64::new(2024);
        for round in 0..400 {
            let sets = 1 + round % 14;
            let elems = 1 + (round * 7) % 20;
            let p = random_instance(&mut rng, sets, elems, 200);
            let f =
                min_cover(&p, &mut Budget::new(&Config::default()), &mut Cap::new(None)).unwrap();
            assert!(f.exact);
            assert_eq!(f.chosen.len(), brute(&p), "{p:?}");
            let covered = (0..elems).all(|e| p.elems[e].iter().any(|t| f.chosen.contains(t)));
            assert!(covered, "{p:?}: {:?}", f.chosen);
        }
    }

    #[test]
    fn a_node_cap_gives_a_cover_and_a_sound_bound() {
        let mut rng = SplitMix64::new(7);
        for round in 0..200 {
            let p = random_instance(&mut rng, 6 + round % 9, 10 + round % 11, 200);
            let exact = brute(&p);
            let f = min_cover(&p, &mut Budget::new(&Config::default()), &mut Cap::new(Some(1)))
                .unwrap();
            assert!(f.bound <= exact && exact <= f.chosen.len());
        }
    }

    #[test]
    fn the_last_free_set_of_an_element_is_taken() {
        // Element 0 is only in set 1; elements 1 and 2 in sets 0 and 2.
        let p = CoverInstance::new(vec![vec![1, 2], vec![0], vec![1, 2]], 3);
        let mut s = State::new(&p);
        let mut b = Budget::new(&Config::default());
        assert!(s.propagate(&mut b).unwrap());
        assert_eq!(s.st, vec![FREE, IN, FREE]);
        s.set_out(0);
        assert!(s.propagate(&mut b).unwrap());
        assert_eq!(s.st, vec![OUT, IN, IN]);
        assert_eq!(s.uncovered, 0);
    }

    #[test]
    fn the_lagrangian_bound_never_exceeds_the_optimum() {
        let mut rng = SplitMix64::new(99);
        for round in 0..200 {
            let p = random_instance(&mut rng, 4 + round % 10, 5 + round % 15, 200);
            let exact = brute(&p);
            let s = State::new(&p);
            let mut lag = Lagrange::new(&p);
            let l = lag
                .optimise(
                    &s,
                    exact as f64 + 1.0,
                    ROOT,
                    &mut None,
                    &mut Budget::new(&Config::default()),
                )
                .unwrap();
            assert!(l <= exact as f64 + 1e-9, "{l} > {exact} on {p:?}");
        }
    }

    fn is_cover(p: &CoverInstance, chosen: &[u32]) -> bool {
        (0..p.elems.len()).all(|e| p.elems[e].iter().any(|t| chosen.contains(t)))
    }

    #[test]
    fn local_search_covers_are_valid_and_reach_the_optimum() {
        let mut rng = SplitMix64::new(31);
        for round in 0..300 {
            let p = random_instance(&mut rng, 3 + round % 12, 4 + round % 17, 200);
            let exact = brute(&p);
            let start = greedy_cover(&p);
            assert!(is_cover(&p, &start));
            let all = vec![true; p.sets.len()];
            let cost = vec![0.0; p.sets.len()];
            let mut b = Budget::new(&Config::default());
            let found = crate::cover_ls::local_search(
                &p,
                (&all, &cost),
                &start,
                (start.len(), 0),
                (5000, 1),
                None,
                &mut b,
            )
            .unwrap();
            let best = found.clone().unwrap_or(start.clone());
            assert!(is_cover(&p, &best), "{p:?}: {best:?}");
            assert!(best.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(best.len(), exact, "{p:?}");
            if let Some(f) = &found {
                assert!(f.len() < start.len());
            }
            // Sets left out of reach are never taken.
            let mut usable = vec![true; p.sets.len()];
            usable[0] = false;
            let coverable = (0..p.elems.len()).all(|e| p.elems[e].iter().any(|&t| t != 0));
            let from: Vec<u32> = start.iter().copied().filter(|&t| t != 0).collect();
            let limited = crate::cover_ls::local_search(
                &p,
                (&usable, &cost),
                &from,
                (p.sets.len() + 1, 0),
                (5000, 1),
                None,
                &mut b,
            )
            .unwrap();
            match limited {
                Some(f) => assert!(coverable && is_cover(&p, &f) && !f.contains(&0)),
                None => assert!(!coverable),
            }
        }
    }

    #[test]
    fn greedy_covers_and_packing_bounds_bracket_the_optimum() {
        let mut rng = SplitMix64::new(5);
        for round in 0..300 {
            let p = random_instance(&mut rng, 1 + round % 14, 1 + round % 19, 200);
            let exact = brute(&p);
            let g = greedy_cover(&p);
            assert!(is_cover(&p, &g));
            assert!(packing_bound(&p) <= exact && exact <= g.len(), "{p:?}");
        }
    }

    #[test]
    fn a_deadline_during_the_search_gives_a_cover_and_a_sound_bound() {
        let mut rng = SplitMix64::new(11);
        let mut inexact = 0;
        for round in 0..300 {
            let p = random_instance(&mut rng, 6 + round % 9, 10 + round % 11, 200);
            let exact = brute(&p);
            let mut b = Budget::new(&Config::default());
            // The clock "passes" at the k-th reading, at every point of the search.
            b.trip = Some((1 + round as u64 % 40, 0));
            let f = min_cover(&p, &mut b, &mut Cap::new(None)).unwrap();
            assert!(is_cover(&p, &f.chosen), "{p:?}");
            assert!(f.bound <= exact && exact <= f.chosen.len(), "{p:?}");
            assert_eq!(f.exact, f.bound == f.chosen.len());
            inexact += usize::from(!f.exact);
        }
        assert!(inexact > 0, "the deadline never left a search inexact");
    }
}
