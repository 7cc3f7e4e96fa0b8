//! Bitset branch-and-bound for α (maximum internally stable set) and β (minimum externally
//! stable set).

use crate::KernelError;
use crate::beta_search::{CoverInstance, greedy_cover, min_cover, packing_bound};
use crate::bits;
use crate::clique::{Rows, degeneracy_order, max_clique};
use crate::clique_ils::improve_clique;
use crate::config::{Budget, Cap};
use crate::reduce_mis::max_independent_sparse;

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

fn components(
    n: usize,
    alive: &[bool],
    adj: &[Vec<u32>],
    budget: &mut Budget,
) -> Result<Vec<Vec<u32>>, KernelError> {
    budget.spend(n as u64)?;
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for r in 0..n {
        if !alive[r] || seen[r] {
            continue;
        }
        seen[r] = true;
        let mut comp = vec![r as u32];
        let mut head = 0;
        while head < comp.len() {
            let v = comp[head] as usize;
            head += 1;
            budget.spend(adj[v].len() as u64)?;
            for &w in &adj[v] {
                if alive[w as usize] && !seen[w as usize] {
                    seen[w as usize] = true;
                    comp.push(w);
                }
            }
        }
        out.push(comp);
    }
    Ok(out)
}

/// Refuses, before any search, parts above [`MAX_PART`] vertices.
fn too_large(comps: &[Vec<u32>]) -> Result<(), KernelError> {
    match comps.iter().map(Vec::len).max() {
        Some(c) if c > MAX_PART => Err(KernelError::TooLarge { vertices: c, max: MAX_PART }),
        _ => Ok(()),
    }
}

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
    let mut bound = taken.len();
    let mut exact = true;
    let mut set = taken;
    let comps = components(n, &alive, adj, budget)?;
    too_large(&comps)?;
    // Once the deadline has passed, the parts left get a greedy set and their size as bound.
    let mut late = false;
    for comp in comps {
        let solved = if late {
            Err(KernelError::TimeLimit { nodes: budget.nodes })
        } else if !cap.limited() && sparse(adj, &comp) {
            sparse_part(adj, &comp, budget).map(|set| Found { bound: set.len(), set, exact: true })
        } else {
            mis_part(adj, &comp, budget, &mut cap)
        };
        let f = match solved {
            Ok(f) => f,
            Err(KernelError::TimeLimit { .. }) => {
                Found { set: greedy(adj, &comp), exact: false, bound: comp.len() }
            }
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

/// Parts above this size get a starting solution from iterated local search.
const ILS_PART: usize = 64;
/// Perturbations of that local search, at most, and its work (a round costs about the
/// square of the part size).
const ILS_ROUNDS: usize = 2000;
const ILS_WORK: usize = 80_000_000;

/// Parts up to this size always go to the bitset clique search.
const DENSE_PART: usize = 256;

/// Whether the connected part `comp` of `adj` is better solved by branch-and-reduce than by
/// the bitset clique search: large, with average degree below a twentieth of its size.
fn sparse(adj: &[Vec<u32>], comp: &[u32]) -> bool {
    let twice_m: usize = comp.iter().map(|&v| adj[v as usize].len()).sum();
    comp.len() > DENSE_PART && twice_m * 20 < comp.len() * comp.len()
}

/// A maximum independent set of the connected part `comp` of `adj` by branch-and-reduce.
fn sparse_part(
    adj: &[Vec<u32>],
    comp: &[u32],
    budget: &mut Budget,
) -> Result<Vec<u32>, KernelError> {
    let mut local = std::collections::HashMap::with_capacity(comp.len());
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i as u32);
    }
    budget.spend(comp.len() as u64)?;
    let lists: Vec<Vec<u32>> = comp
        .iter()
        .map(|&v| adj[v as usize].iter().filter_map(|x| local.get(x).copied()).collect())
        .collect();
    let set = max_independent_sparse(lists, budget)?;
    Ok(set.iter().map(|&i| comp[i as usize]).collect())
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
    // Only for an exact search: a capped one is a quick bound, not worth the start-up.
    if c > ILS_PART && !cap.limited() {
        let rounds = (ILS_WORK / (c * c)).min(ILS_ROUNDS);
        init = improve_clique(&h, &init, rounds, budget)?;
    }
    let f = max_clique(&h, &init, budget, cap)?;
    let set = f.clique.iter().map(|&k| comp[order[k]]).collect();
    Ok(Found { set, exact: f.exact, bound: f.bound })
}

/// A minimum absorbing set: a smallest B such that every vertex outside B has a successor
/// in B. `succ` and `pred` are the (repeat-free, loop-free) lists of a digraph.
///
/// After the reductions of [`reduce_absorbing`], the weakly connected parts are independent
/// and solved one by one, each as a set cover (vertex y covers itself and its predecessors)
/// by the Lagrangian branch-and-bound of [`min_cover`].
pub(crate) fn min_absorbing(
    succ: &[Vec<u32>],
    pred: &[Vec<u32>],
    budget: &mut Budget,
    cap: Option<u64>,
) -> Result<Found, KernelError> {
    let n = succ.len();
    let r = reduce_absorbing(succ, pred, budget)?;
    // Parts: open vertices joined to their usable absorbers.
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut touched = vec![false; n];
    for x in 0..n {
        if !r.open[x] {
            continue;
        }
        budget.spend(1 + succ[x].len() as u64)?;
        touched[x] = true;
        for y in std::iter::once(x as u32).chain(succ[x].iter().copied()) {
            if r.allowed[y as usize] && y as usize != x {
                adj[x].push(y);
                adj[y as usize].push(x as u32);
                touched[y as usize] = true;
            }
        }
    }
    let mut cap = Cap::new(cap);
    let mut set = r.forced;
    let mut bound = set.len();
    let mut exact = true;
    let comps = components(n, &touched, &adj, budget)?;
    // Once the deadline has passed, the parts left get a greedy cover and a packing bound.
    let mut late = false;
    for comp in comps {
        let kept = (&r.open[..], &r.allowed[..]);
        let solved = if late {
            Err(KernelError::TimeLimit { nodes: budget.nodes })
        } else {
            mds_part(pred, &comp, kept, budget, &mut cap)
        };
        let f = match solved {
            Ok(f) => f,
            Err(KernelError::TimeLimit { .. }) => unsolved_part(pred, &comp, kept),
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

/// What the reductions of [`reduce_absorbing`] leave.
struct Absorbing {
    /// Vertices in every answer.
    forced: Vec<u32>,
    /// Vertices still to absorb.
    open: Vec<bool>,
    /// Vertices that may still be chosen.
    allowed: Vec<bool>,
}

/// Reductions of the set cover behind β, each keeping some minimum answer:
/// - a vertex left with a single usable absorber forces it into the set;
/// - an absorber whose open vertices are all absorbed by another one is dropped (equal
///   ones: the larger id is dropped), and so is one with no open vertex left;
/// - an open vertex whose usable absorbers include all those of another open vertex is
///   absorbed whenever that one is, and is closed.
fn reduce_absorbing(
    succ: &[Vec<u32>],
    pred: &[Vec<u32>],
    budget: &mut Budget,
) -> Result<Absorbing, KernelError> {
    let n = succ.len();
    let mut r = Absorbing { forced: Vec::new(), open: vec![true; n], allowed: vec![true; n] };
    // cnt[x]: usable absorbers of open x; gain[y]: open vertices y absorbs.
    let mut cnt: Vec<usize> = (0..n).map(|x| 1 + succ[x].len()).collect();
    let mut gain: Vec<usize> = (0..n).map(|y| 1 + pred[y].len()).collect();
    let absorbers = |x: usize| std::iter::once(x).chain(succ[x].iter().map(|&y| y as usize));
    let absorbs = |y: usize| std::iter::once(y).chain(pred[y].iter().map(|&x| x as usize));
    let absorbed_by = |x: usize, y: usize| x == y || succ[x].binary_search(&(y as u32)).is_ok();
    let mut units: Vec<usize> = (0..n).filter(|&x| cnt[x] == 1).collect();
    loop {
        let mut changed = false;
        while let Some(x) = units.pop() {
            if !r.open[x] || cnt[x] != 1 {
                continue;
            }
            let y = absorbers(x).find(|&y| r.allowed[y]).expect("one usable absorber");
            r.forced.push(y as u32);
            changed = true;
            budget.spend(1 + pred[y].len() as u64)?;
            r.allowed[y] = false;
            for z in absorbs(y) {
                if r.open[z] {
                    cnt[z] -= 1;
                }
            }
            for z in absorbs(y) {
                if r.open[z] {
                    close(z, &mut r, (&mut cnt, &mut gain), &mut units, (succ, pred), budget)?;
                }
            }
        }
        // Dominated absorbers.
        for y in 0..n {
            if !r.allowed[y] {
                continue;
            }
            let Some(x0) = absorbs(y).find(|&x| r.open[x]) else {
                drop_absorber(y, &mut r, &mut cnt, &mut units, pred);
                changed = true;
                continue;
            };
            budget.spend((gain[y] * (1 + succ[x0].len())) as u64)?;
            let dominated = absorbers(x0).any(|y2| {
                y2 != y
                    && r.allowed[y2]
                    && (gain[y2] > gain[y] || y2 < y)
                    && absorbs(y).all(|x| !r.open[x] || absorbed_by(x, y2))
            });
            if dominated {
                drop_absorber(y, &mut r, &mut cnt, &mut units, pred);
                changed = true;
            }
        }
        // Dominated open vertices.
        for x in 0..n {
            if !r.open[x] {
                continue;
            }
            let Some(y0) = absorbers(x).find(|&y| r.allowed[y]) else { continue };
            budget.spend((cnt[x] * (1 + pred[y0].len())) as u64)?;
            let weaker: Vec<usize> = absorbs(y0)
                .filter(|&x2| {
                    x2 != x
                        && r.open[x2]
                        && (cnt[x2] > cnt[x] || x2 > x)
                        && absorbers(x).all(|y| !r.allowed[y] || absorbed_by(x2, y))
                })
                .collect();
            for x2 in weaker {
                if r.open[x2] {
                    close(x2, &mut r, (&mut cnt, &mut gain), &mut units, (succ, pred), budget)?;
                    changed = true;
                }
            }
        }
        if !changed && units.is_empty() {
            return Ok(r);
        }
    }
}

/// Marks `x` absorbed; absorbers left with nothing to absorb are dropped.
fn close(
    x: usize,
    r: &mut Absorbing,
    (cnt, gain): (&mut [usize], &mut [usize]),
    units: &mut Vec<usize>,
    (succ, pred): (&[Vec<u32>], &[Vec<u32>]),
    budget: &mut Budget,
) -> Result<(), KernelError> {
    r.open[x] = false;
    budget.spend(1 + succ[x].len() as u64)?;
    for y in std::iter::once(x).chain(succ[x].iter().map(|&y| y as usize)) {
        gain[y] -= 1;
        if gain[y] == 0 && r.allowed[y] {
            drop_absorber(y, r, cnt, units, pred);
        }
    }
    Ok(())
}

/// Forbids `y`; open vertices left with one usable absorber are queued.
fn drop_absorber(
    y: usize,
    r: &mut Absorbing,
    cnt: &mut [usize],
    units: &mut Vec<usize>,
    pred: &[Vec<u32>],
) {
    r.allowed[y] = false;
    for x in std::iter::once(y).chain(pred[y].iter().map(|&x| x as usize)) {
        if r.open[x] {
            cnt[x] -= 1;
            if cnt[x] == 1 {
                units.push(x);
            }
        }
    }
}

/// The set cover of the connected part `comp` (open vertices to absorb, allowed ones to
/// choose): the allowed vertices' ids and the instance.
fn part_instance(
    pred: &[Vec<u32>],
    comp: &[u32],
    (open, allowed): (&[bool], &[bool]),
    budget: &mut Budget,
) -> Result<(Vec<u32>, CoverInstance), KernelError> {
    let mut elem = std::collections::HashMap::with_capacity(comp.len());
    for &v in comp {
        if open[v as usize] {
            let k = elem.len() as u32;
            elem.insert(v, k);
        }
    }
    let mut ids = Vec::new();
    let mut sets = Vec::new();
    for &y in comp {
        if !allowed[y as usize] {
            continue;
        }
        budget.spend(1 + pred[y as usize].len() as u64)?;
        let mut s: Vec<u32> = std::iter::once(&y)
            .chain(&pred[y as usize])
            .filter_map(|x| elem.get(x).copied())
            .collect();
        s.sort_unstable();
        ids.push(y);
        sets.push(s);
    }
    Ok((ids, CoverInstance::new(sets, elem.len())))
}

/// A minimum absorbing set of the connected part `comp` (open vertices to absorb, allowed
/// ones to choose) as a set cover solved by [`min_cover`].
fn mds_part(
    pred: &[Vec<u32>],
    comp: &[u32],
    kept: (&[bool], &[bool]),
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Found, KernelError> {
    let (ids, p) = part_instance(pred, comp, kept, budget)?;
    let f = min_cover(&p, budget, cap)?;
    let set = f.chosen.iter().map(|&t| ids[t as usize]).collect();
    Ok(Found { set, exact: f.exact, bound: f.bound })
}

/// An absorbing set of the part `comp` without search, after the deadline: a greedy cover
/// with a packing bound.
fn unsolved_part(pred: &[Vec<u32>], comp: &[u32], kept: (&[bool], &[bool])) -> Found {
    let mut unlimited = Budget::new(&crate::Config::default());
    let (ids, p) = part_instance(pred, comp, kept, &mut unlimited).expect("no limit");
    let chosen = greedy_cover(&p);
    let bound = packing_bound(&p);
    let set = chosen.iter().map(|&t| ids[t as usize]).collect();
    Found { set, exact: bound == chosen.len(), bound }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    /// Successor and predecessor lists of the arcs.
    fn lists(n: usize, arcs: &[(u32, u32)]) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let mut succ = vec![Vec::new(); n];
        let mut pred = vec![Vec::new(); n];
        for &(a, b) in arcs {
            succ[a as usize].push(b);
            pred[b as usize].push(a);
        }
        for l in succ.iter_mut().chain(pred.iter_mut()) {
            l.sort_unstable();
        }
        (succ, pred)
    }

    fn reduced(n: usize, arcs: &[(u32, u32)]) -> Absorbing {
        let (succ, pred) = lists(n, arcs);
        reduce_absorbing(&succ, &pred, &mut Budget::new(&Config::default())).unwrap()
    }

    #[test]
    fn a_vertex_with_one_coverer_forces_it() {
        // 2 is a sink: only 2 itself covers it. 0 -> 1 -> 0 and 1 -> 2.
        let r = reduced(3, &[(0, 1), (1, 0), (1, 2)]);
        assert!(r.forced.contains(&2));
    }

    #[test]
    fn a_dominated_coverer_is_dropped() {
        // 0 has no predecessor, so it covers only itself; its successor 1 covers 0 too.
        // Every vertex has two coverers, so no unit rule fires first.
        let arcs = [(0, 1), (1, 2), (2, 3), (3, 1)];
        let (succ, pred) = lists(4, &arcs);
        let mut r = Absorbing { forced: Vec::new(), open: vec![true; 4], allowed: vec![true; 4] };
        let mut cnt: Vec<usize> = (0..4).map(|x| 1 + succ[x].len()).collect();
        let mut units = Vec::new();
        drop_absorber(0, &mut r, &mut cnt, &mut units, &pred);
        assert_eq!(units, vec![0], "0 is left with its successor 1 only");
        let full = reduced(4, &arcs);
        assert!(!full.allowed[0]);
        assert!(full.forced.contains(&1) && !full.forced.contains(&0));
    }

    #[test]
    fn a_vertex_covered_whenever_another_is_gets_closed() {
        // N+[0] = {0, 1} ⊆ N+[2] = {2, 0, 1}: covering 0 covers 2. A 4-cycle 0 1 3 4 keeps
        // every coverer count at two or more, and 2 has in-degree 0 (dropped as a coverer).
        let arcs = [(0, 1), (1, 3), (3, 4), (4, 0), (2, 0), (2, 1)];
        let r = reduced(5, &arcs);
        assert!(!r.open[2] || r.forced.iter().any(|&y| y == 0 || y == 1));
        let (succ, pred) = lists(5, &arcs);
        let f = min_absorbing(&succ, &pred, &mut Budget::new(&Config::default()), None).unwrap();
        assert_eq!(f.set.len(), 2);
    }
}
