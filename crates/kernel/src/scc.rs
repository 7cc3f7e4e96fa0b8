//! Strongly connected components by Tarjan's algorithm with an explicit stack, over any
//! digraph given by a successor function.

use crate::KernelError;
use crate::config::Budget;

/// The strongly connected components of the digraph on `0..n` whose vertex `v` has the
/// successors `succ(v)`, leaving out the vertices with `!on(v)` (and arcs to them). Each
/// component goes to `emit` (its vertices in the order they leave Tarjan's stack) in the
/// order Tarjan completes them: every arc goes from a component to one emitted earlier or to
/// itself (sinks first). Each vertex reached spends one unit of `budget` plus one per
/// successor.
///
/// Complexity: O(n + m) time and space.
pub(crate) fn tarjan<'a>(
    n: usize,
    succ: impl Fn(usize) -> &'a [u32],
    on: impl Fn(usize) -> bool,
    budget: &mut Budget,
    mut emit: impl FnMut(&[u32]),
) -> Result<(), KernelError> {
    const NONE: u32 = u32::MAX;
    const NEW: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    // (vertex, position of its next successor, or NEW before it is numbered)
    let mut call: Vec<(u32, u32)> = Vec::new();
    let mut next = 0u32;
    for root in 0..n {
        if !on(root) || index[root] != NONE {
            continue;
        }
        call.push((root as u32, NEW));
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            let vs = v as usize;
            let out = succ(vs);
            if *pos == NEW {
                *pos = 0;
                index[vs] = next;
                low[vs] = next;
                next += 1;
                stack.push(v);
                on_stack[vs] = true;
                budget.spend(1 + out.len() as u64)?;
            }
            if (*pos as usize) < out.len() {
                let w = out[*pos as usize] as usize;
                *pos += 1;
                if !on(w) {
                    continue;
                }
                if index[w] == NONE {
                    call.push((w as u32, NEW));
                } else if on_stack[w] {
                    low[vs] = low[vs].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p as usize] = low[p as usize].min(low[vs]);
                }
                if low[vs] == index[vs] {
                    let at = stack.iter().rposition(|&w| w == v).expect("v is on the stack");
                    for &w in &stack[at..] {
                        on_stack[w as usize] = false;
                    }
                    emit(&stack[at..]);
                    stack.truncate(at);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use proptest::prelude::*;

    /// `reach[u][v]`: a path from u to v (of length 0 included), by closure.
    fn reach(n: usize, adj: &[Vec<u32>], on: &[bool]) -> Vec<Vec<bool>> {
        let mut r = vec![vec![false; n]; n];
        for u in 0..n {
            if !on[u] {
                continue;
            }
            r[u][u] = true;
            let mut todo = vec![u];
            while let Some(x) = todo.pop() {
                for &y in &adj[x] {
                    let y = y as usize;
                    if on[y] && !r[u][y] {
                        r[u][y] = true;
                        todo.push(y);
                    }
                }
            }
        }
        r
    }

    proptest! {
        #[test]
        fn components_are_the_classes_of_mutual_reachability_sinks_first(
            n in 1usize..12,
            arcs in prop::collection::vec((0u32..12, 0u32..12), 0..40),
            off in prop::collection::vec(any::<bool>(), 12),
        ) {
            let mut adj = vec![Vec::new(); n];
            for &(u, v) in &arcs {
                if (u as usize) < n && (v as usize) < n {
                    adj[u as usize].push(v);
                }
            }
            let on: Vec<bool> = (0..n).map(|v| !off[v] || v == 0).collect();
            let mut comps: Vec<Vec<u32>> = Vec::new();
            let mut budget = Budget::new(&Config::default());
            tarjan(n, |v| &adj[v], |v| on[v], &mut budget, |c| comps.push(c.to_vec())).unwrap();
            let r = reach(n, &adj, &on);
            let mut id = vec![usize::MAX; n];
            for (k, c) in comps.iter().enumerate() {
                for &v in c {
                    prop_assert_eq!(id[v as usize], usize::MAX, "vertex in two components");
                    id[v as usize] = k;
                }
            }
            for u in 0..n {
                prop_assert_eq!(id[u] != usize::MAX, on[u]);
                for v in 0..n {
                    if on[u] && on[v] {
                        prop_assert_eq!(id[u] == id[v], r[u][v] && r[v][u]);
                        if r[u][v] {
                            prop_assert!(id[v] <= id[u], "an arc goes to a later component");
                        }
                    }
                }
            }
        }
    }
}
