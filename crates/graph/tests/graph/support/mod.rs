//! Helpers shared by the integration tests of the binary format.

use gamegraph_graph::format::binary::BlockChecksum;

/// `bytes` (format version 2) with its checksum recomputed, as a writer with a bug would
/// produce: the damage inside gets past the checksum to the structural checks.
pub(crate) fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let mut sum = BlockChecksum::new();
    sum.update(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.finish().to_le_bytes());
    bytes
}
