//! The integration tests of `gamegraph-tab`, one binary: each module checks the tab board
//! solver against independent oracles, its limits, and the `tab.inp` reader.

mod brute;
mod limits;
mod parse;
mod retro;
