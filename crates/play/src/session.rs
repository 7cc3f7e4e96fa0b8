//! A play session: a game played move by move from a position, over an [`Engine`].

use std::fmt;

use gamegraph_game::{Board, Outcome, Terminal};

use crate::engine::{Engine, LookupError, Pos};

/// A legal move of the position in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The position after the move.
    pub position: Pos,
    /// What to type for it: the game's name of the move, or the position after it when the
    /// game names no moves.
    pub name: String,
    /// Its outcome for the player who makes it.
    pub outcome: Outcome,
    /// The remoteness of the position after it (`None` for a draw).
    pub remoteness: Option<u32>,
}

impl Move {
    /// Advice for playing this move as the best one: `column 4 wins in 5 plies`, `every
    /// move loses; b2 lasts longest (4 plies)`, `a1 ties in 9 plies`, `stay keeps the
    /// draw`.
    pub fn advice(&self) -> String {
        let n = self.remoteness.map_or(0, |r| r + 1);
        let plies = format!("{n} {}", if n == 1 { "ply" } else { "plies" });
        match self.outcome {
            Outcome::Win => format!("{} wins in {plies}", self.name),
            Outcome::Loss => format!("every move loses; {} lasts longest ({plies})", self.name),
            Outcome::Tie => format!("{} ties in {plies}", self.name),
            Outcome::Draw => format!("{} keeps the draw", self.name),
        }
    }
}

/// A position reached in a session, with its value: the session's value history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The position.
    pub position: Pos,
    /// The name of the move that led here (`None` at the first position).
    pub played: Option<String>,
    /// Its outcome for the player to move there.
    pub outcome: Outcome,
    /// Its remoteness (`None` for a draw).
    pub remoteness: Option<u32>,
    /// Its legal moves, in the game's order.
    moves: Vec<Move>,
    /// The index in `moves` of the best move.
    best: Option<usize>,
}

/// Why a session's game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The player to move has no move; the value is theirs.
    Finished(Terminal),
    /// The position came back with the same player to move: play could go round for
    /// ever, a draw.
    Repeated,
}

/// Why text is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The text, trimmed.
    pub text: String,
    /// What may be typed instead.
    pub legal: Vec<String>,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short: String = self.text.chars().take(30).collect();
        let ell = if short.len() < self.text.len() { "…" } else { "" };
        if self.legal.is_empty() {
            return write!(f, "'{short}{ell}' is not a move: the game is over");
        }
        let moves = crate::text::list(self.legal.iter(), 12);
        write!(f, "'{short}{ell}' is not a move here; the moves are {moves}")
    }
}

impl std::error::Error for IllegalMove {}

/// A game in play: the positions reached from the first, each with its value and named
/// moves. The engine answers every move from the values, so a move costs one lookup. The
/// engine is owned, or borrows the values for `'e` ([`engine::borrowed`](crate::engine::borrowed)).
pub struct Session<'e> {
    engine: Box<dyn Engine + 'e>,
    steps: Vec<Step>,
}

impl fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.engine.identity())
            .field("position", &self.show())
            .field("ply", &self.ply())
            .finish()
    }
}

impl<'e> Session<'e> {
    /// A session at the start of the engine's game.
    ///
    /// # Errors
    /// The start's value cannot be looked up.
    pub fn new(engine: Box<dyn Engine + 'e>) -> Result<Session<'e>, LookupError> {
        let start = engine.start();
        Session::at(engine, start)
    }

    /// A session from position `p` of the engine's game.
    ///
    /// # Errors
    /// `p` is not reachable from the start, or its value cannot be looked up.
    pub fn at(engine: Box<dyn Engine + 'e>, p: Pos) -> Result<Session<'e>, LookupError> {
        let first = step(engine.as_ref(), p, None)?;
        Ok(Session { engine, steps: vec![first] })
    }

    /// The engine.
    pub fn engine(&self) -> &dyn Engine {
        self.engine.as_ref()
    }

    fn now(&self) -> &Step {
        self.steps.last().expect("a session has a position")
    }

    /// The position in play.
    pub fn position(&self) -> Pos {
        self.now().position
    }

    /// Its text.
    pub fn show(&self) -> String {
        self.engine.show(self.position())
    }

    /// Its picture, when the game gives one.
    pub fn board(&self) -> Option<Board> {
        self.engine.board(self.position())
    }

    /// Its value for the player to move: outcome and remoteness.
    pub fn value(&self) -> (Outcome, Option<u32>) {
        (self.now().outcome, self.now().remoteness)
    }

    /// Its legal moves, in the game's order.
    pub fn moves(&self) -> &[Move] {
        &self.now().moves
    }

    /// The best move: the winner hurries, the loser delays, ties and draws are kept.
    pub fn best(&self) -> Option<&Move> {
        self.now().best.map(|i| &self.now().moves[i])
    }

    /// The moves made so far.
    pub fn ply(&self) -> usize {
        self.steps.len() - 1
    }

    /// Every position reached, the first one first, with its value.
    pub fn history(&self) -> &[Step] {
        &self.steps
    }

    /// Why the game is over, if it is.
    pub fn over(&self) -> Option<End> {
        if self.moves().is_empty() {
            return Some(End::Finished(self.engine.terminal(self.position())));
        }
        // The same position with the same player to move: an even number of plies ago.
        let here = self.engine.canonical(self.position());
        let mut earlier = self.steps.iter().rev().skip(2).step_by(2);
        earlier.any(|s| self.engine.canonical(s.position) == here).then_some(End::Repeated)
    }

    /// The move `text` names: a move's name (case and spaces aside), the last word of
    /// exactly one move's name (`4` for `column 4`), or the position after the move.
    ///
    /// # Errors
    /// [`IllegalMove`] with the names of the legal moves.
    pub fn find(&self, text: &str) -> Result<&Move, IllegalMove> {
        let moves = self.moves();
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        let want = norm(text);
        if let Some(m) = moves.iter().find(|m| norm(&m.name) == want) {
            return Ok(m);
        }
        let mut by_last =
            moves.iter().filter(|m| norm(&m.name).rsplit(' ').next() == Some(want.as_str()));
        if let (Some(m), None) = (by_last.next(), by_last.next()) {
            return Ok(m);
        }
        if let Ok(p) = self.engine.parse(text.trim()) {
            let c = self.engine.canonical(p);
            if let Some(m) = moves.iter().find(|m| m.position == p) {
                return Ok(m);
            }
            if let Some(m) = moves.iter().find(|m| self.engine.canonical(m.position) == c) {
                return Ok(m);
            }
        }
        Err(IllegalMove {
            text: text.trim().to_owned(),
            legal: moves.iter().map(|m| m.name.clone()).collect(),
        })
    }

    /// Plays the move `text` names (see [`find`](Session::find)).
    ///
    /// # Errors
    /// [`PlayError::Illegal`] when it names no legal move; [`PlayError::Lookup`] when the
    /// values cannot be read.
    pub fn play(&mut self, text: &str) -> Result<&Move, PlayError> {
        let m = self.find(text)?.clone();
        self.advance(m)
    }

    /// Plays the best move; `Ok(None)` when the game is over.
    ///
    /// # Errors
    /// The values cannot be read.
    pub fn play_best(&mut self) -> Result<Option<&Move>, PlayError> {
        match self.best().cloned() {
            Some(m) => self.advance(m).map(Some),
            None => Ok(None),
        }
    }

    fn advance(&mut self, m: Move) -> Result<&Move, PlayError> {
        let next = step(self.engine.as_ref(), m.position, Some(m.name.clone()))?;
        self.steps.push(next);
        let before = &self.steps[self.steps.len() - 2];
        Ok(before.moves.iter().find(|x| x.position == m.position).expect("the move played"))
    }

    /// Takes back the last move; `false` at the first position.
    pub fn undo(&mut self) -> bool {
        if self.steps.len() > 1 {
            self.steps.pop();
            true
        } else {
            false
        }
    }
}

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The text names no legal move.
    Illegal(IllegalMove),
    /// A value could not be read.
    Lookup(LookupError),
}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> PlayError {
        PlayError::Illegal(e)
    }
}

impl From<LookupError> for PlayError {
    fn from(e: LookupError) -> PlayError {
        PlayError::Lookup(e)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::Lookup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

/// The step at `p`: its value and named moves, in the game's order, duplicates dropped.
fn step(engine: &dyn Engine, p: Pos, played: Option<String>) -> Result<Step, LookupError> {
    let value = engine.query(p)?;
    let mut moves: Vec<Move> = Vec::new();
    for q in engine.moves(p) {
        if moves.iter().any(|m| m.position == q) {
            continue;
        }
        let v = value.moves.iter().find(|m| m.position == q).ok_or_else(|| {
            LookupError::new(format!("no value for the move to {}", engine.show(q)))
        })?;
        let name = engine.move_name(p, q).unwrap_or_else(|| engine.show(q));
        moves.push(Move { position: q, name, outcome: v.outcome, remoteness: v.remoteness });
    }
    let best =
        value.moves.first().and_then(|b| moves.iter().position(|m| m.position == b.position));
    Ok(Step {
        position: p,
        played,
        outcome: value.outcome,
        remoteness: value.remoteness,
        moves,
        best,
    })
}
