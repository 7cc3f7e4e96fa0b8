//! The value of a position for the player to move: the workspace's one vocabulary for
//! outcomes ([`Outcome`]), for the value of a finished position ([`Terminal`]), and for the
//! one-byte label retrograde solvers propagate ([`Label`]).
//!
//! Every value is for the player to move. The codes are the same everywhere: `1` win,
//! `2` loss, `3` tie, `0` draw (the code of a label still undecided, which is a draw once a
//! propagation is over).

/// Who wins a position with best play, from the point of view of the player to move
/// (normal play: the player who cannot move loses), ordered as the player prefers them:
/// **win > tie > draw > loss** ([`Outcome::preference`]).
///
/// A tie ends the game with nobody winning; a draw is play that goes on for ever. Every
/// solver of the workspace answers with this one type. Games that always end (the tab
/// board, acyclic graphs) never give [`Outcome::Draw`]; games whose finished positions are
/// all losses for the player to move (every graph without terminal values, every impartial
/// game) never give [`Outcome::Tie`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// The player to move wins with best play (**W**).
    Win,
    /// The player to move loses with best play (**L**).
    Loss,
    /// The game ends in a tie with best play (**T**).
    Tie,
    /// Neither player can force an end: best play goes on for ever (**D**).
    Draw,
}

impl Outcome {
    /// All four outcomes, in code order of [`Outcome::code`]: draw, win, loss, tie.
    pub const ALL: [Outcome; 4] = [Outcome::Draw, Outcome::Win, Outcome::Loss, Outcome::Tie];

    /// The outcome code used everywhere in gamegraph: `1` win, `2` loss, `3` tie, `0` draw.
    /// For a game started here, `1` says the first player (the one to move) wins and `2`
    /// that the second player wins.
    ///
    /// ```
    /// use gamegraph_graph::Outcome;
    /// let all = [Outcome::Win, Outcome::Loss, Outcome::Tie, Outcome::Draw];
    /// assert_eq!(all.map(Outcome::code), [1, 2, 3, 0]);
    /// assert!(all.iter().all(|&o| Outcome::from_code(o.code()) == Some(o)));
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

    /// The one-letter label used in tables: `W`, `L`, `T` or `D`.
    pub const fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Tie => 'T',
            Outcome::Draw => 'D',
        }
    }

    /// The word used in prose and JSON: `win`, `loss`, `tie` or `draw`.
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

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// The value of a finished position (a vertex without moves) for the player to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Terminal {
    /// The player to move has won (the opponent's last move lost the game for them).
    Win,
    /// The player to move has lost: normal play, where the player who cannot move loses,
    /// and the value of every finished position that records no other.
    Loss,
    /// The game is over and nobody won.
    Tie,
}

impl Terminal {
    /// The letter of the text formats: `W`, `L` or `T`.
    pub const fn letter(self) -> char {
        self.outcome().letter()
    }

    /// The value of a letter `W`, `L` or `T`.
    pub const fn from_letter(c: u8) -> Option<Terminal> {
        match c {
            b'W' => Some(Terminal::Win),
            b'L' => Some(Terminal::Loss),
            b'T' => Some(Terminal::Tie),
            _ => None,
        }
    }

    /// The outcome of the finished position, whose code is the terminal value's code in
    /// every file format (`1` win, `2` loss, `3` tie).
    pub const fn outcome(self) -> Outcome {
        match self {
            Terminal::Win => Outcome::Win,
            Terminal::Loss => Outcome::Loss,
            Terminal::Tie => Outcome::Tie,
        }
    }

    /// The terminal value of code `code` (see [`Terminal::outcome`]), `None` for `0` (no
    /// value) and above 3.
    pub const fn from_code(code: u8) -> Option<Terminal> {
        match code {
            1 => Some(Terminal::Win),
            2 => Some(Terminal::Loss),
            3 => Some(Terminal::Tie),
            _ => None,
        }
    }
}

impl From<Terminal> for Outcome {
    fn from(t: Terminal) -> Outcome {
        t.outcome()
    }
}

/// "No depth" (a draw) and "no move" in the per-vertex `u32` arrays the retrograde solvers
/// propagate with.
pub const NONE: u32 = u32::MAX;

/// The label of a position while a retrograde propagation runs: decided win, loss or tie,
/// or not decided yet, which is a draw once the propagation is over. One byte, whose value
/// is the [`Outcome::code`] of the outcome it decides.
///
/// ```
/// use gamegraph_graph::{Label, Outcome};
/// assert_eq!(Label::UNKNOWN.outcome(), Outcome::Draw);
/// assert_eq!(Label::decided(Outcome::Tie), Label::TIE);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Label(u8);

impl Label {
    /// Not decided (yet).
    pub const UNKNOWN: Label = Label(0);
    /// Decided: the player to move wins.
    pub const WIN: Label = Label(1);
    /// Decided: the player to move loses.
    pub const LOSS: Label = Label(2);
    /// Decided: the game ends in a tie.
    pub const TIE: Label = Label(3);

    /// The label that decides `outcome` ([`Label::UNKNOWN`] for a draw).
    #[inline]
    pub const fn decided(outcome: Outcome) -> Label {
        Label(outcome.code())
    }

    /// The final outcome of a label: a position still undecided when the propagation is
    /// over is a draw.
    #[inline]
    pub const fn outcome(self) -> Outcome {
        match Outcome::from_code(self.0) {
            Some(o) => o,
            None => Outcome::Draw,
        }
    }
}

/// The optimal move from a position with `outcome` and `depth` (its remoteness: plies to
/// the end with best play, [`NONE`] for a draw): from W an L successor of depth
/// `depth - 1` (the least depth of its L successors), from L a successor of depth
/// `depth - 1` (the greatest depth of its successors, which are all W), from T a T
/// successor of depth `depth - 1` (the least), from D a D successor; the smallest vertex id
/// among several, [`NONE`] when there is none (a finished position has no move).
///
/// ```
/// use gamegraph_graph::Outcome;
/// use gamegraph_graph::outcome::{NONE, best_move};
///
/// // A W position of depth 3 whose successors 7, 4 and 5 are L of depth 2, W of depth 1
/// // and L of depth 2; their keys are their indices in `outcomes` and `depths`.
/// let outcomes = [Outcome::Loss, Outcome::Win, Outcome::Loss];
/// let depths = [2, 1, 2];
/// let succ = [(7, 0), (4, 1), (5, 2)];
/// let pick = |outcome, depth| best_move(outcome, depth, succ, |k| outcomes[k], |k| depths[k]);
/// assert_eq!(pick(Outcome::Win, 3), 5);
/// assert_eq!(pick(Outcome::Loss, 2), 4);
/// assert_eq!(pick(Outcome::Loss, 0), NONE);
/// assert_eq!(pick(Outcome::Draw, NONE), NONE);
/// ```
///
/// # Arguments
/// * `successors`: each successor's vertex id and a key for `outcome_of` and `depth_of`
///   (its index in the caller's arrays), which are asked only when the answer depends on
///   them.
///
/// # Complexity
/// O(number of successors), no extra space.
#[inline]
pub fn best_move<K: Copy>(
    outcome: Outcome,
    depth: u32,
    successors: impl IntoIterator<Item = (u32, K)>,
    outcome_of: impl Fn(K) -> Outcome,
    depth_of: impl Fn(K) -> u32,
) -> u32 {
    let mut best = NONE;
    match outcome {
        Outcome::Win | Outcome::Tie => {
            if depth > 0 {
                let (wanted, want) = (outcome.flip(), depth - 1);
                for (v, k) in successors {
                    if v < best && outcome_of(k) == wanted && depth_of(k) == want {
                        best = v;
                    }
                }
            }
        }
        Outcome::Loss => {
            if depth > 0 {
                let want = depth - 1;
                for (v, k) in successors {
                    if v < best && depth_of(k) == want {
                        best = v;
                    }
                }
            }
        }
        Outcome::Draw => {
            for (v, k) in successors {
                if v < best && outcome_of(k) == Outcome::Draw {
                    best = v;
                }
            }
        }
    }
    best
}
