//! The certificate check of a solution.

use gamegraph_graph::{Graph, Vertex};

use crate::{CertificateError, Outcome, Solution};

/// Checks that `solution` is the exact win / lose / draw solution of `g`, using only
/// local conditions at every vertex (no solving):
/// - a vertex without moves is L with depth 0 and no move;
/// - a W vertex has an L successor, its depth is 1 + the least depth of its L successors
///   and its move is the smallest-id L successor of that depth;
/// - an L vertex with moves has only W successors, its depth is 1 + their greatest depth
///   and its move is the smallest-id successor of that depth;
/// - a D vertex has no L successor, has a D successor, no depth, and its move is its
///   smallest-id D successor.
///
/// Labels alone are not a certificate (on a 2-cycle both "D, D" and "W, L" are locally
/// consistent); the depths make it one: W and L depths strictly decrease along the moves
/// that justify them, so by induction on depth every certified W or L is right, and every
/// truly won or lost position is certified W or L, hence the D labels are right too.
///
/// # Errors
/// The first violated condition, by vertex order, as a [`CertificateError`].
///
/// # Complexity
/// O(V + E) time, O(1) extra space.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_retro::{solve, verify};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// verify(&g, &solve(&g)).unwrap();
/// ```
pub fn verify(g: &Graph, solution: &Solution) -> Result<(), CertificateError> {
    if g.num_vertices() != solution.num_vertices() {
        return Err(CertificateError::SizeMismatch {
            graph: g.num_vertices(),
            solution: solution.num_vertices(),
        });
    }
    let depths = solution.raw_depths();
    for v in g.vertices() {
        check_vertex(g, solution, depths, v)?;
    }
    Ok(())
}

fn check_vertex(
    g: &Graph,
    s: &Solution,
    depths: &[u32],
    v: Vertex,
) -> Result<(), CertificateError> {
    let succ = g.successors(v);
    let outcome = s.outcome(v);
    let depth = s.depth(v);
    let found_move = s.best_move(v);
    let wrong_depth =
        |expected: Option<u32>| CertificateError::WrongDepth { vertex: v, expected, found: depth };
    let check_move = |expected: Option<Vertex>| {
        if found_move == expected {
            Ok(())
        } else {
            Err(CertificateError::WrongMove { vertex: v, expected, found: found_move })
        }
    };
    // The smallest-id successor among those with the least (or greatest) key.
    let best_by = |keep: &dyn Fn(Vertex) -> bool, greatest: bool| -> Option<(u32, Vertex)> {
        let mut best: Option<(u32, Vertex)> = None;
        for &t in succ.iter().filter(|&&t| keep(t)) {
            let d = depths[t.index()];
            let better = match best {
                None => true,
                Some((bd, bv)) => (if greatest { d > bd } else { d < bd }) || (d == bd && t < bv),
            };
            if better {
                best = Some((d, t));
            }
        }
        best
    };

    if succ.is_empty() {
        if outcome != Outcome::Loss {
            return Err(CertificateError::TerminalNotLoss { vertex: v, found: outcome });
        }
        if depth != Some(0) {
            return Err(wrong_depth(Some(0)));
        }
        return check_move(None);
    }
    match outcome {
        Outcome::Win => {
            let Some((d, t)) = best_by(&|t| s.outcome(t) == Outcome::Loss, false) else {
                return Err(CertificateError::WinWithoutLossSuccessor { vertex: v });
            };
            let expected = d.checked_add(1);
            if depth.is_none() || depth != expected {
                return Err(wrong_depth(expected));
            }
            check_move(Some(t))
        }
        Outcome::Loss => {
            if let Some(&t) = succ.iter().find(|&&t| s.outcome(t) != Outcome::Win) {
                return Err(CertificateError::LossWithNonWinSuccessor {
                    vertex: v,
                    successor: t,
                    found: s.outcome(t),
                });
            }
            // W successors have depths (checked at their own vertex; a missing one is
            // u32::MAX here and cannot match).
            let (d, t) = best_by(&|_| true, true).expect("a vertex with moves");
            let expected = d.checked_add(1);
            if depth.is_none() || depth != expected {
                return Err(wrong_depth(expected));
            }
            check_move(Some(t))
        }
        // A solution never holds a tie (`Solution::from_parts` refuses one).
        Outcome::Draw | Outcome::Tie => {
            if let Some(&t) = succ.iter().find(|&&t| s.outcome(t) == Outcome::Loss) {
                return Err(CertificateError::DrawWithLossSuccessor { vertex: v, successor: t });
            }
            let Some(&t) = succ.iter().filter(|&&t| s.outcome(t) == Outcome::Draw).min() else {
                return Err(CertificateError::DrawWithoutDrawSuccessor { vertex: v });
            };
            if depth.is_some() {
                return Err(wrong_depth(None));
            }
            check_move(Some(t))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve;
    use gamegraph_graph::outcome::NONE;
    use gamegraph_testkit::graph;

    fn parts(s: &Solution) -> (Vec<Outcome>, Vec<u32>, Vec<u32>) {
        let n = s.num_vertices();
        let vs = (0..n as u32).map(Vertex);
        (
            s.outcomes().to_vec(),
            vs.clone().map(|v| s.depth(v).unwrap_or(NONE)).collect(),
            vs.map(|v| s.best_move(v).map_or(NONE, |m| m.0)).collect(),
        )
    }

    #[test]
    fn accepts_the_solution_of_a_two_cycle_and_rejects_w_l() {
        let g = graph(2, &[(0, 1), (1, 0)]);
        let s = solve(&g);
        assert_eq!(verify(&g, &s), Ok(()));
        // "W, L" is locally consistent as labels, but no depth makes it a certificate.
        let wl = Solution::from_parts_unchecked(
            vec![Outcome::Win, Outcome::Loss],
            vec![1, 2],
            vec![1, 0],
        );
        assert_eq!(
            verify(&g, &wl),
            Err(CertificateError::WrongDepth {
                vertex: Vertex(0),
                expected: Some(3),
                found: Some(1)
            })
        );
    }

    #[test]
    fn rejects_each_kind_of_mistake() {
        // 0 -> 1 -> 2, 0 -> 2, 3 <-> 4, 4 -> 4, 5 -> 3.
        let g = graph(6, &[(0, 1), (1, 2), (0, 2), (3, 4), (4, 3), (4, 4), (5, 3)]);
        let s = solve(&g);
        assert_eq!(verify(&g, &s), Ok(()));
        let (o, d, m) = parts(&s);
        assert_eq!(
            o,
            [
                Outcome::Win,
                Outcome::Win,
                Outcome::Loss,
                Outcome::Draw,
                Outcome::Draw,
                Outcome::Draw
            ]
        );
        assert_eq!(d, [1, 1, 0, NONE, NONE, NONE]);
        assert_eq!(m, [2, 2, NONE, 4, 3, 3]);

        let bad = |o: &[Outcome], d: &[u32], m: &[u32]| {
            verify(&g, &Solution::from_parts_unchecked(o.to_vec(), d.to_vec(), m.to_vec()))
                .unwrap_err()
        };
        let mut o2 = o.clone();
        o2[2] = Outcome::Win;
        assert_eq!(
            bad(&o2, &d, &m),
            CertificateError::WinWithoutLossSuccessor { vertex: Vertex(0) }
        );
        let mut d2 = d.clone();
        d2[0] = 3;
        assert_eq!(
            bad(&o, &d2, &m),
            CertificateError::WrongDepth { vertex: Vertex(0), expected: Some(1), found: Some(3) }
        );
        let mut m2 = m.clone();
        m2[0] = 1;
        assert_eq!(
            bad(&o, &d, &m2),
            CertificateError::WrongMove {
                vertex: Vertex(0),
                expected: Some(Vertex(2)),
                found: Some(Vertex(1))
            }
        );
        let mut o3 = o.clone();
        o3[0] = Outcome::Loss;
        assert_eq!(
            bad(&o3, &d, &m),
            CertificateError::LossWithNonWinSuccessor {
                vertex: Vertex(0),
                successor: Vertex(2),
                found: Outcome::Loss
            }
        );
        let mut o4 = o.clone();
        o4[0] = Outcome::Draw;
        assert_eq!(
            bad(&o4, &d, &m),
            CertificateError::DrawWithLossSuccessor { vertex: Vertex(0), successor: Vertex(2) }
        );
        let mut o5 = o.clone();
        o5[5] = Outcome::Draw;
        o5[3] = Outcome::Win;
        assert_eq!(
            bad(&o5, &d, &m),
            CertificateError::WinWithoutLossSuccessor { vertex: Vertex(3) }
        );
        let mut d3 = d.clone();
        d3[2] = 1;
        assert_eq!(
            bad(&o, &d3, &m),
            CertificateError::WrongDepth { vertex: Vertex(0), expected: Some(2), found: Some(1) }
        );
        let mut d4 = d.clone();
        d4[3] = 4;
        assert_eq!(
            bad(&o, &d4, &m),
            CertificateError::WrongDepth { vertex: Vertex(3), expected: None, found: Some(4) }
        );
        // A D vertex whose only D successor is relabelled W (with an L successor).
        let g2 = graph(3, &[(0, 1), (1, 0), (1, 2)]);
        let s2 = Solution::from_parts_unchecked(
            vec![Outcome::Draw, Outcome::Win, Outcome::Loss],
            vec![NONE, 1, 0],
            vec![1, 2, NONE],
        );
        assert_eq!(
            verify(&g2, &s2),
            Err(CertificateError::DrawWithoutDrawSuccessor { vertex: Vertex(0) })
        );
        // A terminal vertex labelled otherwise, and a size mismatch.
        let g3 = Graph::from_arcs(1, &[]).unwrap();
        let s3 = Solution::from_parts_unchecked(vec![Outcome::Draw], vec![NONE], vec![NONE]);
        assert_eq!(
            verify(&g3, &s3),
            Err(CertificateError::TerminalNotLoss { vertex: Vertex(0), found: Outcome::Draw })
        );
        assert_eq!(verify(&g3, &s), Err(CertificateError::SizeMismatch { graph: 1, solution: 6 }));
        assert_eq!(
            CertificateError::WrongMove {
                vertex: Vertex(0),
                expected: Some(Vertex(2)),
                found: None
            }
            .to_string(),
            "vertex 1 has move none but the optimal move with the smallest id is 3"
        );
    }
}
