//! The retrograde reduction shared by every kernel query.

use gamegraph_graph::{Graph, Outcome};

use crate::KernelError;
use crate::check::VertexSet;
use crate::config::Budget;
use crate::explain::{Decided, Explanation};
use crate::induced::{Subgraph, is_acyclic, weak_components};
use crate::kernel::search::Search;

/// A graph reduced to the parts of its draw subgraph.
///
/// Every kernel K contains every L vertex and no W vertex: by induction along the
/// retrograde derivation, a vertex without successors must be in K (nothing absorbs it),
/// a vertex with a successor in K cannot be in K (internal stability), and a vertex all of
/// whose successors are outside K must be in K (external stability). A D vertex has no L
/// successor, so its W successors never absorb it: `K ∩ D` is a kernel of the subgraph
/// induced by D, and conversely L ∪ (a kernel of that subgraph) is a kernel of the graph.
/// The weakly connected parts of the draw subgraph are independent.
pub(crate) struct Reduced {
    /// The L vertices.
    pub(crate) base: VertexSet,
    /// The weakly connected parts of the draw subgraph.
    pub(crate) parts: Vec<Subgraph>,
    /// The labels counted, with the decision when no part is left.
    pub(crate) explanation: Explanation,
}

/// Labels `g` and splits its draw subgraph into parts.
pub(crate) fn reduce(g: &Graph, budget: &mut Budget) -> Result<Reduced, KernelError> {
    let n = g.num_vertices();
    budget.check_clock()?;
    // Retrograde labels of the whole graph (a position without moves is lost, one with a
    // move to a lost position is won, one all of whose moves go to won positions is lost,
    // the rest are draws): linear in the size of the graph; the clock is read before and
    // after.
    let solution = gamegraph_retro::solve(g);
    budget.check_clock()?;
    let mut base = VertexSet::repeat(false, n);
    let (mut loss, mut win, mut draw) = (0, 0, 0);
    let mut keep = vec![false; n];
    for (i, o) in solution.outcomes().iter().enumerate() {
        match o {
            Outcome::Loss => {
                loss += 1;
                base.set(i, true);
            }
            Outcome::Win => win += 1,
            // Without terminal values the solver gives no tie.
            Outcome::Draw | Outcome::Tie => {
                draw += 1;
                keep[i] = true;
            }
        }
    }
    drop(solution);
    budget.spend(n as u64)?;
    let mut scratch = vec![u32::MAX; n];
    let mut parts = Vec::new();
    for c in weak_components(g, &keep, budget)? {
        parts.push(Subgraph::induced(g, &c, &mut scratch, budget)?);
    }
    let decided = if draw > 0 {
        Decided::Search
    } else if is_acyclic(g, budget)? {
        Decided::Acyclic
    } else {
        Decided::Retrograde
    };
    let explanation = Explanation { decided, loss, win, draw, parts: parts.len(), nodes: 0 };
    Ok(Reduced { base, parts, explanation })
}

/// Adds the In vertices of the kernel `s` just found to `set`.
pub(crate) fn put(set: &mut VertexSet, s: &Search) {
    let g = s.graph();
    for v in 0..g.n() {
        if s.is_in(v) {
            set.set(g.global[v].index(), true);
        }
    }
}
