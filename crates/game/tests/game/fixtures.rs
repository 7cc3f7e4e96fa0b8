//! The shipped games in `fixtures/game/`: each file names a game and positions to ask about;
//! the solve is certified from the rules (every position's value against its moves), then
//! a snapshot records what it says: the counts, the start and its moves, the positions
//! asked about and a random game played from the start.

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, Quixo, TabBoard, TicTacToe};
use gamegraph_game::{ExploreConfig, Game, PositionValue, SolvedGame, Table, verify};
use gamegraph_grundy::octal::OctalCode;
use gamegraph_testkit::SplitMix64;

/// The plies of the random game each snapshot plays from the start.
const PLAYOUT: usize = 12;

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("game", "*.txt", |path, text| {
        let input = Input::read(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        [("values", input.report())]
    });
}

/// A fixture file: `game NAME ARGS…` (and `no-symmetry`) on one line, then any number of
/// `position NOTATION` lines; `#` starts a comment line.
struct Input {
    name: String,
    args: Vec<String>,
    symmetry: bool,
    positions: Vec<String>,
}

impl Input {
    fn read(text: &str) -> Result<Input, String> {
        let mut game = None;
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("game ") {
                let mut words: Vec<String> = rest.split_whitespace().map(str::to_owned).collect();
                let symmetry = match words.iter().position(|w| w == "no-symmetry") {
                    Some(k) => {
                        words.remove(k);
                        false
                    }
                    None => true,
                };
                if words.is_empty() {
                    return Err(format!("line {}: a game needs a name", i + 1));
                }
                let name = words.remove(0);
                game = Some((name, words, symmetry));
            } else if let Some(p) = line.strip_prefix("position ") {
                positions.push(p.to_owned());
            } else {
                return Err(format!("line {}: expected `game …` or `position …`", i + 1));
            }
        }
        let (name, args, symmetry) = game.ok_or("no `game` line")?;
        Ok(Input { name, args, symmetry, positions })
    }

    fn number<T: std::str::FromStr>(&self, i: usize) -> T {
        let arg =
            self.args.get(i).unwrap_or_else(|| panic!("{}: argument {} missing", self.name, i + 1));
        arg.parse().unwrap_or_else(|_| panic!("{}: argument {arg:?} is not a number", self.name))
    }

    fn report(&self) -> String {
        let s = self.symmetry;
        match self.name.as_str() {
            "tic-tac-toe" => {
                self.solve(if s { TicTacToe::new() } else { TicTacToe::without_symmetry() })
            }
            "connect-four" => {
                let (w, h) = (self.number(0), self.number(1));
                let game =
                    if s { ConnectFour::new(w, h) } else { ConnectFour::without_symmetry(w, h) };
                self.solve(game.unwrap())
            }
            "chase" => {
                let n = self.number(0);
                self.solve(if s { Chase::new(n) } else { Chase::without_symmetry(n) }.unwrap())
            }
            "quixo" => {
                let n = self.number(0);
                self.solve(if s { Quixo::new(n) } else { Quixo::without_symmetry(n) }.unwrap())
            }
            "octal" => {
                let code: OctalCode = self.args[0].parse().expect("an octal code");
                let rows: Vec<u32> = (1..self.args.len()).map(|i| self.number(i)).collect();
                self.solve(OctalRows::new(code, &rows).unwrap())
            }
            "tab" => {
                let game =
                    TabBoard::new(self.number(0), self.number(1), self.number(2), self.number(3));
                self.solve(game.unwrap())
            }
            other => panic!("no game {other}"),
        }
    }

    /// Solves `game`, certifies every position's value from its moves, and describes it.
    fn solve<G: Game>(&self, game: G) -> String {
        let solved = SolvedGame::new(game, &ExploreConfig::default()).unwrap();
        let (game, g) = (solved.game(), solved.graph());
        let positions = solved.positions();
        let table = Table::of(solved.solution(), g);
        verify(g, |v| game.terminal(positions[v.index()]), &table)
            .unwrap_or_else(|e| panic!("{}: {e}", game.identity()));
        let c = solved.solution().counts();
        let mut out = format!(
            "{}\n{} positions, {} moves: win {}, loss {}, tie {}, draw {}\n",
            game.identity(),
            solved.len(),
            solved.num_moves(),
            c.win,
            c.loss,
            c.tie,
            c.draw
        );
        out.push_str("\nthe start and its moves\n");
        let start = solved.query(game.start()).unwrap();
        describe(game, &start, true, &mut out);
        if !self.positions.is_empty() {
            out.push_str("\npositions\n");
        }
        for p in &self.positions {
            let q = solved.query_str(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            describe(game, &q, true, &mut out);
        }
        out.push_str(&format!("\na random game of at most {PLAYOUT} plies\n"));
        let mut rng = SplitMix64::new(0x6A3E_F1C5);
        let mut q = start;
        for _ in 0..PLAYOUT {
            describe(game, &q, false, &mut out);
            if q.moves.is_empty() {
                break;
            }
            let pick = &q.moves[rng.below(q.moves.len() as u64) as usize];
            q = solved.query(pick.position).unwrap();
        }
        out
    }
}

/// One line for a position's value, then one for each of its moves if `moves`.
fn describe<G: Game>(game: &G, q: &PositionValue<G::Position>, moves: bool, out: &mut String) {
    out.push_str(&format!("{}: {}\n", game.show(q.position), value(q.outcome, q.remoteness)));
    if moves {
        for m in &q.moves {
            let v = value(m.outcome, m.remoteness);
            out.push_str(&format!("  to {}: {v} for the mover\n", game.show(m.position)));
        }
    }
}

fn value(outcome: gamegraph_game::Outcome, remoteness: Option<u32>) -> String {
    match remoteness {
        Some(r) => format!("{} in {r}", outcome.word()),
        None => outcome.word().to_owned(),
    }
}
