//! Standard output sent to `/dev/null` while a cluster runs: timely's networking prints
//! its connection progress there, and a library must not print.
//!
//! Standard output is one per process, and several solves may run at once (each test of
//! this crate runs a whole cluster in one process): the first [`Quiet`] saves it and the
//! last one dropped restores it.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::sync::{Mutex, PoisonError};

/// The silenced standard output: how many [`Quiet`] live, and the saved descriptor.
static SILENCED: Mutex<(usize, Option<OwnedFd>)> = Mutex::new((0, None));

/// Standard output goes to `/dev/null` while one of these lives.
pub(crate) struct Quiet(());

impl Quiet {
    /// Sends standard output to `/dev/null`, unless it is already.
    pub(crate) fn new() -> io::Result<Quiet> {
        let mut silenced = SILENCED.lock().unwrap_or_else(PoisonError::into_inner);
        if silenced.0 == 0 {
            let saved = io::stdout().as_fd().try_clone_to_owned()?;
            let null = OpenOptions::new().write(true).open("/dev/null")?;
            let _ = io::stdout().flush();
            redirect_stdout(null.as_fd())?;
            silenced.1 = Some(saved);
        }
        silenced.0 += 1;
        Ok(Quiet(()))
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        let mut silenced = SILENCED.lock().unwrap_or_else(PoisonError::into_inner);
        silenced.0 -= 1;
        if silenced.0 == 0
            && let Some(saved) = silenced.1.take()
        {
            let _ = io::stdout().flush();
            let _ = redirect_stdout(saved.as_fd());
        }
    }
}

/// Makes standard output (descriptor 1) a copy of `to`.
#[allow(unsafe_code)]
fn redirect_stdout(to: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: dup2 on two open descriptors (`to` is borrowed, so open for the call;
    // descriptor 1 is standard output, open for the whole process). It replaces what
    // descriptor 1 refers to and touches no memory of this process.
    if unsafe { libc::dup2(to.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
