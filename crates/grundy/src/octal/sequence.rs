//! The engines that extend a Grundy sequence by one value: the plain quadratic definition
//! for octal games and subtraction games (the rare/common method is in `sparse`).

use super::code::{OctalCode, SubtractionSet};
use super::error::SequenceError;
use crate::Play;

/// Marks values with a generation number, so that no clearing is needed between heaps.
#[derive(Debug, Default)]
struct Marks {
    stamp: Vec<u32>,
    generation: u32,
}

impl Marks {
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    #[inline]
    fn mark(&mut self, v: usize) {
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two().max(64), 0);
        }
        self.stamp[v] = self.generation;
    }

    #[inline]
    fn is_marked(&self, v: usize) -> bool {
        self.stamp.get(v).is_some_and(|&s| s == self.generation)
    }

    /// The smallest unmarked value.
    fn mex(&self) -> usize {
        (0..).find(|&v| !self.is_marked(v)).expect("unbounded range")
    }
}

/// Stores a mex as a compact value, or fails if it does not fit.
pub(super) fn compact(value: usize, heap: usize) -> Result<u16, SequenceError> {
    u16::try_from(value).map_err(|_| SequenceError::ValueTooLarge { heap })
}

/// The moves of an octal game, grouped by what they leave.
#[derive(Debug, Clone)]
pub(super) struct Moves {
    pub(super) to_nothing: Vec<usize>,
    pub(super) to_one: Vec<usize>,
    pub(super) to_two: Vec<usize>,
}

impl Moves {
    pub(super) fn new(code: &OctalCode) -> Moves {
        Moves {
            to_nothing: code.removals_to_nothing(),
            to_one: code.removals_to_one(),
            to_two: code.removals_to_two(),
        }
    }

    /// An upper bound of the options of heap `n`: every removal, and every split of it.
    pub(super) fn work(&self, n: usize) -> u64 {
        let simple = self.to_nothing.len() + self.to_one.len() + 1;
        (simple as u64).saturating_add((self.to_two.len() as u64).saturating_mul(n as u64 / 2))
    }

    /// Marks the values of the moves that leave no heap or one heap.
    #[inline]
    fn mark_simple(&self, g: &[u16], n: usize, marks: &mut Marks) {
        for &j in &self.to_nothing {
            if n == j {
                marks.mark(0);
            }
        }
        for &j in &self.to_one {
            if n > j {
                marks.mark(usize::from(g[n - j]));
            }
        }
    }
}

/// Extends a sequence by one value.
pub(crate) trait Engine {
    /// Computes `g(n)` for `n = g.len()` and appends it.
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError>;

    /// An upper bound of the work of computing `g(n)` (options looked at), for reading
    /// the clock at even intervals.
    fn work(&self, n: usize) -> u64;
}

/// The plain definition: every option of every heap, O(n) per heap.
#[derive(Debug)]
pub(crate) struct Plain {
    moves: Moves,
    marks: Marks,
}

impl Plain {
    pub(crate) fn new(code: &OctalCode) -> Plain {
        Plain { moves: Moves::new(code), marks: Marks::default() }
    }
}

impl Engine for Plain {
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError> {
        let n = g.len();
        self.marks.next_generation();
        self.moves.mark_simple(g, n, &mut self.marks);
        for &j in &self.moves.to_two {
            if n >= j + 2 {
                let r = n - j;
                for a in 1..=r / 2 {
                    self.marks.mark(usize::from(g[a] ^ g[r - a]));
                }
            }
        }
        g.push(compact(self.marks.mex(), n)?);
        Ok(())
    }

    fn work(&self, n: usize) -> u64 {
        self.moves.work(n)
    }
}

/// Subtraction games: `g(n) = mex {g(n − s) : s ∈ S, s ≤ n}` in normal play; in misère
/// play a heap with no move has value 1 and the others the same mex.
#[derive(Debug)]
pub(crate) struct Subtraction {
    set: Vec<usize>,
    play: Play,
    marks: Marks,
}

impl Subtraction {
    pub(crate) fn new(set: &SubtractionSet, play: Play) -> Subtraction {
        Subtraction {
            set: set.elements().iter().map(|&s| usize::try_from(s).unwrap_or(usize::MAX)).collect(),
            play,
            marks: Marks::default(),
        }
    }
}

impl Engine for Subtraction {
    fn push_next(&mut self, g: &mut Vec<u16>) -> Result<(), SequenceError> {
        let n = g.len();
        self.marks.next_generation();
        let mut any = false;
        for &s in &self.set {
            if s > n {
                break;
            }
            any = true;
            self.marks.mark(usize::from(g[n - s]));
        }
        let value = if !any && self.play == Play::Misere { 1 } else { self.marks.mex() };
        g.push(compact(value, n)?);
        Ok(())
    }

    fn work(&self, _n: usize) -> u64 {
        self.set.len() as u64 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::sparse::{Sparse, SparseConfig};

    fn run(engine: &mut impl Engine, n: usize) -> Vec<u16> {
        let mut g = Vec::new();
        while g.len() < n {
            engine.push_next(&mut g).unwrap();
        }
        g
    }

    #[test]
    fn sparse_agrees_with_plain_on_classic_games() {
        for code in ["0.77", "0.07", "0.137", "0.6", "0.106", "4.07", "0.0", "4.0", "0.51"] {
            let code: OctalCode = code.parse().unwrap();
            let plain = run(&mut Plain::new(&code), 1500);
            for first in [2, 5, 64] {
                let config = SparseConfig { first_reclassify: first, ..SparseConfig::default() };
                assert_eq!(run(&mut Sparse::new(&code, config), 1500), plain, "{code} {first}");
            }
        }
    }

    #[test]
    fn sparse_agrees_with_plain_across_the_switch_to_wide_lanes() {
        for code in ["0.6", "0.106", "4.07", "0.15", "0.777"] {
            let code: OctalCode = code.parse().unwrap();
            let plain = run(&mut Plain::new(&code), 1500);
            for below in [1, 2, 3, 5, 9] {
                let config = SparseConfig { byte_lanes_below: below, ..SparseConfig::default() };
                assert_eq!(run(&mut Sparse::new(&code, config), 1500), plain, "{code} {below}");
            }
        }
    }

    #[test]
    fn the_sparse_set_of_0_6_stays_small() {
        let code: OctalCode = "0.6".parse().unwrap();
        let mut e = Sparse::new(&code, SparseConfig::default());
        let _ = run(&mut e, 20_000);
        assert!(e.sparse_len() < 2_000, "{}", e.sparse_len());
    }
}
