//! `gamegraph play`: a game against perfect play in the terminal, moves read from standard
//! input one per line.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::Hash;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_game::Outcome as GameOutcome;
use gamegraph_graph::format::Terminals;
use gamegraph_graph::{Graph, Limit, Vertex};
use gamegraph_grundy::{HeapGame, HeapMove, Play, solve_heaps};
use gamegraph_retro::{Outcome, Solution, par_solve};
use gamegraph_tab::{Board, Cell, Config};

use gamegraph_play::engine::{Open, OpenError, Solve};
use gamegraph_play::{End, PlayError, Session, Spec};

use crate::common::{CliError, GraphInput, Numbers, Output, read_graph, with_threads, write_json};

/// Arguments of `gamegraph play`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["file", "tab", "heaps", "game"]))]
#[command(after_help = "Moves are read from standard input, one per line: a vertex id (graph), \
a column (tab board), `take T from heap I` or `T I` (heaps), the move's name (--game: `b2`, \
`column 4` or `4`, `take 2 from 7 leaving 2 3`; `gamegraph game list` shows each game's) or the \
position it leads to. For --game, `undo` takes back your last move. `hint` shows the engine's \
advice, `help` the move syntax, `quit` ends the game. The engine plays perfectly: the winner hurries, the loser delays, a draw \
is kept. A position that comes back with the same player to move ends the game as a draw.

Examples:
  gamegraph play fixtures/retro/seed.txt           # from the file's start vertex
  gamegraph play game.txt --start 4 --first engine # the engine moves first, from vertex 4
  gamegraph play --tab 10,4,4,3                    # the tab board 10 x 4 from cell (4,3)
  gamegraph play --heaps 5,7,9 --max 2,3,4         # heaps with take limits
  gamegraph play --heaps 1,1,4 --misere            # whoever takes the last object loses
  gamegraph play --heaps 3,5,6,9 --moore 2         # a move takes from up to 2 heaps: `1 1, 2 3`
  gamegraph play --game tic-tac-toe                # a move is a cell: b2
  gamegraph play --first engine --game connect-four --cols 5 --rows 4
  gamegraph play --game connect-four --cols 6 --rows 5 --results c4-6x5  # solved by tiers
  gamegraph play --json --move b2 --move a1 --game tic-tac-toe   # the board and values, as JSON
  printf '2\\n3\\n' | gamegraph play game.txt       # a whole game piped in
  gamegraph play --heaps 5,7,9 --json --move '2 3' # the position after one move, as JSON")]
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
    /// With --heaps: Moore's Nim_k, a move takes from up to K heaps at once.
    #[arg(long, value_name = "K", requires = "heaps")]
    moore: Option<u64>,
    /// Print the position as JSON instead of playing: the legal moves, whether the game is
    /// over, and the engine's move (with --game: the board, every move's value, the best
    /// move and the value after every move made).
    #[arg(long)]
    json: bool,
    /// With --json: make this move first, as typed in a game (repeat it for a line of
    /// moves, played in order); an illegal move exits 2.
    #[arg(long = "move", value_name = "MOVE", requires = "json")]
    moves: Vec<String>,
    /// Play a game given by its rules, named with its arguments as for `gamegraph game`
    /// (`gamegraph game list` shows them); it comes last, after the other options.
    #[arg(long, value_name = "NAME [ARGS]", num_args = 1.., allow_hyphen_values = true)]
    game: Option<Vec<String>>,
    /// With --game: answer from the values `gamegraph game … solve -o PATH` wrote (a
    /// directory of tiers, or a values file with --explicit) instead of solving first.
    #[arg(long, value_name = "PATH", requires = "game")]
    results: Option<PathBuf>,
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
    /// How a move is typed, for `help` and the start of a game.
    fn syntax(&self) -> String;
    /// A picture of the position, when it has one that fits a terminal.
    fn picture(&self, p: &Self::Pos) -> Option<String> {
        let _ = p;
        None
    }
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
    if args.json && args.tab.is_none() && args.heaps.is_none() && args.game.is_none() {
        return Err(CliError::Usage(
            "--json describes a position of --game, --tab or --heaps (for a graph, use `gamegraph retro --json`)".into(),
        ));
    }
    if args.game.is_some() {
        return rules_game(&args, me_first, stdin, echo, out);
    }
    if let Some(Numbers(t)) = &args.tab {
        let (game, start) = TabGame::new(t)?;
        if args.json {
            return position_json(&game, start, &args.moves, out);
        }
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
        let game = Heaps { game };
        if args.json {
            return position_json(&game, heaps, &args.moves, out);
        }
        play(&game, heaps, me_first, stdin, echo, out)
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
        let solution = match file.terminal {
            Some(values) => {
                let s = with_threads(args.threads, || {
                    gamegraph_game::solve(&graph, |v| values.value_or_loss(v))
                })?;
                GraphSolution::Values(s, values)
            }
            None => GraphSolution::Plain(with_threads(args.threads, || par_solve(&graph))?),
        };
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
    writeln!(out, "{} (`hint` for advice, `help` for this line, `quit` to stop)", game.syntax())?;
    loop {
        if let Some(picture) = game.picture(&pos) {
            write!(out, "{picture}")?;
        }
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
    loop {
        let Some(text) = next_line(input, echo, out)? else { return Ok(None) };
        match text.as_str() {
            "" => continue,
            "quit" | "q" => return Ok(None),
            "hint" | "?" => writeln!(out, "hint: {}", game.hint(pos)?)?,
            "help" | "h" => writeln!(out, "{}", game.syntax())?,
            _ => match game.parse_move(pos, &text) {
                Ok(next) => return Ok(Some(next)),
                Err(why) => writeln!(out, "illegal move: {why}; try again")?,
            },
        }
    }
}

/// Prompts `your move: ` and reads a line, trimmed (and echoed when the input is not a
/// terminal, which shows it); `None` at the end of the input. A line that is not UTF-8 is
/// answered and read again.
fn next_line(input: &mut impl BufRead, echo: bool, out: &mut Output) -> io::Result<Option<String>> {
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
        return Ok(Some(text.to_owned()));
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
    solution: GraphSolution,
}

/// The solution of a game graph: three outcomes, or four for a file with terminal values.
enum GraphSolution {
    /// Every vertex without moves is a loss for the player to move there.
    Plain(Solution),
    /// The file's values at vertices without moves (a loss where it gives none).
    Values(gamegraph_game::Solution, Terminals),
}

impl GraphGame {
    /// The outcome, remoteness (depth) and an optimal move of `v`.
    fn value(&self, v: Vertex) -> (GameOutcome, Option<u32>, Option<Vertex>) {
        match &self.solution {
            GraphSolution::Plain(s) => (s.outcome(v), s.depth(v), s.best_move(v)),
            GraphSolution::Values(s, _) => {
                (s.outcome(v), s.remoteness(v), s.best_move(&self.graph, v))
            }
        }
    }
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

    fn syntax(&self) -> String {
        "a move: the id of a vertex the token can move to".into()
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
        let w = self.value(v).2.expect("a position with a move has a best move");
        Ok((w, w.one_based().to_string()))
    }

    fn hint(&self, &v: &Vertex) -> Result<String, CliError> {
        let (outcome, depth, best) = self.value(v);
        Ok(advice(outcome, u64::from(depth.unwrap_or(0)), &best.map_or(0, |w| w.one_based())))
    }

    fn end(&self, &v: &Vertex, me: bool) -> &'static str {
        match &self.solution {
            GraphSolution::Plain(_) => {
                if me {
                    "the engine wins: you cannot move"
                } else {
                    "you win: the engine cannot move"
                }
            }
            GraphSolution::Values(_, values) => terminal_end(values.value_or_loss(v), me),
        }
    }
}

/// The engine's advice at a position of `outcome` and remoteness `n` whose optimal move is
/// `best`.
fn advice(outcome: GameOutcome, n: u64, best: &dyn std::fmt::Display) -> String {
    match outcome {
        GameOutcome::Win => format!("{best} wins in {}", plies(n)),
        GameOutcome::Loss => format!("every move loses; {best} lasts longest ({})", plies(n)),
        GameOutcome::Tie => format!("{best} ties in {}", plies(n)),
        GameOutcome::Draw => format!("{best} keeps the draw"),
    }
}

/// The closing line at a finished position worth `value` to the player to move there,
/// the player at the keyboard (`me`) or the engine.
fn terminal_end(value: gamegraph_game::Terminal, me: bool) -> &'static str {
    use gamegraph_game::Terminal;
    match (value, me) {
        (Terminal::Tie, _) => "a tie: the game is over and nobody wins",
        (Terminal::Loss, true) | (Terminal::Win, false) => "the engine wins",
        (Terminal::Loss, false) | (Terminal::Win, true) => "you win",
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
        let k: u64 = col.parse().map_err(|_| format!("`{}` is not a column", short(line)))?;
        gamegraph_tab::play::move_to(self.board, c, k).map_err(|e| e.to_string())
    }

    fn syntax(&self) -> String {
        "a move: a column K (or `column K`) takes the piece from (x,y) to (x+K,K), K ≠ y".into()
    }

    fn picture(&self, &c: &Cell) -> Option<String> {
        let b = self.board;
        if b.rows() > 30 || b.cols() > 30 {
            return None;
        }
        let targets: Vec<Cell> = b.successors(c).collect();
        let width = b.rows().to_string().len();
        let mut s = String::new();
        for x in (1..=b.rows()).rev() {
            let _ = write!(s, "{x:>width$} ");
            for y in 1..=b.cols() {
                let here = Cell { row: x, col: y };
                let mark = if here == c {
                    '@'
                } else if targets.contains(&here) {
                    '+'
                } else {
                    '.'
                };
                let _ = write!(s, " {mark}");
            }
            s.push('\n');
        }
        let _ = write!(s, "{:width$} ", "");
        for y in 1..=b.cols() {
            let _ = write!(s, " {}", y % 10);
        }
        s.push_str("\n(@ the piece, + the cells it can reach)\n");
        Some(s)
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

/// A sum of heaps, normal or misère, with optional take limits, or Moore's Nim_k.
struct Heaps {
    game: HeapGame,
}

impl Heaps {
    /// The game at the heap sizes `heaps`.
    fn at(&self, heaps: &[u64]) -> HeapGame {
        HeapGame { heaps: heaps.to_vec(), ..self.game.clone() }
    }

    fn solve(&self, heaps: &[u64]) -> Result<gamegraph_grundy::HeapAnswer, CliError> {
        solve_heaps(&self.at(heaps)).map_err(|e| CliError::Usage(e.to_string()))
    }

    /// The engine's move from `heaps` (which has a move).
    fn engine(&self, heaps: &[u64]) -> Result<Vec<HeapMove>, CliError> {
        let moves = gamegraph_grundy::play::engine_move(&self.at(heaps))
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(moves.unwrap_or_default())
    }
}

/// `take 1 from heap 2, take 3 from heap 4`.
fn said(moves: &[HeapMove]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
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

    fn syntax(&self) -> String {
        let one = "`take T from heap I` (or `T I`) takes T objects from heap I";
        match gamegraph_grundy::play::heaps_per_move(&self.game) {
            1 => format!("a move: {one}"),
            k => format!("a move: {one}; up to {k} heaps at once, separated by commas"),
        }
    }

    fn has_move(&self, heaps: &Vec<u64>) -> bool {
        gamegraph_grundy::play::has_move(&self.at(heaps))
    }

    fn parse_move(&self, heaps: &Vec<u64>, line: &str) -> Result<Vec<u64>, String> {
        let mut moves = Vec::new();
        for part in line.split(',') {
            let words: Vec<&str> = part.split_whitespace().collect();
            let (t, i) = match words.as_slice() {
                ["take", t, "from", "heap", i] | [t, i] => (*t, *i),
                _ => return Err(format!("`{}` is not `take T from heap I` or `T I`", short(line))),
            };
            let number =
                |w: &str| w.parse::<u64>().map_err(|_| format!("`{}` is not a number", short(w)));
            let (take, heap) = (number(t)?, number(i)?);
            let heap = usize::try_from(heap)
                .ok()
                .and_then(|h| h.checked_sub(1))
                .filter(|&h| h < heaps.len())
                .ok_or_else(|| format!("there is no heap {heap} (heaps 1..{})", heaps.len()))?;
            moves.push(HeapMove { heap, take });
        }
        gamegraph_grundy::play::apply(&self.at(heaps), &moves).map_err(|e| e.to_string())
    }

    fn engine_move(&self, heaps: &Vec<u64>) -> Result<(Vec<u64>, String), CliError> {
        let moves = self.engine(heaps)?;
        let after = gamegraph_grundy::play::apply(&self.at(heaps), &moves)
            .map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
        Ok((after, said(&moves)))
    }

    fn hint(&self, heaps: &Vec<u64>) -> Result<String, CliError> {
        let answer = self.solve(heaps)?;
        let values = list(answer.values.iter().map(|v| v.0), 20);
        let sum = answer.digit_sum.0;
        Ok(if answer.moves.is_empty() {
            format!("heap values {values}, digit sum {sum}: every move loses")
        } else {
            format!("heap values {values}, digit sum {sum}: {} wins", said(&answer.moves))
        })
    }

    fn no_move_wins(&self) -> bool {
        self.game.play == Play::Misere
    }
}

/// A position described as JSON, for the page: what `--json` prints.
trait Described: Game {
    fn json(&self, p: &Self::Pos) -> Result<serde_json::Value, CliError>;
}

impl Described for Heaps {
    fn json(&self, heaps: &Vec<u64>) -> Result<serde_json::Value, CliError> {
        let game = self.at(heaps);
        let max_take: Vec<u64> =
            (0..heaps.len()).map(|i| gamegraph_grundy::play::max_take(&game, i)).collect();
        let engine = if self.has_move(heaps) {
            let moves = self.engine(heaps)?;
            let (after, said) = self.engine_move(heaps)?;
            let moves: Vec<_> = moves
                .iter()
                .map(|m| serde_json::json!({ "heap": m.heap + 1, "take": m.take }))
                .collect();
            serde_json::json!({ "moves": moves, "said": said, "after": after })
        } else {
            serde_json::Value::Null
        };
        Ok(serde_json::json!({
            "heaps": heaps,
            "max_take": max_take,
            "heaps_per_move": gamegraph_grundy::play::heaps_per_move(&game),
            "over": !self.has_move(heaps),
            "engine": engine,
        }))
    }
}

impl Described for TabGame {
    fn json(&self, &c: &Cell) -> Result<serde_json::Value, CliError> {
        let cell = |c: Cell| serde_json::json!({ "x": c.row, "y": c.col });
        let moves: Vec<_> = self.board.successors(c).map(cell).collect();
        let engine = gamegraph_tab::play::engine_move(&self.solution, c)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(serde_json::json!({
            "rows": self.board.rows(),
            "cols": self.board.cols(),
            "cell": cell(c),
            "moves": moves,
            "over": moves.is_empty(),
            "engine": engine.map(cell),
        }))
    }
}

/// `--json [--move M]…`: the position after the moves (if any), described.
fn position_json<G: Described>(
    game: &G,
    start: G::Pos,
    moves: &[String],
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let mut pos = start;
    for m in moves {
        pos = game
            .parse_move(&pos, m.trim())
            .map_err(|why| CliError::Usage(format!("illegal move: {why}")))?;
    }
    write_json(&mut out, &game.json(&pos)?)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
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

/// `--game NAME ARGS…`: the game from the registry, its values solved here or opened from
/// `--results`, played in a session.
fn rules_game(
    args: &Args,
    me_first: bool,
    input: impl BufRead,
    echo: bool,
    out: Output,
) -> Result<ExitCode, CliError> {
    let mut words: Vec<&str> = args.game.iter().flatten().map(String::as_str).collect();
    let own = own_options(args, me_first, &mut words)?;
    // The game's words, also when given as one: --game 'connect-four --cols 5 --rows 4'.
    let words: Vec<&str> = words.iter().flat_map(|w| w.split_whitespace()).collect();
    let spec = Spec::parse(&words).map_err(|e| {
        let hint = if words.first().is_some_and(|w| w.contains(':')) {
            " (a game and its arguments are written as for `gamegraph game`: --game connect-four --cols 5 --rows 4)"
        } else {
            ""
        };
        CliError::Usage(format!("--game {}: {e}{hint}", words.join(" ")))
    })?;
    let engine = match &own.results {
        Some(path) => {
            spec.visit(Open(path)).map_err(|e| CliError::Usage(e.to_string()))?.map_err(|e| {
                let source = path.display().to_string();
                match e {
                    OpenError::File(e @ gamegraph_game::FileError::Io { .. }) => CliError::Other(
                        anyhow::Error::new(e).context(format!("cannot use {source}")),
                    ),
                    e => CliError::input(&source, None, e),
                }
            })?
        }
        None => {
            let config = gamegraph_game::ExploreConfig {
                max_positions: crate::cmd::game::default_max_positions(),
                ..gamegraph_game::ExploreConfig::default()
            };
            let solved = with_threads(own.threads, || spec.visit(Solve(config)))?
                .map_err(|e| CliError::Usage(e.to_string()))?;
            solved.map_err(|e| match e {
                gamegraph_game::ExploreError::Limit {
                    limit: limit @ Limit::Budget { .. }, ..
                } => CliError::limit(
                    limit,
                    format_args!(
                        "{e}: this machine's memory does not hold the game; solve it by tiers \
                             (`gamegraph game {spec} solve -o DIR`) and play it with --results DIR"
                    ),
                ),
                gamegraph_game::ExploreError::Limit { limit, .. } => CliError::limit(limit, e),
                e => CliError::Usage(e.to_string()),
            })?
        }
    };
    let mut session = Session::new(engine).map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
    if !own.json {
        if !own.moves.is_empty() {
            return Err(CliError::Usage("--move goes with --json".into()));
        }
        return play_session(session, spec.entry().moves, own.me_first, input, echo, out);
    }
    for m in &own.moves {
        match session.play(m) {
            Ok(_) => {}
            Err(PlayError::Illegal(e)) => {
                return Err(CliError::Usage(format!("illegal move: {e}")));
            }
            Err(e) => return Err(CliError::Other(anyhow::Error::new(e))),
        }
    }
    let mut out = out;
    write_json(&mut out, &session.view())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// `play`'s own options, with those written after `--game` (which takes in every word
/// after it) taken out of the game's words.
struct Own {
    results: Option<PathBuf>,
    threads: Option<usize>,
    json: bool,
    moves: Vec<String>,
    me_first: bool,
}

fn own_options(args: &Args, me_first: bool, words: &mut Vec<&str>) -> Result<Own, CliError> {
    let mut own = Own {
        results: args.results.clone(),
        threads: args.threads,
        json: args.json,
        moves: args.moves.clone(),
        me_first,
    };
    let mut i = 0;
    while i < words.len() {
        if words[i] == "--json" {
            own.json = true;
            words.remove(i);
            continue;
        }
        let (name, inline) = match words[i].split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (words[i], None),
        };
        if !["--results", "--first", "--threads", "--move"].contains(&name) {
            i += 1;
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => {
                *words.get(i + 1).ok_or_else(|| CliError::Usage(format!("{name} needs a value")))?
            }
        };
        match name {
            "--results" => own.results = Some(PathBuf::from(value)),
            "--move" => own.moves.push(value.to_owned()),
            "--threads" => {
                own.threads = Some(value.parse().map_err(|_| {
                    CliError::Usage(format!("--threads: expected a number, found '{value}'"))
                })?);
            }
            _ => {
                own.me_first = match value {
                    "me" => true,
                    "engine" => false,
                    _ => {
                        return Err(CliError::Usage(format!(
                            "--first: expected me or engine, found '{value}'"
                        )));
                    }
                };
            }
        }
        words.drain(i..if inline.is_some() { i + 1 } else { i + 2 });
    }
    Ok(own)
}

/// Plays a session: the board (or the position's text) before every move, moves by their
/// names, `hint` with what to type, `undo` of the player's last move.
fn play_session(
    mut s: Session,
    syntax: &str,
    me_first: bool,
    mut input: impl BufRead,
    echo: bool,
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let lookup = |e: PlayError| CliError::Other(anyhow::Error::new(e));
    let who = |me: bool| if me { "you" } else { "the engine" };
    let help = format!(
        "a move: {syntax} (`hint` for advice, `undo` to take back your last move, `help` for \
         this line, `quit` to stop)"
    );
    writeln!(out, "{help}")?;
    let mut me = me_first;
    loop {
        match s.board() {
            Some(board) => write!(out, "{board}")?,
            None => writeln!(out, "{}", s.show())?,
        }
        let names: Vec<&str> = s.moves().iter().map(|m| m.name.as_str()).collect();
        match s.over() {
            Some(End::Repeated) => {
                writeln!(out, "draw: the position repeats with {} to move", who(me))?;
                break;
            }
            Some(End::Finished(value)) => {
                writeln!(out, "{}", terminal_end(value, me))?;
                break;
            }
            None => writeln!(out, "{} to move: {}", who(me), list(names.iter(), 20))?,
        }
        if !me {
            let m = s.play_best().map_err(lookup)?.expect("a position with a move");
            writeln!(out, "engine: {}", m.name)?;
            me = true;
            continue;
        }
        loop {
            let Some(text) = next_line(&mut input, echo, &mut out)? else {
                writeln!(out, "game left unfinished")?;
                out.finish()?;
                return Ok(ExitCode::SUCCESS);
            };
            match text.as_str() {
                "" => {}
                "quit" | "q" => {
                    writeln!(out, "game left unfinished")?;
                    out.finish()?;
                    return Ok(ExitCode::SUCCESS);
                }
                "hint" | "?" => {
                    let best = s.best().expect("a position with a move");
                    writeln!(out, "hint: {} (type {})", best.advice(), best.name)?;
                }
                "help" | "h" => writeln!(out, "{help}")?,
                "undo" | "u" => {
                    // Back to the player's previous turn: the engine's reply and the move.
                    if s.ply() < 2 {
                        writeln!(out, "nothing to take back")?;
                        continue;
                    }
                    s.undo();
                    s.undo();
                    writeln!(out, "took back your move and the engine's reply")?;
                    break;
                }
                _ => match s.play(&text) {
                    Ok(_) => {
                        me = false;
                        break;
                    }
                    Err(PlayError::Illegal(e)) => writeln!(out, "illegal move: {e}; try again")?,
                    Err(e) => return Err(lookup(e)),
                },
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
