//! Keeping a vertex of a later colour class out of the branching: placing it into a
//! class where it has no neighbour, re-colouring its single neighbour of a class, or an
//! inconsistent subset of classes found by unit propagation (MaxSAT reasoning).

use crate::bits;

use super::colour::{NONE, Scratch, join};
use super::{Adj, and};

/// Sets `s.miss[i]` to the number of members of class i outside the row `ru` (`s.xmiss[i]`
/// to their exclusive or), for the classes not frozen, and `s.touched` to the classes where
/// it is not zero.
#[inline]
pub(super) fn non_neighbours<const W: usize>(ru: &[u64; W], s: &mut Scratch<W>) {
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

/// The first class other than `skip` whose word in `reach` (one word per class) does not
/// have the bit `bit`, or [`NONE`].
#[inline]
pub(super) fn first_free(reach: &[u64], bit: u64, skip: usize) -> u32 {
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
pub(super) fn count_of<const W: usize>(c: usize, s: &mut Scratch<W>) -> &mut u32 {
    if s.counted[c] != s.test {
        s.counted[c] = s.test;
        s.counts[c] = s.classes[c].len() as u32 - s.miss[c];
        s.xleft[c] = s.xall[c] ^ s.xmiss[c];
    }
    &mut s.counts[c]
}

/// Tries to keep `v` out of the branching set given the `k` pruned classes in `s`: puts it
/// into a class where it has no neighbour, then either (without `sat`) re-colours its
/// single neighbour of a class, or (with `sat`) finds an inconsistent subset
/// {v} ∪ Ci ∪ Cj ∪ … and freezes those classes.
pub(super) fn prune<const W: usize>(
    rows: &Adj<W>,
    v: usize,
    k: usize,
    s: &mut Scratch<W>,
    sat: bool,
) -> bool {
    let rv = rows.row(v);
    // The graph is dense: count the non-neighbours of v in each class, not the neighbours.
    // Only the classes holding a non-neighbour of v, and those of a single member, can
    // hold fewer than two neighbours of v.
    debug_assert!(!bits::get(&s.live, v));
    non_neighbours(rv, s);
    s.test += 1;
    s.singles.clear();
    s.single_mask.iter_mut().for_each(|m| *m = 0);
    let empty = first_empty_class(s);
    if empty != NONE {
        place(rv, v, empty as usize, k, s);
        return true;
    }
    // The classes of a single member without a non-neighbour of v hold a single neighbour.
    // The member is the exclusive or of the class's members, less its non-neighbours of v.
    collect_singles(s);
    // The MaxSAT pass does not re-colour again: the classes changed little since.
    if !sat && recolour(rows, v, k, s) {
        return true;
    }
    // Unit propagation over the classes as soft clauses (MaxCLQ): taking v forces the single
    // neighbour of each unit class; a class left without candidates is a conflict. Each
    // vertex ruled out lowers the count of its class, so a step costs the vertices it rules
    // out.
    if s.singles.is_empty() || !sat {
        return false;
    }
    propagate_units(rows, rv, k, s)
}

/// The first class, not frozen, without a neighbour of the tested vertex ([`NONE`] if
/// none); marks in `s.single_mask` the classes holding a single one.
fn first_empty_class<const W: usize>(s: &mut Scratch<W>) -> u32 {
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
    empty
}

/// Puts `v`, whose row is `rv`, into the class `i` where it has no neighbour.
fn place<const W: usize>(rv: &[u64; W], v: usize, i: usize, k: usize, s: &mut Scratch<W>) {
    s.classes[i].push(v as u32);
    s.xall[i] ^= v as u32;
    s.class_of[v] = i as u32;
    bits::clear(&mut s.ones, i);
    bits::set(&mut s.live, v);
    join(&mut s.reach, k, i, rv);
    s.epoch += 1;
}

/// Lists in `s.singles` the classes holding a single neighbour of the tested vertex, each
/// with that neighbour.
fn collect_singles<const W: usize>(s: &mut Scratch<W>) {
    for (wi, m) in s.single_mask.iter().enumerate() {
        let mut m = m | (s.ones[wi] & !s.hit[wi]);
        while m != 0 {
            let i = wi * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            s.singles.push((i, (s.xall[i] ^ s.xmiss[i]) as usize));
        }
    }
}

/// Re-colouring: moves the single neighbour of `v` in some class into another class where
/// it has no neighbour, and `v` into its place; returns whether it could.
fn recolour<const W: usize>(rows: &Adj<W>, v: usize, k: usize, s: &mut Scratch<W>) -> bool {
    for t in 0..s.singles.len() {
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
    false
}

/// Unit propagation from the classes of `s.singles` (see [`prune`]); on a conflict, freezes
/// the classes it depends on and returns true.
fn propagate_units<const W: usize>(
    rows: &Adj<W>,
    rv: &[u64; W],
    k: usize,
    s: &mut Scratch<W>,
) -> bool {
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
pub(super) fn conflict<const W: usize>(rv: &[u64; W], e: usize, s: &mut Scratch<W>) {
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
pub(super) fn freeze<const W: usize>(c: usize, s: &mut Scratch<W>) {
    s.frozen[c] = true;
    bits::clear(&mut s.ones, c);
    for &x in &s.classes[c] {
        bits::clear(&mut s.live, x as usize);
    }
}
