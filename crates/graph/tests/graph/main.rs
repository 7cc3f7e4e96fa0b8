//! The integration tests of `gamegraph-graph`, one binary: each module checks the file
//! formats and readers from outside the crate (round trips, bad input, the parallel
//! readers, terminal values, the fixtures); `support` holds what they share.

mod support;

mod bad_input;
mod binary_file;
mod fixtures;
mod roundtrip;
mod terminal;
