//! The integration tests of `gamegraph-grundy`, one binary: each module checks Grundy
//! values, sums, heaps and octal games against naive oracles, `gamegraph-retro` or the
//! fixtures; `common` holds the certificate check they share.

mod common;

mod brute;
mod fixtures;
mod octal;
mod retro;
mod sums;
