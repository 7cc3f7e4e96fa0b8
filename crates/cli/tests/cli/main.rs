//! The command-line tests, one binary: each module drives the `gamegraph` binaries the way a
//! user does (arguments, files, standard input) and checks their output, files and exit codes.

mod server;
mod support;

mod browser;
mod dist;
mod dist_game;
mod game;
mod graph;
mod grundy;
mod hostile;
mod io;
mod kernel;
mod memory;
mod nim;
mod octal;
mod play;
mod proof;
mod retro;
mod serve;
mod tab;
mod tab_fixtures;
mod tiers;
mod verify;
