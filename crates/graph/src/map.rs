//! Arrays read in place from a memory-mapped file: the crate's only `unsafe` besides the
//! prefetch hint.
//!
//! A binary graph file given by path is mapped rather than read, so loading costs no copy
//! and no fresh memory: the page cache's pages are the graph's arrays. The contract, as
//! for every tool that maps its input: the file must not be truncated or modified while
//! the graph is in use. A file truncated under a running solve makes the process fail
//! with `SIGBUS`; a file modified under it gives unspecified answers (the checksum was
//! verified when it was opened). Anything that cannot be mapped (pipes, special files,
//! big-endian machines, a refused `mmap`) is read instead.

use std::fs::File;
use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::Arc;

use crate::Vertex;

/// Element types that may be viewed in place in a mapped file: every bit pattern is a
/// valid value, and the file stores them little-endian.
pub(crate) trait Plain: Copy + Send + Sync + 'static {}
impl Plain for u64 {}
impl Plain for Vertex {}

/// A mapped file, shared by the arrays that view it.
#[derive(Debug)]
pub(crate) struct Mapping(memmap2::Mmap);

impl Mapping {
    /// Maps `file` read-only; `None` where mapping is refused or the machine is not
    /// little-endian (the file's byte order).
    pub(crate) fn new(file: &File) -> Option<Arc<Mapping>> {
        if cfg!(target_endian = "big") {
            return None;
        }
        // SAFETY: the mapping is read-only and private to this process. Its soundness rests
        // on the file not being truncated or written while it is mapped, which is the
        // documented contract of this module (as for every tool that maps its input);
        // every byte is checked (checksum, CSR invariants) before a graph views it.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
        Some(Arc::new(Mapping(map)))
    }

    /// The mapped bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// The `len` values of type `T` at byte `offset`, viewed in place; `None` when they
    /// are not aligned for `T` or do not fit in the mapping.
    fn view<T: Plain>(&self, offset: usize, len: usize) -> Option<&[T]> {
        let size = len.checked_mul(size_of::<T>())?;
        let end = offset.checked_add(size)?;
        let bytes = self.0.get(offset..end)?;
        if !(bytes.as_ptr() as usize).is_multiple_of(align_of::<T>()) {
            return None;
        }
        // SAFETY: `bytes` is `len * size_of::<T>()` bytes of the mapping, aligned for `T`,
        // and `T: Plain` accepts every bit pattern; the slice borrows `self`, so the
        // mapping outlives it.
        #[allow(unsafe_code)]
        Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), len) })
    }
}

/// An array of a graph: owned, or viewed in place in a mapped file.
pub(crate) enum Array<T: Plain> {
    Owned(Vec<T>),
    Mapped { map: Arc<Mapping>, offset: usize, len: usize, _t: PhantomData<T> },
}

impl<T: Plain> Array<T> {
    /// The `len` values at byte `offset` of `map`, when they are aligned for `T`.
    pub(crate) fn mapped(map: &Arc<Mapping>, offset: usize, len: usize) -> Option<Array<T>> {
        map.view::<T>(offset, len)?;
        Some(Array::Mapped { map: Arc::clone(map), offset, len, _t: PhantomData })
    }

    /// The values as a vector (a copy for a mapped array).
    pub(crate) fn into_vec(self) -> Vec<T> {
        match self {
            Array::Owned(v) => v,
            Array::Mapped { .. } => self.to_vec(),
        }
    }
}

impl<T: Plain> Deref for Array<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Array::Owned(v) => v,
            Array::Mapped { map, offset, len, .. } => {
                map.view(*offset, *len).expect("checked when the array was made")
            }
        }
    }
}

impl<T: Plain> From<Vec<T>> for Array<T> {
    fn from(v: Vec<T>) -> Self {
        Array::Owned(v)
    }
}

impl<T: Plain> Clone for Array<T> {
    fn clone(&self) -> Self {
        match self {
            Array::Owned(v) => Array::Owned(v.clone()),
            Array::Mapped { map, offset, len, .. } => {
                Array::Mapped { map: Arc::clone(map), offset: *offset, len: *len, _t: PhantomData }
            }
        }
    }
}

impl<T: Plain + PartialEq> PartialEq for Array<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Plain + Eq> Eq for Array<T> {}

impl<T: Plain + std::fmt::Debug> std::fmt::Debug for Array<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Array::Owned(v) => f.debug_tuple("Owned").field(v).finish(),
            Array::Mapped { offset, len, .. } => {
                f.debug_struct("Mapped").field("offset", offset).field("len", len).finish()
            }
        }
    }
}
