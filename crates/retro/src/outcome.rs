//! The three outcomes of a position.

use std::fmt;

/// The value of a position for the player to move, under normal play (SPEC §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Outcome {
    /// The player to move wins with best play (**W**).
    Win,
    /// The player to move loses with best play (**L**).
    Loss,
    /// Neither player can force a win: the game goes on for ever (**D**).
    Draw,
}

impl Outcome {
    /// The one-letter label of the seed and of `--all`: `W`, `L` or `D`.
    pub const fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Draw => 'D',
        }
    }

    /// A Graphviz colour for drawings: `palegreen` for W, `salmon` for L, `lightgray`
    /// for D.
    pub const fn color(self) -> &'static str {
        match self {
            Outcome::Win => "palegreen",
            Outcome::Loss => "salmon",
            Outcome::Draw => "lightgray",
        }
    }

    /// The seed's answer for a game started here: `1` when the first player (to move)
    /// wins, `2` when the second player wins, `0` for a draw.
    pub const fn seed_answer(self) -> u8 {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => 2,
            Outcome::Draw => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
