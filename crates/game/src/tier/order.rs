//! The tiers play can reach from the start's tier, with their parents, in an order where
//! every tier comes after all of its parents.

use super::Tiered;

/// The tiers reachable from `start` through [`Tiered::child_tiers`], parents first, and the
/// parents of each (indexed by tier; empty for tiers not reached). `Err(t)` names a tier
/// on a cycle of the child relation, or a child numbered past `tier_count()`.
pub(crate) fn tier_order<G: Tiered>(
    game: &G,
    start: u32,
) -> Result<(Vec<u32>, Vec<Vec<u32>>), u32> {
    let count = game.tier_count() as usize;
    if start as usize >= count {
        return Err(start);
    }
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); count];
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); count];
    let mut seen = vec![false; count];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(t) = stack.pop() {
        let mut out = Vec::new();
        game.child_tiers(t, &mut out);
        out.sort_unstable();
        out.dedup();
        out.retain(|&c| c != t);
        for &c in &out {
            if c as usize >= count {
                return Err(c);
            }
            parents[c as usize].push(t);
            if !seen[c as usize] {
                seen[c as usize] = true;
                stack.push(c);
            }
        }
        children[t as usize] = out;
    }
    // Kahn's algorithm over the reached tiers, smallest tier first among the ready ones.
    let mut waiting: Vec<usize> = parents.iter().map(Vec::len).collect();
    let mut ready = std::collections::BinaryHeap::new();
    ready.push(std::cmp::Reverse(start));
    let mut order = Vec::new();
    while let Some(std::cmp::Reverse(t)) = ready.pop() {
        order.push(t);
        for &c in &children[t as usize] {
            waiting[c as usize] -= 1;
            if waiting[c as usize] == 0 {
                ready.push(std::cmp::Reverse(c));
            }
        }
    }
    if let Some(t) = (0..count).find(|&t| seen[t] && waiting[t] > 0) {
        return Err(t as u32);
    }
    for p in &mut parents {
        p.sort_unstable();
    }
    Ok((order, parents))
}
