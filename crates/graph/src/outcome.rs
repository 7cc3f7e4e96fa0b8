//! The value of a position for the player to move.

/// Who wins a position with best play, from the point of view of the player to move
/// (normal play: the player who cannot move loses). Every solver of the workspace answers
/// with this one type; games that always end (the tab board, acyclic graphs) never give
/// [`Outcome::Draw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Outcome {
    /// The player to move wins with best play (**W**).
    Win,
    /// The player to move loses with best play (**L**).
    Loss,
    /// Neither player can force a win: best play goes on for ever (**D**).
    Draw,
}

impl Outcome {
    /// The answer code for a game started here, as the graph-game command prints it:
    /// `1` when the first player (the one to move) wins, `2` when the second player wins,
    /// `0` for a draw.
    ///
    /// ```
    /// use gamegraph_graph::Outcome;
    /// assert_eq!([Outcome::Win, Outcome::Loss, Outcome::Draw].map(Outcome::code), [1, 2, 0]);
    /// ```
    pub const fn code(self) -> u8 {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => 2,
            Outcome::Draw => 0,
        }
    }

    /// The one-letter label used in tables: `W`, `L` or `D`.
    pub const fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Draw => 'D',
        }
    }

    /// The word used in prose and JSON: `win`, `loss` or `draw`.
    pub const fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        }
    }
}
