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
//!   removed.
//!
//! What is left splits into connected parts solved one by one; a part is bounded by a greedy
//! clique cover (every independent set meets each clique at most once), small parts go to
//! the bitset clique search, and larger ones branch on a vertex v of largest degree: v is
//! taken (its neighbourhood removed) or v is excluded together with its mirrors, the
//! vertices u at distance two for which N(v) \ N(u) is a clique (Fomin, Grandoni and
//! Kratsch 2009): a maximum set without v holds two non-adjacent neighbours of v, or one
//! avoiding every mirror.

use gamegraph_graph::algo::components_by;

use crate::KernelError;
use crate::clique::{Rows, degeneracy_order, max_clique};
use crate::config::{Budget, Cap};

/// Parts of at most this many vertices go to the bitset clique search.
const SMALL: usize = 96;

/// A graph under reduction: vertices are never renumbered, removed ones are marked dead and
/// skipped lazily in the adjacency lists; folding appends vertices.
#[derive(Clone)]
struct Sub {
    adj: Vec<Vec<u32>>,
    alive: Vec<bool>,
    deg: Vec<u32>,
    left: usize,
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
        Sub { adj, alive: vec![true; n], deg, left: n }
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
        Sub::new(adj)
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

/// Solves a connected graph given as lists; returns its maximum independent set, or `None`
/// when α is at most `floor`.
fn solve(
    mut g: Sub,
    floor: i64,
    small_part: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n0 = g.adj.len();
    let mut log = Log::default();
    // Separate markers: folding stamps with the new vertex's id, domination with a counter.
    let mut fold_mark: Vec<u32> = vec![0; n0];
    let mut dom_mark: Vec<u32> = vec![0; n0];
    let mut stamp = 0u32;
    let mut queue: Vec<u32> = (0..n0 as u32).filter(|&v| g.deg[v as usize] <= 2).collect();
    loop {
        g.reduce_degrees(&mut queue, &mut log, &mut fold_mark, budget)?;
        if !g.reduce_domination(&mut queue, &mut dom_mark, &mut stamp, budget)? {
            break;
        }
    }
    let fixed = (log.taken.len() + log.folds.len()) as i64;
    let rest = solve_reduced(&g, floor - fixed, small_part, budget)?;
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
    small_part: usize,
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
    for s in &subs {
        bounds.push(s.clique_cover(budget)? as i64);
    }
    if bounds.iter().sum::<i64>() <= floor {
        return Ok(None);
    }
    let mut set = Vec::new();
    for (k, sub) in subs.into_iter().enumerate() {
        // This part must beat what the solved ones and the bounds of the others leave.
        let need = floor - set.len() as i64 - bounds[k + 1..].iter().sum::<i64>();
        let Some(got) = branch(sub, need, small_part, budget)? else { return Ok(None) };
        set.extend(got.iter().map(|&i| parts[k][i as usize]));
    }
    Ok(if set.len() as i64 > floor { Some(set) } else { None })
}

/// α of a connected reduced graph: bitset search when small, else branch on a vertex of
/// largest degree; `None` when at most `floor`.
fn branch(
    g: Sub,
    floor: i64,
    small_part: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n = g.adj.len();
    if n <= small_part {
        return small(&g, floor, budget);
    }
    budget.tick(n as u64)?;
    let v = (0..n).filter(|&v| g.alive[v]).max_by_key(|&v| (g.deg[v], std::cmp::Reverse(v)));
    let v = v.expect("a vertex");
    let mut best: Option<Vec<u32>> = None;
    let mut floor = floor;
    // Take v.
    {
        let mut child = g.clone();
        let mut log = Log::default();
        let mut queue = Vec::new();
        child.take(v, &mut log, &mut queue, budget)?;
        let live: Vec<u32> = (0..n as u32).filter(|&x| child.alive[x as usize]).collect();
        let mut pos = vec![0u32; n];
        let sub = child.induced(&live, &mut pos);
        if let Some(s) = solve(sub, floor - 1, small_part, budget)? {
            let mut set: Vec<u32> = s.iter().map(|&i| live[i as usize]).collect();
            set.push(v as u32);
            floor = set.len() as i64;
            best = Some(set);
        }
    }
    // Exclude v and its mirrors.
    {
        let mirrors = g.mirrors(v, budget)?;
        let mut child = g;
        let mut queue = Vec::new();
        child.kill(v, &mut queue, budget)?;
        for m in mirrors {
            child.kill(m, &mut queue, budget)?;
        }
        let live: Vec<u32> = (0..n as u32).filter(|&x| child.alive[x as usize]).collect();
        let mut pos = vec![0u32; n];
        let sub = child.induced(&live, &mut pos);
        if let Some(s) = solve(sub, floor, small_part, budget)? {
            best = Some(s.iter().map(|&i| live[i as usize]).collect());
        }
    }
    Ok(best)
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
/// no loops, no repeats).
pub(crate) fn max_independent_sparse(
    adj: Vec<Vec<u32>>,
    budget: &mut Budget,
) -> Result<Vec<u32>, KernelError> {
    let set = solve(Sub::new(adj), -1, SMALL, budget)?;
    Ok(set.expect("any set beats -1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::SplitMix64;

    fn lists(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
        adj
    }

    fn brute(adj: &[Vec<u32>]) -> usize {
        let n = adj.len();
        let masks: Vec<u64> = adj.iter().map(|a| a.iter().map(|&x| 1u64 << x).sum()).collect();
        fn go(m: &[u64], p: u64) -> usize {
            // Branch on a vertex of largest degree; degree 0 everywhere ends it.
            let (mut v, mut d) = (0, 0);
            let mut q = p;
            while q != 0 {
                let x = q.trailing_zeros() as usize;
                q &= q - 1;
                let dx = (m[x] & p).count_ones();
                if dx >= d {
                    (v, d) = (x, dx);
                }
            }
            if d == 0 {
                return p.count_ones() as usize;
            }
            let rest = p & !(1 << v);
            go(m, rest).max(1 + go(m, rest & !m[v]))
        }
        go(&masks, if n == 64 { !0 } else { (1u64 << n) - 1 })
    }

    fn independent(adj: &[Vec<u32>], set: &[u32]) -> bool {
        set.iter().all(|&v| adj[v as usize].iter().all(|x| !set.contains(x)))
    }

    /// Solves with every part branched on (no hand-off to the bitset search).
    fn solve_all(adj: &[Vec<u32>]) -> Vec<u32> {
        let mut b = Budget::new(&Config::default());
        solve(Sub::new(adj.to_vec()), -1, 0, &mut b).unwrap().unwrap()
    }

    /// Runs only the reductions; returns (taken, folds, vertices left).
    fn reduce_only(adj: &[Vec<u32>], domination: bool) -> (Vec<u32>, usize, usize) {
        let mut b = Budget::new(&Config::default());
        let mut g = Sub::new(adj.to_vec());
        let mut log = Log::default();
        let (mut fm, mut dm, mut stamp) = (vec![0; adj.len()], vec![0; adj.len()], 0);
        let mut queue: Vec<u32> =
            (0..adj.len() as u32).filter(|&v| g.deg[v as usize] <= 2).collect();
        g.reduce_degrees(&mut queue, &mut log, &mut fm, &mut b).unwrap();
        if domination {
            g.reduce_domination(&mut queue, &mut dm, &mut stamp, &mut b).unwrap();
        }
        (log.taken, log.folds.len(), g.left)
    }

    #[test]
    fn degree_one_takes_the_leaf() {
        // A star with three leaves: the leaves are taken.
        let adj = lists(4, &[(0, 1), (0, 2), (0, 3)]);
        let (mut taken, folds, left) = reduce_only(&adj, false);
        taken.sort_unstable();
        assert_eq!((taken, folds, left), (vec![1, 2, 3], 0, 0));
    }

    #[test]
    fn degree_two_in_a_triangle_takes_the_vertex() {
        // K4 minus an edge plus a pendant-free triangle corner: 0 has neighbours 1, 2 joined.
        let adj = lists(5, &[(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (1, 4), (2, 3), (3, 4)]);
        let (taken, folds, _) = reduce_only(&adj, false);
        assert_eq!(taken.first(), Some(&0));
        assert_eq!(folds, 0);
        assert_eq!(solve_all(&adj).len(), brute(&adj));
    }

    #[test]
    fn degree_two_folds_and_unfolds() {
        // A 5-cycle: only folding applies at first; α = 2.
        let adj = lists(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        let (_, folds, left) = reduce_only(&adj, false);
        assert!(folds >= 1);
        assert_eq!(left, 0);
        let set = solve_all(&adj);
        assert_eq!(set.len(), 2);
        assert!(independent(&adj, &set));
    }

    #[test]
    fn domination_removes_the_dominating_vertex() {
        // K4 on 0..3, 4 joined to 0, 1, 2 and 5, 5 joined to 0 and 3: every degree is at
        // least 3, and N[4] = {0, 1, 2, 4, 5} ⊆ N[0], so 0 goes.
        let adj = lists(
            6,
            &[
                (0, 1),
                (0, 2),
                (0, 3),
                (1, 2),
                (1, 3),
                (2, 3),
                (0, 4),
                (1, 4),
                (2, 4),
                (3, 5),
                (4, 5),
                (0, 5),
            ],
        );
        assert!(adj.iter().all(|a| a.len() >= 3));
        let (_, _, before) = reduce_only(&adj, false);
        let (_, _, after) = reduce_only(&adj, true);
        assert_eq!(before, 6);
        assert!(after < 6);
        assert_eq!(solve_all(&adj).len(), brute(&adj));
    }

    #[test]
    fn mirrors_are_found() {
        // v = 0 with neighbours 1, 2 (not adjacent); 3 is joined to 1 and 2: N(0) \ N(3) is
        // empty, a clique, so 3 is a mirror; 4 is joined to 1 only and 5 to 2 only:
        // N(0) \ N(4) = {2} is a clique too.
        let adj = lists(6, &[(0, 1), (0, 2), (3, 1), (3, 2), (4, 1), (5, 2)]);
        let g = Sub::new(adj);
        let mut b = Budget::new(&Config::default());
        let mut m = g.mirrors(0, &mut b).unwrap();
        m.sort_unstable();
        assert_eq!(m, vec![3, 4, 5]);
    }

    #[test]
    fn branch_and_reduce_agrees_with_brute_force() {
        let mut rng = SplitMix64::new(31);
        for round in 0..600 {
            let n = 1 + round % 40;
            let per_mille = [40, 80, 120, 200, 350, 600][round % 6];
            let mut edges = Vec::new();
            for a in 0..n as u32 {
                for b in a + 1..n as u32 {
                    if rng.chance(per_mille) {
                        edges.push((a, b));
                    }
                }
            }
            let adj = lists(n, &edges);
            let set = solve_all(&adj);
            assert!(independent(&adj, &set), "{edges:?}");
            assert_eq!(set.len(), brute(&adj), "{edges:?}");
            let mut b = Budget::new(&Config::default());
            let via_small = solve(Sub::new(adj.clone()), -1, 8, &mut b).unwrap().unwrap();
            assert_eq!(via_small.len(), set.len());
        }
    }
}
