//! The liveness watch: each process sends every other a heartbeat byte on their beat
//! connection several times per liveness timeout, and watches theirs. A peer that sends
//! nothing for the timeout (a stopped process, an unreachable machine), or whose
//! connection ends without its last word, raises the [`Alarm`]; the workers, which look
//! at it while they wait, then stop, and so does the process.
//!
//! The byte on a beat connection: 1 a heartbeat, 2 the solve ended well (stop watching),
//! 3 the solve ended with an error that every process reports alike (stop watching after
//! [`GRACE`], time enough for this process to reach the same error).

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::ClusterError;

const BEAT: u8 = 1;
const DONE: u8 = 2;
const FAILED: u8 = 3;
/// How long after a peer's failure this process raises the alarm if it has not ended.
const GRACE: Duration = Duration::from_secs(1);

/// Why a peer process is given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Lost(usize),
    Silent(usize, Duration),
}

/// Raised once, by the first fault found; shared by the watch, timely's network threads
/// and the workers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Alarm(Arc<(AtomicBool, Mutex<Option<Fault>>)>);

impl Alarm {
    fn raise(&self, fault: Fault) {
        let mut first = self.0.1.lock().unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(fault);
        }
        self.0.0.store(true, Ordering::Release);
    }

    /// Raises the alarm for a network thread of timely's that failed talking to `process`.
    pub(crate) fn lost(&self, process: usize) {
        self.raise(Fault::Lost(process));
    }

    /// The error of the alarm, once raised.
    pub(crate) fn error(&self) -> Option<ClusterError> {
        if !self.0.0.load(Ordering::Acquire) {
            return None;
        }
        let fault = *self.0.1.lock().unwrap_or_else(PoisonError::into_inner);
        fault.map(|f| match f {
            Fault::Lost(process) => ClusterError::Lost { process },
            Fault::Silent(process, timeout) => ClusterError::Silent { process, timeout },
        })
    }
}

/// The running watch of one process.
pub(crate) struct Watch {
    beats: Vec<TcpStream>,
    stop: Arc<AtomicBool>,
    beater: Option<JoinHandle<()>>,
}

impl Watch {
    /// Starts beating on, and watching, the beat connection of every peer (`beats`, by
    /// process), raising `alarm` after `timeout` of silence.
    ///
    /// # Errors
    /// [`ClusterError::Network`] when a thread or a connection cannot be set up.
    pub(crate) fn start(
        beats: Vec<Option<TcpStream>>,
        timeout: Duration,
        alarm: &Alarm,
    ) -> Result<Watch, ClusterError> {
        let network = |e: std::io::Error| ClusterError::network("liveness watch", e);
        let stop = Arc::new(AtomicBool::new(false));
        let mut writers = Vec::new();
        for (process, beat) in beats.into_iter().enumerate() {
            let Some(beat) = beat else { continue };
            beat.set_read_timeout(Some(timeout)).map_err(network)?;
            writers.push(beat.try_clone().map_err(network)?);
            let (alarm, stop) = (alarm.clone(), Arc::clone(&stop));
            std::thread::Builder::new()
                .name(format!("cluster-watch-{process}"))
                .spawn(move || watch(beat, process, timeout, &alarm, &stop))
                .map_err(network)?;
        }
        let period = (timeout / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
        let mut out = Vec::new();
        for w in &writers {
            out.push(w.try_clone().map_err(network)?);
        }
        let quit = Arc::clone(&stop);
        let beater = std::thread::Builder::new()
            .name("cluster-beat".into())
            .spawn(move || {
                while !quit.load(Ordering::Acquire) {
                    for w in &mut out {
                        let _ = w.write_all(&[BEAT]);
                    }
                    std::thread::park_timeout(period);
                }
            })
            .map_err(network)?;
        Ok(Watch { beats: writers, stop, beater: Some(beater) })
    }

    /// Stops the watch and tells every peer how the solve ended here.
    pub(crate) fn finish(mut self, well: bool) {
        self.stop.store(true, Ordering::Release);
        if let Some(beater) = self.beater.take() {
            beater.thread().unpark();
            let _ = beater.join();
        }
        for b in &mut self.beats {
            let _ = b.write_all(&[if well { DONE } else { FAILED }]);
            let _ = b.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(beater) = &self.beater {
            beater.thread().unpark();
        }
    }
}

/// Watches one peer's beat connection until it says the solve ended, or the watch stops.
fn watch(mut beat: TcpStream, process: usize, timeout: Duration, alarm: &Alarm, stop: &AtomicBool) {
    let mut byte = [0u8; 1];
    loop {
        let fault = match beat.read(&mut byte) {
            Ok(1) if byte[0] == BEAT => continue,
            Ok(1) if byte[0] == DONE => return,
            Ok(1) if byte[0] == FAILED => {
                std::thread::sleep(GRACE);
                Fault::Lost(process)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::TimedOut => {
                Fault::Silent(process, timeout)
            }
            _ => Fault::Lost(process),
        };
        if !stop.load(Ordering::Acquire) {
            alarm.raise(fault);
        }
        return;
    }
}
