//! Searching a subtree on its candidates alone: their subgraph renumbered in its own
//! degeneracy order, on rows no wider than it needs, and the vertices named back in the
//! whole graph.

use crate::KernelError;
use crate::bits;
use crate::config::{Budget, Cap};

use super::and;
use super::tasks::{Incumbent, subtree_in};
use super::{Adj, Rows};

/// The vertex that `v` of a renumbered subgraph stands for (itself when `names` is empty,
/// the graph not renumbered).
pub(super) fn named(names: &[usize], v: usize) -> usize {
    if names.is_empty() { v } else { names[v] }
}

/// Candidates from which a subtree is searched on its own numbering (see [`renumbered`]).
pub(super) const RENUMBER: usize = 100;

/// The subgraph of `rows` on `p` in its own degeneracy order (see [`super::degeneracy_order`]), and
/// for each of its vertices the vertex of `rows` it stands for.
pub(super) fn induced<const W: usize>(
    rows: &Adj<W>,
    p: &[u64; W],
    budget: &mut Budget,
) -> Result<(Rows, Vec<usize>), KernelError> {
    let mut verts = Vec::new();
    bits::for_each(p, |v| {
        verts.push(v);
        Ok::<(), ()>(())
    })
    .expect("infallible");
    let m = verts.len();
    budget.spend((m * W) as u64)?;
    // Degeneracy order of the subgraph (see [`super::degeneracy_order`]), the vertex of
    // fewest neighbours left peeled first. In a dense subgraph the peeling goes through the
    // non-neighbours, which are few: every vertex left loses a neighbour when one is
    // removed, except its non-neighbours, so the vertex of fewest neighbours left is the one
    // of most non-neighbours left. When fewer than a third of the pairs are joined it goes
    // through the neighbours, and so do the rows.
    let mut at = vec![u32::MAX; rows.rows.len()];
    for (i, &v) in verts.iter().enumerate() {
        at[v] = i as u32;
    }
    let non = |v: usize| -> [u64; W] {
        let mut r: [u64; W] = std::array::from_fn(|i| p[i] & !rows.row(v)[i]);
        bits::clear(&mut r, v);
        r
    };
    let miss: Vec<usize> = verts.iter().map(|&v| bits::count(&non(v))).collect();
    let sparse = 3 * miss.iter().sum::<usize>() > 2 * m * m.saturating_sub(1);
    // The pairs the peeling and the rows go through.
    let walk = |v: usize| -> [u64; W] { if sparse { and(p, rows.row(v)) } else { non(v) } };
    let mut buckets = if sparse {
        Buckets::new(miss.iter().map(|&k| m - 1 - k).collect())
    } else {
        Buckets::new(miss)
    };
    let mut left = *p;
    let mut order = vec![0; m];
    for slot in (0..m).rev() {
        let pick = if sparse { buckets.pop_lowest() } else { buckets.pop_highest() };
        order[slot] = pick;
        let v = verts[pick];
        bits::clear(&mut left, v);
        bits::for_each(&and(&walk(v), &left), |x| {
            buckets.lower(at[x] as usize);
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }
    // The subgraph in that order: the neighbours joined, or all pairs joined and the
    // non-neighbours cut.
    let mut pos = vec![0u32; m];
    for (k, &i) in order.iter().enumerate() {
        pos[i] = k as u32;
    }
    let mut local = Rows::new(m);
    let all = local.all();
    for (k, &i) in order.iter().enumerate() {
        let row = &mut local.bits[k * local.w..(k + 1) * local.w];
        if !sparse {
            row.copy_from_slice(&all);
            bits::clear(row, k);
        }
        bits::for_each(&walk(verts[i]), |x| {
            let y = pos[at[x] as usize] as usize;
            if sparse {
                bits::set(row, y)
            } else {
                bits::clear(row, y)
            }
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }
    Ok((local, order.iter().map(|&i| verts[i]).collect()))
}

/// The end of a bucket list.
const NIL: u32 = u32::MAX;

/// Items `0..m` in buckets by a count, each bucket a doubly linked list (`NIL` ends them):
/// `head[c]`, `next`, `prev`.
struct Buckets {
    /// Each item's count, the bucket it is in.
    count: Vec<usize>,
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
    /// No bucket above this one holds an item.
    hi: usize,
    /// No bucket below this one holds an item.
    lo: usize,
}

impl Buckets {
    /// Item i in bucket `count[i]`, the lower items first in each bucket.
    fn new(count: Vec<usize>) -> Buckets {
        let m = count.len();
        let top = count.iter().copied().max().unwrap_or(0);
        let mut head = vec![NIL; top + 1];
        let (mut next, mut prev) = (vec![NIL; m], vec![NIL; m]);
        for i in (0..m).rev() {
            let c = count[i];
            next[i] = head[c];
            if head[c] != NIL {
                prev[head[c] as usize] = i as u32;
            }
            head[c] = i as u32;
        }
        Buckets { count, head, next, prev, hi: top, lo: 0 }
    }

    /// Removes and returns the first item of the highest bucket not empty.
    fn pop_highest(&mut self) -> usize {
        while self.head[self.hi] == NIL {
            self.hi -= 1;
        }
        self.pop_head(self.hi)
    }

    /// Removes and returns the first item of the lowest bucket not empty.
    fn pop_lowest(&mut self) -> usize {
        while self.head[self.lo] == NIL {
            self.lo += 1;
        }
        self.pop_head(self.lo)
    }

    /// Removes and returns the first item of bucket `c`, which holds one.
    fn pop_head(&mut self, c: usize) -> usize {
        let pick = self.head[c] as usize;
        self.head[c] = self.next[pick];
        if self.next[pick] != NIL {
            self.prev[self.next[pick] as usize] = NIL;
        }
        pick
    }

    /// Moves item `i` from its bucket to the one below, at its head.
    fn lower(&mut self, i: usize) {
        let (head, next, prev) = (&mut self.head, &mut self.next, &mut self.prev);
        let c = self.count[i];
        let (a, b) = (prev[i], next[i]);
        if a == NIL {
            head[c] = b;
        } else {
            next[a as usize] = b;
        }
        if b != NIL {
            prev[b as usize] = a;
        }
        self.count[i] = c - 1;
        prev[i] = NIL;
        next[i] = head[c - 1];
        if head[c - 1] != NIL {
            prev[head[c - 1] as usize] = i as u32;
        }
        head[c - 1] = i as u32;
        self.lo = self.lo.min(c - 1);
    }
}

/// With [`RENUMBER`] candidates `p` or more, their subgraph renumbered (see [`induced`]),
/// the vertex of `rows` each of its vertices stands for, and all its vertices as the
/// candidates; with fewer, no graph (`rows` itself), no names and `p`.
#[allow(clippy::type_complexity)]
pub(super) fn local_or_not<const W: usize>(
    rows: &Adj<W>,
    p: &[u64; W],
    budget: &mut Budget,
) -> Result<(Option<Adj<W>>, Vec<usize>, [u64; W]), KernelError> {
    if bits::count(p) < RENUMBER {
        return Ok((None, Vec::new(), *p));
    }
    let (local, names) = induced(rows, p, budget)?;
    let mut all = [0; W];
    bits::fill(&mut all, names.len());
    Ok((Some(Adj::<W>::new(&local)), names, all))
}

/// Searches the subtree of `start` with candidates `p` on the subgraph of `p` alone,
/// renumbered in its own degeneracy order and on rows no wider than it needs: the
/// colourings below then follow the order of the subgraph, not that of the whole graph.
pub(super) fn renumbered<const W: usize>(
    rows: &Adj<W>,
    start: &[usize],
    p: &[u64; W],
    shared: &Incumbent,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    let (local, names) = induced(rows, p, budget)?;
    by_width!(local.w, subtree_of(&local, &names, start, shared, budget, cap), {
        unreachable!("a subgraph is no wider than its graph")
    })
}

/// The subtree of `start` with all the vertices of `rows` as candidates, on rows of `W`
/// words.
pub(super) fn subtree_of<const W: usize>(
    rows: &Rows,
    names: &[usize],
    start: &[usize],
    shared: &Incumbent,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    let adj = Adj::<W>::new(rows);
    let mut all = [0; W];
    bits::fill(&mut all, rows.n);
    subtree_in(&adj, names, start, all, shared, budget, cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::SplitMix64;

    /// On candidates of every density, the renumbered subgraph is the one induced, named
    /// back to its vertices, in a degeneracy order: each vertex has the fewest neighbours
    /// among those at or before it.
    #[test]
    fn the_renumbered_subgraph_is_induced_in_a_degeneracy_order() {
        let mut rng = SplitMix64::new(3);
        for per_mille in [50, 200, 330, 400, 600, 900] {
            let n = 180;
            let mut g = Rows::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if rng.chance(per_mille) {
                        g.join(a, b);
                    }
                }
            }
            let rows = Adj::<3>::new(&g);
            let mut p = [0u64; 3];
            for v in (0..n).filter(|_| rng.chance(800)) {
                bits::set(&mut p, v);
            }
            let m = bits::count(&p);
            let mut b = Budget::new(&Config::default());
            let (local, names) = induced(&rows, &p, &mut b).unwrap();
            assert_eq!(names.len(), m);
            for i in 0..m {
                assert!(bits::get(&p, names[i]));
                for j in 0..m {
                    let joined = i != j && bits::get(rows.row(names[i]), names[j]);
                    assert_eq!(bits::get(local.row(i), j), joined, "density {per_mille}");
                }
            }
            for k in 0..m {
                let degree = |x: usize| (0..=k).filter(|&y| bits::get(local.row(x), y)).count();
                assert!((0..k).all(|x| degree(k) <= degree(x)), "density {per_mille}, at {k}");
            }
        }
    }
}
