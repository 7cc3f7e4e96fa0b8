//! [`Vertex`]: a position of a game graph, 0-based inside and 1-based in files and output.

/// A position of a game graph: a 0-based index below [`Graph::num_vertices`](crate::Graph::num_vertices).
///
/// File formats and user-facing output are 1-based; use [`Vertex::one_based`] and
/// [`Vertex::from_one_based`] at those boundaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Vertex(pub u32);

impl Vertex {
    /// The largest number of vertices a graph may have (ids must fit in `u32`).
    pub const MAX_VERTICES: usize = u32::MAX as usize;

    /// The 0-based index, for indexing per-vertex arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The vertex with 0-based index `i`.
    ///
    /// # Panics
    /// If `i` does not fit in `u32` (callers hold a validated graph, whose ids always fit).
    #[inline]
    pub fn from_index(i: usize) -> Self {
        Vertex(u32::try_from(i).expect("vertex index fits in u32"))
    }

    /// The 1-based id used by files and output.
    #[inline]
    pub const fn one_based(self) -> u64 {
        self.0 as u64 + 1
    }

    /// The vertex with 1-based id `id`, or `None` for 0 or an id that does not fit.
    #[inline]
    pub fn from_one_based(id: u64) -> Option<Self> {
        let i = id.checked_sub(1)?;
        u32::try_from(i).ok().map(Vertex)
    }
}
