//! The Lagrangian bound of β's branch-and-bound, maximised by subgradient steps.

use crate::KernelError;
use crate::config::Budget;

use super::CoverInstance;
use super::assignment::{FREE, Selection};
use super::greedy::GreedyIncumbent;

/// Slack for floating-point bounds: a bound is used as `ceil(L - EPS)`.
pub(super) const EPS: f64 = 1e-6;

/// The multipliers and the buffers of the subgradient optimisation.
pub(super) struct Lagrange {
    pub(super) lam: Vec<f64>,
    pub(super) best_lam: Vec<f64>,
    /// Reduced costs of the free sets at `best_lam`.
    pub(super) cost: Vec<f64>,
    pub(super) grad: Vec<f64>,
    /// The uncovered elements and the free sets of the current node.
    pub(super) elems: Vec<u32>,
    pub(super) sets: Vec<u32>,
}

impl Lagrange {
    pub(super) fn new(p: &CoverInstance) -> Lagrange {
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
    pub(super) fn evaluate(&mut self, s: &Selection<'_>) -> f64 {
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

    /// Lists the uncovered elements and the free sets holding one at the node `s`; returns
    /// the work of an evaluation of `L` there.
    fn gather(&mut self, s: &Selection<'_>) -> u64 {
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
        (self.elems.len() + self.sets.iter().map(|&t| s.p.sets[t as usize].len()).sum::<usize>())
            as u64
    }

    /// The subgradient of `L` at the multipliers, projected so that no multiplier at 0 goes
    /// down, in `self.grad`; returns its squared norm.
    fn subgradient(&mut self, s: &Selection<'_>) -> f64 {
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
        norm
    }

    /// Maximises `L` by subgradient steps towards `target` (the sets an improvement may
    /// still use, plus one); stops early once the bound reaches `target`. Leaves the best
    /// multipliers in `lam` and their reduced costs in `cost`; returns the best bound.
    pub(super) fn optimise(
        &mut self,
        s: &Selection<'_>,
        target: f64,
        params: Subgradient,
        heur: &mut Option<&mut GreedyIncumbent>,
        budget: &mut Budget,
    ) -> Result<f64, KernelError> {
        let Subgradient { iters, step: mut mu, patience, min_step: mu_min } = params;
        let mut target = target;
        let work = self.gather(s);
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
            let norm = self.subgradient(s);
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

/// Parameters of the subgradient optimisation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Subgradient {
    /// Iterations, at most.
    pub(super) iters: usize,
    /// The first step factor.
    pub(super) step: f64,
    /// Iterations without improvement before the factor is halved.
    pub(super) patience: usize,
    /// The factor below which the optimisation stops.
    pub(super) min_step: f64,
}

/// At the root of the search.
pub(super) const ROOT: Subgradient =
    Subgradient { iters: 20000, step: 2.0, patience: 100, min_step: 1e-3 };
/// At the other nodes.
pub(super) const NODE: Subgradient =
    Subgradient { iters: 60, step: 0.3, patience: 5, min_step: 0.01 };
/// At each step of a Lagrangian dive.
pub(super) const DIVE: Subgradient =
    Subgradient { iters: 30, step: 0.3, patience: 5, min_step: 0.01 };
/// A single evaluation, for the reduced costs of the first incumbent.
pub(super) const ONCE: Subgradient =
    Subgradient { iters: 1, step: 1.0, patience: 1, min_step: 0.0 };
/// With a far target, the steps aim this fraction above the best bound (at least 1 above).
pub(super) const AIM: f64 = 0.02;
/// Subgradient iterations between two runs of the greedy heuristic at the root.
pub(super) const HEUR_EVERY: usize = 50;
