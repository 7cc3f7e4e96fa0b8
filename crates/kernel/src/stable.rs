//! What the α and β searches share: the result of a search with its proven bound, the
//! connected parts of a graph and the largest part the bitset searches accept.

use gamegraph_graph::Limit;
use gamegraph_graph::algo::components_by;

use crate::KernelError;
use crate::config::Budget;

/// The largest connected part the bitset searches accept (its bitsets take n² bits).
pub(crate) const MAX_PART: usize = 1 << 15;

/// What a branch-and-bound returned.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The best set found (vertex ids of the caller).
    pub(crate) set: Vec<u32>,
    /// Whether `set` is proven optimal.
    pub(crate) exact: bool,
    /// A proven bound on the optimum: an upper bound for α, a lower bound for β.
    pub(crate) bound: usize,
}

/// The connected parts of the vertices with `alive[v]` in the undirected graph of the lists
/// `adj`, in the order of [`components_by`]: by smallest vertex, each in breadth-first
/// order. Spends `n` units of `budget`, then one per list entry scanned.
pub(crate) fn components(
    n: usize,
    alive: &[bool],
    adj: &[Vec<u32>],
    budget: &mut Budget,
) -> Result<Vec<Vec<u32>>, KernelError> {
    budget.spend(n as u64)?;
    components_by(
        n,
        |v| alive[v],
        |v| adj[v].iter().copied(),
        |v| budget.spend(adj[v].len() as u64),
    )
}

/// Refuses, before any search, parts above [`MAX_PART`] vertices.
pub(crate) fn too_large(comps: &[Vec<u32>]) -> Result<(), KernelError> {
    match comps.iter().map(Vec::len).max() {
        Some(c) if c > MAX_PART => Err(KernelError::TooLarge { vertices: c, max: MAX_PART }),
        _ => Ok(()),
    }
}

/// Solves the parts `comps` one by one and adds their sets to `set` (sorted at the end),
/// their bounds to `bound`: each by `solve`, or, when the deadline stops it or has passed
/// before it starts, by `unsolved` (an answer without search and its bound).
pub(crate) fn solve_parts(
    mut set: Vec<u32>,
    mut bound: usize,
    comps: Vec<Vec<u32>>,
    budget: &mut Budget,
    mut solve: impl FnMut(&[u32], &mut Budget) -> Result<Found, KernelError>,
    unsolved: impl Fn(&[u32]) -> Found,
) -> Result<Found, KernelError> {
    let mut exact = true;
    let mut late = false;
    for comp in comps {
        let solved = if late {
            Err(KernelError::Limit { limit: Limit::Time, nodes: budget.nodes })
        } else {
            solve(&comp, budget)
        };
        let f = match solved {
            Ok(f) => f,
            Err(e) if e.is_clock() => unsolved(&comp),
            Err(e) => return Err(e),
        };
        late = late || budget.check_clock().is_err();
        exact &= f.exact;
        bound += f.bound;
        set.extend(f.set);
    }
    set.sort_unstable();
    Ok(Found { set, exact, bound })
}
