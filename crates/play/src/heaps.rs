//! Heaps played by their Grundy values: a sum of heaps of any size (take limits, misère
//! play, Moore's Nim_k), where a position has too many moves to list and every value comes
//! from theory, not from a table of positions.

use std::fmt;

use gamegraph_grundy::play::{apply, engine_move, has_move, heaps_per_move, max_take};
use gamegraph_grundy::{HeapError, HeapGame, HeapMove, Play, solve_heaps};
use serde::Serialize;

use crate::text::list;

/// A heap game in play: the heap sizes reached from the first, one per move.
#[derive(Debug, Clone)]
pub struct HeapSession {
    game: HeapGame,
    steps: Vec<Vec<u64>>,
}

/// Why a heap move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapPlayError {
    /// The text is not a legal move here; why.
    Illegal(String),
    /// The game's values could not be found (the solver's message).
    Solve(String),
}

impl fmt::Display for HeapPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapPlayError::Illegal(why) | HeapPlayError::Solve(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for HeapPlayError {}

fn solve_error(e: &HeapError) -> HeapPlayError {
    HeapPlayError::Solve(e.to_string())
}

/// The engine's move: the moves it makes and the heaps after them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapReply {
    /// The heaps taken from (1-based) and how much.
    pub moves: Vec<HeapTake>,
    /// The move as written: `take 1 from heap 2, take 3 from heap 4`.
    pub said: String,
    /// The heap sizes after it.
    pub after: Vec<u64>,
}

/// Taking `take` objects from heap `heap` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HeapTake {
    /// The heap, 1-based.
    pub heap: usize,
    /// How many objects are taken.
    pub take: u64,
}

/// The position as data, the JSON of `gamegraph play --heaps … --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapView {
    /// The heap sizes.
    pub heaps: Vec<u64>,
    /// The most a move may take from each heap now.
    pub max_take: Vec<u64>,
    /// The most heaps one move may take from.
    pub heaps_per_move: u64,
    /// Whether the player to move has no move.
    pub over: bool,
    /// The engine's move, when there is one.
    pub engine: Option<HeapReply>,
}

/// `take 1 from heap 2, take 3 from heap 4`.
fn said(moves: &[HeapMove]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// At most 24 characters of a bad token.
fn short(s: &str) -> String {
    let mut t: String = s.chars().take(24).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl HeapSession {
    /// A session at `game`'s heaps.
    ///
    /// # Errors
    /// The game is refused by the solver (limits that do not match the heaps, …).
    pub fn new(game: HeapGame) -> Result<HeapSession, HeapError> {
        solve_heaps(&game)?;
        let steps = vec![game.heaps.clone()];
        Ok(HeapSession { game, steps })
    }

    /// The heap sizes now.
    pub fn heaps(&self) -> &[u64] {
        self.steps.last().expect("a session has a position")
    }

    /// The game at the heaps now.
    fn now(&self) -> HeapGame {
        HeapGame { heaps: self.heaps().to_vec(), ..self.game.clone() }
    }

    /// The moves made so far.
    pub fn ply(&self) -> usize {
        self.steps.len() - 1
    }

    /// How a move is typed.
    pub fn syntax(&self) -> String {
        let one = "`take T from heap I` (or `T I`) takes T objects from heap I";
        match heaps_per_move(&self.game) {
            1 => one.to_owned(),
            k => format!("{one}; up to {k} heaps at once, separated by commas"),
        }
    }

    /// The position in words: `heaps 3, 5, take at most 2, 3`.
    pub fn describe(&self) -> String {
        let mut s = format!("heaps {}", list(self.heaps().iter(), 20));
        if let Some(l) = &self.game.limits {
            s.push_str(&format!(", take at most {}", list(l.iter(), 20)));
        }
        s
    }

    /// Whether the player to move has no move: the game is over.
    pub fn over(&self) -> bool {
        !has_move(&self.now())
    }

    /// Whether the player who cannot move wins (misère play: the other took the last
    /// object).
    pub fn no_move_wins(&self) -> bool {
        self.game.play == Play::Misere
    }

    /// The heaps after the move `text` names: `take T from heap I` or `T I`, several
    /// separated by commas for Moore's game; why it is not a legal move otherwise.
    fn after(&self, text: &str) -> Result<Vec<u64>, HeapPlayError> {
        let illegal = |why: String| HeapPlayError::Illegal(why);
        let n = self.heaps().len();
        let mut moves = Vec::new();
        for part in text.split(',') {
            let words: Vec<&str> = part.split_whitespace().collect();
            let (t, i) = match words.as_slice() {
                ["take", t, "from", "heap", i] | [t, i] => (*t, *i),
                _ => {
                    let why = format!("`{}` is not `take T from heap I` or `T I`", short(text));
                    return Err(illegal(why));
                }
            };
            let number = |w: &str| {
                w.parse::<u64>().map_err(|_| illegal(format!("`{}` is not a number", short(w))))
            };
            let (take, heap) = (number(t)?, number(i)?);
            let heap = usize::try_from(heap)
                .ok()
                .and_then(|h| h.checked_sub(1))
                .filter(|&h| h < n)
                .ok_or_else(|| illegal(format!("there is no heap {heap} (heaps 1..{n})")))?;
            moves.push(HeapMove { heap, take });
        }
        apply(&self.now(), &moves).map_err(|e| illegal(e.to_string()))
    }

    /// Plays the move `text` names: `take T from heap I` or `T I`, several separated by
    /// commas for Moore's game.
    ///
    /// # Errors
    /// [`HeapPlayError::Illegal`] when it is not a legal move, saying why.
    pub fn play(&mut self, text: &str) -> Result<(), HeapPlayError> {
        let after = self.after(text)?;
        self.steps.push(after);
        Ok(())
    }

    /// The engine's move: a winning one when there is one, else one object from the
    /// largest heap; `None` when the game is over.
    ///
    /// # Errors
    /// The solver's error.
    pub fn best(&self) -> Result<Option<HeapReply>, HeapPlayError> {
        let now = self.now();
        let Some(moves) = engine_move(&now).map_err(|e| solve_error(&e))? else {
            return Ok(None);
        };
        let after = apply(&now, &moves).map_err(|e| HeapPlayError::Solve(e.to_string()))?;
        let takes = moves.iter().map(|m| HeapTake { heap: m.heap + 1, take: m.take }).collect();
        Ok(Some(HeapReply { moves: takes, said: said(&moves), after }))
    }

    /// Plays the engine's move and returns it; `None` when the game is over.
    ///
    /// # Errors
    /// The solver's error.
    pub fn play_best(&mut self) -> Result<Option<HeapReply>, HeapPlayError> {
        let reply = self.best()?;
        if let Some(r) = &reply {
            self.steps.push(r.after.clone());
        }
        Ok(reply)
    }

    /// Advice for the player to move: the heaps' values, their digit sum, and a winning
    /// move if there is one.
    ///
    /// # Errors
    /// The solver's error.
    pub fn hint(&self) -> Result<String, HeapPlayError> {
        let answer = solve_heaps(&self.now()).map_err(|e| solve_error(&e))?;
        let values: Vec<u64> = answer.values.iter().map(|v| v.0).collect();
        let values = list(values.iter(), 20);
        let sum = answer.digit_sum.0;
        Ok(if answer.moves.is_empty() {
            format!("heap values {values}, digit sum {sum}: every move loses")
        } else {
            format!("heap values {values}, digit sum {sum}: {} wins", said(&answer.moves))
        })
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

    /// The position as data.
    ///
    /// # Errors
    /// The solver's error.
    pub fn view(&self) -> Result<HeapView, HeapPlayError> {
        let now = self.now();
        Ok(HeapView {
            heaps: now.heaps.clone(),
            max_take: (0..now.heaps.len()).map(|i| max_take(&now, i)).collect(),
            heaps_per_move: heaps_per_move(&now),
            over: self.over(),
            engine: self.best()?,
        })
    }
}
