//! What a tier solve takes and gives: its configuration and progress reports, its errors,
//! and the summary of a finished solve.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use gamegraph_graph::Limit;

use crate::{Counts, Outcome};

/// The most tiers a game may have: each reached tier costs a few files and some bytes of
/// bookkeeping, and the tier order is kept in memory.
pub const MAX_TIERS: u32 = 1 << 24;

/// Which pass of the tier solver a [`TierProgress`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TierPhase {
    /// Marking the ranks play reaches (the tier named is the one whose ranks are read).
    Reach,
    /// Computing the values of a tier.
    Solve,
    /// Writing the values file of a solved tier.
    Write,
}

/// Where the tier solver is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierProgress {
    /// The pass.
    pub phase: TierPhase,
    /// The tier whose ranks are being read.
    pub tier: u32,
    /// Ranks of that tier done in this pass (a sweep inside a tier starts again from 0).
    pub done: u64,
    /// Ranks of that tier.
    pub total: u64,
    /// Steps finished in this pass (tiers reached or solved, those of an earlier run
    /// included).
    pub steps_done: u32,
    /// The tiers of the game that play reaches from the start's tier.
    pub steps: u32,
}

/// How [`solve_tiers`](super::solve_tiers) runs.
#[derive(Clone, Default)]
pub struct TierConfig {
    /// Keep no remoteness (outcomes only): files and answers without it. Default `false`.
    pub no_remoteness: bool,
    /// The most memory the solve may use, in bytes: the tier solved and the tier files it
    /// reads. A tier that needs more gives [`TierError::Limit`] before any work. Default:
    /// no limit.
    pub max_memory: Option<u64>,
    /// Give up with [`TierError::Limit`] ([`Limit::Stop`]) once another thread sets this
    /// flag; read after every chunk of 2^16 ranks. Finished tiers stay in the directory.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called after every chunk of ranks, from the threads that did it.
    pub progress: Option<Arc<dyn Fn(TierProgress) + Send + Sync>>,
}

impl fmt::Debug for TierConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TierConfig")
            .field("no_remoteness", &self.no_remoteness)
            .field("max_memory", &self.max_memory)
            .field("stop", &self.stop)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Why a tier solve or a query of its directory failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TierError {
    /// A limit was reached: the [`TierConfig::stop`] flag was set ([`Limit::Stop`]; every
    /// tier finished before is kept), or a tier needs more memory than
    /// [`TierConfig::max_memory`] allows or than could be allocated ([`Limit::Memory`]).
    Limit {
        /// The limit reached.
        limit: Limit,
        /// The tier being worked on.
        tier: u32,
    },
    /// The game broke the [`Tiered`](super::Tiered) contract (see [`check_tiered`](super::check_tiered)).
    Contract {
        /// The tier being worked on.
        tier: u32,
        /// What went wrong.
        message: String,
    },
    /// A remoteness does not fit the value codes (one byte up to 83 plies: the game's
    /// [`remoteness_bound`](super::Tiered::remoteness_bound) is wrong).
    Remoteness {
        /// The tier.
        tier: u32,
        /// The rank in the tier.
        rank: u64,
        /// The remoteness.
        remoteness: u32,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The kind of failure.
        kind: io::ErrorKind,
        /// The system's message.
        message: String,
    },
    /// The directory's manifest or one of its files is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The directory holds another game, or the same game with other settings.
    OtherGame {
        /// What the directory holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
    /// The game has more tiers than [`MAX_TIERS`].
    TooManyTiers {
        /// The game's tier count.
        count: u32,
    },
    /// The directory's solve has not finished: its tier has no values yet.
    Unfinished {
        /// The first tier, parents first, without values.
        tier: u32,
    },
    /// Another worker of a solve across workers ([`solve_tiers_part`](super::solve_tiers_part))
    /// failed or sent a message this one cannot read; the failed worker reports its own
    /// error.
    Peer {
        /// The worker.
        worker: usize,
        /// What this worker saw.
        reason: String,
    },
}

impl fmt::Display for TierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TierError::Limit { limit: Limit::Stop, .. } => {
                f.write_str("stopped; the finished tiers are kept")
            }
            TierError::Limit { limit: limit @ Limit::Memory { .. }, tier } => {
                write!(f, "tier {tier} {limit}")
            }
            TierError::Limit { limit, tier } => write!(f, "{limit} in tier {tier}"),
            TierError::Contract { tier, message } => {
                write!(f, "the game breaks the tier contract in tier {tier}: {message}")
            }
            TierError::Remoteness { tier, rank, remoteness } => write!(
                f,
                "remoteness {remoteness} at rank {rank} of tier {tier} is more than the game's \
                 bound allows"
            ),
            TierError::Io { path, message, .. } => write!(f, "{}: {message}", path.display()),
            TierError::Corrupt { path, reason } => write!(f, "{}: {reason}", path.display()),
            TierError::OtherGame { found, expected } => {
                write!(f, "the directory holds {found}, not {expected}")
            }
            TierError::TooManyTiers { count } => {
                write!(f, "{count} tiers are more than the {MAX_TIERS} a solve by tiers takes")
            }
            TierError::Unfinished { tier } => {
                write!(f, "the solve has not finished: tier {tier} has no values yet")
            }
            TierError::Peer { worker, reason } => write!(f, "worker {worker}: {reason}"),
        }
    }
}

impl std::error::Error for TierError {}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> TierError + '_ {
    move |e| TierError::Io { path: path.to_owned(), kind: e.kind(), message: e.to_string() }
}

/// What a tier solve found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierSummary {
    /// Reachable positions (canonical), by outcome.
    pub counts: Counts,
    /// The start's outcome.
    pub start_outcome: Outcome,
    /// The start's remoteness (`None` for a draw or without remoteness).
    pub start_remoteness: Option<u32>,
    /// `(tier, reachable positions)` for every tier play reaches, parents first.
    pub tiers: Vec<(u32, u64)>,
    /// Steps (reach or solve of a tier) taken from an earlier run in the directory.
    pub resumed: u32,
    /// The bytes of the values files the directory keeps, one per tier.
    pub file_bytes: u64,
}

impl TierSummary {
    /// The reachable positions.
    pub fn positions(&self) -> u64 {
        self.tiers.iter().map(|&(_, n)| n).sum()
    }
}
