//! The value of a rank in one byte or two: 0 for a rank no play reaches, 1 for a draw,
//! `2 + 3·r + k` for a win (`k` = 0), loss (1) or tie (2) of remoteness `r`.

use crate::Outcome;

/// The value of a reachable position inside the tier solver: an outcome and its
/// remoteness (0 for a draw, and for every position when remoteness is not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub(crate) outcome: Outcome,
    pub(crate) remoteness: u32,
}

/// A value code stored per rank: `u8` or `u16`, little-endian in files.
pub(crate) trait Code:
    Copy + Default + Eq + std::fmt::Debug + Send + Sync + 'static
{
    /// Bytes per code.
    const BYTES: usize;
    /// The greatest remoteness a code holds.
    const MAX_REMOTENESS: u32;

    /// The code of `v`; `None` when its remoteness is above [`Code::MAX_REMOTENESS`].
    fn encode(v: Value) -> Option<Self>;

    /// The code as a number.
    fn get(self) -> u32;

    /// The code at index `i` of little-endian `bytes`.
    fn read(bytes: &[u8], i: usize) -> Self;

    /// Appends the little-endian bytes of `codes` to `out`.
    fn write_all(codes: &[Self], out: &mut Vec<u8>);

    /// Writes the little-endian bytes of `codes` to `w`, a megabyte at a time.
    fn write_to(codes: &[Self], w: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in codes.chunks((1 << 20) / Self::BYTES) {
            buf.clear();
            Self::write_all(chunk, &mut buf);
            w.write_all(&buf)?;
        }
        Ok(())
    }

    /// The value of a code; `None` for a rank no play reaches.
    fn decode(self) -> Option<Value> {
        let c = self.get();
        match c {
            0 => None,
            1 => Some(Value { outcome: Outcome::Draw, remoteness: 0 }),
            _ => {
                let (r, k) = ((c - 2) / 3, (c - 2) % 3);
                let outcome = [Outcome::Win, Outcome::Loss, Outcome::Tie][k as usize];
                Some(Value { outcome, remoteness: r })
            }
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

impl Code for u8 {
    const BYTES: usize = 1;
    const MAX_REMOTENESS: u32 = 83;

    fn encode(v: Value) -> Option<u8> {
        number(v, Self::MAX_REMOTENESS).map(|n| n as u8)
    }

    fn get(self) -> u32 {
        u32::from(self)
    }

    fn read(bytes: &[u8], i: usize) -> u8 {
        bytes[i]
    }

    fn write_all(codes: &[u8], out: &mut Vec<u8>) {
        out.extend_from_slice(codes);
    }
}

impl Code for u16 {
    const BYTES: usize = 2;
    const MAX_REMOTENESS: u32 = 21_843;

    fn encode(v: Value) -> Option<u16> {
        number(v, Self::MAX_REMOTENESS).map(|n| n as u16)
    }

    fn get(self) -> u32 {
        u32::from(self)
    }

    fn read(bytes: &[u8], i: usize) -> u16 {
        u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]])
    }

    fn write_all(codes: &[u16], out: &mut Vec<u8>) {
        out.extend(codes.iter().flat_map(|c| c.to_le_bytes()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Code>() {
        for outcome in Outcome::ALL {
            for remoteness in [0, 1, 2, 41, C::MAX_REMOTENESS] {
                let remoteness = if outcome == Outcome::Draw { 0 } else { remoteness };
                let v = Value { outcome, remoteness };
                let c = C::encode(v).unwrap();
                assert_eq!(c.decode(), Some(v));
                let mut bytes = Vec::new();
                C::write_all(&[C::default(), c], &mut bytes);
                assert_eq!(C::read(&bytes, 1), c);
            }
        }
        let far = Value { outcome: Outcome::Win, remoteness: C::MAX_REMOTENESS + 1 };
        assert_eq!(C::encode(far), None);
        assert_eq!(C::default().decode(), None);
    }

    #[test]
    fn codes_round_trip_up_to_their_greatest_remoteness() {
        round_trip::<u8>();
        round_trip::<u16>();
    }
}
