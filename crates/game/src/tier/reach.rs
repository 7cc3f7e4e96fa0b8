//! The reachability pass: which ranks of a tier play reaches from the start, a bit a rank,
//! from the reachable ranks of the tier's parents.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::Tiered;
use super::dir::{Run, TierError};

/// Ranks per parallel task: 2^16, a whole number of 64-bit words.
pub(crate) const CHUNK: u64 = 1 << 16;

/// Word `i` of a little-endian bit set.
pub(crate) fn word(bits: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(bits[8 * i..8 * i + 8].try_into().expect("8 bytes"))
}

/// The words of a bit set of `n` bits.
pub(crate) fn words(n: u64) -> usize {
    n.div_ceil(64) as usize
}

/// Words of ranks unranked together by [`for_each_position`].
const BATCH_WORDS: usize = 16;

/// Calls `f` with every set bit of `bits` among `lo..hi` (`lo` a multiple of 64) and the
/// position of that rank of tier `t`, in increasing order, unranking
/// [`BATCH_WORDS`] words of ranks at a time.
pub(crate) fn for_each_position<G: Tiered>(
    run: &Run<'_, G>,
    t: u32,
    bits: &[u8],
    lo: u64,
    hi: u64,
    mut f: impl FnMut(u64, G::Position) -> Result<(), TierError>,
) -> Result<(), TierError> {
    let (mut ranks, mut positions) = (Vec::new(), Vec::new());
    let first = (lo / 64) as usize;
    let last = words(hi);
    let mut w = first;
    while w < last {
        ranks.clear();
        for v in w..last.min(w + BATCH_WORDS) {
            let mut x = word(bits, v);
            while x != 0 {
                ranks.push(v as u64 * 64 + u64::from(x.trailing_zeros()));
                x &= x - 1;
            }
        }
        w += BATCH_WORDS;
        positions.clear();
        run.game.tier_unrank_sorted(t, &ranks, &mut positions);
        if positions.len() != ranks.len() {
            return Err(
                run.contract(t, "tier_unrank_sorted gave another number of positions".into())
            );
        }
        for (&r, &p) in ranks.iter().zip(&positions) {
            let p = p.ok_or_else(|| {
                run.contract(t, format!("rank {r} is reachable but has no position"))
            })?;
            f(r, p)?;
        }
    }
    Ok(())
}

/// The reachable ranks of tier `t`: the start's rank when the start is in `t`, every rank
/// a move from a reachable rank of a parent tier lands on (`parents`: each parent's tier
/// and bit set), and, when moves may stay in `t`, the closure under those moves, found by
/// sweeps over the tier until one marks nothing new.
pub(crate) fn reach_tier<G: Tiered>(
    run: &Run<'_, G>,
    t: u32,
    parents: &[(u32, &[u8])],
) -> Result<Vec<u64>, TierError> {
    let game = run.game;
    let size = game.tier_size(t);
    let bits: Vec<AtomicU64> = (0..words(size)).map(|_| AtomicU64::new(0)).collect();
    let mark = |c: G::Position, from: u32| -> Result<bool, TierError> {
        let r = game.tier_rank(c);
        if r >= size {
            return Err(run
                .contract(from, format!("a move lands on rank {r} of tier {t}, of {size} ranks")));
        }
        let bit = 1u64 << (r % 64);
        Ok(bits[(r / 64) as usize].fetch_or(bit, Relaxed) & bit == 0)
    };
    let start = game.canonical(game.start());
    if game.tier(start) == t {
        mark(start, t)?;
    }
    for &(p, pbits) in parents {
        let psize = game.tier_size(p);
        run.begin(super::TierPhase::Reach, p, psize);
        (0..psize.div_ceil(CHUNK)).into_par_iter().try_for_each_init(Vec::new, |out, chunk| {
            run.check_stop()?;
            let (lo, hi) = (chunk * CHUNK, ((chunk + 1) * CHUNK).min(psize));
            for_each_position(run, p, pbits, lo, hi, |_, pos| {
                out.clear();
                game.moves(pos, out);
                for &q in out.iter() {
                    let c = game.canonical(q);
                    if game.tier(c) == t {
                        mark(c, p)?;
                    }
                }
                Ok(())
            })?;
            run.tick(hi - lo);
            Ok(())
        })?;
    }
    if game.moves_stay(t) {
        // Sweeps: every marked rank not yet expanded is expanded, until a sweep finds none.
        let done: Vec<AtomicU64> = (0..words(size)).map(|_| AtomicU64::new(0)).collect();
        loop {
            run.begin(super::TierPhase::Reach, t, size);
            let expanded = (0..size.div_ceil(CHUNK))
                .into_par_iter()
                .map_init(Vec::new, |out, chunk| -> Result<u64, TierError> {
                    run.check_stop()?;
                    let (lo, hi) = (chunk * CHUNK, ((chunk + 1) * CHUNK).min(size));
                    let mut expanded = 0;
                    for w in (lo / 64) as usize..words(hi) {
                        let mut fresh = bits[w].load(Relaxed) & !done[w].load(Relaxed);
                        while fresh != 0 {
                            let r = w as u64 * 64 + u64::from(fresh.trailing_zeros());
                            fresh &= fresh - 1;
                            done[w].fetch_or(1 << (r % 64), Relaxed);
                            expanded += 1;
                            let pos = run.unrank(t, r)?;
                            out.clear();
                            game.moves(pos, out);
                            for &q in out.iter() {
                                let c = game.canonical(q);
                                if game.tier(c) == t {
                                    mark(c, t)?;
                                }
                            }
                            // Marks made in this word behind the cursor are taken now.
                            fresh |= bits[w].load(Relaxed) & !done[w].load(Relaxed);
                        }
                    }
                    run.tick(hi - lo);
                    Ok(expanded)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
            if expanded == 0 {
                break;
            }
        }
    }
    Ok(bits.into_iter().map(AtomicU64::into_inner).collect())
}
