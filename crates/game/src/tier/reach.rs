//! The reachability pass: which ranks of a tier play reaches from the start, a bit a rank;
//! each tier, once its own ranks are known, marks the ranks its moves reach in its child
//! tiers.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::Tiered;
use super::config::TierError;
use super::dir::Run;

/// Ranks per parallel task in a tier of `size` ranks: about 256 tasks a tier, between 2^12
/// and 2^16 ranks (a whole number of 64-bit words), so that a small tier still splits
/// evenly over the threads and its last task keeps the others waiting little.
pub(crate) fn chunk_ranks(size: u64) -> u64 {
    (size / 256).next_power_of_two().clamp(1 << 12, 1 << 16)
}

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

/// Calls `f` with every set bit among `lo..hi` (`lo` a multiple of 64) of the bit set whose
/// words `word` gives, and the position of that rank of tier `t`, in increasing order,
/// unranking [`BATCH_WORDS`] words of ranks at a time.
pub(crate) fn for_each_position<G: Tiered>(
    run: &Run<'_, G>,
    t: u32,
    word: &impl Fn(usize) -> u64,
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
            let mut x = word(v);
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

/// A bit set a rank, filled from several threads.
pub(crate) type Bits = Vec<AtomicU64>;

/// A zeroed bit set of `n` bits.
pub(crate) fn bits(n: u64) -> Bits {
    (0..words(n)).map(|_| AtomicU64::new(0)).collect()
}

/// Sets the bit of rank `r` (a plain read first: most moves land on ranks marked already).
pub(crate) fn set(bits: &[AtomicU64], r: u64) {
    let (word, bit) = (&bits[(r / 64) as usize], 1 << (r % 64));
    if word.load(Relaxed) & bit == 0 {
        word.fetch_or(bit, Relaxed);
    }
}

/// Expands the reachable ranks `own` of tier `t`: every move from them is marked in the bit
/// set of the tier it lands in, `open[c]` for a child tier `c` still being filled (a child
/// tier whose set is not open is finished already, and skipped). With `close`, moves that
/// stay in `t` are marked in `own` and expanded in turn, by sweeps over the tier until one
/// expands nothing new, so that `own` ends closed under them; otherwise they are ignored.
/// Each reachable position's moves are generated once.
pub(crate) fn expand_tier<G: Tiered>(
    run: &Run<'_, G>,
    t: u32,
    own: &[AtomicU64],
    close: bool,
    children: &[u32],
    open: &[Option<Bits>],
) -> Result<(), TierError> {
    let game = run.game;
    let size = game.tier_size(t);
    let mark = |c: G::Position| -> Result<(), TierError> {
        let ct = game.tier(c);
        let r = game.tier_rank(c);
        let target = if ct == t {
            close.then_some((own, size))
        } else if children.contains(&ct) {
            open[ct as usize].as_deref().map(|b| (b, game.tier_size(ct)))
        } else {
            return Err(run.contract(t, format!("a move lands in tier {ct}, not a child tier")));
        };
        if let Some((b, n)) = target {
            if r >= n {
                return Err(
                    run.contract(t, format!("a move lands on rank {r} of tier {ct}, of {n} ranks"))
                );
            }
            set(b, r);
        }
        Ok(())
    };
    let expand = |out: &mut Vec<G::Position>, pos: G::Position| -> Result<(), TierError> {
        out.clear();
        game.moves(pos, out);
        out.iter().try_for_each(|&q| mark(game.canonical(q)))
    };
    let chunk_size = chunk_ranks(size);
    let chunks = size.div_ceil(chunk_size);
    if !close {
        run.begin(super::TierPhase::Reach, t, size);
        let word = |i: usize| own[i].load(Relaxed);
        return (0..chunks).into_par_iter().try_for_each_init(Vec::new, |out, chunk| {
            run.check_stop()?;
            let (lo, hi) = (chunk * chunk_size, ((chunk + 1) * chunk_size).min(size));
            for_each_position(run, t, &word, lo, hi, |_, pos| expand(out, pos))?;
            run.tick(hi - lo);
            Ok(())
        });
    }
    // Sweeps: every marked rank not yet expanded is expanded, until a sweep finds none.
    let done = bits(size);
    loop {
        run.begin(super::TierPhase::Reach, t, size);
        let expanded = (0..chunks)
            .into_par_iter()
            .map_init(Vec::new, |out, chunk| -> Result<u64, TierError> {
                run.check_stop()?;
                let (lo, hi) = (chunk * chunk_size, ((chunk + 1) * chunk_size).min(size));
                let mut expanded = 0;
                for w in (lo / 64) as usize..words(hi) {
                    let mut fresh = own[w].load(Relaxed) & !done[w].load(Relaxed);
                    while fresh != 0 {
                        let r = w as u64 * 64 + u64::from(fresh.trailing_zeros());
                        fresh &= fresh - 1;
                        done[w].fetch_or(1 << (r % 64), Relaxed);
                        expanded += 1;
                        expand(out, run.unrank(t, r)?)?;
                        // Marks made in this word behind the cursor are taken now.
                        fresh |= own[w].load(Relaxed) & !done[w].load(Relaxed);
                    }
                }
                run.tick(hi - lo);
                Ok(expanded)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if expanded == 0 {
            return Ok(());
        }
    }
}
