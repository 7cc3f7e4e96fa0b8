//! The Grundy value (nimber) type with mex and the digit sum.

use std::ops::{BitXor, BitXorAssign};

/// A Grundy value (nimber) `*n`. The digit sum (nim-sum) is `^`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Nimber(pub u64);

impl Nimber {
    /// The zero nimber: the player to move loses.
    pub const ZERO: Nimber = Nimber(0);

    /// The minimum excludant: the smallest nimber not among `values`.
    ///
    /// # Complexity
    /// O(k) time and O(k) bits of extra space for k values.
    pub fn mex(values: impl IntoIterator<Item = Nimber>) -> Nimber {
        let values: Vec<u64> = values.into_iter().map(|n| n.0).collect();
        let k = values.len();
        let mut seen = vec![false; k + 1];
        for v in values {
            if (v as usize) < seen.len() && v <= k as u64 {
                seen[v as usize] = true;
            }
        }
        Nimber(seen.iter().position(|&s| !s).unwrap_or(k) as u64)
    }

    /// `true` for the zero nimber.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl BitXor for Nimber {
    type Output = Nimber;
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl std::iter::Sum for Nimber {
    /// The digit sum of all the values.
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, |a, b| a ^ b)
    }
}

impl std::fmt::Display for Nimber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_and_sum() {
        assert_eq!(Nimber::mex([]), Nimber(0));
        assert_eq!(Nimber::mex([Nimber(1), Nimber(2)]), Nimber(0));
        assert_eq!(Nimber::mex([Nimber(2), Nimber(0), Nimber(1), Nimber(7)]), Nimber(3));
        assert_eq!([Nimber(1), Nimber(2), Nimber(3)].into_iter().sum::<Nimber>(), Nimber(0));
    }
}
