//! A solved game: every reachable position with its value, answering queries.

use std::sync::{Arc, OnceLock};

use gamegraph_graph::{Graph, Vertex};

use crate::explore::{build_graph, build_reverse, positions};
use crate::solve::solve_reverse;
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

impl<P> PositionValue<P> {
    /// The same value with every position (the one asked about and those after its moves)
    /// given as `f` gives it: in the game's notation, or in another type. The order of the
    /// moves is kept.
    pub fn map<Q>(self, mut f: impl FnMut(P) -> Q) -> PositionValue<Q> {
        PositionValue {
            position: f(self.position),
            outcome: self.outcome,
            remoteness: self.remoteness,
            moves: self
                .moves
                .into_iter()
                .map(|m| MoveValue {
                    position: f(m.position),
                    outcome: m.outcome,
                    remoteness: m.remoteness,
                })
                .collect(),
        }
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
///
/// It keeps the sorted positions and the solution (10 bytes per position for a game of
/// `u64` positions); the game graph is built again from the rules the first time
/// [`graph`](SolvedGame::graph) or [`explored`](SolvedGame::explored) asks for it.
#[derive(Debug, Clone)]
pub struct SolvedGame<G: Game> {
    game: G,
    positions: Arc<Vec<G::Position>>,
    start: Vertex,
    moves: usize,
    explored: OnceLock<Explored<G::Position>>,
    solution: Solution,
}

impl<G: Game> SolvedGame<G> {
    /// Explores `game` and solves it, in parallel on the current rayon pool: the same
    /// values as [`explore`](crate::explore) followed by [`solve`](crate::solve).
    ///
    /// The positions are found as [`explore`](crate::explore) finds them; then the moves
    /// are generated twice more to build the reverse graph alone (predecessor lists with
    /// 32-bit offsets, a one-byte move counter per position): once to count them, once to
    /// write them, nothing of the moves being kept in between. The solver keeps a byte and
    /// a quarter per position (the outcome in two bits, and the move counter that becomes
    /// the remoteness). Games with more than 255 moves from a position, 2³² moves or more,
    /// or a remoteness above 255 are solved on the full [`Graph`] instead.
    ///
    /// # Errors
    /// The [`ExploreError`] of the exploration.
    ///
    /// # Complexity
    /// Peak memory, for positions of `P` bytes: `P + 5` bytes per position and 4 per move
    /// while the reverse graph is built, `P + 6.25` per position and 4 per move while it is
    /// solved, plus the level lists of the solver (at most half a byte per position).
    /// Measured on Connect Four 6 × 4 (`u64` positions, 2.5 moves per position): 24.9
    /// bytes per position at the peak, the whole process included (see
    /// `docs/benchmarks.md`).
    pub fn new(game: G, config: &ExploreConfig) -> Result<SolvedGame<G>, ExploreError> {
        let (positions, start) = positions(&game, config)?;
        let explored = OnceLock::new();
        let lean = match build_reverse(&game, &positions, config.stop.as_deref())? {
            Some(reverse) => {
                let moves = reverse.preds.len();
                solve_reverse(reverse, |v| game.terminal(positions[v])).map(|s| (moves, s))
            }
            None => None,
        };
        let positions = Arc::new(positions);
        let (moves, solution) = match lean {
            Some(done) => done,
            None => {
                let graph = build_graph(&game, &positions)?;
                let solution = crate::solve(&graph, |v| game.terminal(positions[v.index()]));
                let moves = graph.num_arcs();
                let _ = explored.set(Explored::from_shared(Arc::clone(&positions), graph, start));
                (moves, solution)
            }
        };
        Ok(SolvedGame { game, positions, start, moves, explored, solution })
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The reachable canonical positions, sorted; vertex `v` is `positions()[v.index()]`.
    pub fn positions(&self) -> &[G::Position] {
        &self.positions
    }

    /// The number of reachable canonical positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Always `false`: the start position is always there.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The number of moves of the game graph (arcs between canonical positions, each
    /// once), without building the graph.
    pub fn num_moves(&self) -> usize {
        self.moves
    }

    /// The game graph: a vertex per position, an arc per move. Built from the rules on the
    /// first call (8 bytes per position and 4 per move).
    ///
    /// # Panics
    /// If the game's moves changed since it was solved (a broken [`Game`] contract).
    pub fn graph(&self) -> &Graph {
        self.explored().graph()
    }

    /// The explored positions and graph; the graph is built on the first call, as in
    /// [`graph`](SolvedGame::graph).
    ///
    /// # Panics
    /// If the game's moves changed since it was solved (a broken [`Game`] contract).
    pub fn explored(&self) -> &Explored<G::Position> {
        self.explored.get_or_init(|| {
            let graph = build_graph(&self.game, &self.positions)
                .expect("the moves of a game do not change (Game contract)");
            Explored::from_shared(Arc::clone(&self.positions), graph, self.start)
        })
    }

    /// The outcome and remoteness of every vertex.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The vertex of the start position.
    pub fn start(&self) -> Vertex {
        self.start
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
        self.positions.binary_search(&self.game.canonical(p)).ok().map(Vertex::from_index)
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
