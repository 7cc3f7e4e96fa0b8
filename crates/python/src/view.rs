//! A play session's state as JSON, what the page's games view draws:
//! `SolvedGame._view()`, which `gg.serve()` answers with. A shipped game is played by its
//! own rules over its solved values; a game given by Python functions by its explored
//! graph, a position a vertex.

use gamegraph_game::{Board, MoveValue, Outcome, ParseError, PositionValue, Terminal};
use gamegraph_graph::Vertex;
use gamegraph_play::{Engine, LookupError, Pos, Session};
use pyo3::prelude::*;

use crate::error::value_error;
use crate::solved::PySolvedGame;

/// The engine of a game given by Python functions: positions are its vertices.
struct Explored(Py<PySolvedGame>);

fn vertex(p: Pos) -> Vertex {
    Vertex(u32::try_from(p).expect("a position of the engine is a vertex"))
}

impl Explored {
    fn game(&self) -> &PySolvedGame {
        self.0.get()
    }

    fn text(&self, p: Pos) -> String {
        Python::attach(|py| {
            self.game().show_vertex(py, vertex(p)).unwrap_or_else(|e| format!("<{e}>"))
        })
    }
}

impl Engine for Explored {
    fn identity(&self) -> String {
        "a game given by Python functions".to_owned()
    }

    fn start(&self) -> Pos {
        Pos::from(self.game().start_vertex().0)
    }

    fn moves(&self, p: Pos) -> Vec<Pos> {
        self.game().successors(vertex(p)).into_iter().map(|w| Pos::from(w.0)).collect()
    }

    fn terminal(&self, p: Pos) -> Terminal {
        match self.game().solution().outcome(vertex(p)) {
            Outcome::Win => Terminal::Win,
            Outcome::Tie => Terminal::Tie,
            Outcome::Loss | Outcome::Draw => Terminal::Loss,
        }
    }

    fn canonical(&self, p: Pos) -> Pos {
        p
    }

    fn show(&self, p: Pos) -> String {
        self.text(p)
    }

    fn parse(&self, text: &str) -> Result<Pos, ParseError> {
        self.game()
            .vertex_of_text(text)
            .map(|v| Pos::from(v.0))
            .ok_or_else(|| ParseError::new(1, "not a position of the game"))
    }

    fn move_name(&self, _: Pos, _: Pos) -> Option<String> {
        None
    }

    fn board(&self, _: Pos) -> Option<Board> {
        None
    }

    fn query(&self, p: Pos) -> Result<PositionValue<Pos>, LookupError> {
        let s = self.game().solution();
        let v = vertex(p);
        let moves = self
            .game()
            .successors(v)
            .into_iter()
            .map(|w| MoveValue {
                position: Pos::from(w.0),
                outcome: s.outcome(w).flip(),
                remoteness: s.remoteness(w),
            })
            .collect();
        Ok(PositionValue::new(p, s.outcome(v), s.remoteness(v), moves))
    }
}

/// The state of a session of `engine` after `moves`, as JSON; why a move is illegal
/// otherwise.
pub(crate) fn session_json(
    engine: Box<dyn Engine + '_>,
    moves: &[String],
) -> Result<String, String> {
    let mut session = Session::new(engine).map_err(|e| e.to_string())?;
    for m in moves {
        session.play(m).map_err(|e| format!("illegal move: {e}"))?;
    }
    serde_json::to_string(&session.view()).map_err(|e| e.to_string())
}

/// The state after `moves` from the start, as JSON: what `gamegraph play --json` prints
/// for a shipped game, and the page's games view draws.
pub(crate) fn view_json(game: &Bound<'_, PySolvedGame>, moves: &[String]) -> PyResult<String> {
    let json = match game.get().shipped_view(moves) {
        Some(json) => json,
        None => session_json(Box::new(Explored(game.clone().unbind())), moves),
    };
    json.map_err(value_error)
}
