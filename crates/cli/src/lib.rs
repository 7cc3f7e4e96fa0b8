//! The machinery behind the `gamegraph` binaries: argument parsing (clap), files,
//! output and exit codes. All game logic lives in the library crates.
//!
//! Exit codes: 0 success, 1 a negative answer where a command documents one (for
//! example `kernel --check` on a set that is not a kernel) or an I/O failure, 2 bad
//! input or usage, 3 a limit reached (time, work, or memory the input asks for).

// Messages to the user's terminal are this crate's job; answers go through locked, buffered
// standard output, never `println!`.
#![allow(clippy::print_stderr)]

mod app;
mod cmd;
mod common;

pub use crate::app::{Single, main_gamegraph, main_single};
