//! Binary files read in place: mapped, checked on every thread, never copied.

use std::fs::File;

use rayon::prelude::*;

use super::{BLOCK, BlockRead, Checksum, HEADER_LEN, check_blocks, le_u64, parse_header};
use crate::csr::Csr;
use crate::format::GameFile;
use crate::map::{Array, Mapping};
use crate::{Graph, ReadError};

/// Maps a binary graph file and checks it on the current rayon pool, block by block: the
/// checksum and the CSR invariants, in the order [`read_binary`](super::read_binary)
/// checks them, so the errors are the same. The graph's arrays are then views of the
/// mapping (see the crate's `map` module for the contract: the file must not be
/// truncated or changed while the graph is used). `progress` is told how many bytes each
/// checked block had.
///
/// Returns `None`, having read nothing, when the file cannot be read this way: mapping
/// refused, a version-1 file, a header that does not parse or whose sizes do not match
/// the file's length; the caller then reads the file, which reports any error.
///
/// # Complexity
/// O(n + m) work, O((n + m) / p) time on p threads; no extra space (the page cache holds
/// the arrays).
pub(crate) fn map_binary_file(
    file: &File,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Result<GameFile, ReadError>> {
    let len = file.metadata().ok()?.len();
    if len < HEADER_LEN as u64 + 8 {
        return None;
    }
    let map = Mapping::new(file)?;
    let bytes = map.bytes();
    if bytes.len() as u64 != len {
        return None;
    }
    let header: &[u8; HEADER_LEN] = bytes[..HEADER_LEN].try_into().ok()?;
    let h = parse_header(header).ok().filter(|h| h.version >= 2)?;
    let end = usize::try_from(h.checksum_at()).ok()?;
    if end as u64 + 8 != len {
        return None;
    }
    let (n, m) = (h.n, h.m);
    let targets_at = h.targets_at() as usize;
    let offsets = Array::<u64>::mapped(&map, HEADER_LEN, n + 1)?;
    let targets = Array::<crate::Vertex>::mapped(&map, targets_at, m)?;

    let blocks: Vec<BlockRead> = (0..end.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let (at, stop) = (b * BLOCK, ((b + 1) * BLOCK).min(end));
            let mut sum = Checksum::new();
            sum.update(&bytes[at..stop]);
            // The offsets and targets whose bytes are in this block.
            let in_offsets = |x: usize| (x.clamp(HEADER_LEN, targets_at) - HEADER_LEN) / 8;
            let in_targets = |x: usize| (x.max(targets_at) - targets_at) / 4;
            let off = &offsets[in_offsets(at)..in_offsets(stop)];
            let tgt = &targets[in_targets(at)..in_targets(stop)];
            progress((stop - at) as u64);
            BlockRead {
                sum: sum.finish(),
                offsets: off.first().map(|&first| {
                    (first, off[off.len() - 1], off.windows(2).all(|w| w[0] <= w[1]))
                }),
                max_target: tgt.iter().map(|t| t.0).max(),
            }
        })
        .collect();

    if let Err(e) = check_blocks(&blocks, le_u64(&bytes[end..]), offsets[0], n, m) {
        return Some(Err(e));
    }
    let graph = Graph::from_parts(Csr::mapped(offsets, targets), None);
    Some(Ok(GameFile { graph, start: h.start }))
}

#[cfg(test)]
mod tests {
    use super::map_binary_file;
    use crate::format::binary::write_binary_version;
    use crate::format::{read_binary, write_binary};
    use crate::generate::{GenConfig, random};
    use crate::{Graph, Vertex};

    fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("gamegraph-map-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn mapped(
        bytes: &[u8],
        name: &str,
        threads: usize,
    ) -> Option<Result<crate::format::GameFile, String>> {
        let p = temp_file(name, bytes);
        let file = std::fs::File::open(&p).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let r = pool.install(|| map_binary_file(&file, &|_| {}));
        std::fs::remove_file(&p).unwrap();
        r.map(|r| r.map_err(|e| e.to_string()))
    }

    #[test]
    fn a_mapped_file_is_the_graph_that_reading_gives() {
        // 5 blocks of the checksum, offsets ending mid-block; and tiny graphs.
        let big = random(&GenConfig {
            vertices: 70_000,
            arcs: 1_100_000,
            seed: 3,
            ..GenConfig::default()
        });
        let tiny = Graph::from_arcs(3, &[(Vertex(0), Vertex(2)), (Vertex(2), Vertex(2))]).unwrap();
        let empty = Graph::from_arcs(0, &[]).unwrap();
        for (k, (g, start)) in
            [(big, Some(Vertex(7))), (tiny, None), (empty, None)].into_iter().enumerate()
        {
            let mut bytes = Vec::new();
            write_binary(&mut bytes, &g, start).unwrap();
            let want = read_binary(&bytes[..]).unwrap();
            for threads in 1..=3 {
                let got = mapped(&bytes, &format!("ok{k}"), threads).expect("mapped").unwrap();
                assert_eq!(got, want, "graph {k}, {threads} threads");
                assert_eq!(got.graph.predecessor_csr(), want.graph.predecessor_csr());
            }
            // Every damage is refused with the error reading gives, or left to reading.
            for at in [0, 9, 13, 41, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
                let mut bad = bytes.clone();
                bad[at] ^= 0x10;
                let reading = read_binary(&bad[..]).map_err(|e| e.to_string());
                assert!(reading.is_err(), "flip at {at}");
                if let Some(got) = mapped(&bad, &format!("bad{k}-{at}"), 2) {
                    assert_eq!(got.map(|_| ()), reading.map(|_| ()), "flip at {at}");
                }
            }
            assert!(mapped(&bytes[..bytes.len() - 1], &format!("cut{k}"), 2).is_none());
            let mut v1 = Vec::new();
            write_binary_version(&mut v1, &g, start, 1).unwrap();
            assert!(mapped(&v1, &format!("v1-{k}"), 2).is_none(), "version 1 is read, not mapped");
        }
    }
}
