//! The stability numbers α and β, with witnesses.

use gamegraph_graph::{Graph, Limit};

use crate::check::{VertexSet, externally_stable, internally_stable};
use crate::clique::max_independent;
use crate::config::Budget;
use crate::cover::min_absorbing;
use crate::induced::Subgraph;
use crate::{Config, KernelError};

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

fn to_set(n: usize, local: &Subgraph, ids: &[u32]) -> VertexSet {
    let mut s = VertexSet::repeat(false, n);
    for &i in ids {
        s.set(local.global[i as usize].index(), true);
    }
    s
}

/// α(G), the internal stability number, with a maximum internally stable set.
///
/// Vertices with a self-loop are never taken; arcs are taken in both directions. Vertices of
/// degree 0 and 1 are taken first, then each connected part is solved on its own:
/// - a part of at most 256 vertices, or with average degree at least a twentieth of its
///   size, as a maximum clique of the complement: bitset branch-and-bound with greedy
///   colouring bounds in a degeneracy order (Tomita and Seki's MCQ and MCS, in San Segundo's
///   bitset form BBMC), re-colouring, and MaxSAT-style conflict sets found by unit
///   propagation over the colour classes (Li and Quan's MaxCLQ), started from a solution of
///   iterated local search with (1,2)-swaps (Andrade, Resende and Werneck 2012) on parts
///   above 64 vertices; its top-level branches run in parallel on the current rayon pool,
///   sharing the incumbent size;
/// - a larger sparse part by branch-and-reduce (Akiba and Iwata 2016): degree-0, 1 and 2
///   rules with folding, domination, branching on a vertex of largest degree with mirrors,
///   a greedy clique-cover bound, and connected parts solved separately at every node, the
///   small ones by the clique search.
///
/// The size never depends on the number of threads, and neither does the set: after the
/// search, the witness is re-derived by a search with the optimum minus one as a fixed
/// incumbent in the first top-level branch that holds an optimum.
///
/// # Errors
/// [`KernelError::AlphaLimit`] when the deadline passes (or the stop flag is set) during
/// the search, with the best set found and a proven upper bound (a plain
/// [`KernelError::Limit`] when it does before the search starts, or the node budget runs
/// out);
/// [`KernelError::TooLarge`] for a connected part above 32768 vertices (after reductions);
/// [`KernelError::WitnessRejected`] if the set found fails its independent check (never expected).
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
/// Reference: E. Tomita, T. Seki (2003); E. Tomita et al., MCS (2010); P. San Segundo et al.
/// (2011, 2015); C.-M. Li, Z. Quan, MaxCLQ (2010); D. V. Andrade, M. G. C. Resende,
/// R. F. Werneck (2012); T. Akiba, Y. Iwata (2016).
pub fn alpha(g: &Graph, cfg: &Config) -> Result<StableSet, KernelError> {
    let mut budget = Budget::new(cfg);
    budget.check_clock()?;
    let local = Subgraph::whole(g, &mut budget)?;
    let n = local.n();
    let mut adj: Vec<Vec<u32>> = Vec::with_capacity(n);
    for v in 0..n {
        budget.spend(1 + 2 * (local.succ(v).len() + local.pred(v).len()) as u64)?;
        adj.push(local.undirected(v));
    }
    let f = max_independent(&adj, &local.looped, &mut budget, None)?;
    let set = to_set(n, &local, &f.set);
    // The witness is checked against the definition before it is returned.
    if let Err(violation) = internally_stable(g, &set)? {
        return Err(KernelError::WitnessRejected { what: "alpha", violation });
    }
    let best = StableSet { size: f.set.len(), set, nodes: budget.nodes };
    if !f.exact {
        // Only the deadline or the stop flag leaves a search without a node limit inexact.
        let limit = budget.clock().unwrap_or(Limit::Time);
        return Err(KernelError::AlphaLimit { limit, best: Box::new(best), bound: f.bound });
    }
    Ok(best)
}

/// β(G), the external stability number, with a minimum externally stable set (every vertex
/// outside it has an arc into it).
///
/// β is a set cover (a vertex covers itself and its predecessors). It is first reduced: a
/// vertex with a single usable coverer forces it, a coverer whose open vertices another one
/// also covers is dropped, and a vertex whose coverers include all those of another open
/// vertex is left to that one. Each connected part left is solved by branch-and-bound on
/// sparse lists: unit propagation (an uncovered vertex with one usable coverer takes it);
/// the Lagrangian relaxation of the covering rows as the bound, its multipliers improved by
/// subgradient steps (warm-started from the parent node; at its maximum it equals the
/// linear-programming bound), with reduced-cost fixing of coverers in or out; incumbents
/// from a greedy on the Lagrangian costs, a Lagrangian dive and a local search that adds one
/// coverer when two become redundant, and at the root a row-weighting local search (Gao,
/// Weise and Li 2015) with the reduced costs breaking ties, which stops at the root bound;
/// branching on the uncovered vertex with fewest usable coverers, lowest reduced cost first,
/// each excluded from the later branches. The local search draws from a fixed-seed generator
/// and counts steps, not time, so the answer is the same on every run.
///
/// The witness is checked against the definition (see [`externally_stable`]) before it is
/// returned; so is α's (see [`internally_stable`]).
///
/// # Errors
/// [`KernelError::BetaLimit`] when the deadline passes (or the stop flag is set) during the
/// search, with the best set found and a proven lower bound (a plain [`KernelError::Limit`]
/// when it does before the search starts, or the node budget runs out);
/// [`KernelError::WitnessRejected`] if the set found fails the check (never expected).
///
/// # Complexity
/// Exponential in the worst case; O(n + m) extra space.
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
    let mut budget = Budget::new(cfg);
    budget.check_clock()?;
    let local = Subgraph::whole(g, &mut budget)?;
    let n = local.n();
    let mut succ: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut pred: Vec<Vec<u32>> = Vec::with_capacity(n);
    for v in 0..n {
        budget.spend(1 + (local.succ(v).len() + local.pred(v).len()) as u64)?;
        succ.push(local.succ(v).to_vec());
        pred.push(local.pred(v).to_vec());
    }
    let f = min_absorbing(&succ, &pred, &mut budget, None)?;
    let set = to_set(n, &local, &f.set);
    // The witness is checked against the definition before it is returned.
    if let Err(violation) = externally_stable(g, &set)? {
        return Err(KernelError::WitnessRejected { what: "beta", violation });
    }
    let best = StableSet { size: f.set.len(), set, nodes: budget.nodes };
    if !f.exact {
        // Only the deadline or the stop flag leaves a search without a node limit inexact.
        let limit = budget.clock().unwrap_or(Limit::Time);
        return Err(KernelError::BetaLimit { limit, best: Box::new(best), bound: f.bound });
    }
    Ok(best)
}
