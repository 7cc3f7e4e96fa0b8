//! The result of a solve and its queries.

use std::collections::HashSet;
use std::fmt;

use gamegraph_graph::Vertex;

use crate::Outcome;
use crate::labels::NONE;

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
    depths: &'a [u32],
    moves: &'a [u32],
}

impl<'a> Table<'a> {
    /// The rows of the vertices `first..first + outcomes.len()` (0-based), from their
    /// outcomes, depths and moves as [`Solution::from_parts`] takes them (`u32::MAX` for
    /// no depth or no move), so that the tables of consecutive ranges, one after the
    /// other, are the table of the whole solution.
    ///
    /// ```
    /// use gamegraph_retro::{Outcome, Table};
    /// let rows = Table::rows(4, &[Outcome::Win, Outcome::Draw], &[1, u32::MAX], &[0, 5]);
    /// assert_eq!(rows.to_string(), "5 W 1 1\n6 D - 6\n");
    /// ```
    ///
    /// # Panics
    /// When the three slices differ in length.
    pub fn rows(
        first: usize,
        outcomes: &'a [Outcome],
        depths: &'a [u32],
        moves: &'a [u32],
    ) -> Table<'a> {
        assert!(
            outcomes.len() == depths.len() && depths.len() == moves.len(),
            "one outcome, depth and move per vertex"
        );
        Table { first, outcomes, depths, moves }
    }
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.outcomes.iter().zip(self.depths).zip(self.moves);
        for (i, ((o, &d), &m)) in rows.enumerate() {
            write!(f, "{} {} ", self.first + i + 1, o.letter())?;
            if d == NONE {
                f.write_str("- ")?;
            } else {
                write!(f, "{d} ")?;
            }
            if m == NONE {
                f.write_str("-\n")?;
            } else {
                writeln!(f, "{}", u64::from(m) + 1)?;
            }
        }
        Ok(())
    }
}

impl Solution {
    /// A solution from its parts, indexed by vertex: outcomes, depths (`u32::MAX` for
    /// none) and moves (`u32::MAX` for none), as another solver computed them. Checks the
    /// shape only: equal lengths, a depth exactly for the W and L vertices, moves inside
    /// the vertex range; [`verify`](crate::verify) checks it against a graph.
    ///
    /// # Errors
    /// A message saying which part does not fit.
    ///
    /// # Example
    /// ```
    /// use gamegraph_retro::{Outcome, Solution};
    /// let s = Solution::from_parts(vec![Outcome::Win, Outcome::Loss], vec![1, 0], vec![1, u32::MAX]).unwrap();
    /// assert_eq!(s.table().to_string(), "1 W 1 2\n2 L 0 -\n");
    /// assert!(Solution::from_parts(vec![Outcome::Draw], vec![0], vec![u32::MAX]).is_err());
    /// assert!(Solution::from_parts(vec![Outcome::Loss], vec![0], vec![1]).is_err());
    /// assert!(Solution::from_parts(vec![Outcome::Loss], vec![0, 0], vec![u32::MAX]).is_err());
    /// ```
    pub fn from_parts(
        outcomes: Vec<Outcome>,
        depths: Vec<u32>,
        moves: Vec<u32>,
    ) -> Result<Self, String> {
        let n = outcomes.len();
        if depths.len() != n || moves.len() != n {
            return Err(format!(
                "{n} outcomes, {} depths and {} moves: the lengths differ",
                depths.len(),
                moves.len()
            ));
        }
        for (i, (o, &d)) in outcomes.iter().zip(&depths).enumerate() {
            if (*o == Outcome::Draw) != (d == NONE) {
                return Err(format!("vertex {}: a depth must be given exactly for W and L", i + 1));
            }
        }
        if let Some(i) = moves.iter().position(|&m| m != NONE && m as usize >= n) {
            return Err(format!("vertex {}: its move is outside the graph", i + 1));
        }
        Ok(Solution { outcomes, depths, moves })
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
                Outcome::Draw => c.draw += 1,
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
        Table::rows(0, &self.outcomes, &self.depths, &self.moves)
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
