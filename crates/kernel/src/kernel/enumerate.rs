//! All kernels, one by one.

use gamegraph_graph::Graph;

use crate::check::VertexSet;
use crate::config::Budget;
use crate::kernel::retrograde::{put, reduce};
use crate::kernel::search::Search;
use crate::{Config, KernelError};

/// An iterator over all kernels of a graph, in a deterministic order; see [`kernels`].
#[derive(Debug)]
pub struct Kernels {
    base: VertexSet,
    searches: Vec<Search>,
    budget: Budget,
    /// The error to yield first, when the budget ran out while the graph was reduced.
    failed: Option<KernelError>,
    first: bool,
    finished: bool,
}

impl Kernels {
    pub(crate) fn new(g: &Graph, cfg: &Config) -> Kernels {
        let mut budget = Budget::new(cfg);
        let started = reduce(g, &mut budget).and_then(|r| {
            let searches = r
                .parts
                .into_iter()
                .map(|p| Search::new(p, &mut budget))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((r.base, searches))
        });
        let (base, searches, failed) = match started {
            Ok((base, searches)) => (base, searches, None),
            Err(e) => (VertexSet::new(), Vec::new(), Some(e)),
        };
        Kernels { base, searches, budget, failed, first: true, finished: false }
    }

    /// Search nodes explored so far.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes
    }

    fn advance(&mut self) -> Result<bool, KernelError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if self.first {
            self.first = false;
            for s in &mut self.searches {
                if !s.next(&mut self.budget)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let mut i = self.searches.len();
        loop {
            if i == 0 {
                return Ok(false);
            }
            i -= 1;
            if self.searches[i].next(&mut self.budget)? {
                return Ok(true);
            }
            self.searches[i].reset();
            let again = self.searches[i].next(&mut self.budget)?;
            debug_assert!(again, "a part that had a kernel has one again");
        }
    }
}

impl Iterator for Kernels {
    type Item = Result<VertexSet, KernelError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        match self.advance() {
            Ok(true) => {
                let mut set = self.base.clone();
                for s in &self.searches {
                    put(&mut set, s);
                }
                Some(Ok(set))
            }
            Ok(false) => {
                self.finished = true;
                None
            }
            Err(e) => {
                self.finished = true;
                Some(Err(e))
            }
        }
    }
}

/// All kernels of `g`, one by one, each as a [`VertexSet`]. The iterator yields an error
/// (and then stops) when `cfg`'s budget runs out.
///
/// # Complexity
/// O(n + m) to start; between two kernels, the search tree explored in between.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{kernels, members, Config};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// let mut all: Vec<_> = kernels(&g, &Config::default()).map(|k| members(&k.unwrap())).collect();
/// all.sort();
/// assert_eq!(all, vec![vec![Vertex(0)], vec![Vertex(1)]]);
/// ```
pub fn kernels(g: &Graph, cfg: &Config) -> Kernels {
    Kernels::new(g, cfg)
}
