//! The value of a rank in half a byte, one byte or two: 0 for a rank no play reaches, 1 for
//! a draw, `2 + 3·r + k` for a win (`k` = 0), loss (1) or tie (2) of remoteness `r`.

use crate::{Counts, Outcome};

/// The value of a reachable position inside the tier solver: an outcome and its
/// remoteness (0 for a draw, and for every position when remoteness is not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub(crate) outcome: Outcome,
    pub(crate) remoteness: u32,
}

/// A width of the value codes stored per rank, in a byte array: half a byte (two codes a
/// byte, the lower half first), one byte, or two little-endian bytes.
pub(crate) trait Code: Send + Sync + 'static {
    /// Bits per code.
    const BITS: u64;
    /// The greatest remoteness a code holds.
    const MAX_REMOTENESS: u32;

    /// The code number at index `i` of `bytes`.
    fn get(bytes: &[u8], i: usize) -> u32;

    /// Sets the code at index `i` of `bytes` to `code`, which fits.
    fn set(bytes: &mut [u8], i: usize, code: u32);

    /// The bytes of `n` codes.
    fn bytes(n: u64) -> u64 {
        (n * Self::BITS).div_ceil(8)
    }

    /// The codes that `bytes` hold (with the unused half of a last byte).
    fn count(bytes: &[u8]) -> usize {
        bytes.len() * 8 / Self::BITS as usize
    }

    /// The code of `v`; `None` when its remoteness is above [`Code::MAX_REMOTENESS`].
    fn encode(v: Value) -> Option<u32> {
        number(v, Self::MAX_REMOTENESS)
    }

    /// The positions of each outcome among the codes of `bytes` (the unused half of a last
    /// byte of half-byte codes is 0: no position).
    fn counts(bytes: &[u8]) -> Counts {
        let mut counts = Counts::default();
        for v in (0..Self::count(bytes)).filter_map(|i| Self::read(bytes, i)) {
            counts.count(v.outcome);
        }
        counts
    }

    /// The value at index `i` of `bytes` as a values file stores it: the outcome, and the
    /// remoteness when it is kept and the outcome is not a draw.
    fn stored(bytes: &[u8], i: usize, remoteness: bool) -> Option<(Outcome, Option<u32>)> {
        let v = Self::read(bytes, i)?;
        Some((v.outcome, (remoteness && v.outcome != Outcome::Draw).then_some(v.remoteness)))
    }

    /// The value at index `i` of `bytes`; `None` for a rank no play reaches.
    fn read(bytes: &[u8], i: usize) -> Option<Value> {
        value(Self::get(bytes, i))
    }

    /// The value of the code number in the low [`Code::BITS`] bits of `code` (as
    /// [`Code::set`] would store it); `None` for a rank no play reaches.
    fn decode(code: u32) -> Option<Value> {
        value(code & ((1u64 << Self::BITS) - 1) as u32)
    }
}

/// The value of a code number.
fn value(code: u32) -> Option<Value> {
    match code {
        0 => None,
        1 => Some(Value { outcome: Outcome::Draw, remoteness: 0 }),
        c => {
            let (r, k) = ((c - 2) / 3, (c - 2) % 3);
            let outcome = [Outcome::Win, Outcome::Loss, Outcome::Tie][k as usize];
            Some(Value { outcome, remoteness: r })
        }
    }
}

/// The number of a value.
fn number(v: Value, max: u32) -> Option<u32> {
    let k = match v.outcome {
        Outcome::Draw => return Some(1),
        Outcome::Win => 0,
        Outcome::Loss => 1,
        Outcome::Tie => 2,
    };
    (v.remoteness <= max).then(|| 2 + 3 * v.remoteness + k)
}

/// Codes of half a byte: what a solve without remoteness keeps (every remoteness is 0).
pub(crate) struct Nibble;

impl Code for Nibble {
    const BITS: u64 = 4;
    const MAX_REMOTENESS: u32 = 3;

    fn get(bytes: &[u8], i: usize) -> u32 {
        u32::from(bytes[i / 2] >> (4 * (i % 2)) & 0xf)
    }

    fn set(bytes: &mut [u8], i: usize, code: u32) {
        let shift = 4 * (i % 2);
        let b = &mut bytes[i / 2];
        *b = *b & !(0xf << shift) | (code as u8) << shift;
    }
}

impl Code for u8 {
    const BITS: u64 = 8;
    const MAX_REMOTENESS: u32 = 83;

    fn get(bytes: &[u8], i: usize) -> u32 {
        u32::from(bytes[i])
    }

    fn set(bytes: &mut [u8], i: usize, code: u32) {
        bytes[i] = code as u8;
    }
}

impl Code for u16 {
    const BITS: u64 = 16;
    const MAX_REMOTENESS: u32 = 21_843;

    fn get(bytes: &[u8], i: usize) -> u32 {
        u32::from(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]))
    }

    fn set(bytes: &mut [u8], i: usize, code: u32) {
        bytes[2 * i..2 * i + 2].copy_from_slice(&(code as u16).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Code>() {
        for outcome in Outcome::ALL {
            for remoteness in [0, 1, 2, C::MAX_REMOTENESS] {
                let remoteness = if outcome == Outcome::Draw { 0 } else { remoteness };
                let v = Value { outcome, remoteness };
                let c = C::encode(v).unwrap();
                // Each code beside others, which it leaves alone.
                let mut bytes = vec![0u8; C::bytes(3) as usize];
                C::set(&mut bytes, 1, c);
                assert_eq!(C::read(&bytes, 1), Some(v));
                assert_eq!((C::read(&bytes, 0), C::read(&bytes, 2)), (None, None));
                let mut full = vec![0xffu8; C::bytes(3) as usize];
                C::set(&mut full, 1, c);
                assert_eq!(C::get(&full, 1), c);
                let ones = ((1u64 << C::BITS) - 1) as u32;
                assert_eq!((C::get(&full, 0), C::get(&full, 2)), (ones, ones));
            }
        }
        let far = Value { outcome: Outcome::Tie, remoteness: C::MAX_REMOTENESS + 1 };
        assert_eq!(C::encode(far), None);
        let most = Value { outcome: Outcome::Tie, remoteness: C::MAX_REMOTENESS };
        assert_eq!(u64::from(C::encode(most).unwrap()) >> C::BITS, 0);
        assert_eq!(C::count(&vec![0; C::bytes(5) as usize]), (C::bytes(5) * 8 / C::BITS) as usize);
    }

    #[test]
    fn codes_round_trip_up_to_their_greatest_remoteness() {
        round_trip::<Nibble>();
        round_trip::<u8>();
        round_trip::<u16>();
    }
}
