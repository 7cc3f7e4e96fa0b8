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

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::KernelError;
use crate::config::{Budget, Cap};

use super::assignment::{FREE, IN, Selection};
use super::greedy::{GreedyIncumbent, packing_bound};
use super::lagrange::{DIVE, EPS, Lagrange, NODE, ONCE, ROOT, Subgradient};
use super::local_search::{Progress, Run, local_search};
use super::maxsat::min_cover_maxsat;
use super::{CoverFound, CoverInstance};

/// β's branch-and-bound on one part: the selection at the current node, the Lagrangian
/// multipliers, the incumbent and the state of its local search and linear program.
pub(super) struct CoverSearch<'a> {
    pub(super) s: Selection<'a>,
    pub(super) lag: Lagrange,
    pub(super) h: GreedyIncumbent,
    /// Steps of local search still to spend at the root (0: none).
    pub(super) ls_steps: u64,
    /// Local searches run so far (each draws from its own generator).
    pub(super) ls_runs: u64,
    /// Whether the root's local search runs alongside the bound of the linear program with
    /// cuts (a large part, no node cap); the bound found, once it ran.
    pub(super) lp: bool,
    pub(super) lp_lb: Option<usize>,
    /// Whether the root is being processed, and the Lagrangian bound found there (a bound
    /// on the covers smaller than the incumbent), kept for an answer at the deadline.
    pub(super) at_root: bool,
    pub(super) root_bound: usize,
    /// Whether the root was bounded before its search ([`CoverSearch::bound_root`]).
    pub(super) warm: bool,
}

/// Parts with this many elements or more, searched without a node cap, may go to the
/// core-guided search of [`min_cover_maxsat`] (see [`BRANCH_GAP`]).
pub(super) const MAXSAT_ELEMS: usize = 40;
/// A part of [`LP_ELEMS`] elements or more whose Lagrangian bound at the root is at most
/// this far below its greedy cover stays with the branch-and-bound, whose linear program
/// with cuts often closes such a gap at the root; a wider gap, or a smaller part, goes to
/// the core-guided search.
pub(super) const BRANCH_GAP: usize = 2;
/// Search nodes between two runs of the heuristics.
pub(super) const HEUR_NODES: u64 = 16;
/// Local search steps per element at the root and at each later run.
pub(super) const LS_ROOT: u64 = 500;
/// Search nodes before local search runs again (then 4 times as many, and so on).
pub(super) const LS_NODES: u64 = 256;
/// Parts with fewer elements do without the bound of the linear program with cuts.
pub(super) const LP_ELEMS: usize = 300;
/// The linear program starts only with this much time left before the deadline: with less
/// it would rarely finish (its solves must also leave room for the thousand pivots or so
/// between two of the simplex's readings of the clock).
pub(super) const LP_MIN_LEFT: std::time::Duration = std::time::Duration::from_secs(1);
/// The bound of the linear program starts after this fraction of the root's local search.
pub(super) const LP_WAIT: u64 = 16;
/// The dive takes the sets of reduced cost below this.
pub(super) const DIVE_TAKE: f64 = -0.2;

/// What processing a node found.
pub(super) enum Node {
    Pruned,
    Branch { cands: Vec<u32>, lb: usize },
}

impl<'a> CoverSearch<'a> {
    /// The search of `p` at its root: nothing chosen, every set its own incumbent.
    fn new(p: &'a CoverInstance) -> CoverSearch<'a> {
        CoverSearch {
            s: Selection::new(p),
            lag: Lagrange::new(p),
            h: GreedyIncumbent {
                best: (0..p.sets.len() as u32).collect(),
                gain: Vec::new(),
                mark: Vec::new(),
            },
            ls_steps: 0,
            ls_runs: 0,
            lp: false,
            lp_lb: None,
            at_root: false,
            root_bound: 0,
            warm: false,
        }
    }

    /// A Lagrangian dive: from the current node, repeatedly improve the multipliers a
    /// little and take every free set of clearly negative reduced cost (at least the
    /// lowest), until everything is covered; the cover goes to the incumbent. The node is
    /// restored.
    pub(super) fn dive(&mut self, budget: &mut Budget) -> Result<(), KernelError> {
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
    pub(super) fn local(
        &mut self,
        target: usize,
        steps: u64,
        shared: Option<&Progress>,
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
        let run = Run {
            usable: &usable,
            cost: &cost,
            start: &self.h.best,
            limit: self.h.best.len(),
            target,
            steps,
            seed: self.ls_runs,
        };
        let found = local_search(self.s.p, &run, shared, budget)?;
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
    pub(super) fn root_local(
        &mut self,
        target: usize,
        steps: u64,
        budget: &mut Budget,
    ) -> Result<bool, KernelError> {
        if !self.lp {
            return self.local(target, steps, None, budget);
        }
        self.lp = false;
        let shared = Arc::new(Progress::new(self.h.best.len()));
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
            crate::cover::cuts::lp_bound_towards(p, &goal, b)
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
    pub(super) fn node(
        &mut self,
        params: Subgradient,
        budget: &mut Budget,
    ) -> Result<Node, KernelError> {
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
            let mut heur = if params.iters == ROOT.iters { Some(&mut self.h) } else { None };
            let l = self.lag.optimise(&self.s, room + 1.0, params, &mut heur, budget)?;
            let lb = (l - EPS).ceil().max(1.0) as usize;
            if self.at_root {
                self.root_bound = self.root_bound.max(self.s.n_in + lb);
            }
            let room = (self.h.best.len() - 1 - self.s.n_in) as f64;
            if self.s.n_in + lb >= self.h.best.len() {
                return Ok(Node::Pruned);
            }
            let fixed = self.fix_by_reduced_costs(l, room);
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
            let cands = self.branching_sets();
            return Ok(Node::Branch { cands, lb: self.s.n_in + lb });
        }
    }
    /// Reduced-cost fixing at the bound `l`, with `room` sets left to an improvement: a
    /// free set whose taking or leaving out alone would push the bound past the room is
    /// fixed the other way. Returns whether any was.
    fn fix_by_reduced_costs(&mut self, l: f64, room: f64) -> bool {
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
        fixed
    }

    /// The free sets of the uncovered element with fewest free sets (ties: highest price),
    /// lowest reduced cost first: the branches of the node.
    fn branching_sets(&self) -> Vec<u32> {
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
        let mut cands: Vec<u32> =
            self.s.p.elems[e].iter().copied().filter(|&t| self.s.st[t as usize] == FREE).collect();
        cands.sort_by(|&a, &b| {
            self.lag.cost[a as usize].total_cmp(&self.lag.cost[b as usize]).then(a.cmp(&b))
        });
        cands
    }
}

/// A branching node on the stack: the trail mark to undo to, the sets to try in turn and
/// the next one, and the node's bound.
pub(super) struct Frame {
    pub(super) mark: usize,
    pub(super) cands: Vec<u32>,
    pub(super) i: usize,
    pub(super) lb: usize,
}

/// A minimum set cover of `p` (every element is in some set): by the core-guided search of
/// [`min_cover_maxsat`] for a part of [`MAXSAT_ELEMS`] elements or more searched without a
/// node cap, unless it is large and its Lagrangian bound at the root close to its cover
/// ([`BRANCH_GAP`]); else by the branch-and-bound of [`search`], which goes on from the root
/// already bounded. Once the deadline passes (or past the cap), the answer is the
/// best cover found with a proven lower bound.
pub(crate) fn min_cover(
    p: &CoverInstance,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CoverFound, KernelError> {
    let mut sv = CoverSearch::new(p);
    // A first bound, valid before any search: one element per set at most.
    let mut root_lb = packing_bound(p);
    if !cap.limited() && p.elems.len() >= MAXSAT_ELEMS {
        match sv.bound_root(budget) {
            Ok(lb) => {
                root_lb = root_lb.max(lb);
                let best = sv.h.best.len();
                if root_lb >= best {
                    return Ok(CoverFound { bound: best, exact: true, chosen: sv.h.best });
                }
                if p.elems.len() < LP_ELEMS || best - root_lb > BRANCH_GAP {
                    return min_cover_maxsat(p, sv.h.best, root_lb, budget);
                }
            }
            Err(e) if e.is_clock() => return Ok(sv.found_at_deadline(root_lb)),
            Err(e) => return Err(e),
        }
    }
    finish(sv, root_lb, budget, cap)
}

/// A minimum set cover of `p` by branch-and-bound. `cap` limits the search nodes; past it,
/// or once the deadline passes during the search, the answer is the best cover found with
/// a proven lower bound (the root bound).
#[cfg(test)]
pub(crate) fn branch_and_bound(
    p: &CoverInstance,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CoverFound, KernelError> {
    finish(CoverSearch::new(p), packing_bound(p), budget, cap)
}

/// The branch-and-bound of `sv` from its root (bounded or not) with the proven bound
/// `root_lb`, and its answer.
fn finish(
    mut sv: CoverSearch<'_>,
    mut root_lb: usize,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CoverFound, KernelError> {
    match search(&mut sv, budget, cap, &mut root_lb) {
        Ok(exact) => {
            let chosen = sv.h.best;
            let bound = if exact { chosen.len() } else { root_lb.min(chosen.len()) };
            Ok(CoverFound { chosen, exact, bound })
        }
        Err(e) if e.is_clock() => Ok(sv.found_at_deadline(root_lb)),
        Err(e) => Err(e),
    }
}

impl CoverSearch<'_> {
    /// The root before its search: propagation, the reduced costs of a first evaluation
    /// and the greedy incumbent they guide.
    fn prepare(&mut self, budget: &mut Budget) -> Result<(), KernelError> {
        if !self.s.propagate(budget)? {
            unreachable!("every element is in some set");
        }
        self.lag.optimise(&self.s, self.h.best.len() as f64, ONCE, &mut None, budget)?;
        self.h.run(&self.s, &self.lag.cost, budget)
    }

    /// The root's Lagrangian bound and incumbents, without its local search and linear
    /// program; the search goes on from there ([`search`] then starts with a node's short
    /// subgradient run from these multipliers).
    fn bound_root(&mut self, budget: &mut Budget) -> Result<usize, KernelError> {
        self.prepare(budget)?;
        self.at_root = true;
        self.warm = true;
        Ok(match self.node(ROOT, budget)? {
            Node::Pruned => self.h.best.len(),
            Node::Branch { lb, .. } => lb,
        })
    }

    /// The answer when the deadline passed: the incumbent with the best bound proven.
    fn found_at_deadline(self, root_lb: usize) -> CoverFound {
        let chosen = self.h.best;
        let bound = root_lb.max(self.root_bound).max(self.lp_lb.unwrap_or(0)).min(chosen.len());
        CoverFound { exact: bound == chosen.len(), chosen, bound }
    }
}

/// The branch-and-bound of [`min_cover`] on the solver `sv`; raises `root_lb` to the root
/// bound once it is known. Returns whether the incumbent `sv.h.best` is proven minimum.
pub(super) fn search(
    sv: &mut CoverSearch<'_>,
    budget: &mut Budget,
    cap: &mut Cap,
    root_lb: &mut usize,
) -> Result<bool, KernelError> {
    let p = sv.s.p;
    budget.spend((p.sets.len() + p.elems.len()) as u64)?;
    let mut exact = true;
    let mut frames: Vec<Frame> = Vec::new();
    // Root: propagate, a first incumbent, then the bound and a Lagrangian incumbent (a root
    // already bounded goes on from its multipliers).
    if !sv.warm {
        sv.prepare(budget)?;
    }
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
        let params = if !first || sv.warm { NODE } else { ROOT };
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
        match next_branch(sv, &mut frames, cap, budget)? {
            NextBranch::Taken => {}
            NextBranch::Exhausted => break,
            NextBranch::CapReached => {
                exact = false;
                break;
            }
        }
    }
    Ok(exact)
}

/// What [`next_branch`] did.
enum NextBranch {
    /// It took the next set of a frame.
    Taken,
    /// No branch is left: the search is over.
    Exhausted,
    /// The node cap is reached.
    CapReached,
}

/// Backtracks to the deepest frame with a branch left that can still beat the incumbent,
/// leaves out the sets of its branches tried before and takes its next set.
fn next_branch(
    sv: &mut CoverSearch<'_>,
    frames: &mut Vec<Frame>,
    cap: &mut Cap,
    budget: &mut Budget,
) -> Result<NextBranch, KernelError> {
    while let Some(f) = frames.last_mut() {
        let work = sv.s.undo(f.mark);
        if f.i == f.cands.len() || f.lb >= sv.h.best.len() {
            frames.pop();
            continue;
        }
        if !cap.spend() {
            return Ok(NextBranch::CapReached);
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
        return Ok(NextBranch::Taken);
    }
    Ok(NextBranch::Exhausted)
}
