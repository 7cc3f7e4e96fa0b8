//! Maximum independent set of sparse parts by branch-and-reduce (Akiba and Iwata 2016).
//!
//! At every node of the search the graph is first reduced, each rule keeping α exact:
//! - degree 0: the vertex is taken;
//! - degree 1: the vertex is taken and its neighbour removed;
//! - degree 2 in a triangle: the vertex is taken, its neighbours removed;
//! - degree 2 otherwise (folding): v, u, w become one new vertex adjacent to N(u) ∪ N(w);
//!   α drops by exactly one, and a set of the folded graph unfolds to u and w when it holds
//!   the new vertex, to v otherwise (Chen, Kanj and Jia 2001);
//! - domination: when N[v] ⊆ N[u] for adjacent u, v, some maximum set avoids u, which is
//!   removed;
//! - the LP reduction (Nemhauser and Trotter, see [`super::lp`]): the vertices at 0 in an
//!   optimal half-integral solution of the LP relaxation of vertex cover are taken, those
//!   at 1 removed; the matching behind it is kept from node to node and only repaired.
//!
//! What is left splits into connected parts solved one by one; a part is bounded by the
//! least of two clique covers (every independent set meets each clique at most once; see
//! `cliques`) and half its vertices (the LP bound, once the LP reduction has run). Small
//! parts go to the bitset clique search, and larger ones branch on a vertex v of largest
//! degree: v is excluded together with its mirrors, the vertices u at distance two for
//! which N(v) \ N(u) is a clique (Fomin, Grandoni and Kratsch 2009: a maximum set without
//! v holds two non-adjacent neighbours of v, or one avoiding every mirror), or v is taken
//! (its neighbourhood removed), in that order. When the clique cover of a part has exactly
//! one clique more than the part must beat, a better set meets every clique: the vertices
//! alone in their clique are taken, and those adjacent to a whole other clique removed,
//! without branching. Large parts whose clique cover is within a few cliques of what they
//! must beat are first decided as satisfiability (see `maxsat`), branching taking over if
//! that does not end within a number of conflicts.
//!
//! The search starts from the bound of the reduced graph and from a set that the
//! reductions and a greedy exclusion of vertices of largest degree give, improved by local
//! search (`sparse_ils`); it then asks whether a set reaches the bound, which falls by one
//! each time none does, so that each search prunes as hard as it can. A deadline leaves
//! the best set and the bound reached.

use gamegraph_graph::algo::components_by;

use crate::KernelError;
use crate::clique::{Rows, degeneracy_order, max_clique};
use crate::config::{Budget, Cap};
use crate::stable::Found;

use super::lp::{Matching, half_integral, max_matching};
use super::sparse_ils::improve_independent;

mod cliques;
mod maxsat;

use cliques::Forced;
use maxsat::above_by_sat;

/// Parts of at most this many vertices go to the bitset clique search.
const SMALL: usize = 96;
/// Rounds of the local search for the starting set, per vertex and at most (about 0.1 s
/// for 300,000 rounds on 3,000 vertices).
const ILS_PER_VERTEX: usize = 100;
const ILS_ROUNDS: usize = 300_000;
/// Parts of at least this many vertices whose clique cover is at most `SAT_GAP` above what
/// they must beat are decided as satisfiability ([`maxsat`]) first, for at most
/// `SAT_NODES` conflicts; branching takes over when that does not decide them.
const SAT_MIN: usize = 200;
const SAT_GAP: i64 = 4;
const SAT_NODES: u64 = 200_000;

/// A graph under reduction: vertices are never renumbered, removed ones are marked dead and
/// skipped lazily in the adjacency lists; folding appends vertices.
#[derive(Clone)]
struct Sub {
    adj: Vec<Vec<u32>>,
    alive: Vec<bool>,
    deg: Vec<u32>,
    left: usize,
    /// A matching of the bipartite double cover, kept from node to node for the LP.
    mate: Matching,
}

/// What the reductions of one node did, to rebuild a set of the graph it started from.
#[derive(Default)]
struct Log {
    taken: Vec<u32>,
    /// (v, u, w, x): v of degree 2 with neighbours u, w, folded into x.
    folds: Vec<(u32, u32, u32, u32)>,
}

impl Sub {
    fn new(adj: Vec<Vec<u32>>) -> Sub {
        let n = adj.len();
        let deg = adj.iter().map(|a| a.len() as u32).collect();
        Sub { adj, alive: vec![true; n], deg, left: n, mate: Matching::new(n) }
    }

    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.adj[v].iter().map(|&x| x as usize).filter(|&x| self.alive[x])
    }

    /// Removes `v`, pushing neighbours whose degree falls to 2 or less onto `queue`.
    fn kill(
        &mut self,
        v: usize,
        queue: &mut Vec<u32>,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        debug_assert!(self.alive[v]);
        self.alive[v] = false;
        self.mate.unmatch(v);
        self.left -= 1;
        budget.spend(1 + self.adj[v].len() as u64)?;
        for k in 0..self.adj[v].len() {
            let x = self.adj[v][k] as usize;
            if self.alive[x] {
                self.deg[x] -= 1;
                if self.deg[x] <= 2 {
                    queue.push(x as u32);
                }
            }
        }
        Ok(())
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        let (s, t) = if self.adj[a].len() <= self.adj[b].len() { (a, b) } else { (b, a) };
        self.adj[s].iter().any(|&x| x as usize == t)
    }

    /// Takes `v` into the set and removes its closed neighbourhood.
    fn take(
        &mut self,
        v: usize,
        log: &mut Log,
        queue: &mut Vec<u32>,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        log.taken.push(v as u32);
        let nb: Vec<usize> = self.neighbours(v).collect();
        self.kill(v, queue, budget)?;
        for u in nb {
            self.kill(u, queue, budget)?;
        }
        Ok(())
    }

    /// The degree rules and folding until none applies.
    fn reduce_degrees(
        &mut self,
        queue: &mut Vec<u32>,
        log: &mut Log,
        mark: &mut Vec<u32>,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        while let Some(v) = queue.pop() {
            let v = v as usize;
            if !self.alive[v] || self.deg[v] > 2 {
                continue;
            }
            budget.spend(1)?;
            match self.deg[v] {
                0 | 1 => self.take(v, log, queue, budget)?,
                _ => {
                    let mut nb = self.neighbours(v);
                    let (u, w) = (nb.next().expect("degree 2"), nb.next().expect("degree 2"));
                    drop(nb);
                    if self.adjacent(u, w) {
                        self.take(v, log, queue, budget)?;
                    } else {
                        self.fold(v, u, w, queue, log, mark, budget)?;
                    }
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn fold(
        &mut self,
        v: usize,
        u: usize,
        w: usize,
        queue: &mut Vec<u32>,
        log: &mut Log,
        mark: &mut Vec<u32>,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let x = self.adj.len();
        mark.resize(x + 1, 0);
        let mut nx: Vec<u32> = Vec::new();
        for y in self.neighbours(u).chain(self.neighbours(w)) {
            if y != v && mark[y] != x as u32 + 1 {
                mark[y] = x as u32 + 1;
                nx.push(y as u32);
            }
        }
        for y in [v, u, w] {
            self.kill(y, queue, budget)?;
        }
        budget.spend(nx.len() as u64)?;
        for &y in &nx {
            self.adj[y as usize].push(x as u32);
            self.deg[y as usize] += 1;
        }
        self.deg.push(nx.len() as u32);
        self.adj.push(nx);
        self.alive.push(true);
        self.mate.push();
        self.left += 1;
        log.folds.push((v as u32, u as u32, w as u32, x as u32));
        if self.deg[x] <= 2 {
            queue.push(x as u32);
        }
        Ok(())
    }

    /// Removes every vertex u with a neighbour v such that N[v] ⊆ N[u]; returns whether
    /// any was removed.
    fn reduce_domination(
        &mut self,
        queue: &mut Vec<u32>,
        mark: &mut Vec<u32>,
        stamp: &mut u32,
        budget: &mut Budget,
    ) -> Result<bool, KernelError> {
        mark.resize(self.adj.len(), 0);
        let mut any = false;
        for u in 0..self.adj.len() {
            if !self.alive[u] {
                continue;
            }
            *stamp += 1;
            let s = *stamp;
            mark[u] = s;
            for k in 0..self.adj[u].len() {
                mark[self.adj[u][k] as usize] = s;
            }
            budget.spend(self.adj[u].len() as u64)?;
            let du = self.deg[u];
            let dominated = self
                .neighbours(u)
                .any(|v| self.deg[v] <= du && self.neighbours(v).all(|y| mark[y] == s));
            budget.spend(u64::from(du) * u64::from(du))?;
            if dominated {
                self.kill(u, queue, budget)?;
                any = true;
            }
        }
        Ok(any)
    }

    /// Connected parts of the live vertices, each as a list of vertices (in the order of
    /// [`components_by`]: by smallest vertex, each in breadth-first order).
    fn parts(&self, budget: &mut Budget) -> Result<Vec<Vec<u32>>, KernelError> {
        components_by(
            self.adj.len(),
            |v| self.alive[v],
            |v| self.adj[v].iter().copied(),
            |v| budget.spend(self.adj[v].len() as u64),
        )
    }

    /// The subgraph induced by `verts` with ids 0..len.
    fn induced(&self, verts: &[u32], pos: &mut [u32]) -> Sub {
        for (i, &v) in verts.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
        let adj =
            verts.iter().map(|&v| self.neighbours(v as usize).map(|y| pos[y]).collect()).collect();
        let mut sub = Sub::new(adj);
        sub.mate = self.mate.induced(verts, pos);
        sub
    }

    /// The LP reduction (Nemhauser and Trotter, see [`super::lp`]): the vertices at 0 in
    /// an optimal half-integral solution are taken, those at 1 removed; returns whether any
    /// was. Afterwards the all-1/2 solution is optimal, so α is at most half the vertices
    /// of each part.
    fn reduce_lp(
        &mut self,
        queue: &mut Vec<u32>,
        log: &mut Log,
        budget: &mut Budget,
    ) -> Result<bool, KernelError> {
        max_matching(&self.adj, &self.alive, &mut self.mate, budget)?;
        let x = half_integral(&self.adj, &self.alive, &self.mate, budget)?;
        let mut any = false;
        for (v, &xv) in x.iter().enumerate() {
            if self.alive[v] && xv != 1 {
                if xv == 0 {
                    log.taken.push(v as u32);
                }
                self.kill(v, queue, budget)?;
                any = true;
            }
        }
        Ok(any)
    }

    /// An upper bound on α of a reduced part (see [`reduce`]): the least of two clique
    /// covers and half its vertices.
    fn bound(&self, budget: &mut Budget) -> Result<usize, KernelError> {
        let (a, b) = (self.clique_cover(budget)?, self.clique_cover_joined(budget)?.count);
        Ok(a.min(b).min(self.left / 2))
    }

    /// The number of cliques of a greedy clique cover, an upper bound on α.
    fn clique_cover(&self, budget: &mut Budget) -> Result<usize, KernelError> {
        let n = self.adj.len();
        let mut order: Vec<usize> = (0..n).filter(|&v| self.alive[v]).collect();
        order.sort_by_key(|&v| (self.deg[v], v));
        let mut used = vec![false; n];
        let mut cliques = 0;
        let mut members: Vec<usize> = Vec::new();
        for v in order {
            if used[v] {
                continue;
            }
            cliques += 1;
            used[v] = true;
            members.clear();
            members.push(v);
            budget.spend(1 + self.adj[v].len() as u64)?;
            for u in self.neighbours(v) {
                if !used[u] && members[1..].iter().all(|&m| self.adjacent(u, m)) {
                    used[u] = true;
                    members.push(u);
                }
            }
        }
        Ok(cliques)
    }

    /// The mirrors of `v`: vertices u at distance two with N(v) \ N(u) a clique.
    fn mirrors(&self, v: usize, budget: &mut Budget) -> Result<Vec<usize>, KernelError> {
        let nv: Vec<usize> = self.neighbours(v).collect();
        let mut seen = vec![v];
        let mut out = Vec::new();
        for &a in &nv {
            for u in self.neighbours(a) {
                if seen.contains(&u) || nv.contains(&u) {
                    continue;
                }
                seen.push(u);
                budget.spend((nv.len() * nv.len()) as u64)?;
                let rest: Vec<usize> =
                    nv.iter().copied().filter(|&y| !self.adjacent(u, y)).collect();
                let clique = rest
                    .iter()
                    .enumerate()
                    .all(|(i, &p)| rest[i + 1..].iter().all(|&q| self.adjacent(p, q)));
                if clique {
                    out.push(u);
                }
            }
        }
        Ok(out)
    }
}

/// How a search runs.
#[derive(Clone, Copy)]
struct Opts {
    /// Parts of at most this many vertices go to the bitset clique search.
    small: usize,
    /// Only the first branch of each node, without bounds: the reductions and a greedy
    /// choice of the vertices left out (reducing-peeling), a set to start from.
    greedy: bool,
    /// Parts of at least this many vertices may be decided as satisfiability.
    sat_min: usize,
}

/// Applies the reductions until none applies: the degree rules and folding, domination,
/// and the LP reduction last (so that the all-1/2 solution is optimal afterwards).
fn reduce(g: &mut Sub, log: &mut Log, budget: &mut Budget) -> Result<(), KernelError> {
    let n0 = g.adj.len();
    // Separate markers: folding stamps with the new vertex's id, domination with a counter.
    let mut fold_mark: Vec<u32> = vec![0; n0];
    let mut dom_mark: Vec<u32> = vec![0; n0];
    let mut stamp = 0u32;
    let mut queue: Vec<u32> = (0..n0 as u32).filter(|&v| g.deg[v as usize] <= 2).collect();
    loop {
        g.reduce_degrees(&mut queue, log, &mut fold_mark, budget)?;
        if g.reduce_domination(&mut queue, &mut dom_mark, &mut stamp, budget)? {
            continue;
        }
        if !g.reduce_lp(&mut queue, log, budget)? {
            return Ok(());
        }
    }
}

/// An upper bound on α of the graph `g`: what its reductions decide, plus per part left
/// the least of its clique covers and half its vertices.
fn upper_bound(mut g: Sub, budget: &mut Budget) -> Result<usize, KernelError> {
    let mut log = Log::default();
    reduce(&mut g, &mut log, budget)?;
    let mut pos = vec![0u32; g.adj.len()];
    let mut bound = log.taken.len() + log.folds.len();
    for p in g.parts(budget)? {
        bound += g.induced(&p, &mut pos).bound(budget)?;
    }
    Ok(bound)
}

/// Solves a connected graph given as lists; returns an independent set of more than
/// `floor` vertices (a maximum one unless a part was decided as satisfiability, which
/// stops at the first set above its floor), or `None` when α is at most `floor`.
fn solve(
    mut g: Sub,
    floor: i64,
    opts: Opts,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n0 = g.adj.len();
    let mut log = Log::default();
    reduce(&mut g, &mut log, budget)?;
    let fixed = (log.taken.len() + log.folds.len()) as i64;
    let rest = solve_reduced(&g, floor - fixed, opts, budget)?;
    let Some(rest) = rest else { return Ok(None) };
    // Unfold.
    let mut inset = vec![false; g.adj.len()];
    for &v in rest.iter().chain(&log.taken) {
        inset[v as usize] = true;
    }
    for &(v, u, w, x) in log.folds.iter().rev() {
        if inset[x as usize] {
            inset[x as usize] = false;
            inset[u as usize] = true;
            inset[w as usize] = true;
        } else {
            inset[v as usize] = true;
        }
    }
    let set: Vec<u32> = (0..n0 as u32).filter(|&v| inset[v as usize]).collect();
    debug_assert!(inset[n0..].iter().all(|&b| !b));
    Ok(if set.len() as i64 > floor { Some(set) } else { None })
}

/// α of a reduced graph: its parts one by one; `None` when at most `floor`.
fn solve_reduced(
    g: &Sub,
    floor: i64,
    opts: Opts,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    if g.left == 0 {
        return Ok(if floor < 0 { Some(Vec::new()) } else { None });
    }
    let mut parts = g.parts(budget)?;
    parts.sort_by_key(Vec::len);
    let mut pos = vec![0u32; g.adj.len()];
    let subs: Vec<Sub> = parts.iter().map(|p| g.induced(p, &mut pos)).collect();
    let mut bounds = Vec::with_capacity(subs.len());
    for s in subs.iter().filter(|_| !opts.greedy) {
        // The reductions left the all-1/2 solution of the LP optimal (see `reduce_lp`).
        bounds.push(s.bound(budget)? as i64);
    }
    if bounds.iter().sum::<i64>() <= floor {
        return Ok(None);
    }
    let mut set = Vec::new();
    for (k, sub) in subs.into_iter().enumerate() {
        // This part must beat what the solved ones and the bounds of the others leave.
        let need = if opts.greedy {
            -1
        } else {
            floor - set.len() as i64 - bounds[k + 1..].iter().sum::<i64>()
        };
        let Some(got) = branch(sub, need, opts, budget)? else { return Ok(None) };
        set.extend(got.iter().map(|&i| parts[k][i as usize]));
    }
    Ok(if set.len() as i64 > floor { Some(set) } else { None })
}

/// α of a connected reduced graph: bitset search when small, satisfiability when large and
/// close to its bound, else branch on a vertex of largest degree; `None` when at most
/// `floor` (see [`solve`] for the set returned).
fn branch(
    g: Sub,
    floor: i64,
    mut opts: Opts,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n = g.adj.len();
    if n <= opts.small {
        return small(&g, floor, budget);
    }
    budget.tick(n as u64)?;
    if !opts.greedy {
        let mut cover = g.clique_cover_joined(budget)?;
        if cover.count as i64 <= floor {
            return Ok(None);
        }
        if n >= opts.sat_min && cover.count as i64 - floor <= SAT_GAP {
            let found = budget.capped(SAT_NODES, |b| above_by_sat(&g, &cover, floor, b))?;
            match found {
                Some(found) => return Ok(found),
                // Not below this node either.
                None => opts.sat_min = usize::MAX,
            }
        }
        if cover.count as i64 == floor + 1 {
            let Some(Forced { inn, out }) = cover.forced(&g, budget)? else { return Ok(None) };
            if !inn.is_empty() || !out.is_empty() {
                return force(g, floor, &inn, &out, opts, budget);
            }
        }
    }
    let v = (0..n).filter(|&v| g.alive[v]).max_by_key(|&v| (g.deg[v], std::cmp::Reverse(v)));
    let v = v.expect("a vertex");
    let mirrors = if opts.greedy { Vec::new() } else { g.mirrors(v, budget)? };
    let mut best: Option<Vec<u32>> = None;
    let mut floor = floor;
    // Exclude v and its mirrors first (the greedy choice, which finds a good set early),
    // then take v.
    for take in [false, true] {
        if take && opts.greedy {
            break;
        }
        let mut child = g.clone();
        let mut queue = Vec::new();
        if take {
            child.take(v, &mut Log::default(), &mut queue, budget)?;
        } else {
            child.kill(v, &mut queue, budget)?;
            for &m in mirrors.iter().filter(|_| !opts.greedy) {
                child.kill(m, &mut queue, budget)?;
            }
        }
        let live: Vec<u32> = (0..n as u32).filter(|&x| child.alive[x as usize]).collect();
        let mut pos = vec![0u32; n];
        let sub = child.induced(&live, &mut pos);
        if let Some(s) = solve(sub, floor - i64::from(take), opts, budget)? {
            let mut set: Vec<u32> = s.iter().map(|&i| live[i as usize]).collect();
            if take {
                set.push(v as u32);
            }
            floor = set.len() as i64;
            best = Some(set);
        }
    }
    Ok(best)
}

/// α of the connected graph `g` above `floor` when the vertices `inn` must be taken and
/// those of `out` left out (see [`Cover::forced`]); `None` when at most `floor`.
fn force(
    g: Sub,
    floor: i64,
    inn: &[usize],
    out: &[usize],
    opts: Opts,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n = g.adj.len();
    let mut child = g;
    let mut queue = Vec::new();
    for &v in out {
        if child.alive[v] {
            child.kill(v, &mut queue, budget)?;
        }
    }
    for &v in inn {
        if !child.alive[v] {
            // Left out, or beside another vertex taken.
            return Ok(None);
        }
        child.take(v, &mut Log::default(), &mut queue, budget)?;
    }
    let live: Vec<u32> = (0..n as u32).filter(|&x| child.alive[x as usize]).collect();
    let mut pos = vec![0u32; n];
    let sub = child.induced(&live, &mut pos);
    let Some(s) = solve(sub, floor - inn.len() as i64, opts, budget)? else { return Ok(None) };
    let mut set: Vec<u32> = s.iter().map(|&i| live[i as usize]).collect();
    set.extend(inn.iter().map(|&v| v as u32));
    Ok(Some(set))
}

/// A small part by the bitset clique search on its complement.
fn small(g: &Sub, floor: i64, budget: &mut Budget) -> Result<Option<Vec<u32>>, KernelError> {
    let n = g.adj.len();
    let mut rows = Rows::new(n);
    for v in 0..n {
        for y in g.neighbours(v) {
            rows.join(v, y);
        }
    }
    let order = degeneracy_order(&rows.complement());
    let mut pos = vec![0; n];
    for (k, &v) in order.iter().enumerate() {
        pos[v] = k;
    }
    let mut h = Rows::new(n);
    for v in 0..n {
        for y in g.neighbours(v) {
            h.join(pos[v], pos[y]);
        }
    }
    let h = h.complement();
    let f = max_clique(&h, &[], budget, &mut Cap::new(None))?;
    let set: Vec<u32> = f.clique.iter().map(|&k| order[k] as u32).collect();
    Ok(if set.len() as i64 > floor { Some(set) } else { None })
}

/// A maximum independent set of the connected graph `adj` (symmetric lists of local ids,
/// no loops, no repeats), with an upper bound on α when the deadline stops the search.
///
/// The bound of the reduced graph comes first, then a set from the reductions and a
/// greedy choice of the vertices left out, improved by local search; then the search asks
/// whether some set reaches the bound, which lowers it by one each time none does (each of
/// these searches prunes at the bound, which is tight on the instances this serves).
pub(crate) fn max_independent_sparse(
    adj: Vec<Vec<u32>>,
    budget: &mut Budget,
) -> Result<Found, KernelError> {
    sparse_search(adj, SMALL, SAT_MIN, budget)
}

/// [`max_independent_sparse`] with parts of at most `small` vertices left to the bitset
/// search and parts of at least `sat_min` decided as satisfiability when close to the
/// bound.
fn sparse_search(
    adj: Vec<Vec<u32>>,
    small: usize,
    sat_min: usize,
    budget: &mut Budget,
) -> Result<Found, KernelError> {
    let g = Sub::new(adj);
    let mut bound = upper_bound(g.clone(), budget)?;
    let start = solve(g.clone(), -1, Opts { small, greedy: true, sat_min }, budget)?;
    let mut best = start.expect("any set beats -1");
    // The local search only when the reductions' set is short of the bound.
    let rounds = (ILS_PER_VERTEX * g.adj.len()).min(ILS_ROUNDS);
    let mut searched = if best.len() < bound {
        improve_independent(&g.adj, &best, rounds, budget).map(|set| best = set)
    } else {
        Ok(())
    };
    // Is there a set of `bound` vertices? If not, the bound falls by one.
    while searched.is_ok() && best.len() < bound {
        searched =
            solve(g.clone(), bound as i64 - 1, Opts { small, greedy: false, sat_min }, budget).map(
                |found| match found {
                    Some(set) => best = set,
                    None => bound -= 1,
                },
            );
    }
    match searched {
        Ok(()) => Ok(Found { bound: best.len(), set: best, exact: true }),
        Err(e) if e.is_clock() => Ok(Found { set: best, exact: false, bound }),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
