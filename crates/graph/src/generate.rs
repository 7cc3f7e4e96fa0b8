//! Random game graphs, deterministic per seed.
//!
//! [`random`] draws `arcs` arcs independently: the source and the target are uniform over
//! the vertices (re-drawn while they are equal when self-loops are not allowed). With
//! [`GenConfig::acyclic`] every arc goes from the lower to the **higher** index, so the
//! graph has no cycle and the sinks gather at the high indices. Repeated arcs are kept,
//! as in any game graph. The random numbers come from the crate's own SplitMix64, so a
//! dependency bump never changes a generated graph.

use crate::{GenError, Graph, Vertex};

/// What [`random`] generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenConfig {
    /// The number of vertices `n`.
    pub vertices: usize,
    /// The number of arcs `m`.
    pub arcs: usize,
    /// The seed: the same configuration always gives the same graph.
    pub seed: u64,
    /// Every arc goes from a lower to a higher index (no cycle at all).
    pub acyclic: bool,
    /// Self-loops `v -> v` may be drawn (never with `acyclic`).
    pub self_loops: bool,
}

impl Default for GenConfig {
    /// 100 vertices, 300 arcs, seed 0, cycles allowed, no self-loops.
    fn default() -> Self {
        GenConfig { vertices: 100, arcs: 300, seed: 0, acyclic: false, self_loops: false }
    }
}

impl GenConfig {
    /// The bytes the generated graph takes in memory: 4 per arc and 8 per vertex (the CSR
    /// arrays; [`random`] needs no more while it runs). Saturates at `u64::MAX`.
    ///
    /// ```
    /// let cfg = gamegraph_graph::generate::GenConfig { vertices: 10, arcs: 20, ..Default::default() };
    /// assert_eq!(cfg.memory_needed(), 4 * 20 + 8 * 11);
    /// ```
    pub fn memory_needed(&self) -> u64 {
        let arcs = (self.arcs as u64).saturating_mul(4);
        let vertices = (self.vertices as u64).saturating_add(1).saturating_mul(8);
        arcs.saturating_add(vertices)
    }

    /// Checks that the configuration describes a graph [`random`] can build.
    ///
    /// # Errors
    /// [`GenError::TooManyVertices`], [`GenError::TooManyArcs`],
    /// [`GenError::AcyclicWithSelfLoops`], or [`GenError::NoArcPossible`] when arcs are asked
    /// for but no arc is allowed (no vertex, one vertex without self-loops, an acyclic graph
    /// on fewer than two vertices).
    pub fn check(&self) -> Result<(), GenError> {
        if self.vertices > Vertex::MAX_VERTICES {
            return Err(GenError::TooManyVertices { vertices: self.vertices });
        }
        if self.arcs > isize::MAX as usize / 16 {
            return Err(GenError::TooManyArcs { arcs: self.arcs });
        }
        if self.acyclic && self.self_loops {
            return Err(GenError::AcyclicWithSelfLoops);
        }
        let min_vertices = if self.self_loops { 1 } else { 2 };
        if self.arcs > 0 && self.vertices < min_vertices {
            return Err(GenError::NoArcPossible { vertices: self.vertices, arcs: self.arcs });
        }
        Ok(())
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast and good enough for test graphs,
/// samples and randomised searches; the same sequence on every machine and in every version
/// of the dependencies. The workspace's one random generator: the generators here, the
/// test support crate, the solvers' randomised choices and the fixtures all draw from it.
///
/// ```
/// use gamegraph_graph::generate::SplitMix64;
///
/// let mut rng = SplitMix64::new(7);
/// let x = rng.below(6);
/// assert!(x < 6);
/// // The state is the seed, advanced by each draw: the same seed, the same numbers.
/// assert_eq!(SplitMix64(7).below(6), x);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(
    /// The state: the seed, then advanced by each draw.
    pub u64,
);

impl SplitMix64 {
    /// The generator for `seed` (the same as `SplitMix64(seed)`).
    #[inline]
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n >= 1`), by Lemire's multiply-shift: one draw, no rejection, so
    /// a bias below `n / 2^64` (below 2^-32 for `n <= 2^32`).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `per_mille / 1000` (one draw).
    #[inline]
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.next_u64() % 1000 < per_mille
    }
}

/// Vertices per block: the unit of the second pass (its offsets stay in cache).
const BLOCK: usize = 1 << 10;
/// Arcs per task of the first pass.
const TASK: usize = 1 << 22;

/// An independent stream for `(seed, pass, index)`: the same whatever the thread count.
fn stream(seed: u64, pass: u64, index: u64) -> SplitMix64 {
    let mut mix = SplitMix64(seed ^ pass.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let a = mix.next_u64();
    SplitMix64(a ^ SplitMix64(index.wrapping_add(a)).next_u64())
}

/// A source vertex as the model draws it, without its target: uniform, or for an acyclic
/// graph the smaller of two distinct uniform vertices.
#[inline]
fn draw_source(rng: &mut SplitMix64, n: u64, acyclic: bool) -> u32 {
    let u = rng.below(n) as u32;
    if !acyclic {
        return u;
    }
    let mut v = rng.below(n) as u32;
    while v == u {
        v = rng.below(n) as u32;
    }
    u.min(v)
}

/// First pass: how many arcs have their source in each block, counted from fixed-size
/// tasks of independent streams (so the sum does not depend on the thread count).
fn block_counts(cfg: &GenConfig, blocks: usize) -> Vec<u64> {
    use rayon::prelude::*;
    let n = cfg.vertices as u64;
    let tasks = cfg.arcs.div_ceil(TASK);
    (0..tasks)
        .into_par_iter()
        .fold(
            || vec![0u64; blocks],
            |mut counts, t| {
                let mut rng = stream(cfg.seed, 1, t as u64);
                let len = TASK.min(cfg.arcs - t * TASK);
                for _ in 0..len {
                    counts[draw_source(&mut rng, n, cfg.acyclic) as usize / BLOCK] += 1;
                }
                counts
            },
        )
        .reduce(
            || vec![0u64; blocks],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

/// Second pass for one block: draws its `targets.len()` arcs (sources within the block
/// under the model's weights, then targets) and writes the block's part of the CSR:
/// `degrees[i]` = out-degree of the block's vertex `i`, targets grouped by source.
fn fill_block(
    cfg: &GenConfig,
    block: usize,
    degrees: &mut [u64],
    targets: &mut [Vertex],
    scratch: &mut Vec<(u32, u32)>,
) {
    let n = cfg.vertices as u64;
    let lo = (block * BLOCK) as u64;
    let width = degrees.len() as u64;
    let mut rng = stream(cfg.seed, 2, block as u64);
    scratch.clear();
    for _ in 0..targets.len() {
        let (u, v) = if cfg.acyclic {
            // P(u) is proportional to n - 1 - u (the number of larger vertices): rejection.
            let u = loop {
                let u = lo + rng.below(width);
                let w = rng.below(n - 1 - lo);
                if w < n - 1 - u {
                    break u;
                }
            };
            (u, u + 1 + rng.below(n - 1 - u))
        } else {
            let u = lo + rng.below(width);
            let mut v = rng.below(n);
            if !cfg.self_loops {
                while v == u {
                    v = rng.below(n);
                }
            }
            (u, v)
        };
        scratch.push(((u - lo) as u32, v as u32));
    }
    degrees.fill(0);
    for &(u, _) in scratch.iter() {
        degrees[u as usize] += 1;
    }
    let mut cursor = vec![0usize; degrees.len()];
    let mut acc = 0usize;
    for (c, d) in cursor.iter_mut().zip(degrees.iter()) {
        *c = acc;
        acc += *d as usize;
    }
    for &(u, v) in scratch.iter() {
        let c = &mut cursor[u as usize];
        targets[*c] = Vertex(v);
        *c += 1;
    }
}

/// A random game graph: `cfg.arcs` arcs with uniform independent endpoints (see the
/// [module docs](self)). Successor lists are in drawing order.
///
/// # Arguments
/// - `cfg`: the size, the seed and the options; see [`GenConfig`].
///
/// # Returns
/// The graph, the same for the same `cfg` on every platform and thread count.
///
/// # Panics
/// If `cfg` fails [`GenConfig::check`] (call it first on user input).
///
/// # Complexity
/// O(n + m) time, in parallel on the current rayon pool. Two passes: the first draws every
/// arc's source only to count the arcs of each block of 1024 vertices; the second draws,
/// block by block, the block's arcs (sources within the block under the model's weights,
/// which given the block counts is exactly the model's distribution) and sorts them by a
/// counting sort that stays in cache. Extra space: 8 bytes per 1024 vertices per thread,
/// and the arcs of one block per thread.
///
/// # Example
/// ```
/// use gamegraph_graph::generate::{GenConfig, random};
///
/// let cfg = GenConfig { vertices: 10, arcs: 30, seed: 7, acyclic: true, self_loops: false };
/// let g = random(&cfg);
/// assert_eq!((g.num_vertices(), g.num_arcs()), (10, 30));
/// assert!(g.arcs().all(|(u, v)| u < v));
/// assert_eq!(g, random(&cfg));
/// ```
pub fn random(cfg: &GenConfig) -> Graph {
    use rayon::prelude::*;
    if let Err(e) = cfg.check() {
        panic!("invalid GenConfig: {e}");
    }
    let n = cfg.vertices;
    if n == 0 {
        return Graph::from_csr_trusted(vec![0], Vec::new());
    }
    let blocks = n.div_ceil(BLOCK);
    let counts = block_counts(cfg, blocks);
    // Cut the targets into one slice per block, in order.
    let mut targets = vec![Vertex(0); cfg.arcs];
    let mut parts = Vec::with_capacity(blocks);
    let mut rest = &mut targets[..];
    for &c in &counts {
        let (head, tail) = rest.split_at_mut(c as usize);
        parts.push(head);
        rest = tail;
    }
    let mut offsets = vec![0u64; n + 1];
    offsets[1..].par_chunks_mut(BLOCK).zip(parts.into_par_iter()).enumerate().for_each_init(
        Vec::new,
        |scratch, (b, (degrees, part))| {
            fill_block(cfg, b, degrees, part, scratch);
        },
    );
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    Graph::from_csr_trusted(offsets, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_as_configured() {
        let cfg = GenConfig { vertices: 50, arcs: 500, seed: 3, ..GenConfig::default() };
        let g = random(&cfg);
        assert_eq!(g, random(&cfg));
        assert_ne!(g, random(&GenConfig { seed: 4, ..cfg }));
        assert!(g.arcs().all(|(u, v)| u != v));
        let loops = GenConfig { self_loops: true, vertices: 3, arcs: 300, ..cfg };
        assert!(random(&loops).arcs().any(|(u, v)| u == v));
        let dag = GenConfig { acyclic: true, ..cfg };
        assert!(random(&dag).arcs().all(|(u, v)| u < v));
    }

    #[test]
    fn independent_of_the_thread_count() {
        let cfg = GenConfig { vertices: 5000, arcs: 9_000_000, seed: 11, ..GenConfig::default() };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        assert_eq!(one.install(|| random(&cfg)), three.install(|| random(&cfg)));
        let dag = GenConfig { acyclic: true, arcs: 50_000, ..cfg };
        assert_eq!(one.install(|| random(&dag)), three.install(|| random(&dag)));
    }

    /// The largest relative deviation of `counts` from `expected`.
    fn deviation(counts: &[u64], expected: f64) -> f64 {
        counts.iter().map(|&c| ((c as f64 - expected) / expected).abs()).fold(0.0, f64::max)
    }

    #[test]
    fn endpoints_are_uniform() {
        // 2000 vertices (two blocks and a bit), 2 million arcs: about 1000 per vertex, so
        // every count lies within 20% of its mean (more than 6 standard deviations).
        let cfg = GenConfig { vertices: 2000, arcs: 2_000_000, seed: 5, ..GenConfig::default() };
        let g = random(&cfg);
        let (mut out, mut inn) = (vec![0u64; 2000], vec![0u64; 2000]);
        for (u, v) in g.arcs() {
            assert_ne!(u, v);
            out[u.index()] += 1;
            inn[v.index()] += 1;
        }
        assert!(deviation(&out, 1000.0) < 0.2);
        assert!(deviation(&inn, 1000.0) < 0.2);
    }

    #[test]
    fn acyclic_arcs_are_uniform_over_pairs() {
        // 1100 vertices (two blocks): 604450 pairs u < v; 30 million arcs would be needed
        // per-pair, so check the sources (weight n - 1 - u) and the gaps v - u instead.
        let n = 1100usize;
        let cfg =
            GenConfig { vertices: n, arcs: 3_000_000, seed: 9, acyclic: true, self_loops: false };
        let g = random(&cfg);
        let pairs = (n * (n - 1) / 2) as f64;
        let mut out = vec![0u64; n];
        let mut gap = vec![0u64; n];
        for (u, v) in g.arcs() {
            assert!(u < v);
            out[u.index()] += 1;
            gap[v.index() - u.index()] += 1;
        }
        // Sources 0..550 have at least 549 pairs each: expected >= 1497 arcs.
        let src: Vec<f64> =
            (0..550).map(|u| out[u] as f64 / ((n - 1 - u) as f64 * 3e6 / pairs)).collect();
        assert!(src.iter().all(|r| (r - 1.0).abs() < 0.2), "{src:?}");
        // Gaps 1..550: n - d pairs each.
        let gaps: Vec<f64> =
            (1..550).map(|d| gap[d] as f64 / ((n - d) as f64 * 3e6 / pairs)).collect();
        assert!(gaps.iter().all(|r| (r - 1.0).abs() < 0.2), "{gaps:?}");
    }

    #[test]
    fn check_rejects_impossible_configs() {
        let c = |vertices, arcs, acyclic, self_loops| {
            GenConfig { vertices, arcs, seed: 0, acyclic, self_loops }.check()
        };
        assert_eq!(c(0, 0, false, false), Ok(()));
        assert_eq!(c(1, 1, false, true), Ok(()));
        assert_eq!(c(1, 1, false, false), Err(GenError::NoArcPossible { vertices: 1, arcs: 1 }));
        assert_eq!(c(5, 1, true, true), Err(GenError::AcyclicWithSelfLoops));
        assert_eq!(
            c(usize::MAX, 0, false, false),
            Err(GenError::TooManyVertices { vertices: usize::MAX })
        );
    }
}
