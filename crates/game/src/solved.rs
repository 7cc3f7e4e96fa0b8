//! A solved game: every reachable position with its value, answering queries.

use gamegraph_graph::{Graph, Vertex};

use crate::{ExploreConfig, ExploreError, Explored, Game, Outcome, QueryError, Solution};

/// The value of a position and of every move from it, from [`SolvedGame::query`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionValue<P> {
    /// The position asked about, as given.
    pub position: P,
    /// Its outcome for the player to move.
    pub outcome: Outcome,
    /// Its remoteness in plies; `None` for a draw.
    pub remoteness: Option<u32>,
    /// Every move from the position, best first (see [`MoveValue`]).
    pub moves: Vec<MoveValue<P>>,
}

impl<P: Ord> PositionValue<P> {
    /// The value of `position`, with its `moves` put best first (see [`MoveValue`]).
    pub fn new(
        position: P,
        outcome: Outcome,
        remoteness: Option<u32>,
        mut moves: Vec<MoveValue<P>>,
    ) -> PositionValue<P> {
        moves.sort_by(|a, b| {
            let key = |m: &MoveValue<P>| {
                let r = i64::from(m.remoteness.unwrap_or(0));
                let r = if m.outcome == Outcome::Loss { -r } else { r };
                (std::cmp::Reverse(m.outcome.preference()), r)
            };
            key(a).cmp(&key(b)).then(a.position.cmp(&b.position))
        });
        PositionValue { position, outcome, remoteness, moves }
    }
}

/// One move and what it is worth to the player who makes it.
///
/// Moves are listed best first: by outcome for the mover (win, tie, draw, loss), then a
/// win or a tie with the least remoteness, a loss with the greatest, then by position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<P> {
    /// The position after the move, as the game's [`moves`](Game::moves) gives it.
    pub position: P,
    /// The outcome of the move for the player who makes it: the
    /// [flipped](Outcome::flip) outcome of the position it leads to.
    pub outcome: Outcome,
    /// The remoteness of the position the move leads to; `None` for a draw.
    pub remoteness: Option<u32>,
}

/// A game with every reachable position solved: outcome and remoteness for each (see
/// [`solve`](crate::solve) for the rules), and queries by position.
#[derive(Debug, Clone)]
pub struct SolvedGame<G: Game> {
    game: G,
    explored: Explored<G::Position>,
    solution: Solution,
}

impl<G: Game> SolvedGame<G> {
    /// Explores `game` ([`explore`](crate::explore), in parallel on the current rayon pool)
    /// and solves it ([`solve`](crate::solve)).
    ///
    /// # Errors
    /// The [`ExploreError`] of the exploration.
    pub fn new(game: G, config: &ExploreConfig) -> Result<SolvedGame<G>, ExploreError> {
        let explored = crate::explore(&game, config)?;
        let solution = crate::solve(explored.graph(), |v| game.terminal(explored.position(v)));
        Ok(SolvedGame { game, explored, solution })
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The reachable canonical positions, sorted; vertex `v` is `positions()[v.index()]`.
    pub fn positions(&self) -> &[G::Position] {
        self.explored.positions()
    }

    /// The number of reachable canonical positions.
    pub fn len(&self) -> usize {
        self.explored.len()
    }

    /// Always `false`: the start position is always there.
    pub fn is_empty(&self) -> bool {
        self.explored.is_empty()
    }

    /// The game graph: a vertex per position, an arc per move.
    pub fn graph(&self) -> &Graph {
        self.explored.graph()
    }

    /// The explored positions and graph.
    pub fn explored(&self) -> &Explored<G::Position> {
        &self.explored
    }

    /// The outcome and remoteness of every vertex.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The vertex of the start position.
    pub fn start(&self) -> Vertex {
        self.explored.start()
    }

    /// The outcome of the start position for the first player.
    pub fn start_outcome(&self) -> Outcome {
        self.solution.outcome(self.start())
    }

    /// The remoteness of the start position; `None` for a draw.
    pub fn start_remoteness(&self) -> Option<u32> {
        self.solution.remoteness(self.start())
    }

    /// The vertex of any position (canonicalised first), `None` if it is not reachable.
    pub fn vertex(&self, p: G::Position) -> Option<Vertex> {
        self.explored.vertex(self.game.canonical(p))
    }

    /// The outcome and remoteness of a position (canonicalised first), `None` if it is not
    /// reachable from the start.
    ///
    /// # Complexity
    /// O(log n).
    pub fn value(&self, p: G::Position) -> Option<(Outcome, Option<u32>)> {
        let v = self.vertex(p)?;
        Some((self.solution.outcome(v), self.solution.remoteness(v)))
    }

    /// The value of a position and of each of its moves ("value moves"); the position is
    /// canonicalised to be looked up, and its moves are the game's moves from `p` itself.
    ///
    /// # Errors
    /// [`QueryError::Unreachable`] if the position cannot be reached from the start.
    ///
    /// # Complexity
    /// O((d + 1) log n) for d moves.
    pub fn query(&self, p: G::Position) -> Result<PositionValue<G::Position>, QueryError> {
        let Some((outcome, remoteness)) = self.value(p) else {
            return Err(QueryError::Unreachable { position: self.game.show(p) });
        };
        let mut next = Vec::new();
        self.game.moves(p, &mut next);
        let mut moves = Vec::with_capacity(next.len());
        for q in next {
            let Some((o, r)) = self.value(q) else {
                return Err(QueryError::Unreachable { position: self.game.show(q) });
            };
            moves.push(MoveValue { position: q, outcome: o.flip(), remoteness: r });
        }
        Ok(PositionValue::new(p, outcome, remoteness, moves))
    }

    /// [`query`](SolvedGame::query) on a position given in the game's notation.
    ///
    /// # Errors
    /// [`QueryError::Parse`] if the text is not a position; [`QueryError::Unreachable`].
    pub fn query_str(&self, s: &str) -> Result<PositionValue<G::Position>, QueryError> {
        self.query(self.game.parse(s)?)
    }
}
