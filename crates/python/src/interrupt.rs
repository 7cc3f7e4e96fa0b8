//! Long calls that stop on Ctrl-C and at a time limit.
//!
//! The work runs on a thread of its own while the calling thread, without the GIL, waits
//! for it; every [`POLL`] the calling thread takes the GIL to run the interpreter's signal
//! handlers (`Python::check_signals`) and reads the clock. On an exception (Ctrl-C's
//! `KeyboardInterrupt`) or at the deadline it sets the library's stop flag, which the
//! library reads between work units, and waits for the work to return.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::error::value_error;

/// How often the waiting thread looks at the signals and the clock.
const POLL: Duration = Duration::from_millis(20);

/// The deadline of a `time_limit=` in seconds (none when `None`).
pub(crate) fn deadline(time_limit: Option<f64>) -> PyResult<Option<Instant>> {
    match time_limit {
        None => Ok(None),
        Some(s) if s.is_finite() && s >= 0.0 => {
            Ok(Some(Instant::now() + Duration::from_secs_f64(s.min(1e9))))
        }
        Some(s) => Err(value_error(format!("time_limit {s}: not a number of seconds"))),
    }
}

/// How a call ended.
pub(crate) struct Ended<T> {
    /// What the work returned.
    pub(crate) value: T,
    /// The deadline passed and the stop flag was set (the work may still have finished).
    pub(crate) timed_out: bool,
}

/// Runs `work(stop)` without the GIL, setting `stop` on Ctrl-C (then raising the
/// `KeyboardInterrupt` once `work` has returned) or once `deadline` has passed.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    deadline: Option<Instant>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<Ended<T>> {
    run_with(py, deadline, &Arc::new(AtomicBool::new(false)), work)
}

/// [`run`] with a stop flag the work already holds (cleared first).
pub(crate) fn run_with<T: Send>(
    py: Python<'_>,
    deadline: Option<Instant>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<Ended<T>> {
    stop.store(false, Ordering::Relaxed);
    let slot: Mutex<Option<T>> = Mutex::new(None);
    let ready = Condvar::new();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let value = work(stop);
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(value);
            ready.notify_all();
        });
        let mut interrupted: Option<PyErr> = None;
        let mut timed_out = false;
        let value = loop {
            let wait = match deadline {
                Some(d) if !timed_out => d.saturating_duration_since(Instant::now()).min(POLL),
                _ => POLL,
            };
            let got = py.detach(|| {
                let guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
                let (mut guard, _) = ready
                    .wait_timeout_while(guard, wait, |v| v.is_none())
                    .unwrap_or_else(PoisonError::into_inner);
                guard.take()
            });
            if let Some(value) = got {
                break value;
            }
            if worker.is_finished() {
                if let Some(value) = slot.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    break value;
                }
                // The worker ended without an answer: it panicked. Joining it keeps the
                // panic from reaching the caller.
                let _ = worker.join();
                return Err(PyRuntimeError::new_err("the solver stopped with an internal error"));
            }
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                interrupted = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
            if !timed_out && deadline.is_some_and(|d| Instant::now() >= d) {
                timed_out = true;
                stop.store(true, Ordering::Relaxed);
            }
        };
        match interrupted {
            Some(e) => Err(e),
            None => Ok(Ended { value, timed_out }),
        }
    })
}
