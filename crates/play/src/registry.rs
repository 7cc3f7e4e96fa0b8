//! The registry: every shipped game by name, with the one syntax of its arguments.

use std::fmt;

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, Quixo, TabBoard, TicTacToe};
use gamegraph_game::tier::Tiered;
use gamegraph_grundy::octal::OctalCode;
use serde::Serialize;

/// A shipped game as the registry lists it (`gamegraph game list`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The name the game is called by.
    pub name: &'static str,
    /// Its arguments, after the name.
    pub arguments: &'static str,
    /// What the game is, in one line.
    pub about: &'static str,
    /// How a position is written.
    pub notation: &'static str,
    /// How a move is named.
    pub moves: &'static str,
    /// Arguments of a small instance, after the name: `--cols 5 --rows 4`.
    pub example: &'static str,
}

/// Every shipped game, in the order `game list` prints them.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "tic-tac-toe",
        arguments: "[--no-symmetry]",
        about: "tic-tac-toe on 3 × 3: three in a row wins, a full board is a tie",
        notation: "the rows from the top separated by /, each of X, O and .: XO./.X./..O",
        moves: "the cell marked, column a to c and row 1 to 3 from the bottom: b2",
        example: "",
    },
    Entry {
        name: "connect-four",
        arguments: "--cols W --rows H [--no-symmetry]",
        about: "Connect Four on W × H: four in a line wins, a full board is a tie",
        notation: "the rows from the top separated by /, each W cells of X, O and .: ..../..../.O../.XX.",
        moves: "the column the stone drops in, from 1 on the left: column 4 (or 4)",
        example: "--cols 5 --rows 4",
    },
    Entry {
        name: "kayles",
        arguments: "ROWS",
        about: "Kayles (octal 0.77) on rows of pins: take one pin or two adjacent ones",
        notation: "the row lengths separated by spaces, longest first: 7 3 3 1 (0 for none)",
        moves: "the row and what is left of it: take 2 from 7 leaving 2 3",
        example: "4,7",
    },
    Entry {
        name: "dawsons-kayles",
        arguments: "ROWS",
        about: "Dawson's Kayles (octal 0.07) on rows of pins: take two adjacent pins",
        notation: "the row lengths separated by spaces, longest first: 7 3 3 1 (0 for none)",
        moves: "the row and what is left of it: take 2 from 7 leaving 2 3",
        example: "10",
    },
    Entry {
        name: "octal",
        arguments: "CODE ROWS",
        about: "any octal game on rows of pins, such as 0.137",
        notation: "the row lengths separated by spaces, longest first: 7 3 3 1 (0 for none)",
        moves: "the row and what is left of it: take 2 from 7 leaving 2 3",
        example: "0.137 9",
    },
    Entry {
        name: "quixo",
        arguments: "SIDE [--no-symmetry]",
        about: "Quixo on SIDE × SIDE cubes (3 to 5): take a cube from the edge, push it back in",
        notation: "the rows from the top separated by /, each SIDE cells of X, O and ., then x or o for who moves: X.../..../..O./.... x",
        moves: "the cube taken and the cell it goes in at: a1-e1",
        example: "3",
    },
    Entry {
        name: "chase",
        arguments: "CELLS [--no-symmetry]",
        about: "a cat chases a mouse round a ring of CELLS cells; most positions are draws",
        notation: "the ring from cell 0 (C the cat, M the mouse, . empty), then c or m for who moves: C..M.. c",
        moves: "the cell stepped to: to 5 (or 5); stay, for the mouse",
        example: "12",
    },
    Entry {
        name: "tab",
        arguments: "ROWS COLS X,Y",
        about: "the tab board: a piece climbs from cell (X, Y); a move to column K goes up K rows",
        notation: "the row and the column of the piece: 5 3",
        moves: "the column the piece moves to: column 3 (or 3)",
        example: "20 6 1,1",
    },
];

/// A shipped game with its arguments: what `NAME ARGS…` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// `tic-tac-toe [--no-symmetry]`.
    TicTacToe {
        /// Whether symmetric boards are one position.
        symmetry: bool,
    },
    /// `connect-four --cols W --rows H [--no-symmetry]`.
    ConnectFour {
        /// Columns.
        cols: u32,
        /// Rows.
        rows: u32,
        /// Whether mirror images are one position.
        symmetry: bool,
    },
    /// `kayles ROWS`, `dawsons-kayles ROWS` or `octal CODE ROWS`.
    Octal {
        /// The rules.
        code: OctalCode,
        /// The lengths of the start's rows.
        rows: Vec<u32>,
    },
    /// `quixo SIDE [--no-symmetry]`.
    Quixo {
        /// The side of the board.
        side: u32,
        /// Whether symmetric boards are one position.
        symmetry: bool,
    },
    /// `chase CELLS [--no-symmetry]`.
    Chase {
        /// The cells of the ring.
        cells: u32,
        /// Whether rotations and reflections are one position.
        symmetry: bool,
    },
    /// `tab ROWS COLS X,Y`.
    Tab {
        /// Rows of the board.
        rows: u64,
        /// Columns of the board.
        cols: u32,
        /// The start cell (row, column), from 1.
        at: (u64, u32),
    },
}

/// Why `NAME ARGS…` names no game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    message: String,
}

impl SpecError {
    fn new(message: impl Into<String>) -> SpecError {
        SpecError { message: message.into() }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

/// What a [`Spec`] gives a visitor: a game with tiers, owned, whose positions fit `u128`.
pub trait Visit {
    /// What the visit gives.
    type Output;
    /// Called with the game `spec` names.
    fn visit<G>(self, game: G) -> Self::Output
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::Position: Into<u128> + TryFrom<u128>;
}

impl Spec {
    /// Reads `NAME ARGS…` as `gamegraph game` takes them: `connect-four --cols 5 --rows
    /// 4`, `kayles 4,7`, `tab 20 6 1,1`. Options may also be written `--cols=5`; row
    /// lengths as `4,7` or `"4 7"`.
    ///
    /// # Errors
    /// A [`SpecError`] saying what was expected, for an unknown name, a missing, extra or
    /// malformed argument, or a game its constructor refuses.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Spec, SpecError> {
        let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
        let Some((&name, rest)) = words.split_first() else {
            return Err(SpecError::new(format!("expected the name of a game: {}", names())));
        };
        let entry = ENTRIES.iter().find(|e| e.name == name).ok_or_else(|| {
            SpecError::new(format!("{} is not a game; the games are {}", quoted(name), names()))
        })?;
        let mut args = Args::read(entry, rest)?;
        let spec = match name {
            "tic-tac-toe" => Spec::TicTacToe { symmetry: !args.flag("--no-symmetry") },
            "connect-four" => Spec::ConnectFour {
                cols: args.option("--cols")?,
                rows: args.option("--rows")?,
                symmetry: !args.flag("--no-symmetry"),
            },
            "kayles" | "dawsons-kayles" => Spec::Octal {
                code: if name == "kayles" { "0.77" } else { "0.07" }.parse().expect("a code"),
                rows: rows(&args.positional("ROWS")?)?,
            },
            "octal" => {
                let code = args.positional("CODE")?;
                let code = code.parse().map_err(|e| SpecError::new(format!("CODE: {e}")))?;
                Spec::Octal { code, rows: rows(&args.positional("ROWS")?)? }
            }
            "quixo" => Spec::Quixo {
                side: number(&args.positional("SIDE")?, "SIDE")?,
                symmetry: !args.flag("--no-symmetry"),
            },
            "chase" => Spec::Chase {
                cells: number(&args.positional("CELLS")?, "CELLS")?,
                symmetry: !args.flag("--no-symmetry"),
            },
            "tab" => {
                let rows = number(&args.positional("ROWS")?, "ROWS")?;
                let cols = number(&args.positional("COLS")?, "COLS")?;
                let at = args.positional("X,Y")?;
                let (x, y) = at.split_once(',').ok_or_else(|| {
                    SpecError::new(format!(
                        "X,Y: expected the start cell as 4,3, found {}",
                        quoted(&at)
                    ))
                })?;
                Spec::Tab { rows, cols, at: (number(x.trim(), "X")?, number(y.trim(), "Y")?) }
            }
            _ => unreachable!("every entry has a case"),
        };
        args.finish(entry)?;
        spec.check()?;
        Ok(spec)
    }

    /// The game whose [`identity`](gamegraph_game::Game::identity) is `identity`, as a
    /// values file or a directory of tiers records it: `connect-four 5x4 with symmetry`
    /// gives `connect-four --cols 5 --rows 4`. `None` for a game the registry does not
    /// ship (such as a game explored in Python, `python NAME`).
    pub fn from_identity(identity: &str) -> Option<Spec> {
        let mut words: Vec<&str> = identity.split(' ').collect();
        let mut no_symmetry = false;
        if let [.., with, "symmetry"] = words[..] {
            no_symmetry = match with {
                "with" => false,
                "without" => true,
                _ => return None,
            };
            words.truncate(words.len() - 2);
        }
        let (&name, rest) = words.split_first()?;
        let mut guess = vec![name];
        match (name, rest) {
            ("connect-four", [size]) => {
                let (cols, rows) = size.split_once('x')?;
                guess.extend(["--cols", cols, "--rows", rows]);
            }
            ("quixo", [size]) => guess.push(size.split_once('x')?.0),
            ("tab", [size, "from", at]) => {
                let (rows, cols) = size.split_once('x')?;
                guess.extend([rows, cols, at]);
            }
            _ => guess.extend(rest),
        }
        if no_symmetry {
            guess.push("--no-symmetry");
        }
        let spec = Spec::parse(&guess).ok()?;
        (spec.identity() == identity).then_some(spec)
    }

    /// The identity of the game, as its values files record it.
    pub fn identity(&self) -> String {
        struct Identity;
        impl Visit for Identity {
            type Output = String;
            fn visit<G>(self, game: G) -> String
            where
                G: Tiered + Clone + Send + Sync + 'static,
                G::Position: Into<u128> + TryFrom<u128>,
            {
                game.identity()
            }
        }
        self.visit(Identity).expect("a parsed game is built")
    }

    /// The entry of the game's name.
    pub fn entry(&self) -> &'static Entry {
        let name = match self {
            Spec::TicTacToe { .. } => "tic-tac-toe",
            Spec::ConnectFour { .. } => "connect-four",
            Spec::Octal { code, .. } => match code.to_string().as_str() {
                "0.77" => "kayles",
                "0.07" => "dawsons-kayles",
                _ => "octal",
            },
            Spec::Quixo { .. } => "quixo",
            Spec::Chase { .. } => "chase",
            Spec::Tab { .. } => "tab",
        };
        ENTRIES.iter().find(|e| e.name == name).expect("every game has an entry")
    }

    /// The name and arguments that [`parse`](Spec::parse) reads back as this game.
    pub fn words(&self) -> Vec<String> {
        let mut w = vec![self.entry().name.to_owned()];
        let symmetric = |w: &mut Vec<String>, on: bool| {
            if !on {
                w.push("--no-symmetry".into());
            }
        };
        match self {
            Spec::TicTacToe { symmetry } => symmetric(&mut w, *symmetry),
            Spec::ConnectFour { cols, rows, symmetry } => {
                w.extend(["--cols".into(), cols.to_string(), "--rows".into(), rows.to_string()]);
                symmetric(&mut w, *symmetry);
            }
            Spec::Octal { code, rows } => {
                if w[0] == "octal" {
                    w.push(code.to_string());
                }
                let rows: Vec<String> = rows.iter().map(u32::to_string).collect();
                w.push(if rows.is_empty() { "0".into() } else { rows.join(",") });
            }
            Spec::Quixo { side, symmetry } => {
                w.push(side.to_string());
                symmetric(&mut w, *symmetry);
            }
            Spec::Chase { cells, symmetry } => {
                w.push(cells.to_string());
                symmetric(&mut w, *symmetry);
            }
            Spec::Tab { rows, cols, at: (x, y) } => {
                w.extend([rows.to_string(), cols.to_string(), format!("{x},{y}")]);
            }
        }
        w
    }

    /// Builds the game and hands it to `v`.
    ///
    /// # Errors
    /// The constructor's refusal (a board too large, a cell off the board, …).
    pub fn visit<V: Visit>(&self, v: V) -> Result<V::Output, SpecError> {
        let refused = |e: &dyn fmt::Display| SpecError::new(format!("{}: {e}", self.entry().name));
        Ok(match self {
            &Spec::TicTacToe { symmetry } => {
                v.visit(if symmetry { TicTacToe::new() } else { TicTacToe::without_symmetry() })
            }
            &Spec::ConnectFour { cols, rows, symmetry } => {
                let game = if symmetry {
                    ConnectFour::new(cols, rows)
                } else {
                    ConnectFour::without_symmetry(cols, rows)
                };
                v.visit(game.map_err(|e| refused(&e))?)
            }
            Spec::Octal { code, rows } => {
                v.visit(OctalRows::new(code.clone(), rows).map_err(|e| refused(&e))?)
            }
            &Spec::Quixo { side, symmetry } => {
                let game = if symmetry { Quixo::new(side) } else { Quixo::without_symmetry(side) };
                v.visit(game.map_err(|e| refused(&e))?)
            }
            &Spec::Chase { cells, symmetry } => {
                let game =
                    if symmetry { Chase::new(cells) } else { Chase::without_symmetry(cells) };
                v.visit(game.map_err(|e| refused(&e))?)
            }
            &Spec::Tab { rows, cols, at: (x, y) } => {
                v.visit(TabBoard::new(rows, cols, x, y).map_err(|e| refused(&e))?)
            }
        })
    }

    /// Whether the constructor takes the arguments (the game is built and dropped).
    fn check(&self) -> Result<(), SpecError> {
        struct Drop;
        impl Visit for Drop {
            type Output = ();
            fn visit<G>(self, _: G)
            where
                G: Tiered + Clone + Send + Sync + 'static,
                G::Position: Into<u128> + TryFrom<u128>,
            {
            }
        }
        self.visit(Drop)
    }
}

/// `NAME ARGS…` as [`Spec::words`] gives them, joined by spaces.
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words().join(" "))
    }
}

/// The names of the games, for messages.
fn names() -> String {
    ENTRIES.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
}

fn quoted(s: &str) -> String {
    let short: String = s.chars().take(40).collect();
    format!("'{short}{}'", if short.len() < s.len() { "…" } else { "" })
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, SpecError> {
    text.parse()
        .map_err(|_| SpecError::new(format!("{what}: expected a number, found {}", quoted(text))))
}

/// Row lengths as `4,7` or `4 7`.
fn rows(text: &str) -> Result<Vec<u32>, SpecError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse().map_err(|_| {
                SpecError::new(format!("ROWS: {} is not a row length (0 to 2^32 - 1)", quoted(t)))
            })
        })
        .collect()
}

/// The words after a game's name, split into options and positionals.
struct Args<'a> {
    options: Vec<(&'a str, Option<String>)>,
    positionals: std::collections::VecDeque<&'a str>,
}

impl<'a> Args<'a> {
    /// Splits `words` by the options `entry` takes (a `--flag`, or `--name VALUE`).
    fn read(entry: &Entry, words: &[&'a str]) -> Result<Args<'a>, SpecError> {
        let takes = |o: &str| {
            entry.arguments.split(['[', ']', ' ']).position(|w| w == o).map(|i| {
                let after = entry.arguments.split(['[', ']', ' ']).nth(i + 1);
                after.is_some_and(|a| !a.is_empty() && !a.starts_with('-'))
            })
        };
        let mut args = Args { options: Vec::new(), positionals: Default::default() };
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            i += 1;
            if !w.starts_with("--") {
                args.positionals.push_back(w);
                continue;
            }
            let (name, inline) = match w.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (w, None),
            };
            let unknown = || {
                SpecError::new(format!(
                    "{} takes no option {}; its arguments are {} {}",
                    entry.name,
                    quoted(name),
                    entry.name,
                    entry.arguments
                ))
            };
            let name = ["--cols", "--rows", "--no-symmetry"]
                .into_iter()
                .find(|&o| o == name)
                .ok_or_else(unknown)?;
            let value = match (takes(name).ok_or_else(unknown)?, inline) {
                (true, Some(v)) => Some(v),
                (true, None) => {
                    let v = words.get(i).ok_or_else(|| {
                        SpecError::new(format!(
                            "{name} needs a value: {} {}",
                            entry.name, entry.arguments
                        ))
                    })?;
                    i += 1;
                    Some((*v).to_owned())
                }
                (false, Some(_)) => {
                    return Err(SpecError::new(format!("{name} takes no value")));
                }
                (false, None) => None,
            };
            if args.options.iter().any(|(n, _)| *n == name) {
                return Err(SpecError::new(format!("{name} is given twice")));
            }
            args.options.push((name, value));
        }
        Ok(args)
    }

    fn flag(&mut self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    fn option<T: std::str::FromStr>(&mut self, name: &str) -> Result<T, SpecError> {
        match self.options.iter().find(|(n, _)| *n == name) {
            Some((_, Some(v))) => number(v, name),
            _ => Err(SpecError::new(format!("{name} is missing"))),
        }
    }

    fn positional(&mut self, what: &str) -> Result<String, SpecError> {
        self.positionals
            .pop_front()
            .map(str::to_owned)
            .ok_or_else(|| SpecError::new(format!("{what} is missing")))
    }

    fn finish(self, entry: &Entry) -> Result<(), SpecError> {
        match self.positionals.front() {
            Some(extra) => Err(SpecError::new(format!(
                "unexpected {}: {} takes {}",
                quoted(extra),
                entry.name,
                if entry.arguments.is_empty() { "no arguments" } else { entry.arguments }
            ))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Spec, String> {
        Spec::parse(&line.split(' ').collect::<Vec<_>>()).map_err(|e| e.to_string())
    }

    #[test]
    fn every_example_reads_and_prints_back() {
        for e in ENTRIES {
            let line = format!("{} {}", e.name, e.example);
            let spec = parse(line.trim()).unwrap();
            assert_eq!(spec.entry().name, e.name);
            assert_eq!(spec.to_string(), line.trim(), "{line}");
            assert_eq!(Spec::parse(&spec.words()).unwrap(), spec);
        }
    }

    #[test]
    fn options_and_symmetry() {
        assert_eq!(
            parse("connect-four --rows=4 --cols 5 --no-symmetry"),
            Ok(Spec::ConnectFour { cols: 5, rows: 4, symmetry: false })
        );
        assert_eq!(parse("tic-tac-toe"), Ok(Spec::TicTacToe { symmetry: true }));
        assert_eq!(parse("tab 20 6 1,1"), Ok(Spec::Tab { rows: 20, cols: 6, at: (1, 1) }));
        assert_eq!(parse("kayles 4,7").unwrap().to_string(), "kayles 4,7");
        assert_eq!(parse("octal 0.77 4,7").unwrap().to_string(), "kayles 4,7");
    }

    #[test]
    fn bad_words_say_what_was_expected() {
        let cases = [
            (
                "",
                "'' is not a game; the games are tic-tac-toe, connect-four, kayles, dawsons-kayles, octal, quixo, chase, tab",
            ),
            ("connect-four", "--cols is missing"),
            ("connect-four --cols 5", "--rows is missing"),
            ("connect-four --cols 5x4 --rows 4", "--cols: expected a number, found '5x4'"),
            (
                "connect-four --cols",
                "--cols needs a value: connect-four --cols W --rows H [--no-symmetry]",
            ),
            ("connect-four --cols 5 --rows 4 --cols 6", "--cols is given twice"),
            ("connect-four --cols 9 --rows 9", "connect-four: a 9 × 9 board needs 90 bits"),
            ("tic-tac-toe 3", "unexpected '3': tic-tac-toe takes [--no-symmetry]"),
            (
                "tic-tac-toe --cols 3",
                "tic-tac-toe takes no option '--cols'; its arguments are tic-tac-toe [--no-symmetry]",
            ),
            ("kayles", "ROWS is missing"),
            ("kayles 4,x", "ROWS: 'x' is not a row length (0 to 2^32 - 1)"),
            ("tab 20 6 11", "X,Y: expected the start cell as 4,3, found '11'"),
            ("chase 2", "chase: "),
            ("octal 0.9 3", "CODE: "),
        ];
        for (line, want) in cases {
            let got = parse(line).unwrap_err();
            assert!(got.starts_with(want), "{line}: {got}");
        }
    }
}
