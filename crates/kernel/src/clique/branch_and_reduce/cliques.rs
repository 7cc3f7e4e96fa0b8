//! The clique covers that bound the branch-and-reduce search, and what a tight one forces.

use crate::KernelError;
use crate::config::Budget;

use super::Sub;

impl Sub {
    /// The number of cliques of a clique cover built vertex by vertex, fewest neighbours
    /// first, each vertex joining the largest clique so far that it is adjacent to all of
    /// (Akiba and Iwata), then improved: a clique of one vertex v goes when v can join
    /// another clique whole, or all of one but a member x that can itself join a third
    /// clique. An upper bound on α, in time about linear in the edges.
    pub(super) fn clique_cover_joined(&self, budget: &mut Budget) -> Result<Cover, KernelError> {
        let n = self.adj.len();
        let mut order: Vec<usize> = (0..n).filter(|&v| self.alive[v]).collect();
        order.sort_by_key(|&v| (self.deg[v], v));
        let mut c = Cover {
            clique: vec![NO; n],
            members: Vec::new(),
            seen: Vec::new(),
            touched: Vec::new(),
            count: 0,
        };
        for &v in &order {
            budget.spend(1 + self.adj[v].len() as u64)?;
            let best = c.largest_fit(self, v, NO);
            let best = if best == NO {
                c.members.push(Vec::new());
                c.seen.push(0);
                (c.members.len() - 1) as u32
            } else {
                best
            };
            c.clique[v] = best;
            c.members[best as usize].push(v as u32);
        }
        let mut count = c.members.len();
        let mut mark = vec![false; n];
        for _ in 0..COVER_PASSES {
            let mut better = false;
            for &v in &order {
                let cv = c.clique[v];
                if c.members[cv as usize].len() != 1 {
                    continue;
                }
                budget.spend(1 + self.adj[v].len() as u64)?;
                let whole = c.largest_fit(self, v, cv);
                if whole != NO {
                    c.shift(v, whole);
                    count -= 1;
                    better = true;
                    continue;
                }
                // A clique D that v is adjacent to all of but one member x.
                c.count_cliques(self, v, cv);
                let near: Vec<u32> = c
                    .touched
                    .iter()
                    .copied()
                    .filter(|&d| c.seen[d as usize] as usize + 1 == c.members[d as usize].len())
                    .collect();
                c.clear_counts();
                for y in self.neighbours(v) {
                    mark[y] = true;
                }
                let mut moved = false;
                for d in near {
                    budget.spend(1 + c.members[d as usize].len() as u64)?;
                    let x = c.members[d as usize].iter().map(|&x| x as usize).find(|&x| !mark[x]);
                    let x = x.expect("one member apart from v");
                    budget.spend(1 + self.adj[x].len() as u64)?;
                    let e = c.largest_fit(self, x, d);
                    if e != NO && e != cv {
                        c.shift(x, e);
                        c.shift(v, d);
                        moved = true;
                        break;
                    }
                }
                for y in self.neighbours(v) {
                    mark[y] = false;
                }
                if moved {
                    count -= 1;
                    better = true;
                }
            }
            if !better {
                break;
            }
        }
        c.count = count;
        Ok(c)
    }
}

/// The vertices a tight clique cover forces in and out (see [`Cover::forced`]).
pub(super) struct Forced {
    pub(super) inn: Vec<usize>,
    pub(super) out: Vec<usize>,
}

/// No clique.
const NO: u32 = u32::MAX;
/// Passes of the improvement of the clique cover, at most.
const COVER_PASSES: usize = 3;

/// A clique cover under construction (see [`Sub::clique_cover_joined`]); emptied cliques
/// stay as empty lists.
pub(super) struct Cover {
    clique: Vec<u32>,
    members: Vec<Vec<u32>>,
    /// Per clique: how many neighbours of the current vertex are in it (zero between uses).
    seen: Vec<u32>,
    touched: Vec<u32>,
    /// The cliques not emptied.
    pub(super) count: usize,
}

impl Cover {
    /// The cliques of the cover, the emptied ones left out.
    pub(super) fn cliques(&self) -> impl Iterator<Item = &[u32]> {
        self.members.iter().filter(|m| !m.is_empty()).map(Vec::as_slice)
    }

    /// Counts, per clique other than `skip`, the neighbours of `v` in it (`touched` lists
    /// the cliques met).
    fn count_cliques(&mut self, g: &Sub, v: usize, skip: u32) {
        self.touched.clear();
        for u in g.neighbours(v) {
            let c = self.clique[u];
            if c != NO && c != skip {
                if self.seen[c as usize] == 0 {
                    self.touched.push(c);
                }
                self.seen[c as usize] += 1;
            }
        }
    }

    fn clear_counts(&mut self) {
        for &c in &self.touched {
            self.seen[c as usize] = 0;
        }
    }

    /// The largest clique other than `skip` whose every member is a neighbour of `v`, or
    /// [`NO`].
    fn largest_fit(&mut self, g: &Sub, v: usize, skip: u32) -> u32 {
        self.count_cliques(g, v, skip);
        let mut best = NO;
        for &c in &self.touched {
            let size = self.members[c as usize].len();
            if self.seen[c as usize] as usize == size
                && (best == NO || size > self.members[best as usize].len())
            {
                best = c;
            }
        }
        self.clear_counts();
        best
    }

    /// When the cover has exactly `floor + 1` cliques, a set of more than `floor` vertices
    /// meets each of them: the vertices alone in their clique are in it, and those adjacent
    /// to every member of another clique are not. Returns those two lists (empty unless the
    /// cover is that tight), or `None` when they clash (no such set).
    pub(super) fn forced(
        &mut self,
        g: &Sub,
        budget: &mut Budget,
    ) -> Result<Option<Forced>, KernelError> {
        let n = g.adj.len();
        let alone = |v: usize| g.alive[v] && self.members[self.clique[v] as usize].len() == 1;
        let inn: Vec<usize> = (0..n).filter(|&v| alone(v)).collect();
        let mut out = Vec::new();
        for v in (0..n).filter(|&v| g.alive[v]) {
            budget.spend(1 + g.adj[v].len() as u64)?;
            let lone = self.members[self.clique[v] as usize].len() == 1;
            if self.largest_fit(g, v, self.clique[v]) != NO {
                if lone {
                    return Ok(None);
                }
                out.push(v);
            }
        }
        Ok(Some(Forced { inn, out }))
    }

    /// Moves `v` into clique `to`.
    fn shift(&mut self, v: usize, to: u32) {
        let from = &mut self.members[self.clique[v] as usize];
        let at = from.iter().position(|&x| x as usize == v).expect("a member");
        from.swap_remove(at);
        self.clique[v] = to;
        self.members[to as usize].push(v as u32);
    }
}
