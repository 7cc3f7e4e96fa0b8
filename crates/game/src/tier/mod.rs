//! Games solved tier by tier: positions grouped into classes that play never returns to,
//! each solved in a dense array by rank once its child tiers are solved, so that memory
//! holds one tier at a time and never the game graph.
//!
//! - [`Tiered`]: what a game gives on top of [`Game`] — its tiers, the child tiers of each,
//!   and a numbering of the positions inside each tier.
//! - [`solve_tiers`]: the solver. A first pass, parents first, marks the ranks play reaches
//!   from the start (a bit a rank); a second pass, children first, gives every reachable
//!   position its outcome and remoteness, one byte a rank (two for games of long play,
//!   half a byte without remoteness),
//!   reading the solved child tiers back from their files through memory maps. Finished
//!   tiers are kept in the output directory (made durable together, every two seconds
//!   or so, when the solve stops and when it ends), so the same call resumes an
//!   interrupted solve after the last of them on disk.
//! - [`TierValues`]: the values of a solved directory, queried by position.
//! - [`check_tiered`]: a test helper that checks a game's side of the contract on samples.
//!
//! A tier whose moves all leave it (a stone is added, a pin is knocked down) is solved by
//! one pass over its ranks: each position's value follows from its moves' values in the
//! child tiers. A tier with moves inside it (pieces that slide, a chase round a ring) is
//! solved by retrograde analysis inside the tier, seeded by the values of its moves into
//! the child tiers; its reverse moves are gathered from the forward ones, for that tier
//! alone.

mod check;
mod code;
mod config;
mod dir;
mod dist;
mod order;
mod reach;
mod solve;

pub use check::{TierContractError, check_tiered};
pub use config::{MAX_TIERS, TierConfig, TierError, TierPhase, TierProgress, TierSummary};
pub use dir::{TierValues, solve_tiers, tiers_identity};
pub use dist::{Exchange, SLICE, solve_tiers_part};

use crate::Game;

/// A game whose positions fall into *tiers*: classes of positions that play never comes back
/// to once it leaves them (the number of stones on a Connect Four board, of pins left on a
/// row, of marks on a tic-tac-toe grid).
///
/// # Contract
/// On top of [`Game`]'s contract, for every canonical position `p` reachable from the start:
/// - `tier(p) < tier_count()`, and [`tier_rank`](Tiered::tier_rank)`(p) <
///   tier_size(tier(p))`;
/// - `tier_unrank(tier(p), tier_rank(p)) == Some(p)`: ranks number the canonical positions
///   of a tier one-to-one (the numbering may leave gaps: `tier_unrank` answers `None`, or
///   a position play never reaches, for a number that is not a reachable position's);
/// - every move `q` of `p` lands, once made canonical, in `tier(p)` itself or in one of
///   [`child_tiers`](Tiered::child_tiers)`(tier(p))`, and the child relation has no cycle
///   (the tiers form a directed acyclic graph);
/// - [`moves_stay`](Tiered::moves_stay)`(t)` is `false` only for tiers whose moves all
///   leave them.
///
/// [`check_tiered`] checks these on samples of every tier; every shipped game's tests run it.
///
/// # Example
/// A heap of objects, a move takes 1 or 2 of them: tier `n` holds the heap of `n` objects.
/// ```
/// use gamegraph_game::tier::{Tiered, check_tiered};
/// use gamegraph_game::{Game, ParseError};
///
/// struct TakeOneOrTwo(u32);
///
/// impl Game for TakeOneOrTwo {
///     type Position = u32;
///     fn start(&self) -> u32 { self.0 }
///     fn moves(&self, p: u32, out: &mut Vec<u32>) {
///         out.extend((1..=2).filter(|&k| k <= p).map(|k| p - k));
///     }
///     fn show(&self, p: u32) -> String { p.to_string() }
///     fn parse(&self, s: &str) -> Result<u32, ParseError> {
///         s.trim().parse().map_err(|_| ParseError::new(1, "expected a number of objects"))
///     }
/// }
///
/// impl Tiered for TakeOneOrTwo {
///     fn tier_count(&self) -> u32 { self.0 + 1 }
///     fn tier(&self, p: u32) -> u32 { p }
///     fn child_tiers(&self, t: u32, out: &mut Vec<u32>) { out.extend(t.saturating_sub(2)..t) }
///     fn tier_size(&self, _: u32) -> u64 { 1 }
///     fn tier_rank(&self, _: u32) -> u64 { 0 }
///     fn tier_unrank(&self, t: u32, _: u64) -> Option<u32> { Some(t) }
///     fn moves_stay(&self, _: u32) -> bool { false }
/// }
///
/// check_tiered(&TakeOneOrTwo(10), 100).unwrap();
/// ```
pub trait Tiered: Game {
    /// The number of tiers; they are numbered `0..tier_count()`.
    fn tier_count(&self) -> u32;

    /// The tier of a canonical position.
    fn tier(&self, p: Self::Position) -> u32;

    /// Appends the tiers, other than `t`, that a move from tier `t` may land in (the caller
    /// cleared `out`). Order and repetitions do not matter.
    fn child_tiers(&self, t: u32, out: &mut Vec<u32>);

    /// The number of ranks of tier `t`: every canonical position of `t` has a rank below it.
    fn tier_size(&self, t: u32) -> u64;

    /// The rank of canonical position `p` inside its tier.
    fn tier_rank(&self, p: Self::Position) -> u64;

    /// The position of rank `r` in tier `t`; `None` when no position has that number.
    fn tier_unrank(&self, t: u32, r: u64) -> Option<Self::Position>;

    /// Appends to `out` the position of each rank of `ranks` (increasing) in tier `t`, as
    /// [`tier_unrank`](Tiered::tier_unrank) gives it. The solver asks for the reachable
    /// ranks a 64-bit word at a time; a game whose numbering makes consecutive ranks cheap
    /// to step through overrides it.
    fn tier_unrank_sorted(&self, t: u32, ranks: &[u64], out: &mut Vec<Option<Self::Position>>) {
        out.extend(ranks.iter().map(|&r| self.tier_unrank(t, r)));
    }

    /// Whether rank `r` of tier `t` may be a position play reaches: `false` only for
    /// numbers no reachable position has. A tier's values file spends nothing on the
    /// numbers this calls unreachable, and a bit or so on each of the others that play does
    /// not reach; a reader asks it again for the numbers of the block it reads. `true` by
    /// default; a game whose numbering leaves many numbers to boards play cannot reach
    /// (not canonical, or where the game would have ended before) says so here, at the cost
    /// of a call per number a query's block holds.
    fn tier_rank_may_be_reached(&self, t: u32, r: u64) -> bool {
        let _ = (t, r);
        true
    }

    /// Sets `out[i]` to [`tier_rank_may_be_reached`](Tiered::tier_rank_may_be_reached)`(t,
    /// first + i)`: the values files ask a block of consecutive ranks at a time. A game
    /// whose numbering makes consecutive ranks cheap to step through overrides it.
    fn tier_ranks_may_be_reached(&self, t: u32, first: u64, out: &mut [bool]) {
        for (r, o) in (first..).zip(out.iter_mut()) {
            *o = self.tier_rank_may_be_reached(t, r);
        }
    }

    /// Whether some move from tier `t` may stay in `t`; `true` by default. A tier whose
    /// moves all leave it is solved in one pass, without the reverse moves that
    /// retrograde analysis inside the tier needs.
    fn moves_stay(&self, t: u32) -> bool {
        let _ = t;
        true
    }

    /// An upper bound on the remoteness of any position, when the game knows one (plies to
    /// the end: the cells of a board, the pins of a row); `None` by default. Values take
    /// one byte a rank when the bound is at most 83, two bytes otherwise (half a byte when
    /// remoteness is not kept).
    fn remoteness_bound(&self) -> Option<u32> {
        None
    }
}
