//! Grundy values, sums of games, heaps, misère play and octal games.
//!
//! - [`grundy`] / [`par_grundy`]: the Grundy value of every vertex of an acyclic game
//!   graph in O(V + E), iteratively (an error naming a cycle otherwise);
//! - [`loopy_grundy`] / [`par_loopy_grundy`]: the generalised Sprague–Grundy function of
//!   any game graph (finite values and ∞(K)), after Smith and Fraenkel–Yesha;
//!   [`loopy_grundy_in_pool`] picks the one that suits the current rayon pool;
//! - [`play_sum`]: the outcome (win, loss or draw) and a best move of a sum of tokens on
//!   graph vertices, by Smith's rules;
//! - [`play_mixed_sum`] / [`play_misere_sum`]: any sum of components, tokens on the
//!   vertices of one game graph plus heaps ([`SumGame`]), in normal play (Smith's rules,
//!   any graph) and in misère play (theory or exhaustive search, as below);
//! - [`single_heap`], [`solve_heaps`]: heap games (single and compound, with move limits,
//!   normal and misère) and Moore's Nim_k; the section below says exactly which misère
//!   games are answered by theory, which by search, and which are refused;
//! - [`verify_values`]: checks claimed generalised Sprague–Grundy values ([`ValueTable`],
//!   read back from the printed table) against a graph by their definition, apart from
//!   the solver; [`octal::verify_period`] checks a claimed period of an octal or
//!   subtraction game from values computed directly;
//! - [`octal`]: octal and subtraction games, their Grundy sequences and proven periods;
//! - [`render`]: the text `gamegraph` prints (a heap game worked out step by step, the
//!   values of every vertex, the report on a sequence).
//!
//! ```
//! use gamegraph_graph::{Graph, Vertex};
//! use gamegraph_grundy::{loopy_grundy, play_sum, solve_heaps, HeapGame, Nimber, Outcome};
//!
//! // The digit sum of Nim heaps 3, 5, 6 is 3 ⊕ 5 ⊕ 6 = 0: the player to move loses.
//! assert_eq!(Nimber(3) ^ Nimber(5) ^ Nimber(6), Nimber(0));
//! assert_eq!(Nimber::mex([Nimber(0), Nimber(1), Nimber(3)]), Nimber(2));
//! let game = HeapGame { heaps: vec![3, 5, 6], ..HeapGame::default() };
//! assert_eq!(solve_heaps(&game).unwrap().outcome, Outcome::Loss);
//!
//! // A token on the cycle 0 <-> 1 and one on the isolated vertex 2: a draw.
//! let arcs = [(0, 1), (1, 0)].map(|(u, v)| (Vertex(u), Vertex(v)));
//! let g = Graph::from_arcs(3, &arcs).unwrap();
//! let play = play_sum(&g, &loopy_grundy(&g), &[Vertex(0), Vertex(2)]).unwrap();
//! assert_eq!(play.outcome, Outcome::Draw);
//! ```
//!
//! # Which misère sums are answered, and how
//!
//! **Theory (any number of heaps, sizes up to `u64::MAX`):**
//! - every sum of heaps where a move takes 1..=mᵢ objects from one heap i (mᵢ ≥ 1, or no
//!   limit: plain Nim). Let gᵢ = nᵢ mod (mᵢ + 1) be the normal-play Grundy values and
//!   s = g₁ ⊕ … ⊕ g_p. The player to move **loses** in misère play exactly when
//!   *either* some gᵢ ≥ 2 and s = 0, *or* every gᵢ ≤ 1 and s = 1 (the misère-Nim rule
//!   applied to the gᵢ). Proof (by induction on the position, so the sums are "tame"):
//!   call such positions P⁻. (i) A terminal position has every gᵢ = 0, s = 0: not P⁻, and
//!   the player to move does win. (ii) From P⁻ every move leads out of P⁻: a move changes
//!   exactly one gᵢ (a follower never has the Grundy value of its position). If some
//!   gⱼ ≥ 2 and s = 0, at least two values are ≥ 2 (a lone one could not be cancelled),
//!   so one stays ≥ 2 while s becomes ≠ 0. If every gᵢ ≤ 1 and s = 1, the changed value
//!   either becomes ≥ 2 (then s ≠ 0) or flips 0 ↔ 1 (then s = 0). (iii) From a non-terminal
//!   position outside P⁻ some move enters P⁻: with one value gⱼ ≥ 2, move heap j to value
//!   r ⊕ 1 ≤ 1 where r is the digit sum of the others (every value below gⱼ is reachable);
//!   with two or more values ≥ 2, the normal Nim move (to gᵢ ⊕ s < gᵢ) keeps a value ≥ 2
//!   and makes s = 0; with every gᵢ ≤ 1 and s = 0, take 1 from a heap of value 1, or, if
//!   all values are 0, take mᵢ from a non-empty heap (nᵢ ≥ mᵢ + 1, so its value becomes 1).
//!   The only property of a component used beyond Sprague–Grundy is step (iii)'s last
//!   case: **every non-terminal position of value 0 has a move to value 1**, which
//!   "take 1..=m" heaps have. This is the tameness of Conway (*On Numbers and Games*,
//!   ch. 12) in the simple form these heaps need; the rule itself is Bouton's misère Nim
//!   (1901). The single heap is the special case p = 1: lost exactly when n ≡ 1 (mod m+1).
//! - Moore's Nim_k without binding limits (a move takes from 1..=k heaps): normal play
//!   lost exactly when every binary column sum is ≡ 0 (mod k+1); misère play the same
//!   when some heap is ≥ 2, and, when every heap is ≤ 1, lost exactly when the number
//!   of 1-heaps is ≡ 1 (mod k+1) (E. H. Moore, *A generalization of the game called
//!   Nim*, Ann. of Math. 11 (1910) 93–94). Limits mᵢ ≥ nᵢ never bind and are ignored.
//!
//! - Sums of tokens on graph vertices and heaps ([`play_misere_sum`]) in which no token
//!   can move (every token stands on a vertex without followers): such a token is the
//!   zero game with no position but its start, so the sum *is* the sum of its heaps, and
//!   the rule above answers it for any sizes.
//!
//! **Search:**
//! - Moore's Nim_k with a limit below its heap, normal or misère, when exhaustive search
//!   of the position costs at most [`SEARCH_LIMIT`] steps;
//! - every other misère sum of tokens and heaps ([`play_misere_sum`]): the misère-Nim rule
//!   needs components that are tame in the sense above, which arbitrary graph vertices
//!   are not (and with cycles, draws appear), so the explicit product of the positions
//!   each component can reach (the vertices reachable from each token; the sizes 0..=n
//!   of each heap) is labelled win, loss or draw by retrograde counting, a position
//!   without a move being a **win** for the player to move, when its positions plus
//!   moves number at most the limit given (use [`SUM_SEARCH_LIMIT`] = 2²⁴).
//!
//! **Refused** (an error, never a guess): Moore's Nim_k with binding limits beyond
//! [`SEARCH_LIMIT`] ([`HeapError::SearchTooLarge`]); misère sums with a token that can
//! move whose product exceeds the search limit ([`SumError::SearchTooLarge`]), for
//! example any such token beside a heap of 10⁷ or more.
//!
//! Normal-play sums are never refused: [`play_mixed_sum`] combines the generalised
//! Sprague–Grundy values of the tokens (any graph) and the heap values nᵢ mod (mᵢ + 1)
//! (any sizes) by Smith's rules.

mod dag;
mod error;
mod heaps;
mod loopy;
mod nimber;
pub mod octal;
pub mod play;
mod product;
pub mod render;
mod sum;
mod verify;

pub use crate::dag::{grundy, par_grundy};
pub use crate::error::{BadValue, GrundyError, HeapError, HeapListError, SumError};
pub use crate::heaps::{
    HeapAnswer, HeapGame, HeapMove, Method, Play, SEARCH_LIMIT, heap_value, parse_heaps,
    single_heap, solve_heaps,
};
pub use crate::loopy::{LoopyValues, Value, loopy_grundy, loopy_grundy_in_pool, par_loopy_grundy};
pub use crate::nimber::Nimber;
pub use crate::sum::{
    SUM_SEARCH_LIMIT, SumAnswer, SumGame, SumMove, SumPlay, SumValues, TokenMove, play_misere_sum,
    play_mixed_sum, play_sum,
};
pub use crate::verify::{ValueError, ValueTable, parse_value, verify_values};
pub use gamegraph_graph::Outcome;
