//! The four-outcome certificate check: it accepts what the solver computes, read back from
//! its text, on random games with every kind of terminal value, and refuses every change
//! of one line.

use gamegraph_game::{CertificateError, Outcome, Table, Terminal, solve, verify};
use gamegraph_graph::{Graph, Located, Vertex};
use gamegraph_testkit::{SplitMix64, random_graph};
use proptest::prelude::*;

/// A random graph (cycles, self-loops, vertices without moves) with random terminal values.
fn random_game(seed: u64, n: usize, m: usize) -> (Graph, Vec<Terminal>) {
    let mut rng = SplitMix64::new(seed);
    let g = random_graph(&mut rng, n, m, false);
    let values = [Terminal::Win, Terminal::Loss, Terminal::Tie];
    let terminal = (0..n).map(|_| values[rng.below(3) as usize]).collect();
    (g, terminal)
}

/// Every table that differs from `t` in one line: another outcome (with the same
/// remoteness, none, or none for a draw), another remoteness, another move.
fn one_line_changes(t: &Table, n: usize) -> Vec<Table> {
    let mut out = Vec::new();
    for v in 0..n {
        let mut push = |o: Outcome, r: Option<u32>, m: Option<Vertex>| {
            if (o, r, m) != (t.outcomes[v], t.remoteness[v], t.moves[v]) {
                let mut c = t.clone();
                (c.outcomes[v], c.remoteness[v], c.moves[v]) = (o, r, m);
                out.push(c);
            }
        };
        let (o, r, m) = (t.outcomes[v], t.remoteness[v], t.moves[v]);
        for other in Outcome::ALL {
            push(other, r, m);
            push(other, if other == Outcome::Draw { None } else { Some(r.unwrap_or(0)) }, m);
            push(other, Some(r.map_or(1, |r| r + 1)), m);
        }
        for d in [0, 1, 2, 3] {
            push(o, Some(d), m);
            push(o, r.map(|r| r + d), m);
        }
        push(o, None, m);
        push(o, r, None);
        for w in 0..n {
            push(o, r, Some(Vertex::from_index(w)));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn accepts_the_solution_and_refuses_every_one_line_change(
        seed in any::<u64>(), n in 1usize..14, per_vertex in 0usize..3,
    ) {
        let (g, values) = random_game(seed, n, n * per_vertex);
        let terminal = |v: Vertex| values[v.index()];
        let t = Table::of(&solve(&g, terminal), &g);
        let back = Table::read(t.to_string().as_bytes(), n).unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(verify(&g, terminal, &t), Ok(()));
        for c in one_line_changes(&t, n) {
            prop_assert!(verify(&g, terminal, &c).is_err(), "accepted:\n{}for the solution\n{}", c, t);
        }
    }
}

#[test]
fn names_each_rule() {
    // 0 -> 1 -> 2 (tie), 0 -> 3 <-> 4 (a cycle), 4 -> 5 (loss), 6 -> 6 (a draw), 7 (win).
    let arcs = [(0, 1), (1, 2), (0, 3), (3, 4), (4, 3), (4, 5), (6, 6)]
        .map(|(u, v)| (Vertex(u), Vertex(v)));
    let g = Graph::from_arcs(8, &arcs).unwrap();
    let terminal = |v: Vertex| match v.0 {
        2 => Terminal::Tie,
        7 => Terminal::Win,
        _ => Terminal::Loss,
    };
    let t = Table::of(&solve(&g, terminal), &g);
    assert_eq!(
        t.to_string(),
        "1 W 3 4\n2 T 1 3\n3 T 0 -\n4 L 2 5\n5 W 1 6\n6 L 0 -\n7 D - 7\n8 W 0 -\n"
    );
    let rule = |v: u32, o: Outcome, r: Option<u32>, m: Option<u32>| {
        let mut c = t.clone();
        let i = v as usize;
        (c.outcomes[i], c.remoteness[i], c.moves[i]) = (o, r, m.map(Vertex));
        let e = verify(&g, terminal, &c).unwrap_err();
        (e.rule().1, e.to_string())
    };
    use Outcome::{Draw as D, Loss as L, Tie as T, Win as W};
    let cases = [
        (
            rule(7, L, Some(0), None),
            "terminal-value",
            "vertex 8 has no move and the terminal value W but is labelled L",
        ),
        (
            rule(1, W, Some(1), Some(2)),
            "win-has-loss-successor",
            "vertex 2 is labelled W but has no L successor",
        ),
        (
            rule(6, L, Some(1), Some(6)),
            "loss-has-only-win-successors",
            "vertex 7 is labelled L but its successor 7 is L",
        ),
        (
            rule(0, T, Some(2), Some(1)),
            "tie-has-no-loss-successor",
            "vertex 1 is labelled T but its successor 4 is L",
        ),
        (
            rule(0, D, None, Some(1)),
            "draw-has-no-loss-successor",
            "vertex 1 is labelled D but its successor 4 is L",
        ),
        (
            rule(1, D, None, Some(2)),
            "draw-has-no-tie-successor",
            "vertex 2 is labelled D but its successor 3 is T",
        ),
        (
            rule(1, T, Some(2), Some(2)),
            "remoteness",
            "vertex 2 has remoteness 2 but its successors give 1",
        ),
        (
            rule(6, D, Some(1), Some(6)),
            "remoteness",
            "vertex 7 has remoteness 1 but its successors give none",
        ),
        (
            rule(0, W, Some(3), Some(1)),
            "move",
            "vertex 1 has move 2 but the optimal move with the smallest id is 4",
        ),
    ];
    for ((rule, message), want_rule, want_message) in cases {
        assert_eq!((rule, message.as_str()), (want_rule, want_message));
    }
    // A D vertex whose only D successor is relabelled; a T vertex without T successor.
    let g2 = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(1))]).unwrap();
    let t2 = Table {
        outcomes: vec![T, W],
        remoteness: vec![Some(1), Some(1)],
        moves: vec![Some(Vertex(1)), Some(Vertex(1))],
    };
    assert_eq!(
        verify(&g2, |_| Terminal::Loss, &t2).unwrap_err().rule(),
        (Some(Vertex(0)), "tie-has-tie-successor")
    );
    let t2 = Table {
        outcomes: vec![D, W],
        remoteness: vec![None, Some(1)],
        moves: vec![Some(Vertex(1)), Some(Vertex(1))],
    };
    assert_eq!(
        verify(&g2, |_| Terminal::Loss, &t2).unwrap_err().rule(),
        (Some(Vertex(0)), "draw-has-draw-successor")
    );
    let short = Table { outcomes: vec![D], remoteness: vec![None], moves: vec![None] };
    assert_eq!(
        verify(&g2, |_| Terminal::Loss, &short),
        Err(CertificateError::SizeMismatch { graph: 2, table: 1 })
    );
}

#[test]
fn reading_names_the_first_token_that_does_not_fit() {
    let err = |text: &str| {
        let e = Table::read(text.as_bytes(), 2).unwrap_err();
        (e.position().map(|p| (p.line, p.column)), e.to_string())
    };
    assert!(Table::read("1 T 1 2\r\n\n 2\tT 0 -\n".as_bytes(), 2).is_ok());
    assert_eq!(
        err("1 X 1 2\n"),
        (Some((1, 3)), "expected an outcome `W`, `L`, `T` or `D`, found \"X\"".into())
    );
    assert_eq!(
        err("1 D 1 2\n"),
        (Some((1, 5)), "expected `-` (a draw has no remoteness), found \"1\"".into())
    );
    assert_eq!(
        err("1 T 1 3\n"),
        (Some((1, 7)), "expected a move: a vertex in 1..=2 or `-`, found \"3\"".into())
    );
    assert_eq!(err("2 T 1 2\n"), (Some((1, 1)), "expected vertex 1, found \"2\"".into()));
    assert_eq!(
        err("1 T 1 2\n").1,
        "expected vertex 2 (the graph has 2 vertices), found end of input"
    );
    assert_eq!(err("1 T 1 2 x\n"), (Some((1, 9)), "expected end of line, found \"x\"".into()));
    assert_eq!(err("1 T 1 2\n2 T 0 -\n3 T 0 -\n").0, Some((3, 1)));
}
