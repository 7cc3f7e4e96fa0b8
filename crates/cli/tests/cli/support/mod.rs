//! What the CLI tests share: a temporary directory removed on drop, and running a binary
//! in it with optional standard input.

use std::fs;
use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The `gamegraph` binary under test.
pub(crate) const GAMEGRAPH: &str = env!("CARGO_BIN_EXE_gamegraph");

/// The example graph of fixtures/retro/seed.txt (answer 0: a draw).
pub(crate) const SEED: &str = "5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n";

/// A fresh directory under the system's temporary directory, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    /// A new empty directory whose name contains `tag`, the process id and a counter.
    pub(crate) fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join(format!("gamegraph-cli-test-{}-{n}-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `contents` to the file `name` in the directory and returns its path.
    pub(crate) fn file(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.0.join(name);
        fs::write(&p, contents).unwrap();
        p
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `bin ARGS` in `dir`, feeding `stdin` (an empty, closed stdin when `None`).
pub(crate) fn run_bin(bin: &str, dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    {
        let mut input = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            input.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

/// Runs `gamegraph ARGS` in `dir`.
pub(crate) fn gamegraph(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_bin(GAMEGRAPH, dir, args, stdin)
}

/// Bytes as UTF-8 text.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}
