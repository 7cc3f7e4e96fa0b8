//! Exhaustive search of Moore's Nim_k with move limits that bind.

use super::{HeapMove, Play, SEARCH_LIMIT};
use crate::{HeapError, Outcome};

/// Exhaustive search of Moore's Nim_k with limits: every position below `heaps`.
pub(super) fn search(
    heaps: &[u64],
    limit: impl Fn(usize) -> u64,
    k: u64,
    play: Play,
) -> Result<(Outcome, Vec<HeapMove>), HeapError> {
    // Heaps of size 0 take no part.
    let live: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
    let mut states = 1u64;
    let mut moves_bound = 1u64;
    for &i in &live {
        // A heap of u64::MAX has 2^64 sizes: saturate rather than wrap to 0.
        states = states.saturating_mul(heaps[i].saturating_add(1));
        moves_bound = moves_bound.saturating_mul(limit(i).min(heaps[i]).saturating_add(1));
    }
    let work = states.saturating_mul(moves_bound);
    if work > SEARCH_LIMIT {
        return Err(HeapError::SearchTooLarge { work, limit: SEARCH_LIMIT });
    }
    let size: Vec<u64> = live.iter().map(|&i| heaps[i]).collect();
    let cap: Vec<u64> = live.iter().map(|&i| limit(i).min(heaps[i])).collect();
    let mut stride = vec![1u64; live.len()];
    for j in 1..live.len() {
        stride[j] = stride[j - 1] * (size[j - 1] + 1);
    }
    let digits = |mut s: u64| -> Vec<u64> {
        size.iter()
            .map(|&n| {
                let d = s % (n + 1);
                s /= n + 1;
                d
            })
            .collect()
    };
    // The first move (odometer order) from digits `d` into a lost state, if any; and
    // whether `d` has any move at all.
    let k = k.min(live.len() as u64) as usize;
    let first_winning = |d: &[u64], lost: &[bool]| -> (bool, Option<Vec<u64>>) {
        let mut take = vec![0u64; d.len()];
        let mut any = false;
        loop {
            // Advance the odometer.
            let mut j = 0;
            loop {
                if j == d.len() {
                    return (any, None);
                }
                if take[j] < cap[j].min(d[j]) {
                    take[j] += 1;
                    break;
                }
                take[j] = 0;
                j += 1;
            }
            let used = take.iter().filter(|&&t| t > 0).count();
            if used == 0 || used > k {
                continue;
            }
            any = true;
            let target: u64 = (0..d.len()).map(|j| (d[j] - take[j]) * stride[j]).sum();
            if lost[target as usize] {
                return (true, Some(take));
            }
        }
    };
    let mut lost = vec![false; states as usize];
    for s in 0..states {
        let d = digits(s);
        let (any, win) = first_winning(&d, &lost);
        lost[s as usize] = if any { win.is_none() } else { play == Play::Normal };
    }
    let top = states - 1;
    if lost[top as usize] {
        return Ok((Outcome::Loss, Vec::new()));
    }
    let (_, win) = first_winning(&digits(top), &lost);
    let moves = win
        .map(|take| {
            take.iter()
                .enumerate()
                .filter(|(_, t)| **t > 0)
                .map(|(j, &t)| HeapMove { heap: live[j], take: t })
                .collect()
        })
        .unwrap_or_default();
    Ok((Outcome::Win, moves))
}
