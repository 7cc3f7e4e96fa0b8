//! The integration tests of `gamegraph-kernel`, one binary: each module checks kernels,
//! α and β against brute force or a second algorithm, on every thread count, under
//! deadlines, and on the fixtures. `tests/one_thread.rs` is a binary of its own: it watches
//! the process's threads, which the other tests would start.

mod beta;
mod brute;
mod fixtures;
mod proof;
mod sat_deadline;
mod stable_deadline;
mod stable_numbers;
