//! One kernel, or how many.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use gamegraph_graph::Graph;

use crate::check::{VertexSet, is_kernel};
use crate::clique::max_independent;
use crate::config::Budget;
use crate::cover::min_absorbing;
use crate::explain::{Decided, Explanation};
use crate::induced::Subgraph;
use crate::kernel::enumerate::Kernels;
use crate::kernel::prove::refute_part;
use crate::kernel::retrograde::{Reduced, put, reduce};
use crate::kernel::richardson::kernel_without_odd_cycle;
use crate::kernel::sat_encoding::{SatKernel, kernel_by_sat};
use crate::kernel::search::Search;
use crate::proof::DratProof;
use crate::sat::Options;
use crate::{Config, KernelError};

/// The part size up to which the α < β test is tried when a search runs long.
const BOUND_PART: usize = 2048;
/// The part size up to which the α < β test is also tried after a search found no kernel,
/// to give the theorem as the explanation when it applies.
const EXPLAIN_PART: usize = 64;
/// The part size from which a part is decided by the SAT solver instead of the search
/// (which keeps the α < β explanation for the parts it decides).
const SAT_PART: usize = 128;
/// Parts with at least this many arcs per vertex stay with the search, whatever their size:
/// there its propagation decides faster than the SAT solver's clauses (on random digraphs
/// of 200 and 300 vertices and out-degree 16, 0.17 s against 0.9 s and 3.6 s against more
/// than 20 s; even at out-degree 8).
const SAT_MAX_DEGREE: usize = 8;
/// Parts of at most this many vertices with arcs per vertex in [`MIXED_DEGREE`] are given
/// to the SAT solver and the search at once (see [`kernel_by_both`]): on random digraphs of
/// these densities either may be the faster by a factor of ten, and the search's nodes cost
/// time proportional to the part's size.
const MIXED_PART: usize = 2048;
/// The arcs per vertex (from, below) of the parts given to both.
const MIXED_DEGREE: (usize, usize) = (6, 9);
/// Search nodes or solver conflicts each of the two runs before it looks at the other.
const SLICE: u64 = 64;
/// What a solver conflict and a search node count for when the two are compared (and, on
/// one thread, how the two take turns): on these parts a conflict takes several times the
/// time of a node.
const COST: [u64; 2] = [8, 1];
/// Search nodes spent on a part before the α < β test is tried.
const TRIAL_NODES: u64 = 2000;
/// Search nodes a count spends on a part of the SAT solver's size before asking it whether
/// the part has a kernel at all.
const SAT_TRIAL_NODES: u64 = 2000;
/// The branch-and-bound nodes each side of the α < β test may spend.
const BOUND_NODES: u64 = 500;

/// Tries α < β on a part with small capped searches; returns the decision when it holds.
fn alpha_below_beta(part: &Subgraph, budget: &mut Budget) -> Result<Option<Decided>, KernelError> {
    let n = part.n();
    if n > BOUND_PART {
        return Ok(None);
    }
    let adj: Vec<Vec<u32>> = (0..n).map(|v| part.undirected(v)).collect();
    let a = max_independent(&adj, &part.looped, budget, Some(BOUND_NODES))?;
    let succ: Vec<Vec<u32>> = (0..n).map(|v| part.succ(v).to_vec()).collect();
    let pred: Vec<Vec<u32>> = (0..n).map(|v| part.pred(v).to_vec()).collect();
    let b = min_absorbing(&succ, &pred, budget, Some(BOUND_NODES))?;
    Ok((a.bound < b.bound).then_some(Decided::AlphaBelowBeta {
        part: n,
        alpha_at_most: a.bound,
        beta_at_least: b.bound,
    }))
}

/// The explanation of a part without kernel: α < β when it holds and the part is small
/// enough to check it, else the search.
fn explain_none(part: &Subgraph, budget: &mut Budget) -> Result<Decided, KernelError> {
    if part.n() <= EXPLAIN_PART
        && let Some(d) = alpha_below_beta(part, budget)?
    {
        return Ok(d);
    }
    Ok(Decided::Search)
}

/// A kernel of `g`, or `None` when it has none, with the argument that decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelAnswer {
    /// The kernel found (sorted membership bits), `None` when there is none.
    pub kernel: Option<VertexSet>,
    /// How it was decided.
    pub explanation: Explanation,
}

/// Finds one kernel of `g`, or proves there is none.
///
/// The retrograde labels fix the L vertices (in every kernel) and W vertices (in none); the
/// draw subgraph is split into weakly connected parts. For each part: if it has no odd
/// directed cycle a kernel is built without search (Richardson, see the crate docs);
/// otherwise a part of fewer than 128 vertices is decided by the exact search with
/// propagation, branching on strongly connected components from the sinks up; a part of 128
/// to 2048 vertices and 6 to 9 arcs per vertex by that search and a CDCL SAT solver on the
/// kernel conditions side by side (the first to decide ends the other), and the other parts
/// of fewer than 8 arcs per vertex by the SAT solver alone, the rest by the search. The SAT
/// solver runs after removing the vertices no other vertex of the part depends on and
/// merging equivalent literals (a vertex with a single successor u is "not u"). When the
/// search alone runs past a few thousand nodes, short bounded
/// searches for α and β are tried: α < β proves there is no kernel, since a kernel K is
/// internally and externally stable and so β ≤ |K| ≤ α (Berge, Graphs and Hypergraphs).
/// The kernel returned is always verified.
///
/// With more than one thread in the current rayon pool, as many SAT solvers of different
/// seeds race on a part given to the solver alone: a proof that there is no kernel from any
/// of them ends the race, and a kernel is always the one the first solver finds; the solver
/// and the search side by side run as two tasks of the pool, or alternately on one
/// thread, and of two kernels the one found in fewer nodes of its own wins. So the answer (and the kernel) is
/// the same for any number of threads.
///
/// # Errors
/// [`KernelError::Limit`] when a limit of `cfg` is reached.
///
/// # Complexity
/// O(n + m) when the retrograde labels or Richardson's construction decide; exponential in
/// the size of the draw part in the worst case (the problem is NP-complete). O(n + m) extra
/// space.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{find_kernel, members, Config};
///
/// // A directed triangle has no kernel; a 2-cycle has two.
/// let tri = Graph::from_arcs(3, &[(0, 1), (1, 2), (2, 0)].map(|(u, v)| (Vertex(u), Vertex(v)))).unwrap();
/// assert_eq!(find_kernel(&tri, &Config::default()).unwrap().kernel, None);
/// let two = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// let k = find_kernel(&two, &Config::default()).unwrap().kernel.unwrap();
/// assert_eq!(members(&k).len(), 1);
/// ```
///
/// Reference: J. von Neumann and O. Morgenstern, Theory of Games and Economic Behavior
/// (1944), kernels as solutions; M. Richardson, Solutions of irreflexive relations (1953);
/// V. Chvátal, On the computational complexity of finding a kernel (1973).
pub fn find_kernel(g: &Graph, cfg: &Config) -> Result<KernelAnswer, KernelError> {
    find_kernel_from(g, cfg, Route::DEFAULT)
}

/// A kernel or its absence, with a proof of the absence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvedAnswer {
    /// The answer, as [`find_kernel`] gives it.
    pub answer: KernelAnswer,
    /// When there is no kernel: a DRAT refutation of the kernel conditions of the whole
    /// graph ([`kernel_cnf`](crate::kernel_cnf)), which
    /// [`check_no_kernel`](crate::check_no_kernel) or any DRAT checker can check. `None`
    /// when there is a kernel (the kernel is its own certificate: [`is_kernel`]).
    pub proof: Option<DratProof>,
}

/// [`find_kernel`], with a proof when there is no kernel.
///
/// The answer is decided as [`find_kernel`] decides it, whichever argument decides. When
/// there is no kernel, the draw part that has none is refuted once more by the CDCL
/// solver, on the part's kernel conditions without the formula simplifications (sources
/// removed, which only leaves clauses out), with every learnt clause written as a lemma and
/// every deleted one as a deletion, in the variables of the whole graph, and the empty
/// clause last. This is a DRAT proof against the kernel conditions of the whole graph: the
/// retrograde reduction to the draw parts is unit propagation of those conditions, so a
/// checker derives it by itself, and a refutation of one part's conditions refutes them
/// all.
///
/// # Errors
/// As [`find_kernel`]; the refutation counts against the same budget.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{Config, check_no_kernel, find_kernel_with_proof};
///
/// let tri = Graph::from_arcs(3, &[(0, 1), (1, 2), (2, 0)].map(|(u, v)| (Vertex(u), Vertex(v)))).unwrap();
/// let proved = find_kernel_with_proof(&tri, &Config::default()).unwrap();
/// assert_eq!(proved.answer.kernel, None);
/// let proof = proved.proof.unwrap();
/// assert!(check_no_kernel(&tri, &proof).is_ok());
/// ```
pub fn find_kernel_with_proof(g: &Graph, cfg: &Config) -> Result<ProvedAnswer, KernelError> {
    find_kernel_with_proof_from(g, cfg, Route::DEFAULT)
}

/// Which method decides a part of `n` vertices and `m` arcs with an odd cycle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Route {
    /// Parts of fewer vertices go to the search.
    pub(crate) min_part: usize,
    /// Parts of at most this many vertices with arcs per vertex in `mixed_degree` go to
    /// the SAT solver and the search at once.
    pub(crate) mixed_part: usize,
    /// Arcs per vertex (from, below) of the parts given to both.
    pub(crate) mixed_degree: (usize, usize),
    /// The other parts with fewer arcs per vertex than this go to the SAT solver, the rest
    /// to the search.
    pub(crate) sat_degree: usize,
}

/// How a part is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Search,
    Sat,
    Both,
}

impl Route {
    const DEFAULT: Route = Route {
        min_part: SAT_PART,
        mixed_part: MIXED_PART,
        mixed_degree: MIXED_DEGREE,
        sat_degree: SAT_MAX_DEGREE,
    };

    fn method(&self, n: usize, m: usize) -> Method {
        let (lo, hi) = self.mixed_degree;
        if n < self.min_part {
            Method::Search
        } else if n <= self.mixed_part && m >= lo.saturating_mul(n) && m < hi.saturating_mul(n) {
            Method::Both
        } else if m < self.sat_degree.saturating_mul(n) {
            Method::Sat
        } else {
            Method::Search
        }
    }
}

/// One of the two methods of [`kernel_by_both`], run in slices.
enum Runner {
    Sat(Box<SatKernel>),
    Search(Box<Search>),
}

impl Runner {
    /// Runs [`SLICE`] more nodes: `None` when stopped there, else the kernel's membership
    /// or `None` when there is none.
    fn step(
        &mut self,
        part: &Subgraph,
        b: &mut Budget,
    ) -> Result<Option<Option<Vec<bool>>>, KernelError> {
        b.capped(SLICE, |b| match self {
            Runner::Sat(s) => s.run(part, b, None),
            Runner::Search(s) => {
                Ok(s.next(b)?.then(|| (0..s.graph().n()).map(|v| s.is_in(v)).collect()))
            }
        })
    }
}

/// What one runner of [`kernel_by_both`] ended with.
enum Ended {
    /// A kernel, after so many weighted nodes of its own.
    Kernel(u64, Vec<bool>),
    /// A proof that there is none.
    None,
    /// Stopped: the other found a kernel first, or proved there is none.
    Beaten,
}

/// Decides a part by the SAT solver (runner 0) and the exact search (runner 1) at once,
/// each in slices of [`SLICE`] nodes (conflicts for the solver) of its own budget. A
/// proof of absence from either decides. Of two kernels, the one found after fewer nodes
/// of its runner (weighted by [`COST`]) wins, runner 0 on a tie, and a runner stops once
/// its own weighted nodes pass the winner's: so the kernel returned is the same whether the
/// two run alternately on one thread or side by side on two, whatever their speeds.
///
/// With one thread in the current rayon pool, that thread runs the slices, the runner
/// behind in weighted nodes taking the next one; with more, two tasks of the pool
/// (`rayon::join`) take slices the same way, each from a runner the other is not running.
/// Neither task waits for the other, so when the pool runs them one after the other the
/// first alternates the two runners to the end and the second finds nothing left.
fn kernel_by_both(part: &Subgraph, budget: &mut Budget) -> Result<Option<Vec<bool>>, KernelError> {
    let sat = Runner::Sat(Box::new(SatKernel::new(part, Options::default(), budget)?));
    let search = Runner::Search(Box::new(Search::new(part.clone(), budget)?));
    let race = Race {
        lanes: [Mutex::new(Lane::new(sat, budget)), Mutex::new(Lane::new(search, budget))],
        weighted: [AtomicU64::new(0), AtomicU64::new(0)],
        best: Mutex::new(None),
        absent: AtomicBool::new(false),
    };
    if rayon::current_num_threads() == 1 {
        race.take_slices(part);
    } else {
        rayon::join(|| race.take_slices(part), || race.take_slices(part));
    }
    let mut winner: Option<(u64, Vec<bool>)> = None;
    let mut failed = None;
    for lane in race.lanes {
        let lane = lane.into_inner().expect("no panic holding it");
        budget.nodes += lane.budget.nodes;
        match lane.ended.expect("every runner ends") {
            Ok(Ended::None) => return Ok(None),
            Ok(Ended::Kernel(nodes, k)) => {
                if winner.as_ref().is_none_or(|(w, _)| nodes < *w) {
                    winner = Some((nodes, k));
                }
            }
            Ok(Ended::Beaten) => {}
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    if let Some(e) = failed
        && !race.absent.load(Ordering::Relaxed)
    {
        budget.check_clock()?;
        return Err(e);
    }
    Ok(Some(winner.expect("a runner that was not beaten decided").1))
}

/// One runner of [`kernel_by_both`] with its budget, and how it ended.
struct Lane {
    runner: Runner,
    budget: Budget,
    ended: Option<Result<Ended, KernelError>>,
}

impl Lane {
    fn new(runner: Runner, budget: &Budget) -> Lane {
        Lane { runner, budget: budget.fork(), ended: None }
    }
}

/// What the two runners of [`kernel_by_both`] share: the runners, their weighted nodes so
/// far, the best kernel so far as (weighted nodes, runner), and whether absence is proved.
struct Race {
    lanes: [Mutex<Lane>; 2],
    weighted: [AtomicU64; 2],
    best: Mutex<Option<(u64, usize)>>,
    absent: AtomicBool,
}

impl Race {
    /// Whether runner `i`, after `nodes` weighted nodes, can no longer win.
    fn beaten(&self, nodes: u64, i: usize) -> bool {
        self.absent.load(Ordering::Relaxed)
            || self.best.lock().expect("no panic holding it").is_some_and(|w| (nodes, i) > w)
    }

    /// Records the answer `r` of runner `i` after `nodes` weighted nodes.
    fn finish(&self, r: Option<Vec<bool>>, nodes: u64, i: usize) -> Ended {
        match r {
            None => {
                self.absent.store(true, Ordering::Relaxed);
                Ended::None
            }
            Some(k) => {
                let mut w = self.best.lock().expect("no panic holding it");
                if w.is_none_or(|w| (nodes, i) < w) {
                    *w = Some((nodes, i));
                }
                Ended::Kernel(nodes, k)
            }
        }
    }

    /// Runs slices until no runner is left that another thread is not running: each time
    /// of the runners not ended and free, the one behind in weighted nodes (runner 0 on a
    /// tie). A runner is free again between two of its slices, so this never waits.
    fn take_slices(&self, part: &Subgraph) {
        loop {
            let mut order = [0, 1];
            order.sort_by_key(|&i| (self.weighted[i].load(Ordering::Relaxed), i));
            let Some(mut lane) = order
                .into_iter()
                .filter_map(|i| self.lanes[i].try_lock().ok().map(|l| (i, l)))
                .find(|(_, l)| l.ended.is_none())
            else {
                return;
            };
            let i = lane.0;
            let Lane { runner, budget, ended } = &mut *lane.1;
            let nodes = budget.nodes * COST[i];
            *ended = if self.beaten(nodes, i) {
                Some(Ok(Ended::Beaten))
            } else {
                match runner.step(part, budget) {
                    Ok(None) => None,
                    Ok(Some(r)) => Some(Ok(self.finish(r, budget.nodes * COST[i], i))),
                    Err(e) => Some(Err(e)),
                }
            };
            self.weighted[i].store(budget.nodes * COST[i], Ordering::Relaxed);
        }
    }
}

/// [`find_kernel`], with the parts routed by `route`.
pub(crate) fn find_kernel_from(
    g: &Graph,
    cfg: &Config,
    route: Route,
) -> Result<KernelAnswer, KernelError> {
    Ok(decide(g, cfg, route, &mut Budget::new(cfg))?.0)
}

/// [`find_kernel_with_proof`], with the parts routed by `route`.
pub(crate) fn find_kernel_with_proof_from(
    g: &Graph,
    cfg: &Config,
    route: Route,
) -> Result<ProvedAnswer, KernelError> {
    let mut budget = Budget::new(cfg);
    let (answer, part) = decide(g, cfg, route, &mut budget)?;
    let proof = part.map(|p| refute_part(&p, &mut budget)).transpose()?;
    Ok(ProvedAnswer { answer, proof })
}

/// [`find_kernel_from`] on `budget`; when there is no kernel, also the draw part that has
/// none.
fn decide(
    g: &Graph,
    cfg: &Config,
    route: Route,
    budget: &mut Budget,
) -> Result<(KernelAnswer, Option<Subgraph>), KernelError> {
    let Reduced { mut base, parts, mut explanation } = reduce(g, budget)?;
    let mut searched = false;
    for part in parts {
        if let Some(k) = kernel_without_odd_cycle(&part, budget)? {
            for (v, &inside) in k.iter().enumerate() {
                if inside {
                    base.set(part.global[v].index(), true);
                }
            }
            continue;
        }
        searched = true;
        let method = match route.method(part.n(), part.m()) {
            // Two runners side by side would give a kernel that depends on the node limit.
            Method::Both if !budget.unlimited_nodes() => Method::Sat,
            m => m,
        };
        if method != Method::Search {
            let found = if method == Method::Both {
                kernel_by_both(&part, budget)?
            } else {
                kernel_by_sat(&part, budget)?.0
            };
            match found {
                Some(inside) => {
                    for (v, &x) in inside.iter().enumerate() {
                        if x {
                            base.set(part.global[v].index(), true);
                        }
                    }
                    continue;
                }
                None => {
                    explanation.decided = Decided::Search;
                    explanation.nodes = budget.nodes;
                    return Ok((KernelAnswer { kernel: None, explanation }, Some(part)));
                }
            }
        }
        let mut s = Search::new(part, budget)?;
        let found = match budget.capped(TRIAL_NODES, |b| s.next(b))? {
            Some(found) => found,
            None => {
                if let Some(d) = alpha_below_beta(s.graph(), budget)? {
                    explanation.decided = d;
                    explanation.nodes = budget.nodes;
                    let part = s.graph().clone();
                    return Ok((KernelAnswer { kernel: None, explanation }, Some(part)));
                }
                s.next(budget)?
            }
        };
        if found {
            put(&mut base, &s);
        } else {
            explanation.decided = explain_none(s.graph(), budget)?;
            explanation.nodes = budget.nodes;
            let part = s.graph().clone();
            return Ok((KernelAnswer { kernel: None, explanation }, Some(part)));
        }
    }
    if explanation.draw > 0 {
        explanation.decided = if searched { Decided::Search } else { Decided::NoOddCycle };
    }
    explanation.nodes = budget.nodes;
    debug_assert_eq!(is_kernel(g, &base), Ok(Ok(())));
    if is_kernel(g, &base) != Ok(Ok(())) {
        // Unreachable if the constructions above are right; never return an unchecked set.
        let k = Kernels::new(g, cfg).next().transpose()?;
        let whole = if k.is_none() { Some(Subgraph::whole(g, budget)?) } else { None };
        return Ok((KernelAnswer { kernel: k, explanation }, whole));
    }
    Ok((KernelAnswer { kernel: Some(base), explanation }, None))
}

/// The number of kernels of `g`, with the argument that decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelCount {
    /// How many kernels `g` has.
    pub count: u128,
    /// How it was decided.
    pub explanation: Explanation,
}

/// Counts the kernels of `g`.
///
/// After the retrograde reduction the count is the product of the counts of the weakly
/// connected parts of the draw subgraph; each part is counted by the exhaustive search.
/// When that search runs a few thousand nodes without finding a kernel, a part of 128
/// vertices or more and fewer than 8 arcs per vertex is given to the SAT solver, to decide
/// whether it has a kernel at all (a count of zero at once when it has none); on the other parts the α < β
/// test can prove a count of zero.
///
/// # Errors
/// [`KernelError::Limit`] when a limit of `cfg` is reached;
/// [`KernelError::CountOverflow`] above `u128::MAX`.
///
/// # Complexity
/// O(n + m) when the retrograde labels decide every vertex; otherwise exponential in the
/// worst case, proportional to the search tree of each part. O(n + m) extra space.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{count_kernels, Config};
///
/// // Two disjoint 2-cycles: 2 × 2 kernels.
/// let arcs = [(0, 1), (1, 0), (2, 3), (3, 2)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(4, &arcs).unwrap();
/// assert_eq!(count_kernels(&g, &Config::default()).unwrap().count, 4);
/// ```
pub fn count_kernels(g: &Graph, cfg: &Config) -> Result<KernelCount, KernelError> {
    count_kernels_from(
        g,
        cfg,
        SatParts { min_part: SAT_PART, max_degree: SAT_MAX_DEGREE },
        SAT_TRIAL_NODES,
    )
}

/// [`count_kernels`], with the SAT solver asked whether a kernel exists on the parts `sat`
/// names on which `sat_trial` search nodes found none.
pub(crate) fn count_kernels_from(
    g: &Graph,
    cfg: &Config,
    sat: SatParts,
    sat_trial: u64,
) -> Result<KernelCount, KernelError> {
    let mut budget = Budget::new(cfg);
    let Reduced { parts, mut explanation, .. } = reduce(g, &mut budget)?;
    let mut count: u128 = 1;
    for part in parts {
        let by_sat = part.n() >= sat.min_part && part.m() < sat.max_degree.saturating_mul(part.n());
        match count_part(part, by_sat, sat_trial, &mut budget)? {
            PartKernels::Count(here) => {
                count = count.checked_mul(here).ok_or(KernelError::CountOverflow)?;
            }
            PartKernels::None(d) => {
                explanation.decided = d;
                count = 0;
                break;
            }
        }
    }
    explanation.nodes = budget.nodes;
    Ok(KernelCount { count, explanation })
}

/// Which parts a count asks the SAT solver about: those of at least `min_part` vertices
/// and fewer than `max_degree` arcs per vertex.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SatParts {
    pub(crate) min_part: usize,
    pub(crate) max_degree: usize,
}

/// The kernels of one draw part: how many, or the argument that there is none.
enum PartKernels {
    Count(u128),
    None(Decided),
}

/// Counts the kernels of the draw part `part`: a trial search first, beside the SAT solver
/// (a second task of the rayon pool) when `by_sat` holds and the pool has a second thread;
/// when the trial finds none, the solver (`by_sat`) or α < β may show there is none, else
/// the search goes on to the end.
fn count_part(
    part: Subgraph,
    by_sat: bool,
    sat_trial: u64,
    budget: &mut Budget,
) -> Result<PartKernels, KernelError> {
    // With a second thread, the solver decides whether there is a kernel during the
    // trial search; its answer is read only when that search found none.
    let beside = (by_sat && rayon::current_num_threads() > 1 && budget.unlimited_nodes())
        .then(|| part.clone());
    let mut s = Search::new(part, budget)?;
    let mut here: u128 = 0;
    let stop = AtomicBool::new(false);
    // The trial runs on this thread and the solver as a task the pool may give another;
    // the solver never waits for the trial, and when the pool runs it only after the trial,
    // the stop is already set unless its answer is needed.
    let solver_budget = beside.as_ref().map(|_| budget.fork());
    let solver = |(p, mut b): (&Subgraph, Budget)| {
        let r = SatKernel::new(p, Options::default(), &mut b)
            .and_then(|mut k| k.run(p, &mut b, Some(&stop)));
        (r.map(|k| k.is_none()), b.nodes)
    };
    let cap = if by_sat { sat_trial } else { TRIAL_NODES };
    let mut trial = || {
        let trial = budget.capped(cap, |b| {
            while s.next(b)? {
                here += 1;
            }
            Ok(())
        });
        if !matches!(trial, Ok(None)) || here > 0 {
            stop.store(true, Ordering::Relaxed);
        }
        trial
    };
    let (trial, solver) = match beside.as_ref().zip(solver_budget) {
        Some(beside) => {
            let (trial, solver) = rayon::join(trial, || solver(beside));
            (trial, Some(solver))
        }
        None => (trial(), None),
    };
    let trial = trial?;
    let mut absent = None;
    if let Some((r, nodes)) = solver {
        budget.nodes += nodes;
        if trial.is_none() && here == 0 {
            match r {
                Ok(a) => absent = Some(a),
                Err(e) => {
                    budget.check_clock()?;
                    return Err(e);
                }
            }
        }
    }
    if trial.is_none() {
        if here == 0 {
            if by_sat {
                let none = match absent {
                    Some(a) => a,
                    None => kernel_by_sat(s.graph(), budget)?.0.is_none(),
                };
                if none {
                    return Ok(PartKernels::None(Decided::Search));
                }
            } else if let Some(d) = alpha_below_beta(s.graph(), budget)? {
                return Ok(PartKernels::None(d));
            }
        }
        while s.next(budget)? {
            here += 1;
        }
    }
    if here == 0 {
        return Ok(PartKernels::None(explain_none(s.graph(), budget)?));
    }
    Ok(PartKernels::Count(here))
}

/// What the tests of the search and of the proofs share: the routes they force, and the
/// brute-force answer they compare with.
#[cfg(test)]
pub(crate) mod test_routes {
    use gamegraph_graph::Graph;

    use super::Route;

    /// Whether `g` has a kernel, by trying every subset of its (at most 31) vertices.
    pub(crate) fn has_kernel_brute(g: &Graph) -> bool {
        let n = g.num_vertices();
        (0..1u32 << n).any(|m| {
            g.vertices().all(|v| {
                let inside = m >> v.index() & 1 == 1;
                let any = g.successors(v).iter().any(|u| m >> u.index() & 1 == 1);
                inside != any
            })
        })
    }

    /// Every part to the SAT solver.
    pub(crate) const SAT: Route =
        Route { min_part: 1, mixed_part: 0, mixed_degree: (0, 0), sat_degree: usize::MAX };
    /// Every part to the SAT solver and the search at once.
    pub(crate) const BOTH: Route = Route {
        min_part: 1,
        mixed_part: usize::MAX,
        mixed_degree: (0, usize::MAX),
        sat_degree: usize::MAX,
    };
    /// Every part to the search.
    pub(crate) const SEARCH: Route = Route { min_part: usize::MAX, ..Route::DEFAULT };
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamegraph_graph::Vertex;
    use gamegraph_testkit::{SplitMix64, random_dense_graph, random_graph};

    /// A feedback vertex set of `g` (every looped vertex in it), greedily: vertices without
    /// an in-arc or an out-arc among those left are dropped, then the one of largest
    /// in-degree × out-degree is taken, until none is left.
    fn feedback_set(g: &Graph) -> Vec<usize> {
        let n = g.num_vertices();
        let mut left = vec![true; n];
        let mut set = Vec::new();
        loop {
            loop {
                let drop: Vec<usize> = (0..n)
                    .filter(|&v| left[v])
                    .filter(|&v| {
                        let out = g.successors(Vertex(v as u32)).iter().any(|u| left[u.index()]);
                        let inn = g.predecessors(Vertex(v as u32)).iter().any(|u| left[u.index()]);
                        !out || !inn
                    })
                    .collect();
                if drop.is_empty() {
                    break;
                }
                for v in drop {
                    left[v] = false;
                }
            }
            let degree = |v: usize| {
                let out = g.successors(Vertex(v as u32)).iter().filter(|u| left[u.index()]);
                let inn = g.predecessors(Vertex(v as u32)).iter().filter(|u| left[u.index()]);
                out.count() * inn.count()
            };
            let Some(v) = (0..n).filter(|&v| left[v]).max_by_key(|&v| degree(v)) else {
                return set;
            };
            left[v] = false;
            set.push(v);
        }
    }

    /// Whether `g` has a kernel, by trying every subset of a feedback vertex set: the rest
    /// of the graph is acyclic, so each vertex outside the set is in the kernel exactly
    /// when none of its successors is, evaluated successors first; a subset gives a kernel
    /// when the set's own vertices satisfy the same condition. `None` when the set found
    /// has more than `max` vertices.
    fn has_kernel_by_feedback_set(g: &Graph, max: usize) -> Option<bool> {
        let n = g.num_vertices();
        let f = feedback_set(g);
        if f.len() > max {
            return None;
        }
        let mut in_f = vec![false; n];
        for &v in &f {
            in_f[v] = true;
        }
        // Successors first: depth-first post-order of the acyclic rest.
        let mut order = Vec::new();
        let mut seen = in_f.clone();
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut stack = vec![(root, 0usize)];
            while let Some((v, i)) = stack.pop() {
                let succ = g.successors(Vertex(v as u32));
                if i < succ.len() {
                    stack.push((v, i + 1));
                    let u = succ[i].index();
                    if !seen[u] {
                        seen[u] = true;
                        stack.push((u, 0));
                    }
                } else {
                    order.push(v);
                }
            }
        }
        let absorbed =
            |x: &[bool], v: usize| g.successors(Vertex(v as u32)).iter().any(|u| x[u.index()]);
        let mut x = vec![false; n];
        Some((0..1u64 << f.len()).any(|m| {
            for (i, &v) in f.iter().enumerate() {
                x[v] = m >> i & 1 == 1;
            }
            for &v in &order {
                x[v] = !absorbed(&x, v);
            }
            f.iter().all(|&v| x[v] != absorbed(&x, v))
        }))
    }

    use super::test_routes::{BOTH, SAT, SEARCH, has_kernel_brute};

    fn pools() -> Vec<rayon::ThreadPool> {
        (1..=3).map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).collect()
    }

    /// The SAT path and the SAT solver beside the search (from parts of one vertex on) on
    /// 1, 2 and 3 threads: the same answer and the same kernel on each, a kernel that passes
    /// the checker, and the existence `truth` gives. Returns whether there is a kernel.
    fn check_sat_path(g: &Graph, pools: &[rayon::ThreadPool], truth: bool, what: &str) -> bool {
        let yes = check_route(g, pools, truth, SAT, what);
        assert_eq!(check_route(g, pools, truth, BOTH, what), yes);
        yes
    }

    /// [`check_sat_path`] for one route.
    fn check_route(
        g: &Graph,
        pools: &[rayon::ThreadPool],
        truth: bool,
        route: Route,
        what: &str,
    ) -> bool {
        let cfg = Config::default();
        let a = pools[0].install(|| find_kernel_from(g, &cfg, route)).unwrap();
        assert_eq!(a.kernel.is_some(), truth, "{what}");
        if let Some(k) = &a.kernel {
            assert_eq!(is_kernel(g, k), Ok(Ok(())), "{what}");
        }
        for (t, pool) in pools.iter().enumerate().skip(1) {
            let b = pool.install(|| find_kernel_from(g, &cfg, route)).unwrap();
            assert_eq!(b.kernel, a.kernel, "{what}, {} threads", t + 1);
        }
        a.kernel.is_some()
    }

    fn count_brute(g: &Graph) -> u128 {
        let n = g.num_vertices();
        (0..1u32 << n)
            .filter(|m| {
                g.vertices().all(|v| {
                    let inside = m >> v.index() & 1 == 1;
                    let any = g.successors(v).iter().any(|u| m >> u.index() & 1 == 1);
                    inside != any
                })
            })
            .count() as u128
    }

    /// Counts that ask the SAT solver first (from parts of one vertex on, after a trial
    /// search of 0 to 20 nodes) agree with all subsets and with the plain count, on 1, 2
    /// and 3 threads.
    #[test]
    fn counts_that_ask_the_sat_solver_first_agree_with_all_subsets() {
        let pools = pools();
        let mut rng = SplitMix64::new(4711);
        let cfg = Config::default();
        let (mut zero, mut some) = (0, 0);
        for round in 0..600 {
            let n = 2 + round % 13;
            let g = random_dense_graph(&mut rng, n, [100, 200, 300][round % 3]);
            let truth = count_brute(&g);
            assert_eq!(count_kernels(&g, &cfg).unwrap().count, truth, "round {round}");
            for pool in &pools {
                for trial in [0, 1, 20] {
                    let c = pool.install(|| {
                        count_kernels_from(
                            &g,
                            &cfg,
                            SatParts { min_part: 1, max_degree: usize::MAX },
                            trial,
                        )
                    });
                    assert_eq!(c.unwrap().count, truth, "round {round}, trial {trial}");
                }
            }
            if truth == 0 {
                zero += 1;
            } else {
                some += 1;
            }
        }
        assert!(zero > 100 && some > 100, "{zero} without a kernel, {some} with");
    }

    /// Every digraph on up to 3 vertices (self-loops included) and every loopless one on 4.
    #[test]
    fn the_sat_path_agrees_with_all_subsets_on_every_small_graph() {
        let pools = pools();
        let (mut yes, mut no) = (0, 0);
        for n in 0..=4u32 {
            let pairs: Vec<(u32, u32)> = (0..n)
                .flat_map(|u| (0..n).map(move |v| (u, v)))
                .filter(|&(u, v)| n < 4 || u != v)
                .collect();
            for m in 0..1u32 << pairs.len() {
                let arcs: Vec<(u32, u32)> = pairs
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| m >> i & 1 == 1)
                    .map(|(_, &a)| a)
                    .collect();
                let g = gamegraph_testkit::graph(n as usize, &arcs);
                let what = format!("{n} vertices, arcs {arcs:?}");
                if check_sat_path(&g, &pools, has_kernel_brute(&g), &what) {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 2000 && no > 300, "{yes} with a kernel, {no} without");
    }

    /// Random dense digraphs of up to 16 vertices against all subsets.
    #[test]
    fn the_sat_path_agrees_with_all_subsets_on_random_graphs() {
        let pools = pools();
        let mut rng = SplitMix64::new(2718);
        let (mut yes, mut no) = (0, 0);
        for round in 0..600 {
            let n = 2 + round % 15;
            let g = random_dense_graph(&mut rng, n, [100, 200, 300][round % 3]);
            let truth = has_kernel_brute(&g);
            assert_eq!(has_kernel_by_feedback_set(&g, 16), Some(truth), "round {round}");
            if check_sat_path(&g, &pools, truth, &format!("round {round}")) {
                yes += 1;
            } else {
                no += 1;
            }
            let cfg = Config::default();
            assert_eq!(find_kernel(&g, &cfg).unwrap().kernel.is_some(), truth);
        }
        assert!(yes > 100 && no > 100, "{yes} with a kernel, {no} without");
    }

    /// Random digraphs of 100 to 240 vertices and 5 to 9 arcs per vertex, where the solver
    /// and the search each run many slices: the same kernel on 1, 2 and 3 threads, and the
    /// existence the search alone finds.
    #[test]
    fn the_solver_beside_the_search_gives_the_same_kernel_on_any_number_of_threads() {
        let pools = pools();
        let mut rng = SplitMix64::new(8128);
        let (mut yes, mut no, mut long) = (0, 0, 0);
        for round in 0..24 {
            let n = 100 + 20 * (round % 8);
            let g = random_graph(&mut rng, n, n * (5 + round % 5), false);
            let cfg = Config::default();
            let search = find_kernel_from(&g, &cfg, SEARCH).unwrap();
            let what = format!("round {round}");
            if check_route(&g, &pools, search.kernel.is_some(), BOTH, &what) {
                yes += 1;
            } else {
                no += 1;
            }
            long += usize::from(search.explanation.nodes > 4 * SLICE);
        }
        assert!(yes > 3 && no > 3 && long > 6, "{yes} with a kernel, {no} without, {long} long");
    }

    /// Random sparse digraphs of 17 to 40 vertices against every subset of a feedback
    /// vertex set, and against the exact search of `find_kernel`.
    #[test]
    fn the_sat_path_agrees_with_feedback_set_enumeration_up_to_40_vertices() {
        let pools = pools();
        let mut rng = SplitMix64::new(1618);
        let (mut yes, mut no, mut skipped) = (0, 0, 0);
        for round in 0..400 {
            let n = 17 + round % 24;
            let m = n + rng.below(n as u64) as usize;
            let g = random_graph(&mut rng, n, m, false);
            let Some(truth) = has_kernel_by_feedback_set(&g, 14) else {
                skipped += 1;
                continue;
            };
            if check_sat_path(&g, &pools, truth, &format!("round {round}")) {
                yes += 1;
            } else {
                no += 1;
            }
            let search = find_kernel_from(&g, &Config::default(), SEARCH).unwrap();
            assert_eq!(search.kernel.is_some(), truth, "round {round}");
        }
        assert!(yes > 60 && no > 60, "{yes} with a kernel, {no} without, {skipped} skipped");
    }
}
