//! `gamegraph play`: a game against perfect play in the terminal, moves read from standard
//! input one per line.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::Hash;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_graph::{Graph, Vertex};
use gamegraph_grundy::{HeapGame, Play, solve_heaps};
use gamegraph_retro::{Outcome, Solution, par_solve};
use gamegraph_tab::{Board, Cell, Config};

use crate::common::{CliError, GraphInput, Numbers, Output, read_graph, with_threads};

/// Arguments of `gamegraph play`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["file", "tab", "heaps", "game"]))]
#[command(after_help = "Moves are read from standard input, one per line: a vertex id (graph), \
a column (tab board), `take T from heap I` or `T I` (heaps), the number of a move in the list or \
the position it leads to (--game). `hint` shows the engine's advice, \
`quit` ends the game. The engine plays perfectly: the winner hurries, the loser delays, a draw \
is kept. A position that comes back with the same player to move ends the game as a draw.

Examples:
  gamegraph play fixtures/retro/seed.txt           # from the file's start vertex
  gamegraph play game.txt --start 4 --first engine # the engine moves first, from vertex 4
  gamegraph play --tab 10,4,4,3                    # the tab board 10 x 4 from cell (4,3)
  gamegraph play --heaps 5,7,9 --max 2,3,4         # heaps with take limits
  gamegraph play --heaps 1,1,4 --misere            # whoever takes the last object loses
  gamegraph play --heaps 3,5,6,9 --moore 2         # a move takes from up to 2 heaps: `1 1, 2 3`
  gamegraph play --game tic-tac-toe                # a move is the number in the list
  gamegraph play --game connect-four:5x4 --first engine
  printf '2\\n3\\n' | gamegraph play game.txt       # a whole game piped in")]
pub(crate) struct Args {
    /// The game graph to play on (standard input carries the moves, so a file is needed).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The start vertex (1-based; default: the file's start).
    #[arg(long, value_name = "V", requires = "file")]
    start: Option<u64>,
    #[command(flatten)]
    input: GraphInput,
    /// Play the tab board: N rows, M columns, from cell (X, Y) (row X from the bottom;
    /// commas or spaces).
    #[arg(long, value_name = "N,M,X,Y")]
    tab: Option<Numbers>,
    /// Play a sum of heaps of these sizes (commas or spaces: `5,7,9` or "5 7 9").
    #[arg(long, value_name = "N,N,...")]
    heaps: Option<Numbers>,
    /// With --heaps: the most objects a move may take from each heap, one list (default:
    /// no limit).
    #[arg(long, value_name = "M,M,...", requires = "heaps")]
    max: Option<Numbers>,
    /// With --heaps: misère play, whoever takes the last object loses.
    #[arg(long, requires = "heaps")]
    misere: bool,
    /// With --heaps: Moore's Nim_k, a move takes from 1 to K heaps (`take 1 from heap 1,
    /// take 2 from heap 3` or `1 1, 2 3`).
    #[arg(long, value_name = "K", requires = "heaps")]
    moore: Option<u64>,
    /// Play a game given by its rules: tic-tac-toe, connect-four:COLSxROWS, kayles:ROWS,
    /// dawsons-kayles:ROWS, chase:CELLS (see `gamegraph game list`).
    #[arg(long, value_name = "NAME[:ARGS]")]
    game: Option<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "me")]
    first: First,
    /// Threads for the graph solver (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum First {
    /// The player at the keyboard.
    Me,
    /// The engine.
    Engine,
}

/// A game the terminal can play: positions, the player's moves, the engine's moves.
trait Game {
    /// A position (with no player to move: the session tracks who moves).
    type Pos: Clone + Eq + Hash;
    /// The position, `who` is to move there, and the moves from it, for the player to read.
    fn describe(&self, p: &Self::Pos, who: &str) -> String;
    /// Whether the player to move has a move.
    fn has_move(&self, p: &Self::Pos) -> bool;
    /// The player's move read from `line`, or why it is not a legal move.
    fn parse_move(&self, p: &Self::Pos, line: &str) -> Result<Self::Pos, String>;
    /// The engine's move from `p` (which has a move) and how to say it.
    fn engine_move(&self, p: &Self::Pos) -> Result<(Self::Pos, String), CliError>;
    /// The engine's advice for the player to move at `p`.
    fn hint(&self, p: &Self::Pos) -> Result<String, CliError>;
    /// Whether the player who cannot move wins (misère heaps) rather than loses.
    fn no_move_wins(&self) -> bool {
        false
    }
    /// The closing line at `p`, which has no move, with the player (`me`) or the engine to
    /// move there.
    fn end(&self, p: &Self::Pos, me: bool) -> &'static str {
        let _ = p;
        match (me, self.no_move_wins()) {
            (true, false) => "the engine wins: you cannot move",
            (false, false) => "you win: the engine cannot move",
            (true, true) => "you win: the engine took the last object",
            (false, true) => "the engine wins: you took the last object",
        }
    }
}

/// Runs `gamegraph play`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let me_first = args.first == First::Me;
    let stdin = io::stdin().lock();
    let echo = !io::stdin().is_terminal();
    let out = Output::create(None)?;
    if let Some(spec) = &args.game {
        return rules_game(spec, args.threads, me_first, stdin, echo, out);
    }
    if let Some(Numbers(t)) = &args.tab {
        let (game, start) = TabGame::new(t)?;
        play(&game, start, me_first, stdin, echo, out)
    } else if let Some(Numbers(heaps)) = args.heaps {
        let game = HeapGame {
            heaps: heaps.clone(),
            limits: args.max.map(|l| l.0),
            play: if args.misere { Play::Misere } else { Play::Normal },
            moore: args.moore,
        };
        // Checks the limits once, with the library's own messages.
        solve_heaps(&game).map_err(|e| CliError::Usage(e.to_string()))?;
        play(&Heaps { game }, heaps, me_first, stdin, echo, out)
    } else {
        if args.file.as_deref() == Some(std::path::Path::new("-")) {
            return Err(CliError::Usage(
                "the moves come from standard input: give the graph as a file".into(),
            ));
        }
        let (file, _) = read_graph(args.file.as_deref(), &args.input)?;
        let graph = file.graph;
        let n = graph.num_vertices();
        let start = match args.start {
            Some(id) => Vertex::from_one_based(id)
                .filter(|v| v.index() < n)
                .ok_or_else(|| CliError::Usage(format!("--start {id} is outside 1..{n}")))?,
            None => file.start.ok_or_else(|| {
                CliError::Usage("the input has no start vertex: give one with --start V".into())
            })?,
        };
        let solution = with_threads(args.threads, || par_solve(&graph))?;
        play(&GraphGame { graph, solution }, start, me_first, stdin, echo, out)
    }
}

/// Plays one game: the player's moves come from `input` (copied to `out` when `echo`, as
/// no terminal shows them), everything else is written to `out`.
fn play<G: Game>(
    game: &G,
    start: G::Pos,
    me_first: bool,
    mut input: impl BufRead,
    echo: bool,
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let mut pos = start;
    let mut me = me_first;
    let mut seen = HashSet::new();
    let who = |me: bool| if me { "you" } else { "the engine" };
    loop {
        if !seen.insert((pos.clone(), me)) {
            writeln!(out, "{}", game.describe(&pos, who(me)))?;
            writeln!(out, "draw: the position repeats with {} to move", who(me))?;
            break;
        }
        writeln!(out, "{}", game.describe(&pos, who(me)))?;
        if !game.has_move(&pos) {
            writeln!(out, "{}", game.end(&pos, me))?;
            break;
        }
        if me {
            match read_move(game, &pos, &mut input, echo, &mut out)? {
                Some(next) => pos = next,
                None => {
                    writeln!(out, "game left unfinished")?;
                    break;
                }
            }
        } else {
            let (next, said) = game.engine_move(&pos)?;
            writeln!(out, "engine: {said}")?;
            pos = next;
        }
        me = !me;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Asks until the player gives a legal move; `None` when input ends or the player quits.
fn read_move<G: Game>(
    game: &G,
    pos: &G::Pos,
    input: &mut impl BufRead,
    echo: bool,
    out: &mut Output,
) -> Result<Option<G::Pos>, CliError> {
    let mut line = Vec::new();
    loop {
        write!(out, "your move: ")?;
        out.flush()?;
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            writeln!(out, "illegal move: the line is not UTF-8 text; try again")?;
            continue;
        };
        let text = text.trim();
        if echo {
            writeln!(out, "{text}")?;
        }
        match text {
            "" => continue,
            "quit" | "q" => return Ok(None),
            "hint" | "?" => writeln!(out, "hint: {}", game.hint(pos)?)?,
            _ => match game.parse_move(pos, text) {
                Ok(next) => return Ok(Some(next)),
                Err(why) => writeln!(out, "illegal move: {why}; try again")?,
            },
        }
    }
}

/// At most `max` items joined by ", ", with a count of the rest.
fn list<T: std::fmt::Display>(items: impl ExactSizeIterator<Item = T>, max: usize) -> String {
    let total = items.len();
    let mut s = String::new();
    for (i, x) in items.take(max).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{x}");
    }
    if total > max {
        let _ = write!(s, ", … ({total} in all)");
    }
    s
}

/// A token on a game graph.
struct GraphGame {
    graph: Graph,
    solution: Solution,
}

impl Game for GraphGame {
    type Pos = Vertex;

    fn describe(&self, &v: &Vertex, who: &str) -> String {
        let succ = self.graph.successors(v);
        let at = format!("at {} ({who} to move)", v.one_based());
        if succ.is_empty() {
            return format!("{at}: no move");
        }
        format!("{at}: moves {}", list(succ.iter().map(|w| w.one_based()), 20))
    }

    fn has_move(&self, &v: &Vertex) -> bool {
        !self.graph.successors(v).is_empty()
    }

    fn parse_move(&self, &v: &Vertex, line: &str) -> Result<Vertex, String> {
        let id: u64 = line.parse().map_err(|_| format!("`{}` is not a vertex id", short(line)))?;
        match Vertex::from_one_based(id).filter(|w| self.graph.successors(v).contains(w)) {
            Some(w) => Ok(w),
            None => Err(format!("there is no move from {} to {id}", v.one_based())),
        }
    }

    fn engine_move(&self, &v: &Vertex) -> Result<(Vertex, String), CliError> {
        let w = self.solution.best_move(v).expect("a position with a move has a best move");
        Ok((w, w.one_based().to_string()))
    }

    fn hint(&self, &v: &Vertex) -> Result<String, CliError> {
        let s = &self.solution;
        let best = s.best_move(v).map_or(0, |w| w.one_based());
        let depth = u64::from(s.depth(v).unwrap_or(0));
        Ok(match s.outcome(v) {
            Outcome::Win => format!("{best} wins in {}", plies(depth)),
            Outcome::Loss => format!("every move loses; {best} lasts longest ({})", plies(depth)),
            Outcome::Draw => format!("{best} keeps the draw"),
        })
    }
}

/// The piece on the tab board.
struct TabGame {
    board: Board,
    solution: gamegraph_tab::Solution,
}

impl TabGame {
    fn new(t: &[u64]) -> Result<(TabGame, Cell), CliError> {
        let bad = |e: &dyn std::fmt::Display| CliError::Usage(format!("--tab: {e}"));
        if t.len() != 4 {
            return Err(bad(&format!("expected four numbers N,M,X,Y, found {}", t.len())));
        }
        let cols = u32::try_from(t[1]).map_err(|_| bad(&"M is too large"))?;
        let y = u32::try_from(t[3]).map_err(|_| bad(&"Y is too large"))?;
        let board = Board::new(t[0], cols).map_err(|e| bad(&e))?;
        let cell = board.cell(t[2], y).map_err(|e| bad(&e))?;
        let solution = gamegraph_tab::solve(board, &Config::default(), &mut |_| {})
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok((TabGame { board, solution }, cell))
    }

    fn value(&self, c: Cell) -> Result<gamegraph_tab::Value, CliError> {
        self.solution.value(c).map_err(|e| CliError::Usage(e.to_string()))
    }
}

impl Game for TabGame {
    type Pos = Cell;

    fn describe(&self, &c: &Cell, who: &str) -> String {
        let cols: Vec<u32> = self.board.successors(c).map(|n| n.col).collect();
        let b = self.board;
        let at = format!("cell {c} of {} x {} ({who} to move)", b.rows(), b.cols());
        if cols.is_empty() {
            return format!("{at}: no move");
        }
        format!("{at}: columns {}", list(cols.iter(), 50))
    }

    fn has_move(&self, &c: &Cell) -> bool {
        self.board.successors(c).next().is_some()
    }

    fn parse_move(&self, &c: &Cell, line: &str) -> Result<Cell, String> {
        let col = line.strip_prefix("column").unwrap_or(line).trim();
        let k: u32 = col.parse().map_err(|_| format!("`{}` is not a column", short(line)))?;
        self.board
            .successors(c)
            .find(|n| n.col == k)
            .ok_or_else(|| format!("no move from {c} to column {k}"))
    }

    fn engine_move(&self, &c: &Cell) -> Result<(Cell, String), CliError> {
        let next = self
            .solution
            .best_move(c)
            .map_err(|e| CliError::Usage(e.to_string()))?
            .expect("a cell with a move has a best move");
        Ok((next, format!("column {} -> {next}", next.col)))
    }

    fn hint(&self, &c: &Cell) -> Result<String, CliError> {
        let v = self.value(c)?;
        let best = self.solution.best_move(c).map_err(|e| CliError::Usage(e.to_string()))?;
        let k = best.map_or(0, |n| n.col);
        Ok(match v.outcome() {
            Outcome::Loss => {
                format!("every move loses; column {k} lasts longest ({})", plies(v.depth()))
            }
            _ => format!("column {k} wins in {} of your moves ({})", v.answer(), plies(v.depth())),
        })
    }
}

/// A sum of heaps, normal or misère, with optional take limits.
struct Heaps {
    game: HeapGame,
}

impl Heaps {
    fn limit(&self, i: usize) -> u64 {
        self.game.limits.as_ref().map_or(u64::MAX, |l| l[i])
    }

    fn after(&self, heaps: &[u64], i: usize, take: u64) -> Vec<u64> {
        let mut next = heaps.to_vec();
        next[i] -= take;
        next
    }

    fn solve(&self, heaps: &[u64]) -> Result<gamegraph_grundy::HeapAnswer, CliError> {
        let game = HeapGame { heaps: heaps.to_vec(), ..self.game.clone() };
        solve_heaps(&game).map_err(|e| CliError::Usage(e.to_string()))
    }
}

impl Game for Heaps {
    type Pos = Vec<u64>;

    fn describe(&self, heaps: &Vec<u64>, who: &str) -> String {
        let mut s = format!("heaps {}", list(heaps.iter(), 20));
        if let Some(l) = &self.game.limits {
            let _ = write!(s, ", take at most {}", list(l.iter(), 20));
        }
        let _ = write!(s, " ({who} to move)");
        s
    }

    fn has_move(&self, heaps: &Vec<u64>) -> bool {
        heaps.iter().any(|&h| h > 0)
    }

    fn parse_move(&self, heaps: &Vec<u64>, line: &str) -> Result<Vec<u64>, String> {
        let Some(k) = self.game.moore else { return self.parse_one(heaps, line) };
        // Moore's Nim_k: up to k single-heap moves separated by commas, distinct heaps.
        let parts: Vec<&str> = line.split(',').collect();
        if parts.len() as u64 > k {
            return Err(format!("a move takes from at most {k} heaps"));
        }
        let mut next = heaps.clone();
        let mut used = vec![false; heaps.len()];
        for part in parts {
            let after = self.parse_one(heaps, part)?;
            let i = (0..heaps.len()).find(|&i| after[i] != heaps[i]).unwrap_or(0);
            if used[i] {
                return Err(format!("heap {} is named twice", i + 1));
            }
            used[i] = true;
            next[i] = after[i];
        }
        Ok(next)
    }

    fn engine_move(&self, heaps: &Vec<u64>) -> Result<(Vec<u64>, String), CliError> {
        let answer = match self.game.moore {
            Some(_) => self.solve(heaps)?,
            None => return self.engine_single(heaps),
        };
        if !answer.moves.is_empty() {
            let mut next = heaps.clone();
            for m in &answer.moves {
                next[m.heap] -= m.take;
            }
            let said: Vec<String> = answer.moves.iter().map(ToString::to_string).collect();
            return Ok((next, said.join(", ")));
        }
        self.engine_single(heaps)
    }

    fn hint(&self, heaps: &Vec<u64>) -> Result<String, CliError> {
        if self.game.moore.is_some() {
            let answer = self.solve(heaps)?;
            let said: Vec<String> = answer.moves.iter().map(ToString::to_string).collect();
            return Ok(if said.is_empty() {
                "every move loses".to_owned()
            } else {
                format!("{} wins", said.join(", "))
            });
        }
        self.hint_single(heaps)
    }

    fn no_move_wins(&self) -> bool {
        self.game.play == Play::Misere
    }
}

impl Heaps {
    /// One move on one heap: `take T from heap I` or `T I`.
    fn parse_one(&self, heaps: &[u64], line: &str) -> Result<Vec<u64>, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (t, i) = match words.as_slice() {
            ["take", t, "from", "heap", i] | [t, i] => (*t, *i),
            _ => return Err(format!("`{}` is not `take T from heap I` or `T I`", short(line))),
        };
        let number =
            |w: &str| w.parse::<u64>().map_err(|_| format!("`{}` is not a number", short(w)));
        let (take, heap) = (number(t)?, number(i)?);
        let idx = usize::try_from(heap)
            .ok()
            .filter(|&h| (1..=heaps.len()).contains(&h))
            .ok_or_else(|| format!("there is no heap {heap} (heaps 1..{})", heaps.len()))?
            - 1;
        if take == 0 {
            return Err("a move takes at least one object".into());
        }
        if take > heaps[idx] {
            return Err(format!("heap {heap} has only {} objects", heaps[idx]));
        }
        if take > self.limit(idx) {
            return Err(format!("at most {} may be taken from heap {heap}", self.limit(idx)));
        }
        Ok(self.after(heaps, idx, take))
    }

    fn engine_single(&self, heaps: &[u64]) -> Result<(Vec<u64>, String), CliError> {
        let answer = self.solve(heaps)?;
        let (i, take) = match answer.moves.first() {
            Some(m) => (m.heap, m.take),
            // A lost position: delay by taking one object from the largest heap.
            None => {
                let i = (0..heaps.len()).max_by_key(|&i| (heaps[i], usize::MAX - i)).unwrap_or(0);
                (i, 1)
            }
        };
        let said = gamegraph_grundy::HeapMove { heap: i, take }.to_string();
        Ok((self.after(heaps, i, take), said))
    }

    fn hint_single(&self, heaps: &[u64]) -> Result<String, CliError> {
        let answer = self.solve(heaps)?;
        let values = list(answer.values.iter().map(|v| v.0), 20);
        Ok(match answer.moves.first() {
            Some(m) => format!(
                "heap values {values}, digit sum {}: take {} from heap {} wins",
                answer.digit_sum.0,
                m.take,
                m.heap + 1
            ),
            None => {
                format!("heap values {values}, digit sum {}: every move loses", answer.digit_sum.0)
            }
        })
    }
}

/// `1 ply`, `3 plies`.
fn plies(n: u64) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// At most 24 characters of a bad token.
fn short(s: &str) -> String {
    let mut t: String = s.chars().take(24).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

/// `--game NAME[:ARGS]`: solves the game, then plays it.
fn rules_game(
    spec: &str,
    threads: Option<usize>,
    me_first: bool,
    input: impl BufRead,
    echo: bool,
    out: Output,
) -> Result<ExitCode, CliError> {
    use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TicTacToe};
    let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let bad = |e: &dyn std::fmt::Display| CliError::Usage(format!("--game {spec}: {e}"));
    let rows = || crate::cmd::game::parse_rows(rest).map_err(|e| bad(&e));
    match name {
        "tic-tac-toe" => rules(TicTacToe::new(), threads, me_first, input, echo, out),
        "connect-four" => {
            let (w, h) = rest.split_once('x').unwrap_or(("7", "6"));
            let (w, h) = (
                w.parse().map_err(|_| bad(&"expected COLSxROWS"))?,
                h.parse().map_err(|_| bad(&"expected COLSxROWS"))?,
            );
            rules(ConnectFour::new(w, h).map_err(|e| bad(&e))?, threads, me_first, input, echo, out)
        }
        "kayles" => rules(
            OctalRows::kayles(&rows()?).map_err(|e| bad(&e))?,
            threads,
            me_first,
            input,
            echo,
            out,
        ),
        "dawsons-kayles" => rules(
            OctalRows::dawson(&rows()?).map_err(|e| bad(&e))?,
            threads,
            me_first,
            input,
            echo,
            out,
        ),
        "chase" => {
            let n = rest.parse().map_err(|_| bad(&"expected chase:CELLS"))?;
            rules(Chase::new(n).map_err(|e| bad(&e))?, threads, me_first, input, echo, out)
        }
        _ => Err(bad(
            &"expected tic-tac-toe, connect-four:COLSxROWS, kayles:ROWS, dawsons-kayles:ROWS or chase:CELLS",
        )),
    }
}

fn rules<G: gamegraph_game::Game + Send>(
    game: G,
    threads: Option<usize>,
    me_first: bool,
    input: impl BufRead,
    echo: bool,
    out: Output,
) -> Result<ExitCode, CliError> {
    let config = gamegraph_game::ExploreConfig::default();
    let solved = with_threads(threads, || gamegraph_game::SolvedGame::new(game, &config))?
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let start = solved.positions()[solved.start().index()];
    play(&Rules { solved }, start, me_first, input, echo, out)
}

/// A game given by its rules, solved.
struct Rules<G: gamegraph_game::Game> {
    solved: gamegraph_game::SolvedGame<G>,
}

impl<G: gamegraph_game::Game> Rules<G> {
    fn moves(&self, p: G::Position) -> Vec<G::Position> {
        let mut v = Vec::new();
        self.solved.game().moves(p, &mut v);
        v
    }
}

impl<G: gamegraph_game::Game> Game for Rules<G> {
    type Pos = G::Position;

    fn describe(&self, &p: &G::Position, who: &str) -> String {
        let g = self.solved.game();
        let moves = self.moves(p);
        let at = format!("{} ({who} to move)", g.show(p));
        if moves.is_empty() {
            return format!("{at}: no move");
        }
        let listed: Vec<String> =
            moves.iter().enumerate().map(|(i, &q)| format!("{} {}", i + 1, g.show(q))).collect();
        format!("{at}: moves {}", list(listed.iter(), 20))
    }

    fn has_move(&self, &p: &G::Position) -> bool {
        !self.moves(p).is_empty()
    }

    fn parse_move(&self, &p: &G::Position, line: &str) -> Result<G::Position, String> {
        let g = self.solved.game();
        let moves = self.moves(p);
        if let Ok(k) = line.parse::<usize>() {
            return k
                .checked_sub(1)
                .and_then(|i| moves.get(i).copied())
                .ok_or_else(|| format!("there are moves 1 to {}, not {k}", moves.len()));
        }
        let q = g.parse(line).map_err(|e| format!("`{}`: {e}", short(line)))?;
        let c = g.canonical(q);
        moves
            .into_iter()
            .find(|&m| g.canonical(m) == c)
            .ok_or_else(|| format!("{} is not a move from here", g.show(q)))
    }

    fn engine_move(&self, &p: &G::Position) -> Result<(G::Position, String), CliError> {
        let value = self.solved.query(p).map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
        let best = value.moves.first().expect("a position with a move has a best move").position;
        Ok((best, self.solved.game().show(best)))
    }

    fn hint(&self, &p: &G::Position) -> Result<String, CliError> {
        let value = self.solved.query(p).map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
        let best =
            value.moves.first().map(|m| self.solved.game().show(m.position)).unwrap_or_default();
        let n = u64::from(value.remoteness.unwrap_or(0));
        Ok(match value.outcome {
            gamegraph_game::Outcome::Win => format!("{best} wins in {}", plies(n)),
            gamegraph_game::Outcome::Loss => {
                format!("every move loses; {best} lasts longest ({})", plies(n))
            }
            gamegraph_game::Outcome::Tie => format!("{best} ties in {}", plies(n)),
            gamegraph_game::Outcome::Draw => format!("{best} keeps the draw"),
        })
    }

    fn end(&self, &p: &G::Position, me: bool) -> &'static str {
        match (self.solved.game().terminal(p), me) {
            (gamegraph_game::Terminal::Tie, _) => "a tie: the game is over and nobody wins",
            (gamegraph_game::Terminal::Loss, true) => "the engine wins",
            (gamegraph_game::Terminal::Loss, false) => "you win",
            (gamegraph_game::Terminal::Win, true) => "you win",
            (gamegraph_game::Terminal::Win, false) => "the engine wins",
        }
    }
}
