//! The four outcomes of a position.

use crate::Terminal;

/// The value of a position with best play, for the player to move, ordered as the player
/// prefers them: **win > tie > draw > loss** ([`Outcome::preference`]).
///
/// A tie ends the game with nobody winning; a draw is play that goes on for ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// The player to move wins (**W**).
    Win,
    /// The player to move loses (**L**).
    Loss,
    /// The game ends in a tie (**T**).
    Tie,
    /// Play goes on for ever (**D**).
    Draw,
}

impl Outcome {
    /// All four outcomes, in code order of [`Outcome::code`]: draw, win, loss, tie.
    pub const ALL: [Outcome; 4] = [Outcome::Draw, Outcome::Win, Outcome::Loss, Outcome::Tie];

    /// The outcome code used everywhere in gamegraph: `1` win, `2` loss, `3` tie, `0` draw.
    ///
    /// ```
    /// use gamegraph_game::Outcome;
    /// assert_eq!([Outcome::Win, Outcome::Loss, Outcome::Tie, Outcome::Draw].map(Outcome::code), [1, 2, 3, 0]);
    /// ```
    pub const fn code(self) -> u8 {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => 2,
            Outcome::Tie => 3,
            Outcome::Draw => 0,
        }
    }

    /// The outcome with code `code` (see [`Outcome::code`]), `None` above 3.
    pub const fn from_code(code: u8) -> Option<Outcome> {
        match code {
            0 => Some(Outcome::Draw),
            1 => Some(Outcome::Win),
            2 => Some(Outcome::Loss),
            3 => Some(Outcome::Tie),
            _ => None,
        }
    }

    /// The one-letter label: `W`, `L`, `T` or `D`.
    pub const fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Tie => 'T',
            Outcome::Draw => 'D',
        }
    }

    /// The word: `win`, `loss`, `tie` or `draw`.
    pub const fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Tie => "tie",
            Outcome::Draw => "draw",
        }
    }

    /// How much the player to move likes this outcome: loss 0 < draw 1 < tie 2 < win 3.
    pub const fn preference(self) -> u8 {
        match self {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Tie => 2,
            Outcome::Win => 3,
        }
    }

    /// The outcome for the other player: a win becomes a loss and back; ties and draws stay.
    /// A move to a position of outcome `o` is worth `o.flip()` to the player who makes it.
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        }
    }
}

impl From<Terminal> for Outcome {
    fn from(t: Terminal) -> Outcome {
        match t {
            Terminal::Win => Outcome::Win,
            Terminal::Loss => Outcome::Loss,
            Terminal::Tie => Outcome::Tie,
        }
    }
}

impl From<gamegraph_graph::Outcome> for Outcome {
    fn from(o: gamegraph_graph::Outcome) -> Outcome {
        match o {
            gamegraph_graph::Outcome::Win => Outcome::Win,
            gamegraph_graph::Outcome::Loss => Outcome::Loss,
            gamegraph_graph::Outcome::Draw => Outcome::Draw,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

impl From<gamegraph_graph::format::TerminalValue> for Terminal {
    fn from(t: gamegraph_graph::format::TerminalValue) -> Terminal {
        use gamegraph_graph::format::TerminalValue;
        match t {
            TerminalValue::Win => Terminal::Win,
            TerminalValue::Loss => Terminal::Loss,
            TerminalValue::Tie => Terminal::Tie,
        }
    }
}

impl From<Terminal> for gamegraph_graph::format::TerminalValue {
    fn from(t: Terminal) -> gamegraph_graph::format::TerminalValue {
        use gamegraph_graph::format::TerminalValue;
        match t {
            Terminal::Win => TerminalValue::Win,
            Terminal::Loss => TerminalValue::Loss,
            Terminal::Tie => TerminalValue::Tie,
        }
    }
}
