//! The integration tests of `gamegraph-retro`, one binary: each module checks `solve` and
//! `par_solve` against a naive fixpoint, against each other on every pool, and on the
//! fixtures.

mod fixtures;
mod naive;
mod parallel;
