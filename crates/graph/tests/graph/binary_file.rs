//! The parallel file reader of the binary format against the streaming reader: the same
//! graphs, the same errors, on every pool; and the block checksum of version 2.

use std::fs::File;
use std::path::PathBuf;

use gamegraph_graph::format::binary::{
    BLOCK, BinaryParts, BlockChecksum, Checksum, write_binary_version,
    write_binary_with_predecessors,
};
use gamegraph_graph::format::{self, Format, GameFile, ReadOptions, write_binary};
use gamegraph_graph::generate::{GenConfig, random};
use gamegraph_graph::open::{self, OpenError, Options};
use gamegraph_graph::{Graph, ReadError, Vertex};

use crate::support::resealed;

fn read_binary(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

/// A file in the system's temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn with(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("gamegraph-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    /// Reads the file in `k` parts (vertex ranges of equal size) and judges it; the graph
    /// is put together from the parts.
    fn read_in_parts(&self, k: usize) -> Result<GameFile, ReadError> {
        let file = BinaryParts::open(File::open(&self.0).unwrap())?;
        let n = file.num_vertices();
        let size = n.div_ceil(k).max(1);
        let parts: Vec<_> = (0..k)
            .map(|i| file.read_part((i * size).min(n)..((i + 1) * size).min(n)))
            .collect::<Result<_, _>>()?;
        let sums: Vec<u64> =
            (0..file.num_blocks()).map(|b| file.block_sum(b)).collect::<Result<_, _>>()?;
        let checks: Vec<_> = parts.iter().map(|p| p.check).collect();
        file.verdict(&sums, &checks)?;
        let mut offsets = vec![0u64];
        let mut targets = Vec::new();
        for p in parts {
            offsets.extend_from_slice(&p.offsets[1..]);
            targets.extend_from_slice(&p.targets);
        }
        Ok(GameFile::new(Graph::from_csr(offsets, targets).unwrap(), file.start()))
    }

    fn read(&self, threads: usize) -> Result<GameFile, ReadError> {
        // The parallel reader of files, not the mapping.
        let options = Options { format: Some(Format::Binary), mmap: false, ..Options::default() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        match pool.install(|| open::open(&self.0, &options)) {
            Ok(opened) => Ok(opened.file),
            Err(OpenError::Read { error, .. }) => Err(error),
            Err(e) => panic!("{e}"),
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn graph(n: usize, m: usize) -> Graph {
    random(&GenConfig { vertices: n, arcs: m, seed: 7, self_loops: true, ..GenConfig::default() })
}

fn bytes(g: &Graph, start: Option<Vertex>, version: u32) -> Vec<u8> {
    let mut out = Vec::new();
    write_binary_version(&mut out, g, start, version).unwrap();
    out
}

#[test]
fn block_checksum_is_the_checksum_of_the_block_checksums() {
    let data: Vec<u8> = (0..(5 * BLOCK / 2) as u32).map(|i| (i ^ (i >> 9)) as u8).collect();
    let mut expected = Checksum::new();
    for block in data.chunks(BLOCK) {
        expected.update(&Checksum::of(block).to_le_bytes());
    }
    for cut in [1, 31, 4096, BLOCK - 1, BLOCK, BLOCK + 3, data.len()] {
        let mut sum = BlockChecksum::new();
        data.chunks(cut).for_each(|c| sum.update(c));
        assert_eq!(sum.finish(), expected.finish(), "cut {cut}");
    }
    let mut short = BlockChecksum::new();
    short.update(&data[..100]);
    assert_eq!(short.finish(), Checksum::of(&Checksum::of(&data[..100]).to_le_bytes()));
}

#[test]
fn reads_what_the_streaming_reader_reads_on_every_pool() {
    // 0 arcs; a few bytes; 5 blocks, the offsets ending inside a block; the checksum
    // right after the end of the first block.
    let exact = (BLOCK - 40 - 8 * 1001) / 4;
    for (n, m) in [(1, 0), (5, 20), (250_000, 260_000), (1000, exact)] {
        let g = graph(n, m);
        for version in [1, 2] {
            for start in [None, Some(Vertex(0))] {
                let b = bytes(&g, start, version);
                let file = TempFile::with(&format!("ok-{n}-{version}"), &b);
                let expected = read_binary(&b[..]).unwrap();
                assert_eq!(expected.graph, g);
                for threads in 1..=3 {
                    let got = file.read(threads).unwrap();
                    assert_eq!(got, expected, "n {n} m {m} version {version} threads {threads}");
                }
                for k in [1, 2, 3, 7] {
                    let got = file.read_in_parts(k).unwrap();
                    assert_eq!(got, expected, "n {n} m {m} version {version} in {k} parts");
                }
            }
        }
    }
}

#[test]
fn errors_are_those_of_the_streaming_reader() {
    let g = graph(200_000, 300_000);
    let good = bytes(&g, Some(Vertex(3)), 2);
    let targets_at = 40 + 8 * 200_001;
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    for cut in [0, 7, 39, 40, 1000, BLOCK, targets_at + 5, good.len() - 1] {
        cases.push(("truncated", good[..cut].to_vec()));
    }
    let mut trailing = good.clone();
    trailing.push(1);
    cases.push(("trailing", trailing));
    for at in [100, BLOCK + 17, good.len() - 9, good.len() - 1] {
        let mut flipped = good.clone();
        flipped[at] ^= 4;
        cases.push(("flipped", flipped));
    }
    // Offsets decreasing across a block boundary (offset index (BLOCK - 40) / 8 starts
    // block 1), and inside a block.
    for index in [(BLOCK - 40) / 8, 10] {
        let mut offsets = good.clone();
        let at = 40 + 8 * index;
        offsets[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        cases.push(("offsets", resealed(offsets)));
    }
    let mut last_offset = good.clone();
    last_offset[targets_at - 8] ^= 1;
    cases.push(("last offset", resealed(last_offset)));
    let mut target = good.clone();
    target[targets_at + 4 * 123_456..][..4].copy_from_slice(&200_000u32.to_le_bytes());
    cases.push(("target", resealed(target)));
    let mut version = good.clone();
    version[8] = 9;
    cases.push(("version", version));
    for (what, b) in cases {
        let expected = read_binary(&b[..]).unwrap_err().to_string();
        let file = TempFile::with(&format!("bad-{}", b.len()), &b);
        for threads in [1, 2] {
            let got = file.read(threads).unwrap_err().to_string();
            assert_eq!(got, expected, "{what}, {} bytes, {threads} threads", b.len());
        }
        for k in [1, 3] {
            let got = file.read_in_parts(k).unwrap_err().to_string();
            assert_eq!(got, expected, "{what}, {} bytes, in {k} parts", b.len());
        }
    }
}

#[test]
fn parts_of_a_file_with_the_predecessor_index_are_its_successor_lists() {
    let g = graph(3000, 7001);
    let mut b = Vec::new();
    write_binary_with_predecessors(&mut b, &g, Some(Vertex(5))).unwrap();
    let file = TempFile::with("parts-pred", &b);
    for k in [1, 4] {
        let got = file.read_in_parts(k).unwrap();
        assert_eq!(got.graph.successor_csr(), g.successor_csr());
        assert_eq!(got.start, Some(Vertex(5)));
    }
    let mut flipped = b.clone();
    flipped[b.len() - 100] ^= 1;
    let file = TempFile::with("parts-pred-bad", &flipped);
    let expected = read_binary(&flipped[..]).unwrap_err().to_string();
    assert_eq!(file.read_in_parts(2).unwrap_err().to_string(), expected);
}

#[test]
fn write_binary_writes_the_current_version() {
    let g = graph(10, 30);
    let mut out = Vec::new();
    write_binary(&mut out, &g, None).unwrap();
    assert_eq!(out, bytes(&g, None, 2));
    assert_eq!(out[8..12], 2u32.to_le_bytes());
    assert_ne!(bytes(&g, None, 1), out);
    let e = write_binary_version(&mut Vec::new(), &g, None, 3).unwrap_err();
    assert_eq!(e.to_string(), "binary format version 3 does not exist (1 to 2)");
}
