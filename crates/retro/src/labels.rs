//! The encoding every retrograde solver of the workspace works with while it propagates
//! (a one-byte [`Label`] per position, [`NONE`] for no depth or no move), and the rule that
//! picks a position's optimal move once the outcomes and depths are known.
//!
//! [`solve`](crate::solve) uses them, and so does any other solver that has to give the
//! same answers (the cluster's workers use them on their own block of vertices).
//!
//! ```
//! use gamegraph_retro::Outcome;
//! use gamegraph_retro::labels::{Label, NONE, best_move};
//!
//! assert_eq!(Label::UNKNOWN.outcome(), Outcome::Draw);
//! // A W position of depth 3 whose successors 7, 4 and 5 are L of depth 2, W of depth 1
//! // and L of depth 2; their keys are their indices in `outcomes` and `depths`.
//! let outcomes = [Outcome::Loss, Outcome::Win, Outcome::Loss];
//! let depths = [2, 1, 2];
//! let succ = [(7, 0), (4, 1), (5, 2)];
//! let pick = |outcome, depth| best_move(outcome, depth, succ, |k| outcomes[k], |k| depths[k]);
//! assert_eq!(pick(Outcome::Win, 3), 5);
//! assert_eq!(pick(Outcome::Loss, 2), 4);
//! assert_eq!(pick(Outcome::Loss, 0), NONE);
//! assert_eq!(pick(Outcome::Draw, NONE), NONE);
//! ```

use gamegraph_graph::Outcome;

/// "No depth" (a draw) and "no move" in the per-vertex `u32` arrays the solvers propagate
/// with (and that a [`Solution`](crate::Solution) stores; its queries give `None` for it).
pub const NONE: u32 = u32::MAX;

/// The label of a position while the propagation runs: decided W, decided L, or not
/// decided yet, which is a draw once the propagation is over. One byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Label(u8);

impl Label {
    /// Not decided (yet).
    pub const UNKNOWN: Label = Label(0);
    /// Decided: the player to move wins.
    pub const WIN: Label = Label(1);
    /// Decided: the player to move loses.
    pub const LOSS: Label = Label(2);

    /// The final outcome of a label: a position still undecided when the propagation is
    /// over is a draw.
    #[inline]
    pub const fn outcome(self) -> Outcome {
        match self {
            Label::WIN => Outcome::Win,
            Label::LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }
}

/// The optimal move from a position with `outcome` and `depth` ([`NONE`] for a draw): from
/// W an L successor of depth `depth - 1` (the least depth of its L successors), from L a
/// successor of depth `depth - 1` (the greatest depth of its successors, which are all W),
/// from D a D successor; the smallest vertex id among several, [`NONE`] when there is none
/// (an L position of depth 0 has no move).
///
/// # Arguments
/// * `successors`: each successor's vertex id and a key for `outcome_of` and `depth_of`
///   (its index in the caller's arrays), which are asked only when the answer depends on
///   them.
///
/// # Complexity
/// O(number of successors), no extra space.
#[inline]
pub fn best_move<K: Copy>(
    outcome: Outcome,
    depth: u32,
    successors: impl IntoIterator<Item = (u32, K)>,
    outcome_of: impl Fn(K) -> Outcome,
    depth_of: impl Fn(K) -> u32,
) -> u32 {
    let mut best = NONE;
    match outcome {
        Outcome::Win => {
            let want = depth - 1;
            for (v, k) in successors {
                if v < best && outcome_of(k) == Outcome::Loss && depth_of(k) == want {
                    best = v;
                }
            }
        }
        Outcome::Loss => {
            if depth > 0 {
                let want = depth - 1;
                for (v, k) in successors {
                    if v < best && depth_of(k) == want {
                        best = v;
                    }
                }
            }
        }
        Outcome::Draw => {
            for (v, k) in successors {
                if v < best && outcome_of(k) == Outcome::Draw {
                    best = v;
                }
            }
        }
    }
    best
}
