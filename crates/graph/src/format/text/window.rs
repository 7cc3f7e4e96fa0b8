//! The input of the text readers, read in windows of a few MiB: the first one before the
//! format is known, the next one while the previous one is tokenized. Two windows take
//! turns, each in its own mapping (see [`Buf`]), so reading a text of any size leaves
//! nothing behind in the heap.

use std::io::{ErrorKind, Read};

use crate::ReadError;
use crate::format::ReadOptions;
use crate::format::detect::BOM;
use crate::map::Buf;

/// Vertices always allowed without [`ReadOptions::max_vertices`], besides one per byte.
const FREE_VERTICES: u64 = 1 << 24;

/// The input, read in windows; `buf[pos..]` is what is not consumed yet.
pub(crate) struct Input<'o, R> {
    pub(crate) reader: R,
    pub(crate) options: &'o ReadOptions,
    pub(crate) buf: Buf<u8>,
    /// The other window, whose store the next window reuses.
    pub(crate) spare: Buf<u8>,
    pub(crate) pos: usize,
    pub(crate) eof: bool,
    /// Bytes read so far.
    pub(crate) total: u64,
    /// Bytes per window.
    pub(crate) window: usize,
}

impl<'o, R: Read> Input<'o, R> {
    pub(crate) fn new(reader: R, options: &'o ReadOptions) -> Self {
        let chunk = options.chunk_bytes.max(1);
        let window = chunk.saturating_mul(4 * rayon::current_num_threads()).max(16);
        Input {
            reader,
            options,
            buf: Buf::default(),
            spare: Buf::default(),
            pos: 0,
            eof: false,
            total: 0,
            window,
        }
    }

    /// Reads until `buf` holds `want` bytes (at least as far as a byte order mark would go)
    /// or the input ends.
    pub(crate) fn start(&mut self, want: usize) -> Result<(), ReadError> {
        fill(&mut self.reader, &mut self.buf, want, &mut self.eof, &mut self.total)?;
        while self.buf.len() < BOM.len() && !self.eof {
            self.more()?;
        }
        Ok(())
    }

    /// Skips a byte order mark at the start of the text.
    pub(crate) fn skip_bom(&mut self) {
        if self.pos == 0 && self.buf.starts_with(BOM) {
            self.pos = BOM.len();
        }
    }

    pub(crate) fn rest(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads at least one more window (`buf` grows).
    pub(crate) fn more(&mut self) -> Result<(), ReadError> {
        let want = self.buf.len() + self.window.max(self.buf.len());
        fill(&mut self.reader, &mut self.buf, want, &mut self.eof, &mut self.total)
    }

    /// Frees both windows: what is read is parsed, and their memory is better spent on the
    /// graph.
    pub(crate) fn drop_windows(&mut self) {
        self.buf = Buf::default();
        self.spare = Buf::default();
        self.pos = 0;
    }

    /// The vertex limit for everything read.
    pub(crate) fn vertex_limit(&self) -> u64 {
        self.options.max_vertices.unwrap_or(FREE_VERTICES + self.total)
    }
}

/// Appends to `buf` until it holds `want` bytes or the input ends.
pub(crate) fn fill(
    reader: &mut impl Read,
    buf: &mut Buf<u8>,
    want: usize,
    eof: &mut bool,
    total: &mut u64,
) -> Result<(), ReadError> {
    if *eof {
        return Ok(());
    }
    buf.reserve_total(want);
    let mut len = buf.len();
    let read = loop {
        if len >= want {
            break Ok(());
        }
        match reader.read(&mut buf.slots_mut()[len..want]) {
            Ok(0) => {
                *eof = true;
                break Ok(());
            }
            Ok(k) => {
                len += k;
                *total += k as u64;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => break Err(ReadError::from(e)),
        }
    };
    buf.set_len(len);
    read
}
