//! Text renderings for people: a heap game worked out step by step, the values of every
//! vertex, and the report on a Grundy sequence. The solvers return data; these turn it
//! into the text `gamegraph` prints.

use std::fmt;
use std::fmt::Write as _;

use crate::octal::{Analysis, SequenceError};
use crate::{HeapAnswer, HeapGame, LoopyValues, Method, Outcome, Play, heap_value};
use gamegraph_graph::Vertex;

/// The answer worked out step by step: each heap's value in decimal
/// and binary, the digit sum column by column, and the winning move.
///
/// # Complexity
/// O(p · 64) time and output for p heaps.
pub fn explain(game: &HeapGame, answer: &HeapAnswer) -> String {
    let mut s = String::new();
    let width =
        answer.values.iter().map(|g| 64 - g.0.leading_zeros()).max().unwrap_or(1).max(1) as usize;
    let bin = |x: u64| format!("{x:0width$b}");
    let misere = game.play == Play::Misere;
    match game.moore {
        Some(k) if k >= 2 => {
            let _ = writeln!(s, "Moore's Nim_{k}: a move takes from 1 to {k} heaps");
            for (i, n) in game.heaps.iter().enumerate() {
                let _ = writeln!(s, "heap {}: {} = {}", i + 1, n, bin(*n));
            }
            let sums: Vec<String> = (0..width)
                .rev()
                .map(|b| {
                    let c = game.heaps.iter().filter(|&&n| n >> b & 1 == 1).count() as u128;
                    (c % (u128::from(k) + 1)).to_string()
                })
                .collect();
            let _ = writeln!(s, "column sums mod {}: {}", u128::from(k) + 1, sums.join(" "));
            if misere {
                let _ = writeln!(
                    s,
                    "misère: with a heap of 2 or more the columns decide; with heaps of 0 and 1 \
                     only, the player to move loses iff the 1-heaps number 1 mod {}",
                    u128::from(k) + 1
                );
            }
        }
        _ => {
            for (i, (n, g)) in game.heaps.iter().zip(&answer.values).enumerate() {
                match game.limits.as_ref().map(|l| l[i]) {
                    Some(m) => {
                        let _ = writeln!(
                            s,
                            "heap {}: {} objects, take 1..{}: g = {} mod {} = {} = {}",
                            i + 1,
                            n,
                            m,
                            n,
                            u128::from(m) + 1,
                            g,
                            bin(g.0)
                        );
                    }
                    None => {
                        let _ =
                            writeln!(s, "heap {}: {} objects: g = {} = {}", i + 1, n, g, bin(g.0));
                    }
                }
            }
            let _ = writeln!(s, "digit sum: {} = {}", bin(answer.digit_sum.0), answer.digit_sum);
            if misere {
                let big = answer.values.iter().filter(|g| g.0 >= 2).count();
                if big > 0 {
                    let _ = writeln!(
                        s,
                        "misère with {big} value(s) of 2 or more: the player to move loses iff the digit sum is 0"
                    );
                } else {
                    let _ = writeln!(
                        s,
                        "misère with every value 0 or 1: the player to move loses iff the digit sum is 1"
                    );
                }
            } else {
                let _ = writeln!(s, "the player to move loses iff the digit sum is 0");
            }
        }
    }
    let _ = match answer.outcome {
        Outcome::Loss => writeln!(s, "the player to move loses"),
        _ if answer.moves.is_empty() => {
            writeln!(s, "the player to move wins: no object is left to take")
        }
        _ => {
            let mut line = String::from("winning move:");
            for mv in &answer.moves {
                let g = answer.values[mv.heap];
                let _ = write!(line, " {mv}");
                if game.moore.is_none_or(|k| k < 2) {
                    let left = game.heaps[mv.heap] - mv.take;
                    let lim = game.limits.as_ref().map(|l| l[mv.heap]);
                    let _ = write!(
                        line,
                        " (value {} -> {}, {} objects left)",
                        g,
                        heap_value(left, lim),
                        left
                    );
                }
            }
            writeln!(s, "{line}")
        }
    };
    if answer.method == Method::Search {
        let _ = writeln!(s, "(found by exhaustive search: no proven theory covers this game)");
    }
    s
}

/// One line per vertex, `V VALUE` with 1-based `V`, in vertex order.
///
/// # Complexity
/// O(V + Σ|K|) time and output.
pub fn values(values: &LoopyValues) -> String {
    let mut s = String::new();
    for v in 0..values.len() {
        let v = Vertex::from_index(v);
        let _ = writeln!(s, "{} {}", v.one_based(), values.value(v));
    }
    s
}

/// The text report of `gamegraph octal` / `gamegraph subtraction`: the values
/// `g(0) … g(upto)` on one line separated by spaces (when `upto` is given); with
/// `show_period` the lines `preperiod P`, `period Q` and the certificate, or the line
/// `no period proven up to n = k` (k the last heap computed); then `g(n) = v` for each
/// `n` of `at`.
///
/// # Errors
/// [`SequenceError::NotComputed`] when a value asked for is unknown.
///
/// # Example
/// ```
/// use gamegraph_grundy::octal::{analyse_subtraction, Config, Play, SubtractionSet};
/// use gamegraph_grundy::render;
///
/// let set: SubtractionSet = "1,2".parse()?;
/// let a = analyse_subtraction(&set, Play::Normal, &Config::default(), &mut |_| {})?;
/// let text = render::sequence(&a, Some(4), false, &[10])?.to_string();
/// assert_eq!(text, "0 1 2 0 1\ng(10) = 1\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sequence<'a>(
    analysis: &'a Analysis,
    upto: Option<u64>,
    show_period: bool,
    at: &'a [u64],
) -> Result<SequenceReport<'a>, SequenceError> {
    if let Some(u) = upto {
        analysis.value(u)?;
    }
    for &n in at {
        analysis.value(n)?;
    }
    Ok(SequenceReport { analysis, upto, show_period, at })
}

/// The text rendering of an [`Analysis`], from [`sequence`] (every value in it is known).
#[derive(Debug, Clone, Copy)]
pub struct SequenceReport<'a> {
    analysis: &'a Analysis,
    upto: Option<u64>,
    show_period: bool,
    at: &'a [u64],
}

impl fmt::Display for SequenceReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.analysis;
        let get = |n: u64| a.value(n).map_err(|_| fmt::Error);
        if let Some(upto) = self.upto {
            for n in 0..=upto {
                if n > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", get(n)?)?;
            }
            writeln!(f)?;
        }
        if self.show_period {
            match a.period() {
                Some(p) => {
                    writeln!(f, "preperiod {}", p.preperiod)?;
                    writeln!(f, "period {}", p.period)?;
                    writeln!(
                        f,
                        "{}, checked with g(0) ... g({})",
                        p.certificate,
                        p.certificate.values_needed() - 1
                    )?;
                }
                None => match a.computed() {
                    0 => writeln!(f, "no period proven: no value computed")?,
                    k => writeln!(f, "no period proven up to n = {}", k - 1)?,
                },
            }
        }
        for &n in self.at {
            writeln!(f, "g({n}) = {}", get(n)?)?;
        }
        Ok(())
    }
}
