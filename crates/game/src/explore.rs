//! Exploration: every position reachable from the start, as a CSR graph.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use gamegraph_graph::{Graph, Vertex};
use rayon::prelude::*;

use crate::solve::Reverse;
use crate::{ExploreError, Game};

/// Positions expanded by one rayon task: large enough to amortise the task, small enough
/// to balance a frontier of a few thousand positions over the threads.
const CHUNK: usize = 1 << 10;

/// What [`explore`] may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExploreConfig {
    /// The most positions to explore; more gives [`ExploreError::TooManyPositions`].
    /// Default 2²⁸ (about 268 million). Values above [`Vertex::MAX_VERTICES`] act as
    /// that limit.
    pub max_positions: usize,
}

impl Default for ExploreConfig {
    fn default() -> Self {
        ExploreConfig { max_positions: 1 << 28 }
    }
}

/// The positions a game can reach from its start, numbered, and the moves between them.
///
/// Invariants: `positions()` is sorted and holds canonical positions only, each once;
/// vertex `v` of `graph()` is `positions()[v]`; the successor list of a vertex holds the
/// canonical forms of its moves, sorted by vertex id, each once. The numbering depends
/// only on the game, never on the number of threads.
#[derive(Debug, Clone)]
pub struct Explored<P> {
    positions: Arc<Vec<P>>,
    graph: Graph,
    start: Vertex,
}

impl<P: Copy + Ord> Explored<P> {
    /// The positions, sorted; vertex `v` is `positions()[v.index()]`.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Always `false`: the start position is always there.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The game graph: a vertex per position, an arc per move (up to canonical form).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The vertex of the (canonical) start position.
    pub fn start(&self) -> Vertex {
        self.start
    }

    /// The position of vertex `v`.
    ///
    /// # Panics
    /// If `v` is not a vertex of the graph.
    pub fn position(&self, v: Vertex) -> P {
        self.positions[v.index()]
    }

    /// The vertex of a *canonical* position, `None` if it was not reached.
    ///
    /// # Complexity
    /// O(log n): a binary search of the sorted positions.
    pub fn vertex(&self, p: P) -> Option<Vertex> {
        self.positions.binary_search(&p).ok().map(Vertex::from_index)
    }

    /// The sorted positions, the graph and the start vertex.
    pub fn into_parts(self) -> (Vec<P>, Graph, Vertex) {
        let positions = Arc::try_unwrap(self.positions).unwrap_or_else(|p| p.as_ref().clone());
        (positions, self.graph, self.start)
    }

    /// The explored game from positions shared with a [`SolvedGame`](crate::SolvedGame).
    pub(crate) fn from_shared(positions: Arc<Vec<P>>, graph: Graph, start: Vertex) -> Explored<P> {
        Explored { positions, graph, start }
    }
}

/// Explores every position reachable from the start of `game`, in parallel on the current
/// rayon pool, and numbers them in increasing order of position.
///
/// Level by level (a breadth-first search): the frontier is expanded in parallel, every
/// move is replaced by its [canonical](Game::canonical) form, the level's moves are sorted
/// and their repeats dropped, and those in none of the sorted runs of the positions seen
/// before form the next frontier. The merged runs are the sorted positions (the vertex
/// ids); the moves are then generated once more to fill the graph's successor lists.
///
/// # Arguments
/// * `game`: the rules.
/// * `config`: the position limit.
///
/// # Returns
/// The [`Explored`] positions and graph; identical for every number of threads.
///
/// # Errors
/// [`ExploreError::TooManyPositions`] when more than `config.max_positions` positions are
/// found (checked after each level, before the next one is expanded); [`ExploreError::Inconsistent`] when the moves made the second
/// time lead outside the positions found the first time (the game breaks its contract).
///
/// # Complexity
/// Two calls of `moves` and `canonical` per position and move, O((V + E) log V) time for
/// the sorts and the lookups. Space: the moves of the largest level, the positions twice
/// while runs are merged, then the sorted positions and the CSR graph (8 bytes per vertex
/// and 4 per arc).
///
/// # Design
/// Both choices were measured on Connect Four 5 × 4 (1 974 174 positions up to mirror
/// images, 4 379 474 moves) and 6 × 4 (47 455 869 positions), release build, 2 shared cores:
/// - *Removing repeats*: sorting each level's moves and searching the sorted runs of the
///   positions seen so far took 1.2–1.6 s on 5 × 4 (67 s on 6 × 4) on one thread, against
///   1.8–2.7 s (173 s) for a visited set of 64 hash sets behind locks. Sorting streams
///   through memory, where the hash sets miss the cache on nearly every insertion, and it
///   leaves the positions sorted, which the numbering needs anyway.
/// - *Position table*: binary search in the sorted positions (8 bytes per position, no
///   extra table) filled the graph faster than a hash map from position to vertex
///   (1.2 s against 1.6–1.9 s for the whole exploration of 5 × 4), which also has to be
///   built sequentially and costs 2–4 times the memory. Searching every 64th position
///   first (a table small enough to stay in the cache) and then 64 neighbours brought the
///   whole exploration of 5 × 4 from about 1.05 s to 0.75 s.
pub fn explore<G: Game>(
    game: &G,
    config: &ExploreConfig,
) -> Result<Explored<G::Position>, ExploreError> {
    let (positions, start) = positions(game, config)?;
    let graph = build_graph(game, &positions)?;
    Ok(Explored { positions: Arc::new(positions), graph, start })
}

/// The sorted canonical positions reachable from the start of `game`, and the start's
/// vertex (the first half of [`explore`]).
pub(crate) fn positions<G: Game>(
    game: &G,
    config: &ExploreConfig,
) -> Result<(Vec<G::Position>, Vertex), ExploreError> {
    let limit = config.max_positions.min(Vertex::MAX_VERTICES);
    let start = game.canonical(game.start());
    if limit == 0 {
        return Err(ExploreError::TooManyPositions { limit, found: 1 });
    }
    let positions = discover(game, start, limit)?;
    let start =
        Vertex::from_index(positions.binary_search(&start).expect("the start was explored"));
    Ok((positions, start))
}

/// Every canonical position reachable from `start`, sorted, by sorting each level's moves
/// and keeping the ones in none of the sorted runs seen so far (runs of similar sizes are
/// merged, so there are O(log V) of them).
fn discover<G: Game>(
    game: &G,
    start: G::Position,
    limit: usize,
) -> Result<Vec<G::Position>, ExploreError> {
    let mut runs: Vec<Run<G::Position>> = vec![Run::new(vec![start])];
    let mut total = 1usize;
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next: Vec<G::Position> = frontier
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut buf = Vec::new();
                let mut out = Vec::new();
                for &p in chunk {
                    buf.clear();
                    game.moves(p, &mut buf);
                    out.extend(buf.iter().map(|&q| game.canonical(q)));
                }
                out
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        let fresh: Vec<G::Position> =
            next.into_par_iter().filter(|&c| !runs.iter().any(|r| r.contains(c))).collect();
        total += fresh.len();
        if total > limit {
            return Err(ExploreError::TooManyPositions { limit, found: total });
        }
        let mut run = fresh.clone();
        while runs.last().is_some_and(|r| run.len() * 2 >= r.sorted.len()) {
            let r = runs.pop().expect("a last run");
            run = merge_into(r.sorted, &run);
        }
        runs.push(Run::new(run));
        frontier = fresh;
    }
    // The first run is the largest: the others are merged into it in place.
    let mut runs = runs.into_iter().map(|r| r.sorted);
    let mut all = runs.next().expect("the start's run");
    for r in runs {
        all = merge_into(all, &r);
    }
    Ok(all)
}

/// A sorted run of positions with its fences.
struct Run<P> {
    sorted: Vec<P>,
    fences: Fences<P>,
}

impl<P: Copy + Ord> Run<P> {
    fn new(sorted: Vec<P>) -> Run<P> {
        let fences = Fences::new(&sorted);
        Run { sorted, fences }
    }

    fn contains(&self, p: P) -> bool {
        self.fences.find(&self.sorted, p).is_some()
    }
}

/// The sorted union of two sorted lists without common elements, in `a`'s allocation:
/// `a` grows at its end (a large allocation grows without a copy) and is filled from the
/// back, so no third list is made.
fn merge_into<T: Copy + Ord>(mut a: Vec<T>, b: &[T]) -> Vec<T> {
    let Some(&fill) = b.first() else { return a };
    let (na, nb) = (a.len(), b.len());
    a.resize(na + nb, fill);
    let (mut i, mut j) = (na, nb);
    while j > 0 {
        let k = i + j - 1;
        if i > 0 && a[i - 1] > b[j - 1] {
            a[k] = a[i - 1];
            i -= 1;
        } else {
            a[k] = b[j - 1];
            j -= 1;
        }
    }
    a
}

/// The canonical moves of `p` as vertex ids, sorted and without repeats, in `ids`.
fn successor_ids<G: Game>(
    game: &G,
    fences: &Fences<G::Position>,
    positions: &[G::Position],
    p: G::Position,
    buf: &mut Vec<G::Position>,
    ids: &mut Vec<u32>,
) -> Result<(), ExploreError> {
    buf.clear();
    ids.clear();
    game.moves(p, buf);
    for &q in buf.iter() {
        let Some(id) = fences.find(positions, game.canonical(q)) else {
            return Err(ExploreError::Inconsistent {
                position: game.show(p),
                successor: game.show(q),
            });
        };
        ids.push(id);
    }
    ids.sort_unstable();
    let kept = dedup_sorted(ids);
    ids.truncate(kept);
    Ok(())
}

/// The graph on the sorted `positions`: the canonical moves of each, looked up by `index`,
/// sorted and without repeats. Two passes over the moves: the first counts them into the
/// offsets, the second writes them in place, so nothing but the graph is allocated.
pub(crate) fn build_graph<G: Game>(
    game: &G,
    positions: &[G::Position],
) -> Result<Graph, ExploreError> {
    let fences = Fences::new(positions);
    let n = positions.len();
    let mut offsets = vec![0u64; n + 1];
    offsets[1..].par_chunks_mut(CHUNK).zip(positions.par_chunks(CHUNK)).try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(buf, ids), (degrees, chunk)| {
            for (d, &p) in degrees.iter_mut().zip(chunk) {
                successor_ids(game, &fences, positions, p, buf, ids)?;
                *d = ids.len() as u64;
            }
            Ok::<(), ExploreError>(())
        },
    )?;
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut targets = vec![Vertex(0); offsets[n] as usize];
    // The targets of each chunk of positions, cut at the chunk's first offset.
    let mut pieces = Vec::with_capacity(n.div_ceil(CHUNK));
    let mut rest = targets.as_mut_slice();
    for c in (0..n).step_by(CHUNK) {
        let len = (offsets[(c + CHUNK).min(n)] - offsets[c]) as usize;
        let (piece, tail) = rest.split_at_mut(len);
        pieces.push(piece);
        rest = tail;
    }
    pieces.into_par_iter().zip(positions.par_chunks(CHUNK)).try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(buf, ids), (piece, chunk)| {
            let mut at = 0;
            for &p in chunk {
                successor_ids(game, &fences, positions, p, buf, ids)?;
                let end = at + ids.len();
                let out = piece.get_mut(at..end).ok_or_else(|| inconsistent(game, p))?;
                for (t, &id) in out.iter_mut().zip(ids.iter()) {
                    *t = Vertex(id);
                }
                at = end;
            }
            if at == piece.len() { Ok(()) } else { Err(inconsistent(game, chunk[0])) }
        },
    )?;
    Ok(Graph::from_csr(offsets, targets).expect("the explored CSR arrays are valid"))
}

/// The error of a game whose moves from `p` changed between two calls.
fn inconsistent<G: Game>(game: &G, p: G::Position) -> ExploreError {
    ExploreError::Inconsistent { position: game.show(p), successor: game.show(p) }
}

/// The reverse graph on the sorted `positions` straight from the rules, without the
/// successor lists: a first pass over the moves counts each position's distinct moves
/// and, with atomic additions, its predecessors, and keeps the moves; a second pass writes
/// each kept move into its target's list (atomic subtractions hand out the places). `None` when a position has
/// more than 255 distinct moves or there are 2³² arcs or more (the caller then builds a
/// [`Graph`]). The order inside a predecessor list depends on the threads' timing; the
/// solver does not depend on it.
///
/// # Complexity
/// One more call of `moves` and `canonical` per position and move; 5 bytes per position
/// and 4 per arc, and 4 more per arc while the predecessor lists are filled.
pub(crate) fn build_reverse<G: Game>(
    game: &G,
    positions: &[G::Position],
) -> Result<Option<Reverse>, ExploreError> {
    let fences = Fences::new(positions);
    let n = positions.len();
    let mut degrees = vec![0u8; n];
    let ends: Vec<AtomicU32> = (0..=n).map(|_| AtomicU32::new(0)).collect();
    let too_many = AtomicBool::new(false);
    // The first pass keeps each chunk's moves (4 bytes a move) for the second.
    let moves: Vec<Vec<u32>> = degrees
        .par_chunks_mut(CHUNK)
        .zip(positions.par_chunks(CHUNK))
        .map_init(
            || (Vec::new(), Vec::new()),
            |(buf, ids), (degrees, chunk)| {
                let mut all = Vec::new();
                for (d, &p) in degrees.iter_mut().zip(chunk) {
                    successor_ids(game, &fences, positions, p, buf, ids)?;
                    match u8::try_from(ids.len()) {
                        Ok(k) => *d = k,
                        Err(_) => too_many.store(true, Ordering::Relaxed),
                    }
                    for &t in ids.iter() {
                        ends[t as usize].fetch_add(1, Ordering::Relaxed);
                    }
                    all.extend_from_slice(ids);
                }
                all.shrink_to_fit();
                Ok::<Vec<u32>, ExploreError>(all)
            },
        )
        .collect::<Result<_, _>>()?;
    if too_many.into_inner() {
        return Ok(None);
    }
    // Each count becomes the end of its list.
    let mut offsets: Vec<u32> = ends.into_iter().map(AtomicU32::into_inner).collect();
    let mut total = 0u64;
    for o in &mut offsets[..n] {
        total += u64::from(*o);
        let Ok(end) = u32::try_from(total) else { return Ok(None) };
        *o = end;
    }
    offsets[n] = total as u32;
    let ends: Vec<AtomicU32> = offsets.into_iter().map(AtomicU32::new).collect();
    let preds: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    moves.into_par_iter().zip(degrees.par_chunks(CHUNK)).enumerate().for_each(
        |(c, (ids, degrees))| {
            let mut ids = ids.iter();
            for (i, &d) in degrees.iter().enumerate() {
                let v = (c * CHUNK + i) as u32;
                for &t in ids.by_ref().take(usize::from(d)) {
                    let slot = ends[t as usize].fetch_sub(1, Ordering::Relaxed) - 1;
                    preds[slot as usize].store(v, Ordering::Relaxed);
                }
            }
        },
    );
    // Each end has come down to the start of its list.
    let offsets: Vec<u32> = ends.into_iter().map(AtomicU32::into_inner).collect();
    let preds: Vec<u32> = preds.into_iter().map(AtomicU32::into_inner).collect();
    Ok(Some(Reverse { offsets, preds, degrees }))
}

/// Positions between two fence posts of [`Fences`]: 64 positions of 8 bytes are 8 cache
/// lines.
const FENCE_GAP: usize = 64;

/// Every [`FENCE_GAP`]-th position of a sorted list: a binary search of these (small
/// enough to stay in the cache) picks the stretch of the list to search, so a lookup
/// misses the cache a few times instead of once per halving of the whole list.
struct Fences<P>(Vec<P>);

impl<P: Copy + Ord> Fences<P> {
    fn new(sorted: &[P]) -> Fences<P> {
        Fences(sorted.iter().step_by(FENCE_GAP).copied().collect())
    }

    /// The index of `p` in `sorted` (the list the fences were taken from).
    #[inline]
    fn find(&self, sorted: &[P], p: P) -> Option<u32> {
        let stretch = self.0.partition_point(|&f| f <= p).checked_sub(1)?;
        let lo = stretch * FENCE_GAP;
        let hi = (lo + FENCE_GAP).min(sorted.len());
        sorted[lo..hi].binary_search(&p).ok().map(|i| (lo + i) as u32)
    }
}

/// Moves the distinct values of a sorted slice to its front; returns how many there are.
fn dedup_sorted<T: Copy + Eq>(list: &mut [T]) -> usize {
    if list.is_empty() {
        return 0;
    }
    let mut kept = 1;
    for i in 1..list.len() {
        if list[i] != list[kept - 1] {
            list[kept] = list[i];
            kept += 1;
        }
    }
    kept
}
