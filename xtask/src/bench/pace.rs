//! `cargo xtask bench kernel --pace DIR [--peer PATH] [--limit SECS] [--only A,B]`:
//! β of each PACE 2025 dominating-set instance in DIR (`*.gr`, `p ds N M` then `u v`
//! lines, 1-based; `c` lines skipped), which is its domination number, against an exact
//! dominating-set solver that reads the instance on stdin and prints the size of its set,
//! then the set, one vertex a line (the PACE 2025 output format).
//!
//! Each instance is converted once to the header format with each edge as two arcs, so
//! that an absorbing set is a dominating set. gamegraph is the kernel crate's
//! `stable_time` example on one thread (it checks that its set is absorbing before
//! printing); the peer is the binary given by `--peer`, skipped when absent, and its set is
//! checked against the instance here. Both are timed as whole processes (reading the
//! input included), three runs each, interleaved (ours, the peer's, ours, ...), all shown,
//! each stopped at the limit (default 60 s; a run of gamegraph stopped there shows its
//! bounds on β). The answers must agree when both finish.
//! The last line gives the geometric mean of peer / gamegraph over the instances both
//! solved in all three runs.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::kernel::{Runs, instances, stable_time_example, timed};

/// A PACE dominating-set instance: its vertex count and its edges (0-based, each pair
/// once, no loops).
fn read_gr(path: &Path) -> Result<(usize, Vec<(usize, usize)>)> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut n = None;
    let mut edges = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut f = line.split_whitespace();
        match f.next() {
            None | Some("c") => {}
            Some("p") => {
                if f.next() != Some("ds") {
                    bail!("{}:{}: not a `p ds` line", path.display(), i + 1);
                }
                n = Some(f.next().context("p line without N")?.parse::<usize>()?);
            }
            Some(first) => {
                let n = n.context("an edge before the p line")?;
                let end = |s: Option<&str>| -> Result<usize> {
                    let v: usize = s.context("an edge line without two vertices")?.parse()?;
                    if v == 0 || v > n {
                        bail!("{}:{}: vertex {v} outside 1..{n}", path.display(), i + 1);
                    }
                    Ok(v - 1)
                };
                let (a, b) = (end(Some(first))?, end(f.next())?);
                if a != b {
                    edges.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    Ok((n.context("no p line")?, edges))
}

/// Writes the instance in the header format, each edge as two arcs; returns the arcs.
fn write_symmetric(path: &Path, n: usize, edges: &[(usize, usize)]) -> Result<usize> {
    let mut text = format!("# a dominating-set instance, each edge as two arcs\n{n} {}\n", {
        2 * edges.len()
    });
    for &(a, b) in edges {
        let _ = writeln!(text, "{} {}\n{} {}", a + 1, b + 1, b + 1, a + 1);
    }
    fs::write(path, text)?;
    Ok(2 * edges.len())
}

/// The size of the set the peer printed, after checking that it dominates the instance.
fn check_peer(out: &str, n: usize, edges: &[(usize, usize)]) -> Result<usize> {
    let mut lines = out.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('c'));
    let k: usize = lines.next().context("the peer printed nothing")?.parse()?;
    let mut dominated = vec![false; n];
    let mut chosen = vec![false; n];
    let mut count = 0;
    for l in lines {
        let v: usize = l.parse().with_context(|| format!("the peer printed {l:?}"))?;
        if v == 0 || v > n || chosen[v - 1] {
            bail!("the peer printed vertex {v} outside 1..{n} or twice");
        }
        chosen[v - 1] = true;
        dominated[v - 1] = true;
        count += 1;
    }
    if count != k {
        bail!("the peer announced {k} vertices and printed {count}");
    }
    for &(a, b) in edges {
        dominated[a] |= chosen[b];
        dominated[b] |= chosen[a];
    }
    if let Some(v) = dominated.iter().position(|&d| !d) {
        bail!("the peer's set leaves vertex {} undominated", v + 1);
    }
    Ok(k)
}

/// Runs the PACE table. `args` are `bench`'s; `--pace DIR` is there.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let dir = PathBuf::from(value("--pace").context("--pace needs a directory")?);
    let peer = value("--peer").map(PathBuf::from);
    if let Some(p) = &peer
        && !p.is_file()
    {
        bail!("--peer {}: no such file", p.display());
    }
    let limit = Duration::from_secs(super::number_arg(args, "--limit", 60)? as u64);
    let only: Option<Vec<&str>> = value("--only").map(|s| s.split(',').collect());
    let reps = if args.iter().any(|a| a == "--quick") { 1 } else { 3 };
    let bin = stable_time_example(root)?;
    let work = root.join("target/bench-pace");
    fs::create_dir_all(&work)?;
    let files = instances(&dir, "gr")?;
    let mut table = String::from(
        "| instance | n | edges | β | gamegraph runs (s, 1 thread) | peer runs (s) | peer / gamegraph (medians) |\n|---|---:|---:|---:|---|---|---:|\n",
    );
    let mut ratios: Vec<f64> = Vec::new();
    let (mut both, mut ours_only, mut peer_only, mut neither) = (0, 0, 0, 0);
    for file in files {
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_owned();
        if only.as_ref().is_some_and(|o| !o.contains(&name.as_str())) {
            continue;
        }
        let (n, edges) = read_gr(&file)?;
        let sym = work.join(format!("{name}.txt"));
        write_symmetric(&sym, n, &edges)?;
        let (mut ours, mut theirs) = (Runs::default(), Runs::default());
        for _ in 0..reps {
            ours.stable_time(&bin, "beta", &sym, limit, |b| {
                b.replace("beta", "β").replace("<=", "≤")
            })?;
            if let Some(p) = &peer
                && theirs.timeout.is_none()
            {
                let mut cmd = Command::new(p);
                cmd.stdin(fs::File::open(&file)?);
                match timed(&mut cmd, limit)? {
                    Ok((wall, out)) => {
                        let k = check_peer(&out, n, &edges)
                            .with_context(|| format!("the peer on {name}"))?;
                        theirs.answer = Some(k);
                        theirs.secs.push(wall.as_secs_f64());
                    }
                    Err(_) => theirs.timeout = Some("timeout".into()),
                }
            }
        }
        if let (Some(a), Some(b)) = (ours.answer, theirs.answer)
            && a != b
        {
            bail!("answers differ on {name}: gamegraph {a}, peer {b}");
        }
        let beta = match (ours.answer, theirs.answer, &ours.timeout) {
            (Some(a), _, _) | (None, Some(a), _) => a.to_string(),
            (None, None, Some(t)) => t.clone(),
            _ => "-".to_owned(),
        };
        let peer_cell =
            if peer.is_some() { theirs.cell(limit, reps) } else { "not run".to_owned() };
        let (u, t) = (ours.median(reps), theirs.median(reps));
        match (u.is_some(), t.is_some()) {
            (true, true) => both += 1,
            (true, false) => ours_only += 1,
            (false, true) => peer_only += 1,
            (false, false) => neither += 1,
        }
        let ratio = match (u, t) {
            (Some(u), Some(t)) => {
                ratios.push(t / u);
                format!("{:.2}x", t / u)
            }
            _ => "-".to_owned(),
        };
        let row = format!(
            "| {name} | {n} | {} | {beta} | {} | {peer_cell} | {ratio} |",
            edges.len(),
            ours.cell(limit, reps)
        );
        eprintln!("{row}");
        let _ = writeln!(table, "{row}");
    }
    println!("{table}");
    println!(
        "Solved in every run within {} s: both {both}, gamegraph only {ours_only}, peer only \
         {peer_only}, neither {neither}.",
        limit.as_secs()
    );
    if !ratios.is_empty() {
        let geo = (ratios.iter().map(|x| x.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "Geometric mean of peer / gamegraph over the {} instances both solved: {geo:.2}x \
             (lowest {low:.2}x).",
            ratios.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check_peer, read_gr, write_symmetric};

    #[test]
    fn an_instance_becomes_a_symmetric_digraph_and_a_peer_set_is_checked() {
        let dir = std::env::temp_dir().join(format!("pace-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gr = dir.join("path.gr");
        std::fs::write(&gr, "c a path\np ds 4 3\n1 2\n2 3\nc inside\n3 4\n").unwrap();
        let (n, edges) = read_gr(&gr).unwrap();
        assert_eq!((n, edges.clone()), (4, vec![(0, 1), (1, 2), (2, 3)]));
        let txt = dir.join("path.txt");
        assert_eq!(write_symmetric(&txt, n, &edges).unwrap(), 6);
        let text = std::fs::read_to_string(&txt).unwrap();
        assert!(text.contains("4 6\n1 2\n2 1\n"), "{text}");
        assert_eq!(check_peer("2\n1\n4\n", n, &edges).unwrap(), 2);
        assert!(check_peer("1\n2\n", n, &edges).is_err());
        assert!(check_peer("2\n2\n", n, &edges).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
