//! Kernels: whether a digraph has one, which, how many, and all of them.
//!
//! Every query starts with the retrograde reduction of [`retrograde`]: the L positions are
//! in every kernel, the W positions in none, and what is left are the draw parts, each
//! decided on its own. [`find`] decides a part by the strongest argument that applies:
//! Richardson's construction when it has no odd cycle ([`richardson`]), α < β, the exact
//! search of [`search`], or the SAT encoding of [`sat_encoding`] for large parts, the two
//! side by side on the parts where either may be faster. [`enumerate`] lists all kernels
//! with the exact search. [`prove`] refutes a part without kernel once more, with the
//! solver's proof log, for a DRAT proof of the absence.

pub(crate) mod enumerate;
pub(crate) mod find;
mod prove;
mod retrograde;
mod richardson;
mod sat_encoding;
mod search;
