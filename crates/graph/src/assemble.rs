//! Building the successor CSR arrays from a text's arcs: copied when they already come by
//! source, grouped by source ([`by_key`]) otherwise.

use rayon::prelude::*;

use crate::group::{Part, RADIX_FROM, by_key};
use crate::map::IdBuf;
use crate::{Graph, Vertex};

/// The ids of a text's chunks, in file order, each from its start index: pairs (source,
/// target), every chunk holding whole arcs.
pub(crate) type Chunks = Vec<(IdBuf, usize)>;

/// The arcs of a run of chunks: a part of the successor CSR, keyed by source. Draining it
/// frees each chunk once walked.
struct ChunkArcs(Chunks);

impl Part for ChunkArcs {
    #[inline]
    fn visit(&self, mut f: impl FnMut(u32, u32)) {
        for (ids, from) in &self.0 {
            for arc in ids[*from..].chunks_exact(2) {
                f(arc[0], arc[1]);
            }
        }
    }

    fn drain(self, mut f: impl FnMut(u32, u32)) {
        for (ids, from) in self.0 {
            for arc in ids[from..].chunks_exact(2) {
                f(arc[0], arc[1]);
            }
        }
    }

    fn drain_back(mut self, mut f: impl FnMut(u32, u32)) {
        while let Some((ids, from)) = self.0.pop() {
            for arc in ids[from..].chunks_exact(2).rev() {
                f(arc[0], arc[1]);
            }
        }
    }
}

/// The CSR graph on `n` vertices of the `m` arcs held in `chunks` (ids below `n`): copied
/// when they come in order of source, grouped by source ([`by_key`]) otherwise.
pub(crate) fn from_chunks(n: usize, chunks: Chunks, m: usize) -> Graph {
    let chunks = match in_order(n, chunks, m) {
        Ok(graph) => return graph,
        Err(chunks) => chunks,
    };
    // One part per thread, with about the same number of arcs (a single part for the
    // counting sort).
    let parts = if m >= RADIX_FROM { rayon::current_num_threads().clamp(1, 64) } else { 1 };
    let mut split = vec![ChunkArcs(Vec::new())];
    let mut seen = 0;
    for (ids, from) in chunks {
        seen += (ids.len() - from) / 2;
        split.last_mut().expect("never empty").0.push((ids, from));
        if seen * parts >= m * split.len() && split.len() < parts {
            split.push(ChunkArcs(Vec::new()));
        }
    }
    let (offsets, targets) = by_key(n, m, split);
    Graph::from_csr_trusted(offsets, targets)
}

/// The source of the first and of the last arc of a chunk, when it holds any.
fn source_span((ids, from): &(IdBuf, usize)) -> Option<(u32, u32)> {
    let arcs = &ids[*from..];
    (arcs.len() >= 2).then(|| (arcs[0], arcs[arcs.len() - arcs.len() % 2 - 2]))
}

/// The CSR graph when the arcs already come in order of source, as in every file written
/// by source: the targets are then the ids in file order, and the offsets are where the
/// source changes, so each chunk is copied once, in parallel, and freed. Gives the chunks
/// back when the arcs are out of order.
fn in_order(n: usize, mut chunks: Chunks, m: usize) -> Result<Graph, Chunks> {
    let in_order = chunks
        .par_iter()
        .all(|(ids, from)| ids[*from..].chunks_exact(2).map(|arc| arc[0]).is_sorted())
        && chunks.iter().filter_map(source_span).is_sorted_by(|a, b| a.1 <= b.0);
    if !in_order {
        return Err(chunks);
    }
    // Chunk k writes the targets of its arcs, and the offsets of the sources after the
    // previous chunk's last source up to its own last one.
    let mut offsets = vec![0u64; n + 1];
    // Its pages are taken as the chunks are copied and freed: never both whole at once.
    let mut targets = crate::map::zeroed_vertices(m);
    let mut tasks = Vec::with_capacity(chunks.len());
    let (mut offsets_rest, mut targets_rest) = (&mut offsets[..], &mut targets[..]);
    let (mut written_to, mut arc) = (0usize, 0u64);
    let mut previous: Option<u32> = None;
    for chunk in chunks.drain(..) {
        let count = (chunk.0.len() - chunk.1) / 2;
        let span = source_span(&chunk);
        let last = span.map_or(written_to, |(_, last)| last as usize + 1);
        let (here, tail) = offsets_rest.split_at_mut(last - written_to);
        let (out, targets_tail) = targets_rest.split_at_mut(count);
        tasks.push((chunk, here, out, arc, previous));
        (offsets_rest, targets_rest) = (tail, targets_tail);
        previous = span.map_or(previous, |(_, last)| Some(last));
        written_to = last;
        arc += count as u64;
    }
    offsets_rest.fill(m as u64);
    tasks.into_par_iter().for_each(|((ids, from), offsets, targets, first, previous)| {
        // `offsets` starts at the source after `previous`.
        let base = previous.map_or(0, |p| p as usize + 1);
        let mut next = base;
        for (k, (arc, t)) in ids[from..].chunks_exact(2).zip(targets.iter_mut()).enumerate() {
            let s = arc[0] as usize;
            if s >= next {
                offsets[next - base..=s - base].fill(first + k as u64);
                next = s + 1;
            }
            *t = Vertex(arc[1]);
        }
        drop(ids);
    });
    Ok(Graph::from_csr_trusted(offsets, targets))
}
