//! The result of a solve and its queries.

use std::collections::HashSet;
use std::fmt;

use gamegraph_graph::Vertex;

use crate::{Outcome, PartsError};
use gamegraph_graph::outcome::NONE;

/// Outcome, depth and optimal move of every position of a game graph, as returned by
/// [`solve`](crate::solve) and [`par_solve`](crate::par_solve).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    outcomes: Vec<Outcome>,
    /// Depth in plies, [`NONE`] for a draw.
    depths: Vec<u32>,
    /// Optimal move, [`NONE`] when there is none.
    moves: Vec<u32>,
}

/// How many positions have each outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Positions the player to move wins.
    pub win: usize,
    /// Positions the player to move loses.
    pub loss: usize,
    /// Drawn positions.
    pub draw: usize,
}

/// How a [`Line`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// The last position has no move: the player to move there loses.
    Terminal,
    /// The game is a draw: the next optimal move goes back to this earlier position of
    /// the line, and play repeats for ever.
    Repeats(Vertex),
}

/// The principal variation: the line of play when both players play the optimal moves of
/// a [`Solution`] (the smallest id on ties), from a start position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Line {
    positions: Vec<Vertex>,
    end: LineEnd,
}

impl Line {
    /// The positions of the line, the start first; each is an optimal move from the one
    /// before. A won or lost start gives `depth + 1` positions, the last without moves; a
    /// drawn start gives every position until the first repetition.
    pub fn positions(&self) -> &[Vertex] {
        &self.positions
    }

    /// The number of moves played (`positions().len() - 1`).
    pub fn num_moves(&self) -> usize {
        self.positions.len() - 1
    }

    /// How the line ends.
    pub fn end(&self) -> LineEnd {
        self.end
    }

    /// A text rendering: one line `V OUTCOME` per position (1-based ids), then a comment
    /// saying how the line ends.
    pub fn display<'a>(&'a self, solution: &'a Solution) -> LineDisplay<'a> {
        LineDisplay { line: self, solution }
    }
}

/// The text rendering of a [`Line`], from [`Line::display`].
#[derive(Debug, Clone, Copy)]
pub struct LineDisplay<'a> {
    line: &'a Line,
    solution: &'a Solution,
}

impl fmt::Display for LineDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &v in &self.line.positions {
            writeln!(f, "{} {}", v.one_based(), self.solution.outcome(v).letter())?;
        }
        let last = *self.line.positions.last().expect("a line has a start");
        match self.line.end {
            LineEnd::Terminal => writeln!(
                f,
                "# {} has no move: the player to move there loses after {} move{}",
                last.one_based(),
                self.line.num_moves(),
                if self.line.num_moves() == 1 { "" } else { "s" }
            ),
            LineEnd::Repeats(v) => writeln!(
                f,
                "# draw: the optimal move from {} goes back to {}, and play repeats for ever",
                last.one_based(),
                v.one_based()
            ),
        }
    }
}

/// The `--all` table of a [`Solution`], from [`Solution::table`], or of a range of its
/// vertices, from [`Table::rows`]: one line `V OUTCOME DEPTH MOVE` per vertex, in
/// increasing order, with 1-based ids and `-` for no depth or no move.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    first: usize,
    outcomes: &'a [Outcome],
    parts: Parts<'a>,
}

/// The depths and moves of a [`Table`]: a solution's own arrays, or given ones.
#[derive(Debug, Clone, Copy)]
enum Parts<'a> {
    /// As a [`Solution`] stores them, [`NONE`] for none.
    Stored { depths: &'a [u32], moves: &'a [u32] },
    /// As [`Table::rows`] takes them.
    Given { depths: &'a [Option<u32>], moves: &'a [Option<Vertex>] },
}

impl<'a> Table<'a> {
    /// The rows of the vertices `first..first + outcomes.len()` (0-based), from their
    /// outcomes, depths and moves, so that the tables of consecutive ranges, one after the
    /// other, are the table of the whole solution.
    ///
    /// ```
    /// use gamegraph_graph::Vertex;
    /// use gamegraph_retro::{Outcome, Table};
    /// let moves = [Some(Vertex(0)), Some(Vertex(5))];
    /// let rows = Table::rows(4, &[Outcome::Win, Outcome::Draw], &[Some(1), None], &moves);
    /// assert_eq!(rows.to_string(), "5 W 1 1\n6 D - 6\n");
    /// ```
    ///
    /// # Panics
    /// When the three slices differ in length.
    pub fn rows(
        first: usize,
        outcomes: &'a [Outcome],
        depths: &'a [Option<u32>],
        moves: &'a [Option<Vertex>],
    ) -> Table<'a> {
        assert!(
            outcomes.len() == depths.len() && depths.len() == moves.len(),
            "one outcome, depth and move per vertex"
        );
        Table { first, outcomes, parts: Parts::Given { depths, moves } }
    }

    /// The depth and the move of row `i`.
    fn row(&self, i: usize) -> (Option<u32>, Option<Vertex>) {
        match self.parts {
            Parts::Stored { depths, moves } => (
                (depths[i] != NONE).then_some(depths[i]),
                (moves[i] != NONE).then_some(Vertex(moves[i])),
            ),
            Parts::Given { depths, moves } => (depths[i], moves[i]),
        }
    }
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, o) in self.outcomes.iter().enumerate() {
            write!(f, "{} {} ", self.first + i + 1, o.letter())?;
            let (depth, best) = self.row(i);
            match depth {
                Some(d) => write!(f, "{d} ")?,
                None => f.write_str("- ")?,
            }
            match best {
                Some(m) => writeln!(f, "{}", m.one_based())?,
                None => f.write_str("-\n")?,
            }
        }
        Ok(())
    }
}

impl Solution {
    /// A solution from its parts, indexed by vertex: outcomes, depths (`None` for a draw)
    /// and moves (`None` for none), as another solver computed them. Checks the shape
    /// only: equal lengths, no tie, a depth exactly for the W and L vertices (below `u32::MAX`),
    /// moves inside the vertex range; [`verify`](crate::verify) checks it against a graph.
    ///
    /// # Errors
    /// A [`PartsError`] saying which part does not fit.
    ///
    /// # Example
    /// ```
    /// use gamegraph_graph::Vertex;
    /// use gamegraph_retro::{Outcome, PartsError, Solution};
    /// let (w, l) = (Outcome::Win, Outcome::Loss);
    /// let s = Solution::from_parts(vec![w, l], vec![Some(1), Some(0)], vec![Some(Vertex(1)), None])?;
    /// assert_eq!(s.table().to_string(), "1 W 1 2\n2 L 0 -\n");
    /// let e = Solution::from_parts(vec![Outcome::Draw], vec![Some(0)], vec![None]).unwrap_err();
    /// assert_eq!(e, PartsError::Depth { vertex: Vertex(0), outcome: Outcome::Draw });
    /// assert!(Solution::from_parts(vec![l], vec![Some(0)], vec![Some(Vertex(1))]).is_err());
    /// assert!(Solution::from_parts(vec![l], vec![Some(0), Some(0)], vec![None]).is_err());
    /// # Ok::<(), PartsError>(())
    /// ```
    pub fn from_parts(
        outcomes: Vec<Outcome>,
        depths: Vec<Option<u32>>,
        moves: Vec<Option<Vertex>>,
    ) -> Result<Self, PartsError> {
        let n = outcomes.len();
        if depths.len() != n || moves.len() != n {
            return Err(PartsError::Lengths {
                outcomes: n,
                depths: depths.len(),
                moves: moves.len(),
            });
        }
        let mut stored = Vec::with_capacity(n);
        for (i, (&outcome, &d)) in outcomes.iter().zip(&depths).enumerate() {
            let vertex = Vertex::from_index(i);
            stored.push(match d {
                _ if outcome == Outcome::Tie => return Err(PartsError::Tie { vertex }),
                Some(NONE) => return Err(PartsError::DepthTooLarge { vertex }),
                Some(d) if outcome != Outcome::Draw => d,
                None if outcome == Outcome::Draw => NONE,
                _ => return Err(PartsError::Depth { vertex, outcome }),
            });
        }
        let mut stored_moves = Vec::with_capacity(n);
        for (i, m) in moves.into_iter().enumerate() {
            stored_moves.push(match m {
                None => NONE,
                Some(m) if m.index() < n => m.0,
                Some(target) => {
                    return Err(PartsError::MoveOutside { vertex: Vertex::from_index(i), target });
                }
            });
        }
        Ok(Solution { outcomes, depths: stored, moves: stored_moves })
    }

    /// The constructor of the solvers here, whose parts are right by construction.
    pub(crate) fn from_parts_unchecked(
        outcomes: Vec<Outcome>,
        depths: Vec<u32>,
        moves: Vec<u32>,
    ) -> Self {
        debug_assert!(outcomes.len() == depths.len() && depths.len() == moves.len());
        Solution { outcomes, depths, moves }
    }

    /// The number of positions.
    pub fn num_vertices(&self) -> usize {
        self.outcomes.len()
    }

    /// The outcome of `v` for the player to move there.
    ///
    /// # Panics
    /// If `v` is not a vertex of the solved graph (as every query here).
    #[inline]
    pub fn outcome(&self, v: Vertex) -> Outcome {
        self.outcomes[v.index()]
    }

    /// The outcomes of all vertices, indexed by vertex.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The depth of `v` in plies (moves of both players until the game ends with best
    /// play), or `None` for a draw.
    #[inline]
    pub fn depth(&self, v: Vertex) -> Option<u32> {
        let d = self.depths[v.index()];
        (d != NONE).then_some(d)
    }

    /// The optimal move from `v` (the smallest id on ties), or `None` when `v` has no move.
    #[inline]
    pub fn best_move(&self, v: Vertex) -> Option<Vertex> {
        let m = self.moves[v.index()];
        (m != NONE).then_some(Vertex(m))
    }

    /// How many positions are W, L and D.
    ///
    /// # Complexity
    /// O(V).
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for o in &self.outcomes {
            match o {
                Outcome::Win => c.win += 1,
                Outcome::Loss => c.loss += 1,
                // A solution never holds a tie (`from_parts` refuses one).
                Outcome::Draw | Outcome::Tie => c.draw += 1,
            }
        }
        c
    }

    /// The principal variation from `start`: both players play [`best_move`](Self::best_move)
    /// until the game ends or, for a draw, until a position repeats.
    ///
    /// # Complexity
    /// O(length of the line) time and space.
    pub fn principal_variation(&self, start: Vertex) -> Line {
        let mut positions = vec![start];
        let mut seen: HashSet<Vertex> = HashSet::new();
        let draw = self.outcome(start) == Outcome::Draw;
        if draw {
            seen.insert(start);
        }
        let mut v = start;
        while let Some(next) = self.best_move(v) {
            if draw && !seen.insert(next) {
                return Line { positions, end: LineEnd::Repeats(next) };
            }
            positions.push(next);
            v = next;
        }
        Line { positions, end: LineEnd::Terminal }
    }

    /// The `--all` table: one line `V OUTCOME DEPTH MOVE` per vertex (see [`Table`]).
    pub fn table(&self) -> Table<'_> {
        Table {
            first: 0,
            outcomes: &self.outcomes,
            parts: Parts::Stored { depths: &self.depths, moves: &self.moves },
        }
    }

    /// A short label per vertex for drawings: the 1-based id, a line break, then the
    /// outcome and the depth (`"4\nW 1"`; `"1\nD"` for a draw).
    ///
    /// # Complexity
    /// O(V).
    pub fn vertex_labels(&self) -> Vec<String> {
        (0..self.num_vertices())
            .map(|i| {
                let v = Vertex::from_index(i);
                match self.depth(v) {
                    Some(d) => format!("{}\n{} {d}", i + 1, self.outcome(v).letter()),
                    None => format!("{}\n{}", i + 1, self.outcome(v).letter()),
                }
            })
            .collect()
    }

    /// Depths as stored (`u32::MAX` for none), for the verifier.
    pub(crate) fn raw_depths(&self) -> &[u32] {
        &self.depths
    }
}
