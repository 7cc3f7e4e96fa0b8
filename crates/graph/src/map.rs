//! Arrays read in place from a memory-mapped file, zeroed vertex arrays whose pages come
//! on first write, and scratch arrays in anonymous mappings: the crate's only `unsafe`
//! besides the prefetch hint.
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
impl Plain for u8 {}
impl Plain for u32 {}
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

/// `len` vertices `Vertex(0)` in fresh zeroed memory: the system gives its pages on first
/// write, so an array filled part by part costs only the parts written so far (where
/// `vec![Vertex(0); len]` writes every element at once).
pub(crate) fn zeroed_vertices(len: usize) -> Vec<Vertex> {
    let mut ids = std::mem::ManuallyDrop::new(vec![0u32; len]);
    // SAFETY: `Vertex` is `repr(transparent)` over `u32` (same size and alignment, every
    // bit pattern valid), and the allocation is handed over whole: pointer, length and
    // capacity of a `Vec<u32>` that is not dropped.
    #[allow(unsafe_code)]
    unsafe {
        Vec::from_raw_parts(ids.as_mut_ptr().cast::<Vertex>(), ids.len(), ids.capacity())
    }
}

/// Below this many bytes a [`Buf`] lives on the heap: a mapping costs a system call and
/// at least a page.
const MAP_FROM: usize = 1 << 16;

/// A vector of fixed capacity, in its own anonymous mapping when it is large.
///
/// The text reader holds every id it parses until the graph is built, then drops them
/// all, and reads its input in windows of a few MiB. Memory freed to a heap allocator
/// often stays with the process (in the arenas of the threads that allocated it), so the
/// solve that follows would add to it; a mapping gives its pages back when dropped, and
/// the pages of the capacity never written cost nothing.
pub(crate) struct Buf<T: Plain> {
    store: Store<T>,
    len: usize,
}

/// The ids of the text reader.
pub(crate) type IdBuf = Buf<u32>;

enum Store<T> {
    Heap(Vec<T>),
    Mapped(memmap2::MmapMut),
}

impl<T: Plain + Default> Buf<T> {
    /// An empty vector with room for `capacity` values. Falls back to the heap when the
    /// mapping is refused.
    pub(crate) fn with_capacity(capacity: usize) -> Buf<T> {
        let bytes = capacity.saturating_mul(size_of::<T>());
        let store = match bytes >= MAP_FROM {
            true => memmap2::MmapMut::map_anon(bytes).ok().map(Store::Mapped),
            false => None,
        };
        let store = store.unwrap_or_else(|| Store::Heap(vec![T::default(); capacity]));
        Buf { store, len: 0 }
    }

    /// Every slot, written or not (unwritten slots hold zeros).
    #[inline]
    pub(crate) fn slots_mut(&mut self) -> &mut [T] {
        match &mut self.store {
            Store::Heap(v) => v,
            Store::Mapped(map) => {
                let len = map.len() / size_of::<T>();
                // SAFETY: an anonymous mapping is page-aligned, so aligned for `T`, and
                // zero-filled; `T: Plain` accepts every bit pattern; the slice covers
                // whole `T`s of the mapping and borrows it mutably.
                #[allow(unsafe_code)]
                unsafe {
                    std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), len)
                }
            }
        }
    }

    /// Declares the first `len` slots written.
    pub(crate) fn set_len(&mut self, len: usize) {
        assert!(len <= self.capacity(), "a Buf holds at most its capacity");
        self.len = len;
    }

    /// How many values it can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.slots().len()
    }

    /// Appends `value`; the caller sized the vector, so it is never full.
    pub(crate) fn push(&mut self, value: T) {
        let len = self.len;
        self.slots_mut()[len] = value;
        self.len = len + 1;
    }

    /// Makes room for `capacity` values in all, moving what it holds to a larger store
    /// when needed.
    pub(crate) fn reserve_total(&mut self, capacity: usize) {
        if capacity > self.capacity() {
            let mut larger = Buf::with_capacity(capacity);
            larger.slots_mut()[..self.len].copy_from_slice(self);
            larger.len = self.len;
            *self = larger;
        }
    }

    /// Appends `values`, making room for them.
    pub(crate) fn extend_from_slice(&mut self, values: &[T]) {
        let (len, end) = (self.len, self.len + values.len());
        self.reserve_total(end);
        self.slots_mut()[len..end].copy_from_slice(values);
        self.len = end;
    }

    /// Empties it, keeping its store.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Plain> Buf<T> {
    /// Every slot, written or not.
    fn slots(&self) -> &[T] {
        match &self.store {
            Store::Heap(v) => v,
            Store::Mapped(map) => {
                // SAFETY: as in `slots_mut`, with a shared borrow.
                #[allow(unsafe_code)]
                unsafe {
                    std::slice::from_raw_parts(map.as_ptr().cast::<T>(), map.len() / size_of::<T>())
                }
            }
        }
    }
}

impl<T: Plain> Deref for Buf<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.slots()[..self.len]
    }
}

impl<T: Plain> AsRef<[T]> for Buf<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Plain + Default> Default for Buf<T> {
    fn default() -> Self {
        Buf::with_capacity(0)
    }
}

impl<T: Plain + std::fmt::Debug> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_vertices_are_vertex_zero_and_writable() {
        for len in [0, 1, 1000, 1 << 20] {
            let mut v = zeroed_vertices(len);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == Vertex(0)));
            if let Some(last) = v.last_mut() {
                *last = Vertex(7);
            }
            v.push(Vertex(3));
            assert_eq!(v[len], Vertex(3));
            assert_eq!(v.iter().filter(|&&x| x != Vertex(0)).count(), 1 + usize::from(len > 0));
        }
    }

    #[test]
    fn a_byte_buffer_grows_keeps_its_bytes_and_is_reused_after_clear() {
        let text: Vec<u8> = (0..3 * MAP_FROM + 5).map(|i| (i % 251) as u8).collect();
        for first in [0, 7, MAP_FROM - 1, MAP_FROM, 2 * MAP_FROM] {
            let mut buf: Buf<u8> = Buf::with_capacity(first);
            // Pieces of every size, the last ones past the capacity.
            let mut at = 0;
            for piece in [1, 0, MAP_FROM / 2, MAP_FROM, 3, 2 * MAP_FROM] {
                let end = (at + piece).min(text.len());
                buf.extend_from_slice(&text[at..end]);
                at = end;
                assert_eq!(&*buf, &text[..at]);
                assert!(buf.capacity() >= buf.len());
            }
            let capacity = buf.capacity();
            buf.clear();
            assert!(buf.is_empty());
            buf.extend_from_slice(&text[..10]);
            assert_eq!(buf.capacity(), capacity);
            assert_eq!(buf.as_ref(), &text[..10]);
            buf.reserve_total(capacity + 1);
            assert!(buf.capacity() > capacity);
            assert_eq!(&*buf, &text[..10]);
        }
    }

    #[test]
    fn an_id_buffer_holds_what_is_written_on_the_heap_and_in_a_mapping() {
        for capacity in [0, 3, MAP_FROM, 3 * MAP_FROM + 1] {
            let mut ids = IdBuf::with_capacity(capacity);
            assert_eq!(ids.capacity(), capacity);
            let half = capacity / 2;
            for (i, slot) in ids.slots_mut()[..half].iter_mut().enumerate() {
                *slot = i as u32 * 7;
            }
            ids.set_len(half);
            if half < capacity {
                ids.push(99);
            }
            let want: Vec<u32> =
                (0..half as u32).map(|i| i * 7).chain((half < capacity).then_some(99)).collect();
            assert_eq!(&*ids, &want[..]);
        }
    }
}
