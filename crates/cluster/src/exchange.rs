//! The plumbing every exchange of the cluster uses: a stream whose items each go to one
//! worker, and the inbox where a worker finds what arrived, by time.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Exchange, Input as _, Probe};
use timely::dataflow::{InputHandle, ProbeHandle, Scope};
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::liveness::Alarm;

/// A timely input's container builder.
pub(crate) type Builder<T> = CapacityContainerBuilder<Vec<T>>;

/// Bytes that cross processes as one length and a copy: serde's default for a `Vec<u8>`
/// writes and reads it a byte at a time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Bytes(pub(crate) Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Bytes;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }

            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
        }
        d.deserialize_byte_buf(Visit)
    }
}

/// What a worker received, by time: peers may run a round ahead, so messages of the
/// next time can arrive before the current one is complete.
pub(crate) type Inbox<T> = Rc<RefCell<BTreeMap<u64, Vec<T>>>>;

/// Adds to `scope` the stream of `handle`, each item sent to worker `route(item)`, and
/// returns the inbox where what arrives is filed by time (complete for a time once
/// `probe`, which tracks the stream, has passed it). The items are moved into the inbox,
/// not copied.
pub(crate) fn delivered<T: timely::ExchangeData + Clone>(
    scope: Scope<'_, u64>,
    handle: &mut InputHandle<u64, Builder<T>>,
    route: impl Fn(&T) -> u64 + 'static,
    probe: &ProbeHandle<u64>,
) -> Inbox<T> {
    let inbox: Inbox<T> = Rc::default();
    let sink = Rc::clone(&inbox);
    scope
        .input_from(handle)
        .exchange(move |x: &T| route(x))
        .unary::<Builder<T>, _, _, _>(Pipeline, "Keep", move |_, _| {
            move |input, _| {
                input.for_each(|cap, data| {
                    if let Some(&t) = cap.stamp().elements().first() {
                        sink.borrow_mut().entry(t).or_default().append(data);
                    }
                });
            }
        })
        .probe_with(probe);
    inbox
}

/// The messages of `time` (all of them once the probe has passed it).
pub(crate) fn take<T>(inbox: &Inbox<T>, time: u64) -> Vec<T> {
    inbox.borrow_mut().remove(&time).unwrap_or_default()
}

/// How long a waiting worker parks before it looks at the alarm again.
const PARK: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `worker` until `probe` has passed `time`, parking it when there is nothing to do.
///
/// # Errors
/// The alarm's error, when a peer process was lost while the worker waited.
pub(crate) fn settle(
    worker: &mut Worker,
    probe: &ProbeHandle<u64>,
    time: u64,
    alarm: &Alarm,
) -> Result<(), ClusterError> {
    while probe.less_than(&time) {
        if let Some(e) = alarm.error() {
            return Err(e);
        }
        worker.step_or_park(Some(PARK));
    }
    Ok(())
}
