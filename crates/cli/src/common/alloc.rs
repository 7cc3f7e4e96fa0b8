//! The global allocator of the gamegraph binaries: the system's, except that an allocation
//! the system refuses (the machine's memory, or `ulimit -v`) ends the process with
//! `error: not enough memory …` and exit code 3 instead of an abort.
//!
//! Commands check the memory their input asks for before they start where they can
//! ([`check_memory`](super::check_memory)); this catches the rest, wherever it happens.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::io::Write as _;

/// The system allocator, ending the process cleanly when it fails.
pub(crate) struct Gentle;

#[global_allocator]
static GLOBAL: Gentle = Gentle;

// SAFETY: every call forwards to `System` with the same arguments; a null result (which
// `System` only returns when it cannot allocate) never returns to the caller.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Gentle {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System::alloc`, with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System::alloc_zeroed`, with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the caller promises.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

/// A message in a buffer on the stack: nothing may be allocated once memory ran out.
struct StackText {
    buf: [u8; 200],
    len: usize,
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let take = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Says that `bytes` could not be allocated, removes the temporary output files, and ends
/// the process with exit code 3. Allocates nothing.
#[cold]
fn out_of_memory(bytes: usize) -> ! {
    let mut text = StackText { buf: [0; 200], len: 0 };
    let size = bytes as f64;
    let _ = if size >= f64::from(1u32 << 30) {
        write!(text, "{:.1} GiB", size / f64::from(1u32 << 30))
    } else if size >= f64::from(1u32 << 20) {
        write!(text, "{:.1} MiB", size / f64::from(1u32 << 20))
    } else {
        write!(text, "{bytes} bytes")
    };
    let mut err = std::io::stderr();
    let _ = err.write_all(b"error: not enough memory: an allocation of ");
    let _ = err.write_all(&text.buf[..text.len]);
    let _ = err
        .write_all(b" failed (this process may not use more: the machine's memory or ulimit -v)\n");
    super::output::remove_temporary_files();
    std::process::exit(3)
}
