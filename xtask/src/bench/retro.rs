//! `cargo xtask bench retro [--quick]`: load and solve game graphs with `gamegraph retro`,
//! from binary (with and without a stored predecessor index) and from header text, on two
//! threads and on one, side by side in one run with two single-threaded C++ baselines that
//! read the header text (built here with `g++ -O2`):
//!
//! - the strong one, `xtask/baselines/retro_fast.cpp`: the whole file read at once, a
//!   pointer parser, counting-sort CSR, the queue algorithm;
//! - the naive one, `xtask/baselines/retro.cpp`: the same algorithm reading one character
//!   at a time.
//!
//! Workloads: random graphs with n = m / 3 (a mix of W, L and D) at 10^6, 10^7 and 10^8
//! arcs; at 10^7 arcs also random graphs with n = m / 5 (mostly draws, so reading
//! dominates) and acyclic graphs with n = m / 3 (every position decided). `--quick` runs
//! the three workloads at 10^6 arcs only.
//!
//! Before timing anything, the strong baseline's `--all` table must be byte-identical to
//! `gamegraph retro --all` on every input in `fixtures/retro/`, on small generated graphs
//! and on the benchmark inputs of at most 10^6 arcs. Prints a Markdown table.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use super::{Measured, best_of, build_release, mib, secs};

/// Largest benchmark input whose `--all` tables are compared before timing.
const CHECK_ALL_ARCS: u64 = 1_000_000;

/// The shape of a benchmark graph.
#[derive(Debug, Clone, Copy)]
struct Workload {
    /// Arcs.
    arcs: u64,
    /// Vertices per arc: n = m / `per_vertex`.
    per_vertex: u64,
    /// Every arc from a lower to a higher id.
    acyclic: bool,
}

impl Workload {
    fn vertices(self) -> u64 {
        self.arcs / self.per_vertex
    }

    fn name(self) -> String {
        let kind = if self.acyclic { "acyclic" } else { "random" };
        format!("{kind}, n = m/{}", self.per_vertex)
    }

    fn file_stem(self) -> String {
        let kind = if self.acyclic { "acyclic" } else { "random" };
        format!("retro-{kind}-m{}-n{}", self.arcs, self.vertices())
    }
}

/// The workloads of a run, in table order.
fn workloads(quick: bool) -> Vec<Workload> {
    let random = |arcs| Workload { arcs, per_vertex: 3, acyclic: false };
    let drawish = |arcs| Workload { arcs, per_vertex: 5, acyclic: false };
    let acyclic = |arcs| Workload { arcs, per_vertex: 3, acyclic: true };
    if quick {
        vec![random(1_000_000), drawish(1_000_000), acyclic(1_000_000)]
    } else {
        vec![
            random(1_000_000),
            random(10_000_000),
            drawish(10_000_000),
            acyclic(10_000_000),
            random(100_000_000),
        ]
    }
}

fn run_ok(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().with_context(|| format!("cannot run {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}

/// Runs `cmd` and returns its standard output; fails on a non-zero exit.
fn output(cmd: &mut Command) -> Result<Vec<u8>> {
    let out = cmd.stderr(Stdio::null()).output().with_context(|| format!("cannot run {cmd:?}"))?;
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", out.status);
    }
    Ok(out.stdout)
}

fn utf8(path: &Path) -> Result<&str> {
    path.to_str().with_context(|| format!("{} is not UTF-8", path.display()))
}

/// Writes the graph of `gamegraph gen` with `args` to `path` in format `to`, unless the
/// file exists (through a temporary file, so an interrupted run leaves nothing half done).
pub(super) fn generate(bin: &Path, path: &Path, args: &[String], to: &str) -> Result<()> {
    if path.exists() {
        return Ok(());
    }
    println!("generating {}", path.display());
    let tmp = path.with_extension("tmp");
    run_ok(Command::new(bin.join("gamegraph")).arg("gen").args(args).args([
        "--to",
        to,
        "-o",
        utf8(&tmp)?,
    ]))?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The `gamegraph gen` arguments of a graph.
pub(super) fn gen_args(vertices: u64, arcs: u64, seed: u64, acyclic: bool) -> Vec<String> {
    let mut args: Vec<String> = ["--vertices", &vertices.to_string(), "--arcs", &arcs.to_string()]
        .into_iter()
        .map(str::to_owned)
        .collect();
    args.extend(["--seed".to_owned(), seed.to_string()]);
    if acyclic {
        args.push("--acyclic".to_owned());
    }
    args
}

/// The binary and header-text files of a workload, generated once.
/// The inputs of a workload: binary, binary with the stored predecessor index, header text.
struct Inputs {
    binary: PathBuf,
    indexed: PathBuf,
    text: PathBuf,
}

fn data(root: &Path, bin: &Path, w: Workload) -> Result<Inputs> {
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir)?;
    // The name carries the binary format version, so a new version is generated afresh.
    let binary = dir.join(format!("{}.v2.bin", w.file_stem()));
    let text = dir.join(format!("{}.txt", w.file_stem()));
    generate(bin, &binary, &gen_args(w.vertices(), w.arcs, 1, w.acyclic), "binary")?;
    convert(bin, &binary, &text, &["--to", "header"])?;
    let indexed = dir.join(format!("{}.v2.pred.bin", w.file_stem()));
    convert(bin, &binary, &indexed, &["--to", "binary", "--with-predecessors"])?;
    Ok(Inputs { binary, indexed, text })
}

/// Writes `gamegraph convert FROM ARGS` to `to` (through a temporary file) unless it exists.
pub(super) fn convert(bin: &Path, from: &Path, to: &Path, args: &[&str]) -> Result<()> {
    if to.exists() {
        return Ok(());
    }
    println!("converting to {}", to.display());
    let tmp = to.with_extension("tmp");
    run_ok(
        Command::new(bin.join("gamegraph")).arg("convert").arg(from).args(args).arg("-o").arg(&tmp),
    )?;
    std::fs::rename(&tmp, to)?;
    Ok(())
}

/// Builds the C++ program `xtask/baselines/{source}` with `g++ -O2` into
/// `target/bench-tools/{name}`.
fn build_baseline(root: &Path, source: &str, name: &str) -> Result<PathBuf> {
    let dir = root.join("target/bench-tools");
    std::fs::create_dir_all(&dir)?;
    let exe = dir.join(name);
    let src = root.join("xtask/baselines").join(source);
    run_ok(Command::new("g++").args(["-O2", "-o", utf8(&exe)?, utf8(&src)?]))
        .with_context(|| format!("building the C++ baseline {source} needs g++"))?;
    Ok(exe)
}

/// Fails unless the strong baseline's `--all` table equals `gamegraph retro --all` byte for
/// byte on `file`.
fn check_all(bin: &Path, strong: &Path, file: &Path) -> Result<()> {
    let ours = output(Command::new(bin.join("gamegraph")).args(["retro", "--all"]).arg(file))?;
    let theirs = output(Command::new(strong).arg(file).arg("--all"))?;
    if ours != theirs {
        let line = ours
            .split(|&b| b == b'\n')
            .zip(theirs.split(|&b| b == b'\n'))
            .position(|(a, b)| a != b);
        bail!(
            "the strong baseline's --all table differs from gamegraph retro --all on {} (first at line {})",
            file.display(),
            line.map_or_else(|| "the end".to_owned(), |l| (l + 1).to_string()),
        );
    }
    Ok(())
}

/// The pre-check on the fixtures and on small generated graphs (random and acyclic, a few
/// seeds); returns how many files agreed.
fn check_small(root: &Path, bin: &Path, strong: &Path) -> Result<usize> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("fixtures/retro"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            files.push(path);
        }
    }
    files.sort();
    let dir = root.join("target/bench-data/retro-check");
    std::fs::create_dir_all(&dir)?;
    for seed in 1..=5 {
        for acyclic in [false, true] {
            let kind = if acyclic { "acyclic" } else { "random" };
            let path = dir.join(format!("{kind}-n1000-m3000-s{seed}.txt"));
            generate(bin, &path, &gen_args(1000, 3000, seed, acyclic), "header")?;
            files.push(path);
        }
    }
    for file in &files {
        check_all(bin, strong, file)?;
    }
    Ok(files.len())
}

/// The shares of W, L and D positions (in %) from the strong baseline's summary on stderr
/// (`W a L b D c, ...`).
fn shares(strong: &Path, text: &Path) -> Result<[f64; 3]> {
    let out = Command::new(strong).arg(text).stdout(Stdio::null()).output()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let words: Vec<&str> = err.split([' ', ',']).collect();
    let count = |label: &str| -> Result<f64> {
        let i = words.iter().position(|w| *w == label).context("no counts")?;
        Ok(words.get(i + 1).context("no count")?.parse::<f64>()?)
    };
    let (w, l, d) = (count("W")?, count("L")?, count("D")?);
    let total = (w + l + d).max(1.0);
    Ok([100.0 * w / total, 100.0 * l / total, 100.0 * d / total])
}

struct Row {
    workload: Workload,
    input: &'static str,
    solver: String,
    measured: Measured,
}

/// Runs the retro benchmark.
pub(crate) fn run(root: &Path, quick: bool) -> Result<()> {
    let bin = build_release(root)?;
    let strong = build_baseline(root, "retro_fast.cpp", "retro-fast")?;
    let naive = build_baseline(root, "retro.cpp", "retro-baseline")?;
    let checked = check_small(root, &bin, &strong)?;
    println!(
        "pre-check: the strong baseline's --all table equals gamegraph retro --all on {checked} \
         small graphs (fixtures/retro and generated)"
    );
    let mut rows = Vec::new();
    let mut mixes = Vec::new();
    for w in workloads(quick) {
        let m = w.arcs;
        let Inputs { binary, indexed, text } = data(root, &bin, w)?;
        if m <= CHECK_ALL_ARCS {
            check_all(&bin, &strong, &text)?;
            println!("pre-check: --all tables equal on {}", text.display());
        }
        let [pw, pl, pd] = shares(&strong, &text)?;
        mixes.push(format!("- {} at {m} arcs: W {pw:.1} %, L {pl:.1} %, D {pd:.1} %", w.name()));
        let reps = if m >= 100_000_000 { 1 } else { 3 };
        let baseline = |exe: &Path| {
            best_of(reps, || {
                let mut c = Command::new(exe);
                c.arg(&text).stderr(Stdio::null());
                c
            })
        };
        let (strong_m, strong_out) = baseline(&strong)?;
        let (naive_m, naive_out) = baseline(&naive)?;
        if strong_out != naive_out {
            bail!("baselines differ on {}: strong {strong_out:?}, naive {naive_out:?}", w.name());
        }
        let inputs = [
            ("binary", &binary),
            ("binary, stored predecessors", &indexed),
            ("header text", &text),
        ];
        for (input, file) in inputs {
            for threads in ["2", "1"] {
                let (measured, out) = best_of(reps, || {
                    let mut c = Command::new(bin.join("gamegraph"));
                    c.args(["retro", "--threads", threads]).arg(file);
                    c
                })?;
                if out != strong_out {
                    bail!(
                        "answers differ on {} at {m} arcs: ours {out:?}, baseline {strong_out:?}",
                        w.name()
                    );
                }
                rows.push(Row {
                    workload: w,
                    input,
                    solver: format!("gamegraph retro --threads {threads}"),
                    measured,
                });
            }
        }
        for (solver, measured) in [
            ("strong C++ (g++ -O2, 1 thread)", strong_m),
            ("naive C++ (g++ -O2, 1 thread)", naive_m),
        ] {
            rows.push(Row { workload: w, input: "header text", solver: solver.into(), measured });
        }
    }

    print_table(&rows);
    println!();
    println!("Positions by outcome:");
    for line in mixes {
        println!("{line}");
    }
    Ok(())
}

fn print_table(rows: &[Row]) {
    let time_of = |w: &Workload, solver: &str| {
        rows.iter()
            .find(|r| {
                r.workload.arcs == w.arcs
                    && r.workload.name() == w.name()
                    && r.solver.starts_with(solver)
            })
            .map(|r| r.measured.wall.as_secs_f64())
    };
    println!();
    println!(
        "| workload | arcs | vertices | input | solver | time (s) | CPU (s) | arcs/s | peak RSS (MiB) | bytes/arc | strong / ours | naive / ours |"
    );
    println!("|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let t = r.measured.wall.as_secs_f64();
        let ratio = |solver| {
            time_of(&r.workload, solver).map_or_else(|| "-".to_owned(), |b| format!("{:.2}", b / t))
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}M | {} | {:.1} | {} | {} |",
            r.workload.name(),
            r.workload.arcs,
            r.workload.vertices(),
            r.input,
            r.solver,
            secs(r.measured.wall),
            secs(r.measured.cpu),
            r.workload.arcs as f64 / t / 1e6,
            mib(r.measured.peak_rss),
            r.measured.peak_rss as f64 / r.workload.arcs as f64,
            ratio("strong"),
            ratio("naive"),
        );
    }
    println!();
    println!(
        "Each time is the best wall time of several whole-process runs (one at 10^8 arcs); \
         CPU is that run's user + system time. The ratio columns divide a baseline's time by \
         the row's: above 1 the row is faster. Both baselines are single-threaded and read \
         the header text."
    );
}
