//! The optional predecessor index, checked against the successor lists.

use std::hash::{BuildHasher, RandomState};

use rayon::prelude::*;

use super::corrupt;
use crate::{ReadError, Vertex};

/// Vertices per parallel task of the check.
const RANGE: usize = 1 << 14;

/// The hash of one arc `u -> v` under `key`: a bijective mix of both ids and the key, so
/// that sums over different multisets of arcs differ unless the key is hit.
#[inline]
fn arc_hash(u: u32, v: u32, key: u64) -> u64 {
    let mut x = ((u64::from(u) << 32) | u64::from(v)) ^ key;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The sum of the arc hashes of CSR lists `(offsets, items)`, with the list's vertex as
/// the source (`forward`) or as the target; whether every list is sorted and every item
/// below `n`.
fn summarise(offsets: &[u64], items: &[Vertex], key: u64, forward: bool) -> (u64, bool) {
    let n = offsets.len() - 1;
    (0..n.div_ceil(RANGE))
        .into_par_iter()
        .map(|r| {
            let mut sum = 0u64;
            let mut fine = true;
            for x in r * RANGE..((r + 1) * RANGE).min(n) {
                let list = &items[offsets[x] as usize..offsets[x + 1] as usize];
                for (k, y) in list.iter().enumerate() {
                    fine &= y.index() < n;
                    if !forward {
                        fine &= k == 0 || list[k - 1] <= *y;
                    }
                    sum = sum.wrapping_add(if forward {
                        arc_hash(x as u32, y.0, key)
                    } else {
                        arc_hash(y.0, x as u32, key)
                    });
                }
            }
            (sum, fine)
        })
        .reduce(|| (0, true), |a, b| (a.0.wrapping_add(b.0), a.1 && b.1))
}

/// Checks a predecessor index `(poff, pred)` against the successor lists `(soff, succ)`
/// of a graph whose successor arrays are already checked: offsets from 0, non-decreasing,
/// ending at `m`; sources below `n`; every list sorted; and the same multiset of arcs,
/// by sums of arc hashes under a key drawn afresh for this call.
///
/// # Errors
/// [`ReadErrorKind::Corrupt`](crate::ReadErrorKind::Corrupt) naming what is wrong.
///
/// # Complexity
/// O(n + m) work, O((n + m) / p) time on p threads; no extra space.
pub(super) fn check_predecessors(
    soff: &[u64],
    succ: &[Vertex],
    poff: &[u64],
    pred: &[Vertex],
) -> Result<(), ReadError> {
    let m = succ.len() as u64;
    let sorted = poff.par_windows(2).all(|w| w[0] <= w[1]);
    if poff.len() != soff.len() || poff[0] != 0 || !sorted || poff[poff.len() - 1] != m {
        return Err(corrupt("the predecessor offsets do not run from 0 up to the number of arcs"));
    }
    let key = RandomState::new().hash_one(0x6761_6d65_6772_6170_u64);
    let (forward, _) = summarise(soff, succ, key, true);
    let (backward, fine) = summarise(poff, pred, key, false);
    if !fine {
        return Err(corrupt("a predecessor list is out of order or names no vertex"));
    }
    if forward != backward {
        return Err(corrupt("the predecessor index does not hold the arcs of the graph"));
    }
    Ok(())
}
