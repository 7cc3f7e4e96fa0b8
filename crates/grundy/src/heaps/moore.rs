//! Moore's Nim_k without binding limits: the winning move from the binary column sums.

use super::{HeapMove, Play};
use crate::Outcome;

/// Moore's Nim_k, normal play: the winning move built bit by bit from the top. Touched
/// heaps are free below the bit where they were lowered; at each bit either enough of
/// them get the bit to make the column ≡ 0 (mod k+1), or r more heaps with the bit are
/// lowered there (r = the column mod k+1), which keeps at most k heaps touched.
fn moore_normal(heaps: &[u64], k: u64) -> Option<Vec<(usize, u64)>> {
    let m = u128::from(k) + 1;
    let mut touched: Vec<(usize, u64)> = Vec::new(); // (heap, new size so far)
    let mut is_touched = vec![false; heaps.len()];
    for bit in (0..64).rev() {
        let mask = 1u64 << bit;
        let c =
            heaps.iter().zip(&is_touched).filter(|(n, t)| *n & mask != 0 && !**t).count() as u128;
        let r = c % m;
        let need = (m - r) % m;
        if need <= touched.len() as u128 {
            for (j, t) in touched.iter_mut().enumerate() {
                if (j as u128) < need {
                    t.1 |= mask;
                }
            }
        } else {
            let fresh: Vec<usize> = heaps
                .iter()
                .enumerate()
                .filter(|(i, n)| *n & mask != 0 && !is_touched[*i])
                .map(|(i, _)| i)
                .take(r as usize)
                .collect();
            for i in fresh {
                is_touched[i] = true;
                // Keep the bits above `bit`, clear it and everything below.
                let high = if bit == 63 { 0 } else { (heaps[i] >> (bit + 1)) << (bit + 1) };
                touched.push((i, high));
            }
        }
    }
    if touched.is_empty() {
        return None;
    }
    touched.sort_unstable();
    Some(touched)
}

/// Moore's Nim_k, normal or misère (Moore 1910).
pub(super) fn moore(heaps: &[u64], k: u64, play: Play) -> (Outcome, Vec<HeapMove>) {
    let to_moves = |t: &[(usize, u64)]| -> Vec<HeapMove> {
        t.iter().map(|&(i, new)| HeapMove { heap: i, take: heaps[i] - new }).collect()
    };
    let normal = moore_normal(heaps, k);
    if play == Play::Normal {
        return match normal {
            None => (Outcome::Loss, Vec::new()),
            Some(t) => (Outcome::Win, to_moves(&t)),
        };
    }
    let m = u128::from(k) + 1;
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] >= 2).collect();
    let ones: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] == 1).collect();
    if big.is_empty() {
        let o = ones.len() as u128;
        if o % m == 1 {
            return (Outcome::Loss, Vec::new());
        }
        if o == 0 {
            return (Outcome::Win, Vec::new());
        }
        let z = ((o + m - 1) % m) as usize; // 1 ≤ z ≤ min(k, o − 1)
        return (Outcome::Win, ones[..z].iter().map(|&i| HeapMove { heap: i, take: 1 }).collect());
    }
    let Some(t) = normal else { return (Outcome::Loss, Vec::new()) };
    let mut is_touched = vec![false; heaps.len()];
    for &(j, _) in &t {
        is_touched[j] = true;
    }
    let after_big = t.iter().any(|&(_, new)| new >= 2) || big.iter().any(|&i| !is_touched[i]);
    if after_big {
        return (Outcome::Win, to_moves(&t));
    }
    // The normal move would leave only heaps ≤ 1 (so |big| ≤ k): instead lower the big
    // heaps to 0 or 1 and possibly empty some 1-heaps so that the 1-heaps number ≡ 1.
    let h = big.len() as u128;
    let o = ones.len() as u128;
    for y in (0..=h).rev() {
        let z = (o + y + m - 1) % m; // z ≡ o + y − 1 (mod k+1)
        if z <= o && z + h <= u128::from(k) {
            let mut moves: Vec<HeapMove> = big
                .iter()
                .enumerate()
                .map(|(j, &i)| HeapMove { heap: i, take: heaps[i] - u64::from((j as u128) < y) })
                .collect();
            moves.extend(ones[..z as usize].iter().map(|&i| HeapMove { heap: i, take: 1 }));
            moves.sort_unstable_by_key(|mv| mv.heap);
            return (Outcome::Win, moves);
        }
    }
    unreachable!("y − z covers k + 1 consecutive integers, so every residue")
}
