//! Proven periods: the least pre-period, the smallest period and their certificate.

use std::fmt;

/// The periodicity theorem a [`Certificate`] relies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Theorem {
    /// Guy and Smith's theorem for octal games (Winning Ways, ch. 4): with `t` the largest
    /// removal, if `g(n + p) = g(n)` for all `n₀ ≤ n < 2·max(n₀, 1) + p + t`, then
    /// `g(n + p) = g(n)` for all `n ≥ n₀`. (The `max(n₀, 1)` is for `n₀ = 0`: there the
    /// induction step of the usual bound `2n₀ + p + t` meets the split of `2p + t` into
    /// `p + p`, whose counterpart `p + 0` is not a split; one more value settles it.) It
    /// holds as stated for `d₀ = 4` too, the split without removal being the case `j = 0`
    /// of the proof.
    GuySmith {
        /// `t`, the largest number of objects a move takes.
        largest_removal: usize,
    },
    /// Subtraction games: `g(n)` depends only on `g(n − s)`, `s ∈ S`, once `n ≥ max S`, so
    /// if `g(n + p) = g(n)` for the `max S` consecutive `n₀ ≤ n < n₀ + max S`, then for all
    /// `n ≥ n₀` (normal and misère play alike).
    SubtractionWindow {
        /// `max S`.
        window: usize,
    },
}

impl Theorem {
    /// The end (exclusive) of the range of `n` to check for pre-period `n0` and period `p`.
    pub fn check_end(self, n0: usize, p: usize) -> usize {
        match self {
            Theorem::GuySmith { largest_removal } => 2 * n0.max(1) + p + largest_removal,
            Theorem::SubtractionWindow { window } => n0 + window,
        }
    }
}

/// Why a period holds for ever: `g(n + period) = g(n)` for every `n` in
/// `checked_from .. checked_to`, which [`Theorem`] extends to every `n ≥ checked_from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Certificate {
    /// The theorem used.
    pub theorem: Theorem,
    /// The pre-period, the first `n` checked.
    pub checked_from: usize,
    /// The end (exclusive) of the `n` checked.
    pub checked_to: usize,
    /// The period.
    pub period: usize,
}

impl Certificate {
    /// How many values `g(0) … g(k − 1)` the certificate reads: `checked_to + period`.
    pub fn values_needed(&self) -> usize {
        self.checked_to + self.period
    }

    /// Checks the certificate against a computed prefix `g(0) … g(len − 1)`.
    ///
    /// # Complexity
    /// O(`checked_to − checked_from`) time, no extra space.
    pub fn verify(&self, values: &[u16]) -> bool {
        self.period > 0
            && self.checked_to == self.theorem.check_end(self.checked_from, self.period)
            && values.len() >= self.values_needed()
            && (self.checked_from..self.checked_to).all(|n| values[n + self.period] == values[n])
    }
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, a, b) = (self.period, self.checked_from, self.checked_to);
        write!(f, "certificate g(n + {p}) = g(n) for {a} <= n < {b}, ")?;
        match self.theorem {
            Theorem::GuySmith { largest_removal: t } => write!(
                f,
                "guy-smith bound 2*{} + {p} + {t} with t = {t} the largest removal",
                a.max(1)
            ),
            Theorem::SubtractionWindow { window } => {
                write!(f, "subtraction window of max S = {window} values")
            }
        }
    }
}

/// A proven period of a Grundy sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// `P`: the least `n₀` with `g(n + Q) = g(n)` for all `n ≥ n₀`.
    pub preperiod: usize,
    /// `Q`: the smallest period (every period of the sequence is a multiple of it).
    pub period: usize,
    /// The proof.
    pub certificate: Certificate,
}

/// Looks for a period proven by `theorem` within `values = g(0) … g(N − 1)`.
///
/// Returns the least pre-period and the smallest period. The smallest period `p` whose
/// proof fits in the prefix is the smallest period `Q` of the sequence: a proof for `p`
/// makes `p` a true period, so `Q` divides `p`, and the proof for `Q` needs no more values
/// than the proof for any multiple of `Q` (its last exception is `P − 1 + Q` instead of
/// `P − 1 + p`).
///
/// # Complexity
/// O(N · k) time where k is the mean length of agreement of a wrong shift scanned
/// backwards from the end (small in practice), plus O(P) for the pre-period; no extra space.
pub(crate) fn find(values: &[u16], theorem: Theorem) -> Option<Period> {
    let n = values.len();
    for p in 1..=n {
        // The latest violation `v` (g(v) ≠ g(v − p), v ≥ p) the proof tolerates.
        let lowest_checked = match theorem {
            Theorem::GuySmith { largest_removal: t } => {
                // 2·max(v − p + 1, 1) + 2p + t ≤ N.
                if 2 + 2 * p + t > n {
                    return None;
                }
                ((n - t - 2) / 2 + 1).max(p)
            }
            Theorem::SubtractionWindow { window } => {
                if window + p > n {
                    return None;
                }
                n - window
            }
        };
        if (lowest_checked..n).rev().all(|i| values[i] == values[i - p]) {
            let last_violation = (p..lowest_checked).rev().find(|&i| values[i] != values[i - p]);
            let preperiod = last_violation.map_or(0, |v| v + 1 - p);
            let certificate = Certificate {
                theorem,
                checked_from: preperiod,
                checked_to: theorem.check_end(preperiod, p),
                period: p,
            };
            debug_assert!(certificate.verify(values));
            return Some(Period { preperiod, period: p, certificate });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_smallest_period_of_a_window() {
        // 5 0 1 2 0 1 2 0 1 2 …: period 3 from 1 (subtraction window 2).
        let mut v = vec![5u16];
        for i in 0..20 {
            v.push(i % 3);
        }
        let p = find(&v, Theorem::SubtractionWindow { window: 2 }).unwrap();
        assert_eq!((p.preperiod, p.period), (1, 3));
        assert_eq!(p.certificate.checked_to, 3);
        assert!(p.certificate.verify(&v));
        assert!(find(&v[..5], Theorem::SubtractionWindow { window: 2 }).is_none());
    }
}
