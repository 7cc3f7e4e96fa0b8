//! Standard output and output files that appear whole or not at all, and never replace
//! anything but the file they name.
//!
//! How `-o PATH` and side outputs such as `--dot PATH` write, by what is at `PATH`:
//!
//! - **nothing**: a new file, written aside (see below) and moved into place; its mode is
//!   what the umask gives, as for a file made by the shell's `>`;
//! - **a regular file**: a temporary file is written beside it, given the file's mode and
//!   (where allowed) its owner, and renamed over it once everything is written, so an error,
//!   a full disk, Ctrl-C or `kill` leaves the old file as it was;
//!   - a file with more than one name (hard links) is written aside too, then copied into
//!     the file itself, so that every name shows the new contents;
//!   - a read-only file (no write permission bit, or none for this user) is refused, also
//!     when run as root;
//! - **a symbolic link**: followed to its target, which is then written by these rules (a
//!   link to nothing creates its target); the link itself stays;
//! - **a FIFO, a character or block device, a socket**, or a path that leads through
//!   `/proc` (such as `/dev/stdout` and `/dev/fd/N`): written in place, appended to, never
//!   replaced;
//! - **a directory**: refused.
//!
//! The temporary file is created with `O_CREAT | O_EXCL` under an unpredictable name
//! (`.NAME.XXXXXX.tmp` in the destination's folder), so a file or link planted there
//! beforehand is never opened, and it is removed when the command fails, is dropped, or is
//! stopped by SIGINT, SIGTERM or SIGHUP.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use super::CliError;

/// Buffered standard output, or a file for `-o` and side outputs such as `--dot FILE`.
///
/// A file is written by the rules of this module; [`Output::finish`] puts it in place. An
/// [`Output`] dropped without `finish` removes its temporary file and leaves the
/// destination untouched.
pub(crate) struct Output {
    inner: BufWriter<Box<dyn Write>>,
    /// What [`Output::finish`] does to put a written-aside file in place.
    commit: Option<Commit>,
}

/// A file written aside, and how it replaces its destination.
struct Commit {
    tmp: Temp,
    dest: PathBuf,
    /// Copy the contents into the destination (a file with several names) instead of
    /// renaming over it.
    copy: bool,
}

/// Where the bytes for a path go, decided from what is at the path.
enum Target {
    /// A new or regular file at this (symlink-free) path: written aside, then renamed.
    Replace { dest: PathBuf, existing: Option<fs::Metadata> },
    /// A regular file with more than one name: written aside, then copied in.
    CopyInto { dest: PathBuf, existing: fs::Metadata },
    /// A FIFO, a device, `/dev/stdout`: opened and appended to.
    InPlace(PathBuf),
    /// A Unix socket: connected to.
    Socket(PathBuf),
}

impl Output {
    /// Standard output for `None` or `-`, otherwise the file at `path`.
    pub(crate) fn create(path: Option<&Path>) -> Result<Output, CliError> {
        match path {
            None => Ok(Output::stdout()),
            Some(p) if p == Path::new("-") => Ok(Output::stdout()),
            Some(p) => Output::file(p),
        }
    }

    fn stdout() -> Output {
        Output {
            inner: BufWriter::with_capacity(1 << 16, Box::new(io::stdout().lock())),
            commit: None,
        }
    }

    fn file(path: &Path) -> Result<Output, CliError> {
        let cannot = |e: io::Error| {
            CliError::Other(
                anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
            )
        };
        let (writer, commit): (Box<dyn Write>, _) = match target(path)? {
            Target::InPlace(p) => {
                (Box::new(OpenOptions::new().append(true).open(p).map_err(cannot)?), None)
            }
            Target::Socket(p) => {
                (Box::new(std::os::unix::net::UnixStream::connect(p).map_err(cannot)?), None)
            }
            Target::Replace { dest, existing } => {
                let (file, tmp) = Temp::beside(&dest, existing.as_ref()).map_err(cannot)?;
                (Box::new(file), Some(Commit { tmp, dest, copy: false }))
            }
            Target::CopyInto { dest, existing } => {
                let (file, tmp) = Temp::beside(&dest, Some(&existing)).map_err(cannot)?;
                (Box::new(file), Some(Commit { tmp, dest, copy: true }))
            }
        };
        Ok(Output { inner: BufWriter::with_capacity(1 << 16, writer), commit })
    }

    /// Flushes everything written and, for a file written aside, puts it in place.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        self.inner.flush()?;
        if let Some(Commit { tmp, dest, copy }) = self.commit.take() {
            let cannot = |e: io::Error| {
                CliError::Other(
                    anyhow::Error::new(e).context(format!("cannot write {}", dest.display())),
                )
            };
            if copy {
                let mut from = File::open(&tmp.path).map_err(cannot)?;
                let mut to =
                    OpenOptions::new().write(true).truncate(true).open(&dest).map_err(cannot)?;
                io::copy(&mut from, &mut to).map_err(cannot)?;
                // `tmp` is removed when dropped.
            } else {
                fs::rename(&tmp.path, &dest).map_err(cannot)?;
                tmp.forget();
            }
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Creates a file for a side output such as `--dot FILE` or `--svg FILE`: an [`Output`],
/// in place only after [`Output::finish`].
pub(crate) fn create_file(path: &Path) -> Result<Output, CliError> {
    Output::file(path)
}

/// The most symbolic links followed from one path, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// Decides how to write `path`: follows symbolic links, then looks at what is there.
fn target(path: &Path) -> Result<Target, CliError> {
    let stat = |p: &Path, e: io::Error| {
        CliError::Other(anyhow::Error::new(e).context(format!("cannot create {}", p.display())))
    };
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        if p.starts_with("/proc") {
            // `/proc/self/fd/N` names what a descriptor is open on, which may not be a
            // path at all (a pipe); the kernel resolves it when the original path is opened.
            return Ok(Target::InPlace(path.to_path_buf()));
        }
        let meta = match fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Target::Replace { dest: p, existing: None });
            }
            Err(e) => return Err(stat(path, e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&p).map_err(|e| stat(path, e))?;
            p = match p.parent() {
                Some(dir) if link.is_relative() => dir.join(link),
                _ => link,
            };
            continue;
        }
        if kind.is_dir() {
            return Err(CliError::input(&path.display().to_string(), None, "is a directory"));
        }
        if kind.is_socket() {
            return Ok(Target::Socket(path.to_path_buf()));
        }
        if !kind.is_file() {
            return Ok(Target::InPlace(path.to_path_buf()));
        }
        if !writable(&p, &meta) {
            return Err(CliError::Other(anyhow::anyhow!(
                "cannot write {}: the file is read-only (make it writable or remove it first)",
                path.display()
            )));
        }
        return Ok(if meta.nlink() > 1 {
            Target::CopyInto { dest: p, existing: meta }
        } else {
            Target::Replace { dest: p, existing: Some(meta) }
        });
    }
    Err(stat(path, io::Error::other("too many levels of symbolic links")))
}

/// Whether the regular file at `p` may be written: it has a write permission bit (even for
/// root, who could write it regardless) and this user may open it for writing.
fn writable(p: &Path, meta: &fs::Metadata) -> bool {
    meta.permissions().mode() & 0o222 != 0 && OpenOptions::new().write(true).open(p).is_ok()
}

/// A temporary file beside a destination, removed when dropped (and on SIGINT, SIGTERM or
/// SIGHUP) unless [`Temp::forget`] is called.
struct Temp {
    path: PathBuf,
}

impl Temp {
    /// Creates `.NAME.XXXXXX.tmp` exclusively in `dest`'s folder, with `existing`'s mode and
    /// owner when it replaces a file.
    fn beside(dest: &Path, existing: Option<&fs::Metadata>) -> io::Result<(File, Temp)> {
        let name = dest.file_name().ok_or_else(|| io::Error::other("not a file name"))?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        watch_signals();
        // The registry lock is held while the file is created, so a signal handled in
        // between still finds it.
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        let named = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".tmp")
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)?;
        let (file, path) = named.keep().map_err(|e| e.error)?;
        live.push(path.clone());
        drop(live);
        let temp = Temp { path };
        if let Some(meta) = existing {
            file.set_permissions(fs::Permissions::from_mode(meta.mode() & 0o7777))?;
            // Only root may give a file away; anyone else keeps being its owner.
            let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
        }
        Ok((file, temp))
    }

    /// Keeps the file (it was renamed into place).
    fn forget(self) {
        unregister(&self.path);
        std::mem::forget(self);
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        unregister(&self.path);
        let _ = fs::remove_file(&self.path);
    }
}

/// The temporary files of this process that exist now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unregister(path: &Path) {
    LIVE.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| p != path);
}

/// Removes the live temporary files, when the registry is not in use (for a process that
/// ends at once: nothing may wait, and nothing is allocated for paths of usual length).
pub(super) fn remove_temporary_files() {
    if let Ok(mut live) = LIVE.try_lock() {
        for p in live.iter() {
            let _ = fs::remove_file(p);
        }
        live.clear();
    }
}

/// From the first temporary file on: a thread that, on SIGINT, SIGTERM or SIGHUP, removes
/// the live temporary files and then ends the process as the signal would have.
fn watch_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                for p in LIVE.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
                    let _ = fs::remove_file(p);
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Refuses outputs that would destroy what they read or each other: an output path naming
/// the same file as the input, or two outputs (given by their flags) naming one file.
pub(crate) fn check_outputs(
    outputs: &[(&str, Option<&Path>)],
    input: Option<&Path>,
) -> Result<(), CliError> {
    let given: Vec<(&str, &Path)> =
        outputs.iter().filter_map(|&(flag, p)| Some((flag, p?))).collect();
    for (i, &(flag, out)) in given.iter().enumerate() {
        let stdout = |p: &Path| p == Path::new("-");
        if input.is_some_and(|inp| !stdout(out) && !stdout(inp) && same_file(out, inp)) {
            return Err(CliError::Usage(format!(
                "the output {} is the input file: write to another file",
                out.display()
            )));
        }
        for &(other_flag, other) in &given[..i] {
            if out == other || (!stdout(out) && same_file(out, other)) {
                return Err(CliError::Usage(format!(
                    "{other_flag} and {flag} both name {}: give each output its own file",
                    out.display()
                )));
            }
        }
    }
    Ok(())
}

/// Refuses an output path that names the same file as an input.
pub(crate) fn check_distinct(output: Option<&Path>, input: Option<&Path>) -> Result<(), CliError> {
    check_outputs(&[("-o", output)], input)
}

/// Whether two paths name one file: the same inode when it exists, otherwise the same place
/// once symbolic links and the folder are resolved.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        (Err(_), Err(_)) => resolved(a) == resolved(b),
        _ => false,
    }
}

/// Where a path that does not exist yet would be created: its folder made absolute and
/// free of links, then its name.
fn resolved(p: &Path) -> Option<PathBuf> {
    let dest = match target(p).ok()? {
        Target::Replace { dest, .. } | Target::CopyInto { dest, .. } => dest,
        Target::InPlace(d) | Target::Socket(d) => d,
    };
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(dest.file_name()?))
}

/// Writes `value` as pretty JSON followed by a newline.
pub(crate) fn write_json(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(|e| {
        // An I/O error stays one, so that a closed pipe is recognised as such.
        if e.is_io() { CliError::from(io::Error::from(e)) } else { CliError::Other(e.into()) }
    })?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_unpredictable_and_created_exclusively() {
        let dir = std::env::temp_dir().join(format!("gamegraph-output-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.txt");
        // The name a fixed scheme would pick, planted as a link to a file to protect.
        let victim = dir.join("victim.txt");
        fs::write(&victim, "keep\n").unwrap();
        let planted = dir.join(format!(".out.txt.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let (_, a) = Temp::beside(&dest, None).unwrap();
        let (_, b) = Temp::beside(&dest, None).unwrap();
        assert_ne!(a.path, b.path);
        assert_ne!(a.path, planted);
        let name = a.path.file_name().unwrap().to_str().unwrap().to_owned();
        assert!(name.starts_with(".out.txt.") && name.ends_with(".tmp"), "{name}");
        assert_eq!(LIVE.lock().unwrap().len(), 2);
        drop((a, b));
        assert!(LIVE.lock().unwrap().is_empty());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}
