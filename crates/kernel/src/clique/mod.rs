//! α: a maximum independent set, and the maximum clique search it runs on the complement
//! of dense parts (an independent set of G is a clique of its complement).
//!
//! The driver, `independent` (used by `alpha` and by the kernel search's α < β test), takes
//! the vertices of degree 0 and 1, then solves each connected part left: a large sparse
//! part by the branch-and-reduce search of `branch_and_reduce`, any other as a maximum
//! clique of its complement: first, unless the complement's density is above 0.8, by a
//! short search (about 2 · 10^7 / n nodes on n vertices), which proves most parts whose
//! clique is easy to find, then from a clique that the iterated local search of
//! `local_search` and then the k-fixed tabu search of `tabu` improve (on the structured
//! instances the search would otherwise find the large clique late; the proof costs little
//! once it is known). A cover of the part by as many cliques of the α graph as that clique
//! has vertices, found greedily by `cover`, proves it maximum without a search. The clique
//! search is in this folder's other files: `colour` colours the candidates of a node and
//! keeps out the vertices that `prune` can keep out, `tasks` splits the branches near the
//! root into tasks and searches each subtree, on the candidates renumbered in their own
//! degeneracy order by `renumber` when they are many.
//!
//! The clique search is Tomita and Seki's colouring branch-and-bound (MCQ) in San Segundo's bitset
//! form (BBMC): the candidates are greedily coloured into independent sets, and a vertex of
//! colour k cannot extend the current clique by more than k. Three refinements cut the tree:
//! - vertices come in a degeneracy (minimum-width) order, so the colouring at the root is
//!   tight (Tomita et al., MCS, 2010); the branches split off as tasks are coloured, and
//!   searched, on their candidates renumbered in the degeneracy order of the subgraph they
//!   induce, which is tighter there than the order of the whole graph (a dynamic order near
//!   the root);
//! - re-colouring: a vertex that would have to be branched on is moved into a lower colour
//!   class when it has a single neighbour there that can itself move to another class
//!   (the Re-NUMBER step of MCS);
//! - MaxSAT-style inconsistent subsets: a vertex with exactly one neighbour `u` in class i
//!   and one neighbour `w` in class j, `u` and `w` not adjacent, cannot form a clique with
//!   both classes, so {v} ∪ Ci ∪ Cj still contributes at most two; the two classes are then
//!   frozen, which keeps the subsets disjoint and the bound sound (Li and Quan, MaxCLQ 2010;
//!   San Segundo et al., the infra-chromatic bound, 2015).
//!
//! The vertices of the greedy classes after the first k take these steps most neighbours
//! first (the hardest to keep out while the most classes are free): all of them are placed
//! or re-coloured if they can be, then those left go through the MaxSAT test.
//!
//! The unit propagation is incremental: each vertex ruled out lowers the count of its class,
//! and the step that ruled it out is kept, so the classes a conflict depends on are read
//! back without a second pass. Classes are kept as vertex lists, being small in dense graphs.
//!
//! The branches are independent once the incumbent is shared, so they run as rayon tasks
//! with an atomic incumbent size. On graphs of 64 vertices or more, the branches of the root
//! and of the next levels, down to a few hundred tasks, are the tasks (one big branch alone
//! would leave a thread idle); the split does not depend on the number of threads, and
//! neither do the maximum size and the clique returned.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use gamegraph_graph::Limit;
use rayon::prelude::*;

use crate::bits;
use crate::config::{Budget, Cap};
use crate::{Config, KernelError};

/// `$f::<W>($args)` for rows of `$w` words padded to the next of a few widths W, so that
/// the word loops have a constant length; `$wide` above 512 words.
macro_rules! by_width {
    ($w:expr, $f:ident($($a:expr),*), $wide:block) => {
        match $w {
            0..=1 => $f::<1>($($a),*),
            2 => $f::<2>($($a),*),
            3 => $f::<3>($($a),*),
            4 => $f::<4>($($a),*),
            5..=6 => $f::<6>($($a),*),
            7..=8 => $f::<8>($($a),*),
            9..=16 => $f::<16>($($a),*),
            17..=32 => $f::<32>($($a),*),
            33..=64 => $f::<64>($($a),*),
            65..=128 => $f::<128>($($a),*),
            129..=256 => $f::<256>($($a),*),
            257..=512 => $f::<512>($($a),*),
            _ => $wide,
        }
    };
}

mod branch_and_reduce;
mod colour;
mod cover;
mod independent;
pub(crate) mod local_search;
mod lp;
mod prune;
mod renumber;
mod sparse_ils;
mod tabu;
mod tasks;
#[cfg(test)]
mod tests;

pub(crate) use independent::max_independent;

use colour::{Scratch, colour};
use tasks::{
    Frame, Incumbent, SPLIT_DEPTH, SPLIT_TASKS, SPLIT_VERTICES, Task, split, subtree, task_bound,
    witness,
};

/// The adjacency of a graph as bitset rows: `row(v)` has bit `x` set when v and x are
/// adjacent (never bit `v` itself).
pub(crate) struct Rows {
    pub(crate) n: usize,
    w: usize,
    bits: Vec<u64>,
}

impl Rows {
    /// `n` vertices, no edges.
    pub(crate) fn new(n: usize) -> Rows {
        let w = bits::words(n);
        Rows { n, w, bits: vec![0; n * w] }
    }

    /// Joins `a` and `b` (`a != b`).
    pub(crate) fn join(&mut self, a: usize, b: usize) {
        let w = self.w;
        bits::set(&mut self.bits[a * w..(a + 1) * w], b);
        bits::set(&mut self.bits[b * w..(b + 1) * w], a);
    }

    /// The complement graph (no loops).
    pub(crate) fn complement(&self) -> Rows {
        let all = self.all();
        let mut bits = Vec::with_capacity(self.bits.len());
        for v in 0..self.n {
            bits.extend(self.row(v).iter().zip(&all).map(|(r, a)| !r & a));
            let w = self.w;
            bits::clear(&mut bits[v * w..(v + 1) * w], v);
        }
        Rows { n: self.n, w: self.w, bits }
    }

    #[inline]
    pub(crate) fn row(&self, v: usize) -> &[u64] {
        &self.bits[v * self.w..(v + 1) * self.w]
    }

    fn all(&self) -> Vec<u64> {
        let mut all = vec![0; self.w];
        bits::fill(&mut all, self.n);
        all
    }
}

/// What a clique search returned.
pub(crate) struct CliqueFound {
    /// The largest clique found.
    pub(crate) clique: Vec<usize>,
    /// Whether it is proven maximum.
    pub(crate) exact: bool,
    /// A proven upper bound on the clique number.
    pub(crate) bound: usize,
}

/// The rows of [`Rows`] copied into arrays of `W` words (`W` at least the row width), so
/// that the word loops of the search have a constant length.
struct Adj<const W: usize> {
    rows: Vec<[u64; W]>,
}

impl<const W: usize> Adj<W> {
    fn new(r: &Rows) -> Adj<W> {
        let rows = (0..r.n)
            .map(|v| {
                let mut a = [0; W];
                a[..r.w].copy_from_slice(r.row(v));
                a
            })
            .collect();
        Adj { rows }
    }

    #[inline]
    fn row(&self, v: usize) -> &[u64; W] {
        &self.rows[v]
    }
}

/// `a & b`, word by word.
#[inline]
fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|i| a[i] & b[i])
}

/// A vertex order for the colouring: minimum width (degeneracy) order, the vertices of
/// smallest degree in the graph left after removing the later ones placed last. Position i
/// of the result is the vertex that gets number i.
pub(crate) fn degeneracy_order(rows: &Rows) -> Vec<usize> {
    // Peel the vertex of least remaining degree, last position first.
    let n = rows.n;
    let mut deg: Vec<usize> = (0..n).map(|v| bits::count(rows.row(v))).collect();
    let maxd = deg.iter().copied().max().unwrap_or(0);
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); maxd + 1];
    for v in (0..n).rev() {
        buckets[deg[v]].push(v);
    }
    let mut gone = vec![false; n];
    let mut order = vec![0; n];
    let mut low = 0;
    for pos in (0..n).rev() {
        let v = loop {
            while buckets[low].is_empty() {
                low += 1;
            }
            let v = buckets[low].pop().expect("a vertex");
            if !gone[v] && deg[v] == low {
                break v;
            }
        };
        gone[v] = true;
        order[pos] = v;
        bits::for_each(rows.row(v), |x| {
            if !gone[x] {
                deg[x] -= 1;
                buckets[deg[x]].push(x);
                low = low.min(deg[x]);
            }
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }
    order
}

/// A maximum clique of `rows`, whose numbering is the colouring order (see
/// [`degeneracy_order`]). `init` is a clique to start from. With `cap`, the search stops
/// after that many nodes and reports the best clique found with the root bound; without
/// it, the top-level branches run in parallel on the current rayon pool.
pub(crate) fn max_clique(
    rows: &Rows,
    init: &[usize],
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CliqueFound, KernelError> {
    // The parts searched have at most 2^15 vertices, so 512 words.
    by_width!(rows.w, max_clique_w(rows, init, budget, cap), {
        Err(KernelError::TooLarge { vertices: rows.n, max: 512 * 64 })
    })
}

/// [`max_clique`] with rows of `W` words.
fn max_clique_w<const W: usize>(
    rows: &Rows,
    init: &[usize],
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<CliqueFound, KernelError> {
    let n = rows.n;
    let rows = &Adj::<W>::new(rows);
    let shared = Incumbent {
        size: AtomicUsize::new(init.len()),
        best: Mutex::new(init.to_vec()),
        stop: AtomicBool::new(false),
    };
    let mut all = [0; W];
    bits::fill(&mut all, n);
    let mut root = Frame::<W>::new();
    let mut s = Scratch::<W>::new();
    match colour(rows, &all, init.len(), &mut root.branches, &mut s, budget) {
        Ok(()) => {}
        Err(e) if e.is_clock() => {
            return Ok(CliqueFound { clique: init.to_vec(), exact: false, bound: n });
        }
        Err(e) => return Err(e),
    }
    let root_bound = root.branches.cols.last().map_or(init.len(), |&c| c as usize);
    // Branch t: vertex verts[t] with the candidates not branched on before it.
    let m = root.branches.verts.len();
    let mut tasks: Vec<Task<W>> = Vec::with_capacity(m);
    let mut rest = all;
    for t in (0..m).rev() {
        let v = root.branches.verts[t] as usize;
        budget.spend(W as u64)?;
        let p = and(&rest, rows.row(v));
        bits::clear(&mut rest, v);
        tasks.push(Task { start: vec![v], bound: root.branches.cols[t] as usize, p });
    }
    // Split the big branches below the root (the same way whatever the number of threads,
    // so that the witness does not depend on it): the tasks below are the branches of the
    // next level, in the order of a depth-first search.
    if !cap.limited() && n >= SPLIT_VERTICES {
        for _ in 1..SPLIT_DEPTH {
            if tasks.len() >= SPLIT_TASKS {
                break;
            }
            tasks = split(rows, tasks, shared.size.load(Ordering::Relaxed), &mut s, budget)?;
        }
    }
    let parallel = !cap.limited() && budget.unlimited_nodes() && rayon::current_num_threads() > 1;
    // Per task: the largest clique it found, and the incumbent when it ended.
    let mut ends = TaskEnds { ends: vec![(0, 0); tasks.len()], done: vec![false; tasks.len()] };
    let exact = if parallel {
        run_parallel(rows, &tasks, &shared, &mut ends, budget)?
    } else {
        run_in_order(rows, &tasks, &shared, &mut ends, budget, cap)?
    };
    if exact {
        match witness(rows, &tasks, &ends.ends, &shared, budget) {
            // The size is proven; only the choice among maximum cliques was cut short.
            Ok(()) => {}
            Err(e) if e.is_clock() => {}
            Err(e) => return Err(e),
        }
    }
    let clique = shared.best.into_inner().unwrap_or_else(|e| e.into_inner());
    let bound = if exact {
        clique.len()
    } else {
        let open = open_bound(rows, &tasks, &ends.done, clique.len(), &mut s, cap)?;
        open.min(root_bound).max(clique.len())
    };
    Ok(CliqueFound { clique, exact, bound })
}

/// How the tasks ended: per task the largest clique it found and the incumbent when it
/// ended, and whether it ended.
struct TaskEnds {
    ends: Vec<(usize, usize)>,
    done: Vec<bool>,
}

/// Runs the tasks on all the threads of the current rayon pool, each thread taking the next
/// task in turn; returns whether they all ended (none stopped by the deadline).
fn run_parallel<const W: usize>(
    rows: &Adj<W>,
    tasks: &[Task<W>],
    shared: &Incumbent,
    ends: &mut TaskEnds,
    budget: &mut Budget,
) -> Result<bool, KernelError> {
    let mut exact = true;
    let next = AtomicUsize::new(0);
    let ends_m = Mutex::new((&mut ends.ends, &mut ends.done));
    let nodes: Vec<Result<u64, KernelError>> = (0..rayon::current_num_threads())
        .into_par_iter()
        .map(|_| {
            let mut b = budget.fork();
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= tasks.len() || shared.stop.load(Ordering::Relaxed) {
                    return Ok(b.nodes);
                }
                let task = &tasks[t];
                let mut found = 0;
                if task.bound > shared.size.load(Ordering::Relaxed) {
                    let p = task.p;
                    match subtree(rows, &task.start, p, shared, &mut b, &mut Cap::new(None)) {
                        // Stopped by another task's error: not finished.
                        Ok(_) if shared.stop.load(Ordering::Relaxed) => return Ok(b.nodes),
                        Ok(f) => found = f.unwrap_or(0),
                        Err(e) => {
                            shared.stop.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                }
                let end = shared.size.load(Ordering::Relaxed);
                let mut m = ends_m.lock().unwrap_or_else(|e| e.into_inner());
                m.0[t] = (found, end);
                m.1[t] = true;
            }
        })
        .collect();
    for r in nodes {
        match r {
            Ok(n) => budget.nodes += n,
            Err(KernelError::Limit { limit: Limit::Time | Limit::Stop, nodes }) => {
                budget.nodes += nodes;
                exact = false;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(exact)
}

/// Runs the tasks one after the other on this thread, under `cap`; returns whether they
/// all ended (none stopped by the deadline or the cap).
fn run_in_order<const W: usize>(
    rows: &Adj<W>,
    tasks: &[Task<W>],
    shared: &Incumbent,
    ends: &mut TaskEnds,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<bool, KernelError> {
    for (t, task) in tasks.iter().enumerate() {
        let mut found = 0;
        if task.bound > shared.size.load(Ordering::Relaxed) {
            match subtree(rows, &task.start, task.p, shared, budget, cap) {
                Ok(Some(f)) => found = f,
                Ok(None) => return Ok(false),
                Err(e) if e.is_clock() => return Ok(false),
                Err(e) => return Err(e),
            }
        }
        ends.ends[t] = (found, shared.size.load(Ordering::Relaxed));
        ends.done[t] = true;
    }
    Ok(true)
}

/// A bound on the cliques of the tasks left unfinished (`done` false), above a clique of
/// `best` vertices. After a deadline, each such task's bound is tightened by a colouring of
/// its own candidates, the loosest tasks first; the work is one colouring per task at most,
/// so it runs past the deadline.
fn open_bound<const W: usize>(
    rows: &Adj<W>,
    tasks: &[Task<W>],
    done: &[bool],
    best: usize,
    s: &mut Scratch<W>,
    cap: &Cap,
) -> Result<usize, KernelError> {
    let mut left: Vec<&Task<W>> =
        tasks.iter().zip(done).filter(|(_, d)| !**d).map(|(t, _)| t).collect();
    left.sort_by_key(|t| std::cmp::Reverse(t.bound));
    let mut open = 0;
    let mut free = Budget::new(&Config::default());
    for task in left {
        if task.bound <= open {
            break;
        }
        let b = if cap.limited() {
            task.bound
        } else {
            task_bound(rows, task, best, s, &mut free)?.min(task.bound)
        };
        open = open.max(b);
    }
    Ok(open)
}
