//! `gamegraph verify`: an independent check of an answer against its definition.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gamegraph_game::Table;
use gamegraph_graph::format::GameFile;
use gamegraph_graph::{Graph, Limit, Outcome, Vertex, parse_vertex_list};
use gamegraph_grundy::octal::{
    ClaimError, OctalCode, PeriodCheck, PeriodClaim, Play, Rules, SubtractionSet,
    verify_period_until,
};
use gamegraph_grundy::{ValueTable, verify_values};
use gamegraph_kernel::{DratProof, SetClaim, VertexSet, check_no_kernel, judge_set};
use gamegraph_retro::{Solution, read_table, verify};
use serde_json::{Value, json};

use crate::common::{
    CliError, GraphInput, Input, JsonCounts, Output, deadline_after, progress, read_graph,
    without_terminal_values, write_json,
};
use gamegraph_graph::Located;
use gamegraph_graph::quote;

/// Check an answer without trusting the solver that produced it.
#[derive(Debug, clap::Args)]
#[command(after_help = "Each check reads an answer as gamegraph prints it and checks it \
against its definition, with code apart from the solvers. Exit code 0: the answer holds \
(one line `ok: ...`); 1: it does not (one line `wrong: ...` naming the first wrong vertex \
or n and the rule it breaks); 2: the input cannot be read (`error: FILE:LINE:COL: ...`). \
The rules and what each check proves: docs/verify.md.

Examples:
  gamegraph retro --all game.txt > table.txt
  gamegraph verify retro game.txt table.txt             # ok: 5 vertices, ...
  gamegraph retro --all game.txt | gamegraph verify retro game.txt -
  gamegraph grundy --all game.txt | gamegraph verify grundy game.txt -
  gamegraph verify kernel six-cycle.txt \"1 3 5\"          # a kernel?
  gamegraph verify kernel five-cycle.txt \"1 3\" --alpha 2 # an independent set of 2
  gamegraph kernel five-cycle.txt --proof c5.drat        # none, and a proof of it
  gamegraph verify kernel five-cycle.txt --none c5.drat  # no kernel: check the proof
  gamegraph verify octal 0.77 --preperiod 71 --period 12
  gamegraph verify subtraction 1,3,4 --preperiod 0 --period 7 --json")]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Check a `retro --all` table (text or `--json`): outcome, depth and move of every vertex.
    Retro(TableArgs),
    /// Check a `grundy --all` table (text or `--json`): the generalised Sprague-Grundy value of every vertex.
    Grundy(TableArgs),
    /// Check that a vertex set is a kernel, internally stable or externally stable, or
    /// (--none FILE) a DRAT proof that the digraph has no kernel.
    Kernel(KernelArgs),
    /// Check a pre-period and period of an octal game.
    Octal(OctalArgs),
    /// Check a pre-period and period of a subtraction game.
    Subtraction(SubtractionArgs),
}

#[derive(Debug, clap::Args)]
struct TableArgs {
    /// The game graph.
    #[arg(value_name = "GRAPH")]
    graph: PathBuf,
    /// The table to check (`-`: standard input).
    #[arg(value_name = "TABLE")]
    table: PathBuf,
    #[command(flatten)]
    input: GraphInput,
    /// Print JSON: `{"ok": true, ...}` or `{"ok": false, "vertex": V, "rule": ..., "message": ...}`.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("property").args(["kernel", "independent", "absorbing"]))]
#[command(group = clap::ArgGroup::new("answer").args(["set", "none"]).required(true))]
struct KernelArgs {
    /// The digraph.
    #[arg(value_name = "GRAPH")]
    graph: PathBuf,
    /// The set: 1-based vertices separated by spaces or commas, as `kernel` prints them
    /// (`-`: read them from standard input).
    #[arg(value_name = "SET", allow_hyphen_values = true)]
    set: Option<String>,
    /// Instead of a set: check that the digraph has no kernel, by the DRAT proof in FILE
    /// (as `kernel --proof FILE` writes it; `-`: standard input) against the kernel
    /// conditions, written here from the graph.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["kernel", "independent", "absorbing", "alpha", "beta"]
    )]
    none: Option<PathBuf>,
    /// Check that SET is a kernel: internally and externally stable (the default).
    #[arg(long)]
    kernel: bool,
    /// Check that SET is internally stable: no arc joins two of its vertices.
    #[arg(long)]
    independent: bool,
    /// Check that SET is externally stable: every other vertex has an arc into it.
    #[arg(long)]
    absorbing: bool,
    /// Also check that SET has K vertices; alone, checks an internally stable set of K
    /// vertices, a witness that alpha >= K (not that K is the largest).
    #[arg(long, value_name = "K", conflicts_with_all = ["absorbing", "beta"])]
    alpha: Option<usize>,
    /// Also check that SET has K vertices; alone, checks an externally stable set of K
    /// vertices, a witness that beta <= K (not that K is the smallest).
    #[arg(long, value_name = "K", conflicts_with = "independent")]
    beta: Option<usize>,
    #[command(flatten)]
    input: GraphInput,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ClaimArgs {
    /// The claimed pre-period P: g(n + Q) = g(n) for every n >= P.
    #[arg(long, value_name = "P")]
    preperiod: usize,
    /// The claimed period Q (at least 1).
    #[arg(long, value_name = "Q")]
    period: usize,
    /// Accept a pre-period and period that are not the least: check only that the
    /// period holds from P on (by default P must be the least pre-period and Q the
    /// smallest period, as `--period` prints them).
    #[arg(long)]
    not_least: bool,
    /// Give up after this many seconds with exit code 3 (the claim is then neither
    /// accepted nor refused).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct OctalArgs {
    /// The octal code, as `gamegraph octal` takes it (`0.77`, `.07`, `4.07`).
    code: String,
    #[command(flatten)]
    claim: ClaimArgs,
}

#[derive(Debug, clap::Args)]
struct SubtractionArgs {
    /// The subtraction set, as `gamegraph subtraction` takes it (`1,3,4`).
    set: String,
    /// Misère play (the sequence `gamegraph subtraction --misere` prints).
    #[arg(long)]
    misere: bool,
    #[command(flatten)]
    claim: ClaimArgs,
}

/// Runs `gamegraph verify`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.what {
        What::Retro(a) => run_retro(&a),
        What::Grundy(a) => run_grundy(&a),
        What::Kernel(a) => run_kernel(&a),
        What::Octal(a) => {
            let code: OctalCode = a.code.parse().map_err(|e| {
                CliError::Usage(format!("invalid octal code {}: {e}", quote(&a.code)))
            })?;
            run_claim(Rules::Octal(&code), &a.claim)
        }
        What::Subtraction(a) => {
            let set: SubtractionSet = a.set.parse().map_err(|e| {
                CliError::Usage(format!("invalid subtraction set {}: {e}", quote(&a.set)))
            })?;
            let play = if a.misere { Play::Misere } else { Play::Normal };
            run_claim(Rules::Subtraction(&set, play), &a.claim)
        }
    }
}

/// A graph named by its path, for `command`, which refuses terminal values; standard
/// input only when the answer does not need it.
fn graph(path: &Path, input: &GraphInput, other: &Path, command: &str) -> Result<Graph, CliError> {
    Ok(without_terminal_values(graph_file(path, input, other)?, command)?.graph)
}

/// [`graph`] with the rest of its file (its terminal values).
fn graph_file(path: &Path, input: &GraphInput, other: &Path) -> Result<GameFile, CliError> {
    if is_stdin(path) && is_stdin(other) {
        return Err(CliError::Usage(
            "the graph and the answer cannot both come from standard input".into(),
        ));
    }
    Ok(read_graph(Some(path), input)?.0)
}

fn is_stdin(p: &Path) -> bool {
    p == Path::new("-")
}

/// Prints the verdict and returns its exit code: 0 for `Ok`, 1 for `Err`.
fn verdict(
    json: bool,
    result: Result<(String, Value), (String, Value)>,
) -> Result<ExitCode, CliError> {
    let mut out = Output::create(None)?;
    let (code, line, mut value) = match result {
        Ok((line, value)) => (0, format!("ok: {line}"), value),
        Err((line, value)) => (1, format!("wrong: {line}"), value),
    };
    if json {
        if let Value::Object(map) = &mut value {
            map.insert("message".into(), Value::String(line));
        }
        write_json(&mut out, &value)?;
    } else {
        writeln!(out, "{line}")?;
    }
    out.finish()?;
    Ok(ExitCode::from(code))
}

fn run_retro(args: &TableArgs) -> Result<ExitCode, CliError> {
    let file = graph_file(&args.graph, &args.input, &args.table)?;
    let g = &file.graph;
    let n = g.num_vertices();
    let four = file.terminal.is_some();
    let mut input = Input::open(Some(args.table.as_path()))?;
    let name = input.name.clone();
    let starts_json =
        input.reader.fill_buf()?.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let table = if starts_json {
        read_retro_json(input, n, four)?
    } else if four {
        Table::read(&mut input.reader, n).map_err(|e| CliError::at(&name, e.position(), e))?
    } else {
        let s =
            read_table(&mut input.reader, n).map_err(|e| CliError::at(&name, e.position(), e))?;
        three_outcomes(&s)
    };
    let bar = progress(None, "checking");
    let result = match &file.terminal {
        Some(values) => gamegraph_game::verify(g, |v| values.value_or_loss(v), &table)
            .map_err(|e| (e.to_string(), e.rule())),
        None => {
            let s = retro_solution(&table).map_err(|e| CliError::input(&name, None, e))?;
            verify(g, &s).map_err(|e| (e.to_string(), e.rule()))
        }
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = match result {
        Ok(()) => {
            let c = table.counts();
            let counts = JsonCounts::of(c);
            let line = gamegraph_game::verified_retro(c, four);
            Ok((
                format!("{n} vertices, {} arcs: {line}", g.num_arcs()),
                json!({"ok": true, "vertices": n, "arcs": g.num_arcs(), "counts": counts}),
            ))
        }
        Err((message, (vertex, rule))) => Err((
            format!("{message} (rule {rule})"),
            json!({"ok": false, "vertex": vertex.map(Vertex::one_based), "rule": rule}),
        )),
    };
    verdict(args.json, result)
}

/// A three-outcome solution as a table.
fn three_outcomes(s: &Solution) -> Table {
    let vertices = (0..s.num_vertices()).map(Vertex::from_index);
    Table {
        outcomes: s.outcomes().to_vec(),
        remoteness: vertices.clone().map(|v| s.depth(v)).collect(),
        moves: vertices.map(|v| s.best_move(v)).collect(),
    }
}

/// The table of a graph without terminal values, as the three-outcome solution it must be.
fn retro_solution(t: &Table) -> Result<Solution, String> {
    Solution::from_parts(t.outcomes.clone(), t.remoteness.clone(), t.moves.clone())
        .map_err(|e| e.to_string())
}

/// The `--json` form of `retro --all`: its `"all"` array, outcomes by their words; a tie
/// only when `ties` (a graph with terminal values).
fn read_retro_json(input: Input, n: usize, ties: bool) -> Result<Table, CliError> {
    #[derive(serde::Deserialize)]
    struct Row {
        vertex: u64,
        outcome: String,
        depth: Option<u32>,
        #[serde(rename = "move")]
        best: Option<u64>,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        all: Option<Vec<Row>>,
    }
    let name = input.name.clone();
    let doc: Doc = serde_json::from_reader(input.reader).map_err(|e| {
        let at = (e.line() > 0).then(|| (e.line() as u64, e.column() as u64));
        CliError::input(&name, at, e)
    })?;
    let bad = |message: String| CliError::input(&name, None, message);
    let rows = doc.all.ok_or_else(|| {
        bad("expected the output of `retro --all --json` (an \"all\" array)".into())
    })?;
    if rows.len() != n {
        return Err(bad(format!("expected {n} entries in \"all\", found {}", rows.len())));
    }
    let words = if ties {
        "\"win\", \"loss\", \"tie\" or \"draw\""
    } else {
        "\"win\", \"loss\" or \"draw\""
    };
    let mut t = Table { outcomes: Vec::new(), remoteness: Vec::new(), moves: Vec::new() };
    for (i, row) in rows.iter().enumerate() {
        let entry = |what: String| bad(format!("entry {} of \"all\": expected {what}", i + 1));
        if row.vertex != i as u64 + 1 {
            return Err(entry(format!("vertex {}, found {}", i + 1, row.vertex)));
        }
        t.outcomes.push(match Outcome::ALL.into_iter().find(|o| o.word() == row.outcome) {
            Some(o) if o != Outcome::Tie || ties => o,
            _ => return Err(entry(format!("an outcome {words}, found {:?}", row.outcome))),
        });
        t.remoteness.push(match row.depth {
            Some(d) if d < u32::MAX => Some(d),
            None => None,
            Some(d) => return Err(entry(format!("a depth below {}, found {d}", u32::MAX))),
        });
        t.moves.push(match row.best {
            None => None,
            Some(m) if m >= 1 && m <= n as u64 => Some(Vertex((m - 1) as u32)),
            Some(m) => return Err(entry(format!("a move in 1..={n}, found {m}"))),
        });
    }
    Ok(t)
}

fn run_grundy(args: &TableArgs) -> Result<ExitCode, CliError> {
    let g = graph(&args.graph, &args.input, &args.table, "verify grundy")?;
    let n = g.num_vertices();
    let mut input = Input::open(Some(args.table.as_path()))?;
    let starts_json =
        input.reader.fill_buf()?.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    let table = if starts_json {
        read_grundy_json(input, n)?
    } else {
        ValueTable::read(&mut input.reader, n)
            .map_err(|e| CliError::at(&input.name, e.position(), e))?
    };
    let bar = progress(None, "checking");
    let result = verify_values(&g, &table);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = match result {
        Ok(()) => {
            let (finite, infinite) = table.counts();
            Ok((
                table.describe(&g),
                json!({"ok": true, "vertices": n, "arcs": g.num_arcs(),
                       "finite": finite, "infinite": infinite}),
            ))
        }
        Err(e) => Err((
            format!("{e} (rule {})", e.rule()),
            json!({"ok": false, "vertex": e.vertex().map(Vertex::one_based), "rule": e.rule()}),
        )),
    };
    verdict(args.json, result)
}

/// The `--json` form of `grundy --all`: an array of `{"vertex": V, "value": "…"}`.
fn read_grundy_json(input: Input, n: usize) -> Result<ValueTable, CliError> {
    use crate::cmd::grundy::JsonValue;
    let name = input.name.clone();
    let rows: Vec<JsonValue> = serde_json::from_reader(input.reader).map_err(|e| {
        let at = (e.line() > 0).then(|| (e.line() as u64, e.column() as u64));
        CliError::input(&name, at, e)
    })?;
    let bad = |message: String| CliError::input(&name, None, message);
    if rows.len() != n {
        return Err(bad(format!("expected {n} entries, found {}", rows.len())));
    }
    let mut table = ValueTable::new();
    for (i, row) in rows.iter().enumerate() {
        let entry = |what: String| bad(format!("entry {}: {what}", i + 1));
        if row.vertex != i as u64 + 1 {
            return Err(entry(format!("expected vertex {}, found {}", i + 1, row.vertex)));
        }
        let value = row.value.value();
        table.push(&value).map_err(|e| entry(e.to_string()))?;
    }
    Ok(table)
}

fn run_kernel(args: &KernelArgs) -> Result<ExitCode, CliError> {
    let (Some(set), None) = (&args.set, &args.none) else {
        let proof = args.none.as_deref().expect("clap requires SET or --none");
        return run_kernel_none(args, proof);
    };
    let g = graph(&args.graph, &args.input, Path::new(set), "verify kernel")?;
    let n = g.num_vertices();
    let (text, source) = if set == "-" {
        let mut text = String::new();
        Input::open(None)?.reader.read_to_string(&mut text).map_err(|e| {
            CliError::input("<stdin>", None, format!("the set is not UTF-8 text: {e}"))
        })?;
        (text, "<stdin>")
    } else {
        (set.clone(), "SET")
    };
    let list =
        parse_vertex_list(&text, n).map_err(|e| CliError::Usage(format!("{source}: {e}")))?;
    let mut set = VertexSet::repeat(false, n);
    for v in list {
        set.set(v.index(), true);
    }
    let claim = if args.independent || (args.alpha.is_some() && !args.kernel) {
        SetClaim::Independent(args.alpha)
    } else if args.absorbing || (args.beta.is_some() && !args.kernel) {
        SetClaim::Absorbing(args.beta)
    } else {
        SetClaim::Kernel
    };
    let v = judge_set(&g, &set, claim).map_err(|e| CliError::Other(anyhow::Error::new(e)))?;
    let result = if v.ok {
        Ok((v.message, json!({"ok": true, "size": v.size, "property": claim.property()})))
    } else {
        let rule = v.rule.unwrap_or("other");
        let json = if rule == "size" {
            json!({"ok": false, "vertex": null, "rule": rule, "size": v.size})
        } else {
            json!({"ok": false, "vertex": v.vertex.map(Vertex::one_based),
                   "arc": v.arc.map(|(a, b)| [a.one_based(), b.one_based()]), "rule": rule})
        };
        Err((format!("{} (rule {rule})", v.message), json))
    };
    verdict(args.json, result)
}

/// `verify kernel GRAPH --none FILE`: the DRAT proof in FILE against the kernel
/// conditions of GRAPH.
fn run_kernel_none(args: &KernelArgs, path: &Path) -> Result<ExitCode, CliError> {
    let g = graph(&args.graph, &args.input, path, "verify kernel")?;
    let mut input = Input::open(Some(path))?;
    let mut text = Vec::new();
    input.reader.read_to_end(&mut text)?;
    let proof = DratProof::parse(&text)
        .map_err(|e| CliError::at(&input.name, e.position(), e.message()))?;
    let bar = progress(None, "checking");
    let checked = check_no_kernel(&g, &proof);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = match checked {
        Ok(c) => Ok((
            c.describe(&g),
            json!({"ok": true, "vertices": g.num_vertices(), "arcs": g.num_arcs(),
                   "clauses": c.clauses, "lemmas": c.lemmas, "rat": c.rat,
                   "deletions": c.deletions, "ignored_deletions": c.ignored_deletions}),
        )),
        Err(e) => Err((
            format!("{e} (rule {})", e.rule()),
            json!({"ok": false, "line": e.line(), "rule": e.rule()}),
        )),
    };
    verdict(args.json, result)
}

fn run_claim(rules: Rules<'_>, args: &ClaimArgs) -> Result<ExitCode, CliError> {
    let claim =
        PeriodClaim { preperiod: args.preperiod, period: args.period, least: !args.not_least };
    let deadline = deadline_after(args.time_limit)?;
    let result = match verify_period_until(rules, claim, deadline, None) {
        Ok(check @ PeriodCheck { checked_from, checked_to, values }) => Ok((
            check.describe(rules, claim),
            json!({"ok": true, "preperiod": claim.preperiod, "period": claim.period,
                   "least": claim.least, "checked_from": checked_from,
                   "checked_to": checked_to, "values": values}),
        )),
        Err(e @ (ClaimError::ZeroPeriod | ClaimError::TooManyValues { .. })) => {
            return Err(CliError::Usage(e.to_string()));
        }
        Err(ClaimError::Limit { limit: Limit::Time, computed }) => {
            return Err(CliError::limit(
                Limit::Time,
                format_args!(
                    "time limit of {} s reached after computing {computed} values; raise it \
                     with --time-limit",
                    args.time_limit
                ),
            ));
        }
        Err(e @ ClaimError::Limit { limit, .. }) => return Err(CliError::limit(limit, e)),
        Err(e) => {
            let n = match e {
                ClaimError::NotPeriodic { n, .. } => Some(n),
                _ => None,
            };
            Err((
                format!("{e} (rule {})", e.rule()),
                json!({"ok": false, "n": n, "rule": e.rule()}),
            ))
        }
    };
    verdict(args.json, result)
}
