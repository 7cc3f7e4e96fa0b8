//! Bitset branch-and-bound for α (maximum internally stable set) and β (minimum externally
//! stable set).

use crate::KernelError;
use crate::bits;
use crate::clique::{Rows, degeneracy_order, max_clique};
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
    for comp in comps {
        let f = if !cap.limited() && sparse(adj, &comp) {
            let set = sparse_part(adj, &comp, budget)?;
            Found { bound: set.len(), set, exact: true }
        } else {
            mis_part(adj, &comp, budget, &mut cap)?
        };
        exact &= f.exact;
        bound += f.bound;
        set.extend(f.set);
    }
    set.sort_unstable();
    Ok(Found { set, exact, bound })
}

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
    let f = max_clique(&h, &init, budget, cap)?;
    let set = f.clique.iter().map(|&k| comp[order[k]]).collect();
    Ok(Found { set, exact: f.exact, bound: f.bound })
}

/// A minimum absorbing set: a smallest B such that every vertex outside B has a successor
/// in B. `succ` and `pred` are the (repeat-free, loop-free) lists of a digraph.
///
/// Weakly connected parts are independent and solved one by one, each as a set cover (vertex
/// y covers itself and its predecessors) by branch-and-bound: branch on the uncovered vertex
/// with fewest usable coverers, each coverer in turn (largest gain first) and excluded from
/// the later branches; the bound is the larger of two sound lower bounds, the fewest sets
/// whose gains add up to the uncovered count, and a greedy packing of uncovered vertices no
/// two of which share a coverer.
pub(crate) fn min_absorbing(
    succ: &[Vec<u32>],
    pred: &[Vec<u32>],
    budget: &mut Budget,
    cap: Option<u64>,
) -> Result<Found, KernelError> {
    let n = succ.len();
    let mut adj: Vec<Vec<u32>> = Vec::with_capacity(n);
    for v in 0..n {
        budget.spend(1 + (succ[v].len() + pred[v].len()) as u64)?;
        adj.push(succ[v].iter().chain(&pred[v]).copied().collect());
    }
    let alive = vec![true; n];
    let mut cap = Cap::new(cap);
    let mut set = Vec::new();
    let mut bound = 0;
    let mut exact = true;
    let comps = components(n, &alive, &adj, budget)?;
    too_large(&comps)?;
    for comp in comps {
        let f = mds_part(succ, pred, &comp, budget, &mut cap)?;
        exact &= f.exact;
        bound += f.bound;
        set.extend(f.set);
    }
    set.sort_unstable();
    Ok(Found { set, exact, bound })
}

struct MdsFrame {
    u: Vec<u64>,
    a: Vec<u64>,
    cands: Vec<u32>,
    i: usize,
}

struct Cover {
    /// cover[y]: the vertices y absorbs (itself and its predecessors).
    cover: Vec<Vec<u64>>,
    /// cand[x]: the vertices that absorb x (itself and its successors).
    cand: Vec<Vec<u64>>,
    /// The same as lists.
    cand_list: Vec<Vec<u32>>,
}

impl Cover {
    /// A lower bound on the sets still needed to cover `u` with sets of `a`
    /// (`usize::MAX` when impossible).
    fn lower_bound(
        &self,
        u: &[u64],
        a: &[u64],
        (gains, used, dual): (&mut Vec<usize>, &mut Vec<u64>, &mut Dual),
        budget: &mut Budget,
    ) -> Result<usize, KernelError> {
        let w = u.len() as u64;
        budget.spend(w)?;
        let need = bits::count(u);
        gains.clear();
        bits::for_each(a, |y| {
            budget.spend(w)?;
            let g = bits::count_and(&self.cover[y], u);
            if g > 0 {
                gains.push(g);
            }
            Ok(())
        })?;
        budget.spend(gains.len() as u64)?;
        gains.sort_unstable_by(|x, y| y.cmp(x));
        let mut sum = 0;
        let mut lb1 = usize::MAX;
        for (i, g) in gains.iter().enumerate() {
            sum += g;
            if sum >= need {
                lb1 = i + 1;
                break;
            }
        }
        if lb1 == usize::MAX {
            return Ok(usize::MAX);
        }
        used.clear();
        used.resize(u.len(), 0);
        let mut lb2 = 0;
        bits::for_each(u, |x| {
            budget.spend(2 * w)?;
            let cx = &self.cand[x];
            if !cx.iter().zip(a.iter()).zip(used.iter()).any(|((c, a), s)| c & a & s != 0) {
                lb2 += 1;
                for ((s, c), a) in used.iter_mut().zip(cx).zip(a) {
                    *s |= c & a;
                }
            }
            Ok(())
        })?;
        let lb3 = self.dual_bound(u, a, dual, budget)?;
        Ok(lb1.max(lb2).max(lb3))
    }

    /// The linear-programming lower bound of a feasible dual solution built greedily: each
    /// uncovered vertex x, fewest usable coverers first, gets the largest price that keeps
    /// the prices seen by every coverer at most 1 (dual ascent for set cover); the sum of
    /// the prices, rounded up, bounds the number of sets still needed.
    fn dual_bound(
        &self,
        u: &[u64],
        a: &[u64],
        dual: &mut Dual,
        budget: &mut Budget,
    ) -> Result<usize, KernelError> {
        dual.order.clear();
        bits::for_each(u, |x| {
            budget.spend(self.cand_list[x].len() as u64)?;
            let k = self.cand_list[x].iter().filter(|&&y| bits::get(a, y as usize)).count();
            dual.order.push((k as u32, x as u32));
            Ok(())
        })?;
        dual.order.sort_unstable();
        dual.left.resize(self.cand_list.len(), 1.0);
        let mut sum = 0.0f64;
        for &(_, x) in &dual.order {
            let usable =
                || self.cand_list[x as usize].iter().filter(|&&y| bits::get(a, y as usize));
            let price = usable().map(|&y| dual.left[y as usize]).fold(f64::INFINITY, f64::min);
            if price.is_finite() && price > 0.0 {
                sum += price;
                for &y in usable() {
                    dual.left[y as usize] -= price;
                }
            }
        }
        for &(_, x) in &dual.order {
            for &y in &self.cand_list[x as usize] {
                dual.left[y as usize] = 1.0;
            }
        }
        Ok((sum - 1e-6).ceil().max(0.0) as usize)
    }
}

/// Buffers of [`Cover::dual_bound`].
#[derive(Default)]
struct Dual {
    order: Vec<(u32, u32)>,
    /// 1 minus the prices a coverer has seen; 1 between calls.
    left: Vec<f64>,
}

fn mds_part(
    succ: &[Vec<u32>],
    pred: &[Vec<u32>],
    comp: &[u32],
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Found, KernelError> {
    let c = comp.len();
    let mut local = std::collections::HashMap::with_capacity(c);
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i);
    }
    let w = bits::words(c);
    budget.spend(c as u64)?;
    let mut cover = Vec::with_capacity(c);
    let mut cand = Vec::with_capacity(c);
    for (i, &v) in comp.iter().enumerate() {
        budget.spend((2 * w + succ[v as usize].len() + pred[v as usize].len()) as u64)?;
        let mut absorbs = vec![0u64; w];
        let mut absorbed_by = vec![0u64; w];
        bits::set(&mut absorbs, i);
        bits::set(&mut absorbed_by, i);
        for &p in &pred[v as usize] {
            bits::set(&mut absorbs, local[&p]);
        }
        for &s in &succ[v as usize] {
            bits::set(&mut absorbed_by, local[&s]);
        }
        cover.push(absorbs);
        cand.push(absorbed_by);
    }
    let cand_list = cand
        .iter()
        .map(|row| {
            let mut l = Vec::new();
            bits::for_each(row, |y| {
                l.push(y as u32);
                Ok::<(), ()>(())
            })
            .expect("infallible");
            l
        })
        .collect();
    let cv = Cover { cover, cand, cand_list };
    let mut all = vec![!0u64; w];
    if !c.is_multiple_of(64) {
        all[w - 1] = (1u64 << (c % 64)) - 1;
    }
    // Greedy start: largest gain first.
    let mut best: Vec<usize> = Vec::new();
    {
        let mut u = all.clone();
        while !bits::is_empty(&u) {
            let mut pick = (0, 0);
            for y in 0..c {
                budget.spend(w as u64)?;
                let gain = bits::count_and(&cv.cover[y], &u);
                if gain > pick.0 {
                    pick = (gain, y);
                }
            }
            let y = pick.1;
            best.push(y);
            for (uw, cw) in u.iter_mut().zip(&cv.cover[y]) {
                *uw &= !cw;
            }
        }
    }
    let mut gains = Vec::new();
    let mut used = Vec::new();
    let mut dual = Dual::default();
    let root_lb = cv.lower_bound(&all, &all, (&mut gains, &mut used, &mut dual), budget)?;
    let mut frames: Vec<MdsFrame> = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    let mut exact = true;
    // Evaluates node (u, a) at depth cur.len(): records a cover, prunes, or pushes a frame.
    let mut pending: Option<(Vec<u64>, Vec<u64>)> =
        if root_lb < best.len() { Some((all.clone(), all)) } else { None };
    loop {
        if let Some((u, a)) = pending.take() {
            if bits::is_empty(&u) {
                if cur.len() < best.len() {
                    best = cur.clone();
                }
            } else if cur.len() + 1 < best.len() {
                let lb = cv.lower_bound(&u, &a, (&mut gains, &mut used, &mut dual), budget)?;
                if lb != usize::MAX && cur.len() + lb < best.len() {
                    // the uncovered vertex with fewest usable coverers
                    let mut pick = None;
                    bits::for_each(&u, |x| {
                        budget.spend(w as u64)?;
                        let k = bits::count_and(&cv.cand[x], &a);
                        if pick.is_none_or(|(bk, _)| k < bk) {
                            pick = Some((k, x));
                        }
                        Ok::<(), KernelError>(())
                    })?;
                    let (k, x) = pick.expect("u is not empty");
                    if k > 0 {
                        let mut cands: Vec<u32> = Vec::with_capacity(k);
                        for (i, (cw, aw)) in cv.cand[x].iter().zip(&a).enumerate() {
                            let mut m = cw & aw;
                            while m != 0 {
                                cands.push((i * 64 + m.trailing_zeros() as usize) as u32);
                                m &= m - 1;
                            }
                        }
                        cands.sort_by_key(|&y| {
                            (std::cmp::Reverse(bits::count_and(&cv.cover[y as usize], &u)), y)
                        });
                        frames.push(MdsFrame { u, a, cands, i: 0 });
                        continue;
                    }
                }
            }
            if !frames.is_empty() {
                cur.pop();
            }
            continue;
        }
        let Some(top) = frames.last_mut() else { break };
        if top.i == top.cands.len() || cur.len() + 1 >= best.len() {
            frames.pop();
            if !frames.is_empty() {
                cur.pop();
            }
            continue;
        }
        if !cap.spend() {
            exact = false;
            break;
        }
        budget.tick(2 * w as u64)?;
        let y = top.cands[top.i] as usize;
        top.i += 1;
        bits::clear(&mut top.a, y);
        let u: Vec<u64> = top.u.iter().zip(&cv.cover[y]).map(|(a, b)| a & !b).collect();
        cur.push(y);
        pending = Some((u, top.a.clone()));
    }
    let set: Vec<u32> = best.iter().map(|&i| comp[i]).collect();
    let bound = if exact { set.len() } else { root_lb.min(set.len()) };
    Ok(Found { set, exact, bound })
}
