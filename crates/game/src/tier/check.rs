//! A sampled check of a game's side of the [`Tiered`] contract, for its tests.

use std::fmt;

use super::Tiered;
use super::order::tier_order;

/// A break of the [`Tiered`] contract found by [`check_tiered`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierContractError {
    /// The tier of the position at fault.
    pub tier: u32,
    /// The position, in the game's notation.
    pub position: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TierContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tier {}, position {}: {}", self.tier, self.position, self.message)
    }
}

impl std::error::Error for TierContractError {}

/// Checks the [`Tiered`] contract on samples: every position met on `walks` random games
/// from the start (a fixed sequence of pseudo-random moves), and `walks` ranks spread over
/// every tier those games reach. For each canonical position it checks that its tier and
/// rank are in range, that unranking gives it back (and, for the positions of the games,
/// /// that [`tier_rank_may_be_reached`](Tiered::tier_rank_may_be_reached) holds), that its
/// moves land in its own tier or in one of its child tiers (never staying in a tier whose
/// moves all leave it); that the child tiers form no cycle; and, on `walks` consecutive
/// ranks from a random one of every tier reached, that the batch functions
/// ([`tier_unrank_sorted`](Tiered::tier_unrank_sorted),
/// [`tier_ranks_may_be_reached`](Tiered::tier_ranks_may_be_reached)) answer as the
/// functions of one rank do.
///
/// # Errors
/// The first break found, with the tier and the position.
///
/// # Complexity
/// O(walks · (length of a game + tiers reached)) calls of the game's functions.
pub fn check_tiered<G: Tiered>(game: &G, walks: usize) -> Result<(), TierContractError> {
    let start = game.canonical(game.start());
    let start_tier = game.tier(start);
    let fail = |tier: u32, p: G::Position, message: String| TierContractError {
        tier,
        position: game.show(p),
        message,
    };
    tier_order(game, start_tier).map_err(|t| TierContractError {
        tier: t,
        position: String::new(),
        message: "the child tiers form a cycle or name a tier past the count".into(),
    })?;
    let mut reached = vec![false; game.tier_count() as usize];
    let check = |c: G::Position, reached: &mut Vec<bool>| -> Result<(), TierContractError> {
        let t = game.tier(c);
        if t >= game.tier_count() {
            return Err(fail(t, c, format!("tier past the count {}", game.tier_count())));
        }
        reached[t as usize] = true;
        let size = game.tier_size(t);
        let r = game.tier_rank(c);
        if r >= size {
            return Err(fail(t, c, format!("rank {r} is not below the tier's size {size}")));
        }
        if game.tier_unrank(t, r) != Some(c) {
            return Err(fail(t, c, format!("unranking rank {r} does not give the position back")));
        }
        let mut children = Vec::new();
        game.child_tiers(t, &mut children);
        let mut out = Vec::new();
        game.moves(c, &mut out);
        for q in out {
            let cq = game.canonical(q);
            let tq = game.tier(cq);
            if tq == t && !game.moves_stay(t) {
                return Err(fail(
                    t,
                    c,
                    format!(
                        "the move to {} stays in a tier whose moves all leave it",
                        game.show(q)
                    ),
                ));
            }
            if tq != t && !children.contains(&tq) {
                return Err(fail(
                    t,
                    c,
                    format!("the move to {} lands in tier {tq}, not a child tier", game.show(q)),
                ));
            }
        }
        Ok(())
    };
    let mut rng = gamegraph_graph::generate::SplitMix64(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.next_u64();
    let mut out = Vec::new();
    for _ in 0..walks {
        let mut p = start;
        for _ in 0..10_000 {
            check(p, &mut reached)?;
            let (t, r) = (game.tier(p), game.tier_rank(p));
            if !game.tier_rank_may_be_reached(t, r) {
                return Err(fail(t, p, format!("play reaches rank {r}, called unreachable")));
            }
            out.clear();
            game.moves(p, &mut out);
            if out.is_empty() {
                break;
            }
            p = game.canonical(out[(next() % out.len() as u64) as usize]);
        }
    }
    for t in 0..game.tier_count() {
        if !reached[t as usize] {
            continue;
        }
        let size = game.tier_size(t);
        check_batches(game, t, next() % size.max(1), walks)?;
        for k in 0..walks as u64 {
            let r = if size <= walks as u64 { k } else { next() % size };
            if r >= size {
                break;
            }
            if let Some(p) = game.tier_unrank(t, r) {
                if game.canonical(p) == p && game.tier(p) == t && game.tier_rank(p) == r {
                    check(p, &mut reached)?;
                } else if game.canonical(p) == p {
                    return Err(fail(
                        t,
                        p,
                        format!(
                            "rank {r} of tier {t} unranks to a position of another tier or rank"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Checks the batch functions of tier `t` against those of one rank, on `len` consecutive
/// ranks from `first`.
fn check_batches<G: Tiered>(
    game: &G,
    t: u32,
    first: u64,
    len: usize,
) -> Result<(), TierContractError> {
    let fail = |r: u64, what: &str| TierContractError {
        tier: t,
        position: game.tier_unrank(t, r).map(|p| game.show(p)).unwrap_or_default(),
        message: format!("{what} answers otherwise for rank {r} than for the rank alone"),
    };
    let ranks: Vec<u64> = (first..).take(len).collect();
    let mut positions = Vec::new();
    game.tier_unrank_sorted(t, &ranks, &mut positions);
    if positions.len() != len {
        return Err(fail(first, "tier_unrank_sorted"));
    }
    let mut may = vec![false; len];
    game.tier_ranks_may_be_reached(t, first, &mut may);
    for ((&r, p), may) in ranks.iter().zip(positions).zip(may) {
        if p != game.tier_unrank(t, r) {
            return Err(fail(r, "tier_unrank_sorted"));
        }
        if may != game.tier_rank_may_be_reached(t, r) {
            return Err(fail(r, "tier_ranks_may_be_reached"));
        }
    }
    Ok(())
}
