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

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast and good enough for test graphs.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` by Lemire's multiply-shift (bias below 2^-32 for `n < 2^32`).
    #[inline]
    fn below(&mut self, n: u64) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }
}

/// The arc stream of a configuration: `(source, target)` 0-based indices.
struct Arcs {
    rng: SplitMix64,
    n: u64,
    left: usize,
    acyclic: bool,
    self_loops: bool,
}

impl Iterator for Arcs {
    type Item = (u32, u32);

    #[inline]
    fn next(&mut self) -> Option<(u32, u32)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let u = self.rng.below(self.n);
        let mut v = self.rng.below(self.n);
        if !self.self_loops {
            while v == u {
                v = self.rng.below(self.n);
            }
        }
        if self.acyclic && u > v { Some((v, u)) } else { Some((u, v)) }
    }
}

fn arcs(cfg: &GenConfig) -> Arcs {
    Arcs {
        // Mix the seed once so that seeds 0, 1, 2, ... give unrelated streams.
        rng: SplitMix64(SplitMix64(cfg.seed).next_u64()),
        n: cfg.vertices as u64,
        left: cfg.arcs,
        acyclic: cfg.acyclic,
        self_loops: cfg.self_loops,
    }
}

/// A random game graph: `cfg.arcs` arcs with uniform independent endpoints (see the
/// [module docs](self)). Each successor list keeps the order in which its arcs were drawn.
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
/// O(n + m) time (the arc stream is drawn twice: once to count the out-degrees, once to
/// place the targets), and no extra space beyond the graph.
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
    if let Err(e) = cfg.check() {
        panic!("invalid GenConfig: {e}");
    }
    let n = cfg.vertices;
    let mut offsets = vec![0u64; n + 1];
    for (u, _) in arcs(cfg) {
        offsets[u as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    // Place the targets using `offsets[u]` as the fill cursor of `u`, then shift back.
    let mut targets = vec![Vertex(0); cfg.arcs];
    for (u, v) in arcs(cfg) {
        let slot = &mut offsets[u as usize];
        targets[*slot as usize] = Vertex(v);
        *slot += 1;
    }
    for i in (1..=n).rev() {
        offsets[i] = offsets[i - 1];
    }
    offsets[0] = 0;
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
    fn matches_from_arcs_on_the_same_stream() {
        let cfg = GenConfig { vertices: 20, arcs: 100, seed: 11, ..GenConfig::default() };
        let pairs: Vec<_> = arcs(&cfg).map(|(u, v)| (Vertex(u), Vertex(v))).collect();
        assert_eq!(random(&cfg), Graph::from_arcs(20, &pairs).unwrap());
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
