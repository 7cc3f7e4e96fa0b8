//! Grundy values, sums of games, heaps, misère play and octal games.
//!
//! ```
//! use gamegraph_grundy::Nimber;
//!
//! // The digit sum of SPEC §4: 3 ⊕ 5 ⊕ 6 = 0, a lost sum for the player to move.
//! assert_eq!(Nimber(3) ^ Nimber(5) ^ Nimber(6), Nimber(0));
//! assert_eq!(Nimber::mex([Nimber(0), Nimber(1), Nimber(3)]), Nimber(2));
//! ```

mod nimber;
pub mod octal;

pub use crate::nimber::Nimber;
