//! Rows whose depths are affine in the number t of periods, and the row step run on them
//! once for every t (fact 2 of the crate overview).

use crate::board::Value;
use crate::error::SolveError;
use crate::row::Row;

/// A depth that grows linearly with the number t of periods: `base + slope · t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Affine {
    pub(crate) base: u64,
    pub(crate) slope: u64,
}

impl Affine {
    pub(crate) fn at(self, t: u64) -> Result<u64, SolveError> {
        self.slope.checked_mul(t).and_then(|x| x.checked_add(self.base)).ok_or(SolveError::Overflow)
    }

    fn plus_one(self) -> Affine {
        Affine { base: self.base.saturating_add(1), slope: self.slope }
    }

    /// How good this is for the player moving into it, uniformly in t >= 0:
    /// `Some(Less)` when `self` is better than `other` for every t, `Some(Equal)` when they
    /// are the same function, `None` when the order is not the same for every t.
    fn compare(self, other: Affine) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering::*;
        if self == other {
            return Some(Equal);
        }
        let (x, y) = (Value::from_depth(self.base), Value::from_depth(other.base));
        if x.outcome() != y.outcome() {
            return Some(x.rank().cmp(&y.rank()));
        }
        // Same outcome: lost cells want the smaller depth, won cells the larger.
        let (lo, hi) =
            if x.outcome() == crate::Outcome::Loss { (self, other) } else { (other, self) };
        Some(if lo.base < hi.base && lo.slope <= hi.slope {
            Less
        } else if lo.base > hi.base && lo.slope >= hi.slope {
            Greater
        } else {
            return None;
        })
    }
}

/// A row whose depths are affine in t.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SymRow {
    pub(crate) a: Affine,
    pub(crate) b: Affine,
    pub(crate) ex: u32,
}

impl SymRow {
    pub(crate) fn get(self, col: u32) -> Affine {
        if col == self.ex { self.b } else { self.a }
    }

    pub(crate) fn at(self, t: u64) -> Result<Row, SolveError> {
        Ok(Row { a: self.a.at(t)?, b: self.b.at(t)?, ex: self.ex })
    }
}

/// The symbolic step: `Row` from affine candidates, or `None` when some comparison is not
/// the same for every t.
pub(crate) fn sym_step(kmax: u32, mut cand: impl FnMut(u32) -> Affine) -> Option<SymRow> {
    use std::cmp::Ordering::*;
    let mut best: Option<(Affine, u32)> = None;
    let mut second: Option<Affine> = None;
    for k in 1..=kmax {
        let d = cand(k);
        match best {
            None => best = Some((d, k)),
            Some((bd, _)) => match d.compare(bd)? {
                Less => {
                    second = Some(bd);
                    best = Some((d, k));
                }
                Equal | Greater => match second {
                    None => second = Some(d),
                    Some(sd) => {
                        if d.compare(sd)? == Less {
                            second = Some(d);
                        }
                    }
                },
            },
        }
    }
    let zero = Affine { base: 0, slope: 0 };
    Some(match best {
        None => SymRow { a: zero, b: zero, ex: 0 },
        Some((bd, bk)) => {
            let a = bd.plus_one();
            let b = second.map_or(zero, Affine::plus_one);
            if a == b { SymRow { a, b, ex: 0 } } else { SymRow { a, b, ex: bk } }
        }
    })
}
