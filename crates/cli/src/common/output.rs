//! Standard output and output files that appear whole or not at all.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::CliError;

/// Buffered standard output, or a file for `-o` and side outputs such as `--dot FILE`.
///
/// A file is written to a temporary file beside it and renamed over the destination by
/// [`Output::finish`], so an error, a full disk or a kill never leaves a partial file (nor
/// empties an existing one); an [`Output`] dropped without `finish` removes its temporary
/// file.
pub(crate) struct Output {
    inner: BufWriter<Box<dyn Write>>,
    /// The temporary file and the destination, for a file.
    rename: Option<(PathBuf, PathBuf)>,
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
            rename: None,
        }
    }

    fn file(path: &Path) -> Result<Output, CliError> {
        let cannot = |e: io::Error| {
            CliError::Other(
                anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
            )
        };
        if path.is_dir() {
            return Err(CliError::input(&path.display().to_string(), None, "is a directory"));
        }
        let name = path
            .file_name()
            .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let file = File::create(&tmp).map_err(cannot)?;
        Ok(Output {
            inner: BufWriter::with_capacity(1 << 16, Box::new(file)),
            rename: Some((tmp, path.to_path_buf())),
        })
    }

    /// Flushes everything written and, for a file, moves it into place.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        self.inner.flush()?;
        if let Some((tmp, path)) = self.rename.take() {
            std::fs::rename(&tmp, &path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                CliError::Other(
                    anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                )
            })?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.rename.take() {
            let _ = std::fs::remove_file(tmp);
        }
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

/// Refuses an output path that names the same file as an input: writing it would destroy
/// the input before it is read.
pub(crate) fn check_distinct(output: Option<&Path>, input: Option<&Path>) -> Result<(), CliError> {
    let (Some(out), Some(inp)) = (output, input) else { return Ok(()) };
    if out == Path::new("-") || inp == Path::new("-") {
        return Ok(());
    }
    if same_file(out, inp) {
        return Err(CliError::Usage(format!(
            "the output {} is the input file: write to another file",
            out.display()
        )));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
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
