//! The checksums of the binary format: [`Checksum`] over a stream (version 1), and
//! [`BlockChecksum`], the checksum of the checksums of 1 MiB blocks (version 2).

use super::BLOCK;

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;

/// The binary format's checksum: a 64-bit hash of a byte stream, fast (several GB/s)
/// and sensitive to every bit, but not cryptographic.
///
/// The stream is cut into 32-byte stripes of four little-endian u64 words; word `i` of
/// every stripe goes into lane `i` by `lane = rotl(lane + word * P2, 31) * P1` (the
/// round of xxHash64, whose constants it borrows; the result is not xxHash64). The final
/// partial stripe is zero-padded. The four lanes are then folded with rotations, the total
/// length is mixed in, and the SplitMix64 finaliser spreads every input bit over the
/// output.
#[derive(Debug, Clone)]
pub struct Checksum {
    lanes: [u64; 4],
    pending: [u8; 32],
    pending_len: usize,
    total: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

impl Checksum {
    /// The checksum of the empty stream, ready for [`Checksum::update`].
    pub fn new() -> Checksum {
        Checksum {
            lanes: [P1.wrapping_add(P2), P2, 0, P1.wrapping_neg()],
            pending: [0; 32],
            pending_len: 0,
            total: 0,
        }
    }

    /// The checksum of `data`.
    pub fn of(data: &[u8]) -> u64 {
        let mut sum = Checksum::new();
        sum.update(data);
        sum.finish()
    }

    #[inline]
    fn stripe(lanes: &mut [u64; 4], s: &[u8; 32]) {
        for (lane, w) in lanes.iter_mut().zip(s.as_chunks::<8>().0) {
            let w = u64::from_le_bytes(*w);
            *lane = lane.wrapping_add(w.wrapping_mul(P2)).rotate_left(31).wrapping_mul(P1);
        }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.pending_len > 0 {
            let take = (32 - self.pending_len).min(data.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&data[..take]);
            self.pending_len += take;
            data = &data[take..];
            if self.pending_len < 32 {
                return;
            }
            let p = self.pending;
            Self::stripe(&mut self.lanes, &p);
            self.pending_len = 0;
        }
        let (stripes, rest) = data.as_chunks::<32>();
        for s in stripes {
            Self::stripe(&mut self.lanes, s);
        }
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The checksum of everything fed so far.
    pub fn finish(&self) -> u64 {
        let mut lanes = self.lanes;
        if self.pending_len > 0 {
            let mut last = [0u8; 32];
            last[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            Self::stripe(&mut lanes, &last);
        }
        let mut h = lanes[0]
            .rotate_left(1)
            .wrapping_add(lanes[1].rotate_left(7))
            .wrapping_add(lanes[2].rotate_left(12))
            .wrapping_add(lanes[3].rotate_left(18));
        h ^= self.total.wrapping_mul(P3);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }
}

/// The checksum of format version 2, fed as a stream: the [`Checksum`] of the
/// [`Checksum`]s of consecutive [`BLOCK`]-byte blocks (the last one may be shorter), each
/// as 8 little-endian bytes.
#[derive(Debug, Clone, Default)]
pub struct BlockChecksum {
    blocks: Checksum,
    block: Checksum,
    in_block: usize,
}

impl BlockChecksum {
    /// The checksum of the empty stream, ready for [`BlockChecksum::update`].
    pub fn new() -> BlockChecksum {
        BlockChecksum::default()
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (BLOCK - self.in_block).min(data.len());
            self.block.update(&data[..take]);
            self.in_block += take;
            data = &data[take..];
            if self.in_block == BLOCK {
                self.blocks.update(&self.block.finish().to_le_bytes());
                self.block = Checksum::new();
                self.in_block = 0;
            }
        }
    }

    /// The checksum of everything fed so far.
    pub fn finish(&self) -> u64 {
        let mut blocks = self.blocks.clone();
        if self.in_block > 0 {
            blocks.update(&self.block.finish().to_le_bytes());
        }
        blocks.finish()
    }
}

/// The running checksum of one format version.
#[derive(Debug, Clone)]
pub(crate) enum Sum {
    V1(Checksum),
    V2(BlockChecksum),
}

impl Sum {
    pub(crate) fn new(version: u32) -> Sum {
        if version == 1 { Sum::V1(Checksum::new()) } else { Sum::V2(BlockChecksum::new()) }
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Sum::V1(s) => s.update(data),
            Sum::V2(s) => s.update(data),
        }
    }

    pub(crate) fn finish(&self) -> u64 {
        match self {
            Sum::V1(s) => s.finish(),
            Sum::V2(s) => s.finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_is_independent_of_how_the_stream_is_cut() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 3) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&data);
        for cut in [1, 5, 31, 32, 33, 100] {
            let mut parts = Checksum::new();
            for c in data.chunks(cut) {
                parts.update(c);
            }
            assert_eq!(parts.finish(), whole.finish(), "cut {cut}");
        }
        let mut shorter = Checksum::new();
        shorter.update(&data[..999]);
        assert_ne!(shorter.finish(), whole.finish());
        // Zero padding must not make a stream equal to its zero-extended self.
        let mut zero = Checksum::new();
        zero.update(&[0]);
        assert_ne!(zero.finish(), Checksum::new().finish());
    }

    #[test]
    fn every_single_bit_flip_changes_the_checksum() {
        let data: Vec<u8> = (0..80u8).collect();
        let mut base = Checksum::new();
        base.update(&data);
        for i in 0..data.len() * 8 {
            let mut d = data.clone();
            d[i / 8] ^= 1 << (i % 8);
            let mut c = Checksum::new();
            c.update(&d);
            assert_ne!(c.finish(), base.finish(), "bit {i}");
        }
    }
}
