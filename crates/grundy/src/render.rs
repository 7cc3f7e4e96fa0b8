//! Text renderings for people: a heap game worked out step by step, and the values of
//! every vertex. The solvers return data; these turn it into the text `gamegraph` prints.

use std::fmt::Write as _;

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
                let _ = write!(line, " take {} from heap {}", mv.take, mv.heap + 1);
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
