//! One module per subcommand: its `Args` (clap) and its `run`.

pub(crate) mod convert;
pub(crate) mod dist;
pub(crate) mod game;
pub(crate) mod generate;
pub(crate) mod grundy;
pub(crate) mod info;
pub(crate) mod kernel;
pub(crate) mod nim;
pub(crate) mod octal;
pub(crate) mod play;
pub(crate) mod retro;
pub(crate) mod serve;
pub(crate) mod subtraction;
pub(crate) mod tab;
pub(crate) mod verify;
