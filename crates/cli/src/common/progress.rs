//! Progress bars on stderr.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner or bar on stderr for long work, only when stderr is a terminal.
pub(crate) fn progress(len: Option<u64>, message: &'static str) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {percent}% {elapsed_precise} eta {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}")
                .expect("valid template"),
        ),
    };
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}
