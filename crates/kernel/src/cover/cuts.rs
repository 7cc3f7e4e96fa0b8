//! Odd-cycle cuts for β's set cover: Chvátal–Gomory inequalities from an odd number of
//! covering rows, found as short odd cycles in the graph joining two sets whenever an
//! element lies in both.
//!
//! Adding the rows `Σ_{t ∋ e} x_t ≥ 1` of an odd number k of elements R gives
//! `Σ_t c_t x_t ≥ k` with `c_t` the elements of R in set t; halving and rounding up gives
//! the valid inequality `Σ_t ⌈c_t / 2⌉ x_t ≥ (k + 1) / 2`. When R runs along a cycle of sets
//! `t_1 … t_k` (element `e_i` in `t_i` and `t_{i+1}`), each cycle set has an even count and the
//! cut says that a cover takes more than half of them, unless it uses other sets of R's rows.
//! This is what the linear-programming relaxation misses on sparse instances: with all
//! `x = 1/2` along an odd cycle of elements in two sets each, every row is met, but a cover
//! needs `(k + 1) / 2` of those sets.
//!
//! At a fractional point x, the cut of R is violated by `1 - V` where
//! `V = Σ_{e ∈ R} (Σ_{t ∋ e} x_t - 1) + Σ_{t: c_t odd} x_t`; along a cycle V splits into one
//! weight per cycle step, `2·T(e) - 1 - x(u) - x(v)` for element e between sets u and v
//! (`T(e)` its row sum), which is never negative. So the most violated odd-cycle cut through a
//! set is a shortest odd closed walk, found by Dijkstra on the two-layer graph where every
//! step switches layer.
//!
//! [`lp_bound_towards`] solves the linear-programming relaxation by the simplex method, adds
//! the cuts violated at its optimum for a few rounds, and turns the optimum of the dual into
//! a bound that holds whatever the accuracy of the solves. It runs on the calling thread:
//! the simplex reads the clock only once per thousand pivots, so each solve is given the time
//! left before the deadline less what a thousand pivots may take (measured on the solves
//! before, estimated from the size of the program before the first), and a solve that could
//! not end before the deadline is not started.

use microlp::{ComparisonOp, OptimizationDirection, Problem, Solution, Variable};

use crate::KernelError;
use crate::config::Budget;
use crate::cover::{CoverInstance, Ordered};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// A valid inequality `Σ coef·x ≥ rhs` over the sets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cut {
    /// The sets with a positive coefficient, increasing.
    pub(crate) sets: Vec<u32>,
    /// Their coefficients.
    pub(crate) coef: Vec<u32>,
    pub(crate) rhs: u32,
}

impl Cut {
    /// The cut of the odd set of elements `rows`: the sum of their covering rows, halved
    /// and rounded up.
    pub(crate) fn of_rows(p: &CoverInstance, rows: &[u32]) -> Cut {
        debug_assert!(rows.len() % 2 == 1);
        let mut all: Vec<u32> =
            rows.iter().flat_map(|&e| p.elems[e as usize].iter().copied()).collect();
        all.sort_unstable();
        let mut sets = Vec::new();
        let mut coef = Vec::new();
        for run in all.chunk_by(|a, b| a == b) {
            sets.push(run[0]);
            coef.push(run.len().div_ceil(2) as u32);
        }
        Cut { sets, coef, rhs: rows.len().div_ceil(2) as u32 }
    }

    /// The left-hand side at `x`.
    pub(crate) fn lhs(&self, x: &[f64]) -> f64 {
        self.sets.iter().zip(&self.coef).map(|(&t, &a)| f64::from(a) * x[t as usize]).sum()
    }
}

/// Violations smaller than this are not worth a cut.
const MIN_VIOLATION: f64 = 1e-3;
/// Values within this of 0 or 1 count as integral.
const FRACTIONAL: f64 = 1e-9;

/// Odd-cycle cuts violated at the point `x` (one value per set, in `[0, 1]`), over the
/// elements with `open[e]`, none of them with the same rows as a cut in `known`; at most
/// `max` of them, the most violated first.
pub(crate) fn odd_cycle_cuts(
    p: &CoverInstance,
    x: &[f64],
    open: &[bool],
    known: &mut HashSet<Vec<u32>>,
    max: usize,
    budget: &mut Budget,
) -> Result<Vec<Cut>, KernelError> {
    let ns = p.sets.len();
    let adj = step_graph(p, x, open, budget)?;
    // Two-layer Dijkstra from every set; node 2t + layer. The graph is symmetric under the
    // swap of the layers, so a walk from (s, 1) back to (t, 1 - l) is the mirror of one from
    // (s, 0) to (t, l): the shortest odd closed walk through s is the least
    // `dist(u, l) + w + dist(v, l)` over the steps (u, v, w), and the search stops at half its
    // length (the walk's middle step joins two nodes no farther).
    let mut walks = OddWalks::new(ns);
    let mut found: Vec<(f64, Cut)> = Vec::new();
    // A violated cycle holds a fractional set: along sets at 0 or 1 an odd cycle has two
    // neighbours of equal value, and their step weighs 1 or more.
    for s in 0..ns {
        if adj[s].is_empty() || x[s] <= FRACTIONAL || x[s] >= 1.0 - FRACTIONAL {
            continue;
        }
        let Some(rows) = walks.shortest_through(&adj, s, budget)? else { continue };
        if rows.len() % 2 == 0 || known.contains(&rows) {
            continue;
        }
        let cut = Cut::of_rows(p, &rows);
        let violation = f64::from(cut.rhs) - cut.lhs(x);
        if violation >= MIN_VIOLATION {
            known.insert(rows);
            found.push((violation, cut));
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.sets.cmp(&b.1.sets)));
    found.truncate(max);
    Ok(found.into_iter().map(|(_, c)| c).collect())
}

/// A step of the two-layer graph: the set reached, the step's weight and the element
/// shared by the two sets.
type Step = (u32, f64, u32);

/// The steps between the sets at the point `x`: for each open element, every pair of its
/// sets, weighing `2·T(e) - 1 - x(u) - x(v)`, those too heavy for a violated cut left out.
fn step_graph(
    p: &CoverInstance,
    x: &[f64],
    open: &[bool],
    budget: &mut Budget,
) -> Result<Vec<Vec<Step>>, KernelError> {
    let ns = p.sets.len();
    let mut adj: Vec<Vec<Step>> = vec![Vec::new(); ns];
    for (e, list) in p.elems.iter().enumerate() {
        if !open[e] {
            continue;
        }
        let row: f64 = list.iter().map(|&t| x[t as usize]).sum();
        budget.spend((list.len() * list.len()) as u64)?;
        for (i, &u) in list.iter().enumerate() {
            for &v in &list[i + 1..] {
                let w = (2.0 * row - 1.0 - x[u as usize] - x[v as usize]).max(0.0);
                if w < 1.0 - MIN_VIOLATION {
                    adj[u as usize].push((v, w, e as u32));
                    adj[v as usize].push((u, w, e as u32));
                }
            }
        }
    }
    Ok(adj)
}

/// The buffers of the two-layer Dijkstra of [`odd_cycle_cuts`], node `2t + layer` for set t.
struct OddWalks {
    dist: Vec<f64>,
    done: Vec<bool>,
    prev: Vec<(u32, u32)>,
    touched: Vec<usize>,
    heap: BinaryHeap<(Reverse<Ordered>, u32)>,
}

impl OddWalks {
    fn new(ns: usize) -> OddWalks {
        OddWalks {
            dist: vec![f64::INFINITY; 2 * ns],
            done: vec![false; 2 * ns],
            prev: vec![(u32::MAX, u32::MAX); 2 * ns],
            touched: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// The elements along the shortest odd closed walk through the set `s` shorter than
    /// `1 - MIN_VIOLATION`, increasing and without repeats; `None` when there is none.
    fn shortest_through(
        &mut self,
        adj: &[Vec<Step>],
        s: usize,
        budget: &mut Budget,
    ) -> Result<Option<Vec<u32>>, KernelError> {
        for &i in &self.touched {
            self.dist[i] = f64::INFINITY;
            self.done[i] = false;
        }
        self.touched.clear();
        self.heap.clear();
        let start = 2 * s;
        self.dist[start] = 0.0;
        self.touched.push(start);
        self.heap.push((Reverse(Ordered(0.0)), start as u32));
        // The shortest walk so far: its length and middle step (two nodes of one layer).
        let mut best = 1.0 - MIN_VIOLATION;
        let mut middle = None;
        let mut work = 0u64;
        while let Some((Reverse(Ordered(d)), node)) = self.heap.pop() {
            let node = node as usize;
            if d > self.dist[node] || self.done[node] {
                continue;
            }
            if 2.0 * d >= best {
                break;
            }
            self.done[node] = true;
            let (u, layer) = (node / 2, node % 2);
            work += adj[u].len() as u64;
            for &(v, w, e) in &adj[u] {
                let nd = d + w;
                let same = 2 * v as usize + layer;
                if self.done[same] && nd + self.dist[same] < best {
                    best = nd + self.dist[same];
                    middle = Some((node, same, e));
                }
                let next = 2 * v as usize + (1 - layer);
                if 2.0 * nd < best && nd < self.dist[next] {
                    if self.dist[next].is_infinite() {
                        self.touched.push(next);
                    }
                    self.dist[next] = nd;
                    self.prev[next] = (node as u32, e);
                    self.heap.push((Reverse(Ordered(nd)), next as u32));
                }
            }
        }
        budget.spend(work + 1)?;
        let Some((a, b, e)) = middle else { return Ok(None) };
        let mut rows = vec![e];
        for mut node in [a, b] {
            while node != start {
                let (from, e) = self.prev[node];
                rows.push(e);
                node = from as usize;
            }
        }
        rows.sort_unstable();
        rows.dedup();
        Ok(Some(rows))
    }
}

/// Rounds of separation at the linear-programming optimum, and the most cuts added per round.
const LP_ROUNDS: usize = 8;
const LP_CUTS: usize = 300;
/// Separation stops once the linear program exceeds the goal by this.
const GOAL_MARGIN: f64 = 1e-3;
/// Time allowed to each solve of a linear program (less when the deadline is nearer), and
/// to the rounds of cuts together.
const LP_SECS: u64 = 10;
/// Rows and cuts within this of their right-hand side at the primal optimum count as tight.
const TIGHT: f64 = 1e-6;
/// Pivots between two readings of the clock by the simplex (microlp's check interval).
const PIVOTS_PER_CLOCK: u32 = 1000;
/// Before any solve, the nanoseconds a pivot is assumed to take per nonzero of the
/// constraint matrix (40 to 80 measured on 2000 sets of 4 elements, the more under load).
const PIVOT_NS_PER_NNZ: u64 = 100;
/// The margin before the deadline allows this many times the time of the pivots between
/// two readings of the clock, for a machine more loaded than when they were measured.
const MARGIN_FACTOR: u32 = 3;

/// [`lp_bound_towards`] with a fixed goal.
#[cfg(test)]
pub(crate) fn lp_bound(
    p: &CoverInstance,
    goal: f64,
    budget: &mut Budget,
) -> Result<Option<f64>, KernelError> {
    lp_bound_towards(p, &|| Some(goal), budget)
}

/// A lower bound on the minimum cover of `p`: the linear-programming relaxation (solved by
/// the simplex method), strengthened by rounds of odd-cycle cuts separated at its optimum
/// until it exceeds the goal, then its dual. The bound is `L(y)` of the Lagrangian
/// relaxation at the dual optimum y of the rows and cuts, which holds for any y ≥ 0,
/// whatever the accuracy of the solves. `None` when a solve fails, panics or takes too long.
/// The goal may fall while the bound is computed: `goal()` is read before each round of
/// cuts, and `None` from it gives up (the bound is no longer needed).
pub(crate) fn lp_bound_towards(
    p: &CoverInstance,
    goal: &dyn Fn() -> Option<f64>,
    budget: &mut Budget,
) -> Result<Option<f64>, KernelError> {
    let run = std::panic::AssertUnwindSafe(|| solve_lp_bound(p, goal, budget));
    std::panic::catch_unwind(run).unwrap_or(Ok(None))
}

/// [`lp_bound_towards`] without the guard against panics.
fn solve_lp_bound(
    p: &CoverInstance,
    goal: &dyn Fn() -> Option<f64>,
    budget: &mut Budget,
) -> Result<Option<f64>, KernelError> {
    let lp = LpRun {
        p,
        goal,
        start: std::time::Instant::now(),
        limit: std::time::Duration::from_secs(LP_SECS),
        nnz: p.sets.iter().map(Vec::len).sum(),
        pivot: std::cell::Cell::new(None),
    };
    let Some((x, sol, limit)) = lp.primal(budget)? else { return Ok(None) };
    let Some((sol, cuts)) = lp.cut_rounds(&x, sol, limit, budget)? else { return Ok(None) };
    if goal().is_none() {
        return Ok(None);
    }
    lp.dual_bound(&x, &sol, &cuts, budget)
}

/// One computation of [`lp_bound_towards`]: the instance, the goal, and the clock of the
/// solves.
struct LpRun<'a> {
    p: &'a CoverInstance,
    goal: &'a dyn Fn() -> Option<f64>,
    start: std::time::Instant,
    limit: std::time::Duration,
    /// The number of (set, element) incidences, the size of the constraint matrix.
    nnz: usize,
    /// The time of a pivot on the solves so far, once measured.
    pivot: std::cell::Cell<Option<std::time::Duration>>,
}

impl LpRun<'_> {
    /// The time limit of a solve that is to end before the deadline: the time left, at
    /// most the allowance of a solve, less the time the simplex may run between two
    /// readings of the clock; `None` when that leaves nothing.
    fn solve_limit(&self, budget: &Budget) -> Option<std::time::Duration> {
        let pivot = self.pivot.get().unwrap_or_else(|| {
            std::time::Duration::from_nanos(PIVOT_NS_PER_NNZ * self.nnz.max(1) as u64)
        });
        let margin = pivot * PIVOTS_PER_CLOCK * MARGIN_FACTOR;
        let limit = budget.time_left(self.limit + margin).checked_sub(margin)?;
        (!limit.is_zero()).then_some(limit)
    }

    /// Records the time per pivot of the solves that gave `stats`.
    fn measure(&self, stats: &microlp::Stats) {
        if stats.lp_iterations >= u64::from(PIVOTS_PER_CLOCK / 10) {
            let per = stats.elapsed.as_nanos() / u128::from(stats.lp_iterations);
            self.pivot.set(Some(std::time::Duration::from_nanos(per as u64)));
        }
    }

    /// The primal: min Σ x, every row covered, 0 ≤ x ≤ 1, solved; its variables, solution
    /// and time limit (which each cut added later is solved under too), or `None` when the
    /// solve fails, the goal is gone or the time is too short.
    fn primal(
        &self,
        budget: &mut Budget,
    ) -> Result<Option<(Vec<Variable>, Solution, std::time::Duration)>, KernelError> {
        let p = self.p;
        let mut primal = Problem::new(OptimizationDirection::Minimize);
        let Some(limit) = self.solve_limit(budget) else { return Ok(None) };
        primal.set_time_limit(limit);
        if (self.goal)().is_none() {
            return Ok(None);
        }
        let x: Vec<_> = (0..p.sets.len()).map(|_| primal.add_var(1.0, (0.0, 1.0))).collect();
        for list in &p.elems {
            primal.add_constraint(
                list.iter().map(|&t| (x[t as usize], 1.0)).collect::<Vec<_>>(),
                ComparisonOp::Ge,
                1.0,
            );
        }
        budget.spend(16 * self.nnz as u64)?;
        let Some(sol) = primal.solve().ok().and_then(|o| o.into_solution().ok()) else {
            return Ok(None);
        };
        budget.check_clock()?;
        self.measure(&sol.stats());
        Ok(Some((x, sol, limit)))
    }

    /// Rounds of odd-cycle cuts separated at the optimum `sol` and added to it, until the
    /// optimum exceeds the goal, no cut is found, or a solve under `limit` (the primal's)
    /// could end after the deadline; the last optimum and the cuts added, or `None` when a
    /// solve fails, the goal is gone or the time is up.
    fn cut_rounds(
        &self,
        x: &[Variable],
        mut sol: Solution,
        limit: std::time::Duration,
        budget: &mut Budget,
    ) -> Result<Option<(Solution, Vec<Cut>)>, KernelError> {
        let p = self.p;
        let open = vec![true; p.elems.len()];
        let mut known = HashSet::new();
        let mut cuts: Vec<Cut> = Vec::new();
        for _ in 0..LP_ROUNDS {
            let Some(g) = (self.goal)() else { return Ok(None) };
            if sol.objective() > g + GOAL_MARGIN {
                break;
            }
            let point: Vec<f64> = x.iter().map(|&v| sol.var_value(v).clamp(0.0, 1.0)).collect();
            let found = odd_cycle_cuts(p, &point, &open, &mut known, LP_CUTS, budget)?;
            if found.is_empty() {
                break;
            }
            for cut in found {
                let row: Vec<_> = cut
                    .sets
                    .iter()
                    .zip(&cut.coef)
                    .map(|(&t, &a)| (x[t as usize], f64::from(a)))
                    .collect();
                budget.spend(16 * row.len() as u64)?;
                if self.solve_limit(budget).is_none_or(|l| l < limit) {
                    return Ok(Some((sol, cuts)));
                }
                let Some(next) = sol
                    .add_constraint(row, ComparisonOp::Ge, f64::from(cut.rhs))
                    .ok()
                    .and_then(|o| o.into_solution().ok())
                else {
                    return Ok(None);
                };
                sol = next;
                self.measure(&sol.stats());
                cuts.push(cut);
                budget.check_clock()?;
                if sol.objective() > g + GOAL_MARGIN {
                    break;
                }
                if self.start.elapsed() > self.limit {
                    return Ok(None);
                }
            }
            budget.check_clock()?;
        }
        Ok(Some((sol, cuts)))
    }

    /// The bound from the dual of the rows and `cuts` at the primal optimum `sol`:
    /// `L(y, z) = Σ y + Σ rhs·z + Σ_t min(0, 1 - column of t)` at the dual optimum (y, z),
    /// which is a valid bound for any y, z ≥ 0; `None` when the solve fails.
    fn dual_bound(
        &self,
        x: &[Variable],
        sol: &Solution,
        cuts: &[Cut],
        budget: &mut Budget,
    ) -> Result<Option<f64>, KernelError> {
        let p = self.p;
        // The dual: max Σ y + Σ rhs·z, every set's column at most 1, y, z ≥ 0; only the rows
        // and cuts tight at the primal optimum get a variable (the others' are 0 at some dual
        // optimum, by complementary slackness).
        let point: Vec<f64> = x.iter().map(|&v| sol.var_value(v)).collect();
        let tight_row: Vec<bool> = p
            .elems
            .iter()
            .map(|l| l.iter().map(|&t| point[t as usize]).sum::<f64>() <= 1.0 + TIGHT)
            .collect();
        let tight_cut: Vec<bool> =
            cuts.iter().map(|c| c.lhs(&point) <= f64::from(c.rhs) + TIGHT).collect();
        let mut dual = Problem::new(OptimizationDirection::Maximize);
        let Some(limit) = self.solve_limit(budget) else { return Ok(None) };
        dual.set_time_limit(limit);
        let y: Vec<Option<Variable>> =
            tight_row.iter().map(|&k| k.then(|| dual.add_var(1.0, (0.0, f64::INFINITY)))).collect();
        let z: Vec<Option<Variable>> = cuts
            .iter()
            .zip(&tight_cut)
            .map(|(c, &k)| k.then(|| dual.add_var(f64::from(c.rhs), (0.0, f64::INFINITY))))
            .collect();
        let mut cols: Vec<Vec<(Variable, f64)>> = p
            .sets
            .iter()
            .map(|l| l.iter().filter_map(|&e| y[e as usize]).map(|v| (v, 1.0)).collect())
            .collect();
        for (k, c) in cuts.iter().enumerate() {
            let Some(v) = z[k] else { continue };
            for (&t, &a) in c.sets.iter().zip(&c.coef) {
                cols[t as usize].push((v, f64::from(a)));
            }
        }
        for col in cols {
            if !col.is_empty() {
                dual.add_constraint(col, ComparisonOp::Le, 1.0);
            }
        }
        let cut_nnz = cuts.iter().map(|c| c.sets.len()).sum::<usize>();
        budget.spend(16 * (self.nnz + cut_nnz) as u64)?;
        let Some(dsol) = dual.solve().ok().and_then(|o| o.into_solution().ok()) else {
            return Ok(None);
        };
        budget.check_clock()?;
        let yv: Vec<f64> =
            y.iter().map(|v| v.map_or(0.0, |v| dsol.var_value(v).max(0.0))).collect();
        let zv: Vec<f64> =
            z.iter().map(|v| v.map_or(0.0, |v| dsol.var_value(v).max(0.0))).collect();
        let mut reduced = vec![1.0; p.sets.len()];
        let mut l: f64 = yv.iter().sum();
        for (t, list) in p.sets.iter().enumerate() {
            for &e in list {
                reduced[t] -= yv[e as usize];
            }
        }
        for (c, &w) in cuts.iter().zip(&zv) {
            l += f64::from(c.rhs) * w;
            for (&t, &a) in c.sets.iter().zip(&c.coef) {
                reduced[t as usize] -= f64::from(a) * w;
            }
        }
        l += reduced.iter().map(|&c| c.min(0.0)).sum::<f64>();
        Ok(Some(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::cover::tests::{brute, random_instance};
    use gamegraph_testkit::SplitMix64;

    /// Every cover (all subsets of sets, brute force) meets the cut.
    fn valid_for_every_cover(p: &CoverInstance, cut: &Cut) -> bool {
        let s = p.sets.len();
        (0u32..1 << s)
            .filter(|m| (0..p.elems.len()).all(|e| p.elems[e].iter().any(|&t| m >> t & 1 == 1)))
            .all(|m| {
                let lhs: u32 = cut
                    .sets
                    .iter()
                    .zip(&cut.coef)
                    .filter(|(t, _)| m >> **t & 1 == 1)
                    .map(|(_, a)| a)
                    .sum();
                lhs >= cut.rhs
            })
    }

    #[test]
    fn the_five_cycle_at_one_half_gives_its_cut() {
        // Sets 0..5 around a cycle; element i lies in sets i and i + 1 (mod 5).
        let sets: Vec<Vec<u32>> = (0..5u32)
            .map(|t| vec![(t + 4) % 5, t])
            .map(|mut l| {
                l.sort_unstable();
                l
            })
            .collect();
        let p = CoverInstance::new(sets, 5);
        let x = vec![0.5; 5];
        let mut known = HashSet::new();
        let mut b = Budget::new(&Config::default());
        let cuts = odd_cycle_cuts(&p, &x, &[true; 5], &mut known, 10, &mut b).unwrap();
        assert_eq!(cuts.len(), 1, "{cuts:?}");
        assert_eq!(cuts[0], Cut { sets: vec![0, 1, 2, 3, 4], coef: vec![1; 5], rhs: 3 });
        assert!(valid_for_every_cover(&p, &cuts[0]));
        // Found once: the same rows are not offered again.
        let again = odd_cycle_cuts(&p, &x, &[true; 5], &mut known, 10, &mut b).unwrap();
        assert!(again.is_empty());
        // An integral cover violates nothing.
        let x = vec![1.0, 0.0, 1.0, 0.0, 1.0];
        let none = odd_cycle_cuts(&p, &x, &[true; 5], &mut HashSet::new(), 10, &mut b).unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn cuts_of_odd_rows_hold_for_every_cover() {
        let mut rng = SplitMix64::new(41);
        for round in 0..300 {
            let ns = 3 + round % 10;
            let ne = 3 + (round * 5) % 14;
            let p = random_instance(&mut rng, ns, ne, 300);
            // Any odd set of rows.
            let rows: Vec<u32> = (0..ne as u32).filter(|_| rng.chance(500)).collect();
            if rows.len() % 2 == 1 {
                assert!(valid_for_every_cover(&p, &Cut::of_rows(&p, &rows)), "{p:?} {rows:?}");
            }
            // The separated ones, at a random fractional point.
            let x: Vec<f64> = (0..ns).map(|_| rng.below(5) as f64 / 4.0).collect();
            let open = vec![true; ne];
            let mut b = Budget::new(&Config::default());
            let cuts = odd_cycle_cuts(&p, &x, &open, &mut HashSet::new(), 100, &mut b).unwrap();
            for c in &cuts {
                assert!(c.lhs(&x) < f64::from(c.rhs), "{c:?} is not violated at {x:?}");
                assert!(valid_for_every_cover(&p, c), "{p:?}: {c:?}");
            }
        }
    }

    #[test]
    fn the_linear_program_with_cuts_bounds_the_minimum() {
        // The five-cycle: 2.5 without cuts, 3 with its cut.
        let sets: Vec<Vec<u32>> = (0..5u32)
            .map(|t| {
                let mut l = vec![(t + 4) % 5, t];
                l.sort_unstable();
                l
            })
            .collect();
        let p = CoverInstance::new(sets, 5);
        let mut b = Budget::new(&Config::default());
        let l = lp_bound(&p, 10.0, &mut b).unwrap().expect("solved");
        assert!(l > 3.0 - 1e-6 && l < 3.0 + 1e-6, "{l}");
        // Random set systems: never above the minimum, whatever the goal.
        let mut rng = SplitMix64::new(77);
        for round in 0..200 {
            let ns = 3 + round % 11;
            let ne = 3 + (round * 3) % 15;
            let p = random_instance(&mut rng, ns, ne, 350);
            let exact = brute(&p) as f64;
            let goal = (round % 3) as f64 + exact - 1.0;
            if let Some(l) = lp_bound(&p, goal, &mut b).unwrap() {
                assert!(l <= exact + 1e-6, "{l} > {exact} on {p:?}");
            }
        }
    }
}
