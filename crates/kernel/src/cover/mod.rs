//! β: a minimum externally stable set as a minimum set cover, each vertex covering itself
//! and its predecessors; used by `beta` and by the kernel search's α < β test.
//!
//! [`absorbing`] reduces the cover (forced, dominated and closed vertices) and sends each
//! connected part left, smallest first, to [`search`] (or, when every element left lies in
//! exactly two sets, to α's driver as a vertex cover). A part of a few dozen elements or
//! more goes to a core-guided MaxSAT search ([`maxsat`]) that starts from a greedy cover
//! improved by a row-weighting local search ([`local_search`]), unless it has hundreds of
//! elements and a Lagrangian root bound close to its greedy cover; that one, a smaller
//! one, or one searched under a node cap goes on to a branch-and-bound under Lagrangian
//! bounds ([`lagrange`]) on the selection of sets of [`assignment`], with greedy
//! incumbents ([`greedy`]), the same local search and, on parts of hundreds of elements,
//! the bound of the linear program strengthened by odd-cycle cuts ([`cuts`]). The instance
//! they all read, [`CoverInstance`], and the totally ordered key of their heaps live here.

mod absorbing;
mod assignment;
mod cuts;
mod greedy;
mod lagrange;
mod local_search;
mod maxsat;
mod search;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use absorbing::min_absorbing;

/// A set cover instance.
#[derive(Debug, Clone)]
pub(crate) struct CoverInstance {
    /// The elements of each set (sorted, no repeats).
    pub(crate) sets: Vec<Vec<u32>>,
    /// The sets containing each element.
    pub(crate) elems: Vec<Vec<u32>>,
}

impl CoverInstance {
    /// The instance of the given sets over `n_elems` elements.
    pub(crate) fn new(sets: Vec<Vec<u32>>, n_elems: usize) -> CoverInstance {
        let mut elems = vec![Vec::new(); n_elems];
        for (s, list) in sets.iter().enumerate() {
            for &e in list {
                elems[e as usize].push(s as u32);
            }
        }
        CoverInstance { sets, elems }
    }
}

/// What the search returns.
#[derive(Debug, Clone)]
pub(crate) struct CoverFound {
    /// The sets of the best cover found, increasing.
    pub(crate) chosen: Vec<u32>,
    /// Whether it is proven minimum.
    pub(crate) exact: bool,
    /// A proven lower bound on the minimum.
    pub(crate) bound: usize,
}

/// A real number in the total order of `f64::total_cmp`, so that costs and distances can
/// key heaps and orders.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ordered(pub(crate) f64);
impl Eq for Ordered {}
impl PartialOrd for Ordered {
    fn partial_cmp(&self, o: &Ordered) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ordered {
    fn cmp(&self, o: &Ordered) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}
