//! A token on a game graph as an engine: positions are vertices.

use gamegraph_game::{Game, MoveValue, Outcome, ParseError, PositionValue, Terminal};
use gamegraph_graph::format::Terminals;
use gamegraph_graph::{Graph, Vertex};

use super::{Engine, Erased, LookupError, Values};

/// A game graph played from a vertex: a move takes the token along an arc; at a vertex
/// without arcs the game is over, worth the file's terminal value (a loss where it gives
/// none).
///
/// Position: the vertex's 0-based index. Notation: its 1-based id, as in the graph file.
struct GraphGame {
    graph: Graph,
    terminals: Option<Terminals>,
    start: Vertex,
}

impl Game for GraphGame {
    type Position = u32;

    fn identity(&self) -> String {
        format!("graph of {} vertices from {}", self.graph.num_vertices(), self.start.one_based())
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u32 {
        self.start.0
    }

    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        out.extend(self.graph.successors(Vertex(p)).iter().map(|w| w.0));
    }

    fn terminal(&self, p: u32) -> Terminal {
        self.terminals.as_ref().map_or(Terminal::Loss, |t| t.value_or_loss(Vertex(p)))
    }

    fn show(&self, p: u32) -> String {
        Vertex(p).one_based().to_string()
    }

    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        let n = self.graph.num_vertices();
        let id: u64 = s.trim().parse().map_err(|_| ParseError::new(1, "expected a vertex id"))?;
        Vertex::from_one_based(id)
            .filter(|v| v.index() < n)
            .map(|v| v.0)
            .ok_or_else(|| ParseError::new(1, format!("vertex {id} is outside 1..{n}")))
    }
}

/// The values of every vertex: three outcomes from the retrograde solver when every vertex
/// without arcs is a loss, four from the game solver when the file gives terminal values.
enum Solved {
    Plain(gamegraph_retro::Solution),
    Values(gamegraph_game::Solution),
}

impl Solved {
    fn value(&self, v: Vertex) -> (Outcome, Option<u32>) {
        match self {
            Solved::Plain(s) => (s.outcome(v), s.depth(v)),
            Solved::Values(s) => (s.outcome(v), s.remoteness(v)),
        }
    }
}

struct GraphValues {
    game: GraphGame,
    solved: Solved,
}

impl Values<GraphGame> for GraphValues {
    fn game(&self) -> &GraphGame {
        &self.game
    }

    fn query(&self, p: u32) -> Result<Option<PositionValue<u32>>, LookupError> {
        let (outcome, remoteness) = self.solved.value(Vertex(p));
        let moves = self
            .game
            .graph
            .successors(Vertex(p))
            .iter()
            .map(|&w| {
                let (o, r) = self.solved.value(w);
                MoveValue { position: w.0, outcome: o.flip(), remoteness: r }
            })
            .collect();
        Ok(Some(PositionValue::new(p, outcome, remoteness, moves)))
    }
}

/// Solves `graph` (on the current rayon pool) and plays it from `start`, with the
/// file's `terminals` (every vertex without arcs a loss when `None`).
///
/// # Panics
/// When `start` is not a vertex of `graph`.
pub fn graph(graph: Graph, terminals: Option<Terminals>, start: Vertex) -> Box<dyn Engine> {
    assert!(start.index() < graph.num_vertices(), "the start is a vertex of the graph");
    let solved = match &terminals {
        Some(t) => Solved::Values(gamegraph_game::solve(&graph, |v| t.value_or_loss(v))),
        None => Solved::Plain(gamegraph_retro::par_solve(&graph)),
    };
    let values = GraphValues { game: GraphGame { graph, terminals, start }, solved };
    Box::new(Erased { values, _game: std::marker::PhantomData })
}
