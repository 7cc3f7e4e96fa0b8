//! What a path names, checked before a values file is opened.

use std::fs::FileType;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// Why `path` cannot be a values file, found without opening it (so that a FIFO cannot
/// block the caller): it is not a regular file (a directory, a FIFO, a socket, a device),
/// or a file without a size (a values file has a header; the files of `/proc` and `/sys`
/// report none). `None` when it can be one, or when its metadata cannot be read (opening
/// it then says why).
///
/// ```
/// use gamegraph_game::not_a_values_file;
///
/// let dir = std::env::temp_dir();
/// assert_eq!(not_a_values_file(&dir).unwrap(), "a directory, not a values file");
/// assert_eq!(
///     not_a_values_file("/proc/self/status".as_ref()).unwrap(),
///     "a file without a size (as those of /proc and /sys), not a values file"
/// );
/// ```
pub fn not_a_values_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let kind = kind(meta.file_type());
    match kind {
        Some(kind) => Some(format!("{kind}, not a values file")),
        None if meta.len() == 0 => {
            Some("a file without a size (as those of /proc and /sys), not a values file".to_owned())
        }
        None => None,
    }
}

/// What a file that is not a regular file is; `None` for a regular file.
fn kind(t: FileType) -> Option<&'static str> {
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_block_device() || t.is_char_device() {
        Some("a device")
    } else {
        Some("not a regular file")
    }
}
