//! Maximum clique by bitset branch-and-bound, used for α on dense parts (an independent set
//! of G is a clique of its complement).
//!
//! The search is Tomita and Seki's colouring branch-and-bound (MCQ) in San Segundo's bitset
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

/// A node of the search: its candidates and the vertices to branch on, by colour.
struct Frame<const W: usize> {
    p: [u64; W],
    verts: Vec<u32>,
    cols: Vec<u32>,
    i: usize,
}

impl<const W: usize> Frame<W> {
    fn new() -> Frame<W> {
        Frame { p: [0; W], verts: Vec::new(), cols: Vec::new(), i: 0 }
    }
}

/// No class: the vertex is outside the classes of the colouring.
const NONE: u32 = u32::MAX;

/// Buffers of the colouring.
struct Scratch<const W: usize> {
    u: [u64; W],
    q: [u64; W],
    /// The first `k` colour classes (small in dense graphs, so kept as lists).
    classes: Vec<Vec<u32>>,
    /// The class of each member of the classes (read only for the members, see `live`).
    class_of: Vec<u32>,
    /// Per class: the union of its members' rows (a vertex outside it can join the class),
    /// word-major: word `wi` of class `c` at `wi * k + c`, so that one vertex's bits in all
    /// classes are contiguous.
    reach: Vec<u64>,
    frozen: Vec<bool>,
    /// Per class: how many neighbours of the tested vertex it holds (not yet ruled out),
    /// valid when `counted` holds the current `test`.
    counts: Vec<u32>,
    counted: Vec<u64>,
    /// The vertices tested so far.
    test: u64,
    /// Per class: how many of its members the tested vertex is not adjacent to; the classes
    /// where this is not zero.
    miss: Vec<u32>,
    touched: Vec<u32>,
    /// Per class: the exclusive or of its members, of those counted in `miss`, and (valid
    /// with `counts`) of the neighbours of the tested vertex not yet ruled out; so the
    /// member left when a count is one is read without a search.
    xall: Vec<u32>,
    xmiss: Vec<u32>,
    xleft: Vec<u32>,
    /// The classes of a single member, not frozen, as a bitset.
    ones: Vec<u64>,
    /// The classes in `touched`, as a bitset.
    hit: Vec<u64>,
    singles: Vec<(usize, usize)>,
    /// The classes holding a single neighbour of the tested vertex, as a bitset.
    single_mask: Vec<u64>,
    /// Counts the changes of the classes.
    epoch: u64,
    /// Per vertex: the class it can move to ([`NONE`] if none), valid while `epoch` is the
    /// one stored.
    moves: Vec<(u64, u32)>,
    cand: [u64; W],
    /// The members of the classes not frozen.
    live: [u64; W],
    used: Vec<bool>,
    queue: Vec<u32>,
    /// Per vertex ruled out by the propagation: the step that ruled it out.
    reason: Vec<u32>,
    chain: Vec<(usize, usize)>,
    needed: Vec<bool>,
    /// The vertices of the greedy classes after the first `k`: each with its greedy class,
    /// and whether it is still kept (neither placed into a class nor in an inconsistent
    /// subset).
    pending: Vec<(u32, u32, bool)>,
    /// The order of their tests: (`u32::MAX` - degree in the candidates, index).
    order: Vec<(u32, u32)>,
}

impl<const W: usize> Scratch<W> {
    fn new() -> Scratch<W> {
        Scratch {
            u: [0; W],
            q: [0; W],
            classes: Vec::new(),
            class_of: Vec::new(),
            reach: Vec::new(),
            frozen: Vec::new(),
            counts: Vec::new(),
            counted: Vec::new(),
            test: 0,
            miss: Vec::new(),
            touched: Vec::new(),
            xall: Vec::new(),
            xmiss: Vec::new(),
            xleft: Vec::new(),
            ones: Vec::new(),
            singles: Vec::new(),
            single_mask: Vec::new(),
            hit: Vec::new(),
            epoch: 0,
            moves: Vec::new(),
            cand: [0; W],
            live: [0; W],
            used: Vec::new(),
            queue: Vec::new(),
            reason: Vec::new(),
            chain: Vec::new(),
            needed: Vec::new(),
            pending: Vec::new(),
            order: Vec::new(),
        }
    }
}

/// Sets `s.miss[i]` to the number of members of class i outside the row `ru` (`s.xmiss[i]`
/// to their exclusive or), for the classes not frozen, and `s.touched` to the classes where
/// it is not zero.
#[inline]
fn non_neighbours<const W: usize>(ru: &[u64; W], s: &mut Scratch<W>) {
    for &c in &s.touched {
        s.miss[c as usize] = 0;
        s.xmiss[c as usize] = 0;
        bits::clear(&mut s.hit, c as usize);
    }
    s.touched.clear();
    for (wi, (a, b)) in s.live.iter().zip(ru).enumerate() {
        let mut m = a & !b;
        while m != 0 {
            let x = wi * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let c = s.class_of[x] as usize;
            let miss = &mut s.miss[c];
            if *miss == 0 {
                s.touched.push(c as u32);
                bits::set(&mut s.hit, c);
            }
            *miss += 1;
            s.xmiss[c] ^= x as u32;
        }
    }
}

/// Adds the row `r` to the union of class `c` in `reach` (see [`Scratch::reach`]).
#[inline]
fn join<const W: usize>(reach: &mut [u64], k: usize, c: usize, r: &[u64; W]) {
    for (wi, r) in r.iter().enumerate() {
        reach[wi * k + c] |= r;
    }
}

/// The first class other than `skip` whose word in `reach` (one word per class) does not
/// have the bit `bit`, or [`NONE`].
#[inline]
fn first_free(reach: &[u64], bit: u64, skip: usize) -> u32 {
    for (ci, chunk) in reach.chunks(64).enumerate() {
        let mut m = 0u64;
        for (c, &r) in chunk.iter().enumerate() {
            m |= u64::from(r & bit == 0) << c;
        }
        if skip >> 6 == ci {
            m &= !(1 << (skip & 63));
        }
        if m != 0 {
            return (ci * 64) as u32 + m.trailing_zeros();
        }
    }
    NONE
}

/// The count of class `c` for the tested vertex (see [`Scratch::counts`]).
#[inline]
fn count_of<const W: usize>(c: usize, s: &mut Scratch<W>) -> &mut u32 {
    if s.counted[c] != s.test {
        s.counted[c] = s.test;
        s.counts[c] = s.classes[c].len() as u32 - s.miss[c];
        s.xleft[c] = s.xall[c] ^ s.xmiss[c];
    }
    &mut s.counts[c]
}

/// Tries to keep `v` out of the branching set given the `k` pruned classes in `s`: puts it into a class where it has no neighbour, then either (without
/// `sat`) re-colours its single neighbour of a class, or (with `sat`) finds an inconsistent
/// subset {v} ∪ Ci ∪ Cj ∪ … and freezes those classes.
fn prune<const W: usize>(rows: &Adj<W>, v: usize, k: usize, s: &mut Scratch<W>, sat: bool) -> bool {
    let rv = rows.row(v);
    // The graph is dense: count the non-neighbours of v in each class, not the neighbours.
    // Only the classes holding a non-neighbour of v, and those of a single member, can
    // hold fewer than two neighbours of v.
    debug_assert!(!bits::get(&s.live, v));
    non_neighbours(rv, s);
    s.test += 1;
    s.singles.clear();
    s.single_mask.iter_mut().for_each(|m| *m = 0);
    let mut empty = NONE;
    for &c in &s.touched {
        let i = c as usize;
        if s.frozen[i] {
            continue;
        }
        match s.classes[i].len() as u32 - s.miss[i] {
            0 => empty = empty.min(c),
            1 => bits::set(&mut s.single_mask, i),
            _ => {}
        }
    }
    if empty != NONE {
        let i = empty as usize;
        s.classes[i].push(v as u32);
        s.xall[i] ^= v as u32;
        s.class_of[v] = empty;
        bits::clear(&mut s.ones, i);
        bits::set(&mut s.live, v);
        join(&mut s.reach, k, i, rv);
        s.epoch += 1;
        return true;
    }
    // The classes of a single member without a non-neighbour of v hold a single neighbour.
    // The member is the exclusive or of the class's members, less its non-neighbours of v.
    for (wi, m) in s.single_mask.iter().enumerate() {
        let mut m = m | (s.ones[wi] & !s.hit[wi]);
        while m != 0 {
            let i = wi * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            s.singles.push((i, (s.xall[i] ^ s.xmiss[i]) as usize));
        }
    }
    // The MaxSAT pass does not re-colour again: the classes changed little since.
    let tries = if sat { 0 } else { s.singles.len() };
    for t in 0..tries {
        let (i, u) = s.singles[t];
        // The first other class none of whose members is adjacent to u.
        let (wu, bu) = (u >> 6, 1u64 << (u & 63));
        let free = if s.moves[u].0 == s.epoch {
            s.moves[u].1
        } else {
            // No class is frozen before the MaxSAT pass.
            let f = first_free(&s.reach[wu * k..(wu + 1) * k], bu, i);
            s.moves[u] = (s.epoch, f);
            f
        };
        let free = (free != NONE).then_some(free as usize);
        if let Some(j) = free {
            let at = s.classes[i].iter().position(|&x| x as usize == u).expect("a member");
            s.classes[i][at] = v as u32;
            s.classes[j].push(u as u32);
            bits::clear(&mut s.ones, j);
            s.xall[i] ^= (u ^ v) as u32;
            s.xall[j] ^= u as u32;
            s.class_of[v] = i as u32;
            s.class_of[u] = j as u32;
            bits::set(&mut s.live, v);
            let ru = rows.row(u);
            join(&mut s.reach, k, j, ru);
            let mut r = [0; W];
            for &x in &s.classes[i] {
                for (a, b) in r.iter_mut().zip(rows.row(x as usize)) {
                    *a |= b;
                }
            }
            for (wi, r) in r.iter().enumerate() {
                s.reach[wi * k + i] = *r;
            }
            s.epoch += 1;
            return true;
        }
    }
    // Unit propagation over the classes as soft clauses (MaxCLQ): taking v forces the single
    // neighbour of each unit class; a class left without candidates is a conflict. Each
    // vertex ruled out lowers the count of its class, so a step costs the vertices it rules
    // out.
    if s.singles.is_empty() || !sat {
        return false;
    }
    s.cand = and(rv, &s.live);
    s.used.clear();
    s.used.resize(k, false);
    s.chain.clear();
    s.queue.clear();
    s.queue.extend(s.singles.iter().map(|&(i, _)| i as u32));
    let mut head = 0;
    while head < s.queue.len() {
        let i = s.queue[head] as usize;
        head += 1;
        if s.used[i] {
            continue;
        }
        // The class's single neighbour of v left: counted, or one of the starting singles.
        let u = if s.counted[i] == s.test { s.xleft[i] } else { s.xall[i] ^ s.xmiss[i] } as usize;
        debug_assert!(bits::get(&s.cand, u) && s.class_of[u] as usize == i);
        s.used[i] = true;
        let step = s.chain.len() as u32;
        s.chain.push((i, u));
        let ru = rows.row(u);
        for (wi, &r) in ru.iter().enumerate() {
            let mut gone = s.cand[wi] & !r;
            if wi == u >> 6 {
                gone &= !(1u64 << (u & 63));
            }
            s.cand[wi] &= !gone;
            while gone != 0 {
                let x = wi * 64 + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                let ci = s.class_of[x] as usize;
                if s.used[ci] {
                    continue;
                }
                s.reason[x] = step;
                let count = count_of(ci, s);
                *count -= 1;
                let count = *count;
                s.xleft[ci] ^= x as u32;
                match count {
                    0 => {
                        conflict(rv, ci, s);
                        return true;
                    }
                    1 => s.queue.push(ci as u32),
                    _ => {}
                }
            }
        }
    }
    false
}

/// Freezes the class `e` left empty by the propagation and the classes of the steps it
/// depends on: each neighbour of v in a class was ruled out by a step, and a step depends
/// on the steps that ruled out the rest of its class.
fn conflict<const W: usize>(rv: &[u64; W], e: usize, s: &mut Scratch<W>) {
    let steps = s.chain.len();
    s.needed.clear();
    s.needed.resize(steps, false);
    let explain = |class: usize, keep: usize, needed: &mut [bool]| {
        for &x in &s.classes[class] {
            let x = x as usize;
            if x != keep && bits::get(rv, x) {
                needed[s.reason[x] as usize] = true;
            }
        }
    };
    explain(e, usize::MAX, &mut s.needed);
    for j in (0..steps).rev() {
        if s.needed[j] {
            let (class, u) = s.chain[j];
            explain(class, u, &mut s.needed);
        }
    }
    freeze(e, s);
    for j in 0..steps {
        if s.needed[j] {
            freeze(s.chain[j].0, s);
        }
    }
}

/// Freezes the class `c`: its members leave `s.live`.
fn freeze<const W: usize>(c: usize, s: &mut Scratch<W>) {
    s.frozen[c] = true;
    bits::clear(&mut s.ones, c);
    for &x in &s.classes[c] {
        bits::clear(&mut s.live, x as usize);
    }
}

/// Colours the candidates `p` greedily; the first `k` classes are pruned (their vertices
/// cannot raise the clique above the incumbent) and so are the vertices [`prune`] keeps out:
/// first by placing them in a class, then, for those left, by inconsistent subsets. The
/// others go to `verts` with their bound in `cols`, in non-decreasing order.
fn colour<const W: usize>(
    rows: &Adj<W>,
    p: &[u64; W],
    k: usize,
    (verts, cols): (&mut Vec<u32>, &mut Vec<u32>),
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let w = W as u64;
    s.u = *p;
    verts.clear();
    cols.clear();
    if s.classes.len() < k {
        s.classes.resize_with(k, Vec::new);
    }
    for c in &mut s.classes[..k] {
        c.clear();
    }
    s.reach.clear();
    s.reach.resize(k * W, 0);
    s.single_mask.clear();
    s.single_mask.resize(bits::words(k), 0);
    s.ones.clear();
    s.ones.resize(bits::words(k), 0);
    s.hit.clear();
    s.hit.resize(bits::words(k), 0);
    s.moves.resize(rows.rows.len(), (0, 0));
    s.epoch += 1;
    s.frozen.clear();
    s.frozen.resize(k, false);
    s.counts.clear();
    s.counts.resize(k, 0);
    s.counted.clear();
    s.counted.resize(k, 0);
    s.test = 0;
    s.miss.clear();
    s.miss.resize(k, 0);
    for x in [&mut s.xall, &mut s.xmiss, &mut s.xleft] {
        x.clear();
        x.resize(k, 0);
    }
    s.touched.clear();
    s.live = [0; W];
    s.class_of.resize(rows.rows.len(), NONE);
    s.reason.resize(rows.rows.len(), 0);
    let mut built = 0;
    s.pending.clear();
    let mut col = k as u32;
    while !bits::is_empty(&s.u) {
        budget.spend(w)?;
        s.q = s.u;
        if built == k {
            for c in 0..k {
                if s.classes[c].len() == 1 {
                    bits::set(&mut s.ones, c);
                }
            }
        }
        // Taking a vertex only clears bits, so the scan goes on from its word.
        let mut wi = 0;
        loop {
            while wi < W && s.q[wi] == 0 {
                wi += 1;
            }
            if wi == W {
                break;
            }
            let v = wi * 64 + s.q[wi].trailing_zeros() as usize;
            s.q[wi] &= s.q[wi] - 1;
            bits::clear(&mut s.u, v);
            let r = rows.row(v);
            if W <= 8 {
                // Short rows: the whole row, a loop of constant length.
                for (q, r) in s.q.iter_mut().zip(r) {
                    *q &= !r;
                }
            } else {
                for (q, r) in s.q[wi..].iter_mut().zip(&r[wi..]) {
                    *q &= !r;
                }
            }
            if built < k {
                s.classes[built].push(v as u32);
                s.xall[built] ^= v as u32;
                s.class_of[v] = built as u32;
                bits::set(&mut s.live, v);
                join(&mut s.reach, k, built, r);
            } else {
                s.pending.push((v as u32, built as u32, true));
            }
        }
        if built < k {
            budget.spend(w * s.classes[built].len() as u64)?;
        }
        built += 1;
    }
    // The vertices of the later classes, most neighbours first (the hardest to keep out
    // first, while the most classes are free to take them): each is placed into a class if
    // it can be, and those left go through the MaxSAT test, whose conflicts freeze classes.
    s.order.clear();
    s.order.extend(s.pending.iter().enumerate().map(|(t, &(v, _, _))| {
        (u32::MAX - bits::count(&and(rows.row(v as usize), p)) as u32, t as u32)
    }));
    s.order.sort_unstable();
    for sat in [false, true] {
        for o in 0..s.order.len() {
            let t = s.order[o].1 as usize;
            let v = s.pending[t].0 as usize;
            if s.pending[t].2 {
                budget.spend(w * (1 + 2 * k as u64))?;
                s.pending[t].2 = !prune(rows, v, k, s, sat);
            }
        }
    }
    // The bound of a vertex kept: the number of greedy classes holding one, up to its own.
    let mut last = NONE;
    for &(v, b, kept) in &s.pending {
        if kept {
            if b != last {
                last = b;
                col += 1;
            }
            verts.push(v);
            cols.push(col);
        }
    }
    Ok(())
}

/// A branch of the search: the clique `start`, its candidates `p` (common neighbours of
/// `start`, not branched on before), and a bound on the size of any clique it holds.
struct Task<const W: usize> {
    start: Vec<usize>,
    bound: usize,
    p: [u64; W],
}

/// Levels of branches, at most, that become tasks of their own.
const SPLIT_DEPTH: usize = 3;
/// Split no further once there are this many tasks.
const SPLIT_TASKS: usize = 256;
/// Graphs below this size are not split (their searches are too short to gain from it).
const SPLIT_VERTICES: usize = 64;

/// The tasks of the next level: each task's branches from a colouring of its candidates in
/// their own degeneracy order (as [`renumbered`] takes them), those that cannot beat `best`
/// left out; a task without candidates stays as it is.
fn split<const W: usize>(
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
        colour(graph, &p, k, (&mut f.verts, &mut f.cols), s, budget)?;
        let mut rest = p;
        for t in (0..f.verts.len()).rev() {
            let v = f.verts[t] as usize;
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
            next.push(Task { start, bound: depth + f.cols[t] as usize, p });
        }
    }
    Ok(next)
}

/// A bound on the size of the cliques of `task`, from a colouring of its candidates with the
/// `best - depth` classes that cannot beat `best` pruned (see [`colour`]).
fn task_bound<const W: usize>(
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
    colour(graph, &p, k, (&mut f.verts, &mut f.cols), s, budget)?;
    Ok(depth + f.cols.last().map_or(k, |&c| c as usize))
}

/// The incumbent shared by the tasks.
struct Shared {
    size: AtomicUsize,
    best: Mutex<Vec<usize>>,
    stop: AtomicBool,
}

impl Shared {
    fn offer(&self, clique: &[usize]) {
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
fn subtree<const W: usize>(
    rows: &Adj<W>,
    start: &[usize],
    p: [u64; W],
    shared: &Shared,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    if bits::count(&p) >= RENUMBER {
        return renumbered(rows, start, &p, shared, budget, cap);
    }
    subtree_in(rows, &[], start, p, shared, budget, cap)
}

/// The vertex that `v` of a renumbered subgraph stands for (itself when `names` is empty,
/// the graph not renumbered).
fn named(names: &[usize], v: usize) -> usize {
    if names.is_empty() { v } else { names[v] }
}

/// Candidates from which a subtree is searched on its own numbering (see [`renumbered`]).
const RENUMBER: usize = 100;

/// The subgraph of `rows` on `p` in its own degeneracy order (see [`degeneracy_order`]), and
/// for each of its vertices the vertex of `rows` it stands for.
fn induced<const W: usize>(
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
    // Degeneracy order of the subgraph (see [`degeneracy_order`]), peeled through the
    // non-neighbours, which are few in a dense graph: every vertex left loses a neighbour
    // when one is removed, except its non-neighbours, so the vertex of fewest neighbours
    // left is the one of most non-neighbours left.
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
    // Buckets by count as doubly linked lists (`NIL` ends them): `head[c]`, `next`, `prev`.
    const NIL: u32 = u32::MAX;
    let top = miss.iter().copied().max().unwrap_or(0);
    let mut head = vec![NIL; top + 1];
    let (mut next, mut prev) = (vec![NIL; m], vec![NIL; m]);
    let mut miss = miss;
    for i in (0..m).rev() {
        let c = miss[i];
        next[i] = head[c];
        if head[c] != NIL {
            prev[head[c] as usize] = i as u32;
        }
        head[c] = i as u32;
    }
    let mut hi = top;
    let mut left = *p;
    let mut order = vec![0; m];
    for slot in (0..m).rev() {
        while head[hi] == NIL {
            hi -= 1;
        }
        let pick = head[hi] as usize;
        head[hi] = next[pick];
        if next[pick] != NIL {
            prev[next[pick] as usize] = NIL;
        }
        order[slot] = pick;
        let v = verts[pick];
        bits::clear(&mut left, v);
        let gone = and(&non(v), &left);
        bits::for_each(&gone, |x| {
            // x moves from its bucket to the one below, at its head.
            let i = at[x] as usize;
            let c = miss[i];
            let (a, b) = (prev[i], next[i]);
            if a == NIL {
                head[c] = b;
            } else {
                next[a as usize] = b;
            }
            if b != NIL {
                prev[b as usize] = a;
            }
            miss[i] = c - 1;
            prev[i] = NIL;
            next[i] = head[c - 1];
            if head[c - 1] != NIL {
                prev[head[c - 1] as usize] = i as u32;
            }
            head[c - 1] = i as u32;
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }
    // The subgraph in that order: all pairs joined, then the non-neighbours cut.
    let mut pos = vec![0u32; m];
    for (k, &i) in order.iter().enumerate() {
        pos[i] = k as u32;
    }
    let mut local = Rows::new(m);
    let all = local.all();
    for (k, &i) in order.iter().enumerate() {
        let row = &mut local.bits[k * local.w..(k + 1) * local.w];
        row.copy_from_slice(&all);
        bits::clear(row, k);
        bits::for_each(&non(verts[i]), |x| {
            bits::clear(row, pos[at[x] as usize] as usize);
            Ok::<(), ()>(())
        })
        .expect("infallible");
    }
    Ok((local, order.iter().map(|&i| verts[i]).collect()))
}

/// With [`RENUMBER`] candidates `p` or more, their subgraph renumbered (see [`induced`]),
/// the vertex of `rows` each of its vertices stands for, and all its vertices as the
/// candidates; with fewer, no graph (`rows` itself), no names and `p`.
#[allow(clippy::type_complexity)]
fn local_or_not<const W: usize>(
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
fn renumbered<const W: usize>(
    rows: &Adj<W>,
    start: &[usize],
    p: &[u64; W],
    shared: &Shared,
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
fn subtree_of<const W: usize>(
    rows: &Rows,
    names: &[usize],
    start: &[usize],
    shared: &Shared,
    budget: &mut Budget,
    cap: &mut Cap,
) -> Result<Option<usize>, KernelError> {
    let adj = Adj::<W>::new(rows);
    let mut all = [0; W];
    bits::fill(&mut all, rows.n);
    subtree_in(&adj, names, start, all, shared, budget, cap)
}

/// [`subtree`] on `rows`, whose vertex v is named `names[v]` in the clique offered (the
/// identity when `names` is empty).
fn subtree_in<const W: usize>(
    rows: &Adj<W>,
    names: &[usize],
    start: &[usize],
    p: [u64; W],
    shared: &Shared,
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
    colour(rows, &root.p, k, (&mut root.verts, &mut root.cols), &mut s, budget)?;
    root.i = root.verts.len();
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
        if cur.len() + top.cols[top.i] as usize <= best || shared.stop.load(Ordering::Relaxed) {
            top.i = 0;
            continue;
        }
        if !cap.spend() {
            return Ok(None);
        }
        budget.tick(W as u64)?;
        let v = top.verts[top.i] as usize;
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
        colour(rows, &child.p, k, (&mut child.verts, &mut child.cols), &mut s, budget)?;
        child.i = child.verts.len();
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
fn witness<const W: usize>(
    rows: &Adj<W>,
    tasks: &[Task<W>],
    ends: &[(usize, usize)],
    shared: &Shared,
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
        let fixed = Shared {
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
    let shared = Shared {
        size: AtomicUsize::new(init.len()),
        best: Mutex::new(init.to_vec()),
        stop: AtomicBool::new(false),
    };
    let mut all = [0; W];
    bits::fill(&mut all, n);
    let mut root = Frame::<W>::new();
    let mut s = Scratch::<W>::new();
    match colour(rows, &all, init.len(), (&mut root.verts, &mut root.cols), &mut s, budget) {
        Ok(()) => {}
        Err(KernelError::TimeLimit { .. }) => {
            return Ok(CliqueFound { clique: init.to_vec(), exact: false, bound: n });
        }
        Err(e) => return Err(e),
    }
    let root_bound = root.cols.last().map_or(init.len(), |&c| c as usize);
    // Branch t: vertex verts[t] with the candidates not branched on before it.
    let m = root.verts.len();
    let mut tasks: Vec<Task<W>> = Vec::with_capacity(m);
    let mut rest = all;
    for t in (0..m).rev() {
        let v = root.verts[t] as usize;
        budget.spend(W as u64)?;
        let p = and(&rest, rows.row(v));
        bits::clear(&mut rest, v);
        tasks.push(Task { start: vec![v], bound: root.cols[t] as usize, p });
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
    let mut exact = true;
    // Per task: the largest clique it found, and the incumbent when it ended.
    let mut ends = vec![(0, 0); tasks.len()];
    let mut done = vec![false; tasks.len()];
    if parallel {
        let next = AtomicUsize::new(0);
        let ends_m = Mutex::new((&mut ends, &mut done));
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
                        match subtree(rows, &task.start, p, &shared, &mut b, &mut Cap::new(None)) {
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
                Err(KernelError::TimeLimit { nodes }) => {
                    budget.nodes += nodes;
                    exact = false;
                }
                Err(e) => return Err(e),
            }
        }
    } else {
        for (t, task) in tasks.iter().enumerate() {
            let mut found = 0;
            if task.bound > shared.size.load(Ordering::Relaxed) {
                match subtree(rows, &task.start, task.p, &shared, budget, cap) {
                    Ok(Some(f)) => found = f,
                    Ok(None) | Err(KernelError::TimeLimit { .. }) => {
                        exact = false;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            ends[t] = (found, shared.size.load(Ordering::Relaxed));
            done[t] = true;
        }
    }
    if exact {
        match witness(rows, &tasks, &ends, &shared, budget) {
            // The size is proven; only the choice among maximum cliques was cut short.
            Ok(()) | Err(KernelError::TimeLimit { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    let clique = shared.best.into_inner().unwrap_or_else(|e| e.into_inner());
    // Every clique not yet ruled out lies in a task left unfinished. After a deadline, each
    // such task's bound is tightened by a colouring of its own candidates, the loosest tasks
    // first; the work is one colouring per task at most, so it runs past the deadline.
    let mut left: Vec<&Task<W>> =
        tasks.iter().zip(&done).filter(|(_, d)| !**d).map(|(t, _)| t).collect();
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
            task_bound(rows, task, clique.len(), &mut s, &mut free)?.min(task.bound)
        };
        open = open.max(b);
    }
    let bound = if exact { clique.len() } else { open.min(root_bound).max(clique.len()) };
    Ok(CliqueFound { clique, exact, bound })
}

#[cfg(test)]
mod tests {
    use super::{Rows, max_clique};
    use crate::Config;
    use crate::config::{Budget, Cap};
    use crate::stable::max_independent;

    /// α by plain branching on bitmasks (n ≤ 64).
    fn brute(nb: &[u64], p: u64) -> usize {
        if p == 0 {
            return 0;
        }
        let v = p.trailing_zeros() as usize;
        let skip = brute(nb, p & !(1 << v));
        let take = 1 + brute(nb, p & !(1 << v) & !nb[v]);
        skip.max(take)
    }

    fn random(n: usize, per_mille: u64, seed: u64) -> (Vec<Vec<u32>>, Vec<u64>) {
        let (adj, nb) = random_wide(n, per_mille, seed);
        (adj, nb.into_iter().map(|m| m as u64).collect())
    }

    /// G(n, p) on at most 128 vertices: adjacency lists and 128-bit neighbour masks.
    fn random_wide(n: usize, per_mille: u64, seed: u64) -> (Vec<Vec<u32>>, Vec<u128>) {
        let mut rng = gamegraph_testkit::SplitMix64::new(seed);
        let mut adj = vec![Vec::new(); n];
        let mut nb = vec![0u128; n];
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(1000) < per_mille {
                    adj[a].push(b as u32);
                    adj[b].push(a as u32);
                    nb[a] |= 1 << b;
                    nb[b] |= 1 << a;
                }
            }
        }
        (adj, nb)
    }

    /// α by branching on 128-bit masks: a vertex of degree at most one is taken, else a
    /// vertex of largest degree is either left out or taken.
    fn branch(nb: &[u128], p: u128) -> usize {
        if p == 0 {
            return 0;
        }
        let mut q = p;
        let (mut low, mut high) = ((usize::MAX, 0), (0, 0));
        while q != 0 {
            let x = q.trailing_zeros() as usize;
            q &= q - 1;
            let d = (nb[x] & p).count_ones() as usize;
            low = low.min((d, x));
            high = high.max((d, x));
        }
        if low.0 <= 1 {
            let v = low.1;
            return 1 + branch(nb, p & !(1 << v) & !nb[v]);
        }
        let v = high.1;
        branch(nb, p & !(1 << v)).max(1 + branch(nb, p & !(1 << v) & !nb[v]))
    }

    #[test]
    fn multi_word_graphs_agree_with_plain_branching_on_any_number_of_threads() {
        let sizes = [(70, 150), (90, 120), (100, 200), (128, 300), (65, 60), (80, 100)];
        for (case, &(n, per_mille)) in sizes.iter().cycle().take(18).enumerate() {
            let (adj, nb) = random_wide(n, per_mille, 11 + case as u64);
            let all = if n == 128 { !0 } else { (1u128 << n) - 1 };
            let alpha = branch(&nb, all);
            let excluded = vec![false; n];
            let mut witness = None;
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let f = pool
                    .install(|| {
                        max_independent(&adj, &excluded, &mut Budget::new(&Config::default()), None)
                    })
                    .unwrap();
                assert!(f.exact);
                assert_eq!(f.set.len(), alpha, "n {n}, {per_mille}‰, {threads} threads");
                for (i, &a) in f.set.iter().enumerate() {
                    for &b in &f.set[i + 1..] {
                        assert_eq!(nb[a as usize] >> b & 1, 0, "{a} and {b} adjacent");
                    }
                }
                let w = witness.get_or_insert_with(|| f.set.clone());
                assert_eq!(*w, f.set, "n {n}: the witness depends on the threads");
                // The clique search alone, from an empty start, on the complement.
                let mut rows = Rows::new(n);
                for (a, row) in nb.iter().enumerate() {
                    for b in a + 1..n {
                        if row >> b & 1 == 0 {
                            rows.join(a, b);
                        }
                    }
                }
                let found = clique_in(&pool, &rows);
                assert!(found.exact);
                assert_eq!(found.clique.len(), alpha, "n {n}, {per_mille}‰, {threads} threads");
                let c = &found.clique;
                assert!(c.iter().all(|&a| c.iter().all(|&b| a == b || nb[a] >> b & 1 == 0)));
            }
        }
    }

    /// The clique search alone, from an empty start, without limits, in `pool`.
    fn clique_in(pool: &rayon::ThreadPool, rows: &Rows) -> super::CliqueFound {
        pool.install(|| {
            let mut budget = Budget::new(&Config::default());
            max_clique(rows, &[], &mut budget, &mut Cap::new(None))
        })
        .unwrap()
    }

    /// ω by Carraghan and Pardalos's branching on bitsets of any width: a clique grows by
    /// each candidate in turn while the candidates left could still beat the best.
    fn plain_clique(nb: &[Vec<u64>], cur: usize, p: Vec<u64>, best: &mut usize) {
        let left: usize = p.iter().map(|w| w.count_ones() as usize).sum();
        if left == 0 {
            *best = (*best).max(cur);
            return;
        }
        let mut p = p;
        let mut left = left;
        while left > 0 && cur + left > *best {
            let wi = p.iter().position(|&w| w != 0).unwrap();
            let v = wi * 64 + p[wi].trailing_zeros() as usize;
            p[wi] &= p[wi] - 1;
            left -= 1;
            let q = p.iter().zip(&nb[v]).map(|(a, b)| a & b).collect();
            plain_clique(nb, cur + 1, q, best);
        }
    }

    /// A random graph of n vertices, each pair joined with probability per_mille / 1000: its
    /// rows, its neighbourhoods as bit vectors, and its clique number by plain branching.
    fn random_with_omega(n: usize, per_mille: u64, seed: u64) -> (Rows, Vec<Vec<u64>>, usize) {
        let mut rng = gamegraph_testkit::SplitMix64::new(seed);
        let mut rows = Rows::new(n);
        let mut nb = vec![vec![0u64; n.div_ceil(64)]; n];
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(1000) < per_mille {
                    rows.join(a, b);
                    nb[a][b / 64] |= 1 << (b % 64);
                    nb[b][a / 64] |= 1 << (a % 64);
                }
            }
        }
        let mut omega = 0;
        let mut all = vec![0; n.div_ceil(64)];
        crate::bits::fill(&mut all, n);
        plain_clique(&nb, 0, all, &mut omega);
        (rows, nb, omega)
    }

    /// Whether every two vertices of `c` are adjacent in `nb`.
    fn is_clique(nb: &[Vec<u64>], c: &[usize]) -> bool {
        c.iter().all(|&a| c.iter().all(|&b| a == b || nb[a][b / 64] >> (b % 64) & 1 == 1))
    }

    #[test]
    fn wide_rows_agree_with_plain_branching_on_any_number_of_threads() {
        // Widths 3, 4, 5 (padded to 6), 9 (padded to 16) and 17 (padded to 32).
        let cases = [(150, 700), (200, 600), (300, 450), (520, 250), (1030, 60)];
        for (case, &(n, per_mille)) in cases.iter().enumerate() {
            let (rows, nb, omega) = random_with_omega(n, per_mille, 101 + case as u64);
            let mut witness = None;
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let found = clique_in(&pool, &rows);
                assert!(found.exact);
                assert_eq!(found.clique.len(), omega, "n {n}, {per_mille}‰, {threads} threads");
                let c = &found.clique;
                assert!(is_clique(&nb, c));
                let w = witness.get_or_insert_with(|| c.clone());
                assert_eq!(w, c, "n {n}: the witness depends on the threads");
            }
        }
    }

    #[test]
    fn a_deadline_in_the_tasks_leaves_a_clique_and_a_proven_bound() {
        let mut tight = 0;
        for (case, &(n, per_mille)) in [(90, 800), (110, 800), (150, 700)].iter().enumerate() {
            let (rows, nb, omega) = random_with_omega(n, per_mille, 7 + case as u64);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            for every in [1000, 20_000, 30_000, 50_000, 80_000, 120_000, 200_000, 300_000] {
                let f = pool.install(|| {
                    let mut budget = Budget::new(&Config::default());
                    budget.trip = Some((every, 0));
                    max_clique(&rows, &[], &mut budget, &mut Cap::new(None))
                });
                let Ok(f) = f else { continue };
                let c = &f.clique;
                assert!(is_clique(&nb, c));
                assert!(c.len() <= omega && omega <= f.bound, "n {n}, every {every}");
                if !f.exact && f.bound < n {
                    tight += 1;
                }
            }
        }
        assert!(tight > 8, "only {tight} searches were cut short with a bound");
    }

    #[test]
    fn a_deadline_anywhere_leaves_a_checked_set_and_a_proven_bound() {
        let mut inexact = 0;
        for seed in 0..6 {
            let (adj, nb) = random(34, 150 + 40 * seed, seed);
            let alpha = brute(&nb, (1u64 << 34) - 1);
            let excluded = vec![false; adj.len()];
            for every in (1..400).step_by(9).chain([1000, 4000]) {
                let mut budget = Budget::new(&Config::default());
                budget.trip = Some((every, 0));
                let Ok(f) = max_independent(&adj, &excluded, &mut budget, None) else {
                    continue; // the deadline passed before the search started
                };
                for (i, &a) in f.set.iter().enumerate() {
                    for &b in &f.set[i + 1..] {
                        assert_eq!(nb[a as usize] >> b & 1, 0, "seed {seed}: {a} and {b} adjacent");
                    }
                }
                assert!(f.set.len() <= alpha && alpha <= f.bound, "seed {seed} every {every}");
                if f.exact {
                    assert_eq!(f.set.len(), alpha);
                } else {
                    inexact += 1;
                }
            }
        }
        assert!(inexact > 10, "only {inexact} searches were cut short");
    }
}
