//! The greedy colouring of a node's candidates into classes, whose count bounds the
//! clique the node can still reach; the first classes are pruned and the vertices of the
//! later ones are kept out of the branching where [`super::prune`] can place them.

use crate::KernelError;
use crate::bits;
use crate::config::Budget;

use super::prune::prune;
use super::{Adj, and};

/// No class: the vertex is outside the classes of the colouring.
pub(super) const NONE: u32 = u32::MAX;

/// Buffers of the colouring.
pub(super) struct Scratch<const W: usize> {
    pub(super) u: [u64; W],
    pub(super) q: [u64; W],
    /// The first `k` colour classes (small in dense graphs, so kept as lists).
    pub(super) classes: Vec<Vec<u32>>,
    /// The class of each member of the classes (read only for the members, see `live`).
    pub(super) class_of: Vec<u32>,
    /// Per class: the union of its members' rows (a vertex outside it can join the class),
    /// word-major: word `wi` of class `c` at `wi * k + c`, so that one vertex's bits in all
    /// classes are contiguous.
    pub(super) reach: Vec<u64>,
    pub(super) frozen: Vec<bool>,
    /// Per class: how many neighbours of the tested vertex it holds (not yet ruled out),
    /// valid when `counted` holds the current `test`.
    pub(super) counts: Vec<u32>,
    pub(super) counted: Vec<u64>,
    /// The vertices tested so far.
    pub(super) test: u64,
    /// Per class: how many of its members the tested vertex is not adjacent to; the classes
    /// where this is not zero.
    pub(super) miss: Vec<u32>,
    pub(super) touched: Vec<u32>,
    /// Per class: the exclusive or of its members, of those counted in `miss`, and (valid
    /// with `counts`) of the neighbours of the tested vertex not yet ruled out; so the
    /// member left when a count is one is read without a search.
    pub(super) xall: Vec<u32>,
    pub(super) xmiss: Vec<u32>,
    pub(super) xleft: Vec<u32>,
    /// The classes of a single member, not frozen, as a bitset.
    pub(super) ones: Vec<u64>,
    /// The classes in `touched`, as a bitset.
    pub(super) hit: Vec<u64>,
    pub(super) singles: Vec<(usize, usize)>,
    /// The classes holding a single neighbour of the tested vertex, as a bitset.
    pub(super) single_mask: Vec<u64>,
    /// Counts the changes of the classes.
    pub(super) epoch: u64,
    /// Per vertex: the class it can move to ([`NONE`] if none), valid while `epoch` is the
    /// one stored.
    pub(super) moves: Vec<(u64, u32)>,
    pub(super) cand: [u64; W],
    /// The members of the classes not frozen.
    pub(super) live: [u64; W],
    pub(super) used: Vec<bool>,
    pub(super) queue: Vec<u32>,
    /// Per vertex ruled out by the propagation: the step that ruled it out.
    pub(super) reason: Vec<u32>,
    pub(super) chain: Vec<(usize, usize)>,
    pub(super) needed: Vec<bool>,
    /// The vertices of the greedy classes after the first `k`: each with its greedy class,
    /// and whether it is still kept (neither placed into a class nor in an inconsistent
    /// subset).
    pub(super) pending: Vec<(u32, u32, bool)>,
    /// The order of their tests: (`u32::MAX` - degree in the candidates, index).
    pub(super) order: Vec<(u32, u32)>,
}

impl<const W: usize> Scratch<W> {
    pub(super) fn new() -> Scratch<W> {
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

/// Adds the row `r` to the union of class `c` in `reach` (see [`Scratch::reach`]).
#[inline]
pub(super) fn join<const W: usize>(reach: &mut [u64], k: usize, c: usize, r: &[u64; W]) {
    for (wi, r) in r.iter().enumerate() {
        reach[wi * k + c] |= r;
    }
}

/// The vertices a node branches on, with the bound of each (the number of greedy colour
/// classes up to its own), in non-decreasing order of bound.
#[derive(Default)]
pub(super) struct Branches {
    pub(super) verts: Vec<u32>,
    pub(super) cols: Vec<u32>,
}

/// Colours the candidates `p` greedily; the first `k` classes are pruned (their vertices
/// cannot raise the clique above the incumbent) and so are the vertices [`prune`] keeps out:
/// first by placing them in a class, then, for those left, by inconsistent subsets. The
/// others go to `out`.
pub(super) fn colour<const W: usize>(
    rows: &Adj<W>,
    p: &[u64; W],
    k: usize,
    out: &mut Branches,
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    s.u = *p;
    out.verts.clear();
    out.cols.clear();
    s.reset(k, rows.rows.len());
    greedy_classes(rows, k, s, budget)?;
    keep_out(rows, p, k, s, budget)?;
    // The bound of a vertex kept: the number of greedy classes holding one, up to its own.
    let mut col = k as u32;
    let mut last = NONE;
    for &(v, b, kept) in &s.pending {
        if kept {
            if b != last {
                last = b;
                col += 1;
            }
            out.verts.push(v);
            out.cols.push(col);
        }
    }
    Ok(())
}

impl<const W: usize> Scratch<W> {
    /// Empties the first `k` classes and sizes the buffers for them and for `n` vertices.
    fn reset(&mut self, k: usize, n: usize) {
        let s = self;
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
        s.moves.resize(n, (0, 0));
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
        s.class_of.resize(n, NONE);
        s.reason.resize(n, 0);
    }
}

/// Colours the candidates left in `s.u` greedily, class after class: the first `k` classes
/// go to `s.classes`, the vertices of the later ones to `s.pending` with their class.
fn greedy_classes<const W: usize>(
    rows: &Adj<W>,
    k: usize,
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let w = W as u64;
    let mut built = 0;
    s.pending.clear();
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
    Ok(())
}

/// Keeps out of the branching the vertices of `s.pending` that [`prune`] can keep out.
fn keep_out<const W: usize>(
    rows: &Adj<W>,
    p: &[u64; W],
    k: usize,
    s: &mut Scratch<W>,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let w = W as u64;
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
    Ok(())
}
