//! The [`Game`] trait: a two-player game given by its rules.

use std::hash::Hash;

use crate::{Board, ParseError, Terminal};

/// A two-player game given by its rules: a start position, the moves from every position,
/// and the value of the positions where the game is over.
///
/// Positions are small packed values (`u32`, `u64`, `u128`, …) that say everything about
/// the state of the game, including whose turn it is when that matters. Every value is
/// for *the player to move*; the players alternate.
///
/// # Contract
/// The explorer and the solver rely on these rules; breaking them gives wrong answers or an
/// [`ExploreError`](crate::ExploreError), never undefined behaviour.
/// - [`moves`](Game::moves) is deterministic: the same position always gives the same
///   moves (their order does not matter, and a move may be listed twice).
/// - A position is *finished* when `moves` gives nothing; [`terminal`](Game::terminal)
///   then gives its value. A game that ends before the board is exhausted (three in a row
///   at tic-tac-toe) returns no moves from such a position and says who won in `terminal`.
///   `terminal` is only asked about finished positions.
/// - [`canonical`](Game::canonical) picks one representative of each class of equivalent
///   positions (symmetries of the board, orderings of independent components). It must
///   commute with the rules: for every move `q` of `p`, `canonical(q)` equals
///   `canonical(q')` for some move `q'` of `canonical(p)`, and conversely; and equivalent
///   positions must have equal terminal values. It must be idempotent. The default is the
///   identity (no symmetry).
/// - [`parse`](Game::parse) accepts what [`show`](Game::show) prints:
///   `parse(&show(p)) == Ok(p)` for every canonical position `p` (a game may print
///   equivalent positions alike, as rows of pins sorted by length), and never panics.
/// - [`rank`](Game::rank), when given for one canonical position, is given for all of
///   them, and numbers them one-to-one by small integers (a perfect hash; the numbers need
///   not be dense). [`SolvedGame::save`](crate::SolvedGame::save) then stores values by
///   rank instead of storing the positions. The default is `None`.
///
/// # Example
/// A game on one heap: a move takes 1 or 2 objects; whoever cannot move loses.
/// ```
/// use gamegraph_game::{Game, Outcome, ParseError, SolvedGame, ExploreConfig};
///
/// struct TakeOneOrTwo(u32);
///
/// impl Game for TakeOneOrTwo {
///     type Position = u32;
///     fn start(&self) -> u32 { self.0 }
///     fn moves(&self, p: u32, out: &mut Vec<u32>) {
///         out.extend((1..=2).filter(|&k| k <= p).map(|k| p - k));
///     }
///     fn show(&self, p: u32) -> String { p.to_string() }
///     fn parse(&self, s: &str) -> Result<u32, ParseError> {
///         s.trim().parse().map_err(|_| ParseError::new(1, "expected a number of objects"))
///     }
/// }
///
/// let solved = SolvedGame::new(TakeOneOrTwo(10), &ExploreConfig::default()).unwrap();
/// assert_eq!(solved.len(), 11);
/// let q = solved.query(10).unwrap();
/// assert_eq!((q.outcome, q.remoteness), (Outcome::Win, Some(7)));
/// assert_eq!(solved.query(9).unwrap().outcome, Outcome::Loss);
/// ```
pub trait Game: Sync {
    /// A position, packed: copied freely, hashed, sorted (vertex ids follow this order).
    type Position: Copy + Eq + Hash + Ord + Send + Sync + std::fmt::Debug;

    /// The position the game starts from.
    fn start(&self) -> Self::Position;

    /// Appends the position after each legal move from `p` to `out` (which the caller has
    /// cleared). Nothing for a finished position.
    fn moves(&self, p: Self::Position, out: &mut Vec<Self::Position>);

    /// The value for the player to move at a finished position `p` (one without moves).
    /// The default is [`Terminal::Loss`]: normal play, the player who cannot move loses.
    fn terminal(&self, p: Self::Position) -> Terminal {
        let _ = p;
        Terminal::Loss
    }

    /// The representative of `p`'s class of equivalent positions; the identity by default.
    fn canonical(&self, p: Self::Position) -> Self::Position {
        p
    }

    /// The text notation of `p` (one line).
    fn show(&self, p: Self::Position) -> String;

    /// Reads the text notation of a position, as [`show`](Game::show) prints it.
    ///
    /// # Errors
    /// A [`ParseError`] with the 1-based column where the text goes wrong.
    fn parse(&self, s: &str) -> Result<Self::Position, ParseError>;

    /// The name of the move from `from` to `to` (a position [`moves`](Game::moves) gives
    /// for `from`), as a player types it: `b2` at tic-tac-toe, `column 4` at Connect Four,
    /// `take 2 from 7 leaving 2 3` on rows of pins. The moves of one position have
    /// different names. Front ends take moves by these names and show them in hints; a game
    /// without names (`None`, the default) is played by typing the position after the move.
    fn move_name(&self, from: Self::Position, to: Self::Position) -> Option<String> {
        let _ = (from, to);
        None
    }

    /// A picture of `p` for front ends to draw: a grid of cells with pieces, or rows of
    /// pins; `None` (the default) when the game has none, or the board is too large to
    /// draw, and front ends show the position's text.
    fn board(&self, p: Self::Position) -> Option<Board> {
        let _ = p;
        None
    }

    /// A one-to-one numbering of the canonical positions by small integers, when the game
    /// has one; `None` by default.
    fn rank(&self, p: Self::Position) -> Option<u64> {
        let _ = p;
        None
    }

    /// Whether the number `rank` may be the [`rank`](Game::rank) of a reachable canonical
    /// position; `true` by default. A values file by rank skips every number for which it
    /// is `false`, at no cost, so a game that can tell cheaply which numbers no play
    /// reaches (boards that are not canonical, or that no sequence of legal moves makes)
    /// gets smaller files. It must be deterministic; a values file found to hold a
    /// position whose number it calls unreachable is written without skips. The file
    /// records which numbers it skipped, so it is refused
    /// ([`FileError::OtherGame`](crate::FileError::OtherGame)) by a game that skips others.
    fn rank_may_be_reached(&self, rank: u64) -> bool {
        let _ = rank;
        true
    }

    /// What game this is, as one line of text: its name, every parameter of its rules and
    /// of its start, and whether symmetric positions are identified, for example
    /// `connect-four 5x4 with symmetry`. A values file records it, and is refused
    /// ([`FileError::OtherGame`](crate::FileError::OtherGame), naming both) by a game
    /// whose identity differs: two games with the same identity must have the same
    /// positions, canonical forms, ranks and values.
    ///
    /// The default is the name of the type, so that a game written without it saves and
    /// reopens its files. That tells apart only different types (with names as the
    /// compiler gives them, which may change between compiler versions: a file is then
    /// refused, never misread); two values of one type with other parameters but the same
    /// start position are not told apart, so a game with parameters should say them here.
    fn identity(&self) -> String {
        std::any::type_name::<Self>().to_owned()
    }

    /// The version of the game's numbering of positions: the packed
    /// [`Position`](Game::Position) values and the [`rank`](Game::rank)s, which a values
    /// file stores. A values file records it and is refused by a game whose numbering
    /// differs; a game raises it whenever positions or ranks change their meaning. 0 by
    /// default.
    fn numbering(&self) -> u32 {
        0
    }
}
