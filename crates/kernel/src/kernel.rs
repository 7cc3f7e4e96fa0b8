//! Kernels: one, all, how many, and why.

use std::fmt;

use gamegraph_graph::{Graph, Vertex};

use crate::check::{VertexSet, is_kernel};
use crate::config::Budget;
use crate::local::{Label, Local, is_acyclic, retro_labels, weak_components};
use crate::richardson::kernel_without_odd_cycle;
use crate::search::Search;
use crate::stable::{max_independent, min_absorbing};
use crate::{Config, KernelError};

/// The part size up to which the α < β test is tried when a search runs long.
const BOUND_PART: usize = 2048;
/// The part size up to which the α < β test is also tried after a search found no kernel,
/// to give the theorem as the explanation when it applies.
const EXPLAIN_PART: usize = 64;
/// Search nodes spent on a part before the α < β test is tried.
const TRIAL_NODES: u64 = 2000;
/// The branch-and-bound nodes each side of the α < β test may spend.
const BOUND_NODES: u64 = 500;

/// Which argument decided the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Decided {
    /// The graph is acyclic: its unique kernel is the set of retrograde L vertices.
    Acyclic,
    /// Every vertex got a retrograde label (the graph has cycles, but no draw position): the
    /// unique kernel is the set of L vertices.
    Retrograde,
    /// No part of the draw subgraph has an odd directed cycle, so a kernel exists
    /// (Richardson) and was built without search.
    NoOddCycle,
    /// A part of the draw subgraph has α < β, so there is no kernel (thm 1.1).
    AlphaBelowBeta {
        /// The number of vertices of that part.
        part: usize,
        /// A proven upper bound on its α.
        alpha_at_most: usize,
        /// A proven lower bound on its β.
        beta_at_least: usize,
    },
    /// An exhaustive search (its node count is in [`Explanation::nodes`]).
    Search,
}

/// How an answer was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Explanation {
    /// The argument that decided.
    pub decided: Decided,
    /// Vertices labelled L (in every kernel), W (in none) and D by retrograde analysis.
    pub loss: usize,
    /// See [`Explanation::loss`].
    pub win: usize,
    /// See [`Explanation::loss`].
    pub draw: usize,
    /// Weakly connected parts of the draw subgraph, solved independently.
    pub parts: usize,
    /// Search nodes explored (decisions and backtracks).
    pub nodes: u64,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decided {
            Decided::Acyclic => f.write_str("acyclic: the unique kernel is the set of L positions")?,
            Decided::Retrograde => f.write_str(
                "retrograde labels decide every vertex: the unique kernel is the set of L positions",
            )?,
            Decided::NoOddCycle => f.write_str(
                "no odd directed cycle in the draw part: a kernel exists (Richardson), built without search",
            )?,
            Decided::AlphaBelowBeta { part, alpha_at_most, beta_at_least } => write!(
                f,
                "alpha < beta on a draw part of {part} vertices (alpha <= {alpha_at_most} < {beta_at_least} <= beta): no kernel"
            )?,
            Decided::Search => write!(f, "search: {} nodes", self.nodes)?,
        }
        write!(
            f,
            "\nretrograde labels: {} L (in every kernel), {} W (in none), {} D in {} part(s)",
            self.loss, self.win, self.draw, self.parts
        )
    }
}

/// The retrograde reduction shared by every kernel query.
///
/// Every kernel K contains every L vertex and no W vertex: by induction along the
/// retrograde derivation, a vertex without successors must be in K (nothing absorbs it),
/// a vertex with a successor in K cannot be in K (internal stability), and a vertex all of
/// whose successors are outside K must be in K (external stability). A D vertex has no L
/// successor, so its W successors never absorb it: `K ∩ D` is a kernel of the subgraph
/// induced by D, and conversely L ∪ (a kernel of that subgraph) is a kernel of the graph.
/// The weakly connected parts of the draw subgraph are independent.
struct Reduced {
    base: VertexSet,
    parts: Vec<Local>,
    explanation: Explanation,
}

fn reduce(g: &Graph) -> Reduced {
    let n = g.num_vertices();
    let labels = retro_labels(g);
    let mut base = VertexSet::repeat(false, n);
    let (mut loss, mut win, mut draw) = (0, 0, 0);
    let mut keep = vec![false; n];
    for (i, l) in labels.iter().enumerate() {
        match l {
            Label::Loss => {
                loss += 1;
                base.set(i, true);
            }
            Label::Win => win += 1,
            Label::Draw => {
                draw += 1;
                keep[i] = true;
            }
        }
    }
    let mut scratch = vec![u32::MAX; n];
    let parts: Vec<Local> =
        weak_components(g, &keep).iter().map(|c| Local::induced(g, c, &mut scratch)).collect();
    let decided = if draw > 0 {
        Decided::Search
    } else if is_acyclic(g) {
        Decided::Acyclic
    } else {
        Decided::Retrograde
    };
    let explanation = Explanation { decided, loss, win, draw, parts: parts.len(), nodes: 0 };
    Reduced { base, parts, explanation }
}

/// Tries α < β on a part with small capped searches; returns the decision when it holds.
fn alpha_below_beta(part: &Local, budget: &mut Budget) -> Result<Option<Decided>, KernelError> {
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
fn explain_none(part: &Local, budget: &mut Budget) -> Result<Decided, KernelError> {
    if part.n() <= EXPLAIN_PART
        && let Some(d) = alpha_below_beta(part, budget)?
    {
        return Ok(d);
    }
    Ok(Decided::Search)
}

fn put(set: &mut VertexSet, s: &Search) {
    let g = s.graph();
    for v in 0..g.n() {
        if s.is_in(v) {
            set.set(g.global[v].index(), true);
        }
    }
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
/// otherwise the exact search with propagation decides, branching on strongly connected
/// components from the sinks up. When the search runs past a few thousand nodes, short
/// bounded searches for α and β are tried: α < β proves there is no kernel (thm 1.1).
/// The kernel returned is always verified.
///
/// # Errors
/// [`KernelError::TimeLimit`] or [`KernelError::NodeLimit`] when `cfg`'s budget runs out.
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
/// Reference: SPEC §3; J. von Neumann and O. Morgenstern (kernels), M. Richardson (1953).
pub fn find_kernel(g: &Graph, cfg: &Config) -> Result<KernelAnswer, KernelError> {
    let Reduced { mut base, parts, mut explanation } = reduce(g);
    let mut budget = Budget::new(cfg);
    let mut searched = false;
    for part in parts {
        if let Some(k) = kernel_without_odd_cycle(&part) {
            for (v, &inside) in k.iter().enumerate() {
                if inside {
                    base.set(part.global[v].index(), true);
                }
            }
            continue;
        }
        searched = true;
        budget.check_clock()?;
        let mut s = Search::new(part);
        let found = match budget.capped(TRIAL_NODES, |b| s.next(b))? {
            Some(found) => found,
            None => {
                budget.check_clock()?;
                if let Some(d) = alpha_below_beta(s.graph(), &mut budget)? {
                    explanation.decided = d;
                    explanation.nodes = budget.nodes;
                    return Ok(KernelAnswer { kernel: None, explanation });
                }
                s.next(&mut budget)?
            }
        };
        if found {
            put(&mut base, &s);
        } else {
            explanation.decided = explain_none(s.graph(), &mut budget)?;
            explanation.nodes = budget.nodes;
            return Ok(KernelAnswer { kernel: None, explanation });
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
        return Ok(KernelAnswer { kernel: k, explanation });
    }
    Ok(KernelAnswer { kernel: Some(base), explanation })
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
/// connected parts of the draw subgraph; each part is counted by the exhaustive search
/// (when it runs long before finding a kernel, the α < β test can prove a count of zero).
///
/// # Errors
/// [`KernelError::TimeLimit`] or [`KernelError::NodeLimit`] when `cfg`'s budget runs out;
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
    let Reduced { parts, mut explanation, .. } = reduce(g);
    let mut budget = Budget::new(cfg);
    let mut count: u128 = 1;
    for part in parts {
        budget.check_clock()?;
        let mut s = Search::new(part);
        let mut here: u128 = 0;
        let trial = budget.capped(TRIAL_NODES, |b| {
            while s.next(b)? {
                here += 1;
            }
            Ok(())
        })?;
        if trial.is_none() {
            if here == 0 {
                budget.check_clock()?;
                if let Some(d) = alpha_below_beta(s.graph(), &mut budget)? {
                    explanation.decided = d;
                    count = 0;
                    break;
                }
            }
            while s.next(&mut budget)? {
                here += 1;
            }
        }
        if here == 0 {
            explanation.decided = explain_none(s.graph(), &mut budget)?;
            count = 0;
            break;
        }
        count = count.checked_mul(here).ok_or(KernelError::CountOverflow)?;
    }
    explanation.nodes = budget.nodes;
    Ok(KernelCount { count, explanation })
}

/// An iterator over all kernels of a graph, in a deterministic order; see [`kernels`].
#[derive(Debug)]
pub struct Kernels {
    base: VertexSet,
    searches: Vec<Search>,
    budget: Budget,
    first: bool,
    finished: bool,
}

impl Kernels {
    fn new(g: &Graph, cfg: &Config) -> Kernels {
        let r = reduce(g);
        let searches = r.parts.into_iter().map(Search::new).collect();
        Kernels { base: r.base, searches, budget: Budget::new(cfg), first: true, finished: false }
    }

    /// Search nodes explored so far.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes
    }

    fn advance(&mut self) -> Result<bool, KernelError> {
        if self.first {
            self.first = false;
            for s in &mut self.searches {
                if !s.next(&mut self.budget)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let mut i = self.searches.len();
        loop {
            if i == 0 {
                return Ok(false);
            }
            i -= 1;
            if self.searches[i].next(&mut self.budget)? {
                return Ok(true);
            }
            self.searches[i].reset();
            let again = self.searches[i].next(&mut self.budget)?;
            debug_assert!(again, "a part that had a kernel has one again");
        }
    }
}

impl Iterator for Kernels {
    type Item = Result<VertexSet, KernelError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        match self.advance() {
            Ok(true) => {
                let mut set = self.base.clone();
                for s in &self.searches {
                    put(&mut set, s);
                }
                Some(Ok(set))
            }
            Ok(false) => {
                self.finished = true;
                None
            }
            Err(e) => {
                self.finished = true;
                Some(Err(e))
            }
        }
    }
}

/// All kernels of `g`, one by one, each as a [`VertexSet`]. The iterator yields an error
/// (and then stops) when `cfg`'s budget runs out.
///
/// # Complexity
/// O(n + m) to start; between two kernels, the search tree explored in between.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{kernels, members, Config};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// let mut all: Vec<_> = kernels(&g, &Config::default()).map(|k| members(&k.unwrap())).collect();
/// all.sort();
/// assert_eq!(all, vec![vec![Vertex(0)], vec![Vertex(1)]]);
/// ```
pub fn kernels(g: &Graph, cfg: &Config) -> Kernels {
    Kernels::new(g, cfg)
}

/// A stable set with its size and the search effort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StableSet {
    /// Its number of vertices (α or β).
    pub size: usize,
    /// The set itself.
    pub set: VertexSet,
    /// Branch-and-bound nodes explored.
    pub nodes: u64,
}

fn to_set(n: usize, local: &Local, ids: &[u32]) -> VertexSet {
    let mut s = VertexSet::repeat(false, n);
    for &i in ids {
        s.set(local.global[i as usize].index(), true);
    }
    s
}

/// α(G), the internal stability number, with a maximum internally stable set.
///
/// Vertices with a self-loop are never taken; arcs are taken in both directions. Vertices of
/// degree 0 and 1 are taken first, then each connected part is solved by bitset
/// branch-and-bound for a maximum clique of the complement with greedy-colouring bounds
/// (Tomita and Seki's MCQ, in San Segundo's bitset form BBMC).
///
/// # Errors
/// [`KernelError::TimeLimit`] or [`KernelError::NodeLimit`] when `cfg`'s budget runs out;
/// [`KernelError::TooLarge`] for a connected part above 32768 vertices (after reductions).
///
/// # Complexity
/// Exponential in the worst case; O(n + m + Σ p²/64) extra space for parts of p vertices.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{alpha, Config};
///
/// // A directed 5-cycle: α = 2.
/// let arcs: Vec<_> = (0..5).map(|i| (Vertex(i), Vertex((i + 1) % 5))).collect();
/// let g = Graph::from_arcs(5, &arcs).unwrap();
/// assert_eq!(alpha(&g, &Config::default()).unwrap().size, 2);
/// ```
///
/// Reference: E. Tomita, T. Seki (2003); P. San Segundo et al. (2011).
pub fn alpha(g: &Graph, cfg: &Config) -> Result<StableSet, KernelError> {
    let local = Local::whole(g);
    let n = local.n();
    let adj: Vec<Vec<u32>> = (0..n).map(|v| local.undirected(v)).collect();
    let mut budget = Budget::new(cfg);
    let f = max_independent(&adj, &local.looped, &mut budget, None)?;
    debug_assert!(f.exact);
    Ok(StableSet { size: f.set.len(), set: to_set(n, &local, &f.set), nodes: budget.nodes })
}

/// β(G), the external stability number, with a minimum externally stable set (every vertex
/// outside it has an arc into it).
///
/// Each weakly connected part is a set cover (a vertex covers itself and its predecessors)
/// solved by branch-and-bound: branch on the uncovered vertex with fewest usable coverers;
/// bound by the larger of "fewest gains adding up to the uncovered count" and a greedy
/// packing of uncovered vertices with pairwise disjoint coverers.
///
/// # Errors
/// [`KernelError::TimeLimit`] or [`KernelError::NodeLimit`] when `cfg`'s budget runs out;
/// [`KernelError::TooLarge`] for a weakly connected part above 32768 vertices.
///
/// # Complexity
/// Exponential in the worst case; O(n + m + Σ p²/32) extra space for parts of p vertices.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{beta, Config};
///
/// // A directed 5-cycle: β = 3.
/// let arcs: Vec<_> = (0..5).map(|i| (Vertex(i), Vertex((i + 1) % 5))).collect();
/// let g = Graph::from_arcs(5, &arcs).unwrap();
/// assert_eq!(beta(&g, &Config::default()).unwrap().size, 3);
/// ```
pub fn beta(g: &Graph, cfg: &Config) -> Result<StableSet, KernelError> {
    let local = Local::whole(g);
    let n = local.n();
    let succ: Vec<Vec<u32>> = (0..n).map(|v| local.succ(v).to_vec()).collect();
    let pred: Vec<Vec<u32>> = (0..n).map(|v| local.pred(v).to_vec()).collect();
    let mut budget = Budget::new(cfg);
    let f = min_absorbing(&succ, &pred, &mut budget, None)?;
    debug_assert!(f.exact);
    Ok(StableSet { size: f.set.len(), set: to_set(n, &local, &f.set), nodes: budget.nodes })
}

/// The sorted 1-based ids of `set`, separated by spaces (the CLI's output line).
pub fn format_set(set: &VertexSet) -> String {
    let ids: Vec<String> =
        set.iter_ones().map(|i| Vertex::from_index(i).one_based().to_string()).collect();
    ids.join(" ")
}

/// A deterministic text report of everything this crate computes about `g`: the retrograde
/// split, the number of kernels, the first `limit` kernels, α and β with witnesses. Used by
/// the fixture snapshots.
///
/// # Errors
/// As [`count_kernels`], [`alpha`] and [`beta`].
pub fn report(g: &Graph, cfg: &Config, limit: usize) -> Result<String, KernelError> {
    use fmt::Write as _;
    let mut s = String::new();
    let found = find_kernel(g, cfg)?;
    let count = count_kernels(g, cfg)?;
    let a = alpha(g, cfg)?;
    let b = beta(g, cfg)?;
    let e = found.explanation;
    let _ = writeln!(s, "vertices {}, arcs {}", g.num_vertices(), g.num_arcs());
    let _ =
        writeln!(s, "retrograde: {} L, {} W, {} D in {} part(s)", e.loss, e.win, e.draw, e.parts);
    let how = match e.decided {
        Decided::Acyclic => "acyclic".to_owned(),
        Decided::Retrograde => "retrograde labels".to_owned(),
        Decided::NoOddCycle => "no odd cycle".to_owned(),
        Decided::AlphaBelowBeta { .. } => "alpha < beta".to_owned(),
        Decided::Search => "search".to_owned(),
    };
    let _ = writeln!(s, "decided by: {how}");
    let _ = writeln!(s, "kernel: {}", found.kernel.as_ref().map_or("none".to_owned(), format_set));
    let _ = writeln!(s, "kernels: {}", count.count);
    for k in kernels(g, cfg).take(limit) {
        let _ = writeln!(s, "  {}", format_set(&k?));
    }
    let _ = writeln!(s, "alpha: {}: {}", a.size, format_set(&a.set));
    let _ = writeln!(s, "beta: {}: {}", b.size, format_set(&b.set));
    Ok(s)
}
