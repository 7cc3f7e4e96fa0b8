//! Richardson's theorem made constructive: a digraph without odd directed cycles has a
//! kernel, found here without search.
//!
//! The construction, repeated on the still undecided vertices U until none is left:
//! take the strongly connected components of the subgraph induced by U in sink-first order.
//! For a component C none of whose vertices has been decided yet, all of C's arcs leaving C
//! go to decided vertices, none of them In (an In successor would have made the vertex Out):
//! - C = {v} without a loop: v has no undecided successor, so put v In;
//! - otherwise C is strongly connected with no odd cycle, hence bipartite: the parity of the
//!   length of walks from a root is well defined and every arc changes it. Put the even class
//!   X In; it is internally stable (arcs inside C change parity, arcs out of C go to Out
//!   vertices), and every odd vertex of C has a successor in C, which is even.
//!
//! Then every undecided predecessor of a new In vertex becomes Out (it is absorbed). A
//! component some of whose vertices were just absorbed may have split; the components are
//! then recomputed on the new U. Each step keeps two invariants: In vertices have no arc
//! between them, and every Out vertex has an arc into an In vertex. When U is empty the In
//! vertices form a kernel. If some strongly connected component is found not to be
//! bipartite (or a vertex has a self-loop) the graph has an odd directed cycle and the
//! construction reports `None`.

use crate::KernelError;
use crate::config::Budget;
use crate::induced::Subgraph;

const UNK: u8 = 0;
const IN: u8 = 1;
const OUT: u8 = 2;

/// A kernel of `g` (as membership flags) when `g` has no odd directed cycle, else `None`.
///
/// Complexity: O(k (n + m)) time where k is the number of recomputations (1 when no
/// component is split), O(n + m) space.
pub(crate) fn kernel_without_odd_cycle(
    g: &Subgraph,
    budget: &mut Budget,
) -> Result<Option<Vec<bool>>, KernelError> {
    let n = g.n();
    if g.looped.iter().any(|&l| l) {
        return Ok(None);
    }
    let mut val = vec![UNK; n];
    let mut parity = vec![u8::MAX; n];
    let mut in_comp = vec![false; n];
    let mut queue = Vec::new();
    // First the test alone: an odd directed cycle lies in a non-bipartite component.
    for comp in g.sccs(None, budget)? {
        if comp.len() > 1 && !bipartite(g, &comp, &mut parity, &mut in_comp, &mut queue, budget)? {
            return Ok(None);
        }
    }
    parity.fill(u8::MAX);
    loop {
        budget.spend(n as u64)?;
        let active: Vec<bool> = val.iter().map(|&x| x == UNK).collect();
        if !active.iter().any(|&a| a) {
            break;
        }
        'comps: for comp in g.sccs(Some(&active), budget)? {
            let undecided = comp.iter().filter(|&&v| val[v as usize] == UNK).count();
            if undecided == 0 {
                continue;
            }
            if undecided < comp.len() {
                break 'comps; // split by absorption: recompute
            }
            let mut new_in = Vec::new();
            if comp.len() == 1 {
                new_in.push(comp[0]);
            } else {
                if !bipartite(g, &comp, &mut parity, &mut in_comp, &mut queue, budget)? {
                    return Ok(None);
                }
                new_in.extend(comp.iter().copied().filter(|&v| parity[v as usize] == 0));
            }
            for &x in &new_in {
                val[x as usize] = IN;
            }
            for &x in &new_in {
                budget.spend(1 + g.pred(x as usize).len() as u64)?;
                for &p in g.pred(x as usize) {
                    if val[p as usize] == UNK {
                        val[p as usize] = OUT;
                    }
                }
            }
        }
    }
    Ok(Some(val.iter().map(|&x| x == IN).collect()))
}

/// Whether the strongly connected `comp` is bipartite: every arc inside it changes the
/// parity of the walk length from `comp[0]`. Leaves that parity in `parity`.
fn bipartite(
    g: &Subgraph,
    comp: &[u32],
    parity: &mut [u8],
    in_comp: &mut [bool],
    queue: &mut Vec<u32>,
    budget: &mut Budget,
) -> Result<bool, KernelError> {
    // The two passes below visit the arcs of `comp` twice.
    let arcs: usize = comp.iter().map(|&v| g.succ(v as usize).len()).sum();
    budget.spend(2 * (comp.len() + arcs) as u64)?;
    for &v in comp {
        in_comp[v as usize] = true;
    }
    parity[comp[0] as usize] = 0;
    queue.clear();
    queue.push(comp[0]);
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head] as usize;
        head += 1;
        for &w in g.succ(v) {
            if in_comp[w as usize] && parity[w as usize] == u8::MAX {
                parity[w as usize] = parity[v] ^ 1;
                queue.push(w);
            }
        }
    }
    let odd = comp.iter().any(|&v| {
        g.succ(v as usize)
            .iter()
            .any(|&w| in_comp[w as usize] && parity[w as usize] == parity[v as usize])
    });
    for &v in comp {
        in_comp[v as usize] = false;
    }
    Ok(!odd)
}
