//! `gamegraph play`: a game against perfect play in the terminal, moves read from standard
//! input one per line.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use gamegraph_game::games::TabBoard;
use gamegraph_graph::{Limit, Vertex};
use gamegraph_grundy::{HeapGame, Play};

use gamegraph_play::engine::{Open, OpenError, Solve};
use gamegraph_play::{End, HeapPlayError, HeapSession, PlayError, Session, Spec, list};

use crate::common::{CliError, GraphInput, Numbers, Output, read_graph, with_threads, write_json};

/// The games other than heaps, which the options of heaps do not go with. (`requires` of
/// an argument of the required group accepts any argument of the group, so each option
/// names the games it does not go with.)
const NOT_HEAPS: [&str; 3] = ["file", "tab", "game"];

/// Arguments of `gamegraph play`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["file", "tab", "heaps", "game"]))]
#[command(after_help = "Moves are read from standard input, one per line: a vertex id (graph), \
a column (tab board: `column 3` or `3`), `take T from heap I` or `T I` (heaps), the move's name \
(--game: `b2`, `column 4` or `4`, `take 2 from 7 leaving 2 3`; `gamegraph game list` shows each \
game's) or the position it leads to. `hint` shows the engine's advice and what to type, `undo` \
takes back your last move and the engine's reply, `help` the move syntax, `quit` ends the game. \
The engine plays perfectly: the winner hurries, the loser delays, a draw is kept. A position \
that comes back with the same player to move ends the game as a draw.

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
  gamegraph play --heaps 5,7,9 --json --move '2 3' # the position after one move, as JSON
  gamegraph play fixtures/retro/seed.txt --json --move 2  # every move's value, as JSON")]
pub(crate) struct Args {
    /// The game graph to play on (standard input carries the moves, so a file is needed,
    /// except with --json).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The start vertex (1-based; default: the file's start).
    #[arg(long, value_name = "V", conflicts_with_all = ["tab", "heaps", "game"])]
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
    #[arg(long, value_name = "M,M,...", conflicts_with_all = NOT_HEAPS)]
    max: Option<Numbers>,
    /// With --heaps: misère play, whoever takes the last object loses.
    #[arg(long, conflicts_with_all = NOT_HEAPS)]
    misere: bool,
    /// With --heaps: Moore's Nim_k, a move takes from up to K heaps at once.
    #[arg(long, value_name = "K", conflicts_with_all = NOT_HEAPS)]
    moore: Option<u64>,
    /// Print the position as JSON instead of playing: its value, every legal move with its
    /// value, the best move, the board when the game draws one, and the value after every
    /// move made (with --heaps: the heaps, the most each move may take, and the engine's
    /// move).
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
    #[arg(long, value_name = "PATH", conflicts_with_all = ["file", "tab", "heaps"])]
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

/// Runs `gamegraph play`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let me_first = args.first == First::Me;
    // Standard input is locked where the moves are read: a graph may come from it first.
    let stdin = || io::stdin().lock();
    let echo = !io::stdin().is_terminal();
    let out = Output::create(None)?;
    if args.game.is_some() {
        return rules_game(&args, me_first, stdin(), echo, out);
    }
    let own = Own {
        results: None,
        threads: args.threads,
        json: args.json,
        moves: args.moves.clone(),
        me_first,
    };
    if let Some(Numbers(t)) = &args.tab {
        let engine = tab_engine(t)?;
        return run_session(engine, TAB_SYNTAX, true, &own, stdin(), echo, out);
    }
    if let Some(Numbers(heaps)) = args.heaps {
        let game = HeapGame {
            heaps,
            limits: args.max.map(|l| l.0),
            play: if args.misere { Play::Misere } else { Play::Normal },
            moore: args.moore,
        };
        let session = HeapSession::new(game).map_err(|e| CliError::Usage(e.to_string()))?;
        return run_heaps(session, &own, stdin(), echo, out);
    }
    if args.file.as_deref() == Some(std::path::Path::new("-")) && !args.json {
        return Err(CliError::Usage(
            "the moves come from standard input: give the graph as a file".into(),
        ));
    }
    let (file, _) = read_graph(args.file.as_deref(), &args.input)?;
    let n = file.graph.num_vertices();
    let start = match args.start {
        Some(id) => Vertex::from_one_based(id)
            .filter(|v| v.index() < n)
            .ok_or_else(|| CliError::Usage(format!("--start {id} is outside 1..{n}")))?,
        None => file.start.ok_or_else(|| {
            CliError::Usage("the input has no start vertex: give one with --start V".into())
        })?,
    };
    let engine = with_threads(args.threads, || {
        gamegraph_play::engine::graph(file.graph, file.terminal, start)
    })?;
    run_session(engine, GRAPH_SYNTAX, true, &own, stdin(), echo, out)
}

/// How a move is typed on a graph.
const GRAPH_SYNTAX: &str = "the id of a vertex the token can move to";

/// How a move is typed on the tab board.
const TAB_SYNTAX: &str =
    "a column K (`column K` or `K`) takes the piece from (x,y) to (x+K,K), K ≠ y";

/// The tab board of `--tab N,M,X,Y`, solved by the tab solver.
fn tab_engine(t: &[u64]) -> Result<Box<dyn gamegraph_play::Engine>, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::Usage(format!("--tab: {e}"));
    let [rows, cols, x, y] = t[..] else {
        return Err(bad(&format!("expected four numbers N,M,X,Y, found {}", t.len())));
    };
    let cols = u32::try_from(cols).map_err(|_| bad(&"M is too large"))?;
    let y = u32::try_from(y).map_err(|_| bad(&"Y is too large"))?;
    let game = TabBoard::new(rows, cols, x, y).map_err(|e| bad(&e))?;
    gamegraph_play::engine::tab(game).map_err(|e| bad(&e))
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

/// The closing line at a finished position worth `value` to the player to move there,
/// the player at the keyboard (`me`) or the engine; `no_move` when a loss there is the
/// loss of the player who cannot move (a graph, the tab board).
fn terminal_end(value: gamegraph_game::Terminal, me: bool, no_move: bool) -> &'static str {
    use gamegraph_game::Terminal;
    match (value, me, no_move) {
        (Terminal::Tie, _, _) => "a tie: the game is over and nobody wins",
        (Terminal::Loss, true, true) => "the engine wins: you cannot move",
        (Terminal::Loss, false, true) => "you win: the engine cannot move",
        (Terminal::Loss, true, false) | (Terminal::Win, false, _) => "the engine wins",
        (Terminal::Loss, false, false) | (Terminal::Win, true, _) => "you win",
    }
}

/// Plays heaps in the terminal, or with `--json` prints the position after `--move`s.
fn run_heaps(
    mut s: HeapSession,
    own: &Own,
    mut input: impl BufRead,
    echo: bool,
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let usage = |e: HeapPlayError| match e {
        HeapPlayError::Illegal(why) => CliError::Usage(format!("illegal move: {why}")),
        HeapPlayError::Solve(why) => CliError::Usage(why),
    };
    if own.json {
        for m in &own.moves {
            s.play(m).map_err(usage)?;
        }
        write_json(&mut out, &s.view().map_err(usage)?)?;
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    if !own.moves.is_empty() {
        return Err(CliError::Usage("--move goes with --json".into()));
    }
    let help = help_line(&s.syntax());
    writeln!(out, "{help}")?;
    let mut me = own.me_first;
    'game: loop {
        writeln!(out, "{} ({} to move)", s.describe(), who(me))?;
        if s.over() {
            let line = match (me, s.no_move_wins()) {
                (true, false) => "the engine wins: you cannot move",
                (false, false) => "you win: the engine cannot move",
                (true, true) => "you win: the engine took the last object",
                (false, true) => "the engine wins: you took the last object",
            };
            writeln!(out, "{line}")?;
            break;
        }
        if !me {
            let reply = s.play_best().map_err(usage)?.expect("a position with a move");
            writeln!(out, "engine: {}", reply.said)?;
            me = true;
            continue;
        }
        loop {
            match next_command(&mut input, echo, &mut out, &help, s.ply())? {
                Command::Quit => break 'game,
                Command::Hint => writeln!(out, "hint: {}", s.hint().map_err(usage)?)?,
                Command::Undo => {
                    s.undo();
                    s.undo();
                    break;
                }
                Command::Move(text) => match s.play(&text) {
                    Ok(()) => {
                        me = false;
                        break;
                    }
                    Err(HeapPlayError::Illegal(why)) => {
                        writeln!(out, "illegal move: {why}; try again")?;
                    }
                    Err(e) => return Err(usage(e)),
                },
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
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
    run_session(engine, spec.entry().moves, false, &own, input, echo, out)
}

/// Plays `engine`'s game in the terminal, or with `--json` prints the position after
/// `--move`s; `no_move` as for [`terminal_end`].
fn run_session(
    engine: Box<dyn gamegraph_play::Engine>,
    syntax: &str,
    no_move: bool,
    own: &Own,
    input: impl BufRead,
    echo: bool,
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let mut session = Session::new(engine).map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
    if !own.json {
        if !own.moves.is_empty() {
            return Err(CliError::Usage("--move goes with --json".into()));
        }
        return play_session(session, syntax, no_move, own.me_first, input, echo, out);
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
    mut s: Session<'_>,
    syntax: &str,
    no_move: bool,
    me_first: bool,
    mut input: impl BufRead,
    echo: bool,
    mut out: Output,
) -> Result<ExitCode, CliError> {
    let lookup = |e: PlayError| CliError::Other(anyhow::Error::new(e));
    let help = help_line(syntax);
    writeln!(out, "{help}")?;
    let mut me = me_first;
    'game: loop {
        match s.board() {
            Some(board) => write!(out, "{board}")?,
            None => writeln!(out, "at {}", s.show())?,
        }
        let names: Vec<&str> = s.moves().iter().map(|m| m.name.as_str()).collect();
        match s.over() {
            Some(End::Repeated) => {
                writeln!(out, "draw: the position repeats with {} to move", who(me))?;
                break;
            }
            Some(End::Finished(value)) => {
                writeln!(out, "{}", terminal_end(value, me, no_move))?;
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
            match next_command(&mut input, echo, &mut out, &help, s.ply())? {
                Command::Quit => break 'game,
                Command::Hint => {
                    let best = s.best().expect("a position with a move");
                    writeln!(out, "hint: {} (type {})", best.advice(), best.name)?;
                }
                Command::Undo => {
                    s.undo();
                    s.undo();
                    break;
                }
                Command::Move(text) => match s.play(&text) {
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

/// `you` or `the engine`.
fn who(me: bool) -> &'static str {
    if me { "you" } else { "the engine" }
}

/// The first line of a game, and the answer to `help`.
fn help_line(syntax: &str) -> String {
    format!(
        "a move: {syntax} (`hint` for advice, `undo` to take back your last move, `help` for \
         this line, `quit` to stop)"
    )
}

/// What the player typed at `your move: ` that the game answers.
enum Command {
    /// `quit`, or the end of the input ("game left unfinished" is written).
    Quit,
    Hint,
    /// Back to the player's previous turn, taking back the engine's reply and the move
    /// (there are two moves to take back; "took back …" is written).
    Undo,
    /// Anything else: a move to read.
    Move(String),
}

/// The player's next command at ply `ply`. Empty lines are asked again, and so are `help`
/// (answered with `help`) and an `undo` with nothing to take back.
fn next_command(
    input: &mut impl BufRead,
    echo: bool,
    out: &mut Output,
    help: &str,
    ply: usize,
) -> io::Result<Command> {
    loop {
        let Some(text) = next_line(input, echo, out)? else {
            writeln!(out, "game left unfinished")?;
            return Ok(Command::Quit);
        };
        return Ok(match text.as_str() {
            "" => continue,
            "quit" | "q" => {
                writeln!(out, "game left unfinished")?;
                Command::Quit
            }
            "hint" | "?" => Command::Hint,
            "help" | "h" => {
                writeln!(out, "{help}")?;
                continue;
            }
            "undo" | "u" if ply >= 2 => {
                writeln!(out, "took back your move and the engine's reply")?;
                Command::Undo
            }
            "undo" | "u" => {
                writeln!(out, "nothing to take back")?;
                continue;
            }
            _ => Command::Move(text),
        });
    }
}
