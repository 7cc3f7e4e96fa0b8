//! Variables and literals of the SAT solver.

use std::ops::Not;

/// A variable, numbered from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Var(pub(crate) u32);

impl Var {
    /// The variable's number, as an index into per-variable arrays.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// A literal: a variable or its negation, coded `2 · var + 1` for the negation and
/// `2 · var` for the variable itself, so that a literal and its negation differ in the low
/// bit only and literals order by variable first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Lit(u32);

impl Lit {
    /// The literal of `var`, negated or not.
    #[inline]
    pub(crate) fn new(var: Var, negated: bool) -> Lit {
        Lit(2 * var.0 + u32::from(negated))
    }

    /// The positive literal of `var`.
    #[inline]
    pub(crate) fn pos(var: Var) -> Lit {
        Lit(2 * var.0)
    }

    /// The negative literal of `var`.
    #[inline]
    pub(crate) fn neg(var: Var) -> Lit {
        Lit(2 * var.0 + 1)
    }

    /// The literal of code `code` (see [`Lit::code`]).
    #[inline]
    pub(crate) const fn from_code(code: u32) -> Lit {
        Lit(code)
    }

    /// The code `2 · var + negated`.
    #[inline]
    pub(crate) fn code(self) -> u32 {
        self.0
    }

    /// The code as an index into per-literal arrays.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The literal's variable.
    #[inline]
    pub(crate) fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether the literal is the negation of its variable.
    #[inline]
    pub(crate) fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }

    /// The negation of the literal when `flip` holds, else the literal.
    #[inline]
    pub(crate) fn negate_if(self, flip: bool) -> Lit {
        Lit(self.0 ^ u32::from(flip))
    }
}

impl Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}
