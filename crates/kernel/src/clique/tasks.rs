//! The tasks of the clique search: the branches near the root, split down a few levels,
//! each searched depth-first on its own with the incumbent shared between them, and the
//! witness chosen so that it does not depend on the number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::KernelError;
use crate::bits;
use crate::config::{Budget, Cap};

use super::colour::{Branches, Scratch, colour};
use super::renumber::{RENUMBER, local_or_not, named, renumbered};
use super::{Adj, and};

/// A node of the search: its candidates and the vertices to branch on, by colour.
pub(super) struct Frame<const W: usize> {
    pub(super) p: [u64; W],
    pub(super) branches: Branches,
    pub(super) i: usize,
}

impl<const W: usize> Frame<W> {
    pub(super) fn new() -> Frame<W> {
        Frame { p: [0; W], branches: Branches::default(), i: 0 }
    }
}

/// A branch of the search: the clique `start`, its candidates `p` (common neighbours of
/// `start`, not branched on before), and a bound on the size of any clique it holds.
pub(super) struct Task<const W: usize> {
    pub(super) start: Vec<usize>,
    pub(super) bound: usize,
    pub(super) p: [u64; W],
}

/// Levels of branches, at most, that become tasks of their own.
pub(super) const SPLIT_DEPTH: usize = 3;
/// Split no further once there are this many tasks.
pub(super) const SPLIT_TASKS: usize = 256;
/// Graphs below this size are not split (their searches are too short to gain from it).
pub(super) const SPLIT_VERTICES: usize = 64;

/// The tasks of the next level: each task's branches from a colouring of its candidates in
/// their own degeneracy order (as [`renumbered`] takes them), those that cannot beat `best`
/// left out; a task without candidates stays as it is.
pub(super) fn split<const W: usize>(
    rows: &Adj<W>,
    tasks: Vec<Task<W>>,
    best: usize,
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<Vec<Task<W>>, KernelError> {
    let mut next = Vec::with_capacity(tasks.len() * 4);
    let mut f = Frame::<W>::new();
    for task in tasks {
        if task.bound <= best {
            continue;
        }
        if bits::is_empty(&task.p) {
            next.push(task);
            continue;
        }
        budget.tick(W as u64)?;
        let depth = task.start.len();
        let k = best.saturating_sub(depth);
        // Many candidates are coloured in their own order (see [`renumbered`]); the
        // branches' candidates are named back in the whole graph.
        let (graph, names, p) = local_or_not(rows, &task.p, budget)?;
        let graph = graph.as_ref().unwrap_or(rows);
        colour(graph, &p, k, &mut f.branches, s, budget)?;
        let mut rest = p;
        for t in (0..f.branches.verts.len()).rev() {
            let v = f.branches.verts[t] as usize;
            budget.spend(W as u64)?;
            let q = and(&rest, graph.row(v));
            bits::clear(&mut rest, v);
            let p = if names.is_empty() {
                q
            } else {
                let mut p = [0; W];
                bits::for_each(&q, |x| {
                    bits::set(&mut p, names[x]);
                    Ok::<(), ()>(())
                })
                .expect("infallible");
                p
            };
            let mut start = task.start.clone();
            start.push(named(&names, v));
            next.push(Task { start, bound: depth + f.branches.cols[t] as usize, p });
        }
    }
    Ok(next)
}

/// A bound on the size of the cliques of `task`, from a colouring of its candidates with the
/// `best - depth` classes that cannot beat `best` pruned (see [`colour`]).
pub(super) fn task_bound<const W: usize>(
    rows: &Adj<W>,
    task: &Task<W>,
    best: usize,
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<usize, KernelError> {
    let depth = task.start.len();
    let m = bits::count(&task.p);
    let (graph, _, p) = local_or_not(rows, &task.p, budget)?;
    let graph = graph.as_ref().unwrap_or(rows);
    let k = best.saturating_sub(depth).min(m);
    let mut f = Frame::<W>::new();
    colour(graph, &p, k, &mut f.branches, s, budget)?;
    Ok(depth + f.branches.cols.last().map_or(k, |&c| c as usize))
}

/// The incumbent shared by the tasks.
pub(super) struct Incumbent {
    pub(super) size: AtomicUsize,
    pub(super) best: Mutex<Vec<usize>>,
    pub(super) stop: AtomicBool,
}

impl Incumbent {
    pub(super) fn offer(&self, clique: &[usize]) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if clique.len() > best.len() {
            best.clear();
            best.extend_from_slice(clique);
            self.size.store(clique.len(), Ordering::Relaxed);
        }
    }
}

/// Searches the subtree of the clique `start` (candidates `p`, already restricted to common
/// neighbours); with [`RENUMBER`] candidates or more, on their own numbering (see
/// [`renumbered`]). Returns `Ok(None)` when `cap` stopped it, else the size of the largest
/// clique it offered (0 if none).
pub(super) fn subtree<const W: usize>(
    rows: &Adj<W>,
    start: &[usize],
    p: [u64; W],
    shared: &Incumbent,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    if bits::count(&p) >= RENUMBER {
        return renumbered(rows, start, &p, shared, budget, cap);
    }
    subtree_in(rows, &[], start, p, shared, budget, cap)
}

/// [`subtree`] on `rows`, whose vertex v is named `names[v]` in the clique offered (the
/// identity when `names` is empty).
pub(super) fn subtree_in<const W: usize>(
    rows: &Adj<W>,
    names: &[usize],
    start: &[usize],
    p: [u64; W],
    shared: &Incumbent,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    let name = |v: usize| named(names, v);
    let mut s = Scratch::<W>::new();
    let mut cur: Vec<usize> = start.to_vec();
    let best = shared.size.load(Ordering::Relaxed);
    let mut found = 0;
    if bits::is_empty(&p) {
        if cur.len() > best {
            shared.offer(&cur);
            found = cur.len();
        }
        return Ok(Some(found));
    }
    let mut root = Frame { p, ..Frame::new() };
    let k = best.saturating_sub(cur.len());
    colour(rows, &root.p, k, &mut root.branches, &mut s, budget)?;
    root.i = root.branches.verts.len();
    let depth0 = cur.len();
    let mut frames = vec![root];
    let mut pool: Vec<Frame<W>> = Vec::new();
    while let Some(top) = frames.last_mut() {
        if top.i == 0 {
            pool.push(frames.pop().expect("a frame"));
            if cur.len() > depth0 {
                cur.pop();
            }
            continue;
        }
        top.i -= 1;
        let best = shared.size.load(Ordering::Relaxed);
        if cur.len() + top.branches.cols[top.i] as usize <= best
            || shared.stop.load(Ordering::Relaxed)
        {
            top.i = 0;
            continue;
        }
        if !cap.spend() {
            return Ok(None);
        }
        budget.tick(W as u64)?;
        let v = top.branches.verts[top.i] as usize;
        let mut child = pool.pop().unwrap_or_else(Frame::new);
        child.p = and(&top.p, rows.row(v));
        bits::clear(&mut top.p, v);
        cur.push(name(v));
        let size = bits::count(&child.p);
        if size <= 1 || cur.len() + size <= best {
            // No candidate, or a single one: the clique is complete without a colouring.
            if cur.len() + size > best {
                let last = bits::first(&child.p);
                cur.extend(last.map(name));
                shared.offer(&cur);
                found = found.max(cur.len());
                cur.truncate(cur.len() - size);
            }
            cur.pop();
            pool.push(child);
            continue;
        }
        let k = best.saturating_sub(cur.len());
        colour(rows, &child.p, k, &mut child.branches, &mut s, budget)?;
        child.i = child.branches.verts.len();
        if child.i == 0 {
            cur.pop();
            pool.push(child);
            continue;
        }
        frames.push(child);
    }
    Ok(Some(found))
}

/// Replaces the witness of `shared` by one that does not depend on the number of threads:
/// the first clique of the maximum size found by a search with that size minus one as a
/// fixed incumbent, in the first task that holds such a clique. A task that ended while the
/// incumbent was below the maximum holds none, so only the tasks that ended later are tried.
pub(super) fn witness<const W: usize>(
    rows: &Adj<W>,
    tasks: &[Task<W>],
    ends: &[(usize, usize)],
    shared: &Incumbent,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let omega = shared.size.load(Ordering::Relaxed);
    let Some(first) = ends.iter().position(|&(found, _)| found == omega) else {
        return Ok(()); // the starting clique was already maximum
    };
    for (t, task) in tasks.iter().enumerate().take(first + 1) {
        if ends[t].1 < omega || task.bound < omega {
            continue;
        }
        let fixed = Incumbent {
            size: AtomicUsize::new(omega - 1),
            best: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
        };
        subtree(rows, &task.start, task.p, &fixed, budget, &mut Cap::new(None))?;
        let best = fixed.best.into_inner().unwrap_or_else(|e| e.into_inner());
        if best.len() == omega {
            *shared.best.lock().unwrap_or_else(|e| e.into_inner()) = best;
            return Ok(());
        }
    }
    Ok(())
}
