//! The layer between gamegraph's solvers and its front ends (the command line, Python and
//! the page): the registry of shipped games by name ([`Spec`], [`ENTRIES`]), engines that
//! answer a game's values from memory or from a values file behind one object-safe trait
//! ([`Engine`]), and play sessions over them ([`Session`]): legal moves named the way the
//! game names them, hints, the engine's move, undo, repetition, and the value after every
//! move.
//!
//! ```
//! use gamegraph_game::{ExploreConfig, Outcome};
//! use gamegraph_play::{Session, Spec, engine};
//!
//! let spec = Spec::parse(&["tic-tac-toe"]).unwrap();
//! let engine = spec.visit(engine::Solve(ExploreConfig::default())).unwrap().unwrap();
//! let mut s = Session::new(engine).unwrap();
//! assert_eq!(s.value(), (Outcome::Tie, Some(9)));
//! s.play("b2").unwrap();
//! s.play("a1").unwrap();
//! assert_eq!(s.show(), ".../.X./O..");
//! println!("{}", s.best().unwrap().advice());
//! print!("{}", s.board().unwrap());
//! ```

pub mod engine;
mod heaps;
mod registry;
mod session;
mod text;
mod view;

pub use crate::engine::{Engine, LookupError, OpenError, Pos};
pub use crate::heaps::{HeapPlayError, HeapReply, HeapSession, HeapTake, HeapView};
pub use crate::registry::{ENTRIES, Entry, Spec, SpecError, Visit};
pub use crate::session::{End, IllegalMove, Move, PlayError, Session, Step};
pub use crate::text::list;
pub use crate::view::{BoardView, MoveView, StepView, View};
