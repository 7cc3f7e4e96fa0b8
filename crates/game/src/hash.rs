//! A fast hasher for packed positions.

use std::hash::{BuildHasherDefault, Hasher};

/// Hashes the integers a packed position is made of: a multiply-rotate accumulator,
/// finished by the 64-bit MurmurHash3 mixer so that every output bit depends on every
/// input bit (the shard of a position is taken from the top bits, the hash table uses the
/// bottom ones).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PositionHasher(u64);

/// Builds [`PositionHasher`]s.
pub(crate) type BuildPositionHasher = BuildHasherDefault<PositionHasher>;

impl PositionHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for PositionHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }

    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.add(u64::from(x));
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }

    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.add(x as u64);
        self.add((x >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The hash of one value with [`PositionHasher`].
#[inline]
pub(crate) fn hash_of<T: std::hash::Hash>(x: &T) -> u64 {
    let mut h = PositionHasher::default();
    x.hash(&mut h);
    h.finish()
}
