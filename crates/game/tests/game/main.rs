//! The integration tests of `gamegraph-game`, one binary: each module checks one part of
//! the crate (exploration, the solvers, values files, the shipped games) against an
//! independent oracle or the definition; `common` holds the games and oracles they share.

mod common;

mod chase;
mod connect4;
mod explore;
mod fixtures;
mod identity;
mod lean;
mod octal;
mod robust;
mod solve;
mod store;
mod tab_heaps;
mod table;
mod tictactoe;
mod tier;
mod tier_dist;
mod verify;
