//! Several tiers of a step solved at once: each in a lane, a thread of the worker with
//! rounds of its own, and the rounds of all lanes carried together in the worker's rounds.
//!
//! Every worker runs the same lanes, and each lane's rounds keep every worker in step as
//! the rounds of one tier do. So in each of the worker's rounds the same lanes have a
//! message on every worker: a round carries, for each such lane, its number, the length of
//! its message and the message; or, when one lane has a message, that message as it is.

use std::sync::mpsc::{Receiver, Sender, channel};

use super::Exchange;
use super::wire::{Link, Reader, link_get, malformed, put};
use crate::tier::TierError;

/// The rounds of one lane.
pub(super) struct Lane {
    me: usize,
    n: usize,
    id: usize,
    post: Sender<(usize, Option<Vec<Vec<u8>>>)>,
    back: Receiver<Option<Vec<Vec<u8>>>>,
}

impl Exchange for Lane {
    type Error = TierError;

    fn worker(&self) -> usize {
        self.me
    }

    fn workers(&self) -> usize {
        self.n
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, TierError> {
        self.exchange_during(out, &mut || {})
    }

    fn exchange_during(
        &mut self,
        out: Vec<Vec<u8>>,
        during: &mut dyn FnMut(),
    ) -> Result<Vec<Vec<u8>>, TierError> {
        let ended = || TierError::Peer { worker: self.me, reason: "its rounds ended".into() };
        self.post.send((self.id, Some(out))).map_err(|_| ended())?;
        during();
        self.back.recv().ok().flatten().ok_or_else(ended)
    }

    fn concurrently<'a>(
        &mut self,
        _: Vec<Box<dyn FnOnce() + Send + 'a>>,
        _: &mut dyn FnMut(&mut Self),
    ) {
        unreachable!("a lane solves one tier");
    }
}

/// Tells the worker that a lane has ended, also when it panics.
struct Ended(usize, Sender<(usize, Option<Vec<Vec<u8>>>)>);

impl Drop for Ended {
    fn drop(&mut self) {
        let _ = self.1.send((self.0, None));
    }
}

impl<X: Exchange> Link<'_, X> {
    /// Runs every job in a lane of its own (on the threads of
    /// [`Exchange::concurrently`]), the rounds of all carried in this worker's rounds, and
    /// returns their results in order once all have ended: the error of the worker's
    /// rounds if they failed, else the first job's error that is not [`TierError::Peer`],
    /// else the first error.
    pub(super) fn lanes<T, F>(&mut self, jobs: Vec<F>) -> Result<Vec<T>, X::Error>
    where
        T: Send,
        F: FnOnce(&mut Link<'_, Lane>) -> Result<T, TierError> + Send,
    {
        let (me, n, k) = (self.me(), self.n, jobs.len());
        let (post, posted) = channel();
        let mut slots: Vec<Option<Result<T, TierError>>> = (0..k).map(|_| None).collect();
        let mut backs = Vec::with_capacity(k);
        let mut carried = None;
        {
            let mut boxed: Vec<Box<dyn FnOnce() + Send + '_>> = Vec::with_capacity(k);
            for (id, (job, slot)) in jobs.into_iter().zip(&mut slots).enumerate() {
                let (back_tx, back) = channel();
                backs.push(back_tx);
                let post = post.clone();
                boxed.push(Box::new(move || {
                    let _ended = Ended(id, post.clone());
                    let mut lane = Lane { me, n, id, post, back };
                    *slot = Some(job(&mut Link::new(&mut lane)));
                }));
            }
            drop(post);
            let backs = &backs;
            self.x.concurrently(boxed, &mut |x| {
                carried = Some(Link::new(x).carry(&posted, backs));
            });
        }
        carried.expect("the rounds were carried")?;
        let results: Vec<Result<T, TierError>> =
            slots.into_iter().map(|s| s.expect("every job ended")).collect();
        let (done, mut errors): (Vec<_>, Vec<_>) = results.into_iter().partition(Result::is_ok);
        if errors.is_empty() {
            return Ok(done.into_iter().filter_map(Result::ok).collect());
        }
        let first = errors.iter().position(|e| !matches!(e, Err(TierError::Peer { .. })));
        let e = errors.swap_remove(first.unwrap_or(0)).err().expect("an error");
        Err(e.into())
    }

    /// The worker's rounds while lanes run: each round once every live lane has a message
    /// or has ended, until all have ended. When the rounds fail, every lane is told.
    fn carry(
        &mut self,
        posted: &Receiver<(usize, Option<Vec<Vec<u8>>>)>,
        backs: &[Sender<Option<Vec<Vec<u8>>>>],
    ) -> Result<(), X::Error> {
        let k = backs.len();
        let mut live = vec![true; k];
        let mut waiting: Vec<Option<Vec<Vec<u8>>>> = vec![None; k];
        let mut failed = None;
        loop {
            while (0..k).any(|i| live[i] && waiting[i].is_none()) {
                let (id, out) = posted.recv().expect("a lane says when it ends");
                match out {
                    Some(_) if failed.is_some() => {
                        let _ = backs[id].send(None);
                    }
                    Some(out) => waiting[id] = Some(out),
                    None => live[id] = false,
                }
            }
            let ids: Vec<usize> = (0..k).filter(|&i| waiting[i].is_some()).collect();
            if ids.is_empty() {
                return failed.map_or(Ok(()), Err);
            }
            if let [id] = ids[..] {
                // The lane's messages are the worker's, status bytes and all: no copy.
                let out = waiting[id].take().expect("a message");
                match self.x.exchange(out) {
                    Ok(got) => {
                        let _ = backs[id].send(Some(got));
                    }
                    Err(e) => {
                        failed = Some(e);
                        let _ = backs[id].send(None);
                    }
                }
                continue;
            }
            let mut out = self.empty();
            for &id in &ids {
                let lane = waiting[id].take().expect("a message");
                for (m, l) in out.iter_mut().zip(lane) {
                    put(m, id as u64);
                    put(m, l.len() as u64);
                    m.extend_from_slice(&l);
                }
            }
            let got = match self.round(out, true) {
                Ok((got, _)) => got,
                Err(e) => {
                    failed = Some(e);
                    for &id in &ids {
                        let _ = backs[id].send(None);
                    }
                    continue;
                }
            };
            let mut back: Vec<Vec<Vec<u8>>> = vec![Vec::with_capacity(self.n); ids.len()];
            for (w, m) in got.into_iter().enumerate() {
                let mut r = Reader::new(&m, w);
                for (b, &id) in back.iter_mut().zip(&ids) {
                    // A message that does not carry this lane's part fails the lane.
                    let part = (|| {
                        if link_get(&mut r)? != id {
                            return Err(malformed(w));
                        }
                        let len = link_get(&mut r)?;
                        r.take(len)
                    })();
                    b.push(part.map_or_else(|_| Vec::new(), <[u8]>::to_vec));
                }
            }
            for (b, &id) in back.into_iter().zip(&ids) {
                let _ = backs[id].send(Some(b));
            }
        }
    }
}
