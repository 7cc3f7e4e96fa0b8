//! `cargo xtask bench kernel --dimacs DIR [--clisat PATH] [--limit SECS] [--only A,B]`:
//! α of the complement of each DIMACS clique instance in DIR (`*.clq`, `p edge N M` then
//! `e u v` lines, 1-based; `c` and `n` lines skipped), which is the clique number ω of the
//! instance, against the CliSAT maximum clique solver on the instance itself.
//!
//! Each instance is converted once to the header format (the complement, one arc per
//! non-adjacent pair: α reads arcs as undirected edges). gamegraph is the kernel crate's
//! `stable_time` example on one thread (it checks the set it found before printing); the
//! peer is the CliSAT binary given by `--clisat` (`mcp --graph FILE --threads 1
//! --time-limit SECS`), skipped when absent. Both are timed as whole processes (reading the
//! file included), three runs each, interleaved (ours, the peer's, ours, ...), all shown,
//! each stopped at the limit (default 60 s). The answers must agree when both finish,
//! except that a smaller clique from the peer than gamegraph's (checked) set is reported
//! and the row left out of the ratios.
//! The last table gives, per family, the geometric mean of peer / gamegraph over the
//! instances both solved in all three runs.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::kernel::{Runs, instances, stable_time_example, timed};

/// A DIMACS clique instance: its vertex count and its edges (0-based, each pair once).
fn read_clq(path: &Path) -> Result<(usize, Vec<(usize, usize)>)> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut n = None;
    let mut edges = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut f = line.split_whitespace();
        match f.next() {
            Some("p") => {
                let _format = f.next();
                n = Some(f.next().context("p line without N")?.parse::<usize>()?);
            }
            Some("e") => {
                let n = n.context("an edge before the p line")?;
                let mut end = || -> Result<usize> {
                    let v: usize = f.next().context("e line without two vertices")?.parse()?;
                    if v == 0 || v > n {
                        bail!("{}:{}: vertex {v} outside 1..{n}", path.display(), i + 1);
                    }
                    Ok(v - 1)
                };
                let (a, b) = (end()?, end()?);
                if a != b {
                    edges.push((a.min(b), a.max(b)));
                }
            }
            _ => {}
        }
    }
    edges.sort_unstable();
    edges.dedup();
    Ok((n.context("no p line")?, edges))
}

/// Writes the complement of the instance in the header format; returns its arcs.
fn write_complement(path: &Path, n: usize, edges: &[(usize, usize)]) -> Result<usize> {
    let mut adj = vec![false; n * n];
    for &(a, b) in edges {
        adj[a * n + b] = true;
    }
    let mut arcs = String::new();
    let mut m = 0;
    for a in 0..n {
        for b in a + 1..n {
            if !adj[a * n + b] {
                let _ = writeln!(arcs, "{} {}", a + 1, b + 1);
                m += 1;
            }
        }
    }
    fs::write(path, format!("# complement of a DIMACS clique instance\n{n} {m}\n{arcs}"))?;
    Ok(m)
}

/// The instance's family: its name up to the first digit or underscore ("p_hat" whole).
fn family(name: &str) -> &str {
    if name.starts_with("p_hat") {
        return "p_hat";
    }
    let end = name.find(|c: char| c.is_ascii_digit() || c == '_').unwrap_or(name.len());
    name[..end].trim_end_matches('-')
}

/// Runs the DIMACS table. `args` are `bench`'s; `--dimacs DIR` is there.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let dir = PathBuf::from(value("--dimacs").context("--dimacs needs a directory")?);
    let clisat = value("--clisat").map(PathBuf::from);
    if let Some(c) = &clisat
        && !c.is_file()
    {
        bail!("--clisat {}: no such file", c.display());
    }
    let limit = Duration::from_secs(super::number_arg(args, "--limit", 60)? as u64);
    let only: Option<Vec<&str>> = value("--only").map(|s| s.split(',').collect());
    let reps = if args.iter().any(|a| a == "--quick") { 1 } else { 3 };
    let bin = stable_time_example(root)?;
    let work = root.join("target/bench-dimacs");
    fs::create_dir_all(&work)?;
    let files = instances(&dir, "clq")?;
    let tl = limit.as_secs().to_string();
    let mut table = String::from(
        "| instance | n | edges | ω | gamegraph runs (s, 1 thread) | CliSAT runs (s, 1 thread) | CliSAT / gamegraph (medians) |\n|---|---:|---:|---:|---|---|---:|\n",
    );
    let mut ratios: Vec<(String, f64)> = Vec::new();
    let mut wrong: Vec<String> = Vec::new();
    for file in files {
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_owned();
        if only.as_ref().is_some_and(|o| !o.contains(&name.as_str())) {
            continue;
        }
        let (n, edges) = read_clq(&file)?;
        let comp = work.join(format!("{name}.txt"));
        write_complement(&comp, n, &edges)?;
        let (mut ours, mut theirs) = (Runs::default(), Runs::default());
        for _ in 0..reps {
            ours.stable_time(&bin, "alpha", &comp, limit, |b| b.replace("alpha", "ω"))?;
            if let Some(c) = &clisat
                && theirs.timeout.is_none()
            {
                let mut cmd = Command::new(c);
                cmd.args(["mcp", "--graph"]).arg(&file).args([
                    "--threads",
                    "1",
                    "--time-limit",
                    &tl,
                ]);
                match timed(&mut cmd, limit + Duration::from_secs(5))? {
                    Ok((_, out)) if out.contains("Exit on timeout") => {
                        theirs.timeout = Some("timeout".into());
                    }
                    Ok((wall, out)) => {
                        // The clique is printed last, its size in parentheses: `[...] (k)]`.
                        let k = out.rsplit_once('(').and_then(|(_, k)| {
                            k.split(')').next().and_then(|k| k.trim().parse().ok())
                        });
                        theirs.answer = Some(k.context("CliSAT printed no clique size")?);
                        theirs.secs.push(wall.as_secs_f64());
                    }
                    Err(_) => theirs.timeout = Some("timeout".into()),
                }
            }
        }
        // gamegraph's set is checked before it is printed: a larger ω from it shows the
        // peer wrong; a smaller one fails the run.
        let mut differ = false;
        if let (Some(a), Some(b)) = (ours.answer, theirs.answer)
            && a != b
        {
            if a < b {
                bail!("answers differ on {name}: gamegraph {a}, CliSAT {b}");
            }
            wrong.push(format!("{name} (CliSAT {b}, gamegraph {a})"));
            differ = true;
        }
        let omega = match (ours.answer, theirs.answer, &ours.timeout) {
            (Some(a), Some(b), _) if differ => format!("{a} (CliSAT: {b})"),
            (Some(a), _, _) | (None, Some(a), _) => a.to_string(),
            (None, None, Some(t)) => t.clone(),
            _ => "-".to_owned(),
        };
        let peer_cell =
            if clisat.is_some() { theirs.cell(limit, reps) } else { "not run".to_owned() };
        let ratio = match (ours.median(reps), theirs.median(reps)) {
            (Some(u), Some(t)) if !differ => {
                ratios.push((family(&name).to_owned(), t / u));
                format!("{:.2}x", t / u)
            }
            _ => "-".to_owned(),
        };
        let row = format!(
            "| {name} | {n} | {} | {omega} | {} | {peer_cell} | {ratio} |",
            edges.len(),
            ours.cell(limit, reps)
        );
        eprintln!("{row}");
        let _ = writeln!(table, "{row}");
    }
    println!("{table}");
    if !wrong.is_empty() {
        println!(
            "CliSAT's clique is smaller than gamegraph's checked set on {}.\n",
            wrong.join(", ")
        );
    }
    if !ratios.is_empty() {
        println!(
            "| family | instances both solved | geometric mean of CliSAT / gamegraph | lowest |"
        );
        println!("|---|---:|---:|---:|");
        let mut fams: Vec<&str> = ratios.iter().map(|(f, _)| f.as_str()).collect();
        fams.sort_unstable();
        fams.dedup();
        for f in fams {
            let r: Vec<f64> = ratios.iter().filter(|(g, _)| g == f).map(|(_, r)| *r).collect();
            let geo = (r.iter().map(|x| x.ln()).sum::<f64>() / r.len() as f64).exp();
            let low = r.iter().copied().fold(f64::INFINITY, f64::min);
            println!("| {f} | {} | {geo:.2}x | {low:.2}x |", r.len());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::family;

    #[test]
    fn families_are_name_prefixes() {
        assert_eq!(family("san400_0.9_1"), "san");
        assert_eq!(family("sanr200_0.9"), "sanr");
        assert_eq!(family("p_hat500-3"), "p_hat");
        assert_eq!(family("C250.9"), "C");
        assert_eq!(family("MANN_a27"), "MANN");
        assert_eq!(family("gen400_p0.9_55"), "gen");
        assert_eq!(family("c-fat200-1"), "c-fat");
        assert_eq!(family("keller4"), "keller");
    }
}
