//! A conflict-driven clause-learning SAT solver: two watched literals with blockers, first-UIP
//! learning with recursive clause minimisation, VSIDS branching, phase saving, restarts on the
//! glue (LBD) averages and periodic deletion of learnt clauses of high glue; as options, the
//! glue of a clause lowered when an analysis finds its literals on fewer levels and restarts
//! put off while the trail is unusually long.
//!
//! The solver reads the [`Budget`]: each conflict counts as a search node, each propagated
//! watch as an elementary step, so the deadline, the stop flag and the node limit end a solve
//! with the budget's error; a second stop flag lets a racing thread end it too.
//!
//! The pieces, each an `impl` block of [`Solver`] on the state declared here:
//! - [`lit`]: variables and literals ([`Var`], [`Lit`]);
//! - [`clauses`]: the clause database (arena, watches), where clauses are added, learnt and
//!   deleted — the one place a proof log of learnt and deleted clauses would write to;
//! - [`propagate`]: assignment, unit propagation and backtracking;
//! - [`analyze`]: conflict analysis, clause minimisation, the glue of a learnt clause, and the
//!   failed assumptions of a solve under assumptions;
//! - [`restart`]: the restart policy on the glue averages, with restarts put off while the
//!   trail is unusually long if the options ask for it;
//! - [`order`]: the branching order (variable activities in a heap, saved phases, random
//!   decisions);
//! - [`eliminate`]: bounded variable elimination, a preprocessing of a formula before it is
//!   added.
//!
//! The solver is used by the SAT encoding of the kernel conditions
//! (`crate::kernel::sat_encoding`) and by α's search of sparse parts close to their clique
//! cover (`crate::clique::branch_and_reduce::maxsat`, after [`eliminate`]): clauses are
//! added with [`Solver::add_clause`], then [`Solver::solve`] runs, and can resume after a
//! node limit.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::KernelError;
use crate::config::Budget;

mod analyze;
mod clauses;
mod eliminate;
mod lit;
mod order;
mod proof;
mod propagate;
mod restart;
#[cfg(test)]
mod tests;

pub(crate) use eliminate::eliminate;
pub(crate) use lit::{Lit, Var};
pub(crate) use proof::ProofLog;

use clauses::Watch;
use gamegraph_graph::Limit;
use gamegraph_graph::generate::SplitMix64;
use order::Heap;

/// The value of an unassigned variable (0 is false, 1 true).
const UNDEF: u8 = 2;
/// The reason of a decision or of a unit clause learnt or added at level 0.
const NO_REASON: u32 = u32::MAX;

/// Tuning and diversity of one solver.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options {
    /// Seed of the random first ordering of the variables and of the random decisions.
    pub(crate) seed: u64,
    /// The phase a variable takes before it was ever assigned.
    pub(crate) initial_phase: bool,
    /// One decision in this many is a random variable (0: never).
    pub(crate) random_every: u64,
    /// Lower the glue of a learnt clause when an analysis finds its literals on fewer levels
    /// (Glucose's rule), and put restarts off while the trail is unusually long (Glucose's
    /// blocking): the core-guided search under many assumptions solves more with both, the
    /// satisfiability questions of α's parts fewer.
    pub(crate) glucose: bool,
}

/// The CDCL solver.
#[derive(Debug)]
pub(crate) struct Solver {
    n: usize,
    /// Clause arena: `[len, learnt << 31 | lbd, lits...]` per clause, the literals by their
    /// codes ([`Lit::code`]).
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
    rng: SplitMix64,
    opts: Options,
    conflicts: u64,
    /// Watches visited by unit propagation, counted in steps of a few thousand.
    visits: u64,
    /// Glue averages for restarts.
    lbd_fast: f64,
    lbd_slow: f64,
    since_restart: u64,
    /// The trail's length after a conflict, averaged, for restart blocking.
    trail_avg: f64,
    next_reduce: u64,
    reduce_round: u64,
    /// Scratch for clause minimisation.
    stack: Vec<Lit>,
    to_clear: Vec<Var>,
    level_stamp: Vec<u64>,
    stamp: u64,
    /// The failed assumptions of the last [`Solver::solve_under`] ([`Solver::core`]).
    core: Vec<Lit>,
    /// The clauses learnt and deleted, when a proof is asked for ([`Solver::log_proof`]);
    /// read only where a clause is learnt or deleted, never while propagating.
    proof: Option<Box<ProofLog>>,
}

impl Solver {
    /// A solver over `n` variables and no clauses.
    pub(crate) fn new(n: usize, opts: Options) -> Solver {
        let mut heap = Heap::new(n);
        let mut rng = SplitMix64(opts.seed ^ 0x2545_f491_4f6c_dd1d);
        let activity = vec![0.0; n];
        let mut order: Vec<u32> = (0..n as u32).collect();
        if opts.seed != 0 {
            for i in (1..n).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
        }
        for &v in &order {
            heap.insert(Var(v), &activity);
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
            visits: 0,
            lbd_fast: 0.0,
            lbd_slow: 0.0,
            since_restart: 0,
            trail_avg: 0.0,
            next_reduce: 2000,
            reduce_round: 0,
            stack: Vec::new(),
            to_clear: Vec::new(),
            level_stamp: vec![0; n + 1],
            stamp: 0,
            core: Vec::new(),
            proof: None,
        }
    }

    /// Logs from now on every clause learnt and every learnt clause deleted (call it before
    /// solving); [`Solver::take_proof`] gives the log.
    pub(crate) fn log_proof(&mut self) {
        self.proof = Some(Box::default());
    }

    /// The log started by [`Solver::log_proof`], ending with the empty clause when the
    /// last [`Solver::solve`] proved the clauses unsatisfiable.
    pub(crate) fn take_proof(&mut self) -> Option<ProofLog> {
        let mut log = *self.proof.take()?;
        if !self.ok {
            log.finish();
        }
        Some(log)
    }

    /// A new variable, unassigned and last in the branching order's ties.
    pub(crate) fn new_var(&mut self) -> Var {
        let v = Var(self.n as u32);
        self.n += 1;
        self.value.push(UNDEF);
        self.level.push(0);
        self.reason.push(NO_REASON);
        self.phase.push(self.opts.initial_phase);
        self.activity.push(0.0);
        self.seen.push(0);
        self.watches.push(Vec::new());
        self.watches.push(Vec::new());
        self.level_stamp.push(0);
        self.heap.grow();
        self.heap.insert(v, &self.activity);
        v
    }

    /// Sets the phase `var` takes when it is next decided.
    pub(crate) fn set_phase(&mut self, var: Var, value: bool) {
        self.phase[var.index()] = value;
    }

    /// The work of the solves so far: the watches unit propagation visited (counted in steps
    /// of a few thousand).
    pub(crate) fn visits(&self) -> u64 {
        self.visits
    }

    /// The number of variables.
    #[cfg(test)]
    pub(crate) fn num_vars(&self) -> usize {
        self.n
    }

    /// The value of `var` in the model after [`Solver::solve`] returned `Ok(true)`.
    pub(crate) fn model_value(&self, var: Var) -> bool {
        self.value[var.index()] == 1
    }

    /// Solves: `Ok(true)` with a model ([`Solver::model_value`]), `Ok(false)` when the
    /// clauses are unsatisfiable. Gives the budget's error when it runs out, and
    /// [`Limit::Stop`] when `stop` is set. After the node budget's [`KernelError::Limit`] a
    /// call with a larger budget carries on where the last one stopped.
    pub(crate) fn solve(
        &mut self,
        budget: &mut Budget,
        stop: Option<&AtomicBool>,
    ) -> Result<bool, KernelError> {
        self.search(&[], budget, stop)
    }

    /// Solves with the literals `assumptions` made true first: `Ok(true)` with a model in
    /// which they all hold, `Ok(false)` when no model does. Then [`Solver::core`] gives the
    /// assumptions that already contradict the clauses (none when the clauses alone are
    /// unsatisfiable, which [`Solver::solve`] would then also say). The clauses learnt
    /// follow from the clauses alone, so the solver can be asked again under other
    /// assumptions, with clauses and variables added in between.
    pub(crate) fn solve_under(
        &mut self,
        assumptions: &[Lit],
        budget: &mut Budget,
        stop: Option<&AtomicBool>,
    ) -> Result<bool, KernelError> {
        self.core.clear();
        self.backtrack(0);
        self.search(assumptions, budget, stop)
    }

    /// The assumptions found contradictory by the last [`Solver::solve_under`] that returned
    /// `Ok(false)`: a subset of them that no model satisfies together with the clauses.
    pub(crate) fn core(&self) -> &[Lit] {
        &self.core
    }

    /// The search of [`Solver::solve`] and [`Solver::solve_under`]: the first decision levels
    /// make the assumptions true, one level each.
    fn search(
        &mut self,
        assumptions: &[Lit],
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
                self.visits += work;
                budget.spend(work)?;
                work = 0;
                if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Err(KernelError::Limit { limit: Limit::Stop, nodes: budget.nodes });
                }
            }
            if let Some(confl) = confl {
                self.conflicts += 1;
                if self.trail_lim.is_empty() {
                    self.ok = false;
                    return Ok(false);
                }
                let learnt = self.analyze(confl);
                self.backtrack(learnt.backjump);
                self.learn(&learnt.lits, learnt.glue);
                self.decay_activities();
                self.note_conflict(learnt.glue);
                // Counted once the clause is learnt: a solve stopped by the node limit here
                // resumes from a consistent state when called again.
                budget.tick(0)?;
            } else {
                if self.restart_due() {
                    self.restart(assumptions.len() as u32);
                    continue;
                }
                self.reduce_db_when_due();
                let mut next = None;
                while let Some(&a) = assumptions.get(self.trail_lim.len()) {
                    match self.lit_value(a) {
                        // Already true: an empty level keeps levels and assumptions aligned.
                        1 => self.trail_lim.push(self.trail.len()),
                        0 => {
                            self.analyze_final(a);
                            return Ok(false);
                        }
                        _ => {
                            next = Some(a);
                            break;
                        }
                    }
                }
                match next.or_else(|| self.decide()) {
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
