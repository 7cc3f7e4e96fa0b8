//! α's driver: vertices of degree 0 and 1 first, then each connected part left by the
//! branch-and-reduce search when it is large and sparse, else as a maximum clique of its
//! complement.

use crate::KernelError;
use crate::bits;
use crate::config::{Budget, Cap};
use crate::stable::{Found, components, solve_parts, too_large};

use super::branch_and_reduce::max_independent_sparse;
use super::cover::covered;
use super::local_search::improve_clique;
use super::tabu::tabu_clique;
use super::{Rows, degeneracy_order, max_clique};

/// A maximum independent set of the undirected graph `adj` (symmetric lists, no loops,
/// no repeats) among the vertices with `!excluded[v]`.
///
/// Vertices of degree 0 or 1 are taken first (some maximum independent set contains them);
/// each connected part left is solved as a maximum clique of the complement by the bitset
/// colouring branch-and-bound of Tomita and Seki (MCQ) in San Segundo's bitset form (BBMC):
/// a greedy colouring of the candidates into cliques of `adj` bounds how many more vertices
/// can be taken.
pub(crate) fn max_independent(
    adj: &[Vec<u32>],
    excluded: &[bool],
    budget: &mut Budget,
    cap: Option<u64>,
) -> Result<Found, KernelError> {
    let n = adj.len();
    let mut alive: Vec<bool> = excluded.iter().map(|&e| !e).collect();
    let mut deg: Vec<usize> = Vec::with_capacity(n);
    for a in adj {
        budget.spend(1 + a.len() as u64)?;
        deg.push(a.iter().filter(|&&w| alive[w as usize]).count());
    }
    let mut taken: Vec<u32> = Vec::new();
    let mut queue: Vec<u32> =
        (0..n as u32).filter(|&v| alive[v as usize] && deg[v as usize] <= 1).collect();
    while let Some(v) = queue.pop() {
        let v = v as usize;
        if !alive[v] || deg[v] > 1 {
            continue;
        }
        alive[v] = false;
        taken.push(v as u32);
        budget.spend(1 + adj[v].len() as u64)?;
        if let Some(&u) = adj[v].iter().find(|&&u| alive[u as usize]) {
            let u = u as usize;
            alive[u] = false;
            budget.spend(adj[u].len() as u64)?;
            for &w in &adj[u] {
                if alive[w as usize] {
                    deg[w as usize] -= 1;
                    if deg[w as usize] <= 1 {
                        queue.push(w);
                    }
                }
            }
        }
    }
    let mut cap = Cap::new(cap);
    let bound = taken.len();
    let comps = components(n, &alive, adj, budget)?;
    too_large(&comps)?;
    // Once the deadline has passed, the parts left get a greedy set and their size as bound.
    let solve = |comp: &[u32], budget: &mut Budget| {
        if !cap.limited() && sparse(adj, comp) {
            sparse_part(adj, comp, budget)
        } else {
            mis_part(adj, comp, budget, &mut cap)
        }
    };
    let unsolved = |comp: &[u32]| Found { set: greedy(adj, comp), exact: false, bound: comp.len() };
    solve_parts(taken, bound, comps, budget, solve, unsolved)
}

/// An independent set of the part `comp` of `adj`, fewest neighbours first, without search.
fn greedy(adj: &[Vec<u32>], comp: &[u32]) -> Vec<u32> {
    let mut order = comp.to_vec();
    order.sort_by_key(|&v| (adj[v as usize].len(), v));
    let inside: std::collections::HashSet<u32> = comp.iter().copied().collect();
    let mut blocked: std::collections::HashSet<u32> = std::collections::HashSet::new();
    let mut set = Vec::new();
    for v in order {
        if !blocked.contains(&v) {
            set.push(v);
            blocked.extend(adj[v as usize].iter().filter(|x| inside.contains(x)));
        }
    }
    set
}

/// Nodes of the first, short search of a part, times its vertices (a node costs about the
/// part size): 100,000 nodes on 200 vertices, 20,000 on 1,000.
const PROBE_WORK: usize = 20_000_000;
/// The short search runs when the complement's density is at most this fraction.
const PROBE_DENSITY: (usize, usize) = (4, 5);

/// Parts above this size get a starting solution from iterated local search.
const ILS_PART: usize = 64;
/// Perturbations of that local search, at most, and its work (a round costs about the
/// square of the part size).
const ILS_ROUNDS: usize = 2000;
const ILS_WORK: usize = 80_000_000;

/// Swaps of the tabu search that follows, at most, and its work (a swap costs about the
/// part size).
const TABU_ITERATIONS: usize = 400_000;
const TABU_WORK: usize = 160_000_000;

/// Parts up to this size always go to the bitset clique search.
const DENSE_PART: usize = 256;

/// Whether the connected part `comp` of `adj` is better solved by branch-and-reduce than by
/// the bitset clique search: large, with average degree below a twentieth of its size.
fn sparse(adj: &[Vec<u32>], comp: &[u32]) -> bool {
    let twice_m: usize = comp.iter().map(|&v| adj[v as usize].len()).sum();
    comp.len() > DENSE_PART && twice_m * 20 < comp.len() * comp.len()
}

/// A maximum independent set of the connected part `comp` of `adj` by branch-and-reduce.
fn sparse_part(adj: &[Vec<u32>], comp: &[u32], budget: &mut Budget) -> Result<Found, KernelError> {
    let mut local = std::collections::HashMap::with_capacity(comp.len());
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i as u32);
    }
    budget.spend(comp.len() as u64)?;
    let lists: Vec<Vec<u32>> = comp
        .iter()
        .map(|&v| adj[v as usize].iter().filter_map(|x| local.get(x).copied()).collect())
        .collect();
    let f = max_independent_sparse(lists, budget)?;
    Ok(Found { set: f.set.iter().map(|&i| comp[i as usize]).collect(), ..f })
}

/// A maximum independent set of the connected part `comp` of `adj`, as a maximum clique of
/// its complement (see [`max_clique`]).
fn mis_part(
    adj: &[Vec<u32>],
    comp: &[u32],
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Found, KernelError> {
    let c = comp.len();
    let mut local = std::collections::HashMap::with_capacity(c);
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i);
    }
    budget.spend((c * bits::words(c)) as u64)?;
    let complement = |pos: &dyn Fn(usize) -> usize| {
        let mut g = Rows::new(c);
        for (i, &v) in comp.iter().enumerate() {
            for &x in &adj[v as usize] {
                if let Some(&j) = local.get(&x) {
                    g.join(pos(i), pos(j));
                }
            }
        }
        g.complement()
    };
    let order = degeneracy_order(&complement(&|i| i));
    let mut pos = vec![0; c];
    for (k, &i) in order.iter().enumerate() {
        pos[i] = k;
    }
    budget.spend((c * bits::words(c)) as u64)?;
    let h = complement(&|i| pos[i]);
    // Greedy start: fewest neighbours first.
    let mut by_degree: Vec<usize> = (0..c).collect();
    by_degree.sort_by_key(|&i| (adj[comp[i] as usize].len(), i));
    let mut blocked = vec![false; c];
    let mut init = Vec::new();
    for i in by_degree {
        if !blocked[i] {
            init.push(pos[i]);
            for &x in &adj[comp[i] as usize] {
                if let Some(&j) = local.get(&x) {
                    blocked[j] = true;
                }
            }
        }
    }
    // Only for an exact search: a capped one is a quick bound, not worth the start-up. The
    // tabu search finds the cliques hidden among many slightly smaller ones (see `tabu`).
    if c > ILS_PART && !cap.limited() {
        // A short search first, unless the complement is very dense (its nodes are costly
        // and its large cliques are found by the local searches): it proves most parts
        // whose clique is easy to find.
        let pairs: usize = (0..c).map(|v| bits::count(h.row(v))).sum();
        let probe = if pairs * PROBE_DENSITY.1 <= c * (c - 1) * PROBE_DENSITY.0 {
            let cap = &mut Cap::new(Some((PROBE_WORK / c) as u64));
            let f = max_clique(&h, &init, budget, cap)?;
            if f.exact {
                let set = f.clique.iter().map(|&k| comp[order[k]]).collect();
                return Ok(Found { set, exact: true, bound: f.bound });
            }
            f.clique
        } else {
            Vec::new()
        };
        let rounds = (ILS_WORK / (c * c)).min(ILS_ROUNDS);
        init = improve_clique(&h, &init, rounds, budget)?;
        // The tabu search and the cover only when a greedy colouring leaves a gap.
        let ub = colours(&h, budget)?;
        if init.len() < ub {
            init = tabu_clique(&h, &init, (TABU_WORK / c).min(TABU_ITERATIONS), budget)?;
        }
        if probe.len() > init.len() {
            init = probe;
        }
        // A cover of the part by as many cliques as the clique found proves it maximum.
        if init.len() < ub && covered(&h.complement(), init.len(), budget)? {
            let set = init.iter().map(|&k| comp[order[k]]).collect();
            return Ok(Found { set, exact: true, bound: init.len() });
        }
    }
    let f = max_clique(&h, &init, budget, cap)?;
    let set = f.clique.iter().map(|&k| comp[order[k]]).collect();
    Ok(Found { set, exact: f.exact, bound: f.bound })
}

/// The number of classes of a greedy colouring of `rows` in its numbering: a bound on its
/// clique number.
fn colours(rows: &Rows, budget: &mut Budget) -> Result<usize, KernelError> {
    let w = bits::words(rows.n);
    let mut left = vec![0u64; w];
    bits::fill(&mut left, rows.n);
    let mut classes = 0;
    while let Some(first) = bits::first(&left) {
        budget.spend((rows.n * w) as u64)?;
        classes += 1;
        let mut free = left.clone();
        let mut v = Some(first);
        while let Some(x) = v {
            bits::clear(&mut left, x);
            bits::clear(&mut free, x);
            for (f, r) in free.iter_mut().zip(rows.row(x)) {
                *f &= !r;
            }
            v = bits::first(&free);
        }
    }
    Ok(classes)
}
