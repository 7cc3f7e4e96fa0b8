//! Octal codes (`0.77`, `.07`, `4.07`) and subtraction sets (`1,3,4`).

use std::fmt;
use std::str::FromStr;

use super::error::{CodeError, SetError};

/// The most digits after the point an [`OctalCode`] may have.
pub const MAX_CODE_DIGITS: usize = 64;

/// The largest element of a [`SubtractionSet`].
pub const MAX_SUBTRACTION: u64 = u32::MAX as u64;

/// The rules of an octal game, `d₀.d₁d₂…d_t`.
///
/// Digit `d_j` (0–7) says what may remain when `j` objects are taken from one heap:
/// bit 1 — nothing (the heap had exactly `j` objects), bit 2 — one non-empty heap,
/// bit 4 — two non-empty heaps. The digit before the point, `d₀`, is 0 or 4: 4 lets a move
/// split a heap into two non-empty heaps without taking anything (as in `4.07`).
/// Trailing zeros are dropped, so `0.60` and `0.6` are the same game; `t` (the largest
/// removal) is the position of the last non-zero digit.
///
/// ```
/// use gamegraph_grundy::octal::OctalCode;
///
/// let kayles: OctalCode = "0.77".parse()?;
/// assert_eq!(kayles.largest_removal(), 2);
/// assert_eq!(kayles.digit(1), 7);
/// assert_eq!(".07".parse::<OctalCode>()?.to_string(), "0.07");
/// assert!("0.8".parse::<OctalCode>().is_err());
/// # Ok::<(), gamegraph_grundy::octal::CodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[j]` is `d_j`; never ends with a zero except for the lone `d₀`.
    digits: Vec<u8>,
}

impl OctalCode {
    /// The digit `d_j` (0 past the end of the code).
    pub fn digit(&self, j: usize) -> u8 {
        self.digits.get(j).copied().unwrap_or(0)
    }

    /// `t`, the largest number of objects a move may take (0 when no move takes any).
    pub fn largest_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// `true` when some move splits a heap into two (a digit 4–7, or `d₀ = 4`).
    pub fn has_splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// The removals `j` (with `d_j` bit 1) that may take a whole heap of exactly `j`.
    pub(crate) fn removals_to_nothing(&self) -> Vec<usize> {
        self.removals_with(1)
    }

    /// The removals `j ≥ 1` (with `d_j` bit 2) that may leave one non-empty heap.
    pub(crate) fn removals_to_one(&self) -> Vec<usize> {
        self.removals_with(2)
    }

    /// The removals `j` (with `d_j` bit 4) that may leave two non-empty heaps.
    pub(crate) fn removals_to_two(&self) -> Vec<usize> {
        self.removals_with(4)
    }

    fn removals_with(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len()).filter(|&j| self.digits[j] & bit != 0).collect()
    }
}

impl FromStr for OctalCode {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<Self, CodeError> {
        if s.is_empty() {
            return Err(CodeError::Empty);
        }
        let mut before: Vec<u8> = Vec::new();
        let mut after: Vec<u8> = Vec::new();
        let mut seen_point = false;
        for (i, c) in s.chars().enumerate() {
            match c {
                '.' if !seen_point => seen_point = true,
                '0'..='7' => {
                    let d = c as u8 - b'0';
                    if seen_point { after.push(d) } else { before.push(d) }
                }
                _ => return Err(CodeError::NotOctal { column: i + 1, found: c }),
            }
        }
        if !seen_point {
            return Err(CodeError::MissingPoint);
        }
        if before.len() > 1 {
            return Err(CodeError::LeadingTooLong);
        }
        let d0 = before.first().copied().unwrap_or(0);
        if d0 != 0 && d0 != 4 {
            return Err(CodeError::BadLeadingDigit { found: d0 });
        }
        if after.is_empty() {
            return Err(CodeError::NoDigitsAfterPoint);
        }
        if after.len() > MAX_CODE_DIGITS {
            return Err(CodeError::TooLong { digits: after.len(), max: MAX_CODE_DIGITS });
        }
        let mut digits = Vec::with_capacity(after.len() + 1);
        digits.push(d0);
        digits.extend(after);
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    /// The normal form: `d₀.d₁…d_t` (at least one digit after the point).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A finite subtraction set `S`: a move takes `s ∈ S` objects from a heap of at least `s`.
///
/// Parsed from a comma-separated list of distinct positive integers (`1,3,4`; spaces
/// around elements are allowed), kept sorted.
///
/// ```
/// use gamegraph_grundy::octal::SubtractionSet;
///
/// let s: SubtractionSet = "4, 1,3".parse()?;
/// assert_eq!(s.elements(), &[1, 3, 4]);
/// assert_eq!(s.to_string(), "1,3,4");
/// assert!("1,0".parse::<SubtractionSet>().is_err());
/// # Ok::<(), gamegraph_grundy::octal::SetError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    elements: Vec<u64>,
}

impl SubtractionSet {
    /// Builds a set from its elements (any order).
    ///
    /// # Errors
    /// [`SetError`] for an empty set, a zero, an element above [`MAX_SUBTRACTION`] or a
    /// repeated element.
    pub fn new(elements: impl IntoIterator<Item = u64>) -> Result<SubtractionSet, SetError> {
        let mut v: Vec<u64> = Vec::new();
        for (i, e) in elements.into_iter().enumerate() {
            if e == 0 {
                return Err(SetError::Zero { index: i + 1 });
            }
            if e > MAX_SUBTRACTION {
                return Err(SetError::TooLarge { index: i + 1, max: MAX_SUBTRACTION });
            }
            v.push(e);
        }
        if v.is_empty() {
            return Err(SetError::Empty);
        }
        v.sort_unstable();
        if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
            return Err(SetError::Duplicate { value: w[0] });
        }
        Ok(SubtractionSet { elements: v })
    }

    /// The elements, increasing.
    pub fn elements(&self) -> &[u64] {
        &self.elements
    }

    /// The largest element, `max S`.
    pub fn max(&self) -> u64 {
        *self.elements.last().expect("a subtraction set is never empty")
    }
}

impl FromStr for SubtractionSet {
    type Err = SetError;

    fn from_str(s: &str) -> Result<Self, SetError> {
        if s.trim().is_empty() {
            return Err(SetError::Empty);
        }
        let mut elements = Vec::new();
        let mut column = 1;
        for (i, part) in s.split(',').enumerate() {
            let text = part.trim();
            let lead = part.len() - part.trim_start().len();
            let value = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                text.parse::<u64>().ok()
            } else {
                None
            };
            match value {
                Some(v) if v > MAX_SUBTRACTION => {
                    return Err(SetError::TooLarge { index: i + 1, max: MAX_SUBTRACTION });
                }
                Some(v) => elements.push(v),
                None if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => {
                    return Err(SetError::TooLarge { index: i + 1, max: MAX_SUBTRACTION });
                }
                None => {
                    return Err(SetError::NotANumber {
                        index: i + 1,
                        column: column + lead,
                        found: text.to_owned(),
                    });
                }
            }
            column += part.chars().count() + 1;
        }
        SubtractionSet::new(elements)
    }
}

impl fmt::Display for SubtractionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_classic_codes() {
        for (s, t, norm) in [
            ("0.77", 2, "0.77"),
            (".07", 2, "0.07"),
            ("4.07", 2, "4.07"),
            ("0.137", 3, "0.137"),
            ("0.6", 1, "0.6"),
            ("0.106", 3, "0.106"),
            ("0.60", 1, "0.6"),
            ("0.0", 0, "0.0"),
            ("4.0", 0, "4.0"),
        ] {
            let c: OctalCode = s.parse().unwrap();
            assert_eq!(c.largest_removal(), t, "{s}");
            assert_eq!(c.to_string(), norm);
        }
        let c: OctalCode = "4.07".parse().unwrap();
        assert_eq!(c.removals_to_two(), vec![0, 2]);
        assert_eq!(c.removals_to_one(), vec![2]);
        assert_eq!(c.removals_to_nothing(), vec![2]);
    }

    #[test]
    fn rejects_malformed_codes() {
        assert_eq!("".parse::<OctalCode>(), Err(CodeError::Empty));
        assert_eq!("0.8".parse::<OctalCode>(), Err(CodeError::NotOctal { column: 3, found: '8' }));
        assert_eq!("abc".parse::<OctalCode>(), Err(CodeError::NotOctal { column: 1, found: 'a' }));
        assert_eq!("077".parse::<OctalCode>(), Err(CodeError::MissingPoint));
        assert_eq!("0.".parse::<OctalCode>(), Err(CodeError::NoDigitsAfterPoint));
        assert_eq!("1.07".parse::<OctalCode>(), Err(CodeError::BadLeadingDigit { found: 1 }));
        assert_eq!("04.7".parse::<OctalCode>(), Err(CodeError::LeadingTooLong));
        assert_eq!(
            "0.7.7".parse::<OctalCode>(),
            Err(CodeError::NotOctal { column: 4, found: '.' })
        );
        assert_eq!(" 0.7".parse::<OctalCode>(), Err(CodeError::NotOctal { column: 1, found: ' ' }));
        let long = format!("0.{}", "1".repeat(MAX_CODE_DIGITS + 1));
        assert!(matches!(long.parse::<OctalCode>(), Err(CodeError::TooLong { .. })));
    }

    #[test]
    fn parses_and_rejects_sets() {
        let s: SubtractionSet = "1,3,4".parse().unwrap();
        assert_eq!(s.elements(), &[1, 3, 4]);
        assert_eq!(s.max(), 4);
        assert_eq!("".parse::<SubtractionSet>(), Err(SetError::Empty));
        assert_eq!(
            "1,,2".parse::<SubtractionSet>(),
            Err(SetError::NotANumber { index: 2, column: 3, found: String::new() })
        );
        assert_eq!(
            "1,x".parse::<SubtractionSet>(),
            Err(SetError::NotANumber { index: 2, column: 3, found: "x".into() })
        );
        assert_eq!(
            "2,-1".parse::<SubtractionSet>(),
            Err(SetError::NotANumber { index: 2, column: 3, found: "-1".into() })
        );
        assert_eq!("0".parse::<SubtractionSet>(), Err(SetError::Zero { index: 1 }));
        assert_eq!("3,1,3".parse::<SubtractionSet>(), Err(SetError::Duplicate { value: 3 }));
        assert!(matches!(
            "99999999999999999999999".parse::<SubtractionSet>(),
            Err(SetError::TooLarge { index: 1, .. })
        ));
        assert!(matches!("5000000000".parse::<SubtractionSet>(), Err(SetError::TooLarge { .. })));
    }
}
