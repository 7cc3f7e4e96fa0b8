//! The messages of the rounds: the status byte that keeps every worker in the same round,
//! numbers in 7-bit groups, and sorted lists of (tier, rank) keys as differences.

use super::Exchange;
use crate::tier::TierError;

/// The first byte of every message.
pub(super) const DONE: u8 = 0;
pub(super) const MORE: u8 = 1;
pub(super) const FAILED: u8 = 2;

/// The rounds of one worker, with the status byte of each message.
pub(super) struct Link<'x, X> {
    pub(super) x: &'x mut X,
    pub(super) n: usize,
}

impl<'x, X: Exchange> Link<'x, X> {
    /// The rounds of the worker of `x`.
    pub(super) fn new(x: &'x mut X) -> Link<'x, X> {
        let n = x.workers();
        Link { x, n }
    }

    /// This worker's index.
    pub(super) fn me(&self) -> usize {
        self.x.worker()
    }

    /// Messages to every worker, each with room for the status byte.
    pub(super) fn empty(&self) -> Vec<Vec<u8>> {
        vec![vec![DONE]; self.n]
    }

    /// One round of `out` (from [`Link::empty`]); `more` says this worker has more to do.
    /// Returns the messages received (each after its status byte) and whether any worker
    /// has more to do.
    pub(super) fn round(
        &mut self,
        out: Vec<Vec<u8>>,
        more: bool,
    ) -> Result<(Vec<Vec<u8>>, bool), X::Error> {
        self.round_during(out, more, &mut || {})
    }

    /// [`Link::round`] with `during` run while the round is in flight (see
    /// [`Exchange::exchange_during`]).
    pub(super) fn round_during(
        &mut self,
        mut out: Vec<Vec<u8>>,
        more: bool,
        during: &mut dyn FnMut(),
    ) -> Result<(Vec<Vec<u8>>, bool), X::Error> {
        for m in &mut out {
            m[0] = if more { MORE } else { DONE };
        }
        let got = self.x.exchange_during(out, during)?;
        let mut any = more;
        for (w, m) in got.iter().enumerate() {
            match m.first() {
                Some(&FAILED) => {
                    return Err(TierError::Peer { worker: w, reason: FAILED_REASON.into() }.into());
                }
                Some(&MORE) => any = true,
                Some(&DONE) => {}
                _ => return Err(malformed(w).into()),
            }
        }
        Ok((got, any))
    }

    /// A round that only says who has more to do.
    pub(super) fn any(&mut self, more: bool) -> Result<bool, X::Error> {
        let out = self.empty();
        Ok(self.round(out, more)?.1)
    }

    /// The work of this worker between two rounds: on failure, every other worker is told
    /// in the next round, and this worker returns its error.
    pub(super) fn local<T>(&mut self, r: Result<T, TierError>) -> Result<T, X::Error> {
        r.map_err(|e| {
            // The others stop in this round; what the exchange says no longer matters.
            let _ = self.x.exchange(vec![vec![FAILED]; self.n]);
            e.into()
        })
    }
}

/// What a worker says of another that failed.
const FAILED_REASON: &str = "failed; its process reports why";

pub(super) fn malformed(worker: usize) -> TierError {
    TierError::Peer { worker, reason: "a message this worker cannot read".into() }
}

/// Appends `v` in 7-bit groups, the lowest first.
pub(super) fn put(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

/// Reads what [`put`] wrote, from the message of `worker`.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    pub(super) worker: usize,
}

impl<'a> Reader<'a> {
    /// The payload of `message` (after its status byte) from `worker`.
    pub(super) fn new(message: &'a [u8], worker: usize) -> Reader<'a> {
        Reader { bytes: message, at: 1, worker }
    }

    /// The whole of `bytes`, a part of a message from `worker`.
    pub(super) fn over(bytes: &'a [u8], worker: usize) -> Reader<'a> {
        Reader { bytes, at: 0, worker }
    }

    /// What is left to read.
    pub(super) fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.at..).unwrap_or(&[])
    }

    pub(super) fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    pub(super) fn get(&mut self) -> Result<u64, TierError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| malformed(self.worker))?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(malformed(self.worker))
    }

    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], TierError> {
        let s = self.bytes.get(self.at..self.at + n).ok_or_else(|| malformed(self.worker))?;
        self.at += n;
        Ok(s)
    }
}

/// A (tier, rank) key as one number that sorts as the pair: the tier above bit 64.
pub(super) fn key(t: u32, r: u64) -> u128 {
    u128::from(t) << 64 | u128::from(r)
}

/// The tier and rank of a [`key`].
pub(super) fn unkey(k: u128) -> (u32, u64) {
    ((k >> 64) as u32, k as u64)
}

/// Sorts `v` by its bits from bit `low` up, so that equal keys above `low` are next to
/// each other in increasing order: by a radix sort on the bits that differ when they span
/// at most 64 (a batch's keys share their tier and the high bits of their ranks), which
/// keeps the order of `v` among equal keys; otherwise by comparisons of the whole numbers.
pub(super) fn sort_keys(v: &mut [u128], low: u32) {
    const DIGIT: u32 = 11;
    const MASK: usize = (1 << DIGIT) - 1;
    let Some(&first) = v.first() else { return };
    let (lo, hi) = v.iter().fold((first, first), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    // The bits below `low` of the least number cleared: the differences then order the
    // numbers as their bits from `low` up do.
    let lo = lo >> low << low;
    let span = hi - lo;
    if v.len() < 1 << 10 || span > u128::from(u64::MAX) {
        v.sort_unstable();
        return;
    }
    let bits = 128 - span.leading_zeros();
    let passes = bits.saturating_sub(low).div_ceil(DIGIT) as usize;
    let shift = |p: usize| low + p as u32 * DIGIT;
    // Every pass's counts in one reading.
    let mut counts = vec![[0usize; 1 << DIGIT]; passes];
    let mut a: Vec<u64> = v
        .iter()
        .map(|&x| {
            let y = (x - lo) as u64;
            for (p, c) in counts.iter_mut().enumerate() {
                c[(y >> shift(p)) as usize & MASK] += 1;
            }
            y
        })
        .collect();
    let mut b = vec![0u64; a.len()];
    for (p, start) in counts.iter_mut().enumerate() {
        if start.contains(&a.len()) {
            // One digit for all: the pass would keep the order.
            continue;
        }
        let mut sum = 0;
        for s in start.iter_mut() {
            (*s, sum) = (sum, sum + *s);
        }
        for &x in &a {
            let d = (x >> shift(p)) as usize & MASK;
            b[start[d]] = x;
            start[d] += 1;
        }
        std::mem::swap(&mut a, &mut b);
    }
    for (o, x) in v.iter_mut().zip(a) {
        *o = lo + u128::from(x);
    }
}

/// Writes increasing distinct keys to a message: the difference from the previous rank
/// (at least 1) within a tier; 0, the tier and the rank when the tier changes.
#[derive(Default)]
pub(super) struct KeyWriter {
    last: Option<(u32, u64)>,
}

impl KeyWriter {
    /// Appends (t, r), greater than the key before it, to `buf`.
    pub(super) fn push(&mut self, buf: &mut Vec<u8>, t: u32, r: u64) {
        match self.last {
            Some((lt, lr)) if lt == t => put(buf, r - lr),
            _ => {
                put(buf, 0);
                put(buf, u64::from(t));
                put(buf, r);
            }
        }
        self.last = Some((t, r));
    }
}

/// Calls `f` with every key of a message of [`KeyWriter`]s, in order.
pub(super) fn each_key(
    mut r: Reader<'_>,
    mut f: impl FnMut(u32, u64) -> Result<(), TierError>,
) -> Result<(), TierError> {
    let mut last: Option<(u32, u64)> = None;
    while !r.done() {
        let (t, rank) = match (r.get()?, last) {
            (0, _) => {
                let t = u32::try_from(r.get()?).map_err(|_| malformed(r.worker))?;
                (t, r.get()?)
            }
            (d, Some((t, rank))) => (t, rank.checked_add(d).ok_or_else(|| malformed(r.worker))?),
            (_, None) => return Err(malformed(r.worker)),
        };
        f(t, rank)?;
        last = Some((t, rank));
    }
    Ok(())
}

/// A count read from a message.
pub(super) fn link_get(r: &mut Reader<'_>) -> Result<usize, TierError> {
    let w = r.worker;
    usize::try_from(r.get()?).map_err(|_| malformed(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_back_in_order() {
        let keys = [(0, u64::MAX), (1, 5), (1, 6), (3, 2), (3, 900), (7, 0)];
        let mut m = vec![DONE];
        let mut w = KeyWriter::default();
        for &(t, r) in &keys {
            assert_eq!(unkey(key(t, r)), (t, r));
            w.push(&mut m, t, r);
        }
        let mut back = Vec::new();
        each_key(Reader::new(&m, 0), |t, r| {
            back.push((t, r));
            Ok(())
        })
        .unwrap();
        assert_eq!(back, keys);
        assert!(each_key(Reader::new(&m[..m.len() - 1], 0), |_, _| Ok(())).is_err());
        assert!(each_key(Reader::new(&[DONE, 5], 0), |_, _| Ok(())).is_err());
    }

    #[test]
    fn sorted_keys_are_sorted_whatever_their_span() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (n, spread) in [(5000, 40), (5000, 64), (3000, 100), (100, 30), (0, 10)] {
            let mut v: Vec<u128> = (0..n)
                .map(|_| {
                    let r = u128::from(next()) << 64 | u128::from(next());
                    (7u128 << 100) + (r >> (128 - spread))
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort_keys(&mut v, 0);
            assert_eq!(v, want, "{n} keys over {spread} bits");
        }
    }

    #[test]
    fn keys_sorted_from_a_bit_up_keep_their_order_below_it() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for (n, keys) in [(5000u64, 37u64), (3000, 1 << 30), (200, 5)] {
            // Key above bit 16, the place read below it.
            let mut v: Vec<u128> = (0..n)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (5u128 << 90) + (u128::from(x % keys) << 16 | u128::from(i))
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort_keys(&mut v, 16);
            assert_eq!(v, want, "{n} places over {keys} keys");
        }
    }
}
