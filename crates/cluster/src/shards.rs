//! The `--all` table written as one shard per process, and the merge of the shards.
//!
//! A directory of shards holds `shards.txt`, written by process 0:
//!
//! ```text
//! # gamegraph dist retro shards
//! vertices N
//! processes P
//! ```
//!
//! and `shard-I.txt` for each process `I` in `0..P`: the lines of the `--all` table
//! (`V OUTCOME DEPTH MOVE`) of that process's vertices, which are consecutive. The shards
//! one after the other are the whole table; [`merge`] checks that and writes it.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use gamegraph_graph::{Position, quote};

/// The manifest of a directory of shards.
pub fn manifest_path(dir: &Path) -> PathBuf {
    dir.join("shards.txt")
}

/// The shard of process `process`.
pub fn shard_path(dir: &Path, process: usize) -> PathBuf {
    dir.join(format!("shard-{process}.txt"))
}

/// The manifest's text for `vertices` vertices on `processes` processes.
pub fn manifest(vertices: usize, processes: usize) -> String {
    format!("# gamegraph dist retro shards\nvertices {vertices}\nprocesses {processes}\n")
}

/// Why the shards could not be merged.
#[derive(Debug)]
#[non_exhaustive]
pub enum MergeError {
    /// A shard or the manifest is not what it should be.
    Input {
        /// The file.
        path: PathBuf,
        /// Where in the file, when the problem is on one line.
        position: Option<Position>,
        /// What is wrong.
        message: String,
    },
    /// Reading a file (`path`) or writing the output (no path) failed.
    Io {
        /// The file read, `None` for the output.
        path: Option<PathBuf>,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Input { path, position: Some(at), message } => {
                write!(f, "{}:{at}: {message}", path.display())
            }
            MergeError::Input { path, position: None, message } => {
                write!(f, "{}: {message}", path.display())
            }
            MergeError::Io { path: Some(path), error } => write!(f, "{}: {error}", path.display()),
            MergeError::Io { path: None, error } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Io { error, .. } => Some(error),
            MergeError::Input { .. } => None,
        }
    }
}

impl MergeError {
    /// A problem with line `line` (1-based) of `path` as a whole, or with the whole file.
    fn at(path: &Path, line: Option<u64>, message: impl Into<String>) -> MergeError {
        let position = line.map(|line| Position::new(line, 1));
        MergeError::Input { path: path.to_owned(), position, message: message.into() }
    }

    fn io(path: &Path, error: io::Error) -> MergeError {
        MergeError::Io { path: Some(path.to_owned()), error }
    }
}

/// Reads the manifest: (vertices, processes).
fn read_manifest(path: &Path) -> Result<(u64, usize), MergeError> {
    let text = std::fs::read_to_string(path).map_err(|e| MergeError::io(path, e))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.starts_with('#'));
    let mut field = |name: &str| -> Result<u64, MergeError> {
        let (i, line) = lines.next().ok_or_else(|| {
            MergeError::at(path, None, format!("expected a line `{name} NUMBER`, found the end"))
        })?;
        line.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| {
                MergeError::at(path, Some(i as u64 + 1), format!("expected `{name} NUMBER`"))
            })
    };
    let vertices = field("vertices")?;
    let processes = field("processes")?;
    if processes == 0 {
        return Err(MergeError::at(path, Some(3), "expected at least 1 process"));
    }
    Ok((vertices, processes as usize))
}

/// Writes the whole `--all` table from the shards in `dir` to `out`, after checking that
/// the shards hold every vertex once, in order, each line with its four fields (so
/// nothing is written for bad shards); returns the number of vertices.
///
/// # Errors
/// A [`MergeError`] naming the file and line of the first problem.
///
/// # Complexity
/// O(size of the shards): they are read twice, once to check them and once to copy
/// them, one line in memory at a time.
pub fn merge(dir: &Path, out: &mut impl Write) -> Result<u64, MergeError> {
    let manifest = manifest_path(dir);
    let (vertices, processes) = read_manifest(&manifest)?;
    let held = copy(dir, processes, vertices, &mut io::sink())?;
    if held != vertices {
        return Err(MergeError::at(
            &manifest,
            None,
            format!("the shards hold {held} of the {vertices} vertices"),
        ));
    }
    copy(dir, processes, vertices, out)
}

/// Checks the shards line by line and copies them to `out`; returns the vertices seen.
fn copy(
    dir: &Path,
    processes: usize,
    vertices: u64,
    out: &mut impl Write,
) -> Result<u64, MergeError> {
    let mut next = 1u64;
    let mut line = String::new();
    for p in 0..processes {
        let path = shard_path(dir, p);
        let file = File::open(&path).map_err(|e| MergeError::io(&path, e))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut number = 0u64;
        loop {
            line.clear();
            if reader.read_line(&mut line).map_err(|e| MergeError::io(&path, e))? == 0 {
                break;
            }
            number += 1;
            let at = Some(number);
            if !line.ends_with('\n') {
                return Err(MergeError::at(&path, at, "the last line has no line break"));
            }
            let fields: Vec<&str> = line.trim_end_matches('\n').split(' ').collect();
            if fields.len() != 4 || !["W", "L", "D"].contains(&fields[1]) {
                return Err(MergeError::at(&path, at, "expected `V OUTCOME DEPTH MOVE`"));
            }
            if fields[0].parse::<u64>().ok() != Some(next) || next > vertices {
                return Err(MergeError::at(
                    &path,
                    at,
                    format!("expected vertex {next}, found {}", quote(fields[0])),
                ));
            }
            out.write_all(line.as_bytes()).map_err(|error| MergeError::Io { path: None, error })?;
            next += 1;
        }
    }
    Ok(next - 1)
}
