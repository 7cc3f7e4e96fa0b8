//! Binary files read in place: mapped, checked on every thread, never copied.

use std::fs::File;

use rayon::prelude::*;

use super::{
    BLOCK, BlockRead, Checksum, HEADER_LEN, check_blocks, check_predecessors, corrupt, le_u64,
    parse_header, terminals,
};
use crate::csr::Csr;
use crate::format::GameFile;
use crate::map::{Array, Mapping};
use crate::{Graph, ReadError};

/// Maps a binary graph file and checks it on the current rayon pool, block by block: the
/// checksum and the CSR invariants, in the order [`read_binary`](super::read_binary)
/// checks them, so the errors are the same. The graph's arrays are then views of the
/// mapping (see the crate's `map` module for the contract: the file must not be
/// truncated or changed while the graph is used). `len` is the file's length; `progress` is told how many bytes each
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
    len: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Result<GameFile, ReadError>> {
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
    let targets_end = targets_at + 4 * m;
    let index = if h.predecessors {
        let poff = Array::<u64>::mapped(&map, h.predecessors_at() as usize, n + 1)?;
        let pred = Array::<crate::Vertex>::mapped(&map, h.sources_at() as usize, m)?;
        Some((poff, pred))
    } else {
        None
    };

    let blocks: Vec<BlockRead> = (0..end.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let (at, stop) = (b * BLOCK, ((b + 1) * BLOCK).min(end));
            let mut sum = Checksum::new();
            sum.update(&bytes[at..stop]);
            // The offsets and targets whose bytes are in this block.
            let in_offsets = |x: usize| (x.clamp(HEADER_LEN, targets_at) - HEADER_LEN) / 8;
            let in_targets = |x: usize| (x.clamp(targets_at, targets_end) - targets_at) / 4;
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
    let pred = match index {
        Some((poff, pred)) => {
            if bytes[targets_end..h.predecessors_at() as usize].iter().any(|&b| b != 0) {
                return Some(Err(corrupt("the padding before the predecessor index is not zero")));
            }
            if let Err(e) = check_predecessors(&offsets, &targets, &poff, &pred) {
                return Some(Err(e));
            }
            Some(Csr::mapped(poff, pred))
        }
        None => None,
    };
    let graph = Graph::from_parts(Csr::mapped(offsets, targets), pred);
    let terminal = if h.terminals {
        let at = h.terminals_at() as usize;
        match terminals(&graph, bytes[at..end].to_vec()) {
            Ok(t) => Some(t),
            Err(e) => return Some(Err(e)),
        }
    } else {
        None
    };
    Some(Ok(GameFile { graph, start: h.start, terminal }))
}

#[cfg(test)]
mod tests {
    use super::map_binary_file;
    use crate::format::binary::read_binary;
    use crate::format::binary::write_binary_version;
    use crate::format::write_binary;
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
        let len = file.metadata().unwrap().len();
        let r = pool.install(|| map_binary_file(&file, len, &|_| {}));
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

    /// `bytes` with its version-2 checksum recomputed, as a crafted file would have it.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let end = bytes.len() - 8;
        let mut sum = crate::format::binary::BlockChecksum::new();
        sum.update(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.finish().to_le_bytes());
        bytes
    }

    #[test]
    fn the_predecessor_index_is_read_mapped_and_checked() {
        use crate::format::binary::write_binary_with_predecessors;
        let big =
            random(&GenConfig { vertices: 50_000, arcs: 700_001, seed: 9, ..GenConfig::default() });
        let odd = Graph::from_arcs(
            4,
            &[(Vertex(0), Vertex(2)), (Vertex(3), Vertex(2)), (Vertex(1), Vertex(0))],
        )
        .unwrap();
        for (k, g) in [big, odd].into_iter().enumerate() {
            let mut bytes = Vec::new();
            write_binary_with_predecessors(&mut bytes, &g, None).unwrap();
            let streamed = read_binary(&bytes[..]).unwrap();
            assert_eq!(streamed.graph, g);
            assert_eq!(streamed.graph.predecessor_csr(), g.predecessor_csr());
            for threads in 1..=3 {
                let got = mapped(&bytes, &format!("pred{k}"), threads).expect("mapped").unwrap();
                assert_eq!(got.graph, g);
                assert_eq!(got.graph.predecessor_csr(), g.predecessor_csr());
            }
            // Damage that keeps the checksum right: refused all the same, by both readers.
            let n = g.num_vertices();
            let m = g.num_arcs();
            let sources_at = bytes.len() - 8 - 4 * m;
            let pred_at = sources_at - 8 * (n + 1);
            let (poff, pred) = g.predecessor_csr();
            let list = (0..n).find(|&v| {
                let l = &pred[poff[v] as usize..poff[v + 1] as usize];
                l.windows(2).any(|w| w[0] != w[1])
            });
            let mut damages: Vec<(Vec<u8>, &str)> = Vec::new();
            // An arc moved to another source: still sorted, wrong multiset.
            let mut moved = bytes.clone();
            let last = sources_at + 4 * (m - 1);
            let was = u32::from_le_bytes(moved[last..last + 4].try_into().unwrap());
            let to = if was as usize + 1 < n { was + 1 } else { was - 1 };
            let last_list_start = poff[n - 1] as usize;
            if to > was || last_list_start == m - 1 {
                moved[last..last + 4].copy_from_slice(&to.to_le_bytes());
                damages.push((moved, "does not hold the arcs"));
            }
            if let Some(v) = list {
                let at = sources_at + 4 * poff[v] as usize;
                let mut swapped = bytes.clone();
                let (a, b) = (at, at + 4 * (poff[v + 1] - poff[v] - 1) as usize);
                let (x, y) = (swapped[a..a + 4].to_vec(), swapped[b..b + 4].to_vec());
                swapped[a..a + 4].copy_from_slice(&y);
                swapped[b..b + 4].copy_from_slice(&x);
                damages.push((swapped, "out of order"));
            }
            let mut offsets = bytes.clone();
            offsets[pred_at + 8..pred_at + 16].copy_from_slice(&(m as u64 + 1).to_le_bytes());
            damages.push((offsets, "predecessor offsets"));
            if m % 2 == 1 {
                let mut pad = bytes.clone();
                pad[pred_at - 1] = 1;
                damages.push((pad, "padding"));
            }
            for (j, (bad, what)) in damages.into_iter().enumerate() {
                let bad = resealed(bad);
                let e = read_binary(&bad[..]).unwrap_err().to_string();
                assert!(e.contains(what), "graph {k}, damage {j}: {e}");
                let got = mapped(&bad, &format!("pbad{k}-{j}"), 2).expect("mapped").unwrap_err();
                assert_eq!(got, e, "graph {k}, damage {j}");
            }
        }
    }
}
