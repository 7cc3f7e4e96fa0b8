//! Exploration: every position reachable from the start, as a CSR graph.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use gamegraph_graph::hint::prefetch;
use gamegraph_graph::{Budget, Graph, Limit, Vertex};
use rayon::prelude::*;

use crate::solve::Reverse;
use crate::{ExploreError, Game};

/// Positions expanded by one rayon task: large enough to amortise the task, small enough
/// to balance a frontier of a few thousand positions over the threads.
const CHUNK: usize = 1 << 10;

/// Positions of a level expanded together by [`discover`]: the moves of a slice, a few
/// tens of megabytes, are all that a level adds to the positions found so far.
const SLICE: usize = 1 << 20;

/// About how many bytes a position takes while it is explored and solved: what a front end
/// divides the free memory by for its default [`ExploreConfig::max_positions`].
pub const BYTES_PER_POSITION: u64 = 100;

/// What [`explore`] may do.
#[derive(Debug, Clone)]
pub struct ExploreConfig {
    /// The most positions to explore; more gives [`ExploreError::Limit`]
    /// ([`Limit::Budget`]).
    /// Default 2²⁸ (about 268 million). Values above [`Vertex::MAX_VERTICES`] act as
    /// that limit.
    pub max_positions: usize,
    /// Give up with [`ExploreError::Limit`] ([`Limit::Stop`]) once another thread sets this
    /// flag (a user's
    /// Ctrl-C, say); read after every slice of a level and every chunk of moves. Default:
    /// none.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for ExploreConfig {
    fn default() -> Self {
        ExploreConfig { max_positions: 1 << 28, stop: None }
    }
}

impl ExploreConfig {
    /// [`Limit::Stop`] when the stop flag is set, `found` positions found by then.
    pub(crate) fn check_stop(&self, found: usize) -> Result<(), ExploreError> {
        check_stop(self.stop.as_deref(), found)
    }
}

/// [`Limit::Stop`] when `stop` is set, `found` positions found by then.
fn check_stop(stop: Option<&AtomicBool>, found: usize) -> Result<(), ExploreError> {
    match stop {
        Some(s) if s.load(Ordering::Relaxed) => {
            Err(ExploreError::Limit { limit: Limit::Stop, found })
        }
        _ => Ok(()),
    }
}

/// The error of a position budget of `limit` exceeded, `found` positions found by then.
fn too_many(limit: usize, found: usize) -> ExploreError {
    let limit = Limit::Budget { what: Budget::Positions, limit: limit as u64, needed: None };
    ExploreError::Limit { limit, found }
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
/// Level by level (a breadth-first search): the frontier is expanded in parallel, slices
/// of 2²⁰ positions at a time, every move is replaced by its [canonical](Game::canonical)
/// form, the slice's moves are sorted and their repeats dropped, and those in none of the
/// sorted runs of the positions seen before form a new run and join the next frontier. The merged runs are the sorted positions (the vertex
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
/// [`ExploreError::Limit`] when more than `config.max_positions` positions are found
/// (checked after each slice of a level) or the stop flag is set;
/// [`ExploreError::Inconsistent`] when the
/// moves made the second time lead outside the positions found the first time (the game
/// breaks its contract).
///
/// # Complexity
/// Two calls of `moves` and `canonical` per position and move, O((V + E) log V) time for
/// the sorts and the lookups. Space: the moves of one slice, the positions twice while
/// runs are merged, then the sorted positions and the CSR graph (8 bytes per vertex and 4
/// per arc).
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
///   first (a table small enough to stay in the cache) and then 64 neighbours explores
///   5 × 4 in 0.75 s, against about 1.05 s for a plain binary search. Running the
///   searches of a group of moves in lockstep without branches, so that their cache
///   misses overlap, solves 6 × 4 with [`SolvedGame::new`](crate::SolvedGame::new) in
///   44.7 CPU seconds (2 threads), against 61.9 one search at a time, although it
///   generates the moves once more so as to keep none of them in memory.
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
        return Err(too_many(limit, 1));
    }
    let positions = discover(game, start, limit, config)?;
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
    config: &ExploreConfig,
) -> Result<Vec<G::Position>, ExploreError> {
    let mut runs: Vec<Run<G::Position>> = vec![Run::new(vec![start])];
    let mut total = 1usize;
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut level = Vec::new();
        for slice in frontier.chunks(SLICE) {
            config.check_stop(total)?;
            let fresh = expand_slice(game, &runs, slice);
            total += fresh.len();
            if total > limit {
                return Err(too_many(limit, total));
            }
            level.extend_from_slice(&fresh);
            let mut run = fresh;
            while runs.last().is_some_and(|r| run.len() * 2 >= r.sorted.len()) {
                let r = runs.pop().expect("a last run");
                run = merge_into(r.sorted, &run);
            }
            runs.push(Run::new(run));
        }
        frontier = level;
    }
    // The first run is the largest: the others are merged into it in place.
    let mut runs = runs.into_iter().map(|r| r.sorted);
    let mut all = runs.next().expect("the start's run");
    for r in runs {
        all = merge_into(all, &r);
    }
    Ok(all)
}

/// The canonical moves of `slice` found in none of `runs`, sorted, each once.
fn expand_slice<G: Game>(
    game: &G,
    runs: &[Run<G::Position>],
    slice: &[G::Position],
) -> Vec<G::Position> {
    let mut next: Vec<G::Position> = slice
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
    next.par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut seen = vec![false; chunk.len()];
            let mut ids = vec![0u32; chunk.len()];
            for r in runs {
                r.fences.find_batch(&r.sorted, chunk, &mut ids);
                for (s, &id) in seen.iter_mut().zip(&ids) {
                    *s |= id != ABSENT;
                }
            }
            chunk.iter().zip(seen).filter(|&(_, s)| !s).map(|(&p, _)| p).collect::<Vec<_>>()
        })
        .collect()
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

/// Positions whose moves are looked up together by [`Successors::expand`].
const GROUP: usize = 32;

/// The canonical moves of a group of positions as vertex ids, sorted and without repeats
/// per position. All the moves of the group are looked up in one
/// [`Fences::find_batch`], so the cache misses of their searches overlap.
struct Successors<P> {
    buf: Vec<P>,
    canonical: Vec<P>,
    ids: Vec<u32>,
    /// The ids of the group's `j`-th position are `ids[bounds[j].0..bounds[j].1]`.
    bounds: Vec<(usize, usize)>,
}

impl<P: Copy + Ord> Successors<P> {
    fn new() -> Successors<P> {
        Successors { buf: Vec::new(), canonical: Vec::new(), ids: Vec::new(), bounds: Vec::new() }
    }

    /// Generates and looks up the moves of every position of `group`.
    fn expand<G: Game<Position = P>>(
        &mut self,
        game: &G,
        fences: &Fences<P>,
        positions: &[P],
        group: &[P],
    ) -> Result<(), ExploreError> {
        self.canonical.clear();
        self.bounds.clear();
        for &p in group {
            self.buf.clear();
            game.moves(p, &mut self.buf);
            let from = self.canonical.len();
            self.canonical.extend(self.buf.iter().map(|&q| game.canonical(q)));
            self.bounds.push((from, self.canonical.len()));
        }
        self.ids.clear();
        self.ids.resize(self.canonical.len(), 0);
        fences.find_batch(positions, &self.canonical, &mut self.ids);
        for (j, bound) in self.bounds.iter_mut().enumerate() {
            let ids = &mut self.ids[bound.0..bound.1];
            if let Some(k) = ids.iter().position(|&id| id == ABSENT) {
                return Err(ExploreError::Inconsistent {
                    position: game.show(group[j]),
                    successor: game.show(self.canonical[bound.0 + k]),
                });
            }
            ids.sort_unstable();
            bound.1 = bound.0 + dedup_sorted(ids);
        }
        Ok(())
    }

    /// The ids of the moves of the `j`-th position of the last group.
    fn of(&self, j: usize) -> &[u32] {
        let (from, to) = self.bounds[j];
        &self.ids[from..to]
    }
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
        Successors::new,
        |s, (degrees, chunk)| {
            for (degrees, group) in degrees.chunks_mut(GROUP).zip(chunk.chunks(GROUP)) {
                s.expand(game, &fences, positions, group)?;
                for (j, d) in degrees.iter_mut().enumerate() {
                    *d = s.of(j).len() as u64;
                }
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
        Successors::new,
        |s, (piece, chunk)| {
            let mut at = 0;
            for group in chunk.chunks(GROUP) {
                s.expand(game, &fences, positions, group)?;
                for (j, &p) in group.iter().enumerate() {
                    let ids = s.of(j);
                    let end = at + ids.len();
                    let out = piece.get_mut(at..end).ok_or_else(|| inconsistent(game, p))?;
                    for (t, &id) in out.iter_mut().zip(ids) {
                        *t = Vertex(id);
                    }
                    at = end;
                }
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

/// The reverse graph on the sorted `positions` straight from the rules, keeping nothing
/// of the moves between its two passes: the first generates the moves of every position,
/// counts its distinct moves and, with atomic additions, the predecessors of each target;
/// the second generates the moves again and writes each into its target's list (atomic
/// subtractions hand out the places). `None` when a position has more than 255 distinct
/// moves or there are 2³² arcs or more (the caller then builds a [`Graph`]). The order
/// inside a predecessor list depends on the threads' timing; the solver does not depend
/// on it.
///
/// # Errors
/// [`ExploreError::Inconsistent`] when a move leads outside `positions` or the second
/// pass finds another number of moves than the first; [`ExploreError::Limit`]
/// ([`Limit::Stop`]) once `stop` is set.
///
/// # Complexity
/// Two more calls of `moves` and `canonical` per position and move; 5 bytes per position
/// and 4 per arc besides the positions.
pub(crate) fn build_reverse<G: Game>(
    game: &G,
    positions: &[G::Position],
    stop: Option<&AtomicBool>,
) -> Result<Option<Reverse>, ExploreError> {
    let fences = Fences::new(positions);
    let n = positions.len();
    let mut degrees = vec![0u8; n];
    let ends: Vec<AtomicU32> = (0..=n).map(|_| AtomicU32::new(0)).collect();
    let too_many = AtomicBool::new(false);
    degrees.par_chunks_mut(CHUNK).zip(positions.par_chunks(CHUNK)).try_for_each_init(
        Successors::new,
        |s, (degrees, chunk)| {
            check_stop(stop, n)?;
            for (degrees, group) in degrees.chunks_mut(GROUP).zip(chunk.chunks(GROUP)) {
                s.expand(game, &fences, positions, group)?;
                for (j, d) in degrees.iter_mut().enumerate() {
                    let ids = s.of(j);
                    match u8::try_from(ids.len()) {
                        Ok(k) => *d = k,
                        Err(_) => too_many.store(true, Ordering::Relaxed),
                    }
                    for &t in ids {
                        ends[t as usize].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            Ok::<(), ExploreError>(())
        },
    )?;
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
    degrees.par_chunks(CHUNK).zip(positions.par_chunks(CHUNK)).enumerate().try_for_each_init(
        Successors::new,
        |s, (c, (degrees, chunk))| {
            check_stop(stop, n)?;
            for (g, (degrees, group)) in degrees.chunks(GROUP).zip(chunk.chunks(GROUP)).enumerate()
            {
                s.expand(game, &fences, positions, group)?;
                for (j, &d) in degrees.iter().enumerate() {
                    let ids = s.of(j);
                    if ids.len() != usize::from(d) {
                        return Err(inconsistent(game, group[j]));
                    }
                    let v = (c * CHUNK + g * GROUP + j) as u32;
                    for &t in ids {
                        let end = ends[t as usize].fetch_sub(1, Ordering::Relaxed);
                        let Some(slot) = end.checked_sub(1) else {
                            return Err(inconsistent(game, group[j]));
                        };
                        preds[slot as usize].store(v, Ordering::Relaxed);
                    }
                }
            }
            Ok::<(), ExploreError>(())
        },
    )?;
    // Each end has come down to the start of its list.
    let offsets: Vec<u32> = ends.into_iter().map(AtomicU32::into_inner).collect();
    let preds: Vec<u32> = preds.into_iter().map(AtomicU32::into_inner).collect();
    Ok(Some(Reverse { offsets, preds, degrees }))
}

/// Positions between two fence posts of [`Fences`]: 64 positions of 8 bytes are 8 cache
/// lines.
const FENCE_GAP: usize = 64;

/// Queries whose searches [`Fences::find_batch`] runs in lockstep.
const BATCH: usize = 64;

/// The id [`Fences::find_batch`] gives a position that is not in the list.
const ABSENT: u32 = u32::MAX;

/// Every [`FENCE_GAP`]-th position of a sorted list: a binary search of these (small
/// enough to stay in the cache) picks the stretch of the list to search, so a lookup
/// misses the cache a few times instead of once per halving of the whole list.
struct Fences<P>(Vec<P>);

impl<P: Copy + Ord> Fences<P> {
    fn new(sorted: &[P]) -> Fences<P> {
        Fences(sorted.iter().step_by(FENCE_GAP).copied().collect())
    }

    /// The index in `sorted` of each of `queries` into `out` (of the same length),
    /// [`ABSENT`] for those not in it. The searches of up to [`BATCH`] queries go in
    /// lockstep, one halving of every search after the other, without branches: the
    /// processor then has the cache misses of all of them in flight at once, where one
    /// search at a time waits for each of its misses in turn.
    fn find_batch(&self, sorted: &[P], queries: &[P], out: &mut [u32]) {
        let (fences, n) = (&self.0, sorted.len());
        if n == 0 {
            out.fill(ABSENT);
            return;
        }
        for (queries, out) in queries.chunks(BATCH).zip(out.chunks_mut(BATCH)) {
            let mut base = [0usize; BATCH];
            let base = &mut base[..queries.len()];
            // The last fence post at most the query (post 0 when there is none).
            let mut len = fences.len();
            while len > 1 {
                let half = len / 2;
                for (b, &q) in base.iter_mut().zip(queries) {
                    *b += std::hint::select_unpredictable(fences[*b + half] <= q, half, 0);
                }
                len -= half;
            }
            // The last position at most the query in the post's stretch; places past the
            // end read as the last position, which keeps the list sorted.
            for b in base.iter_mut() {
                *b *= FENCE_GAP;
                prefetch(sorted, *b + FENCE_GAP / 2);
            }
            let mut len = FENCE_GAP;
            while len > 1 {
                let half = len / 2;
                for (b, &q) in base.iter_mut().zip(queries) {
                    *b += std::hint::select_unpredictable(
                        sorted[(*b + half).min(n - 1)] <= q,
                        half,
                        0,
                    );
                }
                len -= half;
            }
            for ((o, &b), &q) in out.iter_mut().zip(base.iter()).zip(queries) {
                let b = b.min(n - 1);
                *o = if sorted[b] == q { b as u32 } else { ABSENT };
            }
        }
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
