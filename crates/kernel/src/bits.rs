//! Fixed-size bitsets over `u64` words, for the branch-and-bound hot loops.

#[inline]
pub(crate) fn words(n: usize) -> usize {
    n.div_ceil(64)
}

#[inline]
pub(crate) fn set(b: &mut [u64], i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}

/// Sets the members 0..n of `b` (the rest of `b` stays as it is).
pub(crate) fn fill(b: &mut [u64], n: usize) {
    b[..n / 64].fill(!0);
    if !n.is_multiple_of(64) {
        b[n / 64] |= (1 << (n % 64)) - 1;
    }
}

#[inline]
pub(crate) fn clear(b: &mut [u64], i: usize) {
    b[i >> 6] &= !(1 << (i & 63));
}

#[inline]
pub(crate) fn get(b: &[u64], i: usize) -> bool {
    b[i >> 6] >> (i & 63) & 1 == 1
}

#[inline]
pub(crate) fn is_empty(b: &[u64]) -> bool {
    b.iter().all(|&w| w == 0)
}

#[inline]
pub(crate) fn count(b: &[u64]) -> usize {
    b.iter().map(|w| w.count_ones() as usize).sum()
}

#[inline]
pub(crate) fn first(b: &[u64]) -> Option<usize> {
    b.iter().enumerate().find(|(_, w)| **w != 0).map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

/// Calls `f` with every member of `b`, in increasing order, until it fails.
#[inline]
pub(crate) fn for_each<E>(b: &[u64], mut f: impl FnMut(usize) -> Result<(), E>) -> Result<(), E> {
    for (i, &w) in b.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize)?;
            w &= w - 1;
        }
    }
    Ok(())
}
