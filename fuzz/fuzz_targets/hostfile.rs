//! The cluster's hostfile reader never panics; what it accepts has distinct addresses
//! and reads back the same from its own text.
#![no_main]

use gamegraph_cluster::parse_hostfile_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(hosts) = parse_hostfile_bytes(data) else { return };
    assert!(!hosts.is_empty());
    let mut sorted = hosts.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), hosts.len(), "a repeated address was accepted: {hosts:?}");
    let text = hosts.join("\n");
    assert_eq!(parse_hostfile_bytes(text.as_bytes()).expect("reads back"), hosts);
});
