//! Engines: a game's rules and the values of its positions behind one object-safe trait,
//! whatever the game and wherever the values come from.

mod graph;
mod tab;

pub use self::graph::graph;
pub use self::tab::{MAX_PLAYED_TAB_ROWS, TabPlayError, tab};

use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Mutex;

use gamegraph_game::tier::{TierError, TierValues, Tiered};
use gamegraph_game::{
    Board, ExploreConfig, ExploreError, FileError, Game, ParseError, PositionValue, QueryError,
    SolvedGame, Terminal, ValuesFile,
};

/// A position of any game, packed into 128 bits (every shipped game's positions fit).
pub type Pos = u128;

/// A game's rules and the values of its positions, with positions as [`Pos`]: what a play
/// session, a server or a binding holds without knowing the game's type.
pub trait Engine: Send + Sync {
    /// The game's identity ([`Game::identity`]).
    fn identity(&self) -> String;
    /// The start position.
    fn start(&self) -> Pos;
    /// The positions after each legal move from `p` (nothing when the game is over).
    fn moves(&self, p: Pos) -> Vec<Pos>;
    /// The value for the player to move at a finished position.
    fn terminal(&self, p: Pos) -> Terminal;
    /// The representative of `p`'s class.
    fn canonical(&self, p: Pos) -> Pos;
    /// The text of `p`.
    fn show(&self, p: Pos) -> String;
    /// Reads a position's text.
    ///
    /// # Errors
    /// The game's [`ParseError`].
    fn parse(&self, text: &str) -> Result<Pos, ParseError>;
    /// The name of the move from `from` to `to`, if the game names moves.
    fn move_name(&self, from: Pos, to: Pos) -> Option<String>;
    /// A picture of `p`, if the game gives one.
    fn board(&self, p: Pos) -> Option<Board>;
    /// The value of `p` and of every move from it, best first.
    ///
    /// # Errors
    /// A [`LookupError`] when `p` is not reachable from the start, or the values cannot be
    /// read.
    fn query(&self, p: Pos) -> Result<PositionValue<Pos>, LookupError>;
}

/// Why a value could not be looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupError {
    message: String,
}

impl LookupError {
    pub(crate) fn new(message: impl Into<String>) -> LookupError {
        LookupError { message: message.into() }
    }
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LookupError {}

/// Where the values of a game's positions come from.
trait Values<G: Game>: Send + Sync {
    fn game(&self) -> &G;
    fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, LookupError>;
}

impl<G: Game + Send> Values<G> for SolvedGame<G> {
    fn game(&self) -> &G {
        SolvedGame::game(self)
    }

    fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, LookupError> {
        match SolvedGame::query(self, p) {
            Ok(value) => Ok(Some(value)),
            Err(QueryError::Unreachable { .. }) => Ok(None),
            Err(e) => Err(LookupError::new(e.to_string())),
        }
    }
}

/// A values file read a block at a time; queries take turns on the reader.
struct FromFile<G: Game> {
    game: G,
    file: Mutex<ValuesFile<G, BufReader<File>>>,
}

impl<G: Game + Send + Sync> Values<G> for FromFile<G>
where
    G::Position: Into<u128>,
{
    fn game(&self) -> &G {
        &self.game
    }

    fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, LookupError> {
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        file.query(p).map_err(|e| LookupError::new(e.to_string()))
    }
}

impl<G> Values<G> for TierValues<G>
where
    G: Tiered + Send + Sync,
{
    fn game(&self) -> &G {
        TierValues::game(self)
    }

    fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, LookupError> {
        TierValues::query(self, p).map_err(|e| LookupError::new(e.to_string()))
    }
}

/// An [`Engine`] over a game of type `G` and a source of its values.
struct Erased<G: Game, V> {
    values: V,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G, V> Erased<G, V>
where
    G: Game,
    G::Position: Into<u128> + TryFrom<u128>,
    V: Values<G>,
{
    fn game(&self) -> &G {
        self.values.game()
    }

    /// The game's position for `p`; `p` always comes from this game, so it fits.
    fn pos(p: Pos) -> G::Position {
        G::Position::try_from(p).unwrap_or_else(|_| panic!("position {p} is not of this game"))
    }
}

impl<G, V> Engine for Erased<G, V>
where
    G: Game,
    G::Position: Into<u128> + TryFrom<u128>,
    V: Values<G>,
{
    fn identity(&self) -> String {
        self.game().identity()
    }

    fn start(&self) -> Pos {
        self.game().start().into()
    }

    fn moves(&self, p: Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        self.game().moves(Self::pos(p), &mut out);
        out.into_iter().map(Into::into).collect()
    }

    fn terminal(&self, p: Pos) -> Terminal {
        self.game().terminal(Self::pos(p))
    }

    fn canonical(&self, p: Pos) -> Pos {
        self.game().canonical(Self::pos(p)).into()
    }

    fn show(&self, p: Pos) -> String {
        self.game().show(Self::pos(p))
    }

    fn parse(&self, text: &str) -> Result<Pos, ParseError> {
        self.game().parse(text).map(Into::into)
    }

    fn move_name(&self, from: Pos, to: Pos) -> Option<String> {
        self.game().move_name(Self::pos(from), Self::pos(to))
    }

    fn board(&self, p: Pos) -> Option<Board> {
        self.game().board(Self::pos(p))
    }

    fn query(&self, p: Pos) -> Result<PositionValue<Pos>, LookupError> {
        let value = self.values.query(Self::pos(p))?.ok_or_else(|| {
            LookupError::new(format!("{} is not reachable from the start", self.show(p)))
        })?;
        Ok(value.map(Into::into))
    }
}

impl<G: Game + Send> Values<G> for &SolvedGame<G> {
    fn game(&self) -> &G {
        SolvedGame::game(self)
    }

    fn query(&self, p: G::Position) -> Result<Option<PositionValue<G::Position>>, LookupError> {
        Values::query(*self, p)
    }
}

/// An engine over a game solved in memory, borrowed: for a session held as long as the
/// solved game (a binding's object that owns it).
pub fn borrowed<G>(solved: &SolvedGame<G>) -> Box<dyn Engine + '_>
where
    G: Game + Send,
    G::Position: Into<u128> + TryFrom<u128>,
{
    Box::new(Erased { values: solved, _game: std::marker::PhantomData })
}

/// An engine over a game explored and solved in memory.
pub fn solved<G>(solved: SolvedGame<G>) -> Box<dyn Engine>
where
    G: Game + Send + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    Box::new(Erased { values: solved, _game: std::marker::PhantomData })
}

/// Explores and solves `game` on the current rayon pool, as an engine.
///
/// # Errors
/// The explorer's error (too many positions, a broken contract).
pub fn solve<G>(game: G, config: &ExploreConfig) -> Result<Box<dyn Engine>, ExploreError>
where
    G: Game + Send + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    Ok(solved(SolvedGame::new(game, config)?))
}

/// An engine answering from the values file at `path` (written by
/// [`SolvedGame::save`]), which must be of `game`.
///
/// # Errors
/// The file cannot be opened, or is not a values file of this game.
pub fn open_values<G>(game: G, path: &Path) -> Result<Box<dyn Engine>, FileError>
where
    G: Game + Clone + Send + Sync + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    let file = File::open(path)?;
    let file = ValuesFile::open(game.clone(), BufReader::new(file))?;
    Ok(Box::new(Erased {
        values: FromFile { game, file: Mutex::new(file) },
        _game: std::marker::PhantomData,
    }))
}

/// A [`Visit`](crate::Visit) that explores and solves the game a
/// [`Spec`](crate::Spec) names: `spec.visit(Solve(config))`.
#[derive(Debug, Clone, Default)]
pub struct Solve(pub ExploreConfig);

impl crate::Visit for Solve {
    type Output = Result<Box<dyn Engine>, ExploreError>;

    fn visit<G>(self, game: G) -> Self::Output
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::Position: Into<u128> + TryFrom<u128>,
    {
        solve(game, &self.0)
    }
}

/// Why solved values could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// A values file of `solve --explicit -o` (or [`SolvedGame::save`]).
    File(FileError),
    /// A directory of `solve -o` (the tier solver).
    Tiers(TierError),
    /// Values of a game the registry does not ship, by its identity.
    NotShipped(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::File(e) => e.fmt(f),
            OpenError::Tiers(e) => e.fmt(f),
            OpenError::NotShipped(identity) => {
                write!(f, "the values of {identity:?}, not of a game `gamegraph game list` names")
            }
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::File(e) => Some(e),
            OpenError::Tiers(e) => Some(e),
            OpenError::NotShipped(_) => None,
        }
    }
}

/// An engine answering from the solved values at `path` of `game`: a directory the tier
/// solver wrote, or a values file.
///
/// # Errors
/// The values cannot be opened, or are of another game.
pub fn open<G>(game: G, path: &Path) -> Result<Box<dyn Engine>, OpenError>
where
    G: Tiered + Clone + Send + Sync + 'static,
    G::Position: Into<u128> + TryFrom<u128>,
{
    if path.is_dir() {
        let values = TierValues::open(game, path).map_err(OpenError::Tiers)?;
        Ok(Box::new(Erased { values, _game: std::marker::PhantomData }))
    } else {
        open_values(game, path).map_err(OpenError::File)
    }
}

/// The shipped game whose solved values are at `path` (a directory of tiers or a values
/// file), known by the identity they record.
///
/// # Errors
/// The values cannot be read, or are of a game the registry does not ship.
pub fn game_at(path: &Path) -> Result<crate::Spec, OpenError> {
    let identity = if path.is_dir() {
        gamegraph_game::tier::tiers_identity(path).map_err(OpenError::Tiers)?
    } else {
        let file = File::open(path).map_err(|e| OpenError::File(FileError::from(e)))?;
        gamegraph_game::stored_identity(BufReader::new(file)).map_err(OpenError::File)?
    };
    crate::Spec::from_identity(&identity).ok_or(OpenError::NotShipped(identity))
}

/// A [`Visit`](crate::Visit) that opens the solved values at a path (a directory of tiers
/// or a values file) for the game a [`Spec`](crate::Spec) names: `spec.visit(Open(path))`.
#[derive(Debug, Clone, Copy)]
pub struct Open<'a>(pub &'a Path);

impl crate::Visit for Open<'_> {
    type Output = Result<Box<dyn Engine>, OpenError>;

    fn visit<G>(self, game: G) -> Self::Output
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::Position: Into<u128> + TryFrom<u128>,
    {
        open(game, self.0)
    }
}
